/*
 * FreeRTOS's trace macros on Takt (docs/freertos.md "Trace macros"). An
 * application defines them in FreeRTOSConfig.h, as for FreeRTOS; the ones
 * listed here are called, the kernel's through Takt's trace hook
 * (compat/freertos/src/trace_hook.c), the others by the layer's calls. In
 * the macros, pxCurrentTCB is the running task, as in FreeRTOS's tasks.c.
 * Every other FreeRTOS trace macro would never be called: defining one stops
 * the build, naming it, unless configTAKT_TRACE_UNSUPPORTED_OK is 1 (a
 * tracer's header that defines them all). traceSTART / traceEND and the API
 * entry and return macros (traceENTER_* / traceRETURN_*) are not called, as
 * FreeRTOS's kernel does not call the first two either. Included by
 * takt_freertos_config.h.
 */
#ifndef TAKT_FREERTOS_TRACE_H
#define TAKT_FREERTOS_TRACE_H

/* The event groups' and notifications' blocking macros: the kernel's block
 * event says only "an event group" or "a notification", so the calls that
 * may block record, in the calling task's word TAKT_FREERTOS_WORD_BLOCKING,
 * which call it is and its arguments (compat.h, compat_blocking_t), and the
 * trace hook reads that record at the block. 0: none of that is compiled. */
#if defined(traceEVENT_GROUP_SYNC_BLOCK) || defined(traceEVENT_GROUP_WAIT_BITS_BLOCK) || \
    defined(traceTASK_NOTIFY_TAKE_BLOCK) || defined(traceTASK_NOTIFY_WAIT_BLOCK)
#define TAKT_FREERTOS_TRACES_BLOCKING 1
#else
#define TAKT_FREERTOS_TRACES_BLOCKING 0
#endif
#if TAKT_FREERTOS_TRACES_BLOCKING && TAKT_FREERTOS_TASK_WORDS > 64
#error "FreeRTOSConfig.h: configNUM_THREAD_LOCAL_STORAGE_POINTERS must be within 0..61 with the blocking trace macros (*_BLOCK) and both configUSE_TRACE_FACILITY and configUSE_APPLICATION_TASK_TAG (a task keeps at most 64 words)"
#endif

/* The kernel's events: any of these turns Takt's trace hook on. */
#if TAKT_FREERTOS_TRACES_BLOCKING ||                                                                          \
    defined(traceTASK_SWITCHED_IN) || defined(traceTASK_SWITCHED_OUT) || defined(traceTASK_INCREMENT_TICK) || \
    defined(traceTASK_CREATE) || defined(traceTASK_DELETE) || defined(traceTASK_SUSPEND) ||                   \
    defined(traceTASK_RESUME) || defined(traceTASK_RESUME_FROM_ISR) ||                                       \
    defined(traceMOVED_TASK_TO_READY_STATE) || defined(tracePOST_MOVED_TASK_TO_READY_STATE) ||             \
    defined(traceTASK_PRIORITY_INHERIT) || defined(traceTASK_PRIORITY_DISINHERIT) ||                       \
    defined(traceBLOCKING_ON_QUEUE_RECEIVE) || defined(traceBLOCKING_ON_QUEUE_PEEK) ||                     \
    defined(traceBLOCKING_ON_QUEUE_SEND) || defined(traceBLOCKING_ON_STREAM_BUFFER_SEND) ||                \
    defined(traceBLOCKING_ON_STREAM_BUFFER_RECEIVE)
#define configTAKT_KERNEL_TRACE_MACROS 1
#else
#define configTAKT_KERNEL_TRACE_MACROS 0
#endif

#ifndef configTAKT_TRACE_UNSUPPORTED_OK
#define configTAKT_TRACE_UNSUPPORTED_OK 0
#endif
#if !configTAKT_TRACE_UNSUPPORTED_OK
#if defined(traceMOVED_TASK_TO_DELAYED_LIST) || defined(traceMOVED_TASK_TO_OVERFLOW_DELAYED_LIST)
#error "FreeRTOSConfig.h: traceMOVED_TASK_TO_DELAYED_LIST / _OVERFLOW_DELAYED_LIST are not called by Takt's FreeRTOS layer"
#elif defined(traceQUEUE_SET_SEND) || defined(traceTIMER_COMMAND_RECEIVED)
#error "FreeRTOSConfig.h: traceQUEUE_SET_SEND / traceTIMER_COMMAND_RECEIVED are not called by Takt's FreeRTOS layer (the kernel does that work)"
#elif defined(traceISR_ENTER) || defined(traceISR_EXIT) || defined(traceISR_EXIT_TO_SCHEDULER)
#error "FreeRTOSConfig.h: traceISR_ENTER / traceISR_EXIT / traceISR_EXIT_TO_SCHEDULER are not called by Takt's FreeRTOS layer"
#elif defined(traceINCREASE_TICK_COUNT)
#error "FreeRTOSConfig.h: traceINCREASE_TICK_COUNT is not called by Takt's FreeRTOS layer (with tickless idle the port steps the tick count, not vTaskStepTick)"
#endif
#endif

