/*
 * FreeRTOS task.h on Takt: tasks, delays, priorities, the tick count, critical
 * sections, scheduler control and task notifications (V11 signatures).
 *
 * Priorities: FreeRTOS priority p (0 .. configMAX_PRIORITIES-1) is Takt
 * priority p + 1, so a priority-0 task runs above Takt's idle task instead of
 * sharing its level (docs/freertos.md). Stack depths are in StackType_t words.
 */
#ifndef INC_TASK_H
#define INC_TASK_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include task.h"
#endif

typedef takt_task_t *TaskHandle_t;
typedef BaseType_t (*TaskHookFunction_t)(void *arg);

typedef enum {
    eRunning = 0,
    eReady,
    eBlocked,
    eSuspended,
    eDeleted,
    eInvalid,
} eTaskState;

typedef enum {
    eNoAction = 0,
    eSetBits,
    eIncrement,
    eSetValueWithOverwrite,
    eSetValueWithoutOverwrite,
} eNotifyAction;

typedef struct xTIME_OUT {
    TickType_t xTimeOnEntering;
} TimeOut_t;

#define tskIDLE_PRIORITY ((UBaseType_t)0U)
#define tskNO_AFFINITY ((UBaseType_t)-1)
#define tskDEFAULT_INDEX_TO_NOTIFY 0

#define taskSCHEDULER_SUSPENDED ((BaseType_t)0)
#define taskSCHEDULER_NOT_STARTED ((BaseType_t)1)
#define taskSCHEDULER_RUNNING ((BaseType_t)2)

#define taskYIELD() takt_yield()
#define taskENTER_CRITICAL() portENTER_CRITICAL()
#define taskEXIT_CRITICAL() portEXIT_CRITICAL()
#define taskENTER_CRITICAL_FROM_ISR() portSET_INTERRUPT_MASK_FROM_ISR()
#define taskEXIT_CRITICAL_FROM_ISR(x) portCLEAR_INTERRUPT_MASK_FROM_ISR(x)
#define taskDISABLE_INTERRUPTS() portDISABLE_INTERRUPTS()
#define taskENABLE_INTERRUPTS() portENABLE_INTERRUPTS()

/* ---- creation and deletion ---- */
#if configSUPPORT_DYNAMIC_ALLOCATION
/* pdPASS, or errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY (also for a stack below the
 * port's minimum). May be called before vTaskStartScheduler. */
TAKT_FREERTOS_NOT_UNDER_HSF("xTaskCreate")
BaseType_t xTaskCreate(TaskFunction_t pxTaskCode, const char *pcName, configSTACK_DEPTH_TYPE uxStackDepth,
                       void *pvParameters, UBaseType_t uxPriority, TaskHandle_t *pxCreatedTask);
#endif
#if configSUPPORT_STATIC_ALLOCATION
/* NULL if a buffer is NULL or the stack is below the port's minimum. */
TAKT_FREERTOS_NOT_UNDER_HSF("xTaskCreateStatic")
TaskHandle_t xTaskCreateStatic(TaskFunction_t pxTaskCode, const char *pcName, uint32_t ulStackDepth,
                               void *pvParameters, UBaseType_t uxPriority, StackType_t *puxStackBuffer,
                               StaticTask_t *pxTaskBuffer);
#endif
void vTaskDelete(TaskHandle_t xTaskToDelete);

/* ---- Takt extension: a periodic task with a deadline ----
 * The kernel releases its job k at xOffset + k*xPeriod (ticks); the task runs a
 * job and calls xTaskJobEnd(), which blocks until the next release. Under EDF
 * it is scheduled by the absolute deadline of its current job (xDeadline 0:
 * equal to the period); under FP by uxPriority. pdPASS or
 * errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY (also for bad arguments). */
#if configSUPPORT_DYNAMIC_ALLOCATION
TAKT_FREERTOS_NOT_UNDER_HSF("xTaskCreatePeriodic")
BaseType_t xTaskCreatePeriodic(TaskFunction_t pxTaskCode, const char *pcName, configSTACK_DEPTH_TYPE uxStackDepth,
                               void *pvParameters, UBaseType_t uxPriority, TickType_t xPeriod,
                               TickType_t xDeadline, TickType_t xOffset, TaskHandle_t *pxCreatedTask);
