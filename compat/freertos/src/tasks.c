/* FreeRTOS task functions on Takt tasks (task.h). */
#include <string.h>

#include "compat.h"
#include "task_info.h"
#include "task.h"

static takt_task_params_t task_params(TaskFunction_t code, const char *name, void *arg,
                                      UBaseType_t priority, size_t stack_bytes)
{
    return (takt_task_params_t){.name = name, .entry = code, .arg = arg,
                                .priority = compat_takt_priority(priority),
                                .stack_size = stack_bytes};
}

#if configSUPPORT_DYNAMIC_ALLOCATION
static BaseType_t create_dynamic(const takt_task_params_t *params, TaskHandle_t *created)
{
    compat_kernel_ready();
    takt_task_t *task = NULL;
    if (takt_task_create(params, &task) != TAKT_OK) {
        traceTASK_CREATE_FAILED();
        return errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY;
    }
    if (created != NULL) {
        *created = task;
    }
    return pdPASS;
}

TAKT_COLD BaseType_t xTaskCreate(TaskFunction_t pxTaskCode, const char *pcName, configSTACK_DEPTH_TYPE uxStackDepth,
                       void *pvParameters, UBaseType_t uxPriority, TaskHandle_t *pxCreatedTask)
{
    takt_task_params_t params = task_params(pxTaskCode, pcName, pvParameters, uxPriority,
                                            compat_stack_bytes(uxStackDepth));
    return create_dynamic(&params, pxCreatedTask);
}

TAKT_COLD BaseType_t xTaskCreatePeriodic(TaskFunction_t pxTaskCode, const char *pcName, configSTACK_DEPTH_TYPE uxStackDepth,
                               void *pvParameters, UBaseType_t uxPriority, TickType_t xPeriod,
                               TickType_t xDeadline, TickType_t xOffset, TaskHandle_t *pxCreatedTask)
{
    takt_task_params_t params = task_params(pxTaskCode, pcName, pvParameters, uxPriority,
                                            compat_stack_bytes(uxStackDepth));
    params.period = xPeriod;
    params.deadline = xDeadline;
    params.offset = xOffset;
    if (xPeriod == 0) {
        return errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY;
    }
    return create_dynamic(&params, pxCreatedTask);
}
#endif

BaseType_t xTaskJobEnd(void)
{
    return takt_job_end() == TAKT_OK ? pdPASS : pdFAIL;
}

UBaseType_t uxTaskGetDeadlineMisses(TaskHandle_t xTask)
{
    return takt_task_deadline_misses(xTask);
}

#if configSUPPORT_STATIC_ALLOCATION
TAKT_COLD TaskHandle_t xTaskCreateStatic(TaskFunction_t pxTaskCode, const char *pcName, uint32_t ulStackDepth,
                               void *pvParameters, UBaseType_t uxPriority, StackType_t *puxStackBuffer,
                               StaticTask_t *pxTaskBuffer)
{
    configASSERT(puxStackBuffer != NULL && pxTaskBuffer != NULL);
    compat_kernel_ready();
    size_t bytes = compat_stack_bytes(ulStackDepth);
    takt_task_params_t params = task_params(pxTaskCode, pcName, pvParameters, uxPriority, bytes);
    if (takt_task_create_static(&params, pxTaskBuffer, puxStackBuffer, bytes) != TAKT_OK) {
        traceTASK_CREATE_FAILED();
        return NULL;
    }
    return pxTaskBuffer;
}

BaseType_t xTaskGetStaticBuffers(TaskHandle_t xTask, StackType_t **ppuxStackBuffer, StaticTask_t **ppxTaskBuffer)
{
    configASSERT(ppuxStackBuffer != NULL && ppxTaskBuffer != NULL);
    takt_task_t *tcb = NULL;
    void *stack = NULL;
    int err = takt_task_static_memory(xTask, &tcb, &stack);
    configASSERT(err != TAKT_ERR_ARG);
    if (err != TAKT_OK || ppuxStackBuffer == NULL || ppxTaskBuffer == NULL) {
        return pdFALSE;
    }
    *ppuxStackBuffer = (StackType_t *)stack;
    *ppxTaskBuffer = tcb;
    return pdTRUE;
}
#endif

