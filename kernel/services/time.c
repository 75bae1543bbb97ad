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
#elif TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_RBTREE
#define timerq_insert takt_pq_rbtree_insert
#define timerq_remove takt_pq_rbtree_remove
#define timerq_peek takt_pq_rbtree_peek
#define timerq_pop takt_pq_rbtree_pop
#elif TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_HW
#ifndef TAKT_PORT_HWPQ_UNITS
#error "takt_config.h: TAKT_PQ_HW needs a port with the hardware priority queue (the sim)"
#endif
#define timerq_insert takt_pq_hw_insert
#define timerq_remove takt_pq_hw_remove
#define timerq_peek takt_pq_hw_peek
#define timerq_pop takt_pq_hw_pop
#endif

#if TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_HEAP || TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_HW
/* The heap's slots, the hardware queue's handles: one for every timer there
 * can be. Every task owns TIMERS_PER_TASK timers and every server one, each
 * queued at most once. */
#define TIMERS_PER_TASK 3u
#define TIMER_SLOTS (TIMERS_PER_TASK * TAKT_CONFIG_MAX_TASKS + TAKT_CONFIG_MAX_SERVERS)
static takt_pq_node_t *timer_slots[TIMER_SLOTS];
#endif

TAKT_COLD void timers_init(void)
{
#if TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_LIST
    takt_pq_list_init(&takt_kernel.timers);
#elif TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_HEAP
    takt_pq_heap_init(&takt_kernel.timers, timer_slots, TIMER_SLOTS);
#elif TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_HW
    bool present = takt_pq_hw_init(&takt_kernel.timers, TAKT_PQ_HW_TIMER_UNIT, timer_slots, TIMER_SLOTS);
    KASSERT(present); /* takt_init asked timers_fit */
    (void)present;
#else
    takt_pq_rbtree_init(&takt_kernel.timers);
#endif
}

