/*
 * Fixed priority (rate monotonic, with RM priorities) over the hardware
 * priority queue (hw/): the device is the index of the non-empty levels that
 * the bitmap is in policy_fp.c, and each level keeps its FIFO list in memory.
 *
 * Why levels and not tasks on the device: the order within a level is not a
 * key. A task that became ready while an equal ran goes behind the running
 * one even when it has the smaller ready order (fp_queue.h), and a preempted
 * task goes back in front of tasks that became ready before it resumed; no
 * (key, tie) given at insertion reproduces that list for every sequence. So
 * the lists keep SCHEDULING.md's order exactly, as in the other fp queues,
 * and the device finds the highest non-empty level: a level enters it when
 * its first task does and leaves with its last, and the pick reads its head.
 * A level's key is TAKT_CONFIG_MAX_PRIORITIES - priority (the device pops the
 * smallest key); no two entries share a key, so the tie is 0. The idle task's
 * level 0 stays off the device, the pick's fallback, as off the bitmap.
 */
#include "policy_fp_hwpq.h"

#ifdef TAKT_PORT_HWPQ_UNITS

enum { TASK_LEVELS = TAKT_CONFIG_MAX_PRIORITIES - 1 };

static struct {
    takt_list_t level[TAKT_CONFIG_MAX_PRIORITIES];
    takt_pq_node_t index_entry[TAKT_CONFIG_MAX_PRIORITIES]; /* level p's, p >= 1 */
    takt_pq_t index;
    takt_pq_node_t *handles[TASK_LEVELS];
} fp_hw;

bool fp_hwpq_device_fits(void)
{
    return takt_pq_hw_depth(TAKT_PQ_HW_READY_UNIT) >= TASK_LEVELS;
}

void fp_hwpq_init(void)
{
    for (unsigned p = 0; p < TAKT_CONFIG_MAX_PRIORITIES; p++) {
        takt_list_init(&fp_hw.level[p]);
        fp_hw.index_entry[p].key = (uint32_t)(TAKT_CONFIG_MAX_PRIORITIES - p);
        fp_hw.index_entry[p].tie = 0;
    }
    bool present = takt_pq_hw_init(&fp_hw.index, TAKT_PQ_HW_READY_UNIT, fp_hw.handles, TASK_LEVELS);
    KASSERT(present); /* takt_init asked fp_hwpq_device_fits */
    (void)present;
}

void fp_hwpq_insert(takt_task_t *task, takt_ready_how_t how)
{
    takt_list_t *list = &fp_hw.level[task->priority];
    bool was_empty = takt_list_empty(list);
    fp_level_insert(list, task, how);
    if (was_empty && task->priority != 0) {
        bool inserted = takt_pq_hw_insert(&fp_hw.index, &fp_hw.index_entry[task->priority]);
        KASSERT(inserted); /* one entry per level, as deep as the levels: takt_init checked */
        (void)inserted;
    }
}

/* Never the idle task (fp_queue_remove says why). */
void fp_hwpq_remove(takt_task_t *task)
{
    KASSERT(task->priority != 0);
    if (takt_list_unlink_was_only(&task->ready.list)) {
        takt_pq_hw_remove(&fp_hw.index, &fp_hw.index_entry[task->priority]);
    }
}

/* The idle task is queued from takt_init on and never leaves. */
takt_task_t *fp_hwpq_peek(void)
{
    const takt_pq_node_t *top = takt_pq_hw_peek(&fp_hw.index);
    size_t level = top != NULL ? (size_t)(top - fp_hw.index_entry) : 0u;
    return fp_queue_task_of(fp_hw.level[level].next);
}

/* Its level stays non-empty: no device access. */
void fp_hwpq_move_behind_equals(takt_task_t *running)
{
    takt_list_unlink(&running->ready.list);
    takt_list_push_back(&fp_hw.level[running->priority], &running->ready.list);
}

const takt_policy_t takt_policy_fp_hwpq = TAKT_POLICY_FP_HWPQ_TABLE;

#endif
