/*
 * The scheduler core: the one place that decides who runs. Kernel operations
 * change task states and ready queues, then call sched_reschedule(); the port
 * calls takt_sched_switch_point() where switching is allowed, and this file
 * alone picks the next task (through the policy) and applies the preemption mode.
 */
#include "../internal.h"

static void make_ready(takt_task_t *task, takt_ready_how_t how)
{
    task->state = TAKT_TASK_READY;
    task->wait = TAKT_WAIT_NONE;
    takt_kernel_t *k = &takt_kernel;
    takt_stamp_t now = port_timestamp();
    if (now != k->last_ready_stamp || k->ready_instant == 0) {
        k->ready_instant++;
        k->last_ready_stamp = now;
    }
    task->ready_order = (k->ready_instant << 16) | task->id;
    takt_kernel.policy->insert(task, how);
}

void sched_make_ready(takt_task_t *task)
{
    make_ready(task, TAKT_READY_NEW);
}

void sched_make_unready(takt_task_t *task)
{
    KASSERT(task->state == TAKT_TASK_READY);
    takt_kernel.policy->remove(task);
}

void sched_block_current(takt_wait_t wait)
{
    takt_task_t *self = takt_kernel.current;
    self->state = TAKT_TASK_BLOCKED;
    self->wait = (uint8_t)wait;
    trace_record(TAKT_EV_BLOCK, self, wait);
    sched_reschedule();
}

void sched_reschedule(void)
{
    if (takt_kernel.started) {
        port_request_switch();
    }
}

static bool may_preempt(const takt_task_t *running)
{
    return takt_kernel.preemption == TAKT_PREEMPT_FULL || (running->flags & TAKT_TASK_F_IDLE);
}

/* The running task stays unless it stopped being runnable, a higher-priority
 * task may preempt it, or its round-robin slice expired with equals waiting. */
static bool keeps_running(takt_task_t *cur)
{
    const takt_policy_t *policy = takt_kernel.policy;
    if (cur->state != TAKT_TASK_RUNNING) {
        return false;
    }
    if (takt_kernel.rotate_current && policy->has_equal(cur)) {
        make_ready(cur, TAKT_READY_YIELD);
        return false;
    }
    const takt_task_t *candidate = policy->peek();
    if (candidate != NULL && may_preempt(cur) && policy->preempts(candidate, cur)) {
        cur->state = TAKT_TASK_READY;
        policy->insert(cur, TAKT_READY_PREEMPTED);
        trace_record(TAKT_EV_PREEMPT, cur, task_current_job(cur));
        return false;
    }
    return true;
}

takt_task_t *takt_sched_switch_point(void)
{
    takt_kernel_t *k = &takt_kernel;
    takt_task_t *cur = k->current;
    bool stays = keeps_running(cur);
    k->rotate_current = false;
    if (stays) {
        return cur;
    }
    takt_task_t *next = k->policy->peek();
    KASSERT(next != NULL); /* the idle task is always ready when not running */
    k->policy->remove(next);
    next->state = TAKT_TASK_RUNNING;
    if (next != cur) {
        k->context_switches++;
        if (cur->state != TAKT_TASK_DELETED) {
            task_stack_check(cur);
        }
        trace_record(TAKT_EV_DISPATCH, next, task_current_job(next));
    }
    k->current = next;
    return next;
}

uint32_t takt_context_switches(void)
{
    return takt_kernel.context_switches;
}

void takt_yield(void)
{
    if (!in_task_context()) {
        return;
    }
    port_critical_enter();
    takt_task_t *self = takt_kernel.current;
    trace_record(TAKT_EV_YIELD, self, 0);
    make_ready(self, TAKT_READY_YIELD);
    sched_reschedule();
    port_critical_exit();
}