/* ---- called by the kernel's trace hook (trace_hook.c) ---- */
#ifndef traceTASK_SWITCHED_OUT
#define traceTASK_SWITCHED_OUT()
#endif
#ifndef traceTASK_SWITCHED_IN
#define traceTASK_SWITCHED_IN()
#endif
#ifndef traceTASK_INCREMENT_TICK
#define traceTASK_INCREMENT_TICK(xTickCount)
#endif
#ifndef traceTASK_CREATE
#define traceTASK_CREATE(pxNewTCB)
#endif
#ifndef traceTASK_DELETE
#define traceTASK_DELETE(pxTaskToDelete)
#endif
#ifndef traceTASK_SUSPEND
#define traceTASK_SUSPEND(pxTaskToSuspend)
#endif
#ifndef traceTASK_RESUME
#define traceTASK_RESUME(pxTaskToResume)
#endif
#ifndef traceTASK_RESUME_FROM_ISR
#define traceTASK_RESUME_FROM_ISR(pxTaskToResume)
#endif
#ifndef traceMOVED_TASK_TO_READY_STATE
#define traceMOVED_TASK_TO_READY_STATE(pxTCB)
#endif
#ifndef tracePOST_MOVED_TASK_TO_READY_STATE
#define tracePOST_MOVED_TASK_TO_READY_STATE(pxTCB)
#endif
#ifndef traceBLOCKING_ON_QUEUE_RECEIVE
#define traceBLOCKING_ON_QUEUE_RECEIVE(pxQueue)
#endif
#ifndef traceBLOCKING_ON_QUEUE_PEEK
#define traceBLOCKING_ON_QUEUE_PEEK(pxQueue)
#endif
#ifndef traceBLOCKING_ON_QUEUE_SEND
#define traceBLOCKING_ON_QUEUE_SEND(pxQueue)
#endif
#ifndef traceBLOCKING_ON_STREAM_BUFFER_SEND
#define traceBLOCKING_ON_STREAM_BUFFER_SEND(xStreamBuffer)
#endif
#ifndef traceBLOCKING_ON_STREAM_BUFFER_RECEIVE
#define traceBLOCKING_ON_STREAM_BUFFER_RECEIVE(xStreamBuffer)
#endif
#ifndef traceTASK_PRIORITY_INHERIT
#define traceTASK_PRIORITY_INHERIT(pxTCBOfMutexHolder, uxInheritedPriority)
#endif
#ifndef traceTASK_PRIORITY_DISINHERIT
#define traceTASK_PRIORITY_DISINHERIT(pxTCBOfMutexHolder, uxOriginalPriority)
#endif
/* As the calling task blocks in xEventGroupSync, xEventGroupWaitBits,
 * ulTaskGenericNotifyTake or xTaskGenericNotifyWait (not when it returns at
 * once), with the call's arguments. */
#ifndef traceEVENT_GROUP_SYNC_BLOCK
#define traceEVENT_GROUP_SYNC_BLOCK(xEventGroup, uxBitsToSet, uxBitsToWaitFor)
#endif
#ifndef traceEVENT_GROUP_WAIT_BITS_BLOCK
#define traceEVENT_GROUP_WAIT_BITS_BLOCK(xEventGroup, uxBitsToWaitFor)
#endif
#ifndef traceTASK_NOTIFY_TAKE_BLOCK
#define traceTASK_NOTIFY_TAKE_BLOCK(uxIndexToWait)
#endif
#ifndef traceTASK_NOTIFY_WAIT_BLOCK
#define traceTASK_NOTIFY_WAIT_BLOCK(uxIndexToWait)
#endif

/* ---- called by the layer's sleep hooks (src/tickless.c), with
 * configUSE_TICKLESS_IDLE 1 only (FreeRTOS calls them only then too): around
 * each wait of a tickless sleep, BEGIN before configPRE_SLEEP_PROCESSING, END
 * after configPOST_SLEEP_PROCESSING, before the interrupt that ended the wait
 * runs (FreeRTOS: around the whole sleep, END after that interrupt). In the
 * idle task, interrupts held off. ---- */
#ifndef traceLOW_POWER_IDLE_BEGIN
#define traceLOW_POWER_IDLE_BEGIN()
#endif
#ifndef traceLOW_POWER_IDLE_END
#define traceLOW_POWER_IDLE_END()
#endif

