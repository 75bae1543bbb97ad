/*
 * Fixed-priority policy: one FIFO list per priority level and a bitmap of the
 * non-empty levels, so the pick is two count-leading-zeros instructions
 * whatever the number of tasks or levels.
 */
#include "../internal.h"

#define TAKT_BITMAP_LEVELS TAKT_CONFIG_MAX_PRIORITIES
#include "ds/bitmap.h"

static struct {
    takt_bitmap_t nonempty;
    takt_list_t level[TAKT_CONFIG_MAX_PRIORITIES];
} fp;

static void fp_init(void)
{
    takt_bitmap_init(&fp.nonempty);
    for (unsigned p = 0; p < TAKT_CONFIG_MAX_PRIORITIES; p++) {
        takt_list_init(&fp.level[p]);
    }
}

static takt_task_t *task_of(takt_list_node_t *node)
{
    return TAKT_CONTAINER_OF(node, takt_task_t, ready.list);
}

/*
 * NEW goes to the tail, except that tasks which became ready at the same
 * instant are ordered by id (ready_order), whatever order the kernel processed
 * them in (SCHEDULING.md "Order of events"). The backward walk only passes
 * tasks of this same instant, so it is O(1) unless many tasks of one level
 * become ready at once.
 */
static void fp_insert(takt_task_t *task, takt_ready_how_t how)
{
    takt_list_t *list = &fp.level[task->priority];
    if (how == TAKT_READY_PREEMPTED) {
        takt_list_push_front(list, &task->ready.list);
    } else if (how == TAKT_READY_YIELD) {
        takt_list_push_back(list, &task->ready.list);
    } else {
        takt_list_node_t *pos = list;
        while (pos->prev != list) {
            const takt_task_t *before = task_of(pos->prev);
            if (before->ready_order < task->ready_order) {
                break;
            }
            pos = pos->prev;
        }
        takt_list_insert_before(pos, &task->ready.list);
    }
    takt_bitmap_set(&fp.nonempty, task->priority);
}

static void fp_remove(takt_task_t *task)
{
    takt_list_remove(&task->ready.list);
    if (takt_list_empty(&fp.level[task->priority])) {
        takt_bitmap_clear(&fp.nonempty, task->priority);
    }
}

static takt_task_t *fp_peek(void)
{
    if (takt_bitmap_empty(&fp.nonempty)) {
        return NULL;
    }
    return task_of(takt_list_first(&fp.level[takt_bitmap_highest(&fp.nonempty)]));
}

static bool fp_preempts(const takt_task_t *candidate, const takt_task_t *running)
{
    return candidate->priority > running->priority;
}

static bool fp_waits_before(const takt_task_t *a, const takt_task_t *b)
{
    return a->priority > b->priority;
}

static bool fp_has_equal(const takt_task_t *running)
{
    return takt_bitmap_test(&fp.nonempty, running->priority);
}

const takt_policy_t takt_policy_fp = {
    .name = "fp",
    .init = fp_init,
    .insert = fp_insert,
    .remove = fp_remove,
    .peek = fp_peek,
    .preempts = fp_preempts,
    .has_equal = fp_has_equal,
    .task_added = NULL,
    .waits_before = fp_waits_before,
};
