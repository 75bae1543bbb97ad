/*
 * The fixed-priority policy's operations, inline: policy_fp.c builds the
 * policy table from them, and a build bound to this one policy
 * (TAKT_CONFIG_POLICY_ONLY, sched/bound.h) calls them directly from the
 * scheduler core, where they inline into the switch and make-ready paths.
 */
#ifndef TAKT_SCHED_POLICY_FP_H
#define TAKT_SCHED_POLICY_FP_H

#include "../internal.h"

#define TAKT_BITMAP_LEVELS (TAKT_CONFIG_MAX_PRIORITIES - 1) /* level 0 (idle) is outside (fp_queue.h) */
#include "ds/bitmap.h"
#include "fp_queue.h"

extern fp_queue_t takt_fp_ready;

static inline void fp_init(void)
{
    fp_queue_init(&takt_fp_ready);
}

static inline void fp_insert(takt_task_t *task, takt_ready_how_t how)
{
    fp_queue_insert(&takt_fp_ready, task, how);
}

static inline void fp_remove(takt_task_t *task)
{
    fp_queue_remove(&takt_fp_ready, task);
}

static inline void fp_move_behind_equals(takt_task_t *running)
{
    fp_queue_move_to_back(&takt_fp_ready, running);
}

/* The idle task is queued from takt_init on (it never leaves), and nothing
 * peeks before. */
static inline takt_task_t *fp_peek(void)
{
    return fp_queue_peek_with_idle(&takt_fp_ready);
}

static inline bool fp_preempts(const takt_task_t *candidate, const takt_task_t *running)
{
    return candidate->priority > running->priority;
}

static inline bool fp_waits_before(const takt_task_t *a, const takt_task_t *b)
{
    return a->priority > b->priority;
}

/* The running task is in its level's list (sched/policy.h): another task
 * there is one of its neighbours, so its own links tell (no load of the
 * level). */
static inline bool fp_has_equal(const takt_task_t *running)
{
    return !fp_queue_alone(running);
}

/* The policy table's contents (policy_fp.c, sched/bound.h). */
#define TAKT_POLICY_FP_TABLE                                                                  \
    {                                                                                         \
        .name = "fp", .orders_by_priority = true, .init = fp_init,                           \
        .insert = fp_insert, .remove = fp_remove, .peek = fp_peek, .preempts = fp_preempts,   \
        .has_equal = fp_has_equal, .move_behind_equals = fp_move_behind_equals,               \
        .task_added = NULL, .waits_before = fp_waits_before,                                  \
    }

#endif
