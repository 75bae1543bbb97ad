/*
 * Tasks: creation (heap or caller memory), deletion, suspension, priorities,
 * stack accounting, and the idle task.
 */
#include <string.h>

#include "../internal.h"
#include "../sched/bound.h"

#define STACK_FILL 0xA5u
/* Bytes at the far end of a stack that must keep the fill pattern; a task that
 * reached them has overflowed (or is about to). */
#define STACK_GUARD_BYTES 32u

/* NULL means the calling task. */
takt_task_t *task_resolve(const takt_task_t *task)
{
    if (task == NULL) {
        return in_task_context() ? takt_kernel.current : NULL;
    }
    return task_handle_valid(task) ? (takt_task_t *)task : NULL;
}

static bool priority_valid(unsigned priority)
{
    return priority >= 1u && priority < TAKT_CONFIG_MAX_PRIORITIES;
}

/* usable_stack: the bytes of stack the task will have once aligned. */
TAKT_COLD static int check_params(const takt_server_t *server, const takt_task_params_t *params,
                        size_t usable_stack)
{
    if (params == NULL || params->entry == NULL || !priority_valid(params->priority)) {
        return TAKT_ERR_ARG;
    }
    if (usable_stack < port_min_stack_size() + STACK_GUARD_BYTES) {
        return TAKT_ERR_ARG;
    }
    if (params->period == 0 && (params->deadline != 0 || params->offset != 0)) {
        return TAKT_ERR_ARG; /* deadline and offset only mean something for a periodic task */
    }
    if (params->period > INT32_MAX || params->deadline > INT32_MAX || params->offset > INT32_MAX) {
        return TAKT_ERR_ARG; /* keys must stay within the half-range of the timer queue */
    }
    if ((params->deadline != 0 ? params->deadline : params->period) == INT32_MAX) {
        return TAKT_ERR_ARG; /* the miss check, a tick after the deadline, would not */
    }
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT; /* before the state: the call is wrong there whatever the policy */
    }
    if (!task_handle_valid(takt_kernel.idle)) {
        return TAKT_ERR_STATE; /* before takt_init: no kernel to admit it to */
    }
    if ((server != NULL) != sched_is_hsf()) {
        return TAKT_ERR_STATE; /* under hsf a task lives in a server; elsewhere in none */
    }
    if (takt_kernel.live_tasks == TAKT_CONFIG_MAX_TASKS) {
        return TAKT_ERR_NOMEM; /* TAKT_CONFIG_MAX_TASKS sizes the EDF ready queues */
    }
    return TAKT_OK;
}

static void stack_prepare(takt_task_t *task, void *stack, size_t size)
{
    task->stack_memory = stack;
    task->stack = (uint8_t *)task_stack_low(stack);
    task->stack_size = task_stack_usable(stack, size);
    port_stack_claim(task->stack, task->stack_size);
#if TAKT_CONFIG_STACK_CHECK
    memset(task->stack, STACK_FILL, task->stack_size);
#endif
}

TAKT_COLD static void task_setup(takt_task_t *task, const takt_task_params_t *params, void *stack,
                       size_t stack_size, uint8_t flags)
{
    memset(task, 0, sizeof(*task));
    takt_list_node_init(&task->ready.list);
    takt_list_node_init(&task->reclaim_node);
    takt_list_node_init(&task->wait_node);
    takt_list_init(&task->mutexes_held);
    time_task_init(task);
    job_task_init(task);
    task->magic = TAKT_TASK_MAGIC;
    task->id = takt_kernel.next_task_id++;
    if ((flags & TAKT_TASK_F_IDLE) && TAKT_IDLE_PRIORITY == 0) {
        task->priority = 0;
        task->ready_bit = 0; /* level 0 is outside the bitmap */
    } else {
        task_set_priority_level(task, params->priority);
    }
    task->base_priority = (uint16_t)params->priority;
    task->flags = flags;
    if (takt_kernel.preemption != TAKT_PREEMPT_FULL && !(flags & TAKT_TASK_F_IDLE)) {
        task->flags |= TAKT_TASK_F_NONPREEMPTIVE;
        takt_kernel.nonpreemptive_seen = true;
    }
    task->entry = params->entry;
    task->arg = params->arg;
    if (params->name != NULL) {
        strncpy(task->name, params->name, sizeof(task->name) - 1u);
    }
    stack_prepare(task, stack, stack_size);
    port_task_init(task);
    takt_list_push_back(&takt_kernel.all_tasks, &task->all_node);
    takt_kernel.live_tasks++;
}