TAKT_COLD void vTaskDelete(TaskHandle_t xTaskToDelete)
{
    int err = takt_task_delete(xTaskToDelete);
    configASSERT(err == TAKT_OK);
    (void)err;
}

/* Takt's timer keys are compared within half the tick range, so a longer
 * delay (e.g. portMAX_DELAY) is taken in pieces. */
#define LONGEST_DELAY ((TickType_t)INT32_MAX)

/* A delay longer than LONGEST_DELAY, in pieces; out of line, so that the
 * ordinary vTaskDelay is one test and a tail call. */
static __attribute__((noinline)) void delay_in_pieces(TickType_t left)
{
    while (left > 0) {
        TickType_t step = left > LONGEST_DELAY ? LONGEST_DELAY : left;
        int err = takt_delay(step);
        configASSERT(err == TAKT_OK);
        (void)err;
        left -= step;
    }
}

void vTaskDelay(const TickType_t xTicksToDelay)
{
    if (xTicksToDelay > 0u) {
        traceTASK_DELAY();
    }
    if (xTicksToDelay > LONGEST_DELAY) {
        delay_in_pieces(xTicksToDelay);
        return;
    }
    int err = takt_delay(xTicksToDelay);
    configASSERT(err == TAKT_OK);
    (void)err;
}

BaseType_t xTaskDelayUntil(TickType_t *const pxPreviousWakeTime, const TickType_t xTimeIncrement)
{
    configASSERT(pxPreviousWakeTime != NULL && xTimeIncrement > 0u);
#ifdef TAKT_FREERTOS_TRACES_DELAY_UNTIL
    if (pxPreviousWakeTime != NULL) {
        /* Whether it will delay, by the kernel's half-range rule (a tick in
         * between may make it a wake time that has just come). */
        TickType_t wake = *pxPreviousWakeTime + xTimeIncrement;
        if ((TickType_t)(wake - xTaskGetTickCount() - 1u) < (TickType_t)0x7FFFFFFFu) {
            traceTASK_DELAY_UNTIL(wake);
        }
    }
#endif
    int delayed = takt_delay_until(pxPreviousWakeTime, xTimeIncrement);
    configASSERT(delayed >= 0);
    return delayed > 0 ? pdTRUE : pdFALSE;
}

UBaseType_t uxTaskPriorityGet(const TaskHandle_t xTask)
{
    return compat_freertos_priority(takt_task_get_priority(xTask));
}

UBaseType_t uxTaskPriorityGetFromISR(const TaskHandle_t xTask)
{
    return compat_freertos_priority(takt_task_get_priority(xTask));
}

UBaseType_t uxTaskBasePriorityGet(const TaskHandle_t xTask)
{
    return compat_freertos_priority(takt_task_get_base_priority(xTask));
}

UBaseType_t uxTaskBasePriorityGetFromISR(const TaskHandle_t xTask)
{
    return compat_freertos_priority(takt_task_get_base_priority(xTask));
}

void vTaskPrioritySet(TaskHandle_t xTask, UBaseType_t uxNewPriority)
{
    traceTASK_PRIORITY_SET(xTask != NULL ? xTask : xTaskGetCurrentTaskHandle(), uxNewPriority);
#if TAKT_CONFIG_TRACE_HOOK
    compat_priority_setting = xTask != NULL ? xTask : xTaskGetCurrentTaskHandle();
#endif
    int err = takt_task_set_priority(xTask, compat_takt_priority(uxNewPriority));
#if TAKT_CONFIG_TRACE_HOOK
    compat_priority_setting = NULL;
#endif
    configASSERT(err == TAKT_OK);
    (void)err;
}

