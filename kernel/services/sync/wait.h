/*
 * What every synchronisation object shares: waiter lists ordered by the
 * running policy, blocking with a timeout, serving a waiter, handle checks.
 * Assumptions for every function here: kernel lock held (port critical
 * section), unless it says otherwise.
 */
#ifndef TAKT_SYNC_WAIT_H
#define TAKT_SYNC_WAIT_H

#include "../../internal.h"

/* Handle magics, one per object type (a deleted object's magic is 0): one
 * letter four times, a value Thumb-2's compare takes as an immediate, so
 * the handle check loads no constant. */
#define SYNC_MAGIC_SEM 0x53535353u        /* "SSSS" */
#define SYNC_MAGIC_MUTEX 0x4d4d4d4du      /* "MMMM" */
#define SYNC_MAGIC_QUEUE 0x51515151u      /* "QQQQ" */
#define SYNC_MAGIC_QUEUE_SET 0x52525252u  /* "RRRR" */
#define SYNC_MAGIC_EVENTS 0x45454545u     /* "EEEE" */
#define SYNC_MAGIC_SOFT_TIMER 0x54545454u /* "TTTT" */
#define SYNC_MAGIC_SOFT_TIMER_DELETED 0x74747474u /* "tttt": deleted, commands still on it */
#define SYNC_MAGIC_STREAM 0x42424242u     /* "BBBB" */

/* A handle of one type given to a call of another (a queue set's members come
 * back as void *) is refused by its magic: the check reads only where every
 * object has one, never past a smaller object. */
#define SYNC_MAGIC_OFFSET offsetof(takt_sem_t, magic)
_Static_assert(offsetof(takt_queue_t, magic) == SYNC_MAGIC_OFFSET &&
                   offsetof(takt_mutex_t, magic) == SYNC_MAGIC_OFFSET &&
                   offsetof(takt_queue_set_t, magic) == SYNC_MAGIC_OFFSET &&
                   offsetof(takt_event_group_t, magic) == SYNC_MAGIC_OFFSET &&
                   offsetof(takt_stream_t, magic) == SYNC_MAGIC_OFFSET,
               "every waitable object keeps its magic at one offset");
_Static_assert(offsetof(takt_soft_timer_t, magic) < SYNC_MAGIC_OFFSET &&
                   sizeof(takt_soft_timer_t) >= SYNC_MAGIC_OFFSET + sizeof(uint32_t),
               "a timer handle checked as an object, or an object as a timer, stays inside it");

/* Object flags every object uses. */
enum {
    SYNC_F_DYNAMIC = 1u << 0, /* memory from TAKT_CONFIG_MALLOC */
    MUTEX_F_RECURSIVE = 1u << 1,
};

/* Object memory: from the allocator the task code uses. NULL when dynamic
 * allocation is configured off. No lock needed. */
static inline void *sync_alloc(size_t size)
{
#if TAKT_CONFIG_DYNAMIC_ALLOCATION
    return TAKT_CONFIG_MALLOC(size);
#else
    (void)size;
    return NULL;
#endif
}

static inline void sync_free(void *memory)
{
#if TAKT_CONFIG_DYNAMIC_ALLOCATION
    TAKT_CONFIG_FREE(memory);
#else
    (void)memory;
#endif
}

void waitq_init(takt_waitq_t *queue, const takt_waitq_ops_t *ops);

static inline bool waitq_empty(const takt_waitq_t *queue)
{
    return takt_list_empty(&queue->tasks);
}

/* The waiter served next, or NULL. */
static inline takt_task_t *waitq_first(const takt_waitq_t *queue)
{
    takt_list_node_t *node = takt_list_first(&queue->tasks);
    return node == NULL ? NULL : TAKT_CONTAINER_OF(node, takt_task_t, wait_node);
}

/* The waiter served next, of a queue known not to be empty. */
static inline takt_task_t *waitq_head(const takt_waitq_t *queue)
{
    return TAKT_CONTAINER_OF(queue->tasks.next, takt_task_t, wait_node);
}

/* Puts a task at its place: behind every waiter it does not go before. */
void waitq_insert(takt_waitq_t *queue, takt_task_t *task);

/* A timeout must be 0, TAKT_WAIT_FOREVER or below 2^31. No lock needed.
 * TAKT_WAIT_FOREVER is the one tick count that is -1 as a signed number, so the
 * valid ones are exactly those not below -1: one compare on every blocking call. */
_Static_assert(TAKT_WAIT_FOREVER == UINT32_MAX && sizeof(takt_tick_t) == sizeof(int32_t),
               "sync_timeout_valid reads TAKT_WAIT_FOREVER as -1");
static inline bool sync_timeout_valid(takt_tick_t timeout)
{
    return (int32_t)timeout >= -1;
}

/* The calling context of a task-context call: TAKT_ERR_CONTEXT from an
 * interrupt, TAKT_ERR_ARG for a bad timeout. No lock needed. Inline, as
 * every blocking call makes it first. */
static inline int sync_task_call_check(takt_tick_t timeout)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    return sync_timeout_valid(timeout) ? TAKT_OK : TAKT_ERR_ARG;
}

