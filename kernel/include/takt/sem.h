/*
 * Semaphores: a count between 0 and a maximum. A binary semaphore has maximum
 * 1. No owner and no priority inheritance (use a mutex for mutual exclusion).
 * Conventions (timeouts, results, waiter order, *_from_isr): takt/sync.h.
 */
#ifndef TAKT_SEM_H
#define TAKT_SEM_H

#include "takt/sync.h"

struct takt_queue_set;

/* Fields belong to the kernel; applications allocate it for create_static. */
typedef struct takt_sem {
    takt_waitq_t waiters;
    uint32_t magic;
    uint32_t count;
    uint32_t max;
    uint8_t flags;
    struct takt_queue_set *set; /* the queue set it belongs to, or NULL */
} takt_sem_t;

/*
 * Creates a semaphore (memory from TAKT_CONFIG_MALLOC) with count initial.
 * Context: task or before start.
 * TAKT_ERR_ARG: out null, max 0 or above 2^31-1, initial > max; TAKT_ERR_NOMEM: allocation
 * failed or dynamic allocation configured off; TAKT_ERR_CONTEXT from an interrupt.
 */
int takt_sem_create(uint32_t max, uint32_t initial, takt_sem_t **out);
/* As takt_sem_create in caller memory; TAKT_ERR_STATE if the memory holds a live object (takt/sync.h). */
int takt_sem_create_static(takt_sem_t *sem, uint32_t max, uint32_t initial);
/* Deletes it (frees a dynamic one). TAKT_ERR_STATE if tasks wait on it or it is
 * in a queue set. Context: task or before start. */
int takt_sem_delete(takt_sem_t *sem);

/* Takes one unit, blocking up to timeout while the count is 0. Context: task. May reschedule. */
int takt_sem_take(takt_sem_t *sem, takt_tick_t timeout);
/* Gives one unit: to the first waiter if any, else count+1.
 * TAKT_ERR_STATE if the count is already at max (nothing changes). Context: task. May reschedule. */
int takt_sem_give(takt_sem_t *sem);

/* Interrupt variants; take never blocks (TAKT_ERR_TIMEOUT when the count is 0). */
int takt_sem_take_from_isr(takt_sem_t *sem, bool *woken);
int takt_sem_give_from_isr(takt_sem_t *sem, bool *woken);
/* takt_sem_give_from_isr with the flag a long, as FreeRTOS keeps it (its
 * BaseType_t in Takt's layer): *woken (may be NULL) is set to 1 where the
 * bool would be set to true, and left as it is otherwise. */
int takt_sem_give_from_isr_flag(takt_sem_t *sem, long *woken);

/* Current count; TAKT_ERR_ARG on a bad handle. Any context. */
int takt_sem_count(const takt_sem_t *sem);

#endif
