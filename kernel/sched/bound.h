/*
 * The policy the scheduler core calls: the runtime choice (takt_init), or,
 * with TAKT_CONFIG_POLICY_ONLY, the one TAKT_CONFIG_POLICY names, bound at
 * compile time. Bound, the calls are direct (for fp, inlined: its operations
 * are in policy_fp.h), and the other policies are not linked. Only for files
 * that call the policy; internal.h stays policy-neutral (each policy file
 * sizes its own bitmaps).
 */
#ifndef TAKT_SCHED_BOUND_H
#define TAKT_SCHED_BOUND_H

#include "../internal.h"

#if TAKT_CONFIG_POLICY_ONLY && TAKT_CONFIG_POLICY == TAKT_POLICY_FP
#include "policy_fp.h"
/* The same table as takt_policy_fp, visible here so the compiler sees through it. */
static const takt_policy_t sched_bound_fp = TAKT_POLICY_FP_TABLE;
static inline const takt_policy_t *sched_policy(void)
{
    return &sched_bound_fp;
}
#elif TAKT_CONFIG_POLICY_ONLY && TAKT_CONFIG_POLICY == TAKT_POLICY_FP_LIST
#include "policy_fp_list.h"
static const takt_policy_t sched_bound_table = TAKT_POLICY_FP_LIST_TABLE;
static inline const takt_policy_t *sched_policy(void)
{
    return &sched_bound_table;
}
#elif TAKT_CONFIG_POLICY_ONLY && TAKT_CONFIG_POLICY == TAKT_POLICY_FP_HWPQ
#include "policy_fp_hwpq.h"
static const takt_policy_t sched_bound_table = TAKT_POLICY_FP_HWPQ_TABLE;
static inline const takt_policy_t *sched_policy(void)
{
    return &sched_bound_table;
}
#elif TAKT_CONFIG_POLICY_ONLY
#include "policy_ops.h"
/* The bound policy's table, visible here: direct calls (policy_ops.h). */
#if TAKT_CONFIG_POLICY == TAKT_POLICY_EDF_HEAP
static const takt_policy_t sched_bound_table = TAKT_POLICY_EDF_HEAP_TABLE;
#elif TAKT_CONFIG_POLICY == TAKT_POLICY_EDF_MLIST
static const takt_policy_t sched_bound_table = TAKT_POLICY_EDF_MLIST_TABLE;
#elif TAKT_CONFIG_POLICY == TAKT_POLICY_EDF_RBTREE
static const takt_policy_t sched_bound_table = TAKT_POLICY_EDF_RBTREE_TABLE;
#elif TAKT_CONFIG_POLICY == TAKT_POLICY_EDF_HWPQ
static const takt_policy_t sched_bound_table = TAKT_POLICY_EDF_HWPQ_TABLE;
#else
static const takt_policy_t sched_bound_table = TAKT_POLICY_HSF_TABLE;
#endif
static inline const takt_policy_t *sched_policy(void)
{
    return &sched_bound_table;
}
#else
static inline const takt_policy_t *sched_policy(void)
{
    return takt_kernel.policy;
}
#endif

/* The task becomes ready at the instant now (SCHEDULING.md "Order of
 * events"): its state, and its ready order, before the policy queues it by
 * that order: the instant it became ready, then its id. Inline in every
 * wake (now = port_instant()) and in the switch point's yield
 * (port_switch_instant()). A yield is an instant of its own (own_instant):
 * the task goes behind every equal, also one that became ready at the same
 * time with a larger id; on an ordered port port_switch_instant() already
 * gives it a later instant, on the others (the sim: one instant per virtual
 * time) the yield opens the next number. Tasks that become ready after it at
 * the same time share that number and are ordered against it by id, as after
 * port_switch_instant() on an ordered port. */
__attribute__((always_inline)) static inline void sched_stamp_ready(takt_task_t *task,
                                                                    takt_stamp_t now,
                                                                    bool own_instant)
{
    task->state = TAKT_TASK_READY;
    task->wait = TAKT_WAIT_NONE;
#ifdef TAKT_PORT_ORDERED_INSTANTS
    /* The port's instants are already an order, with room for the id. */
    (void)own_instant;
    task->ready_order = now | task->id;
#else
    /* Only equality is meaningful: number the distinct instants. */
    takt_kernel_t *k = &takt_kernel;
    if (own_instant || now != k->last_ready_stamp || k->ready_instant == 0) {
        k->ready_instant++;
        k->last_ready_stamp = now;
    }
    task->ready_order = (k->ready_instant << 16) | task->id;
#endif
}

void sched_tell_nonpreemptive(const takt_task_t *task);

/* The policy queues the task. Most runs have no non-preemptive task at all:
 * one test skips the hint. */
