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
 * Between kernel operations the derived fields agree with that walk, so the
 * lock and unlock paths skip it where its result is known (priority_raise,
 * serve, priority_drop, hand_over_plainly; asserted where taken).
 */
#include "wait.h"
#include "../../sched/bound.h"

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

/* e raised by what one waiter passes on: its priority, and its deadline if
 * that is earlier. */
static inline void inherit(effective_t *e, const takt_task_t *waiter)
{
    if (waiter->priority > e->priority) {
        e->priority = waiter->priority;
    }
    if (task_has_deadline(waiter)) {
        takt_tick_t d = task_deadline(waiter);
        if (!e->has_deadline || takt_tick_before(d, e->deadline)) {
            e->has_deadline = true;
            e->deadline = d;
        }
    }
}

static effective_t effective_of(const takt_task_t *task)
{
    effective_t e = {task->base_priority, false, 0};
    for (takt_list_node_t *m = task->mutexes_held.next; m != &task->mutexes_held; m = m->next) {
        const takt_mutex_t *mutex = TAKT_CONTAINER_OF(m, takt_mutex_t, held_node);
        const takt_list_t *waiters = &mutex->waiters.tasks;
        for (takt_list_node_t *w = waiters->next; w != waiters; w = w->next) {
            inherit(&e, TAKT_CONTAINER_OF(w, takt_task_t, wait_node));
        }
    }
    return e;
}

/* Inline (as unchanged below): on the lock and unlock paths, where a call
 * would cost more than the compare. */
__attribute__((always_inline)) static inline bool same_effective(const effective_t *a,
                                                                 const effective_t *b)
{
    return a->priority == b->priority && a->has_deadline == b->has_deadline &&
           (!a->has_deadline || a->deadline == b->deadline);
}

/* What task has now: between kernel operations the same as effective_of. */
static inline effective_t current_of(const takt_task_t *task)
{
    return (effective_t){task->priority, task->deadline_inherited, task->inherited_deadline};
}

/* Whether task already has e. */
__attribute__((always_inline)) static inline bool unchanged(const takt_task_t *task,
                                                            const effective_t *e)
{
    effective_t now = current_of(task);
    return same_effective(e, &now);
}

#if TAKT_CONFIG_ASSERTS
/* Whether the full walk over task's mutexes gives e: what every shortcut
 * below relies on, checked wherever one is taken. Unused when the
 * configured assert compiles its condition away (NDEBUG). */
__attribute__((unused)) static bool walk_gives(const takt_task_t *task, const effective_t *e)
{
    effective_t walked = effective_of(task);
    return same_effective(&walked, e);
}

__attribute__((unused)) static bool derived_agrees(const takt_task_t *task)
{
    effective_t now = current_of(task);
    return walk_gives(task, &now);
}
#endif

/* Out of line: apply() is on the hot paths in two copies, and the
 * inherited deadline changes only when deadline jobs wait. */
__attribute__((noinline)) static void set_inherited_deadline(takt_task_t *task, bool has_deadline,
                                                             takt_tick_t deadline)
{
    task->deadline_inherited = has_deadline;
    task->inherited_deadline = has_deadline ? deadline : 0;
    if (has_deadline) {
        trace_record(TAKT_EV_DEADLINE_INHERIT, task, deadline);
    } else {
        trace_record(TAKT_EV_DEADLINE_RESTORE, task, 0);
    }
}

/* Applies a new effective priority; a READY task is re-queued behind its new
 * equals and a running task that drops goes behind them at the next switch
 * (both as FreeRTOS does, under a policy that orders by priority); until then
 * a queued running task stays in front. Under EDF, which orders by deadline,
 * a task keeps its ready order: a new key, the same place among equals.
 * running, queued: the task's state (sched_in_ready_queue), given so that the
 * hot paths' copies fold them (the unlock's for the running task, the lock's
 * for a holder that does not run); hot: the lock's copy, which takes a READY
 * holder out of the queue and (EDF) puts it back with the bound policy's
 * operations inline, where the calls cost more than their bodies
 * (sched_make_ready, a longer body, stays a call). The caller asks for the
 * reschedule. */
