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
 * whether the task is listed; listed (a constant) says it is known to be. */
__attribute__((always_inline)) static inline void sync_unlink_waiter(takt_task_t *task,
                                                                     bool listed)
{
    if (listed || task->wait_queue != NULL) {
        takt_list_unlink(&task->wait_node);
        task->wait_queue = NULL;
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

#endif
