/*
 * Mutexes and priority inheritance.
 *
 * A task's effective priority is derived, never adjusted step by step: it is
 * recomputed from its base priority and the waiters of the mutexes it still
 * holds (sync_priority_update). So however mutexes nest and whichever waiter
 * leaves (served, timed out, suspended, deleted), the holder ends up exactly
 * where the remaining waiters put it. Under EDF the same walk yields the
 * earliest deadline among those waiters (deadline inheritance). A change
 * propagates along the chain holder -> mutex it waits on -> that holder.
 */
#include "wait.h"

static bool mutex_valid(const takt_mutex_t *mutex)
{
    return mutex != NULL && mutex->magic == SYNC_MAGIC_MUTEX;
}

static takt_mutex_t *mutex_of(takt_waitq_t *queue)
{
    return TAKT_CONTAINER_OF(queue, takt_mutex_t, waiters);
}

static void waiter_left(takt_waitq_t *queue)
{
    takt_mutex_t *mutex = mutex_of(queue);
    if (mutex->holder != NULL) {
        sync_priority_update(mutex->holder);
    }
}

/* ---- inheritance ---- */

typedef struct {
    unsigned priority;
    bool has_deadline;
    takt_tick_t deadline;
} effective_t;

static effective_t effective_of(const takt_task_t *task)
{
    effective_t e = {task->base_priority, false, 0};
    for (takt_list_node_t *m = task->mutexes_held.next; m != &task->mutexes_held; m = m->next) {
        const takt_mutex_t *mutex = TAKT_CONTAINER_OF(m, takt_mutex_t, held_node);
        const takt_list_t *waiters = &mutex->waiters.tasks;
        for (takt_list_node_t *w = waiters->next; w != waiters; w = w->next) {
            const takt_task_t *waiter = TAKT_CONTAINER_OF(w, takt_task_t, wait_node);
            if (waiter->priority > e.priority) {
                e.priority = waiter->priority;
            }
            if (task_has_deadline(waiter)) {
                takt_tick_t d = task_deadline(waiter);
                if (!e.has_deadline || takt_tick_before(d, e.deadline)) {
                    e.has_deadline = true;
                    e.deadline = d;
                }
            }
        }
    }
    return e;
}

static bool unchanged(const takt_task_t *task, const effective_t *e)
{
    return task->priority == e->priority && task->deadline_inherited == e->has_deadline &&
           (!e->has_deadline || task->inherited_deadline == e->deadline);
}

/* Applies a new effective priority; a READY task is re-queued behind its new
 * equals and a running task that drops goes behind them at the next switch
 * (both as FreeRTOS does); until then a queued running task stays in front. */
static void apply(takt_task_t *task, const effective_t *e)
{
    bool queued = sched_in_ready_queue(task);
    if (queued) {
        sched_make_unready(task);
    }
    if (task->priority != e->priority) {
        if (e->priority < task->priority && task->state == TAKT_TASK_RUNNING) {
            takt_kernel.demoted_current = true;
        }
        task->priority = (uint16_t)e->priority;
        trace_record(TAKT_EV_PRIORITY, task, e->priority);
    }
    if (task->deadline_inherited != e->has_deadline ||
        (e->has_deadline && task->inherited_deadline != e->deadline)) {
        task->deadline_inherited = e->has_deadline;
        task->inherited_deadline = e->has_deadline ? e->deadline : 0;
        if (e->has_deadline) {
            trace_record(TAKT_EV_DEADLINE_INHERIT, task, e->deadline);
        } else {
            trace_record(TAKT_EV_DEADLINE_RESTORE, task, 0);
        }
    }
    if (queued && task->state == TAKT_TASK_RUNNING) {
        sched_requeue_running(task);
    } else if (queued) {
        sched_make_ready(task);
    }
    sched_reschedule();
}

void sync_priority_update(takt_task_t *task)
{
    /* The hop limit only matters for a deadlock cycle of mutexes (an
     * application error): the walk stops instead of going round. */
    for (unsigned hops = 0; task != NULL && hops < TAKT_CONFIG_MAX_TASKS; hops++) {
        effective_t e = effective_of(task);
        if (unchanged(task, &e)) {
            return;
        }
        apply(task, &e);
        takt_waitq_t *queue = task->wait_queue;
        if (task->state != TAKT_TASK_BLOCKED || queue == NULL) {
            return;
        }
        /* A waiter whose priority changed moves to its new place. */
        takt_list_remove(&task->wait_node);
        waitq_insert(queue, task);
        if (queue->waiter_left != waiter_left) {
            return;
        }
        task = mutex_of(queue)->holder;
    }
}

/* ---- ownership ---- */

static void take(takt_mutex_t *mutex, takt_task_t *task)
{
    mutex->holder = task;
    mutex->depth = 1;
    takt_list_push_back(&task->mutexes_held, &mutex->held_node);
    trace_record(TAKT_EV_MUTEX_LOCK, task, 1);
}

/* The holder lets go: ownership passes to the first waiter, whose own
 * inheritance now includes the waiters that remain. */
