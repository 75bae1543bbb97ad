/*
 * Waiter lists and blocking, shared by every synchronisation object. A blocked
 * task is linked into one object's list through its wait_node and leaves the
 * ready queue through sched_block_current like any blocked task (so a policy,
 * servers included, sees nothing special); its timeout is its wake timer in the
 * kernel's timer queue.
 */
#include <string.h>

#include "serve.h"

void waitq_init(takt_waitq_t *queue, const takt_waitq_ops_t *ops)
{
    takt_list_init(&queue->tasks);
    queue->ops = ops;
}

/* The object's reaction to a waiter leaving, if it has one. */
static void tell_waiter_left(takt_waitq_t *queue)
{
    if (queue->ops != NULL && queue->ops->waiter_left != NULL) {
        queue->ops->waiter_left(queue);
    }
}

/* From the back: first come, first served among equals costs one comparison. */
void waitq_insert(takt_waitq_t *queue, takt_task_t *task)
{
    const takt_policy_t *policy = sched_policy();
    takt_list_node_t *pos = &queue->tasks;
    while (pos->prev != &queue->tasks) {
        const takt_task_t *before = TAKT_CONTAINER_OF(pos->prev, takt_task_t, wait_node);
        if (!policy->waits_before(task, before)) {
            break;
        }
        pos = pos->prev;
    }
    takt_list_insert_before(pos, &task->wait_node);
    task->wait_queue = queue;
}

/* The caller joins the waiters and leaves the ready queue; returns it. Inline
 * in both sync_block (every blocking call: no second call, no second look at
 * the running task) and sync_block_prepare. */
static inline takt_task_t *block_current(takt_waitq_t *queue, takt_wait_t reason,
                                         takt_tick_t timeout)
{
    takt_task_t *self = takt_kernel.current;
    KASSERT(self->wait_queue == NULL); /* its last blocking call returned */
    /* What a served wait ends with, so that serving it stores nothing
     * (sync_serve_listed); every end that is not served stores its own
     * (leave_unserved: TAKT_ERR_TIMEOUT). */
    self->wait_result = TAKT_OK;
    self->wait_timed = false; /* one store with the above */
    if (queue != NULL) {
        waitq_insert(queue, self);
    }
    if (timeout != TAKT_WAIT_FOREVER) {
        self->wait_timed = true;
        timer_arm(&self->wake_timer, takt_kernel.ticks + timeout);
    }
    sched_block_current(reason);
    return self;
}

/* Out of line also here: sync_block_relock calls it rather than take a copy. */
__attribute__((noinline)) void sync_block_prepare(takt_waitq_t *queue, takt_wait_t reason,
                                                  takt_tick_t timeout)
{
    (void)block_current(queue, reason, timeout);
}

int sync_block(takt_waitq_t *queue, takt_wait_t reason, takt_tick_t timeout, port_critical_t key)
{
    return sync_block_finish(block_current(queue, reason, timeout), key);
}

int sync_block_relock(takt_waitq_t *queue, takt_wait_t reason, takt_tick_t timeout,
                      port_critical_t *key, bool *deleted)
{
    takt_task_t *self = takt_kernel.current;
    sync_block_prepare(queue, reason, timeout); /* a call: the usual block's copy stays one */
    port_critical_exit(*key); /* the switch away happens here; we return once woken */
    *key = port_critical_enter();
    /* Served or not, the waiter names its list until here, unless the
     * object's delete took it (sync_forget_waitqs). Read and cleared under
     * the lock: a delete or suspend comes before or after, not between. */
    *deleted = self->wait_queue == NULL;
    self->wait_queue = NULL;
    return self->wait_result;
}

/* A wait that ends before its timeout: the timer leaves the queue first. Out
 * of line, so that end_wait, when no timeout is armed (most waits), ends in a
 * tail call and saves no registers. */
__attribute__((noinline)) void sync_end_timed_wait(takt_task_t *task)
{
    timer_dequeue(&task->wake_timer);
    task_wake(task, (takt_wait_t)task->wait);
}

static inline void end_wait(takt_task_t *task, int result)
{
    sync_end_wait_inline(task, result, false);
}

void sync_end_wait(takt_task_t *task, int result)
{
    end_wait(task, result);
}

static inline bool preempts_running(const takt_task_t *task)
{
    const takt_task_t *running = takt_kernel.current;
    return running != NULL && running != task && sched_policy()->preempts(task, running);
}

/* fp and EDF answer from priorities and deadlines, which a wake leaves as
 * they are: asked first, the wake is a tail call. hsf's answer depends on
 * the top server, which the wake may change: asked after it. */
