/*
 * Misuse that must fail cleanly, with and without configASSERT: NULL handles
 * for every queue, semaphore, mutex, queue-set and timer call, event bits in
 * the reserved top byte, a notify action that does not exist, and
 * vTaskStartScheduler from a running task. Each call returns FreeRTOS's
 * failure value (pdFAIL, 0, NULL) and changes nothing;
 * built with configASSERT (freertos_misuse) each also trips it, built
 * without (freertos_misuse_no_assert, TEST_NO_CONFIG_ASSERT) the layer still
 * refuses. Run under ASan and UBSan, a dereference of the NULL handle fails
 * the test as a crash would.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */
#include <limits.h>
#include <stdint.h>

#define RTOS_CHECK_COUNT_ASSERTS
#include "event_groups.h"
#include "queue.h"
#include "rtos_check.h"
#include "semphr.h"
#include "stream_buffer.h"
#include "timers.h"

/* The call's result is right and, with configASSERT, the call tripped it. */
#if configASSERT_DEFINED
#define MISUSE(cond, ...)                                     \
    do {                                                      \
        unsigned long before_ = assertions;                   \
        bool ok_ = (cond);                                    \
        CHECK(ok_ && assertions > before_, __VA_ARGS__);      \
    } while (0)
#else
#define MISUSE(cond, ...) CHECK(cond, __VA_ARGS__)
#endif

static void null_queues(void)
{
    uint32_t item = 7, out = 0;
    BaseType_t woken = pdFALSE;
    MISUSE(xQueueSend(NULL, &item, 0) == pdFAIL, "xQueueSend(NULL) fails");
    MISUSE(xQueueSendToFront(NULL, &item, 0) == pdFAIL, "xQueueSendToFront(NULL) fails");
    MISUSE(xQueueOverwrite(NULL, &item) == pdFAIL, "xQueueOverwrite(NULL) fails");
    MISUSE(xQueueReceive(NULL, &out, 0) == pdFAIL && out == 0, "xQueueReceive(NULL) fails");
    MISUSE(xQueuePeek(NULL, &out, 0) == pdFAIL && out == 0, "xQueuePeek(NULL) fails");
    MISUSE(xQueueSendFromISR(NULL, &item, &woken) == pdFAIL, "xQueueSendFromISR(NULL) fails");
    MISUSE(xQueueOverwriteFromISR(NULL, &item, &woken) == pdFAIL, "xQueueOverwriteFromISR(NULL) fails");
    MISUSE(xQueueReceiveFromISR(NULL, &out, &woken) == pdFAIL && out == 0, "xQueueReceiveFromISR(NULL) fails");
    MISUSE(xQueuePeekFromISR(NULL, &out) == pdFAIL && out == 0, "xQueuePeekFromISR(NULL) fails");
    MISUSE(xQueueReset(NULL) == pdFAIL, "xQueueReset(NULL) fails");
    MISUSE(uxQueueMessagesWaiting(NULL) == 0, "uxQueueMessagesWaiting(NULL) is 0");
    MISUSE(uxQueueMessagesWaitingFromISR(NULL) == 0, "uxQueueMessagesWaitingFromISR(NULL) is 0");
    MISUSE(uxQueueSpacesAvailable(NULL) == 0, "uxQueueSpacesAvailable(NULL) is 0");
    MISUSE(xQueueIsQueueFullFromISR(NULL) == pdFALSE, "xQueueIsQueueFullFromISR(NULL) is pdFALSE");
    MISUSE(xQueueIsQueueEmptyFromISR(NULL) == pdTRUE, "xQueueIsQueueEmptyFromISR(NULL): nothing in it");
    MISUSE((vQueueDelete(NULL), true), "vQueueDelete(NULL) does nothing");
    CHECK(woken == pdFALSE, "no NULL-handle call woke anyone");
}

