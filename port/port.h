/*
 * The port contract: everything the kernel needs from a processor or host.
 * Each port (port/sim, port/armv7m) implements these functions and supplies
 * takt_port_types.h (port_context_t, takt_stamp_t, port_critical_t). Nothing
 * above port/ contains assembly or host calls.
 */
#ifndef TAKT_PORT_H
#define TAKT_PORT_H

#include <stdbool.h>
#include <stddef.h>

#include "takt/task.h"
/* A port may define the hot functions below inline there (and
 * TAKT_PORT_INLINE_CRITICAL); otherwise they are ordinary functions. */
#include "takt_port_inline.h"

/* Called before the kernel writes a new task's stack, which may have been
 * another task's (static stacks are reused): a host port forgets what its
 * sanitizers knew about the old frames. Target ports: nothing to do. */
void port_stack_claim(void *stack, size_t size);

/* Prepares a new task's context so that switching to it calls task->entry(task->arg)
 * through takt_task_trampoline. */
void port_task_init(takt_task_t *task);

/* Starts the first task (the kernel chose it as the running task).
 * Target: never returns. Sim: returns when the simulation ends. */
void port_start(takt_task_t *first);

#ifndef TAKT_PORT_INLINE_CRITICAL
/*
 * Asks for a switch point: the port calls takt_sched_switch_point() and switches
 * to the task it returns as soon as switching is allowed — at once from task
 * context outside a critical section, otherwise at interrupt exit or at the end
 * of the critical section (Cortex-M: PendSV). The kernel asks only once it
 * started, unless the port defines TAKT_PORT_SWITCH_REQUEST_ANY_TIME: then a
 * request outside a run must be harmless (Cortex-M: PendSV finds no run and
 * returns), and every wake saves the test.
 */
void port_request_switch(void);

/*
 * Interrupt masking for kernel critical sections; nests. Keyed: enter masks
 * and returns a key describing what it found (Cortex-M: the BASEPRI before
 * raising it; sim: the nesting depth), and exit(key) restores exactly that,
 * so the outermost exit unmasks and a nested one leaves the mask on. Every
 * exit gets the key of its own enter, and sections end in reverse order
 * (the sim checks both). A section a function leaves open, or closes for its
 * caller, travels as a port_critical_t parameter.
 */
port_critical_t port_critical_enter(void);
void port_critical_exit(port_critical_t key);

/* port_critical_enter() where the caller knows nothing is masked: a task
 * that has just come back from a wait (its section ended at the switch). A
 * port may skip finding out; the sim checks it. The caller makes no task
 * ready in this section (it asks for no port_instant), so a port that
 * numbers its sections as instants need not count this one. */
port_critical_t port_critical_enter_unmasked(void);

/* True while an interrupt handler runs. */
bool port_in_isr(void);

/* The instant now, for ordering tasks that became ready at the same instant
 * (SCHEDULING.md "Order of events"): two calls return equal values exactly
 * when they happen at the same instant; only equality is meaningful. The sim
 * returns its virtual time; a target may number its kernel operations rather
 * than read a clock (port/armv7m: takt_port_inline.h). A port whose values
 * are also ordered (a later instant is larger) and multiples of 2^16 defines
 * TAKT_PORT_ORDERED_INSTANTS, and the kernel puts the task id in the low 16
 * bits and uses that as the ready order, instead of numbering the instants
 * itself (sched/core.c). */
takt_stamp_t port_instant(void);

/* The instant of the switch point (takt_sched_switch_point), asked for only
 * when it makes the running task ready again (a yield, a slice's end, a
 * demotion behind its equals). A port that numbers its kernel operations
 * need not count a switch that stamps nothing, and takes its number here
 * (port/armv7m); the sim returns port_instant(). */
takt_stamp_t port_switch_instant(void);
#endif

#ifndef TAKT_PORT_REQUEST_SWITCH_LOCKED
/* port_request_switch for a caller that holds the kernel lock (a critical
 * section, or an interrupt at the kernel's level): the switch cannot come
 * before the lock's end, so a port may leave out what makes a request take
 * effect at once (Cortex-M: the isb after pending PendSV). */
