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
/* NULL if a buffer is NULL, the stack is below the port's minimum, or the
 * two overlap. */
TAKT_FREERTOS_NOT_UNDER_HSF("xTaskCreateStatic")
TaskHandle_t xTaskCreateStatic(TaskFunction_t pxTaskCode, const char *pcName, uint32_t ulStackDepth,
                               void *pvParameters, UBaseType_t uxPriority, StackType_t *puxStackBuffer,
                               StaticTask_t *pxTaskBuffer);
/* pdTRUE with the task's (NULL: the caller's) stack and control block when
 * it was created static, or is the idle or timer task; pdFALSE for one from
 * xTaskCreate. configASSERT for a NULL pointer or a bad handle. */
BaseType_t xTaskGetStaticBuffers(TaskHandle_t xTask, StackType_t **ppuxStackBuffer, StaticTask_t **ppxTaskBuffer);
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
/* The priority the task was given, without what it inherits from a mutex's waiters. */
UBaseType_t uxTaskBasePriorityGet(const TaskHandle_t xTask);
UBaseType_t uxTaskBasePriorityGetFromISR(const TaskHandle_t xTask);
void vTaskPrioritySet(TaskHandle_t xTask, UBaseType_t uxNewPriority);
eTaskState eTaskGetState(TaskHandle_t xTask);
void vTaskSuspend(TaskHandle_t xTaskToSuspend);
void vTaskResume(TaskHandle_t xTaskToResume);
/* pdTRUE if the task was resumed and is ready (Takt cannot tell here whether it
 * outranks the interrupted task; the switch happens at interrupt exit anyway). */
BaseType_t xTaskResumeFromISR(TaskHandle_t xTaskToResume);
UBaseType_t uxTaskGetStackHighWaterMark(TaskHandle_t xTask);
/* The same, as configSTACK_DEPTH_TYPE (FreeRTOS's variant for depths wider
 * than UBaseType_t). */
configSTACK_DEPTH_TYPE uxTaskGetStackHighWaterMark2(TaskHandle_t xTask);
char *pcTaskGetName(TaskHandle_t xTaskToQuery);
TaskHandle_t xTaskGetCurrentTaskHandle(void);

/* ---- the scheduler and time ---- */
/* Initialises the kernel if no earlier call did, starts the timer service task
 * (configUSE_TIMERS) and schedules. On the sim port it returns when
 * vTaskEndScheduler is called or configTAKT_SIM_END_MS of virtual time passed. */
void vTaskStartScheduler(void);
void vTaskEndScheduler(void);
/* Between runs (sim port: after vTaskStartScheduler returned), as FreeRTOS
 * V11.1 asks before a restart: the ended run's tasks are freed now (dynamic)
 * or forgotten (static), and the next call that needs the kernel starts it
 * afresh. Takt restarts without it too. While the scheduler runs it trips
 * configASSERT and does nothing. */
void vTaskResetState(void);
void vTaskSuspendAll(void);
BaseType_t xTaskResumeAll(void);
BaseType_t xTaskGetSchedulerState(void);
TickType_t xTaskGetTickCount(void);
TickType_t xTaskGetTickCountFromISR(void);
/* Tick interrupts that were lost (interrupts masked for longer than a tick),
 * processed now, each in turn, then the switch they call for: pdTRUE if the
 * caller was switched away (a task they made ready ran). From a task, with
 * the scheduler not suspended (configASSERT otherwise, and nothing done);
 * more than INT32_MAX ticks trip configASSERT too. */
BaseType_t xTaskCatchUpTicks(TickType_t xTicksToCatchUp);
void vTaskSetTimeOutState(TimeOut_t *const pxTimeOut);
void vTaskInternalSetTimeOutState(TimeOut_t *const pxTimeOut);
BaseType_t xTaskCheckForTimeOut(TimeOut_t *const pxTimeOut, TickType_t *const pxTicksToWait);

