/* Sim port types: tasks are ucontext contexts, time is virtual nanoseconds. */
#ifndef TAKT_PORT_TYPES_H
#define TAKT_PORT_TYPES_H

#include <stdint.h>
#include <ucontext.h>

typedef uint64_t takt_stamp_t;

/* A critical section's key: the nesting depth it found (port_sim.c). */
typedef uint32_t port_critical_t;

typedef struct {
    ucontext_t uc;
} port_context_t;

/* Hardware priority queues, the C model of hw/ (port_sim_hwpq.c): unit 0
 * for the EDF ready queue, unit 1 free for a timer queue. */
#define TAKT_PORT_HWPQ_UNITS 2

#endif
