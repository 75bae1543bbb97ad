/*
 * uxTaskGetNumberOfTasks, xTaskGetHandle, xTaskGetIdleTaskHandle and
 * xTaskAbortDelay through the FreeRTOS API (sim port, 1 tick = 1 ms): a delay,
 * an indefinite queue receive and a notification take, each aborted; what is
 * not Blocked gives pdFAIL. Then xTaskCatchUpTicks: a higher-priority task
 * whose delay ends in the caught-up ticks runs once all are counted.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include <string.h>

#include "queue.h"
#include "rtos_check.h"

static TaskHandle_t ctl, sleeper, receiver, taker;
static QueueHandle_t queue;
static TickType_t sleeper_woke = 0xFFFFu, receiver_woke = 0xFFFFu, taker_woke = 0xFFFFu;
static TickType_t riser_woke = 0xFFFFu;
static BaseType_t receive_result = 99;
static uint32_t take_result = 99;

static void sleeper_task(void *arg)
{
    (void)arg;
    vTaskDelay(1000);
    sleeper_woke = xTaskGetTickCount();
    vTaskSuspend(NULL);
}

static void receiver_task(void *arg)
{
    (void)arg;
    uint32_t item;
    receive_result = xQueueReceive(queue, &item, portMAX_DELAY);
    receiver_woke = xTaskGetTickCount();
    vTaskSuspend(NULL);
}

static void taker_task(void *arg)
{
    (void)arg;
    take_result = ulTaskNotifyTake(pdTRUE, 500);
    taker_woke = xTaskGetTickCount();
    vTaskSuspend(NULL);
}

static void riser_task(void *arg)
{
    (void)arg;
    vTaskDelay(2);
    riser_woke = xTaskGetTickCount();
    vTaskSuspend(NULL);
}

static void catch_up(void)
{
    TaskHandle_t riser = NULL;
    CHECK(xTaskCreate(riser_task, "riser", configMINIMAL_STACK_SIZE, NULL, 4, &riser) == pdPASS,
          "a task above the control task, which delays 2 ticks");
    TickType_t before = xTaskGetTickCount();
    CHECK(xTaskCatchUpTicks(0) == pdFALSE && xTaskGetTickCount() == before, "xTaskCatchUpTicks(0): nothing");
    CHECK(xTaskCatchUpTicks(3) == pdTRUE, "xTaskCatchUpTicks(3): the woken task ran before it returned");
    CHECK(xTaskGetTickCount() == before + 3 && riser_woke == before + 3,
          "all three ticks counted before the woken task ran (%lu, woke %lu)",
          (unsigned long)(xTaskGetTickCount() - before), (unsigned long)(riser_woke - before));
    CHECK(xTaskCatchUpTicks(1) == pdFALSE && xTaskGetTickCount() == before + 4,
          "a tick that wakes nobody: no switch");
    vTaskDelay(1);
    CHECK(xTaskGetTickCount() == before + 5, "the next real tick goes on from there");
    vTaskDelete(riser);
}

static void control_task(void *arg)
{
    (void)arg;
    CHECK(uxTaskGetNumberOfTasks() == 5, "5 tasks: idle, control and three others (%lu)",
          (unsigned long)uxTaskGetNumberOfTasks());
    CHECK(xTaskGetHandle("sleeper") == sleeper && xTaskGetHandle("ctl") == ctl, "xTaskGetHandle by name");
    CHECK(xTaskGetHandle("nobody") == NULL, "xTaskGetHandle: NULL for an unknown name");
    TaskHandle_t idle = xTaskGetIdleTaskHandle();
    CHECK(idle != NULL && idle != ctl && uxTaskPriorityGet(idle) == 0 && eTaskGetState(idle) == eReady,
          "xTaskGetIdleTaskHandle: the idle task, ready at priority 0");
    CHECK(xTaskAbortDelay(sleeper) == pdFAIL, "xTaskAbortDelay on a task that has not blocked yet: refused");

    vTaskDelay(2); /* the others block at 0 */
    CHECK(eTaskGetState(sleeper) == eBlocked && xTaskAbortDelay(sleeper) == pdPASS,
          "xTaskAbortDelay on a delaying task: pdPASS");
    CHECK(xTaskAbortDelay(sleeper) == pdFAIL, "a second abort: the task is ready, refused");
    vTaskDelay(1);
    CHECK(sleeper_woke == 2, "the delay of 1000 ended at tick 2 (%lu)", (unsigned long)sleeper_woke);
    CHECK(xTaskAbortDelay(receiver) == pdPASS && xTaskAbortDelay(taker) == pdPASS,
          "abort an indefinite queue receive and a notification take");
    vTaskDelay(1);
    CHECK(receive_result == pdFALSE && receiver_woke == 3, "xQueueReceive returned pdFALSE at tick 3");
    CHECK(take_result == 0 && taker_woke == 3, "ulTaskNotifyTake returned 0 at tick 3");
    uint32_t item = 7;
    CHECK(xQueueSend(queue, &item, 0) == pdPASS && uxQueueMessagesWaiting(queue) == 1,
          "the aborted receiver left the queue's waiters: the item stays");
    CHECK(eTaskGetState(sleeper) == eSuspended && xTaskAbortDelay(sleeper) == pdFAIL,
          "xTaskAbortDelay on a suspended task: refused");
    CHECK(xTaskAbortDelay(ctl) == pdFAIL, "xTaskAbortDelay on the running task: refused");
    vTaskDelete(taker);
    CHECK(uxTaskGetNumberOfTasks() == 4 && xTaskGetHandle("taker") == NULL,
          "a deleted task no longer counts nor is found");
    catch_up();
    vTaskEndScheduler();
}

int main(void)
{
    queue = xQueueCreate(2, sizeof(uint32_t));
    CHECK(queue != NULL, "queue");
    CHECK(xTaskCreate(control_task, "ctl", configMINIMAL_STACK_SIZE, NULL, 3, &ctl) == pdPASS &&
              xTaskCreate(sleeper_task, "sleeper", configMINIMAL_STACK_SIZE, NULL, 2, &sleeper) == pdPASS &&
              xTaskCreate(receiver_task, "receiver", configMINIMAL_STACK_SIZE, NULL, 2, &receiver) == pdPASS &&
              xTaskCreate(taker_task, "taker", configMINIMAL_STACK_SIZE, NULL, 2, &taker) == pdPASS,
          "tasks");
    CHECK(uxTaskGetNumberOfTasks() == 5, "before the start: idle and the four");
    vTaskStartScheduler();
    return rtos_check_summary();
}
