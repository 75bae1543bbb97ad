/* The parts of EDF every ready queue shares (see edf.h). */
#include "edf.h"

static struct {
    takt_list_t fifo;   /* ready tasks without a deadline */
    takt_task_t *idle;  /* the idle task while ready */
} background;

void edf_background_init(void)
{
    takt_list_init(&background.fifo);
    background.idle = NULL;
}

void edf_background_insert(takt_task_t *task, takt_ready_how_t how)
{
    KASSERT(!edf_has_deadline(task));
    if (task->flags & TAKT_TASK_F_IDLE) {
        background.idle = task;
        return;
    }
    if (how == TAKT_READY_PREEMPTED) {
        takt_list_push_front(&background.fifo, &task->ready.list);
    } else if (how == TAKT_READY_YIELD) {
        takt_list_push_back(&background.fifo, &task->ready.list);
    } else {
        /* Behind every task that became ready earlier; tasks of this same
         * instant by id (ready_order), whatever order the kernel woke them in
         * (SCHEDULING.md "Order of events"). The walk passes only tasks of
         * this instant, and never the running task (it is queued, in front). */
        takt_list_node_t *pos = &background.fifo;
        while (pos->prev != &background.fifo) {
            const takt_task_t *before = TAKT_CONTAINER_OF(pos->prev, takt_task_t, ready.list);
            if (before->state == TAKT_TASK_RUNNING || before->ready_order < task->ready_order) {
                break;
            }
            pos = pos->prev;
        }
        takt_list_insert_before(pos, &task->ready.list);
    }
}

void edf_background_remove(takt_task_t *task)
{
    KASSERT(!edf_has_deadline(task));
    if (task->flags & TAKT_TASK_F_IDLE) {
        background.idle = NULL;
        return;
    }
    takt_list_remove(&task->ready.list);
}

void edf_background_move_behind_equals(takt_task_t *running)
{
    KASSERT(!edf_has_deadline(running));
    if (running->flags & TAKT_TASK_F_IDLE) {
        return;
    }
    takt_list_remove(&running->ready.list);
    takt_list_push_back(&background.fifo, &running->ready.list);
}

takt_task_t *edf_background_peek(void)
{
    takt_list_node_t *first = takt_list_first(&background.fifo);
    if (first != NULL) {
        return TAKT_CONTAINER_OF(first, takt_task_t, ready.list);
    }
    return background.idle;
}

bool edf_waits_before(const takt_task_t *a, const takt_task_t *b)
{
    if (!edf_has_deadline(a)) {
        return false;
    }
    if (!edf_has_deadline(b)) {
        return true;
    }
    return takt_tick_before(task_deadline(a), task_deadline(b));
}

bool edf_preempts(const takt_task_t *candidate, const takt_task_t *running)
{
    if (running->flags & TAKT_TASK_F_IDLE) {
        return true;
    }
    if (!edf_has_deadline(candidate)) {
        return false;
    }
    if (!edf_has_deadline(running)) {
        return true;
    }
    return takt_tick_before(task_deadline(candidate), task_deadline(running));
}