__attribute__((always_inline)) static inline void apply_as(takt_task_t *task, effective_t e,
                                                           bool running, bool queued, bool hot)
{
    if (running && e.priority < task->priority && sched_orders_by_priority()) {
        takt_kernel.demoted_current = true; /* read at the requeue and the switch only */
    }
    if (queued && hot) {
        KASSERT(!running);
        sched_policy()->remove(task);
    } else if (queued) {
        sched_make_unready(task);
    }
    if (__builtin_expect(task->priority != e.priority, 1)) { /* what brings us here, mostly */
        trace_record(TAKT_EV_PRIORITY, task, e.priority); /* first: the hook sees the old one */
        task_set_priority_level(task, e.priority);
    }
    if (task->deadline_inherited != e.has_deadline ||
        (e.has_deadline && task->inherited_deadline != e.deadline)) {
        set_inherited_deadline(task, e.has_deadline, e.deadline);
    }
    if (!queued) {
        return;
    }
    if (running) {
        sched_requeue_running(task);
    } else if (sched_orders_by_priority()) {
        sched_make_ready(task); /* behind its new equals, ready now (FreeRTOS) */
    } else if (hot) {
        KASSERT(task->state == TAKT_TASK_READY);
        sched_queue_ready(task, TAKT_READY_NEW); /* sched_requeue_ready's body */
    } else {
        sched_requeue_ready(task); /* EDF: a new key, the same place among equals */
    }
}

/* Out of line: the walk's copy (the hot paths have their own). */
__attribute__((noinline)) static void apply(takt_task_t *task, effective_t e)
{
    apply_as(task, e, task->state == TAKT_TASK_RUNNING, sched_in_ready_queue(task), false);
}

/* A waiter whose effective priority changed moves to its new place among the
 * waiters; if it waits on a mutex, that mutex's holder must be recomputed in
 * turn (returned; NULL when the change goes no further). Out of line: a chain
 * is rare, and the call sites are on the hot paths. */
__attribute__((noinline)) static takt_task_t *waiter_moves(takt_task_t *task)
{
    takt_waitq_t *queue = task->wait_queue;
    if (queue == NULL) {
        return NULL;
    }
    takt_list_remove(&task->wait_node);
    waitq_insert(queue, task);
    if (queue->ops == NULL || queue->ops->waiter_left != waiter_left) {
        return NULL; /* not a mutex's waiters */
    }
    return mutex_of(queue)->holder;
}

/* The next hop after task's effective priority changed, or NULL. */
static inline takt_task_t *pass_on(takt_task_t *task)
{
    return task->state == TAKT_TASK_BLOCKED ? waiter_moves(task) : NULL;
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
        apply(task, e);
        sched_reschedule();
        task = pass_on(task);
    }
}

/* waiter just joined the waiters of a mutex holder holds (takt_mutex_lock).
 * A new waiter can only raise, so the holder's effective priority is what it
 * has (derived from the waiters it had) raised by the new one: no walk over
 * its mutexes. Should the holder wait on a mutex in turn (rare), the full
 * update takes the chain from there. The caller blocked, so the switch is
 * already asked for. */
static void priority_raise(takt_task_t *holder, const takt_task_t *waiter)
{
    effective_t e = current_of(holder);
    inherit(&e, waiter);
    KASSERT(walk_gives(holder, &e));
    if (unchanged(holder, &e)) {
        return;
    }
    /* the caller runs (it just blocked), so the holder does not: apply's
     * copy for a task that is READY or waits, inline */
    KASSERT(holder->state != TAKT_TASK_RUNNING);
    apply_as(holder, e, false, holder->state == TAKT_TASK_READY, true);
    takt_task_t *next = pass_on(holder);
    if (next != NULL) {
        sync_priority_update(next);
    }
}

/* Whether the switch point a task-context call asks for comes at the end of
 * its section with nothing special to do: no request, no scheduler lock, no
 * non-preemptive task (switch_special), and no takt_critical_enter around
 * the call, inside which further calls could change the ready queue before
 * the switch. */
static inline bool switch_follows_plainly(void)
{
    const takt_kernel_t *k = &takt_kernel;
    /* block_word: started, and neither the lock nor takt_critical_enter */
    return k->block_word == TAKT_BLOCK_WORD_FREE && k->switch_special == 0;
}

