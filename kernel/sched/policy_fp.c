/*
 * Fixed-priority policy: one fixed-priority ready queue (fp_queue.h: a bitmap
 * of FIFO lists), so the pick is two count-leading-zeros instructions
 * whatever the number of tasks or levels.
 */
#include "../internal.h"

#define TAKT_BITMAP_LEVELS TAKT_CONFIG_MAX_PRIORITIES
#include "ds/bitmap.h"
#include "fp_queue.h"

static fp_queue_t fp;

static void fp_init(void)
{
    fp_queue_init(&fp);
}

static void fp_insert(takt_task_t *task, takt_ready_how_t how)
{
    fp_queue_insert(&fp, task, how);
}

static void fp_remove(takt_task_t *task)
{
    fp_queue_remove(&fp, task);
}

static takt_task_t *fp_peek(void)
{
    return fp_queue_peek(&fp);
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
    return fp_queue_has_level(&fp, running->priority);
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