/* ---- called by the layer's calls: the delays, vTaskPrioritySet, the
 * notifications' and the event groups' set and clear before the kernel's
 * call, as FreeRTOS calls them before the work; the others as they return ---- */
#ifdef traceSTARTING_SCHEDULER /* vTaskStartScheduler looks the idle task up for it */
#define TAKT_FREERTOS_TRACES_STARTING_SCHEDULER 1
#else
#define traceSTARTING_SCHEDULER(xIdleTaskHandles)
#endif
#ifndef traceTASK_CREATE_FAILED
#define traceTASK_CREATE_FAILED()
#endif
#ifndef traceTASK_DELAY
#define traceTASK_DELAY()
#endif
#ifdef traceTASK_DELAY_UNTIL /* xTaskDelayUntil works out the wake time for it */
#define TAKT_FREERTOS_TRACES_DELAY_UNTIL 1
#else
#define traceTASK_DELAY_UNTIL(xTimeToWake)
#endif
#ifndef traceTASK_PRIORITY_SET
#define traceTASK_PRIORITY_SET(pxTask, uxNewPriority)
#endif
#ifndef traceQUEUE_CREATE
#define traceQUEUE_CREATE(pxNewQueue)
#endif
#ifndef traceQUEUE_CREATE_FAILED
#define traceQUEUE_CREATE_FAILED(ucQueueType)
#endif
#ifndef traceCREATE_MUTEX
#define traceCREATE_MUTEX(pxNewQueue)
#endif
#ifndef traceCREATE_MUTEX_FAILED
#define traceCREATE_MUTEX_FAILED()
#endif
#ifndef traceCREATE_COUNTING_SEMAPHORE
#define traceCREATE_COUNTING_SEMAPHORE()
#endif
#ifndef traceCREATE_COUNTING_SEMAPHORE_FAILED
#define traceCREATE_COUNTING_SEMAPHORE_FAILED()
#endif
#ifndef traceQUEUE_DELETE
#define traceQUEUE_DELETE(pxQueue)
#endif
#ifndef traceQUEUE_SEND
#define traceQUEUE_SEND(pxQueue)
#endif
#ifndef traceQUEUE_SEND_FAILED
#define traceQUEUE_SEND_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_RECEIVE
#define traceQUEUE_RECEIVE(pxQueue)
#endif
#ifndef traceQUEUE_RECEIVE_FAILED
#define traceQUEUE_RECEIVE_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_PEEK
#define traceQUEUE_PEEK(pxQueue)
#endif
#ifndef traceQUEUE_PEEK_FAILED
#define traceQUEUE_PEEK_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_SEND_FROM_ISR
#define traceQUEUE_SEND_FROM_ISR(pxQueue)
#endif
#ifndef traceQUEUE_SEND_FROM_ISR_FAILED
#define traceQUEUE_SEND_FROM_ISR_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_RECEIVE_FROM_ISR
#define traceQUEUE_RECEIVE_FROM_ISR(pxQueue)
#endif
#ifndef traceQUEUE_RECEIVE_FROM_ISR_FAILED
#define traceQUEUE_RECEIVE_FROM_ISR_FAILED(pxQueue)
#endif
#ifndef traceQUEUE_PEEK_FROM_ISR
#define traceQUEUE_PEEK_FROM_ISR(pxQueue)
#endif
#ifndef traceQUEUE_PEEK_FROM_ISR_FAILED
#define traceQUEUE_PEEK_FROM_ISR_FAILED(pxQueue)
#endif
#ifndef traceTAKE_MUTEX_RECURSIVE
#define traceTAKE_MUTEX_RECURSIVE(pxMutex)
#endif
#ifndef traceTAKE_MUTEX_RECURSIVE_FAILED
#define traceTAKE_MUTEX_RECURSIVE_FAILED(pxMutex)
#endif
#ifndef traceGIVE_MUTEX_RECURSIVE
#define traceGIVE_MUTEX_RECURSIVE(pxMutex)
#endif
#ifndef traceGIVE_MUTEX_RECURSIVE_FAILED
#define traceGIVE_MUTEX_RECURSIVE_FAILED(pxMutex)
#endif
#ifndef traceMALLOC
#define traceMALLOC(pvAddress, uiSize)
#endif
#ifndef traceFREE
#define traceFREE(pvAddress, uiSize)
#endif

