/*
 * The scheduler core: the one place that decides who runs. Kernel operations
 * change task states and ready queues, then call sched_reschedule(); the port
 * calls takt_sched_switch_point() where switching is allowed, and this file
 * alone picks the next task (through the policy) and applies the preemption mode.
 */
#include "bound.h"

volatile uint8_t takt_yield_hint;

__attribute__((always_inline)) static inline bool may_preempt(const takt_task_t *running)
{
    return !(running->flags & TAKT_TASK_F_NONPREEMPTIVE) || takt_kernel.at_preemption_point ||
           (running->flags & TAKT_TASK_F_IDLE);
}

/* A job that would preempt a task running a non-preemptive subjob tells
 * that task at once (takt_should_yield), the switch waits for its next
 * point. Out of line: only runs with a non-preemptive task get here
 * (sched_queue_ready). */
TAKT_COLD __attribute__((noinline)) void sched_tell_nonpreemptive(const takt_task_t *task)
{
    const takt_kernel_t *k = &takt_kernel;
    const takt_task_t *running = k->current;
    if (running != NULL && (running->flags & TAKT_TASK_F_NONPREEMPTIVE) && k->started &&
        running->state == TAKT_TASK_RUNNING && !may_preempt(running) &&
        sched_policy()->preempts(task, running)) {
        takt_yield_hint = 1;
    }
}

/* Out of line: one copy, which sched_make_ready and task_wake's tail call
 * share (GCC would otherwise inline it into both in some builds). */
__attribute__((noinline)) static void make_ready(takt_task_t *task, takt_ready_how_t how)
{
    sched_stamp_ready(task, port_instant(), false);
    sched_queue_ready(task, how);
}

void sched_make_ready(takt_task_t *task)
{
    make_ready(task, TAKT_READY_NEW);
}

/* Here, with make_ready, not in task.c: every wake path ends in it. The
 * switch is asked for before the task is queued, so the queuing is a tail
 * call and make_ready has one copy: every caller holds the kernel lock (a
 * critical section, or an interrupt with the kernel's), so the switch point
 * runs only once the lock is left, and finds the task queued. */
void task_wake(takt_task_t *task, takt_wait_t wait)
{
    trace_record(TAKT_EV_WAKE, task, wait);
    sched_reschedule_locked();
    make_ready(task, TAKT_READY_NEW);
}

/* The running task goes behind its equals at the switch point (a yield, a
 * slice's end, a demotion): it becomes ready again now, and the policy moves
 * it in its queue. It never preempts the task that runs (itself), so no hint
 * to give. Inline: a call's frame is a tenth of a yield. */
__attribute__((always_inline)) static inline void behind_equals(takt_task_t *running)
{
    sched_stamp_ready(running, port_switch_instant(), true);
    sched_policy()->move_behind_equals(running);
}

/* Its key changed while it waited to run (an inherited deadline under
 * EDF); it did not become ready anew, so it keeps its ready order: among
 * equal keys, its place (SCHEDULING.md: a preempted job keeps its place). */
void sched_requeue_ready(takt_task_t *task)
{
    KASSERT(task->state == TAKT_TASK_READY);
    sched_queue_ready(task, TAKT_READY_NEW);
}

void sched_make_unready(takt_task_t *task)
{
    KASSERT(sched_in_ready_queue(task));
    sched_policy()->remove(task);
}

void sched_requeue_running(takt_task_t *task)
{
    KASSERT(task->state == TAKT_TASK_RUNNING);
    /* A demoted task goes behind its new equals when it may be preempted
     * (FreeRTOS); pick refreshes its order if one is there. */
    bool behind = takt_kernel.demoted_current && may_preempt(task);
    sched_policy()->insert(task, behind ? TAKT_READY_YIELD : TAKT_READY_PREEMPTED);
}

/* The demotion done at once, for a switch point that follows with nothing
 * else to do: the task goes where sched_requeue_running puts a demoted task
 * that may be preempted (behind its new equals). With an equal there, the
 * switch point still refreshes its place and ready order (demoted_current,
 * as after a yield); alone at its level it has no one to go behind, and the
 * plain switch point does what the request's path would, so no request. */
void sched_demote_running(takt_task_t *task, unsigned priority)
{
    KASSERT(task->state == TAKT_TASK_RUNNING && priority < task->priority);
    KASSERT(takt_kernel.switch_special == 0);
    const takt_policy_t *policy = sched_policy();
    policy->remove(task);
    task_set_priority_level(task, priority);
    policy->insert(task, TAKT_READY_YIELD);
    if (policy->has_equal(task)) {
        takt_kernel.demoted_current = true;
    }
}