void sync_wake(takt_task_t *task, int result, bool *woken)
{
    if (sched_is_hsf()) {
        end_wait(task, result);
        if (preempts_running(task)) {
            *woken = true;
        }
        return;
    }
    if (preempts_running(task)) {
        *woken = true;
    }
    end_wait(task, result);
}

/* The waiter leaves without being served: its object may need to react
 * (a mutex's holder loses what it inherited from this waiter). */
static void leave_unserved(takt_task_t *task)
{
    takt_waitq_t *queue = task->wait_queue;
    sync_unlink_waiter(task, false);
    /* Nothing handed, nothing to give back (the result says so); wait_queue
     * stays until the call returns, so that the object's delete meanwhile
     * tells a call that reads it again that it is gone (sync_block_relock). */
    task->wait_result = TAKT_ERR_TIMEOUT;
    if (queue != NULL) {
        tell_waiter_left(queue);
    }
}

void sync_wait_timed_out(takt_task_t *task)
{
    trace_record(TAKT_EV_WAIT_TIMEOUT, task, task->wait);
    leave_unserved(task);
}

void sync_wait_detach(takt_task_t *task)
{
    if (task->state == TAKT_TASK_BLOCKED && task->wait >= TAKT_WAIT_SEM) {
        leave_unserved(task);
    }
}

/* ---- a wait across a suspend (FreeRTOS's queue-based waits) ---- */

/* A served task suspended before its call returned: what it was handed
 * goes back, and it waits again as if suspended before the serve (FreeRTOS
 * left the unit, item or mutex in the object, and its woken task, suspended
 * before it ran, looks again at its resume). Where the object cannot take
 * it back, or its waits end at a suspend, the task keeps it. */
static void served_suspends(takt_task_t *task)
{
    /* Out of the ready queue already (task.c: detach), which its state must
     * say before the object reacts: a mutex's giving back recomputes the
     * task's priority, and would queue a READY task again. */
    task->state = TAKT_TASK_SUSPENDED;
    takt_waitq_t *queue = task->wait_queue;
    const takt_waitq_ops_t *ops = queue->ops;
    if (ops == NULL || ops->rejoin == NULL || ops->give_back == NULL ||
        !ops->give_back(queue, task)) {
        return;
    }
    task->wait = ops->reason;
    task->wait_result = TAKT_ERR_TIMEOUT; /* as leave_unserved leaves it */
    task->flags |= TAKT_TASK_F_REJOIN; /* wait_timed kept; the serve left the timer's key */
}

/* A wait whose list has a rejoin hook (FreeRTOS's queue calls and
 * stream-buffer sends loop until their block time is over) is kept; a
 * notification, event-group or stream-buffer receive wait ends, as those
 * FreeRTOS calls return. */
TAKT_COLD void sync_wait_suspend(takt_task_t *task)
{
    if (task->state != TAKT_TASK_BLOCKED) {
        if (sync_served_unreturned(task)) {
            served_suspends(task);
        }
        return; /* its wait is TAKT_WAIT_NONE already, or what it was handed is kept */
    }
    if (task->wait >= TAKT_WAIT_SEM) {
        takt_waitq_t *queue = task->wait_queue;
        leave_unserved(task); /* what the object gives meanwhile goes to the others */
        if (queue != NULL && queue->ops != NULL && queue->ops->rejoin != NULL) {
            task->wait_queue = queue;
            task->flags |= TAKT_TASK_F_REJOIN; /* wait_timed as the block left it */
            return;
        }
    }
    task->wait = TAKT_WAIT_NONE;
}

/* As FreeRTOS's loop: what the object has first; then the timeout, which
 * ends the wait if it ended while the task was suspended. Otherwise the
 * task waits again until the same end, and its object hears of it as of a
 * waiter that changed place (waiter_left: a mutex's holder inherits from
 * it, a stream serves the senders that now fit, this one perhaps). */
TAKT_COLD void sync_wait_resume(takt_task_t *task)
{
    takt_waitq_t *queue = task->wait_queue;
    bool timed = task->wait_timed;
    takt_tick_t until = task->wake_timer.node.key; /* cancelling left it */
    task->flags &= (uint8_t)~TAKT_TASK_F_REJOIN;
    task->wait_result = TAKT_OK;
    if (queue->ops->rejoin(queue, task)) {
        sched_make_ready(task); /* served: wait_queue stays until the call returns */
    } else if (timed && !takt_tick_before(takt_kernel.ticks, until)) {
        task->wait_result = TAKT_ERR_TIMEOUT; /* wait_queue stays, as leave_unserved leaves it */
        sched_make_ready(task);
    } else {
        waitq_insert(queue, task);
        task->state = TAKT_TASK_BLOCKED;
        if (timed) {
            timer_arm(&task->wake_timer, until);
        }
        tell_waiter_left(queue);
    }
    sched_reschedule();
}