static void release(takt_mutex_t *mutex)
{
    takt_task_t *holder = mutex->holder;
    takt_list_remove(&mutex->held_node);
    trace_record(TAKT_EV_MUTEX_UNLOCK, holder, 0);
    mutex->holder = NULL;
    mutex->depth = 0;
    takt_task_t *next = waitq_first(&mutex->waiters);
    if (next != NULL) {
        takt_list_remove(&next->wait_node);
        next->wait_queue = NULL;
        take(mutex, next);
        sync_wake(next, TAKT_OK);
        sync_priority_update(next);
    }
}

void sync_task_deleted(takt_task_t *task)
{
    takt_list_node_t *node;
    while ((node = takt_list_first(&task->mutexes_held)) != NULL) {
        release(TAKT_CONTAINER_OF(node, takt_mutex_t, held_node));
    }
}

/* ---- API ---- */

static void setup(takt_mutex_t *mutex, unsigned flags, uint8_t memory)
{
    waitq_init(&mutex->waiters, waiter_left);
    takt_list_node_init(&mutex->held_node);
    mutex->holder = NULL;
    mutex->depth = 0;
    mutex->flags = (uint8_t)(memory | (flags & TAKT_MUTEX_RECURSIVE ? MUTEX_F_RECURSIVE : 0u));
    mutex->magic = SYNC_MAGIC_MUTEX;
}

static int create_check(unsigned flags)
{
    if ((flags & ~(unsigned)TAKT_MUTEX_RECURSIVE) != 0) {
        return TAKT_ERR_ARG;
    }
    return port_in_isr() ? TAKT_ERR_CONTEXT : TAKT_OK;
}

int takt_mutex_create(unsigned flags, takt_mutex_t **out)
{
    if (out == NULL) {
        return TAKT_ERR_ARG;
    }
    int err = create_check(flags);
    if (err != TAKT_OK) {
        return err;
    }
takt_mutex_t *mutex = sync_alloc(sizeof(*mutex));
    if (mutex == NULL) {
        return TAKT_ERR_NOMEM;
    }
    port_critical_t key = port_critical_enter();
    setup(mutex, flags, SYNC_F_DYNAMIC);
    port_critical_exit(key);
    *out = mutex;
    return TAKT_OK;
}

int takt_mutex_create_static(takt_mutex_t *mutex, unsigned flags)
{
    if (mutex == NULL) {
        return TAKT_ERR_ARG;
    }
    int err = create_check(flags);
    if (err != TAKT_OK) {
        return err;
    }
    port_critical_t key = port_critical_enter();
    if (mutex_valid(mutex)) {
        port_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    setup(mutex, flags, 0);
    port_critical_exit(key);
    return TAKT_OK;
}

int takt_mutex_delete(takt_mutex_t *mutex)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = port_critical_enter();
    if (!mutex_valid(mutex)) {
        port_critical_exit(key);
        return TAKT_ERR_ARG;
    }
    if (mutex->holder != NULL || !waitq_empty(&mutex->waiters)) {
        port_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    mutex->magic = 0;
    bool dynamic = mutex->flags & SYNC_F_DYNAMIC;
    port_critical_exit(key);
    if (dynamic) {
        sync_free(mutex);
    }
    return TAKT_OK;
}

int takt_mutex_lock(takt_mutex_t *mutex, takt_tick_t timeout)
{
    int err = sync_task_call_check(timeout);
    if (err != TAKT_OK) {
        return err;
    }
    port_critical_t key = port_critical_enter();
    takt_task_t *self = takt_kernel.current;
    int result = TAKT_OK;
    if (!mutex_valid(mutex)) {
        result = TAKT_ERR_ARG;
    } else if (!takt_kernel.started) {
        result = TAKT_ERR_CONTEXT; /* no task to own it yet */
    } else if (mutex->holder == NULL) {
        take(mutex, self);
    } else if (mutex->holder == self) {
        if (!(mutex->flags & MUTEX_F_RECURSIVE) || mutex->depth == UINT32_MAX) {
            result = TAKT_ERR_STATE;
        } else {
            mutex->depth++;
        }
    } else {
        result = sync_may_block(timeout);
        if (result == TAKT_OK) {
            sync_block_prepare(&mutex->waiters, TAKT_WAIT_MUTEX, timeout);
            sync_priority_update(mutex->holder);
            return sync_block_finish(key);
        }
    }
    port_critical_exit(key);
    return result;
}

int takt_mutex_unlock(takt_mutex_t *mutex)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = port_critical_enter();
    int result = TAKT_OK;
    if (!mutex_valid(mutex)) {
        result = TAKT_ERR_ARG;
    } else if (!takt_kernel.started || mutex->holder != takt_kernel.current) {
        result = TAKT_ERR_STATE;
    } else if (--mutex->depth == 0) {
        takt_task_t *self = mutex->holder;
        release(mutex);
        sync_priority_update(self);
    }
    port_critical_exit(key);
    return result;
}

takt_task_t *takt_mutex_holder(const takt_mutex_t *mutex)
{
    port_critical_t key = port_critical_enter();
    takt_task_t *holder = mutex_valid(mutex) ? mutex->holder : NULL;
    port_critical_exit(key);
    return holder;
}
