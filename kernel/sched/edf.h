/*
 * What every EDF ready queue shares: the deadline order, the preemption
 * rule, and the background class. Jobs with a deadline (periodic tasks) are
 * ordered by absolute deadline, then by ready order (first come, first
 * served, ties at one instant by id); tasks without a period run in the
 * background, FIFO (ties at one instant by id too), behind every job with a
 * deadline; the idle task is last.
 */
#ifndef TAKT_SCHED_EDF_H
#define TAKT_SCHED_EDF_H

#include "../internal.h"

/* Periodic tasks, and any task that inherits a deadline through a mutex. */
static inline bool edf_has_deadline(const takt_task_t *task)
{
    return task_has_deadline(task);
}

/* Queue order of two queued deadline jobs (ready_deadline set at insertion). */
static inline bool edf_before(const takt_task_t *a, const takt_task_t *b)
{
    if (a->ready_deadline != b->ready_deadline) {
        return takt_tick_before(a->ready_deadline, b->ready_deadline);
    }
    return a->ready_order < b->ready_order;
}

void edf_background_init(void);
/* The background class's operations, for the idle task and tasks without a
 * deadline only: the queues test edf_has_deadline inline first, so a
 * deadline job (what EDF mostly queues) pays no call for them. */
void edf_background_insert(takt_task_t *task, takt_ready_how_t how);
void edf_background_remove(takt_task_t *task);
/* The running task goes behind its equals (the idle task has none). */
void edf_background_move_behind_equals(takt_task_t *running);
takt_task_t *edf_background_peek(void);

/* Strictly earlier deadline preempts; a deadline job preempts the background.
 * Out of line: inline in every wake path it cost 268 bytes for 8 instructions
 * on a notification from an interrupt (mps2-an385). */
bool edf_preempts(const takt_task_t *candidate, const takt_task_t *running);

/* The same for the queue's head and the queued running task behind it (the
 * policies keep the running task queued): their queued deadlines say. head
 * comes first in the queue's order, so with both deadlines queued it
 * preempts unless the deadlines are equal; a deadline job comes before the
 * background, and a background head means running is in the background too
 * (or idle). Inline: a bound build's switch point asks it whenever the head
 * is not the running task (sched/bound.h). */
static inline bool edf_head_preempts(const takt_task_t *head, const takt_task_t *running)
{
    if (running->flags & TAKT_TASK_F_IDLE) {
        return true;
    }
    if (!edf_has_deadline(head)) {
        return false;
    }
    return !edf_has_deadline(running) || head->ready_deadline != running->ready_deadline;
}

/* Waiters: earlier effective deadline first, deadline jobs before the
 * background. Out of line: only a wait queue's insertion asks it. */
bool edf_waits_before(const takt_task_t *a, const takt_task_t *b);

/* Round-robin applies to fixed priorities only. */
static inline bool edf_has_equal(const takt_task_t *running)
{
    (void)running;
    return false;
}

#endif
