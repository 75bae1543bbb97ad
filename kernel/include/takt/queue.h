/*
 * Message queues: a ring of `length` fixed-size items, copied in and out by
 * value. Senders wait while it is full, receivers (and peekers) while it is
 * empty. A send that meets a waiting receiver hands the item over directly;
 * waiting peekers ahead of the first receiver get a copy too.
 * Conventions (timeouts, results, waiter order, *_from_isr): takt/sync.h.
 *
 * Item sizes: a send passes `size` bytes, at most the queue's item size
 * (TAKT_ERR_ARG otherwise); a shorter item is zero-padded to the item size.
 * A receive or peek needs a buffer of at least the item size (its `size`;
 * TAKT_ERR_ARG otherwise) and gets exactly item-size bytes. Item size 0 is
 * allowed (the queue counts events; item may then be NULL).
 */
#ifndef TAKT_QUEUE_H
#define TAKT_QUEUE_H

#include "takt/sync.h"

struct takt_queue_set;

/* Fields belong to the kernel; applications allocate it for create_static. */
typedef struct takt_queue {
    takt_waitq_t senders;
    uint32_t magic; /* where every waitable object has it (takt/sync.h) */
    takt_waitq_t receivers; /* receivers and peekers (TAKT_QUEUE_WAIT_PEEK) */
    uint8_t flags;
    uint8_t *storage;
    size_t item_size;
    uint32_t length;
    uint32_t count;
    uint32_t head; /* index of the oldest item */
    struct takt_queue_set *set; /* the queue set it belongs to, or NULL */
} takt_queue_t;

/* A receiver waiting to peek carries this in its wait_flags (a trace hook
 * tells a blocked peek from a blocked receive by it). */
#define TAKT_QUEUE_WAIT_PEEK 1u

/* Bytes of storage a static queue needs. */
#define TAKT_QUEUE_STORAGE_SIZE(length, item_size) ((size_t)(length) * (size_t)(item_size))

/*
 * Creates a queue of length items of item_size bytes (one allocation).
 * TAKT_ERR_ARG: out null, length 0 or above 2^31-1, or length*item_size overflowing;
 * TAKT_ERR_NOMEM; TAKT_ERR_CONTEXT from an interrupt. Context: task or before start.
 */
int takt_queue_create(uint32_t length, size_t item_size, takt_queue_t **out);
/* In caller memory: storage holds TAKT_QUEUE_STORAGE_SIZE(length, item_size)
 * bytes (may be NULL if that is 0). Also TAKT_ERR_ARG for a NULL queue, or a
 * NULL storage for items of some bytes; TAKT_ERR_STATE if the memory holds a
 * live object (takt/sync.h). */
int takt_queue_create_static(takt_queue_t *queue, uint32_t length, size_t item_size,
                             void *storage);
/* TAKT_ERR_STATE if tasks wait on it or it is in a queue set. Context: task or before start. */
int takt_queue_delete(takt_queue_t *queue);

/* Appends an item (FIFO), blocking up to timeout while full. Context: task. May reschedule. */
int takt_queue_send(takt_queue_t *queue, const void *item, size_t size, takt_tick_t timeout);
/* Puts an item at the front (it is received next), blocking up to timeout while full. */
int takt_queue_send_front(takt_queue_t *queue, const void *item, size_t size,
                          takt_tick_t timeout);
/* For a queue of length 1 (a mailbox): stores the item, replacing the one held
 * if full; never blocks. TAKT_ERR_ARG for a queue of another length. */
int takt_queue_overwrite(takt_queue_t *queue, const void *item, size_t size);
/* Removes the oldest item into buffer, blocking up to timeout while empty. */
int takt_queue_receive(takt_queue_t *queue, void *buffer, size_t size, takt_tick_t timeout);
/* takt_queue_send and takt_queue_receive of one whole item (item-size bytes;
 * the buffer holds one): the same results and errors as those calls with size
 * = the item size, without a size to pass or check (the FreeRTOS layer's calls). */
int takt_queue_send_item(takt_queue_t *queue, const void *item, takt_tick_t timeout);
int takt_queue_receive_item(takt_queue_t *queue, void *buffer, takt_tick_t timeout);
/* Copies the oldest item into buffer without removing it, blocking up to timeout while empty. */
int takt_queue_peek(takt_queue_t *queue, void *buffer, size_t size, takt_tick_t timeout);
/* Empties it (in a queue set, its pending handles leave the set); senders
 * waiting for room are served into the new room. Context: task. May reschedule. */
int takt_queue_reset(takt_queue_t *queue);

/* Interrupt variants: never block (TAKT_ERR_TIMEOUT when full/empty). */
int takt_queue_send_from_isr(takt_queue_t *queue, const void *item, size_t size, bool *woken);
int takt_queue_send_front_from_isr(takt_queue_t *queue, const void *item, size_t size,
                                   bool *woken);
int takt_queue_overwrite_from_isr(takt_queue_t *queue, const void *item, size_t size,
                                  bool *woken);
int takt_queue_receive_from_isr(takt_queue_t *queue, void *buffer, size_t size, bool *woken);
int takt_queue_peek_from_isr(takt_queue_t *queue, void *buffer, size_t size);

/* Items queued / free slots; TAKT_ERR_ARG on a bad handle. Any context. */
int takt_queue_count(const takt_queue_t *queue);
int takt_queue_spaces(const takt_queue_t *queue);

#endif
