/*
 * Mutexes with priority inheritance, optionally recursive.
 *
 * Inheritance: a task's effective priority is the highest of its base priority
 * and the priorities of the first waiter of every mutex it holds (transitively:
 * a holder that itself waits on a mutex passes its priority on to that
 * mutex's holder). It is recomputed from the mutexes still held whenever
 * a mutex is released, a waiter arrives, times out, is suspended or deleted,
 * or a waiter's own priority changes — so with nested mutexes the holder drops
 * exactly to the level the remaining waiters justify. Under EDF the holder
 * inherits the earliest absolute deadline among those waiters (deadline
 * inheritance; a background task holding a mutex a deadline job waits for is
 * scheduled by that deadline meanwhile). takt_task_get_priority reports the
 * effective priority.
 *
 * Ownership passes directly to the first waiter on unlock. Mutexes are
 * task-only: no interrupt variants. A task deleted while holding mutexes
 * releases them (each passes to its first waiter).
 * Conventions (timeouts, results, waiter order): takt/sync.h.
 */
#ifndef TAKT_MUTEX_H
#define TAKT_MUTEX_H

#include "takt/sync.h"

enum {
    TAKT_MUTEX_RECURSIVE = 1u << 0, /* the holder may lock again; unlocks must match */
};

/* Fields belong to the kernel; applications allocate it for create_static. */
typedef struct takt_mutex {
    takt_waitq_t waiters;
    uint32_t magic;
    takt_task_t *holder;
    takt_list_node_t held_node; /* in the holder's list of held mutexes */
    uint32_t depth;             /* recursive locks by the holder */
    uint8_t flags;
} takt_mutex_t;

/* Creates a mutex (flags: TAKT_MUTEX_*). TAKT_ERR_ARG: out null or unknown flags;
 * TAKT_ERR_NOMEM; TAKT_ERR_CONTEXT from an interrupt. Context: task or before start. */
int takt_mutex_create(unsigned flags, takt_mutex_t **out);
/* In caller memory; TAKT_ERR_STATE if the memory holds a live object (takt/sync.h). */
int takt_mutex_create_static(takt_mutex_t *mutex, unsigned flags);
/* TAKT_ERR_STATE if it is held or has waiters. Context: task or before start. */
int takt_mutex_delete(takt_mutex_t *mutex);

/*
 * Locks it, blocking up to timeout. The holder locking a recursive mutex again
 * counts one more level (TAKT_ERR_STATE past 2^32-1); the holder locking a
 * non-recursive mutex again gets TAKT_ERR_STATE (it would deadlock).
 * Context: task, not the idle task (TAKT_ERR_CONTEXT, even when the mutex is
 * free: a holder must be able to inherit a waiter's priority, and the idle
 * task runs only when nothing else can). May reschedule.
 */
int takt_mutex_lock(takt_mutex_t *mutex, takt_tick_t timeout);
/* Unlocks one level; at the last, ownership passes to the first waiter and the
 * caller's priority is recomputed. TAKT_ERR_STATE if the caller does not hold it.
 * Context: task. May reschedule. */
int takt_mutex_unlock(takt_mutex_t *mutex);

/* The holder, or NULL (also for a bad handle). Any context. */
takt_task_t *takt_mutex_holder(const takt_mutex_t *mutex);

#endif
