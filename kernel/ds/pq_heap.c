/*
 * Binary min-heap backend of the priority queue (the EDF-H ready queue).
 * Nodes keep their slot index, so removing any node (a job that blocks, a
 * cancelled timer) is O(log n) without a search.
 */
#include "pq.h"

void takt_pq_heap_init(takt_pq_t *pq, takt_pq_node_t **slots, uint32_t capacity)
{
    pq->impl.heap.slots = slots;
    pq->impl.heap.capacity = capacity;
    pq->count = 0;
}

static void place(takt_pq_t *pq, uint32_t index, takt_pq_node_t *node)
{
    pq->impl.heap.slots[index] = node;
    node->link.heap.index = index;
}

/* Moves node up from index until its parent comes before it. Inline: the
 * insert is a delay's and a release's, and mostly stops at the first parent. */
static inline __attribute__((always_inline)) void sift_up(takt_pq_t *pq, uint32_t index, takt_pq_node_t *node)
{
    takt_pq_node_t **slots = pq->impl.heap.slots;
    while (index > 0) {
        uint32_t parent = (index - 1u) / 2u;
        if (!takt_pq_node_before(node, slots[parent])) {
            break;
        }
        place(pq, index, slots[parent]);
        index = parent;
    }
    place(pq, index, node);
}

/* Moves node down from index until both children come after it. */
static void sift_down(takt_pq_t *pq, uint32_t index, takt_pq_node_t *node)
{
    takt_pq_node_t **slots = pq->impl.heap.slots;
    uint32_t count = pq->count;
    for (;;) {
        uint32_t child = 2u * index + 1u;
        if (child >= count) {
            break;
        }
        if (child + 1u < count && takt_pq_node_before(slots[child + 1u], slots[child])) {
            child++;
        }
        if (!takt_pq_node_before(slots[child], node)) {
            break;
        }
        place(pq, index, slots[child]);
        index = child;
    }
    place(pq, index, node);
}

/* sift_down, with the test for a hole without children in line: a small
 * heap (the ready queue of a few jobs, the running one included) mostly has
 * one, and the call would save and restore registers for nothing. */
static inline __attribute__((always_inline)) void fill_down(takt_pq_t *pq, uint32_t index,
                                                            takt_pq_node_t *node)
{
    if (2u * index + 1u >= pq->count) {
        place(pq, index, node);
    } else {
        sift_down(pq, index, node);
    }
}

bool takt_pq_heap_insert(takt_pq_t *pq, takt_pq_node_t *node)
{
    if (pq->count == pq->impl.heap.capacity) {
        return false;
    }
    node->queued = true;
    sift_up(pq, pq->count++, node);
    return true;
}

void takt_pq_heap_remove(takt_pq_t *pq, takt_pq_node_t *node)
{
    uint32_t index = node->link.heap.index;
    takt_pq_node_t *last = pq->impl.heap.slots[--pq->count];
    node->queued = false;
    if (last == node) {
        return;
    }
    /* The last node fills the hole; it may belong above or below it. */
    if (index > 0 && takt_pq_node_before(last, pq->impl.heap.slots[(index - 1u) / 2u])) {
        sift_up(pq, index, last);
    } else {
        fill_down(pq, index, last);
    }
}

void takt_pq_heap_refill_root(takt_pq_t *pq)
{
    sift_down(pq, 0, pq->impl.heap.slots[pq->count]);
}

takt_pq_node_t *takt_pq_heap_pop(takt_pq_t *pq)
{
    if (pq->count == 0) {
        return NULL;
    }
    takt_pq_node_t **slots = pq->impl.heap.slots;
    takt_pq_node_t *top = slots[0];
    takt_pq_node_t *last = slots[--pq->count];
    top->queued = false;
    if (last != top) {
        sift_down(pq, 0, last); /* the root has no parent: the hole only moves down */
    }
    return top;
}

/* Only the node's subtree can now come before it: it moves down, if at all. */
void takt_pq_heap_moved_later(takt_pq_t *pq, takt_pq_node_t *node)
{
    fill_down(pq, node->link.heap.index, node);
}

const takt_pq_ops_t takt_pq_heap_ops = {
    .name = "heap",
    .init = takt_pq_heap_init,
    .insert = takt_pq_heap_insert,
    .remove = takt_pq_heap_remove,
    .peek = takt_pq_heap_peek,
    .pop = takt_pq_heap_pop,
    .moved_later = takt_pq_heap_moved_later,
};
