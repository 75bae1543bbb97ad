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

/* sync_end_wait for a task that waits in a list (its queue's first, say).
 * A timed wait goes out of line (its timer leaves the timer queue). */
__attribute__((always_inline)) static inline void sync_serve_listed(takt_task_t *task, int result)
{
    task->wait_result = (int8_t)result;
    takt_list_unlink(&task->wait_node);
    task->wait_queue = NULL;
    if (takt_pq_node_queued(&task->wake_timer.node)) {
        sync_end_timed_wait(task);
    } else {
        sched_wake_inline(task, (takt_wait_t)task->wait);
    }
}

#endif