/* ---- tickless idle (configUSE_TICKLESS_IDLE 1) ----
 * Whether the sleep about to begin may: for configPRE_SLEEP_PROCESSING (the
 * idle task, interrupts held off), as FreeRTOS's ports ask it. eAbortSleep
 * when the tick must not stop (a task is ready or a switch is pending, a
 * timer is due in fewer than configEXPECTED_IDLE_TIME_BEFORE_SLEEP ticks,
 * the policy is hsf; always from a task other than idle or an interrupt);
 * eNoTasksWaitingTimeout when no task waits with a timeout and no timer
 * runs (only an interrupt ends the sleep); eStandardSleep otherwise. */
typedef enum {
    eAbortSleep = 0,
    eStandardSleep,
#if INCLUDE_vTaskSuspend == 1
    eNoTasksWaitingTimeout,
#endif
} eSleepModeStatus;
#if configUSE_TICKLESS_IDLE != 0
#define TAKT_FREERTOS_TICKLESS
#else
#define TAKT_FREERTOS_TICKLESS TAKT_FREERTOS_NEEDS("configUSE_TICKLESS_IDLE 1")
#endif
TAKT_FREERTOS_TICKLESS
eSleepModeStatus eTaskConfirmSleepModeStatus(void);

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
#define xTaskNotifyAndQueryIndexedFromISR(xTaskToNotify, uxIndexToNotify, ulValue, eAction, \
                                          pulPreviousNotificationValue, pxHigherPriorityTaskWoken) \
    xTaskGenericNotifyFromISR((xTaskToNotify), (uxIndexToNotify), (ulValue), (eAction), \
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

/* ---- task introspection (configUSE_TRACE_FACILITY) ----
 * Snapshots of tasks, as FreeRTOS's TaskStatus_t. Not from an interrupt
 * (configASSERT). xTaskNumber is Takt's task id: creation order, the idle
 * task 0 (the application's own number is uxTaskGetTaskNumber's). Priorities
 * are FreeRTOS numbers; under TAKT_POLICY_HSF a task's priority within its
 * server. ulRunTimeCounter is 0 without configGENERATE_RUN_TIME_STATS. */
typedef struct xTASK_STATUS {
    TaskHandle_t xHandle;
    const char *pcTaskName;
    UBaseType_t xTaskNumber;
    eTaskState eCurrentState;
    UBaseType_t uxCurrentPriority;
    UBaseType_t uxBasePriority;
    configRUN_TIME_COUNTER_TYPE ulRunTimeCounter;
    StackType_t *pxStackBase;
    configSTACK_DEPTH_TYPE usStackHighWaterMark; /* words; 0 unless asked (vTaskGetInfo) */
} TaskStatus_t;

#if configUSE_TRACE_FACILITY
#define TAKT_FREERTOS_TRACE_FACILITY
#else
#define TAKT_FREERTOS_TRACE_FACILITY TAKT_FREERTOS_NEEDS("configUSE_TRACE_FACILITY 1")
#endif
/* xTask NULL: the caller. With eState other than eInvalid that state is
 * reported instead of the task's own; xGetFreeStackSpace pdTRUE scans the
 * stack for its high-water mark (O(stack)). */
TAKT_FREERTOS_TRACE_FACILITY
void vTaskGetInfo(TaskHandle_t xTask, TaskStatus_t *pxTaskStatus, BaseType_t xGetFreeStackSpace, eTaskState eState);
/* Fills pxTaskStatusArray with every live task (creation order, the idle task
 * first; stack high-water marks included) and returns how many; 0 and
 * nothing written if uxArraySize is below uxTaskGetNumberOfTasks().
 * *pulTotalRunTime (may be NULL): the run-time counter now, or 0 without
 * configGENERATE_RUN_TIME_STATS. The scheduler is locked for the walk. */
TAKT_FREERTOS_TRACE_FACILITY
UBaseType_t uxTaskGetSystemState(TaskStatus_t *const pxTaskStatusArray, const UBaseType_t uxArraySize,
                                 configRUN_TIME_COUNTER_TYPE *const pulTotalRunTime);
/* The application's number for a task (0 until set; NULL handle: 0). */
TAKT_FREERTOS_TRACE_FACILITY
UBaseType_t uxTaskGetTaskNumber(TaskHandle_t xTask);
TAKT_FREERTOS_TRACE_FACILITY
void vTaskSetTaskNumber(TaskHandle_t xTask, const UBaseType_t uxHandle);

/* ---- formatted lists (configUSE_STATS_FORMATTING_FUNCTIONS) ----
 * One line per task, creation order: the name padded with spaces to
 * configMAX_TASK_NAME_LEN - 1, then tab-separated the state (X running,
 * R ready, B blocked, S suspended, D deleted), the priority, the stack
 * high-water mark (words) and the task number, ending "\r\n". The output is
 * cut to uxBufferLength bytes, NUL included (never written past). */
#if configUSE_STATS_FORMATTING_FUNCTIONS && configUSE_TRACE_FACILITY
#define TAKT_FREERTOS_LIST_TASKS
#else
#define TAKT_FREERTOS_LIST_TASKS TAKT_FREERTOS_NEEDS("configUSE_STATS_FORMATTING_FUNCTIONS 1 and configUSE_TRACE_FACILITY 1")
#endif
TAKT_FREERTOS_LIST_TASKS
void vTaskListTasks(char *pcWriteBuffer, size_t uxBufferLength);
/* As vTaskListTasks with no length (FreeRTOS's old form): the buffer must
 * hold every line; bounded at configSTATS_BUFFER_MAX_LENGTH bytes (0xFFFF
 * unless set), as in FreeRTOS. Same for vTaskGetRunTimeStats. */
TAKT_FREERTOS_LIST_TASKS
void vTaskList(char *pcWriteBuffer);

/* ---- run-time statistics (configGENERATE_RUN_TIME_STATS) ----
 * The counter is the application's portGET_RUN_TIME_COUNTER_VALUE()
 * (portCONFIGURE_TIMER_FOR_RUN_TIME_STATS() sets it up, called by
 * vTaskStartScheduler); the kernel charges each task the counter ticks from
 * its dispatch to its switch away. A running task's count includes its run
 * so far. Percentages are of the counter's value now (FreeRTOS's total). */
#if configGENERATE_RUN_TIME_STATS
#define TAKT_FREERTOS_RUN_TIME_STATS
#else
#define TAKT_FREERTOS_RUN_TIME_STATS TAKT_FREERTOS_NEEDS("configGENERATE_RUN_TIME_STATS 1")
#endif
/* NULL: the caller. */
TAKT_FREERTOS_RUN_TIME_STATS
configRUN_TIME_COUNTER_TYPE ulTaskGetRunTimeCounter(const TaskHandle_t xTask);
TAKT_FREERTOS_RUN_TIME_STATS
configRUN_TIME_COUNTER_TYPE ulTaskGetRunTimePercent(const TaskHandle_t xTask);
TAKT_FREERTOS_RUN_TIME_STATS
configRUN_TIME_COUNTER_TYPE ulTaskGetIdleRunTimeCounter(void);
TAKT_FREERTOS_RUN_TIME_STATS
configRUN_TIME_COUNTER_TYPE ulTaskGetIdleRunTimePercent(void);
/* One line per task: the name padded as in vTaskListTasks, a tab, the run
 * time, two tabs, the percentage and "%" ("<1%" below one), "\r\n". Cut to
 * uxBufferLength bytes, NUL included. */
#if configGENERATE_RUN_TIME_STATS && configUSE_STATS_FORMATTING_FUNCTIONS && configUSE_TRACE_FACILITY
#define TAKT_FREERTOS_RUN_TIME_LIST
#else
#define TAKT_FREERTOS_RUN_TIME_LIST TAKT_FREERTOS_NEEDS( \
    "configGENERATE_RUN_TIME_STATS 1, configUSE_STATS_FORMATTING_FUNCTIONS 1 and configUSE_TRACE_FACILITY 1")
