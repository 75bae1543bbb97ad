/* Starting the kernel, time, and interrupt entry points. */
#ifndef TAKT_KERNEL_H
#define TAKT_KERNEL_H

#include "takt/task.h"

/*
 * Preemption modes (SCHEDULING.md "Preemption modes"). The mode sets every
 * task's default: FULL makes tasks preemptive; NONE and DEFERRED make them
 * non-preemptive, so a higher-priority job waits until the running one
 * completes, blocks, or (DEFERRED, and non-preemptive tasks under FULL)
 * reaches a preemption point. Under NONE preemption points do nothing.
 */
typedef enum {
    TAKT_PREEMPT_FULL,
    TAKT_PREEMPT_NONE,
    TAKT_PREEMPT_DEFERRED,
} takt_preemption_t;

/* Scheduling policy and ready queue (runtime choice among those built in);
 * in the order of the TAKT_POLICY_* configuration values. */
typedef enum {
    TAKT_SCHED_FP,          /* fixed priority, bitmap of FIFO lists */
    TAKT_SCHED_EDF_HEAP,    /* EDF, binary min-heap (EDF-H) */
    TAKT_SCHED_EDF_MLIST,   /* EDF, Pathan's multiple lists (EDF-L) */
    TAKT_SCHED_EDF_RBTREE,  /* EDF, red-black tree */
    TAKT_SCHED_HSF,         /* two-level hierarchy of servers (takt/server.h); full preemption */
    TAKT_SCHED_FP_LIST,     /* fixed priority, one priority-ordered list */
    TAKT_SCHED_EDF_HWPQ,    /* EDF, the hardware priority queue (hw/; the sim port's model) */
    TAKT_SCHED_FP_HWPQ,     /* fixed priority, its levels indexed by the hardware priority queue */
} takt_scheduler_t;

typedef struct {
    takt_scheduler_t scheduler;
    takt_tick_t tick_start;      /* initial tick count (tests start it just below overflow) */
    bool round_robin;            /* time-slice equal priorities (needs TAKT_CONFIG_ROUND_ROBIN) */
    takt_preemption_t preemption;
} takt_init_params_t;

/* Initialises the kernel and creates the idle task. params may be NULL
 * (defaults: the scheduler TAKT_CONFIG_POLICY names, tick 0, no round-robin,
 * full preemption).
 * Under EDF, periodic tasks are scheduled by the absolute deadline of their
 * current job; tasks without a period run in the background (FIFO, behind
 * every job with a deadline), and priorities are ignored. Call once, before any other call.
 * Under HSF, tasks live in servers (takt/server.h) and the preemption mode must be FULL.
 * EDF_HWPQ needs a port with the hardware priority queue whose unit 0 holds
 * TAKT_CONFIG_MAX_TASKS entries, FP_HWPQ one whose unit 0 holds
 * TAKT_CONFIG_MAX_PRIORITIES - 1 (the sim's do unless configured smaller):
 * TAKT_ERR_ARG on any other.
 * TAKT_ERR_ARG for an unsupported option; TAKT_ERR_STATE while the kernel runs
 * (called from a task or an interrupt after takt_start), and after another
 * takt_init without a takt_teardown since (its tasks would stay live but
 * unknown to the new kernel). */
int takt_init(const takt_init_params_t *params);

/* Starts scheduling. On a target it does not return; on the sim port (and
 * the Cortex-M port's ended runs, takt_armv7m.h) it returns TAKT_OK when the
 * run ends. TAKT_ERR_STATE, at once, while the kernel runs already (called from
 * a task) or without a takt_init since the start or the last takt_teardown. */
int takt_start(void);

/* Current tick count. Any context. */
takt_tick_t takt_tick_count(void);

/* The tick interrupt's kernel work; the port's tick source calls it. */
void takt_tick_from_isr(void);

/*
 * Ticks that never came (interrupts were masked for longer than a tick, so
 * the tick interrupts were lost), done now as if they had: each one's work
 * (releases, wakes, timeouts, soft timers, budgets, slices) one after another
 * with interrupts masked, then the switch they call for, so a task they make
 * ready runs with all of them counted (FreeRTOS's xTaskCatchUpTicks). The
 * port's clock does not move: only the kernel's tick count does. *switched
 * (may be NULL): whether the caller was switched away before this returned.
 * TAKT_ERR_ARG for more than INT32_MAX ticks; TAKT_ERR_STATE before the
 * start or with the scheduler locked; TAKT_ERR_CONTEXT from an interrupt or
 * inside takt_critical_enter. Context: task. May reschedule.
 */
int takt_tick_catch_up(uint32_t ticks, bool *switched);

#if TAKT_CONFIG_IDLE_MEMORY_FROM_APP
/* Supplied by the application with TAKT_CONFIG_IDLE_MEMORY_FROM_APP: the idle
 * task's control block and stack (its 16-byte aligned part at least the
 * port's minimum), asked for by every takt_init, which refuses a NULL control
 * block, a NULL or smaller stack, or the two overlapping (TAKT_ERR_ARG), and then
 * changes nothing. The kernel holds no idle control block of its own then:
 * takt_task_idle() is tcb. */
