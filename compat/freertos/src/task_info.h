/*
 * Shared by the layer's introspection sources (task_info.c, task_format.c):
 * a kernel snapshot as FreeRTOS's TaskStatus_t. compat_task_state is also
 * eTaskGetState's (tasks.c).
 */
#ifndef TAKT_FREERTOS_TASK_INFO_H
#define TAKT_FREERTOS_TASK_INFO_H

#include "FreeRTOS.h"
#include "task.h"

eTaskState compat_task_state(takt_task_state_t state);
void compat_task_status(const takt_task_info_t *info, TaskStatus_t *status);

#if configGENERATE_RUN_TIME_STATS
/* run as a whole percentage of total (0 while total is below 100). */
configRUN_TIME_COUNTER_TYPE compat_run_time_percent(configRUN_TIME_COUNTER_TYPE run,
                                                    configRUN_TIME_COUNTER_TYPE total);
#endif

#endif
