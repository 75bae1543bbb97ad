/*
 * Task introspection (takt/task.h): one task's snapshot, all of them, run
 * time, the memory it was created in, and the application's per-task words.
 * A file of its own so that a build that never asks links none of it.
 */
#include "../internal.h"

#if TAKT_CONFIG_RUN_TIME_STATS
/* Counter ticks the task has run: up to now for the running task, whose run
 * since its dispatch is not charged yet. Assumptions: kernel lock held. */
static takt_run_time_t run_time_locked(const takt_task_t *task)
{
    takt_run_time_t run = task->run_time;
    if (task == takt_kernel.current && takt_kernel.started) {
        run += (takt_run_time_t)(TAKT_CONFIG_RUN_TIME_COUNTER() - takt_kernel.run_time_switched_in);
    }
    return run;
}
#endif

/* Assumptions: the task is live and cannot be freed meanwhile (the caller
 * holds the scheduler lock, or the task is the caller). */
static void snapshot(takt_task_t *task, takt_task_info_t *info, bool stack_high_water)
{
    port_critical_t key = port_critical_enter();
    info->task = task;
    info->name = task->name;
    info->id = task->id;
    info->state = (takt_task_state_t)task->state;
    info->priority = task->priority;
    info->base_priority = task->base_priority;
    info->stack_base = task->stack;
    info->stack_size = task->stack_size;
#if TAKT_CONFIG_RUN_TIME_STATS
    info->run_time = run_time_locked(task);
#endif
    port_critical_exit(key);
    /* The scan reads only the task's own stack, which stays allocated. */
    info->stack_high_water = stack_high_water ? takt_task_stack_high_water(task) : 0u;
}

int takt_task_info(const takt_task_t *task, takt_task_info_t *info, bool stack_high_water)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    if (info == NULL) {
        return TAKT_ERR_ARG;
    }
    int locked = takt_sched_lock();
    takt_task_t *target = task_resolve(task);
    if (target != NULL) {
        snapshot(target, info, stack_high_water);
    }
    if (locked == TAKT_OK) {
        (void)takt_sched_unlock();
    }
    return target != NULL ? TAKT_OK : TAKT_ERR_ARG;
}

unsigned takt_task_info_each(void (*visit)(const takt_task_info_t *info, void *ctx), void *ctx,
                             bool stack_high_water)
{
    if (port_in_isr() || visit == NULL) {
        return 0;
    }
    /* With the scheduler locked no other task runs, so none is created or
     * deleted (interrupts cannot do either) and no dead task's memory is
     * freed (the idle task does that): the list is stable while we walk it
     * with interrupts open. A lock already at its deepest nesting still
     * holds the scheduler. */
    int locked = takt_sched_lock();
    unsigned visited = 0;
    const takt_list_t *all = &takt_kernel.all_tasks;
    for (takt_list_node_t *node = kernel_tasks_first(); node != all; node = node->next) {
        takt_task_info_t info;
        snapshot(TAKT_CONTAINER_OF(node, takt_task_t, all_node), &info, stack_high_water);
        visit(&info, ctx);
        visited++;
    }
    if (locked == TAKT_OK) {
        (void)takt_sched_unlock();
    }
    return visited;
}

#if TAKT_CONFIG_RUN_TIME_STATS
takt_run_time_t takt_task_run_time(const takt_task_t *task)
{
    const takt_task_t *target = task_resolve(task);
    if (target == NULL) {
        return 0;
    }
    port_critical_t key = port_critical_enter();
    takt_run_time_t run = run_time_locked(target);
    port_critical_exit(key);
    return run;
}
#endif

TAKT_COLD int takt_task_static_memory(takt_task_t *task, takt_task_t **tcb, void **stack)
{
    takt_task_t *target = task_resolve(task);
    if (target == NULL) {
        return TAKT_ERR_ARG;
    }
    if (target->flags & TAKT_TASK_F_DYNAMIC) {
        return TAKT_ERR_STATE;
    }
    if (tcb != NULL) {
        *tcb = target;
    }
    if (stack != NULL) {
        *stack = target->stack_memory;
    }
    return TAKT_OK;
}

#if TAKT_CONFIG_TASK_USER_WORDS > 0
uintptr_t *takt_task_user_words(takt_task_t *task)
{
    takt_task_t *target = task_resolve(task);
    return target == NULL ? NULL : target->user_words;
}
#endif