TAKT_COLD bool timers_fit(void)
{
#if TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_HW
    return takt_pq_hw_depth(TAKT_PQ_HW_TIMER_UNIT) >= TIMER_SLOTS;
#else
    return true; /* software queues hold every timer there can be */
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
    timer->ends_wait = false;
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

/* The timer queue's head, or NULL (the heap's count says whether it has
 * one: its slot 0 may hold a stale node). */
static inline takt_pq_node_t *timer_head(void)
{
#if TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_HEAP
    if (takt_kernel.timers.count == 0) {
        return NULL;
    }
    takt_pq_node_t *root = takt_kernel.timers.impl.heap.slots[0];
    if (root == NULL) {
        __builtin_unreachable(); /* a heap with a count has a root: the tick tests none */
    }
    return root;
#else
    return timerq_peek(&takt_kernel.timers);
#endif
}

/* The timer queue's head if it is due, else NULL: the tick's one question
 * when nothing happens, so it costs a few loads and a compare. */
static inline takt_pq_node_t *timer_due_head(void)
{
    takt_pq_node_t *node = timer_head();
    if (node == NULL) {
        return NULL;
    }
    return takt_tick_before(takt_kernel.ticks, node->key) ? NULL : node;
}

#if TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_HEAP
/* Out of line with the queue's address inside: the tick's loop then keeps
 * no register for it. */
__attribute__((noinline)) static void timers_refill_root(void)
{
    takt_pq_heap_refill_root(&takt_kernel.timers);
}
#endif

/* The due head leaves the queue; returns it (the other queues' pop returns
 * it in the register the expiry's call wants). The heap's pop, inline: the
 * head is its root, and a heap it leaves empty (a tick that ends one delay)
 * needs no sift. */
static inline takt_pq_node_t *timer_pop_head(takt_pq_node_t *head)
{
#if TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_HEAP
    takt_pq_t *timers = &takt_kernel.timers;
    uint32_t count = timers->count - 1u;
    timers->count = count;
    head->queued = false;
    if (count != 0) {
        timers_refill_root();
    }
    return head;
#else
    takt_pq_node_t *popped = timerq_pop(&takt_kernel.timers);
    KASSERT(popped == head);
    (void)head;
    return popped;
#endif
}

/* Expires head, the queue's due head, and every timer due after it, each
 * through its function. */
__attribute__((always_inline)) static inline void expire_each(takt_pq_node_t *head)
{
    while (head != NULL) {
        takt_timer_t *timer = TAKT_CONTAINER_OF(timer_pop_head(head), takt_timer_t, node);
        timer->expire(timer);
        head = timer_due_head();
    }
}

static inline void end_wait_in_tick(takt_task_t *task, takt_stamp_t instant);

/* The tick's events when the policy has no tick: they begin here, with head,
 * the queue's due head. That is what most ticks that do anything expire, a
 * delay's end: done here, without the call through the timer
 * (end_wait_in_tick), at the tick's instant, which the events begin with.
 * Other timers, and those due after the first, expire through their
 * functions, and their wakes take the instant as they always did (so a
 * tick whose timers make no task ready takes none). */
__attribute__((always_inline)) static inline void begin_with_expiries(takt_pq_node_t *head)
{
    takt_timer_t *timer = TAKT_CONTAINER_OF(head, takt_timer_t, node);
    if (timer->ends_wait) {
        takt_stamp_t instant = port_tick_events_begin_instant();
        timer_pop_head(head);
        end_wait_in_tick(TAKT_CONTAINER_OF(timer, takt_task_t, wake_timer), instant);
        head = timer_due_head();
    } else {
        port_tick_events_begin();
    }
    expire_each(head);
}

/* Outside the tick (the start's instant): every timer through its expiry. */
void timers_expire_due(void)
{
    expire_each(timer_due_head());
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

/* What a tick does beyond counting, inside the tick's instant; due: the
 * timer queue's head if it is due, when the policy has no tick (with one, it
 * is asked after it: the policy's tick may change the queue). With a policy
 * tick (hsf) every timer expires through its function: a server's
 * replenishment, which makes no task ready, then pays no test for a delay. */
static inline void tick_events(takt_kernel_t *k, takt_pq_node_t *due)
{
    if (sched_policy()->tick != NULL) {
        port_tick_events_begin();
        sched_policy()->tick(); /* budget accounting for the tick that ended: before any timer */
        expire_each(timer_due_head());
    } else if (!TAKT_CONFIG_TICK_HOOK || due != NULL) {
        begin_with_expiries(due); /* without the hook, only a due timer brings the tick here */
    } else {
        port_tick_events_begin();
    }
    slice_end(k);
#if TAKT_CONFIG_TICK_HOOK
    takt_tick_hook();
#endif
    port_tick_events_end();
}

/* Out of line for the counting tick, which then saves no registers. */
__attribute__((noinline)) static void tick_events_called(takt_kernel_t *k, takt_pq_node_t *due)
{
    tick_events(k, due);
}

void takt_tick_from_isr(void)
{
    takt_kernel_t *k = &takt_kernel;
#if TAKT_CONFIG_TRACE_HOOK
    takt_trace_hook(TAKT_EV_TICK, NULL, TAKT_TRACE_NO_TASK, (uint32_t)k->ticks);
#endif
    k->ticks++;
    if (sched_policy()->tick != NULL) {
        tick_events(k, NULL); /* every tick has events: inline */
        return;
    }
    /* The common tick only counts: no policy tick, no hook, no timer due. It
     * may end a slice, which is no event, so the tick's instant is not opened. */
    takt_pq_node_t *due = timer_due_head();
    if (due == NULL && !TAKT_CONFIG_TICK_HOOK) {
        slice_end(k);
        return;
    }
    tick_events_called(k, due);
    /* Every release, wake and depletion above asked for its own switch point; a
     * tick that changed nothing asks for none (on Cortex-M: no PendSV). */
}

TAKT_COLD int takt_tick_catch_up(uint32_t ticks, bool *switched)
{
    if (switched != NULL) {
        *switched = false;
    }
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    takt_kernel_t *k = &takt_kernel;
    if (!k->started || k->sched_lock != 0) {
        return TAKT_ERR_STATE;
    }
    if (k->app_critical != 0) {
        return TAKT_ERR_CONTEXT; /* the switch they call for could not happen */
    }
    if (ticks > INT32_MAX) {
        return TAKT_ERR_ARG; /* timer keys are compared within half the tick range */
    }
    uint32_t switches = k->context_switches;
    port_critical_t key = port_critical_enter();
    for (uint32_t i = 0; i < ticks; i++) {
        takt_tick_from_isr();
    }
    port_critical_exit(key);
    if (switched != NULL) {
        *switched = k->context_switches != switches;
    }
    return TAKT_OK;
}

#if TAKT_CONFIG_TICKLESS_IDLE
takt_tick_t takt_tickless_idle_ticks(void)
{
    takt_kernel_t *k = &takt_kernel;
    const takt_policy_t *policy = sched_policy();
    /* The idle task alone: it runs (a switch away is not pending), nothing is
     * queued before it, and it has no equal to yield to. */
    if (!k->started || port_in_isr() || k->current != k->idle || policy->tick != NULL ||
        policy->peek() != k->idle || policy->has_equal(k->idle)) {
        return 0;
    }
    takt_pq_node_t *head = timer_head();
    if (head == NULL) {
        return TAKT_IDLE_TICKS_UNBOUNDED;
    }
    /* Overdue (its tick ran with the timer not yet queued) counts as now. */
    int32_t ahead = (int32_t)(head->key - k->ticks);
    return ahead < (int32_t)TAKT_CONFIG_TICKLESS_MIN_TICKS ? 0 : (takt_tick_t)ahead;
}

takt_tick_t takt_tickless_sleep_ticks(takt_tick_t most)
{
    takt_tick_t ticks = takt_tickless_idle_ticks();
    if (ticks > most) {
        ticks = most;
    }
#if TAKT_CONFIG_SLEEP_HOOKS
    if (ticks >= TAKT_CONFIG_TICKLESS_MIN_TICKS) {
        ticks = takt_sleep_plan(ticks);
    }
#endif
    return ticks < TAKT_CONFIG_TICKLESS_MIN_TICKS ? 0 : ticks;
}

int takt_tick_step(takt_tick_t ticks)
{
    takt_kernel_t *k = &takt_kernel;
    if (!k->started || sched_policy()->tick != NULL) {
        return TAKT_ERR_STATE; /* hsf: every tick spends budget */
    }
    if (ticks > INT32_MAX) {
        return TAKT_ERR_ARG;
    }
    if (ticks == 0) {
        return TAKT_OK;
    }
    int result = TAKT_OK;
    port_critical_t key = port_critical_enter();
    takt_pq_node_t *head = timer_head();
    if (head != NULL && !takt_tick_before(k->ticks + ticks, head->key)) {
        result = TAKT_ERR_ARG; /* the step would pass over the timer's events */
    } else {
        k->ticks += ticks;
    }
    port_critical_exit(key);
    return result;
}
#endif

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

/* delay_expired's end_wait in the tick's events: a delay's end inline, at
 * the tick's instant (sched_wake_inline_at, the steps of task_wake). An
 * object wait's timeout takes the usual way (the instant is the same). */
__attribute__((always_inline)) static inline void end_wait_in_tick(takt_task_t *task,
                                                                   takt_stamp_t instant)
{
    if (task->wait == TAKT_WAIT_DELAY) {
        sched_wake_inline_at(task, TAKT_WAIT_DELAY, instant);
    } else {
        end_object_wait(task);
    }
}

TAKT_COLD void time_task_init(takt_task_t *task)
{
    timer_init(&task->wake_timer, delay_expired);
    task->wake_timer.ends_wait = true; /* the tick ends it as delay_expired does */
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

/* takt_delay(0). Out of line and tail-called: a delay then returns through
 * its own epilogue, not a branch to the yield's (the one that ends the
 * tick's wake). */
__attribute__((noinline)) static int delay_yields(void)
{
    takt_yield();
    return TAKT_OK;
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
        return delay_yields();
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
