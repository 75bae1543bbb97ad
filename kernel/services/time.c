/*
 * Time: the tick, delays, and the timer queue that holds every timed event
 * (delay ends, job releases, deadline checks). The timer queue is a priority
 * queue keyed by tick, bound at compile time to the configured backend.
 */
#include "../internal.h"
#include "../sched/bound.h"

#if TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_LIST
#define timerq_insert takt_pq_list_insert
#define timerq_remove takt_pq_list_remove
#define timerq_peek takt_pq_list_peek
#define timerq_pop takt_pq_list_pop
#elif TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_HEAP
#define timerq_insert takt_pq_heap_insert
#define timerq_remove takt_pq_heap_remove
#define timerq_peek takt_pq_heap_peek
#define timerq_pop takt_pq_heap_pop
/* Every task owns TIMERS_PER_TASK timers and every server one, each queued at most once. */
#define TIMERS_PER_TASK 3u
#define TIMER_SLOTS (TIMERS_PER_TASK * TAKT_CONFIG_MAX_TASKS + TAKT_CONFIG_MAX_SERVERS)
static takt_pq_node_t *timer_slots[TIMER_SLOTS];
#elif TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_RBTREE
#define timerq_insert takt_pq_rbtree_insert
#define timerq_remove takt_pq_rbtree_remove
#define timerq_peek takt_pq_rbtree_peek
#define timerq_pop takt_pq_rbtree_pop
#endif

TAKT_COLD void timers_init(void)
{
#if TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_LIST
    takt_pq_list_init(&takt_kernel.timers);
#elif TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_HEAP
    takt_pq_heap_init(&takt_kernel.timers, timer_slots, TIMER_SLOTS);
#else
    takt_pq_rbtree_init(&takt_kernel.timers);
#endif
}

/* The queue's tie orders timers due at the same tick: early ones first (by
 * their order), the ordinary ones after them and among themselves as before
 * (they all share one tie). */
#define TIMER_TIE_ORDINARY UINT64_MAX

void timer_init(takt_timer_t *timer, void (*expire)(takt_timer_t *timer))
{
    takt_pq_node_init(&timer->node);
    timer->node.tie = TIMER_TIE_ORDINARY;
    timer->expire = expire;
}

void timer_init_early(takt_timer_t *timer, void (*expire)(takt_timer_t *timer), uint32_t order)
{
    timer_init(timer, expire);
    timer->node.tie = order;
}

/* Queues a timer that is not queued. */
static inline void timer_queue(takt_timer_t *timer, takt_tick_t when)
{
    timer->node.key = when;
    bool queued = timerq_insert(&takt_kernel.timers, &timer->node);
    KASSERT(queued); /* the heap holds every timer of TAKT_CONFIG_MAX_TASKS tasks */
    (void)queued;
}

void timer_arm(takt_timer_t *timer, takt_tick_t when)
{
    timer_cancel(timer);
    timer_queue(timer, when);
}

void timer_dequeue(takt_timer_t *timer)
{
    timerq_remove(&takt_kernel.timers, &timer->node);
}

/* Whether the timer queue's head is due: the tick's one question when
 * nothing happens, so it costs a load and a compare. */
static inline bool timer_due(void)
{
    const takt_pq_node_t *node = timerq_peek(&takt_kernel.timers);
    return node != NULL && !takt_tick_before(takt_kernel.ticks, node->key);
}

/* Expires the head and every timer due after it; the head is due. Inline in
 * the tick's events, which know that already. */
static inline void expire_while_due(void)
{
    do {
        takt_timer_t *timer = TAKT_CONTAINER_OF(timerq_pop(&takt_kernel.timers), takt_timer_t, node);
        timer->expire(timer);
    } while (timer_due());
}

void timers_expire_due(void)
{
    if (timer_due()) {
        expire_while_due();
    }
}

takt_tick_t takt_tick_count(void)
{
    return takt_kernel.ticks;
}

/* The round-robin slice of the running task ends at every tick while a task
 * of its priority waits (a running task that just blocked, with its switch
 * still pending, has no slice: it left the ready queue, so has_equal's answer
 * for it means nothing, and the state test rules it out). Pends a switch;
 * records nothing. */
static inline void slice_end(takt_kernel_t *k)
{
#if TAKT_CONFIG_ROUND_ROBIN
    if (k->round_robin && sched_policy()->has_equal(k->current) &&
        k->current->state == TAKT_TASK_RUNNING) {
        k->rotate_current = true;
        sched_reschedule();
    }
#else
    (void)k;
#endif
}

/* What a tick does beyond counting, inside the tick's instant; due: whether
 * the timer queue's head is due, when the policy has no tick (with one, it is
 * asked after it: the policy's tick may change the queue). */