static void null_semaphores(void)
{
    BaseType_t woken = pdFALSE;
    MISUSE(xSemaphoreTake(NULL, 0) == pdFAIL, "xSemaphoreTake(NULL) fails");
    MISUSE(xSemaphoreGive(NULL) == pdFAIL, "xSemaphoreGive(NULL) fails");
    MISUSE(xSemaphoreTakeFromISR(NULL, &woken) == pdFAIL, "xSemaphoreTakeFromISR(NULL) fails");
    MISUSE(xSemaphoreGiveFromISR(NULL, &woken) == pdFAIL, "xSemaphoreGiveFromISR(NULL) fails");
    MISUSE(xSemaphoreTakeRecursive(NULL, 0) == pdFAIL, "xSemaphoreTakeRecursive(NULL) fails");
    MISUSE(xSemaphoreGiveRecursive(NULL) == pdFAIL, "xSemaphoreGiveRecursive(NULL) fails");
    MISUSE(uxSemaphoreGetCount(NULL) == 0, "uxSemaphoreGetCount(NULL) is 0");
    MISUSE((vSemaphoreDelete(NULL), true), "vSemaphoreDelete(NULL) does nothing");
    CHECK(woken == pdFALSE, "no NULL-handle give woke anyone");
}

#if configUSE_QUEUE_SETS
static void null_sets(QueueHandle_t queue)
{
    MISUSE(xQueueSelectFromSet(NULL, 0) == NULL, "xQueueSelectFromSet(NULL) gives NULL");
    MISUSE(xQueueSelectFromSetFromISR(NULL) == NULL, "xQueueSelectFromSetFromISR(NULL) gives NULL");
    MISUSE(xQueueAddToSet(queue, NULL) == pdFAIL, "xQueueAddToSet(queue, NULL) fails");
    MISUSE(xQueueRemoveFromSet(queue, NULL) == pdFAIL, "xQueueRemoveFromSet(queue, NULL) fails");
}
#endif

static void null_timers(void)
{
    BaseType_t woken = pdFALSE;
    MISUSE(xTimerStart(NULL, 0) == pdFAIL, "xTimerStart(NULL) fails");
    MISUSE(xTimerStop(NULL, 0) == pdFAIL, "xTimerStop(NULL) fails");
    MISUSE(xTimerReset(NULL, 0) == pdFAIL, "xTimerReset(NULL) fails");
    MISUSE(xTimerChangePeriod(NULL, 5, 0) == pdFAIL, "xTimerChangePeriod(NULL) fails");
    MISUSE(xTimerDelete(NULL, 0) == pdFAIL, "xTimerDelete(NULL) fails");
    MISUSE(xTimerStartFromISR(NULL, &woken) == pdFAIL, "xTimerStartFromISR(NULL) fails");
    MISUSE(xTimerStopFromISR(NULL, &woken) == pdFAIL, "xTimerStopFromISR(NULL) fails");
    MISUSE(xTimerResetFromISR(NULL, &woken) == pdFAIL, "xTimerResetFromISR(NULL) fails");
    MISUSE(xTimerChangePeriodFromISR(NULL, 5, &woken) == pdFAIL, "xTimerChangePeriodFromISR(NULL) fails");
    MISUSE(pvTimerGetTimerID(NULL) == NULL, "pvTimerGetTimerID(NULL) is NULL");
    MISUSE((vTimerSetTimerID(NULL, &woken), true), "vTimerSetTimerID(NULL) does nothing");
    MISUSE(xTimerIsTimerActive(NULL) == pdFALSE, "xTimerIsTimerActive(NULL) is pdFALSE");
    MISUSE(pcTimerGetName(NULL) == NULL, "pcTimerGetName(NULL) is NULL");
    MISUSE(xTimerGetPeriod(NULL) == 0, "xTimerGetPeriod(NULL) is 0");
    MISUSE(xTimerGetExpiryTime(NULL) == 0, "xTimerGetExpiryTime(NULL) is 0");
    MISUSE((vTimerSetReloadMode(NULL, pdTRUE), true), "vTimerSetReloadMode(NULL) does nothing");
    MISUSE(xTimerGetReloadMode(NULL) == pdFALSE, "xTimerGetReloadMode(NULL) is pdFALSE");
    MISUSE(uxTimerGetReloadMode(NULL) == 0, "uxTimerGetReloadMode(NULL) is 0");
    CHECK(woken == pdFALSE, "no NULL-handle timer command woke anyone");
}