#ifndef traceQUEUE_REGISTRY_ADD
#define traceQUEUE_REGISTRY_ADD(xQueue, pcQueueName)
#endif
#ifndef traceTIMER_CREATE
#define traceTIMER_CREATE(pxNewTimer)
#endif
#ifndef traceTIMER_CREATE_FAILED
#define traceTIMER_CREATE_FAILED()
#endif
#ifndef traceTIMER_COMMAND_SEND
#define traceTIMER_COMMAND_SEND(xTimer, xMessageID, xMessageValueValue, xReturn)
#endif
#ifndef traceTIMER_EXPIRED
#define traceTIMER_EXPIRED(pxTimer)
#endif
#ifndef tracePEND_FUNC_CALL
#define tracePEND_FUNC_CALL(xFunctionToPend, pvParameter1, ulParameter2, ret)
#endif
#ifndef tracePEND_FUNC_CALL_FROM_ISR
#define tracePEND_FUNC_CALL_FROM_ISR(xFunctionToPend, pvParameter1, ulParameter2, ret)
#endif
#ifndef traceEVENT_GROUP_CREATE
#define traceEVENT_GROUP_CREATE(xEventGroup)
#endif
#ifndef traceEVENT_GROUP_CREATE_FAILED
#define traceEVENT_GROUP_CREATE_FAILED()
#endif
#ifndef traceEVENT_GROUP_SYNC_END
#define traceEVENT_GROUP_SYNC_END(xEventGroup, uxBitsToSet, uxBitsToWaitFor, xTimeoutOccurred)
#endif
#ifndef traceEVENT_GROUP_WAIT_BITS_END
#define traceEVENT_GROUP_WAIT_BITS_END(xEventGroup, uxBitsToWaitFor, xTimeoutOccurred)
#endif
#ifndef traceEVENT_GROUP_CLEAR_BITS
#define traceEVENT_GROUP_CLEAR_BITS(xEventGroup, uxBitsToClear)
#endif
#ifndef traceEVENT_GROUP_CLEAR_BITS_FROM_ISR
#define traceEVENT_GROUP_CLEAR_BITS_FROM_ISR(xEventGroup, uxBitsToClear)
#endif
#ifndef traceEVENT_GROUP_SET_BITS
#define traceEVENT_GROUP_SET_BITS(xEventGroup, uxBitsToSet)
#endif
#ifndef traceEVENT_GROUP_SET_BITS_FROM_ISR
#define traceEVENT_GROUP_SET_BITS_FROM_ISR(xEventGroup, uxBitsToSet)
#endif
#ifndef traceEVENT_GROUP_DELETE
#define traceEVENT_GROUP_DELETE(xEventGroup)
#endif
#ifndef traceTASK_NOTIFY_TAKE
#define traceTASK_NOTIFY_TAKE(uxIndexToWait)
#endif
#ifndef traceTASK_NOTIFY_WAIT
#define traceTASK_NOTIFY_WAIT(uxIndexToWait)
#endif
#ifndef traceTASK_NOTIFY
#define traceTASK_NOTIFY(uxIndexToNotify)
#endif
#ifndef traceTASK_NOTIFY_FROM_ISR
#define traceTASK_NOTIFY_FROM_ISR(uxIndexToNotify)
#endif
#ifndef traceTASK_NOTIFY_GIVE_FROM_ISR
#define traceTASK_NOTIFY_GIVE_FROM_ISR(uxIndexToNotify)
#endif
#ifndef traceSTREAM_BUFFER_CREATE_FAILED
#define traceSTREAM_BUFFER_CREATE_FAILED(xStreamBufferType)
#endif
#ifndef traceSTREAM_BUFFER_CREATE_STATIC_FAILED
#define traceSTREAM_BUFFER_CREATE_STATIC_FAILED(xReturn, xStreamBufferType)
#endif
#ifndef traceSTREAM_BUFFER_CREATE
#define traceSTREAM_BUFFER_CREATE(pxStreamBuffer, xStreamBufferType)
#endif
#ifndef traceSTREAM_BUFFER_DELETE
#define traceSTREAM_BUFFER_DELETE(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_RESET
#define traceSTREAM_BUFFER_RESET(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_RESET_FROM_ISR
#define traceSTREAM_BUFFER_RESET_FROM_ISR(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_SEND
#define traceSTREAM_BUFFER_SEND(xStreamBuffer, xBytesSent)
#endif
#ifndef traceSTREAM_BUFFER_SEND_FAILED
#define traceSTREAM_BUFFER_SEND_FAILED(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_SEND_FROM_ISR
#define traceSTREAM_BUFFER_SEND_FROM_ISR(xStreamBuffer, xBytesSent)
#endif
#ifndef traceSTREAM_BUFFER_RECEIVE
#define traceSTREAM_BUFFER_RECEIVE(xStreamBuffer, xReceivedLength)
#endif
#ifndef traceSTREAM_BUFFER_RECEIVE_FAILED
#define traceSTREAM_BUFFER_RECEIVE_FAILED(xStreamBuffer)
#endif
#ifndef traceSTREAM_BUFFER_RECEIVE_FROM_ISR
#define traceSTREAM_BUFFER_RECEIVE_FROM_ISR(xStreamBuffer, xReceivedLength)
#endif

#endif
