/*
 * The FromISR calls made from a task, as FreeRTOS's ports allow (driver code
 * shared by an interrupt and a task calls them from both): each does what
 * the task's call does without waiting, and no configASSERT trips (this
 * program aborts on one). A task the call makes ready that outranks the
 * caller runs before the call returns, so *pxHigherPriorityTaskWoken stays
 * pdFALSE: the switch it would ask for has happened. Inside a critical
 * section that switch waits for the section's end.
 *
 * "ctl" (priority 2) makes the calls; "high" (priority 3) waits on one
 * object after another and counts each time it is served.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include "event_groups.h"
#include "queue.h"
#include "rtos_check.h"
#include "semphr.h"
#include "stream_buffer.h"
#include "timers.h"

#define HIGH_PRIORITY 3
#define BIT_FROM_TASK 0x4u

static SemaphoreHandle_t sem, counting;
static QueueHandle_t queue, full_queue, mailbox;
static QueueSetHandle_t set;
static QueueHandle_t set_member;
static EventGroupHandle_t events;
static StreamBufferHandle_t stream;
static TimerHandle_t timer;
static TaskHandle_t high_handle;

static volatile int high_served;
static volatile uint32_t high_value;
static volatile int pended_runs, timer_runs;

/* Each step waits on the next object; high_served counts the waits that
 * ended with what was waited for. */
static void high_task(void *arg)
{
    (void)arg;
    uint32_t item = 0;
    uint8_t bytes[4] = {0};
    if (xSemaphoreTake(sem, portMAX_DELAY) == pdTRUE) { /* step 1: a give */
        high_served++;
    }
    if (xQueueReceive(queue, &item, portMAX_DELAY) == pdTRUE) { /* step 2: a send */
        high_value = item;
        high_served++;
    }
    item = 77;
    if (xQueueSend(full_queue, &item, portMAX_DELAY) == pdTRUE) { /* step 3: a receive */
        high_served++;
    }
    high_value = ulTaskNotifyTake(pdTRUE, portMAX_DELAY); /* step 4: a notify give */
    high_served++;
    uint32_t value = 0;
    if (xTaskNotifyWait(0, 0xFFFFFFFFu, &value, portMAX_DELAY) == pdTRUE) { /* step 5 */
        high_value = value;
        high_served++;
    }
    if (xEventGroupWaitBits(events, BIT_FROM_TASK, pdTRUE, pdTRUE, portMAX_DELAY) ==
        BIT_FROM_TASK) { /* step 6: set bits */
        high_served++;
    }
    vTaskSuspend(NULL); /* step 7: a resume */
    high_served++;
    if (xStreamBufferReceive(stream, bytes, sizeof bytes, portMAX_DELAY) == 3) { /* step 8 */
        high_value = bytes[2];
        high_served++;
    }
    if (xSemaphoreTake(sem, portMAX_DELAY) == pdTRUE) { /* step 9: a give in a section */
        high_served++;
    }
    vTaskDelete(NULL);
}

static void pended(void *arg1, uint32_t arg2)
{
    (void)arg1;
    pended_runs += (int)arg2;
}

static void on_timer(TimerHandle_t expired)
{
    (void)expired;
    timer_runs++;
}