/* The top byte of an EventBits_t is FreeRTOS's own: a call naming one of its
 * bits changes nothing and answers with the group's bits as they are. */
static void reserved_event_bits(void)
{
    const EventBits_t reserved = 0x01000000u;
    EventGroupHandle_t group = xEventGroupCreate();
    CHECK(group != NULL, "event group created");
    xEventGroupSetBits(group, 0x3u);
    MISUSE(xEventGroupSetBits(group, reserved | 0x4u) == 0x3u && xEventGroupGetBits(group) == 0x3u,
           "xEventGroupSetBits with a reserved bit sets nothing (not even the usable one)");
    MISUSE(xEventGroupClearBits(group, reserved | 0x1u) == 0x3u && xEventGroupGetBits(group) == 0x3u,
           "xEventGroupClearBits with a reserved bit clears nothing");
    TickType_t start = xTaskGetTickCount();
    MISUSE(xEventGroupWaitBits(group, reserved | 0x1u, pdTRUE, pdFALSE, 5) == 0x3u &&
               xTaskGetTickCount() == start && xEventGroupGetBits(group) == 0x3u,
           "xEventGroupWaitBits for a reserved bit returns at once, clears nothing");
    MISUSE(xEventGroupSync(group, reserved, 0x1u, 5) == 0x3u && xTaskGetTickCount() == start &&
               xEventGroupGetBits(group) == 0x3u,
           "xEventGroupSync setting a reserved bit returns at once, changes nothing");
    MISUSE(xEventGroupSetBitsFromISR(group, reserved, NULL) == pdFAIL && xEventGroupGetBits(group) == 0x3u,
           "xEventGroupSetBitsFromISR with a reserved bit fails, sets nothing");
    MISUSE(xEventGroupClearBitsFromISR(group, reserved) == pdFAIL && xEventGroupGetBits(group) == 0x3u,
           "xEventGroupClearBitsFromISR with a reserved bit fails, clears nothing");
    vEventGroupDelete(group);
}

static void unknown_notify_action(void)
{
    TaskHandle_t self = xTaskGetCurrentTaskHandle();
    uint32_t previous = 99;
    MISUSE(xTaskNotifyAndQuery(self, 5, (eNotifyAction)42, &previous) == pdFAIL && previous == 99,
           "xTaskNotify with an action that does not exist fails");
    CHECK(ulTaskNotifyTake(pdTRUE, 0) == 0, "and leaves no notification pending, the value unchanged");
}

/* From a task the scheduler runs already: the call returns and the same
 * scheduler goes on (the tick keeps counting, the queue keeps its item). */
static void start_from_task(QueueHandle_t queue)
{
    uint32_t item = 3, out = 0;
    CHECK(xQueueSend(queue, &item, 0) == pdPASS, "an item in the queue");
    TickType_t before = xTaskGetTickCount();
    MISUSE((vTaskStartScheduler(), true), "vTaskStartScheduler from a task returns");
    vTaskDelay(2);
    CHECK(xTaskGetTickCount() == before + 2, "and the scheduler goes on");
    CHECK(xQueueReceive(queue, &out, 0) == pdPASS && out == 3, "with its queue's item");
}

#if configASSERT_DEFINED
/* A task's call from an interrupt fails, and its assertion names the API
 * function that took the kernel's refusal: the lines differ per function
 * (the layer's shared result conversion once put them all on one line). */
