/*
 * A fixed-priority ready queue: one FIFO list per priority level and a bitmap
 * of the non-empty levels, so the pick is two count-leading-zeros instructions
 * whatever the number of tasks or levels. The fp policy has one; the hsf
 * policy gives one to every server.
 *
 * Level 0 belongs to the idle task alone (task priorities start at 1), so it
 * stays out of the bitmap: the pick falls back to it when the bitmap is empty.
 * Bit p-1 stands for level p, and 32 task levels above idle (FreeRTOS's usual
 * configMAX_PRIORITIES) fit one word: one CLZ per pick, no summary word.
 *
 * The includer defines TAKT_BITMAP_LEVELS (at least TAKT_CONFIG_MAX_PRIORITIES
 * - 1) and includes ds/bitmap.h first. Assumptions: kernel lock held.
 */
#ifndef TAKT_SCHED_FP_QUEUE_H
#define TAKT_SCHED_FP_QUEUE_H

#include "../internal.h"

#if TAKT_BITMAP_LEVELS < TAKT_CONFIG_MAX_PRIORITIES - 1
#error "fp_queue.h needs a bitmap with a bit per task priority (1 .. max - 1)"
#endif

/* The levels first: level p is at 8p from the queue, so a task's level is
 * one shifted add of its priority (the bitmap's offset would add another). */
typedef struct {
    takt_list_t level[TAKT_CONFIG_MAX_PRIORITIES];
    takt_bitmap_t nonempty; /* bit p-1: level p has a task (p >= 1) */
} fp_queue_t;

static inline void fp_queue_init(fp_queue_t *q)
{
    takt_bitmap_init(&q->nonempty);
    for (unsigned p = 0; p < TAKT_CONFIG_MAX_PRIORITIES; p++) {
        takt_list_init(&q->level[p]);
    }
}

static inline takt_task_t *fp_queue_task_of(takt_list_node_t *node)
{
    return TAKT_CONTAINER_OF(node, takt_task_t, ready.list);
}

/* The task's level is not empty (idle's level 0 has no bit). */
static inline void fp_queue_mark_level(fp_queue_t *q, const takt_task_t *task)
{
#if TAKT_BITMAP_WORDS == 1
    takt_bitmap_set_mask(&q->nonempty, task->ready_bit); /* idle's is 0 */
#else
    if (task->priority != 0) {
        takt_bitmap_set(&q->nonempty, task->priority - 1u);
    }
#endif
}

/*
 * The task into its level's list, list: PREEMPTED at the front, YIELD at the
 * back. NEW goes to the tail, except that tasks which became ready at the same
 * instant are ordered by id (ready_order), whatever order the kernel processed
 * them in (SCHEDULING.md "Order of events"). The backward walk only passes
 * tasks of this same instant, so it is O(1) unless many tasks of one level
 * become ready at once. The level's index (this queue's bitmap, or the
 * hardware queue of policy_fp_hwpq.c) is the caller's.
 */
static inline void fp_level_insert(takt_list_t *list, takt_task_t *task, takt_ready_how_t how)
{
    if (how == TAKT_READY_PREEMPTED) {
        takt_list_push_front(list, &task->ready.list);
    } else if (how == TAKT_READY_YIELD) {
        takt_list_push_back(list, &task->ready.list);
    } else {
        takt_list_node_t *before = list->prev;
        if (__builtin_expect(before == list, 1)) {
            /* Mostly the task is alone at its level: one compare, and the
             * straight-line link falls through. */
            takt_list_link_between(&task->ready.list, list, list);
        } else {
            /* Between before and pos, both kept in hand: the link needs no
             * second load. */
            takt_list_node_t *pos = list;
            do {
                const takt_task_t *earlier = fp_queue_task_of(before);
                /* Nor past the running task, when it is queued: it is in front
                 * (tested first: a byte against a 64-bit compare, and a
                 * running equal, or a holder running at a waiter's inherited
                 * level, is what a wake meets most). */
                if (earlier->state == TAKT_TASK_RUNNING || earlier->ready_order < task->ready_order) {
                    break;
                }
                pos = before;
                before = before->prev;
            } while (before != list);
            takt_list_link_between(&task->ready.list, before, pos);
        }
    }
}

