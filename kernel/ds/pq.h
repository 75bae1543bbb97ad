/*
 * Keyed priority queue: the one contract behind the timer queue and the
 * deadline-ordered ready queues.
 *
 * Keys are 32-bit times (ticks or absolute deadlines) compared wraparound-safely
 * by signed difference ("deadline folding"): a precedes b iff (int32_t)(a - b) < 0.
 * This orders correctly as long as the keys in one queue fit one window
 * narrower than half the key range (the largest minus the smallest, mod
 * 2^32, below 2^31; keys pairwise within 2^31 can still go round in a
 * circle) — true for timers and deadlines that are never more than 2^31
 * ticks ahead of now.
 *
 * Equal keys are ordered by the node's `tie` (smaller first, plain unsigned
 * compare): the EDF ready queues put the task's ready order there so equal
 * deadlines are first come, first served; the timer queue leaves it 0.
 * Nodes with equal key and equal tie leave in an unspecified order.
 *
 * Backends (each a file, each with the same functions under its own prefix and
 * a const operations table so one test suite runs against all of them):
 *   sorted list  takt_pq_list_*    O(n) insert, O(1) peek/pop/remove
 *   binary heap  takt_pq_heap_*    O(log n) insert/pop/remove, O(1) peek;
 *                                  an array of node pointers given at init
 *   red-black    takt_pq_rbtree_*  O(log n) insert/pop/remove, O(1) peek
 *                                  (the leftmost node is cached); an insert
 *                                  at or after the last node (the rightmost,
 *                                  also cached) needs no descent: amortised
 *                                  O(1) (recolouring only); a node equal to
 *                                  one in the tree (key and tie) is chained
 *                                  behind it, not put in the tree: O(1)
 *                                  insert, and O(1) remove and pop for it
 *                                  and for the tree node it waits behind
 *   hardware     takt_pq_hw_*      O(1) everything: the device (hw/) keeps
 *                                  the order, the driver a handle table;
 *                                  only on a port with the device
 *                                  (TAKT_PORT_HWPQ_UNITS, the sim's model)
 * A kernel build binds the timer queue to one backend at compile time
 * (TAKT_CONFIG_TIMER_QUEUE), so the kernel pays no indirect call.
 */
#ifndef TAKT_DS_PQ_H
#define TAKT_DS_PQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct takt_pq_node {
    union {
        struct {
            struct takt_pq_node *next;
            struct takt_pq_node *prev;
        } list;
        struct {
            uint32_t index; /* slot in the heap array */
        } heap;
        struct {
            struct takt_pq_node *left;  /* chained: the next of its group */
            struct takt_pq_node *right; /* chained: the previous of its group */
            struct takt_pq_node *parent; /* chained: the tree node, for the first only */
            /* the first node chained behind this one; a chained node: itself */
            struct takt_pq_node *equals;
        } rb;
        struct {
            uint32_t handle; /* what the device holds for it */
        } hw;
    } link;
    uint64_t tie;
    uint32_t key;
    bool queued;
    bool rb_red; /* the red-black backend's, here so that a node stays 32 bytes */
} takt_pq_node_t;

typedef struct takt_pq {
    union {
        struct {
            takt_pq_node_t *head; /* smallest key first */
        } list;
        struct {
            takt_pq_node_t **slots;
            uint32_t capacity;
        } heap;
        struct {
            takt_pq_node_t *root;
            takt_pq_node_t *leftmost;  /* the first in order (peek) */
            takt_pq_node_t *rightmost; /* the last: a node at or after it needs no descent */
        } rb;
        /* No larger than rb: the queue sits inside takt_kernel_t, before
         * bytes the core reaches in 16-bit Thumb loads and stores (offset 31
         * at most), whatever the backend: 4 more bytes here cost every
         * Cortex-M build 60 bytes of text, against one instruction per
         * insert here (free_head and capacity no longer one ldrd). The
         * device's depth is 16 bits. */
        struct {
            /* handle -> its queued node; a free handle holds the next free
             * one, tagged (pq_hw.c) */
            takt_pq_node_t **handles;
            uint32_t capacity;
            uint16_t free_head; /* capacity when none is free */
            uint16_t unit;
        } hw;
    } impl;
    uint32_t count;
} takt_pq_t;

static inline bool takt_key_before(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) < 0;
}

static inline bool takt_key_not_after(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) <= 0;
}

/* The queue order: key (wraparound-safe), then tie. */
static inline bool takt_pq_node_before(const takt_pq_node_t *a, const takt_pq_node_t *b)
{
    if (a->key != b->key) {
        return takt_key_before(a->key, b->key);
    }
    return a->tie < b->tie;
}

static inline void takt_pq_node_init(takt_pq_node_t *node)
{
    node->queued = false;
    node->key = 0;
    node->tie = 0;
}

static inline bool takt_pq_node_queued(const takt_pq_node_t *node)
{
    return node->queued;
}

static inline uint32_t takt_pq_count(const takt_pq_t *pq)
{
    return pq->count;
}