TAKT_COLD void sync_forget_waitqs(const takt_waitq_t *queue, const takt_waitq_t *other)
{
    const takt_list_t *all = &takt_kernel.all_tasks;
    for (takt_list_node_t *node = kernel_tasks_first(); node != all; node = node->next) {
        takt_task_t *task = TAKT_CONTAINER_OF(node, takt_task_t, all_node);
        if (task->wait_queue == NULL || (task->wait_queue != queue && task->wait_queue != other)) {
            continue;
        }
        KASSERT(task->state != TAKT_TASK_BLOCKED); /* the object has no waiters */
        if (task->flags & TAKT_TASK_F_REJOIN) {
            task->flags &= (uint8_t)~TAKT_TASK_F_REJOIN;
            task->wait = TAKT_WAIT_NONE;
        }
        task->wait_queue = NULL;
    }
}

_Static_assert(sizeof(takt_task_t) >= SYNC_MAGIC_OFFSET + sizeof(uint32_t) &&
                   sizeof(takt_server_t) >= SYNC_MAGIC_OFFSET + sizeof(uint32_t),
               "a task's or server's memory checked for an object stays inside it");

TAKT_COLD bool sync_memory_in_use(const void *memory, size_t size)
{
    if (listed_memory_in_use(memory, size)) {
        return true;
    }
    uint32_t magic;
    memcpy(&magic, (const char *)memory + SYNC_MAGIC_OFFSET, sizeof(magic));
    switch (magic) {
    case SYNC_MAGIC_SEM:
    case SYNC_MAGIC_MUTEX:
    case SYNC_MAGIC_QUEUE:
    case SYNC_MAGIC_QUEUE_SET:
    case SYNC_MAGIC_EVENTS:
    case SYNC_MAGIC_STREAM:
        return true;
    default:
        break;
    }
    memcpy(&magic, (const char *)memory + offsetof(takt_soft_timer_t, magic), sizeof(magic));
    return magic == SYNC_MAGIC_SOFT_TIMER || magic == SYNC_MAGIC_SOFT_TIMER_DELETED;
}

TAKT_COLD bool sync_task_gives_back(takt_task_t *task)
{
    if (!sync_served_unreturned(task)) {
        return true;
    }
    takt_waitq_t *queue = task->wait_queue;
    if (queue->ops != NULL && queue->ops->give_back != NULL && !queue->ops->give_back(queue, task)) {
        return false;
    }
    task->wait_queue = NULL;
    return true;
}

/* ---- scheduler lock and critical sections (takt/sync.h) ---- */

int takt_sched_lock(void)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = port_critical_enter();
    int result = TAKT_ERR_STATE;
    if (takt_kernel.sched_lock < UINT8_MAX) {
        takt_kernel.sched_lock++;
        takt_kernel.sched_locked = true;
        result = TAKT_OK;
    }
    port_critical_exit(key);
    return result;
}

int takt_sched_unlock(void)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = port_critical_enter();
    if (takt_kernel.sched_lock == 0) {
        port_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    uint32_t switches = takt_kernel.context_switches;
    bool ended = --takt_kernel.sched_lock == 0;
    if (ended) {
        takt_kernel.sched_locked = false;
        sched_reschedule(); /* the switch the lock held back, if any */
    }
    port_critical_exit(key);
    /* In task context the switch (if any) happened at the exit above, so
     * the counter moved iff another task ran before we got back. */
    return ended && takt_kernel.context_switches != switches ? 1 : 0;
}

unsigned takt_sched_lock_depth(void)
{
    return takt_kernel.sched_lock;
}

/* Only the outermost section masks (the kernel keeps its key): the inner
 * ones find everything masked already. Task context only, so nothing that
 * preempts the read of app_critical can change it. */
void takt_critical_enter(void)
{
    if (takt_kernel.app_critical == 0) {
        takt_kernel.app_critical_key = port_critical_enter();
    }
    takt_kernel.app_critical++;
}

void takt_critical_exit(void)
{
    if (takt_kernel.app_critical == 0) {
        return; /* unbalanced exit: ignored rather than unmasking someone else's section */
    }
    if (--takt_kernel.app_critical == 0) {
        port_critical_exit(takt_kernel.app_critical_key);
    }
}

_Static_assert(sizeof(port_critical_t) <= sizeof(uint32_t), "a port key travels as the uint32_t state");
uint32_t takt_critical_enter_from_isr(void)
{
    return port_critical_enter(); /* the state is the port's key */
}

void takt_critical_exit_from_isr(uint32_t state)
{
    port_critical_exit(state);
}

bool takt_in_isr(void)
{
    return port_in_isr();
}