/* Whether the running task goes behind its equals at this switch point: it
 * yielded (which refreshes its place even with no equal to go behind:
 * SCHEDULING.md, it became ready again, now), its round-robin slice expired,
 * or (FreeRTOS) its priority was lowered; the last two only where it may be
 * preempted. A slice that ends inside a non-preemptive subjob is honoured at
 * the task's next preemption point, as a waiting higher-priority job is: the
 * kernel keeps the rotation for this run (rotate_at_point) and the yield hint
 * says that point has something to do. Only runs with a non-preemptive task
 * get that far: may_preempt is true for every other. */
static inline bool behind_equals_now(const takt_task_t *cur)
{
    takt_kernel_t *k = &takt_kernel;
    if (k->yield_current) {
        return true;
    }
    bool rotate = k->rotate_current ||
                  (k->rotate_at_point == cur && k->rotate_at_point_run == k->context_switches);
    if (!(rotate || k->demoted_current) || !sched_policy()->has_equal(cur)) {
        return false;
    }
    if (may_preempt(cur)) {
        return true;
    }
    if (rotate) {
        k->rotate_at_point = cur;
        k->rotate_at_point_run = k->context_switches;
        takt_yield_hint = 1;
    }
    return false;
}

/* Who runs from this switch point: the running task stays unless it stopped
 * being runnable, yielded, a higher-priority task may preempt it, or its
 * round-robin slice expired with equals waiting (requests: some switch request
 * is set). It stays queued while it runs (sched/policy.h). Under fp it is at
 * the front of its level (it was the head when picked, tasks of its level that
 * become ready go behind it, and a priority change puts it in front of its new
 * equals, or behind them when it was demoted and may be preempted:
 * sched_requeue_running), so the head is either it, a task that preempts it,
 * or an equal in front of a demoted task. A keyed queue (EDF) may have an
 * equal in front of it that must not preempt it: the policy's head_preempts
 * says. Returns the next task, still in the queue (cur too, if it stays). */
static takt_task_t *pick(takt_task_t *cur, bool requests)
{
    const takt_policy_t *policy = sched_policy();
    if (cur->state != TAKT_TASK_RUNNING) {
        return policy->peek();
    }
    if (__builtin_expect(requests, 0) && behind_equals_now(cur)) {
        behind_equals(cur);
        return policy->peek();
    }
    takt_task_t *head = policy->peek();
    if (head == cur) {
        return cur;
    }
    if (policy->head_preempts != NULL && !policy->head_preempts(head, cur)) {
        return cur;
    }
    if (!may_preempt(cur)) {
        takt_yield_hint = 1;
        return cur;
    }
    cur->state = TAKT_TASK_READY;
    trace_record(TAKT_EV_PREEMPT, cur, task_current_job(cur));
    return head;
}

/* next runs from this switch point on (cur, if it stays). */
static takt_task_t *dispatch(takt_task_t *cur, takt_task_t *next)
{
    takt_kernel_t *k = &takt_kernel;
    next->state = TAKT_TASK_RUNNING;
    if (sched_policy()->dispatching != NULL) {
        sched_policy()->dispatching(next);
    }
    if (next != cur) {
        k->context_switches++;
#if TAKT_CONFIG_RUN_TIME_STATS
        sched_charge_run_time(cur);
#endif
        if (TAKT_CONFIG_STACK_CHECK && cur->state != TAKT_TASK_DELETED) {
            task_stack_check(cur);
        }
        trace_record(TAKT_EV_DISPATCH, next, task_current_job(next));
        k->current = next;
    }
    return next;
}

/* The running task goes on from this switch point. */
static takt_task_t *stays_running(takt_task_t *cur)
{
    if (sched_policy()->dispatching != NULL) {
        sched_policy()->dispatching(cur);
    }
    return cur;
}

/* A switch point with something special to do (switch_special): a request,
 * the scheduler lock, or non-preemptive tasks in the run. */
__attribute__((always_inline)) static inline takt_task_t *special_switch_point(takt_task_t *cur)
{
    takt_kernel_t *k = &takt_kernel;
    if (k->sched_lock != 0 && cur->state == TAKT_TASK_RUNNING) {
        return cur; /* takt_sched_unlock asks again; the requests wait for it */
    }
    /* Most switch points have no request: one test skips them all. */
    bool requests = k->switch_requests != 0;
    takt_task_t *next = pick(cur, requests);
    /* One store, no test: kernel interrupts are masked here, so no request
     * comes in between. */
    k->switch_requests = 0;
    if (next == cur && cur->state == TAKT_TASK_RUNNING) {
        return stays_running(cur);
    }
    takt_yield_hint = 0;
    return dispatch(cur, next);
}