static inline void port_request_switch_locked(void)
{
    port_request_switch();
}
#endif

#ifndef TAKT_PORT_CRITICAL_EXIT_FROM_ISR
/* port_critical_exit for a section an interrupt handler opened: a port whose
 * exit also does something only a task's section needs (Cortex-M: ending a
 * switch the task's modelled work held back) may leave it out here. */
static inline void port_critical_exit_from_isr(port_critical_t key)
{
    port_critical_exit(key);
}
#endif

#ifndef TAKT_PORT_INLINE_TICK
/* Bracket what a tick does beyond counting (takt_tick_from_isr: expiries, the
 * policy's tick, the tick hook); a tick that does nothing else calls neither.
 * In between, port_instant and port_timestamp give the tick's instant. A port
 * whose instants come from its clock (the sim) has nothing to do here. */
static inline void port_tick_events_begin(void) {}
static inline void port_tick_events_end(void) {}
/* port_tick_events_begin for events whose first act makes a task ready:
 * returns the tick's instant too (port_instant() inside the events). A port
 * that takes the tick's instant when first asked for takes it here, and
 * need not find out whether it is in the tick; one whose instants come from
 * its clock returns port_instant(). */
static inline takt_stamp_t port_tick_events_begin_instant(void)
{
    port_tick_events_begin();
    return port_instant();
}
#endif

/* Monotonic time stamp for trace events (sim: virtual ns). */
takt_stamp_t port_timestamp(void);

/* The idle task's wait: until the next interrupt (target: WFI; sim: advance
 * virtual time to the next interrupt and run it). With
 * TAKT_CONFIG_IDLE_SHARES_LEVEL and TAKT_CONFIG_IDLE_YIELDS, a port whose
 * interrupts can come at any instruction asks takt_idle_gives_way() again
 * with them held off and returns at once if it is true, so that a task of
 * the idle task's level that an interrupt readied after the idle loop asked
 * does not wait for the next interrupt. */
void port_idle(void);

/*
 * The hardware priority queue (hw/), for a port whose platform has one: it
 * defines TAKT_PORT_HWPQ_UNITS (how many devices) in takt_port_types.h and
 * gives register access to them, by unit and byte offset (hw/include/
 * hwpq_regs.h). The kernel's driver (kernel/ds/pq_hw.c) and the EDF ready
 * queue over it exist only on such a port. The sim port's devices are the
 * C model (hw/model); the MPS2 boards have none.
 */
#ifdef TAKT_PORT_HWPQ_UNITS
uint32_t port_hwpq_read(unsigned unit, uint32_t offset);
void port_hwpq_write(unsigned unit, uint32_t offset, uint32_t value);
#endif

/* Minimum stack a task needs on this port, in bytes. */
size_t port_min_stack_size(void);

/* The kernel side of the contract, called by the port. */

/* Decides which task runs next and makes it current; returns it.
 * Assumptions: switching is allowed (task level, not in a critical section). */
takt_task_t *takt_sched_switch_point(void);

/* The running task: the one takt_start chose, then the one each switch point
 * returned, until the next. A port's switch saves the outgoing context
 * through it and keeps no copy of its own (a store per switch). Its slot is
 * the first word of the kernel's state, the object TAKT_PORT_RUNNING_SYMBOL
 * names (internal.h checks the offset), for a switch written in assembly;
 * takt_sched_running reads it from C. */
#define TAKT_PORT_RUNNING_SYMBOL "takt_kernel"
takt_task_t *takt_sched_running(void);

/* Whether the idle task should yield instead of sleeping: it shares its level
 * and a task there is ready (false unless TAKT_CONFIG_IDLE_SHARES_LEVEL and
 * TAKT_CONFIG_IDLE_YIELDS). Called by the idle task; interrupts may be held off. */
bool takt_idle_gives_way(void);

/* First code of every task: runs its entry; a returning entry deletes the task. */
void takt_task_trampoline(void);

#endif
