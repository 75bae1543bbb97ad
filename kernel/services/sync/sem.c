/*
 * Counting and binary semaphores. A give that meets a waiter hands the unit
 * to it (the count stays 0), so the waiter cannot be overtaken.
 */
#include "serve.h"
#include "queue_set_post.h"

static bool sem_valid(const takt_sem_t *sem)
{
    return sem != NULL && sem->magic == SYNC_MAGIC_SEM;
}

static bool rejoin(takt_waitq_t *queue, takt_task_t *task);
static bool taker_gives_back(takt_waitq_t *queue, takt_task_t *task);

static void setup(takt_sem_t *sem, uint32_t max, uint32_t initial, uint8_t memory)
{
    static const takt_waitq_ops_t waiters_ops = {
        .rejoin = rejoin, .give_back = taker_gives_back, .reason = TAKT_WAIT_SEM};
    waitq_init(&sem->waiters, &waiters_ops);
    sem->count = initial;
    sem->max = max;
    sem->flags = memory;
    sem->set = NULL;
    sem->magic = SYNC_MAGIC_SEM;
}

static int create_check(uint32_t max, uint32_t initial)
{
    if (max == 0 || max > (uint32_t)INT32_MAX || initial > max) {
        return TAKT_ERR_ARG;
    }
    return port_in_isr() ? TAKT_ERR_CONTEXT : TAKT_OK;
}

TAKT_COLD int takt_sem_create(uint32_t max, uint32_t initial, takt_sem_t **out)
{
    if (out == NULL) {
        return TAKT_ERR_ARG;
    }
    int err = create_check(max, initial);
    if (err != TAKT_OK) {
        return err;
    }
    takt_sem_t *sem = sync_alloc(sizeof(*sem));
    if (sem == NULL) {
        return TAKT_ERR_NOMEM;
    }
    port_critical_t key = cold_critical_enter();
    setup(sem, max, initial, SYNC_F_DYNAMIC);
    cold_critical_exit(key);
    *out = sem;
    return TAKT_OK;
}

TAKT_COLD int takt_sem_create_static(takt_sem_t *sem, uint32_t max, uint32_t initial)
{
    if (sem == NULL) {
        return TAKT_ERR_ARG;
    }
    int err = create_check(max, initial);
    if (err != TAKT_OK) {
        return err;
    }
    port_critical_t key = cold_critical_enter();
    if (sync_memory_in_use(sem, sizeof(*sem))) {
        cold_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    setup(sem, max, initial, 0);
    cold_critical_exit(key);
    return TAKT_OK;
}

TAKT_COLD int takt_sem_delete(takt_sem_t *sem)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = cold_critical_enter();
    if (!sem_valid(sem)) {
        cold_critical_exit(key);
        return TAKT_ERR_ARG;
    }
    if (!waitq_empty(&sem->waiters) || member_set(sem) != NULL) {
        cold_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    sem->magic = 0;
    sync_forget_waitqs(&sem->waiters, NULL);
    bool dynamic = sem->flags & SYNC_F_DYNAMIC;
    cold_critical_exit(key);
    if (dynamic) {
        sync_free(sem);
    }
    return TAKT_OK;
}

/* Assumptions (both): lock held, handle valid. */
static int take_locked(takt_sem_t *sem)
{
    if (sem->count == 0) {
        return TAKT_ERR_TIMEOUT;
    }
    sem->count--;
    return TAKT_OK;
}

/* A taker resumed after a suspend: a unit if there is one. */
TAKT_COLD static bool rejoin(takt_waitq_t *queue, takt_task_t *task)
{
    (void)task;
    return take_locked(TAKT_CONTAINER_OF(queue, takt_sem_t, waiters)) == TAKT_OK;
}

/* Inline in both gives: the task's (in_task, woken NULL) serves its waiter
 * inline (sync/serve.h), the interrupt's reports whether it preempts. The
 * serve is laid out as the fall-through (expected): it is the long path,
 * and GCC otherwise put the list insert after the lock's exit and branched
 * back to it. */
__attribute__((always_inline)) static inline int give_locked(takt_sem_t *sem, bool *woken,
                                                             bool in_task)
{
    if (__builtin_expect(!waitq_empty(&sem->waiters), 1)) {
        takt_task_t *waiter = waitq_head(&sem->waiters);
        if (in_task) {
            sync_serve_listed(waiter);
        } else {
            sync_wake_reporting(waiter, TAKT_OK, woken);
        }
        return TAKT_OK;
    }
    if (sem->count == sem->max) {
        return TAKT_ERR_STATE;
    }
    sem->count++;
    if (member_set(sem) != NULL) {
        queue_set_post(member_set(sem), sem, woken);
    }
    return TAKT_OK;
}

/* A taker deleted or suspended before its take returned: its unit is given
 * again (to the next taker, or to the count). At the maximum the count
 * stays there: a give made while the unit was the taker's took its place,
 * and the count is what FreeRTOS's would be, whose give would have failed
 * instead. */
TAKT_COLD static bool taker_gives_back(takt_waitq_t *queue, takt_task_t *task)
{
    (void)task;
    /* The wake's call (not the task give's inline serve): small, and the
     * switch it asks for comes at the delete's end all the same. */
    bool preempts = false;
    (void)give_locked(TAKT_CONTAINER_OF(queue, takt_sem_t, waiters), &preempts, false);
    return true;
}

int takt_sem_take(takt_sem_t *sem, takt_tick_t timeout)
{
    int err = sync_task_call_check(timeout);
    if (err != TAKT_OK) {
        return err;
    }
    port_critical_t key = port_critical_enter();
    int result = sem_valid(sem) ? take_locked(sem) : TAKT_ERR_ARG;
    if (result == TAKT_ERR_TIMEOUT) {
        result = sync_may_block(timeout);
        if (result == TAKT_OK) {
            return sync_block(&sem->waiters, TAKT_WAIT_SEM, timeout, key);
        }
    }
    port_critical_exit(key);
    return result;
}

int takt_sem_give(takt_sem_t *sem)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = port_critical_enter();
    int result = sem_valid(sem) ? give_locked(sem, NULL, true) : TAKT_ERR_ARG;
    port_critical_exit(key);
    return result;
}