static inline void fp_queue_insert(fp_queue_t *q, takt_task_t *task, takt_ready_how_t how)
{
    fp_level_insert(&q->level[task->priority], task, how);
    fp_queue_mark_level(q, task);
}

/* The node's own links go stale: whether a task is queued is its state
 * (sched_in_ready_queue), never its node. Never the idle task (level 0): it
 * never blocks, and nothing suspends or deletes it (task_stack_check leaves
 * it queued too), so the bit needs no test for level 0. */
static inline void fp_queue_remove(fp_queue_t *q, takt_task_t *task)
{
    KASSERT(task->priority != 0);
    if (takt_list_unlink_was_only(&task->ready.list)) {
#if TAKT_BITMAP_WORDS == 1
        takt_bitmap_clear_mask(&q->nonempty, task->ready_bit);
#else
        takt_bitmap_clear(&q->nonempty, task->priority - 1u);
#endif
    }
}

/* Whether a queued task is the only one at its level: both its neighbours
 * are the level's list head. */
static inline bool fp_queue_alone(const takt_task_t *task)
{
    return task->ready.list.next == task->ready.list.prev;
}

/* task, not queued, takes the place of old, queued alone at task's level:
 * the level keeps one task and its bit. old's links go stale (it is queued
 * again or leaves the queue). */
static inline void fp_queue_take_place(takt_task_t *old, takt_task_t *task)
{
    takt_list_node_t *level = old->ready.list.next;
    KASSERT(fp_queue_alone(old) && old->priority == task->priority);
    takt_list_link_between(&task->ready.list, level, level);
}

/* fp_queue_insert's YIELD (to the back of its level), telling whether the
 * task found equals there; alone, it is linked to the head at both ends. */
static inline bool fp_queue_insert_behind(fp_queue_t *q, takt_task_t *task)
{
    takt_list_t *list = &q->level[task->priority];
    bool equals = !takt_list_empty(list);
    if (__builtin_expect(equals, 0)) {
        takt_list_push_back(list, &task->ready.list);
    } else {
        takt_list_link_between(&task->ready.list, list, list);
    }
    fp_queue_mark_level(q, task);
    return equals;
}

/* A queued task moves to the back of its level (its level stays non-empty). */
static inline void fp_queue_move_to_back(fp_queue_t *q, takt_task_t *task)
{
    takt_list_unlink(&task->ready.list);
    takt_list_push_back(&q->level[task->priority], &task->ready.list);
}

static inline bool fp_queue_empty(const fp_queue_t *q)
{
    return takt_bitmap_empty(&q->nonempty) && takt_list_empty(&q->level[0]);
}

/* The first task of the highest non-empty level; NULL if the queue is empty. */
static inline takt_task_t *fp_queue_peek(fp_queue_t *q)
{
    if (takt_bitmap_empty(&q->nonempty)) {
        takt_list_node_t *idle = takt_list_first(&q->level[0]);
        return idle == NULL ? NULL : fp_queue_task_of(idle);
    }
    unsigned top = takt_bitmap_highest(&q->nonempty) + 1u;
    return fp_queue_task_of(q->level[top].next); /* its bit says it is not empty */
}

/* fp_queue_peek for a queue that is never empty: the idle task is at level 0
 * (the fp policy's queue, from takt_init on). With one word the level is
 * 32 - CLZ, and ARM's CLZ gives 32 for an empty bitmap, which is level 0: the
 * switch point picks without a branch (GCC keeps one for the builtin, whose
 * result at 0 C leaves undefined). */
static inline takt_task_t *fp_queue_peek_with_idle(fp_queue_t *q)
{
#if TAKT_BITMAP_WORDS == 1
    uint32_t bits = q->nonempty.words[0];
    uint32_t zeros;
#if defined(__ARM_FEATURE_CLZ)
    __asm("clz %0, %1" : "=r"(zeros) : "r"(bits));
#else
    zeros = bits != 0 ? (uint32_t)__builtin_clz(bits) : 32u;
#endif
    return fp_queue_task_of(q->level[32u - zeros].next);
#else
    return fp_queue_peek(q);
#endif
}

#endif