#endif
/* Ends the caller's current job (a task from xTaskCreatePeriodic); pdFAIL otherwise. */
BaseType_t xTaskJobEnd(void);
/* Deadline misses recorded for a periodic task. */
UBaseType_t uxTaskGetDeadlineMisses(TaskHandle_t xTask);
/* Takt extension: a preemption point for configTAKT_PREEMPTION = deferred. */
#define taskPREEMPTION_POINT() takt_preemption_point()

/* ---- delays ---- */
void vTaskDelay(const TickType_t xTicksToDelay);
/* pdTRUE if the caller was delayed, pdFALSE if the wake time had already come
 * (it is late); *pxPreviousWakeTime advances by xTimeIncrement either way. */
BaseType_t xTaskDelayUntil(TickType_t *const pxPreviousWakeTime, const TickType_t xTimeIncrement);
#define vTaskDelayUntil(pxPreviousWakeTime, xTimeIncrement) \
    do {                                                    \
        (void)xTaskDelayUntil((pxPreviousWakeTime), (xTimeIncrement)); \
    } while (0)

/* ---- priorities and state ---- */
UBaseType_t uxTaskPriorityGet(const TaskHandle_t xTask);
UBaseType_t uxTaskPriorityGetFromISR(const TaskHandle_t xTask);
void vTaskPrioritySet(TaskHandle_t xTask, UBaseType_t uxNewPriority);
eTaskState eTaskGetState(TaskHandle_t xTask);
void vTaskSuspend(TaskHandle_t xTaskToSuspend);
void vTaskResume(TaskHandle_t xTaskToResume);
/* pdTRUE if the task was resumed and is ready (Takt cannot tell here whether it
 * outranks the interrupted task; the switch happens at interrupt exit anyway). */
BaseType_t xTaskResumeFromISR(TaskHandle_t xTaskToResume);
UBaseType_t uxTaskGetStackHighWaterMark(TaskHandle_t xTask);
char *pcTaskGetName(TaskHandle_t xTaskToQuery);
TaskHandle_t xTaskGetCurrentTaskHandle(void);

/* ---- the scheduler and time ---- */
/* Initialises the kernel if no earlier call did, starts the timer service task
 * (configUSE_TIMERS) and schedules. On the sim port it returns when
 * vTaskEndScheduler is called or configTAKT_SIM_END_MS of virtual time passed. */
void vTaskStartScheduler(void);
void vTaskEndScheduler(void);
void vTaskSuspendAll(void);
BaseType_t xTaskResumeAll(void);
BaseType_t xTaskGetSchedulerState(void);
TickType_t xTaskGetTickCount(void);
TickType_t xTaskGetTickCountFromISR(void);
void vTaskSetTimeOutState(TimeOut_t *const pxTimeOut);
void vTaskInternalSetTimeOutState(TimeOut_t *const pxTimeOut);
BaseType_t xTaskCheckForTimeOut(TimeOut_t *const pxTimeOut, TickType_t *const pxTicksToWait);

/* ---- task notifications (configUSE_TASK_NOTIFICATIONS) ----
 * The Indexed forms take an index below configTASK_NOTIFICATION_ARRAY_ENTRIES;
 * the plain forms use index 0. */
#if configUSE_TASK_NOTIFICATIONS
BaseType_t xTaskGenericNotify(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify, uint32_t ulValue,
                              eNotifyAction eAction, uint32_t *pulPreviousNotificationValue);
BaseType_t xTaskGenericNotifyFromISR(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify,
                                     uint32_t ulValue, eNotifyAction eAction,
                                     uint32_t *pulPreviousNotificationValue,
                                     BaseType_t *pxHigherPriorityTaskWoken);
BaseType_t xTaskGenericNotifyWait(UBaseType_t uxIndexToWaitOn, uint32_t ulBitsToClearOnEntry,
                                  uint32_t ulBitsToClearOnExit, uint32_t *pulNotificationValue,
                                  TickType_t xTicksToWait);
void vTaskGenericNotifyGiveFromISR(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify,
                                   BaseType_t *pxHigherPriorityTaskWoken);
uint32_t ulTaskGenericNotifyTake(UBaseType_t uxIndexToWaitOn, BaseType_t xClearCountOnExit,
                                 TickType_t xTicksToWait);
BaseType_t xTaskGenericNotifyStateClear(TaskHandle_t xTask, UBaseType_t uxIndexToClear);
uint32_t ulTaskGenericNotifyValueClear(TaskHandle_t xTask, UBaseType_t uxIndexToClear, uint32_t ulBitsToClear);

