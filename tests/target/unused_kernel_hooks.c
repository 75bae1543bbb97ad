/* The data-structure tests link the port, hence the kernel, but never start
 * it: the hooks its test configuration asks for do nothing here. */
#include "takt/takt.h"

void takt_trace_drain_hook(void)
{
}

void takt_stack_overflow_hook(takt_task_t *task)
{
    (void)task;
}

void takt_deadline_miss_hook(takt_task_t *task, uint32_t job)
{
    (void)task;
    (void)job;
}
