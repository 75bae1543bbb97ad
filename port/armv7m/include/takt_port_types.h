/* Cortex-M (ARMv7-M) port types: a task's context is its saved stack pointer
 * (the registers live on its own stack); time stamps are nanoseconds. */
#ifndef TAKT_PORT_TYPES_H
#define TAKT_PORT_TYPES_H

#include <stdint.h>

typedef uint64_t takt_stamp_t;

/* A critical section's key: the BASEPRI it found (takt_port_inline.h). */
typedef uint32_t port_critical_t;

typedef struct {
    uint32_t *sp; /* process stack pointer while the task is switched out */
} port_context_t;

/* The boards have no hardware priority queue; a program built with
 * TAKT_ARM_HWPQ_EMULATED (takt_arm_emulate_hwpq in cmake/takt.cmake) gets
 * two, emulated by hw/'s model with SysTick stopped (hwpq_emulated.c). */
#ifdef TAKT_ARM_HWPQ_EMULATED
#define TAKT_PORT_HWPQ_UNITS 2
#endif

#endif