/* The calling context of a call with a task's and an interrupt's form
 * (from_isr: the interrupt's was called): TAKT_ERR_CONTEXT for the task's
 * form in an interrupt; else TAKT_OK and *as_isr, the form that runs: the
 * interrupt's form called from a task runs as the task's (takt/sync.h). */
static inline int sync_call_form(bool from_isr, bool *as_isr)
{
    bool in_isr = port_in_isr();
    if (in_isr && !from_isr) {
        return TAKT_ERR_CONTEXT;
    }
    *as_isr = in_isr;
    return TAKT_OK;
}

/* Whether the caller may block now: TAKT_OK, TAKT_ERR_TIMEOUT (timeout 0,
 * or before start), TAKT_ERR_CONTEXT (idle task, scheduler locked, inside
 * takt_critical_enter). Inline: on every path that blocks. */
static inline int sync_may_block(takt_tick_t timeout)
{
    if (timeout == 0 || !takt_kernel.started) {
        return TAKT_ERR_TIMEOUT;
    }
    return current_may_block() ? TAKT_OK : TAKT_ERR_CONTEXT;
}

/*
 * Blocks the caller on queue (NULL: a wait with no list, e.g. a notification)
 * for reason, with the timeout, and leaves the kernel lock the caller took
 * with one port_critical_enter, whose key it gets: the switch happens there.
 * Returns the wait's result once the task runs again (TAKT_OK when served,
 * TAKT_ERR_TIMEOUT). Assumptions: sync_may_block said TAKT_OK; lock held
 * exactly once.
 */
int sync_block(takt_waitq_t *queue, takt_wait_t reason, takt_tick_t timeout, port_critical_t key);
/* sync_block in two halves, for an object that must act between the caller
 * joining the waiters and the switch (a mutex passing on priority); the
 * second, given the caller (self), leaves the lock (inline: it is two
 * instructions and a load; sync_block ends with it too). */
void sync_block_prepare(takt_waitq_t *queue, takt_wait_t reason, takt_tick_t timeout);
static inline int sync_block_finish(takt_task_t *self, port_critical_t key)
{
    port_critical_exit(key); /* the switch away happens here; we return once woken */
    /* Returned: nothing to give back any more. Cleared before the result
     * is read, so that a task stopped in between (preempted, then suspended
     * or deleted) either gave back and reads its new result, or keeps what
     * it was handed (sync_served_unreturned). */
    self->wait_queue = NULL;
    __asm__ volatile("" ::: "memory");
    return self->wait_result;
}

/* sync_block for a call that reads its object again when its wait ended
 * unserved (an event group's bits, a stream's transfer at the timeout):
 * back in the task it takes the lock again (*key its new key) and says in
 * *deleted whether the object was deleted in between (by another task,
 * while this one was ready to return or suspended): its memory may be
 * freed, and must not be read. Returns the wait's result. */
int sync_block_relock(takt_waitq_t *queue, takt_wait_t reason, takt_tick_t timeout,
                      port_critical_t *key, bool *deleted);

/* Served (handed what it waited for), and its blocking call has not
 * returned: it has not run since, or was stopped before the call's last
 * instructions (sync_block_finish), and what it was handed is untouched in
 * its buffer, to give back if it is deleted or suspended now. A suspended
 * waiter that will take its wait up again (REJOIN) was not served; neither
 * was one whose wait ended otherwise. Assumptions: lock held. */
static inline bool sync_served_unreturned(const takt_task_t *task)
{
    return task->wait_queue != NULL && task->state != TAKT_TASK_BLOCKED &&
           !(task->flags & TAKT_TASK_F_REJOIN) && task->wait_result == TAKT_OK;
}

/*
 * Ends a waiter's wait with result (it leaves its list, its timeout is
 * cancelled, it becomes ready). Sets *woken if it should preempt the running
 * (or interrupted) task — the *woken of the *_from_isr calls (set here, so
 * the caller keeps nothing across the call).
 */
void sync_wake(takt_task_t *task, int result, bool *woken);
/* sync_wake without the preemption test: for a task-context call, where the
 * switch (if any) happens when the call leaves the lock. */
void sync_end_wait(takt_task_t *task, int result);
/* sync_end_wait's timed case (sync/serve.h: sync_end_wait_inline). */
void sync_end_timed_wait(takt_task_t *task);

/* sync_wake reported to the optional *woken of a call that serves both
 * contexts: a task-context call (woken NULL) skips the preemption test. */
static inline void sync_wake_reporting(takt_task_t *task, int result, bool *woken)
{
    if (woken == NULL) {
        sync_end_wait(task, result);
    } else {
        sync_wake(task, result, woken);
    }
}

/* An object being deleted (its lists, one or two; other may be NULL): no
 * task names them any more. Suspended tasks that would take up a wait on
 * one end theirs in timeout when resumed instead; a served task whose call
 * has not returned keeps what it was handed. */
void sync_forget_waitqs(const takt_waitq_t *queue, const takt_waitq_t *other);

/* True when called from an interrupt handler. */
static inline bool sync_in_isr(void)
{
    return port_in_isr();
}

#endif