#define xTaskNotify(xTaskToNotify, ulValue, eAction) \
    xTaskGenericNotify((xTaskToNotify), tskDEFAULT_INDEX_TO_NOTIFY, (ulValue), (eAction), NULL)
#define xTaskNotifyIndexed(xTaskToNotify, uxIndexToNotify, ulValue, eAction) \
    xTaskGenericNotify((xTaskToNotify), (uxIndexToNotify), (ulValue), (eAction), NULL)
#define xTaskNotifyAndQuery(xTaskToNotify, ulValue, eAction, pulPreviousNotifyValue) \
    xTaskGenericNotify((xTaskToNotify), tskDEFAULT_INDEX_TO_NOTIFY, (ulValue), (eAction), (pulPreviousNotifyValue))
#define xTaskNotifyAndQueryIndexed(xTaskToNotify, uxIndexToNotify, ulValue, eAction, pulPreviousNotifyValue) \
    xTaskGenericNotify((xTaskToNotify), (uxIndexToNotify), (ulValue), (eAction), (pulPreviousNotifyValue))
#define xTaskNotifyFromISR(xTaskToNotify, ulValue, eAction, pxHigherPriorityTaskWoken) \
    xTaskGenericNotifyFromISR((xTaskToNotify), tskDEFAULT_INDEX_TO_NOTIFY, (ulValue), (eAction), NULL, \
                              (pxHigherPriorityTaskWoken))
#define xTaskNotifyIndexedFromISR(xTaskToNotify, uxIndexToNotify, ulValue, eAction, pxHigherPriorityTaskWoken) \
    xTaskGenericNotifyFromISR((xTaskToNotify), (uxIndexToNotify), (ulValue), (eAction), NULL, \
                              (pxHigherPriorityTaskWoken))
#define xTaskNotifyAndQueryFromISR(xTaskToNotify, ulValue, eAction, pulPreviousNotificationValue, \
                                   pxHigherPriorityTaskWoken) \
    xTaskGenericNotifyFromISR((xTaskToNotify), tskDEFAULT_INDEX_TO_NOTIFY, (ulValue), (eAction), \
                              (pulPreviousNotificationValue), (pxHigherPriorityTaskWoken))
#define xTaskNotifyWait(ulBitsToClearOnEntry, ulBitsToClearOnExit, pulNotificationValue, xTicksToWait) \
    xTaskGenericNotifyWait(tskDEFAULT_INDEX_TO_NOTIFY, (ulBitsToClearOnEntry), (ulBitsToClearOnExit), \
                           (pulNotificationValue), (xTicksToWait))
#define xTaskNotifyWaitIndexed(uxIndexToWaitOn, ulBitsToClearOnEntry, ulBitsToClearOnExit, pulNotificationValue, \
                               xTicksToWait) \
    xTaskGenericNotifyWait((uxIndexToWaitOn), (ulBitsToClearOnEntry), (ulBitsToClearOnExit), \
                           (pulNotificationValue), (xTicksToWait))
#define xTaskNotifyGive(xTaskToNotify) \
    xTaskGenericNotify((xTaskToNotify), tskDEFAULT_INDEX_TO_NOTIFY, 0, eIncrement, NULL)
#define xTaskNotifyGiveIndexed(xTaskToNotify, uxIndexToNotify) \
    xTaskGenericNotify((xTaskToNotify), (uxIndexToNotify), 0, eIncrement, NULL)
#define vTaskNotifyGiveFromISR(xTaskToNotify, pxHigherPriorityTaskWoken) \
    vTaskGenericNotifyGiveFromISR((xTaskToNotify), tskDEFAULT_INDEX_TO_NOTIFY, (pxHigherPriorityTaskWoken))
#define vTaskNotifyGiveIndexedFromISR(xTaskToNotify, uxIndexToNotify, pxHigherPriorityTaskWoken) \
    vTaskGenericNotifyGiveFromISR((xTaskToNotify), (uxIndexToNotify), (pxHigherPriorityTaskWoken))
#define ulTaskNotifyTake(xClearCountOnExit, xTicksToWait) \
    ulTaskGenericNotifyTake(tskDEFAULT_INDEX_TO_NOTIFY, (xClearCountOnExit), (xTicksToWait))
