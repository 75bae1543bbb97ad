/*
 * Queue sets: wait on several queues and semaphores at once (FreeRTOS queue
 * sets). Each time an item enters a member queue (not handed directly to a
 * task waiting on that queue) or a member semaphore's count rises, the
 * member's handle is appended to the set; takt_queue_set_select returns the
 * oldest such handle, after which the caller takes from that member with
 * timeout 0 (which then succeeds, unless another task took first: members of a
 * set should be read only through the set).
 * Conventions (timeouts, results, waiter order, *_from_isr): takt/sync.h.
 * Built with TAKT_CONFIG_QUEUE_SETS 1 (the default): with 0 only the type is
 * declared.
 */
#ifndef TAKT_QUEUE_SET_H
#define TAKT_QUEUE_SET_H

#include "takt/queue.h"
#include "takt/sem.h"

/* Fields belong to the kernel; applications allocate it for create_static. */
typedef struct takt_queue_set {
    takt_waitq_t selectors;
    uint32_t magic;
    uint8_t flags;
    void **slots;      /* ring of member handles */
    uint32_t capacity;
    uint32_t count;
    uint32_t head;
    uint32_t reserved; /* the members' lengths (each >= 1: 0 iff no member) */
} takt_queue_set_t;

#if TAKT_CONFIG_QUEUE_SETS

/*
 * Creates a set holding up to capacity pending handles: at least the sum of
 * the members' lengths (a semaphore counts its max), which takt_queue_set_add_*
 * checks. Only members read outside the set can fill it (their handles stay
 * pending); a post that finds it full trips TAKT_CONFIG_ASSERT (without asserts
 * the handle is dropped).
 * TAKT_ERR_ARG: out null or capacity 0 or above 2^31-1; TAKT_ERR_NOMEM;
 * TAKT_ERR_CONTEXT from an interrupt.
 */
int takt_queue_set_create(uint32_t capacity, takt_queue_set_t **out);
/* In caller memory: slots holds capacity pointers. Also TAKT_ERR_ARG for a
 * NULL set or slots; TAKT_ERR_STATE if the memory holds a live object
 * (takt/sync.h). */
int takt_queue_set_create_static(takt_queue_set_t *set, uint32_t capacity, void **slots);
/* TAKT_ERR_STATE if tasks wait on it or it still has members (remove them first). */
int takt_queue_set_delete(takt_queue_set_t *set);

/* Adds a member. TAKT_ERR_STATE if it already belongs to a set, is not empty
 * (queue: items queued; semaphore: count > 0), or its length (a semaphore's
 * max) does not fit the set's capacity beside the other members'.
 * Context: task or before start. */
int takt_queue_set_add_queue(takt_queue_set_t *set, takt_queue_t *queue);
int takt_queue_set_add_sem(takt_queue_set_t *set, takt_sem_t *sem);
/* Removes a member; handles of it still pending (left by reads outside the
 * set) leave the set with it. TAKT_ERR_STATE if it is not in this set or is
 * not empty. */
int takt_queue_set_remove_queue(takt_queue_set_t *set, takt_queue_t *queue);
int takt_queue_set_remove_sem(takt_queue_set_t *set, takt_sem_t *sem);

/*
 * Waits up to timeout for a member with data; *member is its handle (the
 * takt_queue_t * or takt_sem_t * that was added; compare with yours).
 * Context: task. May reschedule.
 */
int takt_queue_set_select(takt_queue_set_t *set, void **member, takt_tick_t timeout);
/* Never blocks: TAKT_ERR_TIMEOUT if no member has data. */
int takt_queue_set_select_from_isr(takt_queue_set_t *set, void **member);
#endif

#endif