#endif
TAKT_FREERTOS_RUN_TIME_LIST
void vTaskGetRunTimeStatistics(char *pcWriteBuffer, size_t uxBufferLength);
TAKT_FREERTOS_RUN_TIME_LIST
void vTaskGetRunTimeStats(char *pcWriteBuffer);

/* ---- application task tag (configUSE_APPLICATION_TASK_TAG) ----
 * NULL handle: the caller. The tag is a hook function (or any value the
 * application casts to one); 0 until set. */
#if configUSE_APPLICATION_TASK_TAG
#define TAKT_FREERTOS_TASK_TAG
#else
#define TAKT_FREERTOS_TASK_TAG TAKT_FREERTOS_NEEDS("configUSE_APPLICATION_TASK_TAG 1")
#endif
TAKT_FREERTOS_TASK_TAG
void vTaskSetApplicationTaskTag(TaskHandle_t xTask, TaskHookFunction_t pxHookFunction);
TAKT_FREERTOS_TASK_TAG
TaskHookFunction_t xTaskGetApplicationTaskTag(TaskHandle_t xTask);
TAKT_FREERTOS_TASK_TAG
TaskHookFunction_t xTaskGetApplicationTaskTagFromISR(TaskHandle_t xTask);
/* Calls the task's tag with pvParameter and returns its result; pdFAIL if it has none. */
TAKT_FREERTOS_TASK_TAG
BaseType_t xTaskCallApplicationTaskHook(TaskHandle_t xTask, void *pvParameter);

