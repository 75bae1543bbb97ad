/*
 * Keyed priority queue: the one contract behind the timer queue and the
 * deadline-ordered ready queues.
 *
 * Keys are 32-bit times (ticks or absolute deadlines) compared wraparound-safely
 * by signed difference ("deadline folding"): a precedes b iff (int32_t)(a - b) < 0.
 * This orders correctly as long as every key in one queue lies within half the
 * key range (2^31) of every other — true for timers and deadlines that are
 * never more than 2^31 ticks ahead of now.
 *
 * Backends (each a file, each with the same functions under its own prefix and
 * a const operations table so one test suite runs against all of them):
 *   sorted list  takt_pq_list_*   O(n) insert, O(1) peek/pop/remove
 * A kernel build binds the timer queue to one backend at compile time
 * (TAKT_CONFIG_TIMER_QUEUE), so the kernel pays no indirect call.
 *
 * Equal keys: order among them is unspecified — users that need a tie order
 * (ready queues) break ties themselves.
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
    } link;
    uint32_t key;
    bool queued;
} takt_pq_node_t;

typedef struct takt_pq {
    union {
        struct {
            takt_pq_node_t *head; /* smallest key first */
        } list;
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

static inline void takt_pq_node_init(takt_pq_node_t *node)
{
    node->queued = false;
    node->key = 0;
}

static inline bool takt_pq_node_queued(const takt_pq_node_t *node)
{
    return node->queued;
}

static inline uint32_t takt_pq_count(const takt_pq_t *pq)
{
    return pq->count;
}

/* One backend's operations, for tests and benchmarks that iterate backends. */
typedef struct takt_pq_ops {
    const char *name;
    void (*init)(takt_pq_t *pq);
    void (*insert)(takt_pq_t *pq, takt_pq_node_t *node);
    void (*remove)(takt_pq_t *pq, takt_pq_node_t *node);
    takt_pq_node_t *(*peek)(const takt_pq_t *pq);
    takt_pq_node_t *(*pop)(takt_pq_t *pq);
} takt_pq_ops_t;

/* Sorted doubly linked list. */
void takt_pq_list_init(takt_pq_t *pq);
void takt_pq_list_insert(takt_pq_t *pq, takt_pq_node_t *node);
void takt_pq_list_remove(takt_pq_t *pq, takt_pq_node_t *node);
takt_pq_node_t *takt_pq_list_peek(const takt_pq_t *pq);
takt_pq_node_t *takt_pq_list_pop(takt_pq_t *pq);
extern const takt_pq_ops_t takt_pq_list_ops;

#endif