static QueueHandle_t isr_queue;
static SemaphoreHandle_t isr_sem;
static StreamBufferHandle_t isr_stream;
static TimerHandle_t isr_timer;
static TaskHandle_t isr_notified;
static volatile int isr_send_line, isr_take_line, isr_results_failed;
static volatile int isr_stream_send_line, isr_stream_receive_line, isr_timer_start_line, isr_timer_stop_line;
static volatile int isr_notify_line, isr_notify_index_line, isr_other_results_failed;

static void isr_task_calls(void *arg)
{
    (void)arg;
    uint32_t item = 1;
    bool failed = xQueueSend(isr_queue, &item, 0) == pdFAIL;
    isr_send_line = last_assert_line;
    failed = failed && xSemaphoreTake(isr_sem, 0) == pdFAIL;
    isr_take_line = last_assert_line;
    isr_results_failed = failed;
    /* The stream buffer, timer and notification calls' shared conversions. */
    uint8_t byte = 7;
    failed = xStreamBufferSend(isr_stream, &byte, 1, 0) == 0;
    isr_stream_send_line = last_assert_line;
    failed = failed && xStreamBufferReceive(isr_stream, &byte, 1, 0) == 0;
    isr_stream_receive_line = last_assert_line;
    last_assert_line = 0;
    failed = failed && xTimerStart(isr_timer, 0) == pdFAIL;
    isr_timer_start_line = last_assert_line;
    last_assert_line = 0;
    failed = failed && xTimerStop(isr_timer, 0) == pdFAIL;
    isr_timer_stop_line = last_assert_line;
    failed = failed && xTaskNotify(isr_notified, 1u, eSetBits) == pdFAIL;
    isr_notify_line = last_assert_line;
    BaseType_t woken = pdFALSE;
    failed = failed && xTaskNotifyIndexedFromISR(isr_notified, 99u, 1u, eSetBits, &woken) == pdFAIL;
    isr_notify_index_line = last_assert_line;
    isr_other_results_failed = failed;
}

static void ignore_timer(TimerHandle_t timer)
{
    (void)timer;
}

static void task_calls_from_isr(void)
{
    isr_queue = xQueueCreate(1, sizeof(uint32_t));
    isr_sem = xSemaphoreCreateBinary();
    isr_stream = xStreamBufferCreate(8, 1);
    isr_timer = xTimerCreate("isr", 5, pdFALSE, NULL, ignore_timer);
    isr_notified = xTaskGetCurrentTaskHandle();
    unsigned long before = assertions;
    rtos_inject_irq(rtos_now_ns() + RTOS_TICK_NS + RTOS_TICK_NS / 2, 9, isr_task_calls, NULL);
    vTaskDelay(3);
    CHECK(isr_results_failed && isr_other_results_failed && assertions == before + 8,
          "xQueueSend, xSemaphoreTake, the stream buffer's, timer's and notification calls refused in an "
          "interrupt fail, one assertion each (%lu)", assertions - before);
    CHECK(isr_stream_send_line != isr_stream_receive_line && isr_timer_start_line != isr_timer_stop_line &&
              isr_notify_line != isr_notify_index_line && isr_stream_send_line != 0 && isr_timer_start_line != 0 &&
              isr_timer_stop_line != 0 && isr_notify_line != 0,
          "each at its own API function's line: stream %d/%d, timer %d/%d, notify %d/%d", isr_stream_send_line,
          isr_stream_receive_line, isr_timer_start_line, isr_timer_stop_line, isr_notify_line,
          isr_notify_index_line);
    CHECK(isr_send_line != 0 && isr_take_line != 0 && isr_send_line != isr_take_line,
          "each assertion at its own API function's line (%d, %d)", isr_send_line, isr_take_line);
    CHECK(uxQueueMessagesWaiting(isr_queue) == 0 && uxSemaphoreGetCount(isr_sem) == 0,
          "and nothing changed");
    vQueueDelete(isr_queue);
    vSemaphoreDelete(isr_sem);
}
#endif

