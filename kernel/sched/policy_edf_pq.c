/*
 * EDF over a keyed priority queue: the binary min-heap (EDF-H), the
 * red-black tree, and (on a port that has one) the hardware queue. The key is the job's absolute deadline (compared across
 * the tick wraparound), the tie its ready order, so equal deadlines are
 * first come, first served and a preempted job keeps its place.
 */
#include "policy_ops.h"

static struct {
    takt_pq_t queue;
    /* the heap's slots, or the hardware queue's handles */
    takt_pq_node_t *slots[TAKT_CONFIG_MAX_TASKS];
} edf;

static takt_task_t *task_of(takt_pq_node_t *node)
{
    return TAKT_CONTAINER_OF(node, takt_task_t, ready.pq);
}

static void prepare(takt_task_t *task)
{
    task->ready_deadline = task_deadline(task);
    task->ready.pq.key = task->ready_deadline;
    task->ready.pq.tie = task->ready_order;
}

static takt_task_t *peek_with(takt_pq_node_t *top)
{
    return top != NULL ? task_of(top) : edf_background_peek();
}

/* ---- heap ---- */

void edf_heap_init(void)
{
    takt_pq_heap_init(&edf.queue, edf.slots, TAKT_CONFIG_MAX_TASKS);
    edf_background_init();
}

void edf_heap_insert(takt_task_t *task, takt_ready_how_t how)
{
    if (!edf_has_deadline(task)) {
        edf_background_insert(task, how);
    } else {
        prepare(task);
        bool inserted = takt_pq_heap_insert(&edf.queue, &task->ready.pq);
        KASSERT(inserted); /* capacity is TAKT_CONFIG_MAX_TASKS, creation enforces it */
        (void)inserted;
    }
}

void edf_heap_remove(takt_task_t *task)
{
    if (!edf_has_deadline(task)) {
        edf_background_remove(task);
    } else {
        takt_pq_heap_remove(&edf.queue, &task->ready.pq);
    }
}

/* A yield: the job keeps its deadline and gets a later ready order (the
 * tie), so it moves down only past the equal deadlines below it; with none
 * (jobs of distinct deadlines) it stays where it is. */
void edf_heap_move_behind_equals(takt_task_t *running)
{
    if (!edf_has_deadline(running)) {
        edf_background_move_behind_equals(running);
        return;
    }
    KASSERT(running->ready_deadline == task_deadline(running)); /* a change re-queues it */
    running->ready.pq.tie = running->ready_order;
    takt_pq_heap_moved_later(&edf.queue, &running->ready.pq);
}

takt_task_t *edf_heap_peek(void)
{
    return peek_with(takt_pq_heap_peek(&edf.queue));
}

const takt_policy_t takt_policy_edf_heap = TAKT_POLICY_EDF_HEAP_TABLE;

/* ---- red-black tree ---- */

void edf_rbtree_init(void)
{
    takt_pq_rbtree_init(&edf.queue);
    edf_background_init();
}

void edf_rbtree_insert(takt_task_t *task, takt_ready_how_t how)
{
    if (!edf_has_deadline(task)) {
        edf_background_insert(task, how);
    } else {
        prepare(task);
        takt_pq_rbtree_insert(&edf.queue, &task->ready.pq);
    }
}

void edf_rbtree_remove(takt_task_t *task)
{
    if (!edf_has_deadline(task)) {
        edf_background_remove(task);
    } else {
        takt_pq_rbtree_remove(&edf.queue, &task->ready.pq);
    }
}

/* As the heap's: in place unless an equal deadline follows (the tree's
 * successor test). */
void edf_rbtree_move_behind_equals(takt_task_t *running)
{
    if (!edf_has_deadline(running)) {
        edf_background_move_behind_equals(running);
        return;
    }
    KASSERT(running->ready_deadline == task_deadline(running)); /* a change re-queues it */
    running->ready.pq.tie = running->ready_order;
    takt_pq_rbtree_moved_later(&edf.queue, &running->ready.pq);
}

takt_task_t *edf_rbtree_peek(void)
{
    return peek_with(takt_pq_rbtree_peek(&edf.queue));
}

const takt_policy_t takt_policy_edf_rbtree = TAKT_POLICY_EDF_RBTREE_TABLE;

/* ---- hardware queue (hw/) ---- */

#ifdef TAKT_PORT_HWPQ_UNITS
bool edf_hwpq_device_fits(void)
{
    return takt_pq_hw_depth(TAKT_PQ_HW_READY_UNIT) >= TAKT_CONFIG_MAX_TASKS;
}

void edf_hwpq_init(void)
{
    bool present = takt_pq_hw_init(&edf.queue, TAKT_PQ_HW_READY_UNIT, edf.slots, TAKT_CONFIG_MAX_TASKS);
    KASSERT(present); /* takt_init asked edf_hwpq_device_fits */
    (void)present;
    edf_background_init();
}

void edf_hwpq_insert(takt_task_t *task, takt_ready_how_t how)
{
    if (!edf_has_deadline(task)) {
        edf_background_insert(task, how);
    } else {
        prepare(task);
        bool inserted = takt_pq_hw_insert(&edf.queue, &task->ready.pq);
        KASSERT(inserted); /* as deep as TAKT_CONFIG_MAX_TASKS: takt_init checked */
        (void)inserted;
    }
}

void edf_hwpq_remove(takt_task_t *task)
{
    if (!edf_has_deadline(task)) {
        edf_background_remove(task);
    } else {
        takt_pq_hw_remove(&edf.queue, &task->ready.pq);
    }
}

/* The device has no update: the job leaves and comes in again with its
 * new ready order, behind its equal deadlines. */
void edf_hwpq_move_behind_equals(takt_task_t *running)
{
    if (!edf_has_deadline(running)) {
        edf_background_move_behind_equals(running);
        return;
    }
    KASSERT(running->ready_deadline == task_deadline(running)); /* a change re-queues it */
    running->ready.pq.tie = running->ready_order;
    takt_pq_hw_moved_later(&edf.queue, &running->ready.pq);
}

takt_task_t *edf_hwpq_peek(void)
{
    return peek_with(takt_pq_hw_peek(&edf.queue));
}

const takt_policy_t takt_policy_edf_hwpq = TAKT_POLICY_EDF_HWPQ_TABLE;
#endif
