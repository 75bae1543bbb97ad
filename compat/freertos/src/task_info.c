/*
 * Task introspection (configUSE_TRACE_FACILITY) and run-time statistics
 * (configGENERATE_RUN_TIME_STATS) on the kernel's task snapshots
 * (takt_task_info, takt_task_info_each).
 */
#include "compat.h"
#include "task.h"
#include "task_info.h"

eTaskState compat_task_state(takt_task_state_t state)
{
    switch (state) {
    case TAKT_TASK_RUNNING:
        return eRunning;
    case TAKT_TASK_READY:
        return eReady;
    case TAKT_TASK_BLOCKED:
        return eBlocked;
    case TAKT_TASK_SUSPENDED:
        return eSuspended;
    case TAKT_TASK_DELETED:
    default:
        return eDeleted;
    }
}

void compat_task_status(const takt_task_info_t *info, TaskStatus_t *status)
{
    status->xHandle = info->task;
    status->pcTaskName = info->name;
    status->xTaskNumber = (UBaseType_t)info->id;
    status->eCurrentState = compat_task_state(info->state);
    status->uxCurrentPriority = compat_freertos_priority((int)info->priority);
    status->uxBasePriority = compat_freertos_priority((int)info->base_priority);
#if configGENERATE_RUN_TIME_STATS
    status->ulRunTimeCounter = info->run_time;
#else
    status->ulRunTimeCounter = 0;
#endif
    status->pxStackBase = (StackType_t *)info->stack_base;
    status->usStackHighWaterMark = (configSTACK_DEPTH_TYPE)(info->stack_high_water / sizeof(StackType_t));
}

#if configUSE_TRACE_FACILITY
void vTaskGetInfo(TaskHandle_t xTask, TaskStatus_t *pxTaskStatus, BaseType_t xGetFreeStackSpace, eTaskState eState)
{
    configASSERT(pxTaskStatus != NULL && !takt_in_isr());
    if (pxTaskStatus == NULL) {
        return;
    }
    takt_task_info_t info;
    if (takt_task_info(xTask, &info, xGetFreeStackSpace != pdFALSE) != TAKT_OK) {
        /* A deleted task (or no task): say so rather than leave the caller's
         * structure as it was. */
        configASSERT(xTask != NULL);
        *pxTaskStatus = (TaskStatus_t){.xHandle = xTask, .pcTaskName = "", .eCurrentState = eDeleted};
        return;
    }
    compat_task_status(&info, pxTaskStatus);
    if (eState != eInvalid) {
        pxTaskStatus->eCurrentState = eState;
    }
}

typedef struct {
    TaskStatus_t *array;
    UBaseType_t size, filled;
} fill_t;

static void fill_one(const takt_task_info_t *info, void *ctx)
{
    fill_t *fill = ctx;
    if (fill->filled < fill->size) {
        compat_task_status(info, &fill->array[fill->filled++]);
    }
}

UBaseType_t uxTaskGetSystemState(TaskStatus_t *const pxTaskStatusArray, const UBaseType_t uxArraySize,
                                 configRUN_TIME_COUNTER_TYPE *const pulTotalRunTime)
{
    configASSERT(!takt_in_isr());
    if (takt_in_isr()) {
        return 0;
    }
    compat_kernel_ready();
    fill_t fill = {pxTaskStatusArray, uxArraySize, 0};
    /* The count and the walk under one lock: no task comes or goes between. */
    (void)takt_sched_lock();
    if (pxTaskStatusArray != NULL && uxArraySize >= (UBaseType_t)takt_task_count()) {
        (void)takt_task_info_each(fill_one, &fill, true);
    }
    if (pulTotalRunTime != NULL) {
#if configGENERATE_RUN_TIME_STATS
        *pulTotalRunTime = TAKT_CONFIG_RUN_TIME_COUNTER();
#else
        *pulTotalRunTime = 0;
#endif
    }
    (void)takt_sched_unlock();
    return fill.filled;
}

UBaseType_t uxTaskGetTaskNumber(TaskHandle_t xTask)
{
    if (xTask == NULL) {
        return 0; /* FreeRTOS: a NULL handle has no number (not the caller) */
    }
    uintptr_t *words = takt_task_user_words(xTask);
    configASSERT(words != NULL);
    return words != NULL ? (UBaseType_t)words[TAKT_FREERTOS_WORD_TASK_NUMBER] : 0u;
}

void vTaskSetTaskNumber(TaskHandle_t xTask, const UBaseType_t uxHandle)
{
    if (xTask == NULL) {
        return; /* as FreeRTOS: nothing to number */
    }
    uintptr_t *words = takt_task_user_words(xTask);
    configASSERT(words != NULL);
    if (words != NULL) {
        words[TAKT_FREERTOS_WORD_TASK_NUMBER] = (uintptr_t)uxHandle;
    }
}
#endif

#if configGENERATE_RUN_TIME_STATS
configRUN_TIME_COUNTER_TYPE compat_run_time_percent(configRUN_TIME_COUNTER_TYPE run,
                                                    configRUN_TIME_COUNTER_TYPE total)
{
    /* total / 100 first, as FreeRTOS: no overflow of run * 100; a total
     * below 100 counter ticks gives 0. */
    configRUN_TIME_COUNTER_TYPE hundredth = total / 100u;
    return hundredth == 0u ? 0u : run / hundredth;
}

configRUN_TIME_COUNTER_TYPE ulTaskGetRunTimeCounter(const TaskHandle_t xTask)
{
    configASSERT(xTask != NULL || !takt_in_isr());
    return takt_task_run_time(xTask);
}

configRUN_TIME_COUNTER_TYPE ulTaskGetRunTimePercent(const TaskHandle_t xTask)
{
    configRUN_TIME_COUNTER_TYPE run = ulTaskGetRunTimeCounter(xTask);
    return compat_run_time_percent(run, TAKT_CONFIG_RUN_TIME_COUNTER());
}

configRUN_TIME_COUNTER_TYPE ulTaskGetIdleRunTimeCounter(void)
{
    takt_task_t *idle = takt_task_idle();
    return idle != NULL ? takt_task_run_time(idle) : 0u;
}

configRUN_TIME_COUNTER_TYPE ulTaskGetIdleRunTimePercent(void)
{
    configRUN_TIME_COUNTER_TYPE run = ulTaskGetIdleRunTimeCounter();
    return compat_run_time_percent(run, TAKT_CONFIG_RUN_TIME_COUNTER());
}
#endif