TAKT_COLD static void task_admit(takt_task_t *task, const takt_task_params_t *params)
{
    if (params->period != 0) {
        task->flags |= TAKT_TASK_F_PERIODIC;
        task->period = params->period;
        task->rel_deadline = params->deadline != 0 ? params->deadline : params->period;
        task->wcet = params->wcet;
    }
    trace_record(TAKT_EV_TASK_CREATE, task, task->priority); /* the hook sees its period */
    if (sched_policy()->task_added != NULL) {
        sched_policy()->task_added(task);
    }
    if (params->period != 0) {
        job_model_start(task, params->offset);
    } else {
        sched_make_ready(task);
    }
    sched_reschedule();
}

TAKT_COLD int takt_task_create_static(const takt_task_params_t *params, takt_task_t *tcb, void *stack,
                            size_t stack_size)
{
    return task_create_static_in(NULL, params, tcb, stack, stack_size);
}

TAKT_COLD int task_create_static_in(takt_server_t *server, const takt_task_params_t *params,
                          takt_task_t *tcb, void *stack, size_t stack_size)
{
    if (tcb == NULL || stack == NULL || task_memory_overlaps(tcb, stack, stack_size)) {
        return TAKT_ERR_ARG;
    }
    int err = check_params(server, params, task_stack_usable(stack, stack_size));
    if (err != TAKT_OK) {
        return err;
    }
    port_critical_t key = port_critical_enter();
    /* A live task's, server's or object's memory, under the control block or
     * the stack (the stack is only checked against what the kernel lists). */
    if (sync_memory_in_use(tcb, sizeof(*tcb)) || listed_memory_in_use(stack, stack_size)) {
        port_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    task_setup(tcb, params, stack, stack_size, 0);
    tcb->server = server;
    task_admit(tcb, params);
    port_critical_exit(key);
    return TAKT_OK;
}

/* The idle task: set up as an ordinary task, but at priority 0 (not valid for
 * applications), or at 1 with the lowest tasks (TAKT_CONFIG_IDLE_SHARES_LEVEL),
 * and recorded as such in the trace. Assumptions: takt_init. */
TAKT_COLD void task_create_idle(takt_task_t *idle, void (*entry)(void *arg), void *stack, size_t stack_size)
{
    takt_task_params_t params = {.name = TAKT_CONFIG_IDLE_TASK_NAME, .entry = entry,
                                 .priority = TAKT_IDLE_PRIORITY};
    port_critical_t key = cold_critical_enter();
    task_setup(idle, &params, stack, stack_size, TAKT_TASK_F_IDLE);
    trace_record(TAKT_EV_TASK_CREATE, idle, idle->priority);
    if (sched_policy()->task_added != NULL) {
        sched_policy()->task_added(idle);
    }
    sched_make_ready(idle);
    cold_critical_exit(key);
}

TAKT_COLD int takt_task_create(const takt_task_params_t *params, takt_task_t **out)
{
    return task_create_in(NULL, params, out);
}

TAKT_COLD int task_create_in(takt_server_t *server, const takt_task_params_t *params, takt_task_t **out)
{
    if (out == NULL || params == NULL) {
        return TAKT_ERR_ARG;
    }
    /* The size asked for, rounded down to the alignment, allocated with
     * TAKT_STACK_ALIGN - 1 bytes to spare: wherever the heap puts it
     * (8-aligned on Cortex-M), its aligned part holds that much. */
    size_t usable = params->stack_size & ~(size_t)(TAKT_STACK_ALIGN - 1u);
    int err = check_params(server, params, usable);
    if (err != TAKT_OK) {
        return err;
    }
#if TAKT_CONFIG_DYNAMIC_ALLOCATION
    /* Tasks that deleted themselves are freed by the idle task, which a task
     * that never blocks (FreeRTOS's tskIDLE_PRIORITY runs above it) starves:
     * a program that creates workers that end themselves then keeps memory. */
    task_reclaim_deleted();
    takt_task_t *tcb = TAKT_CONFIG_MALLOC(sizeof(takt_task_t));
    size_t allocated = usable + (TAKT_STACK_ALIGN - 1u);
    void *stack = TAKT_CONFIG_MALLOC(allocated);
    if (tcb == NULL || stack == NULL) {
        TAKT_CONFIG_FREE(tcb);
        TAKT_CONFIG_FREE(stack);
        return TAKT_ERR_NOMEM;
    }
    port_critical_t key = cold_critical_enter();
    task_setup(tcb, params, stack, allocated, TAKT_TASK_F_DYNAMIC);
    tcb->server = server;
    task_admit(tcb, params);
    cold_critical_exit(key);
    *out = tcb;
    return TAKT_OK;
#else
    return TAKT_ERR_NOMEM;
#endif
}

void task_free_memory(takt_task_t *task)
{
#if TAKT_CONFIG_DYNAMIC_ALLOCATION
    if (task->flags & TAKT_TASK_F_DYNAMIC) {
        TAKT_CONFIG_FREE(task->stack_memory);
        TAKT_CONFIG_FREE(task);
    }
#else
    (void)task;
#endif
}

/* Takes a task out of every queue it is in; it is no longer READY or BLOCKED.
 * A suspended task's wait is left before its timeout is cancelled: the wait
 * may be taken up again at its resume, until the same end. */
static void detach(takt_task_t *task, bool suspending)
{
    if (sched_in_ready_queue(task)) {
        sched_make_unready(task);
    }
    if (suspending) {
        sync_wait_suspend(task);
    } else {
        sync_wait_detach(task);
    }
    timer_cancel(&task->wake_timer);
}

/* Delete and suspend take an application task (not one of the kernel's,
 * forbidden), from task context. A running task that takes itself out needs
 * the switch at once: not with the scheduler locked or inside
 * takt_critical_enter, which would hold it back (the lock would then stay
 * with a task that no longer runs). */
static inline __attribute__((always_inline)) int removal_check(const takt_task_t *target,
                                                               uint8_t forbidden)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    if (target == NULL || (target->flags & forbidden)) {
        return TAKT_ERR_ARG;
    }
    /* block_word: started and both counts in one load (the common self-removal
     * pays one compare); a target that is not the caller needs no switch. */
    const takt_kernel_t *k = &takt_kernel;
    if (target == k->current && k->block_word != TAKT_BLOCK_WORD_FREE && k->started) {
        return TAKT_ERR_CONTEXT;
    }
    return TAKT_OK;
}