/* The unlocking task after it handed a mutex over (hand_over: a waiter left
 * the mutex's waiters, which are all it inherited from it). With no mutex
 * left it is back at its base priority with no inherited deadline, no walk
 * needed. The hand-off wakes a task in the same section (serve), which asks
 * for the switch. */
static void priority_drop(takt_task_t *self)
{
    KASSERT(self->state == TAKT_TASK_RUNNING); /* what apply_as is told below */
    if (!takt_list_empty(&self->mutexes_held)) {
        sync_priority_update(self);
        return;
    }
    effective_t base = {self->base_priority, false, 0};
    if (!unchanged(self, &base)) {
        /* it runs: no chain to pass the change on to */
        apply_as(self, base, true, true, false);
    }
}

/* ---- ownership ---- */

/* task holds the mutex, once (depth: the caller's). */
static void own(takt_mutex_t *mutex, takt_task_t *task)
{
    mutex->holder = task;
    takt_list_push_back(&task->mutexes_held, &mutex->held_node);
    trace_record(TAKT_EV_MUTEX_LOCK, task, 1);
}

static void take(takt_mutex_t *mutex, takt_task_t *task)
{
    mutex->depth = 1;
    own(mutex, task);
}

/* The holder lets go: ownership passes to the first waiter, which is
 * returned (NULL: nobody waited). The new holder still waits; serve() ends
 * its wait. Inline in the unlock: its other caller (a deleted holder) is
 * cold, and GCC would otherwise keep one out-of-line copy for both. */
__attribute__((always_inline)) static inline takt_task_t *hand_over(takt_mutex_t *mutex)
{
    takt_list_remove(&mutex->held_node);
    trace_record(TAKT_EV_MUTEX_UNLOCK, mutex->holder, 0);
    if (waitq_empty(&mutex->waiters)) {
        mutex->holder = NULL;
        mutex->depth = 0;
        return NULL;
    }
    takt_task_t *next = waitq_head(&mutex->waiters);
    take(mutex, next);
    return next;
}

/* The new holder leaves the waiters and becomes ready; its own inheritance
 * now includes the waiters that remain. */
__attribute__((always_inline)) static inline void serve(takt_mutex_t *mutex, takt_task_t *next)
{
    sync_end_wait(next, TAKT_OK); /* task context: no preemption test */
    /* What it has already covers every other mutex it holds: only waiters
     * left behind on this one can raise it. */
    if (!waitq_empty(&mutex->waiters)) {
        sync_priority_update(next);
    }
    KASSERT(derived_agrees(next));
}

/* The usual unlock, one that disinherits, under a policy that orders by
 * priority: the running task holds the mutex once (depth 1) and no other
 * mutex, so it drops to its base priority; it inherited a priority but no
 * deadline; one task waits (none is left behind to pass anything on to
 * it), with no timeout armed; and the switch point follows at once
 * (switch_follows_plainly). Then the waiter, whose level the holder had,
 * runs next. Tested before anything changes (unlock_locked tests the
 * context and ownership again for its answer): the hand-off is then done
 * in one stretch (hand_over_plainly). */
__attribute__((always_inline)) static inline bool hands_over_plainly(const takt_mutex_t *mutex)
{
    const takt_kernel_t *k = &takt_kernel;
    const takt_task_t *self = mutex->holder;
    if (!sched_orders_by_priority() || self != k->current || mutex->depth != 1 ||
        !switch_follows_plainly()) {
        return false;
    }
    /* mutexes_held has this mutex's node; a list of one node alone has its
     * next and prev alike */
    if (self->mutexes_held.next != self->mutexes_held.prev ||
        self->priority == self->base_priority || self->deadline_inherited) {
        return false;
    }
    /* An inherited priority from this mutex alone: it has a waiter. */
    const takt_list_t *waiters = &mutex->waiters.tasks;
    const takt_list_node_t *first = waiters->next;
    KASSERT(first != waiters);
    const takt_task_t *next = TAKT_CONTAINER_OF(first, takt_task_t, wait_node);
    return first->next == waiters && !takt_pq_node_queued(&next->wake_timer.node) &&
           sched_hand_over_fits(self);
}