int takt_sem_take_from_isr(takt_sem_t *sem, bool *woken)
{
    (void)woken; /* a take frees nothing anyone can wait for */
    if (!port_in_isr()) {
        return takt_sem_take(sem, 0); /* takt/sync.h: a task's call, no wait */
    }
    port_critical_t key = port_critical_enter();
    int result = sem_valid(sem) ? take_locked(sem) : TAKT_ERR_ARG;
    port_critical_exit(key);
    return result;
}

/* takt_sem_give_from_isr_flag's give to a waiter (or into a set), to the
 * section's end: out of line and a tail call, so the count's path keeps no
 * frame. */
__attribute__((noinline)) static int give_served_from_isr(takt_sem_t *sem, long *woken,
                                                          port_critical_t key)
{
    bool preempts = false;
    int result = give_locked(sem, &preempts, false);
    if (preempts && woken != NULL) {
        *woken = 1;
    }
    port_critical_exit_from_isr(key);
    return result;
}

/* The interrupt's give with the flag FreeRTOS keeps (a long), so the
 * FreeRTOS layer's xSemaphoreGiveFromISR is this call and its result's
 * conversion. The give with no waiter (the count goes up: an interrupt that
 * signals a task still running) is what the throughput of interrupt
 * handling measures, so it makes no call. */
/* takt_sem_give_from_isr_flag called from a task (takt/sync.h): the task's
 * give. Cold and out of line, so that GCC lays the interrupt's give out as
 * it did when the call was refused (the counted give keeps its own exit). */
TAKT_COLD __attribute__((noinline)) static int give_from_task(takt_sem_t *sem)
{
    return takt_sem_give(sem);
}

int takt_sem_give_from_isr_flag(takt_sem_t *sem, long *woken)
{
    if (!port_in_isr()) {
        return give_from_task(sem);
    }
    port_critical_t key = port_critical_enter();
    int result = TAKT_ERR_ARG;
    if (sem_valid(sem)) {
        if (!waitq_empty(&sem->waiters) || member_set(sem) != NULL) {
            return give_served_from_isr(sem, woken, key);
        }
        result = sem->count == sem->max ? TAKT_ERR_STATE : TAKT_OK;
        sem->count += result == TAKT_OK;
    }
    port_critical_exit_from_isr(key);
    return result;
}

int takt_sem_give_from_isr(takt_sem_t *sem, bool *woken)
{
    long flag = 0;
    int result = takt_sem_give_from_isr_flag(sem, &flag);
    if (flag != 0 && woken != NULL) {
        *woken = true;
    }
    return result;
}

int takt_sem_count(const takt_sem_t *sem)
{
    port_critical_t key = port_critical_enter();
    int result = sem_valid(sem) ? (int)sem->count : TAKT_ERR_ARG;
    port_critical_exit(key);
    return result;
}