__attribute__((always_inline)) static inline void sched_queue_ready(takt_task_t *task,
                                                                    takt_ready_how_t how)
{
    sched_policy()->insert(task, how);
    if (takt_kernel.nonpreemptive_seen) {
        sched_tell_nonpreemptive(task);
    }
}

/* A wake's event and the task ready at the instant now, before it is queued. */
__attribute__((always_inline)) static inline void sched_wake_stamp_at(takt_task_t *task,
                                                                      takt_wait_t wait,
                                                                      takt_stamp_t now)
{
    trace_record(TAKT_EV_WAKE, task, wait);
    sched_stamp_ready(task, now, false);
}

/* The same, ready now. */
__attribute__((always_inline)) static inline void sched_wake_stamp(takt_task_t *task,
                                                                   takt_wait_t wait)
{
    sched_wake_stamp_at(task, wait, port_instant());
}

/* A wake up to its queuing: the switch asked for (first: task_wake says
 * why), the event and the task ready now. Every caller holds the lock. */
__attribute__((always_inline)) static inline void sched_wake_unqueued(takt_task_t *task,
                                                                      takt_wait_t wait)
{
    sched_reschedule_locked();
    sched_wake_stamp(task, wait);
}

/* task_wake, inline: for the wait's end (sync/wait.c), where every wake by
 * a synchronisation object passes, so that it makes no call. */
__attribute__((always_inline)) static inline void sched_wake_inline(takt_task_t *task,
                                                                    takt_wait_t wait)
{
    sched_wake_unqueued(task, wait);
    sched_queue_ready(task, TAKT_READY_NEW);
}

/* sched_wake_inline at an instant the caller already has: the tick's
 * (time.c: a delay that ends at the tick, the first thing its events do;
 * port_tick_events_begin_instant). */
__attribute__((always_inline)) static inline void sched_wake_inline_at(takt_task_t *task,
                                                                       takt_wait_t wait,
                                                                       takt_stamp_t now)
{
    sched_reschedule_locked();
    sched_wake_stamp_at(task, wait, now);
    sched_queue_ready(task, TAKT_READY_NEW);
}

/* The running task's priority drops to priority, in a task-context call
 * whose switch point follows its section with nothing special to do
 * (switch_special 0: no non-preemptive task, so the task may be preempted):
 * it goes behind its new equals now (sched/core.c). */
void sched_demote_running(takt_task_t *task, unsigned priority);

/* Whether sched_hand_over can take running's place in the queue for the
 * task it wakes: under fp, when running is alone at its level. */
__attribute__((always_inline)) static inline bool sched_hand_over_fits(const takt_task_t *running)
{
#if TAKT_CONFIG_POLICY_ONLY && TAKT_CONFIG_POLICY == TAKT_POLICY_FP
    return fp_queue_alone(running);
#else
    (void)running;
    return true;
#endif
}

/* A hand-off's scheduling (a mutex's unlock): task, whose wait on what the
 * running task handed over just ended, becomes ready (sched_wake_inline), at
 * the running task's level, which it had passed on to it; then the running
 * task drops to priority (sched_demote_running, whose conditions hold). The
 * bound fp queue does both at once where sched_hand_over_fits: the woken
 * task would go behind the running one (which runs) and find itself alone
 * when it leaves, so it takes its place, and the level's bit stays. */
__attribute__((always_inline)) static inline void sched_hand_over(takt_task_t *running,
                                                                  takt_task_t *task,
                                                                  unsigned priority)
{
#if TAKT_CONFIG_POLICY_ONLY && TAKT_CONFIG_POLICY == TAKT_POLICY_FP
    KASSERT(task->priority == running->priority && fp_queue_alone(running));
    KASSERT(!takt_kernel.nonpreemptive_seen); /* no hint to give (sched_queue_ready) */
    sched_wake_unqueued(task, (takt_wait_t)task->wait);
    fp_queue_take_place(running, task);
    task_set_priority_level(running, priority);
    if (fp_queue_insert_behind(&takt_fp_ready, running)) {
        takt_kernel.demoted_current = true;
    }
#else
    sched_wake_inline(task, (takt_wait_t)task->wait);
    sched_demote_running(running, priority);
#endif
}

/* Blocks the running task (state, wait reason) and reschedules. Context: task.
 * Inline, with the policy's remove: every blocking call ends here. */
static inline void sched_block_current(takt_wait_t wait)
{
    takt_task_t *self = takt_kernel.current;
    KASSERT(sched_in_ready_queue(self));
    sched_policy()->remove(self);
    self->state = TAKT_TASK_BLOCKED;
    self->wait = (uint8_t)wait;
    trace_record(TAKT_EV_BLOCK, self, wait);
    /* Only a running task blocks, so the kernel has started: no test. */
    KASSERT(takt_kernel.started);
    port_request_switch_locked(); /* every caller holds the lock */
}

#endif