/* hand_over, serve and priority_drop for that case, in their order (the
 * trace's too), with what they would test known. Both lists lose their
 * only node, so they are emptied rather than unlinked from; the depth
 * stays 1. */
__attribute__((always_inline)) static inline void hand_over_plainly(takt_mutex_t *mutex,
                                                                    takt_task_t *self)
{
    takt_task_t *next = waitq_head(&mutex->waiters);
    KASSERT(next->priority == self->priority); /* the one it inherited from */
    takt_list_init(&self->mutexes_held);
    trace_record(TAKT_EV_MUTEX_UNLOCK, self, 0);
    own(mutex, next); /* its wait_result is TAKT_OK already (blocking left it: wait.c) */
    takt_list_init(&mutex->waiters.tasks);
    unsigned base = self->base_priority;
    trace_record(TAKT_EV_PRIORITY, self, base); /* first: the hook sees the old one */
    sched_hand_over(self, next, base);
    KASSERT(derived_agrees(next) && derived_agrees(self));
}

/* A locker resumed after a suspend: the mutex if it is free (nobody waits
 * on a free one: the new holder inherits nothing). If it waits again, the
 * holder inherits from it through waiter_left's full update (not
 * priority_raise: the holder may be the task that resumes it, running). */
TAKT_COLD static bool rejoin(takt_waitq_t *queue, takt_task_t *task)
{
    takt_mutex_t *mutex = mutex_of(queue);
    if (mutex->holder != NULL) {
        return false;
    }
    take(mutex, task);
    return true;
}

/* A locker the mutex was handed to, deleted or suspended before its lock
 * returned: the mutex goes on to the next waiter, or is free (FreeRTOS
 * leaves it free until its woken taker runs); the locker loses what it
 * inherited from the waiters. */
TAKT_COLD static bool locker_gives_back(takt_waitq_t *queue, takt_task_t *task)
{
    takt_mutex_t *mutex = mutex_of(queue);
    KASSERT(mutex->holder == task && mutex->depth == 1);
    takt_task_t *next = hand_over(mutex);
    if (next != NULL) {
        serve(mutex, next);
    }
    sync_priority_update(task);
    return true;
}

TAKT_COLD void sync_task_deleted(takt_task_t *task)
{
    takt_list_node_t *node;
    while ((node = takt_list_first(&task->mutexes_held)) != NULL) {
        takt_mutex_t *mutex = TAKT_CONTAINER_OF(node, takt_mutex_t, held_node);
        takt_task_t *next = hand_over(mutex);
        if (next != NULL) {
            serve(mutex, next);
        }
    }
}

/* A task freed by takt_teardown: the objects that outlive the run (static
 * ones, created again only after a delete) forget it. It leaves the waiters
 * it is listed among and its mutexes are free, without serving anyone or
 * telling the objects (every task goes: a waiter served or a holder
 * recomputed now may be freed memory already). */
TAKT_COLD void sync_task_torn_down(takt_task_t *task)
{
    if (task->state == TAKT_TASK_BLOCKED && task->wait_queue != NULL) {
        takt_list_unlink(&task->wait_node); /* listed (wait.h: sync_unlink_waiter) */
    }
    takt_list_node_t *node;
    while ((node = takt_list_first(&task->mutexes_held)) != NULL) {
        takt_list_remove(node);
        takt_mutex_t *mutex = TAKT_CONTAINER_OF(node, takt_mutex_t, held_node);
        mutex->holder = NULL;
        mutex->depth = 0;
    }
}

/* ---- API ---- */

static void setup(takt_mutex_t *mutex, unsigned flags, uint8_t memory)
{
    static const takt_waitq_ops_t waiters_ops = {.waiter_left = waiter_left,
                                                 .rejoin = rejoin,
                                                 .give_back = locker_gives_back,
                                                 .reason = TAKT_WAIT_MUTEX};
    waitq_init(&mutex->waiters, &waiters_ops);
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

TAKT_COLD int takt_mutex_create(unsigned flags, takt_mutex_t **out)
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
    port_critical_t key = cold_critical_enter();
    setup(mutex, flags, SYNC_F_DYNAMIC);
    cold_critical_exit(key);
    *out = mutex;
    return TAKT_OK;
}