#define ulTaskNotifyTakeIndexed(uxIndexToWaitOn, xClearCountOnExit, xTicksToWait) \
    ulTaskGenericNotifyTake((uxIndexToWaitOn), (xClearCountOnExit), (xTicksToWait))
#define xTaskNotifyStateClear(xTask) xTaskGenericNotifyStateClear((xTask), tskDEFAULT_INDEX_TO_NOTIFY)
#define xTaskNotifyStateClearIndexed(xTask, uxIndexToClear) xTaskGenericNotifyStateClear((xTask), (uxIndexToClear))
#define ulTaskNotifyValueClear(xTask, ulBitsToClear) \
    ulTaskGenericNotifyValueClear((xTask), tskDEFAULT_INDEX_TO_NOTIFY, (ulBitsToClear))
#define ulTaskNotifyValueClearIndexed(xTask, uxIndexToClear, ulBitsToClear) \
    ulTaskGenericNotifyValueClear((xTask), (uxIndexToClear), (ulBitsToClear))
#endif

/* Tasks alive, the idle and timer service tasks included (a deleted task no
 * longer counts, even before the idle task frees it). */
UBaseType_t uxTaskGetNumberOfTasks(void);
/* The first-created live task of that name (the whole name, up to
 * configMAX_TASK_NAME_LEN - 1 characters); NULL if none. O(tasks). */
TaskHandle_t xTaskGetHandle(const char *pcNameToQuery);
/* The idle task; NULL before the first FreeRTOS call that needs the kernel. */
TaskHandle_t xTaskGetIdleTaskHandle(void);
/* Makes a Blocked task (delay, or waiting on a queue, semaphore, event group,
 * notification, even without timeout) leave that state now; its call returns
 * as if it had timed out. pdPASS if the task was Blocked, pdFAIL otherwise
 * (ready, running, suspended, or a periodic task waiting for its release). */
BaseType_t xTaskAbortDelay(TaskHandle_t xTask);

/* ---- not supported: a call stops the build with this message ---- */
TAKT_FREERTOS_UNSUPPORTED("uxTaskGetSystemState")
UBaseType_t uxTaskGetSystemState(void *pxTaskStatusArray, const UBaseType_t uxArraySize,
                                 uint32_t *const pulTotalRunTime);
TAKT_FREERTOS_UNSUPPORTED("vTaskList")
void vTaskList(char *pcWriteBuffer);
TAKT_FREERTOS_UNSUPPORTED("vTaskListTasks")
void vTaskListTasks(char *pcWriteBuffer, size_t uxBufferLength);
TAKT_FREERTOS_UNSUPPORTED("vTaskGetRunTimeStats")
void vTaskGetRunTimeStats(char *pcWriteBuffer);
TAKT_FREERTOS_UNSUPPORTED("vTaskGetInfo")
void vTaskGetInfo(TaskHandle_t xTask, void *pxTaskStatus, BaseType_t xGetFreeStackSpace, eTaskState eState);
TAKT_FREERTOS_UNSUPPORTED("vTaskSetApplicationTaskTag")
void vTaskSetApplicationTaskTag(TaskHandle_t xTask, TaskHookFunction_t pxHookFunction);
TAKT_FREERTOS_UNSUPPORTED("vTaskSetThreadLocalStoragePointer")
void vTaskSetThreadLocalStoragePointer(TaskHandle_t xTaskToSet, BaseType_t xIndex, void *pvValue);
TAKT_FREERTOS_UNSUPPORTED("pvTaskGetThreadLocalStoragePointer")
void *pvTaskGetThreadLocalStoragePointer(TaskHandle_t xTaskToQuery, BaseType_t xIndex);
TAKT_FREERTOS_UNSUPPORTED("xTaskCreateRestricted (MPU)")
BaseType_t xTaskCreateRestricted(const void *const pxTaskDefinition, TaskHandle_t *pxCreatedTask);
TAKT_FREERTOS_UNSUPPORTED("vTaskStepTick (tickless idle)")
void vTaskStepTick(TickType_t xTicksToJump);
TAKT_FREERTOS_UNSUPPORTED("xTaskCatchUpTicks")
BaseType_t xTaskCatchUpTicks(TickType_t xTicksToCatchUp);

/* ---- application hooks (defined by the application when configured) ---- */
void vApplicationIdleHook(void);
void vApplicationTickHook(void);
void vApplicationMallocFailedHook(void);
void vApplicationStackOverflowHook(TaskHandle_t xTask, char *pcTaskName);

#endif
