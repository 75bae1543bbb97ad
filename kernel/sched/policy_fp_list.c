/*
 * Fixed priority over one list (ready_queue = "list"): every ready task in a
 * single doubly linked list, highest priority first, the idle task last.
 * Within a priority the order is fp_queue.h's (SCHEDULING.md "Priorities and
 * ties"). The pick is the head, O(1); queuing a task walks past every queued
 * task of its priority or higher, O(n). It is the textbook alternative to
 * the bitmap of per-level lists (policy_fp.c), built so that the two can be
 * measured against each other on the same kernel: same schedule, different
 * costs (docs/benchmarks.md).
 */
#include "policy_fp_list.h"

static takt_list_t ready_list;

/* The first queued task of lower priority than priority, or the list's
 * head when there is none: where a task goes behind all its equals. */
static takt_list_node_t *first_below(unsigned priority)
{
    takt_list_node_t *node = ready_list.next;
    while (node != &ready_list && fp_queue_task_of(node)->priority >= priority) {
        node = node->next;
    }
    return node;
}

void fp_list_init(void)
{
    takt_list_init(&ready_list);
}

/* As fp_queue_insert: NEW behind its equals, except in front of those that
 * became ready at the same instant with a larger id, and never in front of a
 * queued running task; PREEMPTED in front of its equals; YIELD behind them. */
void fp_list_insert(takt_task_t *task, takt_ready_how_t how)
{
    if (how == TAKT_READY_PREEMPTED) {
        /* in front of its equals: before the first of its priority or lower */
        takt_list_insert_before(first_below(task->priority + 1u), &task->ready.list);
        return;
    }
    takt_list_node_t *pos = first_below(task->priority);
    takt_list_node_t *before = pos->prev;
    if (how == TAKT_READY_NEW) {
        while (before != &ready_list) {
            const takt_task_t *earlier = fp_queue_task_of(before);
            /* the end of its level, or fp_queue_insert's stop */
            if (earlier->priority != task->priority || earlier->state == TAKT_TASK_RUNNING ||
                earlier->ready_order < task->ready_order) {
                break;
            }
            pos = before;
            before = before->prev;
        }
    }
    takt_list_link_between(&task->ready.list, before, pos);
}

void fp_list_remove(takt_task_t *task)
{
    takt_list_unlink(&task->ready.list);
}

/* The idle task is queued from takt_init on and never leaves. */
takt_task_t *fp_list_peek(void)
{
    return fp_queue_task_of(ready_list.next);
}

/* Whether a queued task's neighbour is another task of its priority. */
static bool neighbour_is_equal(const takt_list_node_t *node, const takt_task_t *task)
{
    return node != &ready_list &&
           fp_queue_task_of((takt_list_node_t *)node)->priority == task->priority;
}

bool fp_list_has_equal(const takt_task_t *running)
{
    return neighbour_is_equal(running->ready.list.next, running) ||
           neighbour_is_equal(running->ready.list.prev, running);
}

void fp_list_move_behind_equals(takt_task_t *running)
{
    takt_list_node_t *pos = running->ready.list.next;
    if (!neighbour_is_equal(pos, running)) {
        return; /* nothing of its priority behind it: it keeps its place */
    }
    while (neighbour_is_equal(pos, running)) {
        pos = pos->next;
    }
    takt_list_unlink(&running->ready.list);
    takt_list_insert_before(pos, &running->ready.list);
}

const takt_policy_t takt_policy_fp_list = TAKT_POLICY_FP_LIST_TABLE;