eTaskState eTaskGetState(TaskHandle_t xTask)
{
    configASSERT(xTask != NULL);
    return compat_task_state(takt_task_state(xTask));
}

void vTaskSuspend(TaskHandle_t xTaskToSuspend)
{
    int err = takt_task_suspend(xTaskToSuspend);
    configASSERT(err == TAKT_OK);
    (void)err;
}

void vTaskResume(TaskHandle_t xTaskToResume)
{
    /* FreeRTOS ignores a task that is not suspended; a bad handle (or a call
     * from an interrupt) is an error it asserts on. */
    int err = takt_task_resume(xTaskToResume);
    configASSERT(err == TAKT_OK || err == TAKT_ERR_STATE);
    (void)err;
}

BaseType_t xTaskResumeFromISR(TaskHandle_t xTaskToResume)
{
    int err = takt_task_resume_from_isr(xTaskToResume);
    configASSERT(err == TAKT_OK || err == TAKT_ERR_STATE);
    if (err != TAKT_OK) {
        return pdFALSE;
    }
    return takt_task_state(xTaskToResume) == TAKT_TASK_READY ? pdTRUE : pdFALSE;
}

UBaseType_t uxTaskGetStackHighWaterMark(TaskHandle_t xTask)
{
    return (UBaseType_t)(takt_task_stack_high_water(xTask) / sizeof(StackType_t));
}

configSTACK_DEPTH_TYPE uxTaskGetStackHighWaterMark2(TaskHandle_t xTask)
{
    return (configSTACK_DEPTH_TYPE)(takt_task_stack_high_water(xTask) / sizeof(StackType_t));
}

char *pcTaskGetName(TaskHandle_t xTaskToQuery)
{
    return (char *)takt_task_name(xTaskToQuery);
}

TaskHandle_t xTaskGetCurrentTaskHandle(void)
{
    return takt_task_self();
}

void vTaskSetTimeOutState(TimeOut_t *const pxTimeOut)
{
    configASSERT(pxTimeOut != NULL);
    if (pxTimeOut != NULL) {
        pxTimeOut->xTimeOnEntering = takt_tick_count();
    }
}

void vTaskInternalSetTimeOutState(TimeOut_t *const pxTimeOut)
{
    vTaskSetTimeOutState(pxTimeOut);
}

BaseType_t xTaskCheckForTimeOut(TimeOut_t *const pxTimeOut, TickType_t *const pxTicksToWait)
{
    configASSERT(pxTimeOut != NULL && pxTicksToWait != NULL);
    if (pxTimeOut == NULL || pxTicksToWait == NULL) {
        return pdTRUE; /* timed out: a caller's retry loop ends */
    }
    if (COMPAT_WAIT_FOREVER(*pxTicksToWait)) {
        return pdFALSE;
    }
    TickType_t now = takt_tick_count();
    TickType_t elapsed = now - pxTimeOut->xTimeOnEntering;
    if (elapsed < *pxTicksToWait) {
        *pxTicksToWait -= elapsed;
        pxTimeOut->xTimeOnEntering = now;
        return pdFALSE;
    }
    *pxTicksToWait = 0;
    return pdTRUE;
}

UBaseType_t uxTaskGetNumberOfTasks(void)
{
    compat_kernel_ready();
    return (UBaseType_t)takt_task_count();
}

TaskHandle_t xTaskGetHandle(const char *pcNameToQuery)
{
    configASSERT(pcNameToQuery != NULL);
    compat_kernel_ready();
    return takt_task_find(pcNameToQuery);
}

TaskHandle_t xTaskGetIdleTaskHandle(void)
{
    return takt_task_idle();
}

BaseType_t xTaskAbortDelay(TaskHandle_t xTask)
{
    configASSERT(xTask != NULL);
    return takt_task_abort_delay(xTask) == TAKT_OK ? pdPASS : pdFAIL;
}