/* One backend's operations, for tests and benchmarks that iterate backends.
 * init's storage and capacity are the heap's slot array; other backends
 * ignore them. insert returns false only when a heap is full. */
typedef struct takt_pq_ops {
    const char *name;
    void (*init)(takt_pq_t *pq, takt_pq_node_t **storage, uint32_t capacity);
    bool (*insert)(takt_pq_t *pq, takt_pq_node_t *node);
    void (*remove)(takt_pq_t *pq, takt_pq_node_t *node);
    takt_pq_node_t *(*peek)(const takt_pq_t *pq);
    takt_pq_node_t *(*pop)(takt_pq_t *pq);
    void (*moved_later)(takt_pq_t *pq, takt_pq_node_t *node);
} takt_pq_ops_t;

/* Every backend's moved_later: node, queued, has had its key or tie changed
 * so that it comes no earlier than it did (an EDF job that yields keeps its
 * deadline and gets a later ready order). The queue then holds it as if it
 * had been removed and inserted again; when it still comes before the node
 * after it (the job with no equal deadline), that costs O(1) and moves
 * nothing. */

/* Sorted doubly linked list. */
void takt_pq_list_init(takt_pq_t *pq);
bool takt_pq_list_insert(takt_pq_t *pq, takt_pq_node_t *node);
void takt_pq_list_remove(takt_pq_t *pq, takt_pq_node_t *node);
/* The peeks are inline: the tick asks one on every tick. */
static inline takt_pq_node_t *takt_pq_list_peek(const takt_pq_t *pq)
{
    return pq->impl.list.head;
}
takt_pq_node_t *takt_pq_list_pop(takt_pq_t *pq);
void takt_pq_list_moved_later(takt_pq_t *pq, takt_pq_node_t *node);
extern const takt_pq_ops_t takt_pq_list_ops;

/* Binary min-heap over an array of capacity node pointers. */
void takt_pq_heap_init(takt_pq_t *pq, takt_pq_node_t **slots, uint32_t capacity);
bool takt_pq_heap_insert(takt_pq_t *pq, takt_pq_node_t *node);
void takt_pq_heap_remove(takt_pq_t *pq, takt_pq_node_t *node);
static inline takt_pq_node_t *takt_pq_heap_peek(const takt_pq_t *pq)
{
    return pq->count > 0 ? pq->impl.heap.slots[0] : NULL;
}
takt_pq_node_t *takt_pq_heap_pop(takt_pq_t *pq);
/* The rest of takt_pq_heap_pop for a caller that took the root out itself
 * (count one less, the root's queued flag cleared) and left nodes behind
 * (count not 0): the last slot's node fills the root. A pop that empties the
 * heap needs no call. */
void takt_pq_heap_refill_root(takt_pq_t *pq);
void takt_pq_heap_moved_later(takt_pq_t *pq, takt_pq_node_t *node);
extern const takt_pq_ops_t takt_pq_heap_ops;

/* Red-black tree. */
void takt_pq_rbtree_init(takt_pq_t *pq);
bool takt_pq_rbtree_insert(takt_pq_t *pq, takt_pq_node_t *node);
void takt_pq_rbtree_remove(takt_pq_t *pq, takt_pq_node_t *node);
static inline takt_pq_node_t *takt_pq_rbtree_peek(const takt_pq_t *pq)
{
    return pq->impl.rb.leftmost;
}
takt_pq_node_t *takt_pq_rbtree_pop(takt_pq_t *pq);
void takt_pq_rbtree_moved_later(takt_pq_t *pq, takt_pq_node_t *node);
extern const takt_pq_ops_t takt_pq_rbtree_ops;

/* The hardware priority queue (hw/), on a port that has one: the device
 * holds (key, tie, handle) and keeps them in order; handles index storage,
 * whose capacity entries the driver owns. init claims device unit (cleared)
 * and holds at most min(capacity, the device's depth) nodes; false, and the
 * queue unusable, when the port has no such unit (no device ID). insert is
 * false when that many are queued. Equal nodes leave first in, first out. */
bool takt_pq_hw_init(takt_pq_t *pq, unsigned unit, takt_pq_node_t **storage, uint32_t capacity);
/* The kernel's units: the ready queue's (EDF's jobs, or fp's levels) and the
 * timer queue's. */
enum { TAKT_PQ_HW_READY_UNIT = 0, TAKT_PQ_HW_TIMER_UNIT = 1 };
/* The entries device unit holds; 0 when the port has no such unit. What a
 * user of the queue asks before init, to refuse a device too shallow. */
uint32_t takt_pq_hw_depth(unsigned unit);
bool takt_pq_hw_insert(takt_pq_t *pq, takt_pq_node_t *node);
void takt_pq_hw_remove(takt_pq_t *pq, takt_pq_node_t *node);
takt_pq_node_t *takt_pq_hw_peek(const takt_pq_t *pq);
takt_pq_node_t *takt_pq_hw_pop(takt_pq_t *pq);
void takt_pq_hw_moved_later(takt_pq_t *pq, takt_pq_node_t *node);
/* The operations table uses unit 0. */
extern const takt_pq_ops_t takt_pq_hw_ops;

#endif