TAKT_COLD int takt_task_delete(takt_task_t *task)
{
    takt_task_t *target = task_resolve(task);
    int err = removal_check(target, TAKT_TASK_F_IDLE | TAKT_TASK_F_SERVICE);
    if (err != TAKT_OK) {
        return err;
    }
    port_critical_t key = cold_critical_enter();
    bool self = takt_kernel.started && target == takt_kernel.current;
    /* What it was handed and has not returned with goes back first: the
     * only step that can fail, so a refusal changes nothing. Never the
     * running task: its call returned before it could ask. */
    if (!self && !sync_task_gives_back(target)) {
        cold_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    detach(target, false);
    job_task_removed(target);
    sync_task_deleted(target);
    trace_record(TAKT_EV_DELETE, target, 0);
    target->state = TAKT_TASK_DELETED;
    target->magic = 0;
    takt_list_remove(&target->all_node);
    takt_kernel.live_tasks--;
    if (self) {
        /* Its stack is in use until the switch: the idle task frees it. A static
         * task's memory is the application's again once the switch is done, and
         * may be reused before the idle task runs: it must not be on the list. */
        if (target->flags & TAKT_TASK_F_DYNAMIC) {
            takt_list_push_back(&takt_kernel.reclaim, &target->reclaim_node);
        }
        sched_reschedule();
        cold_critical_exit(key);
        KASSERT(false); /* a deleted task is never switched back to */
    }
    task_free_memory(target);
    cold_critical_exit(key);
    return TAKT_OK;
}

TAKT_COLD void task_reclaim_deleted(void)
{
    port_critical_t key = cold_critical_enter();
    takt_list_node_t *node;
    while ((node = takt_list_first(&takt_kernel.reclaim)) != NULL) {
        takt_list_remove(node);
        task_free_memory(TAKT_CONTAINER_OF(node, takt_task_t, reclaim_node));
    }
    cold_critical_exit(key);
}

int takt_task_suspend(takt_task_t *task)
{
    takt_task_t *target = task_resolve(task);
    int err = removal_check(target, TAKT_TASK_F_IDLE);
    if (err != TAKT_OK) {
        return err;
    }
    port_critical_t key = port_critical_enter();
    if (target->state != TAKT_TASK_SUSPENDED) {
        detach(target, true); /* wait says why it waits on only if it rejoins */
        target->state = TAKT_TASK_SUSPENDED;
        trace_record(TAKT_EV_SUSPEND, target, 0);
        if (takt_kernel.started && target == takt_kernel.current) {
            sched_reschedule();
        }
    }
    port_critical_exit(key);
    return TAKT_OK;
}

/* Whether a resumed task waits instead of becoming ready: one taking up
 * the wait a suspend interrupted (which may also serve it at once), a
 * periodic one with no open job (for its next release). */
TAKT_COLD static bool resume_waits(takt_task_t *task)
{
    if (task->flags & TAKT_TASK_F_REJOIN) {
        sync_wait_resume(task);
        return true;
    }
    if (job_pending(task)) {
        return false;
    }
    task->state = TAKT_TASK_BLOCKED;
    task->wait = TAKT_WAIT_RELEASE;
    return true;
}

/* The usual resume (an ordinary task, no wait to take up) pays one test. */
static void resume_locked(takt_task_t *task)
{
    trace_record(TAKT_EV_RESUME, task, 0);
    if ((task->flags & (TAKT_TASK_F_REJOIN | TAKT_TASK_F_PERIODIC)) && resume_waits(task)) {
        return;
    }
    sched_make_ready(task);
    sched_reschedule();
}

/* Both resume calls: the same work. The task's is refused in an interrupt;
 * the interrupt's from a task is the task's (takt/sync.h). */
static int resume_from(takt_task_t *task, bool from_isr)
{
    if (!task_handle_valid(task)) {
        return TAKT_ERR_ARG;
    }
    if (port_in_isr() && !from_isr) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = port_critical_enter();
    int result = TAKT_ERR_STATE;
    if (task->state == TAKT_TASK_SUSPENDED) {
        resume_locked(task);
        result = TAKT_OK;
    }
    port_critical_exit(key);
    return result;
}

int takt_task_resume(takt_task_t *task)
{
    return resume_from(task, false);
}

int takt_task_resume_from_isr(takt_task_t *task)
{
    return resume_from(task, true);
}

int takt_task_get_priority(const takt_task_t *task)
{
    const takt_task_t *target = task_resolve(task);
    return target == NULL ? TAKT_ERR_ARG : (int)target->priority;
}

TAKT_COLD int takt_task_get_base_priority(const takt_task_t *task)
{
    const takt_task_t *target = task_resolve(task);
    return target == NULL ? TAKT_ERR_ARG : (int)target->base_priority;
}

int takt_task_set_priority(takt_task_t *task, unsigned priority)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    takt_task_t *target = task_resolve(task);
    if (target == NULL || (target->flags & TAKT_TASK_F_IDLE) || !priority_valid(priority)) {
        return TAKT_ERR_ARG;
    }
    port_critical_t key = port_critical_enter();
    target->base_priority = (uint16_t)priority;
    /* The effective priority also counts what it inherits from mutex waiters. */
    sync_priority_update(target);
    port_critical_exit(key);
    return TAKT_OK;
}