/* NULL for a timeout's state: nothing is written, and the check answers
 * "timed out", which ends a caller's retry loop. */
static void null_timeouts(void)
{
    TimeOut_t timeout = {0};
    TickType_t wait = 5;
    MISUSE((vTaskSetTimeOutState(NULL), true), "vTaskSetTimeOutState(NULL) does nothing");
    MISUSE(xTaskCheckForTimeOut(NULL, &wait) == pdTRUE && wait == 5, "xTaskCheckForTimeOut(NULL, ...) times out");
    MISUSE(xTaskCheckForTimeOut(&timeout, NULL) == pdTRUE, "xTaskCheckForTimeOut(..., NULL) times out");
}

static void never_runs(void *arg)
{
    (void)arg;
}

/* Sizes whose bytes or bits do not fit the kernel's types are refused, not
 * cut to a small valid value: a stack depth whose bytes wrap size_t (from
 * 2^30 words on a 32-bit target), and on a 64-bit host a queue length,
 * initial count or notification index beyond 32 bits. */
static void oversized_arguments(void)
{
    TaskHandle_t task = NULL;
    configSTACK_DEPTH_TYPE wrapping = (configSTACK_DEPTH_TYPE)(SIZE_MAX / sizeof(StackType_t) + 1u) +
                                      configMINIMAL_STACK_SIZE * 2u;
    CHECK(xTaskCreate(never_runs, "wraps", wrapping, NULL, 1, &task) == errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY &&
              task == NULL,
          "a stack depth whose bytes wrap is refused");
#if ULONG_MAX > 0xFFFFFFFFu
    const UBaseType_t beyond = ((UBaseType_t)1 << 32) | 1u;
    CHECK(xQueueCreate(beyond, sizeof(uint32_t)) == NULL && xQueueCreate(beyond, 0) == NULL,
          "a queue length beyond 32 bits is refused");
    static StaticQueue_t queue_buffer;
    static uint8_t storage[sizeof(uint32_t)];
    CHECK(xQueueCreateStatic(beyond, sizeof(uint32_t), storage, &queue_buffer) == NULL,
          "and so it is for a static queue");
    MISUSE(xSemaphoreCreateCounting(2, (UBaseType_t)1 << 32) == NULL, "an initial count beyond 32 bits is refused");
    uint32_t value = 0;
    MISUSE(xTaskNotifyIndexed(xTaskGetCurrentTaskHandle(), beyond - 1u, 0x42, eSetValueWithOverwrite) == pdFAIL,
           "a notification index beyond 32 bits is refused");
    CHECK(xTaskNotifyWaitIndexed(0, 0, 0, &value, 0) == pdFALSE, "and slot 0, its low bits, has nothing");
#endif
}

static void misuser(void *arg)
{
    (void)arg;
    QueueHandle_t queue = xQueueCreate(2, sizeof(uint32_t));
    CHECK(queue != NULL, "queue created");
    null_queues();
    null_semaphores();
#if configUSE_QUEUE_SETS
    null_sets(queue);
#endif
    null_timers();
    reserved_event_bits();
    unknown_notify_action();
    null_timeouts();
    oversized_arguments();
    start_from_task(queue);
#if configASSERT_DEFINED
    task_calls_from_isr();
#endif
    CHECK(uxQueueMessagesWaiting(queue) == 0 && uxQueueSpacesAvailable(queue) == 2,
          "the real queue untouched by the misuse around it");
    vQueueDelete(queue);
    vTaskEndScheduler();
}

int main(void)
{
    xTaskCreate(misuser, "misuse", configMINIMAL_STACK_SIZE * 2, NULL, 2, NULL);
    vTaskStartScheduler();
    return rtos_check_summary();
}
