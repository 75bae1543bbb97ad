/*
 * FreeRTOS's trace macros as an application defines them, for
 * tests/freertos/trace_macros.c (FreeRTOSConfig.h includes this with
 * TEST_TRACE_MACROS): each records its kind, its subject and a value.
 */
#ifndef TRACE_MACROS_CONFIG_H
#define TRACE_MACROS_CONFIG_H

void test_trace(char kind, const void *subject, unsigned long value);
/* As test_trace, with the task the macro ran in (the blocking macros). */
void test_trace_in(char kind, const void *task, const void *subject, unsigned long value);

#define traceTASK_SWITCHED_OUT() test_trace('o', pxCurrentTCB, 0)
#define traceTASK_SWITCHED_IN() test_trace('i', pxCurrentTCB, 0)
#define traceTASK_INCREMENT_TICK(xTickCount) test_trace('t', 0, (unsigned long)(xTickCount))
#define traceTASK_CREATE(pxNewTCB) test_trace('c', (pxNewTCB), 0)
#define traceTASK_CREATE_FAILED() test_trace('C', 0, 0)
#define traceTASK_DELETE(pxTaskToDelete) test_trace('d', (pxTaskToDelete), 0)
#define traceTASK_SUSPEND(pxTaskToSuspend) test_trace('s', (pxTaskToSuspend), 0)
#define traceTASK_RESUME(pxTaskToResume) test_trace('r', (pxTaskToResume), 0)
#define traceTASK_RESUME_FROM_ISR(pxTaskToResume) test_trace('R', (pxTaskToResume), 0)
#define traceMOVED_TASK_TO_READY_STATE(pxTCB) test_trace('m', (pxTCB), 0)
#define traceBLOCKING_ON_QUEUE_RECEIVE(pxQueue) test_trace('b', (pxQueue), 0)
#define traceBLOCKING_ON_QUEUE_PEEK(pxQueue) test_trace('v', (pxQueue), 0)
#define traceBLOCKING_ON_QUEUE_SEND(pxQueue) test_trace('h', (pxQueue), 0)
#define traceBLOCKING_ON_STREAM_BUFFER_RECEIVE(xStreamBuffer) test_trace('z', (xStreamBuffer), 0)
#define traceTASK_PRIORITY_INHERIT(pxTCBOfMutexHolder, uxInheritedPriority) \
    test_trace('I', (pxTCBOfMutexHolder), (unsigned long)(uxInheritedPriority))
#define traceTASK_PRIORITY_DISINHERIT(pxTCBOfMutexHolder, uxOriginalPriority) \
    test_trace('J', (pxTCBOfMutexHolder), (unsigned long)(uxOriginalPriority))
#define traceSTARTING_SCHEDULER(xIdleTaskHandles) test_trace('S', (xIdleTaskHandles)[0], 0)
#define traceTASK_DELAY() test_trace('D', pxCurrentTCB, 0)
#define traceTASK_DELAY_UNTIL(xTimeToWake) test_trace('U', pxCurrentTCB, (unsigned long)(xTimeToWake))
#define traceTASK_PRIORITY_SET(pxTask, uxNewPriority) test_trace('P', (pxTask), (unsigned long)(uxNewPriority))
#define traceQUEUE_CREATE(pxNewQueue) test_trace('q', (pxNewQueue), 0)
#define traceCREATE_MUTEX(pxNewQueue) test_trace('M', (pxNewQueue), 0)
#define traceQUEUE_DELETE(pxQueue) test_trace('x', (pxQueue), 0)
#define traceQUEUE_SEND(pxQueue) test_trace('>', (pxQueue), 0)
#define traceQUEUE_SEND_FAILED(pxQueue) test_trace(')', (pxQueue), 0)
#define traceQUEUE_RECEIVE(pxQueue) test_trace('<', (pxQueue), 0)
#define traceQUEUE_RECEIVE_FAILED(pxQueue) test_trace('(', (pxQueue), 0)
#define traceQUEUE_SEND_FROM_ISR(pxQueue) test_trace('}', (pxQueue), 0)
#define traceMALLOC(pvAddress, uiSize) test_trace('a', (pvAddress), (unsigned long)(uiSize))
#define traceFREE(pvAddress, uiSize) test_trace('f', (pvAddress), (unsigned long)(uiSize))
#define traceQUEUE_REGISTRY_ADD(xQueue, pcQueueName) test_trace('g', (xQueue), 0)
#define traceEVENT_GROUP_CREATE(xEventGroup) test_trace('E', (xEventGroup), 0)
#define traceEVENT_GROUP_SET_BITS(xEventGroup, uxBitsToSet) test_trace('+', (xEventGroup), (unsigned long)(uxBitsToSet))
#define traceEVENT_GROUP_CLEAR_BITS(xEventGroup, uxBitsToClear) \
    test_trace('-', (xEventGroup), (unsigned long)(uxBitsToClear))
