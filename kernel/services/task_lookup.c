/* Finding tasks: how many live, one by name, the idle task (takt/task.h),
 * whether an address range falls in a live task's (or server's) memory
 * (internal.h). */
#include <string.h>

#include "../internal.h"

unsigned takt_task_count(void)
{
    port_critical_t key = port_critical_enter();
    unsigned count = takt_kernel.live_tasks;
    port_critical_exit(key);
    return count;
}

takt_task_t *takt_task_find(const char *name)
{
    if (name == NULL) {
        return NULL;
    }
    takt_task_t *found = NULL;
    /* O(tasks) with interrupts masked: a query for set-up code, not a fast path. */
    port_critical_t key = port_critical_enter();
    const takt_list_t *all = &takt_kernel.all_tasks;
    for (takt_list_node_t *node = kernel_tasks_first(); node != all && found == NULL;
         node = node->next) {
        takt_task_t *task = TAKT_CONTAINER_OF(node, takt_task_t, all_node);
        if (strcmp(task->name, name) == 0) {
            found = task;
        }
    }
    port_critical_exit(key);
    return found;
}

takt_task_t *takt_task_idle(void)
{
    return task_handle_valid(takt_kernel.idle) ? takt_kernel.idle : NULL;
}

TAKT_COLD bool listed_memory_in_use(const void *memory, size_t size)
{
    if (sched_is_hsf() && server_memory_in_use(memory, size)) {
        return true; /* servers exist under hsf only */
    }
    const takt_list_t *all = &takt_kernel.all_tasks;
    for (takt_list_node_t *node = kernel_tasks_first(); node != all; node = node->next) {
        const takt_task_t *task = TAKT_CONTAINER_OF(node, takt_task_t, all_node);
        if (memory_ranges_overlap(memory, size, task, sizeof(*task)) ||
            memory_ranges_overlap(memory, size, task->stack, task->stack_size)) {
            return true;
        }
    }
    return false;
}