void takt_idle_memory(takt_task_t **tcb, void **stack, size_t *size);
#endif

#if TAKT_CONFIG_IDLE_HOOK
/* Supplied by the application: called by the idle task on every pass of its
 * loop, before it waits for the next interrupt. Must not block. */
void takt_idle_hook(void);
#endif

#if TAKT_CONFIG_TICKLESS_IDLE
/* takt_tickless_idle_ticks() when no timer is queued: only an interrupt ends
 * the sleep, and the port sleeps as long as its timer can count. */
#define TAKT_IDLE_TICKS_UNBOUNDED UINT32_MAX

/*
 * Tickless idle, for the port's idle sleep: the ticks until the next timer
 * is due (its tick is the n-th from now), or TAKT_IDLE_TICKS_UNBOUNDED; 0 when
 * the tick must not stop: the caller is not the idle task running alone (a
 * task is ready beside it, or a switch to another is pending), the policy has
 * a tick of its own (hsf), or the timer is due in fewer than
 * TAKT_CONFIG_TICKLESS_MIN_TICKS ticks. Called with interrupts held off, so
 * the answer holds until the sleep begins.
 */
takt_tick_t takt_tickless_idle_ticks(void);

/* For the port: the ticks its sleep shall last, takt_tickless_idle_ticks()
 * capped at `most` (what its timer can count, the run's end) and then the
 * application's plan (takt_sleep_plan), or 0 for no sleep. */
takt_tick_t takt_tickless_sleep_ticks(takt_tick_t most);

/*
 * Counts `ticks` ticks whose interrupts the port's sleep left out, without
 * their events (there are none: they come before the next timer) or the tick
 * hook. A step that reaches the next timer's tick is refused (TAKT_ERR_ARG),
 * as is one of more than INT32_MAX ticks: the port leaves the tick that ends
 * the sleep to its tick interrupt. TAKT_ERR_STATE under a policy with a tick
 * (hsf) or before the start. For the port, with interrupts held off.
 */
int takt_tick_step(takt_tick_t ticks);
#endif

#if TAKT_CONFIG_SLEEP_HOOKS
/* Supplied by the application (TAKT_CONFIG_SLEEP_HOOKS), called by the port
 * in the idle task with interrupts held off:
 * - takt_sleep_plan before the sleep, with the ticks it may last; returns how
 *   many it shall last at most (less than TAKT_CONFIG_TICKLESS_MIN_TICKS: no
 *   sleep, and neither of the others).
 * - takt_sleep_enter and takt_sleep_exit around each time the processor
 *   waits for an interrupt in the sleep. Setting *ticks to 0 in
 *   takt_sleep_enter skips the port's WFI (the application made the
 *   processor wait itself); takt_sleep_exit gets what it left there and
 *   runs before the interrupt that ended the wait. The sim waits once per
 *   sleep; the Cortex-M port twice when the sleep is longer than two ticks
 *   (it wakes at the first tick boundary to set SysTick for the rest), and
 *   not at all when a tick came due between the plan and the wait. */
takt_tick_t takt_sleep_plan(takt_tick_t ticks);
void takt_sleep_enter(takt_tick_t *ticks);
void takt_sleep_exit(takt_tick_t ticks);
#endif

#if TAKT_CONFIG_TICK_HOOK
/* Supplied by the application: called in the tick interrupt after the tick
 * count advanced and the tick's releases, wake-ups and budget accounting were
 * done (takt_tick_count() is the new tick). Interrupt context: *_from_isr calls only. */
void takt_tick_hook(void);
#endif

/* Brackets every interrupt handler that may call kernel *_from_isr functions;
 * the port's interrupt dispatch calls these (trace, nesting, switch at exit). */
void takt_isr_enter(unsigned irq);
void takt_isr_exit(unsigned irq);

/* Frees every dynamic task still alive, for hosts that run the kernel several
 * times in one process (tests, the sim runner): after takt_start returned, or
 * instead of starting. Static objects outlive it: their waiters leave them
 * and their mutexes are free, serving nobody. TAKT_ERR_STATE while the
 * kernel runs (from a task). */
int takt_teardown(void);

/*
 * A preemption point: if a job that should preempt the caller is waiting,
 * switch to it now; otherwise return after one flag test. Context: task.
 */
void takt_preemption_point(void);

/* Set by the kernel while a job that should preempt the running task waits
 * for its next preemption point; read by takt_should_yield without a call. */
extern volatile uint8_t takt_yield_hint;

/* True if a higher-priority job is waiting for the caller's next preemption
 * point (an optional preemption point: e.g. do not start a long DMA transfer).
 * Answers without entering the kernel. */
static inline bool takt_should_yield(void)
{
    return takt_yield_hint != 0;
}

/* Makes a task preemptive or not (NULL: the caller), overriding the mode's
 * default. TAKT_ERR_ARG for a bad handle or the idle task; TAKT_ERR_STATE for
 * making a task non-preemptive under HSF; TAKT_ERR_CONTEXT from an interrupt.
 * Context: task or before start. May reschedule. */
int takt_task_set_preemptive(takt_task_t *task, bool preemptive);

/* Context switches performed so far (dispatches of a task other than the one running). */
uint32_t takt_context_switches(void);

#endif
