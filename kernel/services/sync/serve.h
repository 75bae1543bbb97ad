/*
 * The waiter a give or a send serves, made ready inline: for the calls
 * whose usual end is waking the first waiter (a semaphore's give, a send to
 * a waiting receiver), so that the wake makes no call and, the waiter being
 * known to be listed, tests nothing about its list. Only for files that call
 * it: it brings in the bound policy (sched/bound.h).
 */
#ifndef TAKT_SYNC_SERVE_H
#define TAKT_SYNC_SERVE_H

#include "wait.h"
#include "../../sched/bound.h"

/* The waiter leaves its list. The node's own links go stale: wait_queue says
 * whether a blocked task is listed; listed (a constant) says it is known to
 * be. wait_queue stays: a task keeps it until its call returns
 * (sync_block_finish), served or not, unless the object's delete clears it
 * (sync_forget_waitqs, which wait.c's sync_block_relock reads). */
__attribute__((always_inline)) static inline void sync_unlink_waiter(takt_task_t *task,
                                                                     bool listed)
{
    if (listed || task->wait_queue != NULL) {
        takt_list_unlink(&task->wait_node);
    }
}

/* A wait ends: the task leaves its list, its timeout is cancelled, it
 * becomes ready. The one body of sync_end_wait (wait.c) and
 * sync_serve_listed. A timed wait goes out of line (its timer leaves the
 * timer queue). */
__attribute__((always_inline)) static inline void sync_end_wait_body(takt_task_t *task,
                                                                     bool listed)
{
    bool timed = takt_pq_node_queued(&task->wake_timer.node);
    sync_unlink_waiter(task, listed);
    if (timed) {
        sync_end_timed_wait(task);
    } else {
        sched_wake_inline(task, (takt_wait_t)task->wait);
    }
}

/* The wait ends with result. */
__attribute__((always_inline)) static inline void sync_end_wait_inline(takt_task_t *task,
                                                                       int result, bool listed)
{
    task->wait_result = (int8_t)result;
    sync_end_wait_body(task, listed);
}

/* A task that waits in a list (its queue's first, say) is served: its wait
 * ends with TAKT_OK, which blocking left in wait_result (wait.c). */
__attribute__((always_inline)) static inline void sync_serve_listed(takt_task_t *task)
{
    sync_end_wait_body(task, true);
}

/* A task that waits with no list (on its own notification slot) is served
 * from an interrupt: the wait ends with the TAKT_OK blocking left in
 * wait_result, and the result says whether the task should preempt the
 * interrupted one (sync_wake's *woken). sched_wake_inline's steps, with the
 * switch asked for last: the request's barrier then comes after the wake's
 * and the question's loads (the lock is held, so the switch point still
 * finds the task queued); likewise the timeout, if armed, is cancelled last.
 * The question comes after the wake, which leaves fp's priorities and EDF's
 * deadlines as they were and may change hsf's top server. A task waited, so
 * the kernel runs one; it may be task itself (an interrupt taken between its
 * block and the switch away), which fp and EDF never find preempting (a
 * strict compare; EDF's idle case never waits): only hsf tests for it. */
__attribute__((always_inline)) static inline bool sync_serve_unlisted_preempts(takt_task_t *task)
{
    KASSERT(task->wait_queue == NULL && task->wait_result == TAKT_OK);
    bool timed = takt_pq_node_queued(&task->wake_timer.node);
    sched_wake_stamp(task, (takt_wait_t)task->wait);
    sched_queue_ready(task, TAKT_READY_NEW);
    const takt_task_t *running = takt_kernel.current;
    KASSERT(running != NULL);
    bool preempts = (!sched_is_hsf() || running != task) && sched_policy()->preempts(task, running);
    sched_reschedule_locked();
    if (timed) {
        timer_dequeue(&task->wake_timer);
    }
    return preempts;
}

#endif
