/*
 * Kernel trace: fixed-size timestamped events in a ring buffer.
 *
 * The trace is the one record of what happened: the toolkit turns it into the
 * timeline, the job table, Perfetto JSON and Gantt charts. It never drops an
 * event silently: when the ring is full (and the drain hook, if configured,
 * did not make room) the event is counted as lost, and the next event that
 * fits is preceded by a TAKT_EV_OVERFLOW event carrying the count.
 */
#ifndef TAKT_TRACE_H
#define TAKT_TRACE_H

#include "takt/types.h"
#include "takt_port_types.h"

typedef enum {
    TAKT_EV_TASK_CREATE = 1,   /* arg: priority */
    TAKT_EV_RELEASE = 2,       /* arg: job index */
    TAKT_EV_DISPATCH = 3,      /* task starts or resumes running; arg: job index */
    TAKT_EV_PREEMPT = 4,       /* running task goes back to ready; arg: job index */
    TAKT_EV_BLOCK = 5,         /* arg: takt_wait_t */
    TAKT_EV_WAKE = 6,          /* blocked task becomes ready; arg: takt_wait_t */
    TAKT_EV_COMPLETE = 7,      /* arg: job index */
    TAKT_EV_DEADLINE_MISS = 8, /* arg: job index */
    TAKT_EV_SUSPEND = 9,
    TAKT_EV_RESUME = 10,
    TAKT_EV_DELETE = 11,
    TAKT_EV_PRIORITY = 12,     /* arg: new priority (recorded before it applies) */
    TAKT_EV_ISR_ENTER = 13,    /* task: none; arg: irq number */
    TAKT_EV_ISR_EXIT = 14,
    TAKT_EV_STACK_OVERFLOW = 15,
    TAKT_EV_OVERFLOW = 16,     /* arg: events lost since the last overflow event */
    TAKT_EV_YIELD = 17,
    TAKT_EV_PREEMPTION_POINT = 18, /* the running task reached a point with a switch waiting */
    /* Servers (HSF): the task field is the server index, not a task id. */
    TAKT_EV_SERVER_REPLENISH = 19, /* arg: budget after the replenishment (ticks) */
    TAKT_EV_SERVER_DEPLETE = 20,   /* budget reached 0 at this tick; arg: 0 */
    /* The running server changed (before the DISPATCH it causes, if any); task:
     * its index or TAKT_TRACE_NO_TASK for the idle server; arg: its remaining budget. */
    TAKT_EV_SERVER_SWITCH = 21,
    /* Synchronisation (22..39). */
    TAKT_EV_WAIT_TIMEOUT = 22,  /* a wait on an object timed out (WAKE follows); arg: takt_wait_t */
    TAKT_EV_MUTEX_LOCK = 23,    /* the task now holds a mutex (lock or hand-off); arg: depth */
    TAKT_EV_MUTEX_UNLOCK = 24,  /* the task released a mutex (last level) */
    TAKT_EV_DEADLINE_INHERIT = 25, /* EDF: the task now runs by an inherited deadline; arg: tick */
    TAKT_EV_DEADLINE_RESTORE = 26, /* EDF: it no longer inherits a deadline */
    /* A tick, before its count advances; arg: the count (low 32 bits). Only
     * for takt_trace_hook: never in the ring. */
    TAKT_EV_TICK = 27,
} takt_event_type_t;

#define TAKT_TRACE_NO_TASK 0xFFFFu

/* 16 bytes, little-endian on every supported target and host. */
typedef struct {
    uint64_t stamp; /* port time stamp (sim: virtual nanoseconds) */
    uint16_t type;  /* takt_event_type_t */
    uint16_t task;  /* task id, or TAKT_TRACE_NO_TASK */
    uint32_t arg;
} takt_trace_event_t;

/* Copies up to max oldest events out of the ring; returns how many (0, and
 * nothing taken, for a NULL out). Any context. */
size_t takt_trace_read(takt_trace_event_t *out, size_t max);

/* Events lost to a full ring since start. */
uint32_t takt_trace_lost(void);

#if TAKT_CONFIG_TRACE_HOOK
/* Supplied by the application (TAKT_CONFIG_TRACE_HOOK): called with every
 * event as the kernel records it, inside the kernel's section (kernel
 * interrupts masked), from a task or an interrupt. task: the task the event
 * is about, or NULL (an interrupt's, a server's, a tick's); id: its id, the
 * server index, or TAKT_TRACE_NO_TASK. A DISPATCH comes before the switch:
 * takt_task_running() is still the task that stops running (NULL at the
 * first). Other events come before what they record is done (a task
 * created, woken or resumed is not yet queued). It must not block or call
 * the kernel's blocking calls. */
void takt_trace_hook(takt_event_type_t type, struct takt_task *task, uint16_t id, uint32_t arg);
#endif
#if TAKT_CONFIG_TRACE && TAKT_CONFIG_TRACE_DRAIN_HOOK
/* Supplied by the application: called with the ring full; may call takt_trace_read. */
void takt_trace_drain_hook(void);
#endif

#endif