TAKT_COLD int takt_mutex_create_static(takt_mutex_t *mutex, unsigned flags)
{
    if (mutex == NULL) {
        return TAKT_ERR_ARG;
    }
    int err = create_check(flags);
    if (err != TAKT_OK) {
        return err;
    }
    port_critical_t key = cold_critical_enter();
    if (sync_memory_in_use(mutex, sizeof(*mutex))) {
        cold_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    setup(mutex, flags, 0);
    cold_critical_exit(key);
    return TAKT_OK;
}

TAKT_COLD int takt_mutex_delete(takt_mutex_t *mutex)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = cold_critical_enter();
    if (!mutex_valid(mutex)) {
        cold_critical_exit(key);
        return TAKT_ERR_ARG;
    }
    if (mutex->holder != NULL || !waitq_empty(&mutex->waiters)) {
        cold_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    mutex->magic = 0;
    sync_forget_waitqs(&mutex->waiters, NULL);
    bool dynamic = mutex->flags & SYNC_F_DYNAMIC;
    cold_critical_exit(key);
    if (dynamic) {
        sync_free(mutex);
    }
    return TAKT_OK;
}

/* The caller waits for the mutex, its holder inheriting from it; ends the
 * section (the switch away happens there) and returns the wait's result.
 * Out of line, with a frame of its own: the unlock that hands the mutex over
 * switches back into it, and from here the way back to the caller is the
 * shortest (the lock's own frame is left before). The parameters come in
 * the registers the lock has them in. */
__attribute__((noinline)) static int lock_blocks(port_critical_t key, takt_tick_t timeout,
                                                 takt_mutex_t *mutex, takt_task_t *self)
{
    sync_block_prepare(&mutex->waiters, TAKT_WAIT_MUTEX, timeout);
    priority_raise(mutex->holder, self);
    return sync_block_finish(self, key);
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
    } else if (!takt_kernel.started || (self->flags & TAKT_TASK_F_IDLE)) {
        /* No task to own it yet; or the idle task, which cannot inherit a
         * waiter's priority (it runs only when nothing else can). */
        result = TAKT_ERR_CONTEXT;
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
            return lock_blocks(key, timeout, mutex, self);
        }
    }
    port_critical_exit(key);
    return result;
}

/* takt_mutex_unlock inside its section, every case (hands_over_plainly's
 * too); ends the section. Out of line: the usual unlock takes none of it,
 * and is then a leaf with a short frame. */
__attribute__((noinline)) static int unlock_locked(takt_mutex_t *mutex, port_critical_t key)
{
    int result = TAKT_OK;
    if (!mutex_valid(mutex)) {
        result = TAKT_ERR_ARG;
    } else if (!takt_kernel.started || mutex->holder != takt_kernel.current) {
        /* Before start no task holds anything yet (one test on the common path). */
        result = takt_kernel.started ? TAKT_ERR_STATE : TAKT_ERR_CONTEXT;
    } else if (--mutex->depth == 0) {
        takt_task_t *self = mutex->holder;
        takt_task_t *next = hand_over(mutex);
        if (next == NULL) {
            /* A mutex nobody waited on gave its holder nothing to lose. */
            KASSERT(derived_agrees(self));
        } else if (sched_orders_by_priority()) {
            /* The waiter is queued first, then the holder drops behind its
             * new equals, the waiter among them (FreeRTOS's order). */
            serve(mutex, next);
            priority_drop(self);
        } else {
            /* EDF: the queue's order is the keys', whichever goes in first.
             * The holder leaves the inherited deadline first, so the waiter,
             * whose deadline that was, finds the front free: EDF-L's O(1)
             * insertion instead of its walk past the holder. */
            priority_drop(self);
            serve(mutex, next);
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
    if (__builtin_expect(!mutex_valid(mutex) || !hands_over_plainly(mutex), 0)) {
        return unlock_locked(mutex, key);
    }
    hand_over_plainly(mutex, mutex->holder);
    port_critical_exit(key);
    return TAKT_OK;
}

takt_task_t *takt_mutex_holder(const takt_mutex_t *mutex)
{
    port_critical_t key = port_critical_enter();
    takt_task_t *holder = mutex_valid(mutex) ? mutex->holder : NULL;
    port_critical_exit(key);
    return holder;
}