takt_task_state_t takt_task_state(const takt_task_t *task)
{
    const takt_task_t *target = task_resolve(task);
    return target == NULL ? TAKT_TASK_DELETED : (takt_task_state_t)target->state;
}

takt_task_t *takt_task_self(void)
{
    return in_task_context() ? takt_kernel.current : NULL;
}

takt_task_t *takt_task_running(void)
{
    return takt_kernel.started ? takt_kernel.current : NULL;
}

const char *takt_task_name(const takt_task_t *task)
{
    const takt_task_t *target = task_resolve(task);
    return target == NULL ? NULL : target->name;
}

int takt_task_id(const takt_task_t *task)
{
    const takt_task_t *target = task_resolve(task);
    return target == NULL ? -1 : (int)target->id;
}

size_t takt_task_stack_high_water(const takt_task_t *task)
{
#if TAKT_CONFIG_STACK_CHECK
    const takt_task_t *target = task_resolve(task);
    if (target == NULL) {
        return 0;
    }
    size_t unused = 0;
    while (unused < target->stack_size && target->stack[unused] == STACK_FILL) {
        unused++;
    }
    return unused;
#else
    (void)task;
    return 0;
#endif
}

void task_stack_check(takt_task_t *task)
{
#if TAKT_CONFIG_STACK_CHECK
    for (size_t i = 0; i < STACK_GUARD_BYTES; i++) {
        if (task->stack[i] != STACK_FILL) {
            trace_record(TAKT_EV_STACK_OVERFLOW, task, 0);
#if TAKT_CONFIG_STACK_OVERFLOW_HOOK
            takt_stack_overflow_hook(task);
#endif
            if (task->flags & TAKT_TASK_F_IDLE) {
                return; /* reported; it stays ready, since nothing else could run */
            }
            /* It must not run again on a stack it has overrun. */
            if (sched_in_ready_queue(task)) {
                sched_make_unready(task);
            }
            timer_cancel(&task->wake_timer);
            task->state = TAKT_TASK_SUSPENDED;
            return;
        }
    }
#else
    (void)task;
#endif
}

void takt_task_trampoline(void)
{
    takt_task_t *self = takt_kernel.current;
    self->entry(self->arg);
    takt_task_delete(NULL);
}