static void control_task(void *arg)
{
    (void)arg;
    BaseType_t woken = pdFALSE;
    uint32_t item = 5, out = 0;

    CHECK(xSemaphoreGiveFromISR(sem, &woken) == pdPASS && high_served == 1 && woken == pdFALSE,
          "xSemaphoreGiveFromISR from a task serves the waiter, which runs before it returns");
    CHECK(xSemaphoreGiveFromISR(sem, &woken) == pdPASS && xSemaphoreGiveFromISR(sem, &woken) == pdFAIL &&
              uxSemaphoreGetCount(sem) == 1,
          "a give to a full binary semaphore fails");
    CHECK(xSemaphoreTakeFromISR(sem, &woken) == pdPASS && xSemaphoreTakeFromISR(sem, &woken) == pdFAIL,
          "xSemaphoreTakeFromISR takes the unit, then fails without waiting");
    CHECK(xSemaphoreTakeFromISR(counting, &woken) == pdPASS && uxSemaphoreGetCount(counting) == 2,
          "xSemaphoreTakeFromISR on a counting semaphore: 3 -> 2");

    CHECK(xQueueSendFromISR(queue, &item, &woken) == pdPASS && high_served == 2 && high_value == 5 &&
              woken == pdFALSE,
          "xQueueSendFromISR hands the item to the waiting receiver, which runs before it returns");
    item = 6;
    CHECK(xQueueSendToBackFromISR(queue, &item, &woken) == pdPASS &&
              (item = 7, xQueueSendToFrontFromISR(queue, &item, &woken)) == pdPASS &&
              xQueuePeekFromISR(queue, &out) == pdPASS && out == 7 && uxQueueMessagesWaiting(queue) == 2,
          "xQueueSendToFrontFromISR puts 7 before 6; xQueuePeekFromISR sees it and leaves it");
    CHECK(xQueueSendFromISR(queue, &item, &woken) == errQUEUE_FULL && uxQueueMessagesWaiting(queue) == 2,
          "xQueueSendFromISR to a full queue fails at once");
    CHECK(xQueueReceiveFromISR(queue, &out, &woken) == pdPASS && out == 7 &&
              xQueueReceiveFromISR(queue, &out, &woken) == pdPASS && out == 6 &&
              xQueueReceiveFromISR(queue, &out, &woken) == pdFAIL,
          "xQueueReceiveFromISR takes 7, 6, then fails without waiting");

    CHECK(high_served == 2 && uxQueueMessagesWaiting(full_queue) == 1, "high waits to send to a full queue");
    CHECK(xQueueReceiveFromISR(full_queue, &out, &woken) == pdPASS && out == 41 && high_served == 3 &&
              uxQueueMessagesWaiting(full_queue) == 1 && woken == pdFALSE,
          "xQueueReceiveFromISR makes room; the waiting sender runs before it returns");
    item = 8;
    CHECK(xQueueOverwriteFromISR(mailbox, &item, &woken) == pdPASS &&
              (item = 9, xQueueOverwriteFromISR(mailbox, &item, &woken)) == pdPASS &&
              xQueuePeek(mailbox, &out, 0) == pdPASS && out == 9,
          "xQueueOverwriteFromISR replaces the mailbox's item");

    vTaskNotifyGiveFromISR(high_handle, &woken);
    CHECK(high_served == 4 && high_value == 1 && woken == pdFALSE,
          "vTaskNotifyGiveFromISR: the taker runs before it returns");
    CHECK(xTaskNotifyFromISR(high_handle, 0x30, eSetBits, &woken) == pdPASS && high_served == 5 &&
              high_value == 0x30 && woken == pdFALSE,
          "xTaskNotifyFromISR: the waiter gets 0x30 before it returns");

    CHECK(xEventGroupSetBitsFromISR(events, BIT_FROM_TASK, &woken) == pdPASS && high_served == 6 &&
              woken == pdFALSE && xEventGroupGetBits(events) == 0,
          "xEventGroupSetBitsFromISR sets the bits at once; the waiter runs and clears them");
    CHECK(xEventGroupSetBitsFromISR(events, 0x1u, &woken) == pdPASS &&
              xEventGroupClearBitsFromISR(events, 0x1u) == pdPASS && xEventGroupGetBits(events) == 0,
          "xEventGroupSetBitsFromISR / ClearBitsFromISR with no waiter");

    CHECK(eTaskGetState(high_handle) == eSuspended, "high suspended itself");
    (void)xTaskResumeFromISR(high_handle);
    CHECK(high_served == 7, "xTaskResumeFromISR: the resumed task runs before it returns");

    const uint8_t bytes[3] = {1, 2, 3};
    CHECK(xStreamBufferSendFromISR(stream, bytes, sizeof bytes, &woken) == 3 && high_served == 8 &&
              high_value == 3 && woken == pdFALSE,
          "xStreamBufferSendFromISR: the reader gets the 3 bytes before it returns");
    uint8_t back[3] = {0};
    CHECK(xStreamBufferSendFromISR(stream, bytes, 2, &woken) == 2 &&
              xStreamBufferReceiveFromISR(stream, back, sizeof back, &woken) == 2 && back[1] == 2 &&
              xStreamBufferResetFromISR(stream) == pdPASS,
          "xStreamBufferReceiveFromISR and ResetFromISR from a task");

    item = 12;
    (void)xQueueSend(set_member, &item, 0);
    CHECK(xQueueSelectFromSetFromISR(set) == set_member && xQueueReceive(set_member, &out, 0) == pdPASS &&
              xQueueSelectFromSetFromISR(set) == NULL,
          "xQueueSelectFromSetFromISR selects the member holding an item, then none");

    /* The timer task (priority configMAX_PRIORITIES - 1) outranks ctl. */
    CHECK(xTimerPendFunctionCallFromISR(pended, NULL, 4, &woken) == pdPASS && pended_runs == 4 &&
              woken == pdFALSE,
          "xTimerPendFunctionCallFromISR: the timer task runs the call before it returns");
    CHECK(xTimerStartFromISR(timer, &woken) == pdPASS && xTimerIsTimerActive(timer) == pdTRUE &&
              xTimerChangePeriodFromISR(timer, 3, &woken) == pdPASS && xTimerGetPeriod(timer) == 3,
          "xTimerStartFromISR and ChangePeriodFromISR take effect before they return");
    vTaskDelay(4);
    CHECK(timer_runs == 1 && xTimerResetFromISR(timer, &woken) == pdPASS &&
              xTimerStopFromISR(timer, &woken) == pdPASS && xTimerIsTimerActive(timer) == pdFALSE,
          "the timer expired once; ResetFromISR and StopFromISR");

    /* In a critical section the switch waits for the section's end, as a
     * task's give does there. */
    taskENTER_CRITICAL();
    BaseType_t given = xSemaphoreGiveFromISR(sem, &woken);
    int served_inside = high_served;
    taskEXIT_CRITICAL();
    CHECK(given == pdPASS && served_inside == 8 && high_served == 9 && woken == pdFALSE,
          "in a critical section the waiter runs at the section's end (%d then %d)", served_inside,
          high_served);

    vTaskEndScheduler();
}

int main(void)
{
    sem = xSemaphoreCreateBinary();
    counting = xSemaphoreCreateCounting(3, 3);
    queue = xQueueCreate(2, sizeof(uint32_t));
    full_queue = xQueueCreate(1, sizeof(uint32_t));
    mailbox = xQueueCreate(1, sizeof(uint32_t));
    set = xQueueCreateSet(2);
    set_member = xQueueCreate(2, sizeof(uint32_t));
    events = xEventGroupCreate();
    stream = xStreamBufferCreate(8, 1);
    timer = xTimerCreate("t", 2, pdFALSE, NULL, on_timer);
    uint32_t first = 41;
    CHECK(sem != NULL && counting != NULL && queue != NULL && full_queue != NULL &&
              xQueueSend(full_queue, &first, 0) == pdPASS && mailbox != NULL &&
              set != NULL && set_member != NULL && xQueueAddToSet(set_member, set) == pdPASS &&
              events != NULL && stream != NULL && timer != NULL,
          "objects created");
    xTaskCreate(control_task, "ctl", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    xTaskCreate(high_task, "high", configMINIMAL_STACK_SIZE, NULL, HIGH_PRIORITY, &high_handle);
    vTaskStartScheduler();
    return rtos_check_summary();
}