#define traceEVENT_GROUP_WAIT_BITS_END(xEventGroup, uxBitsToWaitFor, xTimeoutOccurred) \
    test_trace('w', (xEventGroup), (unsigned long)(xTimeoutOccurred))
#define traceEVENT_GROUP_DELETE(xEventGroup) test_trace('e', (xEventGroup), 0)
#define traceTASK_NOTIFY(uxIndexToNotify) test_trace('n', pxCurrentTCB, (unsigned long)(uxIndexToNotify))
#define traceTASK_NOTIFY_TAKE(uxIndexToWait) test_trace('k', pxCurrentTCB, (unsigned long)(uxIndexToWait))
/* The blocking ones: a sync's value is its bits to set << 16 | its bits to wait for. */
#define traceEVENT_GROUP_WAIT_BITS_BLOCK(xEventGroup, uxBitsToWaitFor) \
    test_trace_in('W', pxCurrentTCB, (xEventGroup), (unsigned long)(uxBitsToWaitFor))
#define traceEVENT_GROUP_SYNC_BLOCK(xEventGroup, uxBitsToSet, uxBitsToWaitFor) \
    test_trace_in('Y', pxCurrentTCB, (xEventGroup),                          \
                  (unsigned long)(uxBitsToSet) << 16 | (unsigned long)(uxBitsToWaitFor))
#define traceTASK_NOTIFY_TAKE_BLOCK(uxIndexToWait) \
    test_trace_in('K', pxCurrentTCB, pxCurrentTCB, (unsigned long)(uxIndexToWait))
#define traceTASK_NOTIFY_WAIT_BLOCK(uxIndexToWait) \
    test_trace_in('N', pxCurrentTCB, pxCurrentTCB, (unsigned long)(uxIndexToWait))
#define traceTIMER_CREATE(pxNewTimer) test_trace('T', (pxNewTimer), 0)
#define traceTIMER_COMMAND_SEND(xTimer, xMessageID, xMessageValueValue, xReturn) \
    test_trace('Q', (xTimer), (unsigned long)(xMessageID) * 1000u + (unsigned long)(xReturn))
#define traceTIMER_EXPIRED(pxTimer) test_trace('X', (pxTimer), 0)
#define tracePEND_FUNC_CALL(xFunctionToPend, pvParameter1, ulParameter2, ret) \
    test_trace('p', (pvParameter1), (unsigned long)(ulParameter2))
#define traceSTREAM_BUFFER_CREATE(pxStreamBuffer, xStreamBufferType) test_trace('B', (pxStreamBuffer), 0)
#define traceSTREAM_BUFFER_SEND(xStreamBuffer, xBytesSent) test_trace('[', (xStreamBuffer), (unsigned long)(xBytesSent))
#define traceSTREAM_BUFFER_RECEIVE(xStreamBuffer, xReceivedLength) \
    test_trace(']', (xStreamBuffer), (unsigned long)(xReceivedLength))
#define traceSTREAM_BUFFER_RECEIVE_FAILED(xStreamBuffer) test_trace('{', (xStreamBuffer), 0)

#endif