/* ---- thread-local storage (configNUM_THREAD_LOCAL_STORAGE_POINTERS) ----
 * NULL handle: the caller. An index outside 0 .. configNUM_THREAD_LOCAL_
 * STORAGE_POINTERS - 1 trips configASSERT (set: nothing; get: NULL). */
#if configNUM_THREAD_LOCAL_STORAGE_POINTERS > 0
#define TAKT_FREERTOS_TLS
#else
#define TAKT_FREERTOS_TLS TAKT_FREERTOS_NEEDS("configNUM_THREAD_LOCAL_STORAGE_POINTERS > 0")
#endif
TAKT_FREERTOS_TLS
void vTaskSetThreadLocalStoragePointer(TaskHandle_t xTaskToSet, BaseType_t xIndex, void *pvValue);
TAKT_FREERTOS_TLS
void *pvTaskGetThreadLocalStoragePointer(TaskHandle_t xTaskToQuery, BaseType_t xIndex);

/* ---- not supported: a call stops the build with this message ---- */
TAKT_FREERTOS_UNSUPPORTED("xTaskCreateRestricted (MPU)")
BaseType_t xTaskCreateRestricted(const void *const pxTaskDefinition, TaskHandle_t *pxCreatedTask);
/* Only an application's own portSUPPRESS_TICKS_AND_SLEEP (configUSE_TICKLESS_IDLE
 * 2, refused) calls it: with 1 the port steps the tick count itself. */
TAKT_FREERTOS_UNSUPPORTED("vTaskStepTick (only an application's own portSUPPRESS_TICKS_AND_SLEEP, configUSE_TICKLESS_IDLE 2, "
                          "calls it; with configUSE_TICKLESS_IDLE 1 the port steps the tick count itself)")
void vTaskStepTick(TickType_t xTicksToJump);

/* ---- application hooks (defined by the application when configured) ---- */
void vApplicationIdleHook(void);
void vApplicationTickHook(void);
void vApplicationMallocFailedHook(void);
void vApplicationStackOverflowHook(TaskHandle_t xTask, char *pcTaskName);
void vApplicationDaemonTaskStartupHook(void); /* configUSE_DAEMON_TASK_STARTUP_HOOK */
#if configSUPPORT_STATIC_ALLOCATION
/* The idle task's control block and stack, asked for when the kernel starts
 * up (the first FreeRTOS call that needs it); a NULL buffer, a stack below
 * the port's minimum or the two overlapping trip configASSERT there. The
 * layer defines it itself with configKERNEL_PROVIDED_STATIC_MEMORY 1, and as
 * a weak default otherwise. */
void vApplicationGetIdleTaskMemory(StaticTask_t **ppxIdleTaskTCBBuffer, StackType_t **ppxIdleTaskStackBuffer,
                                   configSTACK_DEPTH_TYPE *puxIdleTaskStackSize);
#endif

#endif