/* switch_special's value when the running task's yield is all there is:
 * no other request, no lock, no non-preemptive task seen. */
static inline uint32_t sched_yield_only(void)
{
    takt_kernel_t only = {.yield_current = true};
    return only.switch_special;
}

/* A yield with nothing else special: what special_switch_point does for
 * it, without the tests the word's value has answered (no lock, no other
 * request, and, with no non-preemptive task seen, a yield hint still 0).
 * The running task goes behind its equals, which leaves it READY, and the
 * head runs (it again, when it is alone at its level). */
__attribute__((always_inline)) static inline takt_task_t *yield_switch_point(takt_task_t *cur)
{
    behind_equals(cur);
    takt_kernel.switch_requests = 0;
    return dispatch(cur, sched_policy()->peek());
}

/* The usual switch point has nothing special (switch_special is 0): no
 * lock, no request to clear, and no non-preemptive task, so the running task
 * may be preempted (may_preempt) and the yield hint, which only a
 * non-preemptive task's run sets, is 0 already. What is left is pick's
 * plain path. */
takt_task_t *takt_sched_switch_point(void)
{
    takt_kernel_t *k = &takt_kernel;
    takt_task_t *cur = k->current;
    uint32_t special = k->switch_special;
    if (__builtin_expect(special != 0, 0)) {
        /* The yield on its own (a task that stopped running before this
         * point takes the general path). */
        if (special == sched_yield_only() && cur->state == TAKT_TASK_RUNNING) {
            return yield_switch_point(cur);
        }
        return special_switch_point(cur);
    }
    const takt_policy_t *policy = sched_policy();
    takt_task_t *next = policy->peek();
    if (cur->state == TAKT_TASK_RUNNING) {
        if (next == cur || (policy->head_preempts != NULL && !policy->head_preempts(next, cur))) {
            return stays_running(cur);
        }
        cur->state = TAKT_TASK_READY;
        trace_record(TAKT_EV_PREEMPT, cur, task_current_job(cur));
    }
    return dispatch(cur, next);
}

TAKT_COLD takt_task_t *takt_sched_running(void)
{
    return takt_kernel.current;
}

uint32_t takt_context_switches(void)
{
    return takt_kernel.context_switches;
}

/* The running task goes behind its equals at the switch point this asks for,
 * which runs at once: PendSV on Cortex-M, as FreeRTOS's yield. No critical
 * section: the request is one byte, and an interrupt that comes between it
 * and the switch point only gives that switch point more to decide. */
void takt_yield(void)
{
    if (!in_task_context()) {
        return;
    }
    trace_record(TAKT_EV_YIELD, takt_kernel.current, 0);
    takt_kernel.yield_current = true;
    sched_reschedule();
}

/* Out of line: a point with nothing waiting (the common case) is then a leaf
 * that saves no registers. */
__attribute__((noinline)) static void preemption_point_taken(void)
{
    port_critical_t key = port_critical_enter();
    trace_record(TAKT_EV_PREEMPTION_POINT, takt_kernel.current, 0);
    takt_kernel.at_preemption_point = true;
    sched_reschedule();
    port_critical_exit(key);
}

void takt_preemption_point(void)
{
    if (!takt_yield_hint || !in_task_context() ||
        takt_kernel.preemption == TAKT_PREEMPT_NONE) {
        return;
    }
    preemption_point_taken();
}

int takt_task_set_preemptive(takt_task_t *task, bool preemptive)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    takt_task_t *target = task_resolve(task);
    if (target == NULL || (target->flags & TAKT_TASK_F_IDLE)) {
        return TAKT_ERR_ARG;
    }
    if (!preemptive && sched_is_hsf()) {
        return TAKT_ERR_STATE; /* a server's budget ends its task's run at any tick */
    }
    port_critical_t key = port_critical_enter();
    if (preemptive) {
        target->flags &= (uint8_t)~TAKT_TASK_F_NONPREEMPTIVE;
        sched_reschedule(); /* a waiting higher-priority job may take over now */
    } else {
        target->flags |= TAKT_TASK_F_NONPREEMPTIVE;
        takt_kernel.nonpreemptive_seen = true;
    }
    port_critical_exit(key);
    return TAKT_OK;
}