static inline void tick_events(takt_kernel_t *k, bool due)
{
    port_tick_events_begin();
    if (sched_policy()->tick != NULL) {
        sched_policy()->tick(); /* budget accounting for the tick that ended: before any timer */
        due = timer_due();
    }
    if (due) {
        expire_while_due();
    }
    slice_end(k);
#if TAKT_CONFIG_TICK_HOOK
    takt_tick_hook();
#endif
    port_tick_events_end();
}

/* Out of line for the counting tick, which then saves no registers. */
__attribute__((noinline)) static void tick_events_called(takt_kernel_t *k, bool due)
{
    tick_events(k, due);
}

void takt_tick_from_isr(void)
{
    takt_kernel_t *k = &takt_kernel;
    k->ticks++;
    if (sched_policy()->tick != NULL) {
        tick_events(k, false); /* every tick has events: inline */
        return;
    }
    /* The common tick only counts: no policy tick, no hook, no timer due. It
     * may end a slice, which is no event, so the tick's instant is not opened. */
    bool due = timer_due();
    if (!due && !TAKT_CONFIG_TICK_HOOK) {
        slice_end(k);
        return;
    }
    tick_events_called(k, due);
    /* Every release, wake and depletion above asked for its own switch point; a
     * tick that changed nothing asks for none (on Cortex-M: no PendSV). */
}

/* Ends an object wait as timed out (it leaves the object's waiters:
 * TAKT_ERR_TIMEOUT). Out of line: a delay's end saves no registers for it. */
__attribute__((noinline)) static void end_object_wait(takt_task_t *task)
{
    sync_wait_timed_out(task);
    task_wake(task, (takt_wait_t)task->wait);
}

/* Ends a delay, or an object wait as timed out. The wake timer is no longer queued. */
static inline void end_wait(takt_task_t *task)
{
    if (task->wait == TAKT_WAIT_DELAY) {
        task_wake(task, TAKT_WAIT_DELAY);
    } else {
        end_object_wait(task);
    }
}

static void delay_expired(takt_timer_t *timer)
{
    end_wait(TAKT_CONTAINER_OF(timer, takt_task_t, wake_timer));
}

TAKT_COLD void time_task_init(takt_task_t *task)
{
    timer_init(&task->wake_timer, delay_expired);
}

static int delay_checks(void)
{
    return task_may_block_now() ? TAKT_OK : TAKT_ERR_CONTEXT;
}

static inline __attribute__((always_inline)) void block_until(takt_tick_t wake)
{
    takt_task_t *self = takt_kernel.current;
    /* A running task's wake timer is not queued: every way out of a wait
     * (expiry, wake, abort, suspend, delete) takes it out. */
    KASSERT(!takt_pq_node_queued(&self->wake_timer.node));
    timer_queue(&self->wake_timer, wake);
    sched_block_current(TAKT_WAIT_DELAY);
}

int takt_delay(takt_tick_t ticks)
{
    int err = delay_checks();
    if (err != TAKT_OK) {
        return err;
    }
    /* One test on the common path: 0 yields, 2^31 and more are no delay
     * (timer keys compare within half the tick range). */
    if ((int32_t)ticks <= 0) {
        if (ticks != 0) {
            return TAKT_ERR_ARG;
        }
        takt_yield();
        return TAKT_OK;
    }
    port_critical_t key = port_critical_enter();
    block_until(takt_kernel.ticks + ticks);
    port_critical_exit(key);
    return TAKT_OK;
}

int takt_task_abort_delay(takt_task_t *task)
{
    if (!task_handle_valid(task)) {
        return TAKT_ERR_ARG;
    }
    int result = TAKT_ERR_STATE;
    port_critical_t key = port_critical_enter();
    /* A delay or an object wait; not a periodic task waiting for its release. */
    if (task->state == TAKT_TASK_BLOCKED &&
        (task->wait == TAKT_WAIT_DELAY || task->wait >= TAKT_WAIT_SEM)) {
        timer_cancel(&task->wake_timer);
        end_wait(task);
        result = TAKT_OK;
    }
    port_critical_exit(key);
    return result;
}

int takt_delay_until(takt_tick_t *previous_wake, takt_tick_t increment)
{
    if (previous_wake == NULL || (int32_t)increment <= 0) {
        return TAKT_ERR_ARG; /* 0, or 2^31 and more (as takt_delay) */
    }
    int err = delay_checks();
    if (err != TAKT_OK) {
        return err;
    }
    port_critical_t key = port_critical_enter();
    takt_tick_t wake = *previous_wake + increment;
    *previous_wake = wake;
    bool delayed = takt_tick_before(takt_kernel.ticks, wake);
    if (delayed) {
        block_until(wake);
    }
    port_critical_exit(key);
    return delayed ? 1 : 0;
}
