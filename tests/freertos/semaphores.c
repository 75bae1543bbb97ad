/*
 * Semaphores in the style of the FreeRTOS demos CountSem, RecMutex, GenQTest
 * (priority inheritance) and an interrupt-driven binary semaphore.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */
#include <string.h>

#include "rtos_check.h"
#include "rtos_port.h"
#include "semphr.h"

static SemaphoreHandle_t counting, binary, mutex, recursive;
static StaticSemaphore_t counting_buf;
static TaskHandle_t holder_task, waiter_task;

/* ---- priority inheritance: low holds, high waits, medium must not run in between ---- */
static char trace[16];
static unsigned trace_len;
static UBaseType_t holder_prio_while_waited;

static void note(char c)
{
    if (trace_len + 1 < sizeof(trace)) {
        trace[trace_len++] = c;
    }
}

static void holder(void *arg) /* priority 1 */
{
    (void)arg;
    xSemaphoreTake(mutex, portMAX_DELAY);
    note('h');
    rtos_work_ns(3000000); /* 3 ms; the high task starts waiting meanwhile */
    holder_prio_while_waited = uxTaskPriorityGet(NULL);
    note('H');
    xSemaphoreGive(mutex);
    vTaskSuspend(NULL);
}

static void medium(void *arg) /* priority 2, ready at tick 1: must wait for the mutex chain */
{
    (void)arg;
    vTaskDelay(1);
    note('m');
    vTaskSuspend(NULL);
}

static void waiter(void *arg) /* priority 3, wants the mutex at tick 1 */
{
    (void)arg;
    vTaskDelay(1);
    xSemaphoreTake(mutex, portMAX_DELAY);
    note('w');
    xSemaphoreGive(mutex);
    vTaskSuspend(NULL);
}

/* ---- binary semaphore given by an interrupt ---- */
static unsigned isr_gives;

static void button_isr(void *arg)
{
    (void)arg;
    BaseType_t woken = pdFALSE;
    isr_gives++;
    xSemaphoreGiveFromISR(binary, &woken);
    portYIELD_FROM_ISR(woken);
}

/* ---- recursive mutex ---- */
static unsigned recursion_depth_seen;

static void recurse(int depth)
{
    if (xSemaphoreTakeRecursive(recursive, 0) != pdPASS) {
        return;
    }
    recursion_depth_seen++;
    if (depth > 1) {
        recurse(depth - 1);
    }
    xSemaphoreGiveRecursive(recursive);
}

static volatile BaseType_t other_take_result = -1;

static void other_taker(void *arg)
{
    (void)arg;
    other_take_result = xSemaphoreTakeRecursive(recursive, 0);
    vTaskSuspend(NULL);
}

static void control_task(void *arg) /* priority 4 */
{
    (void)arg;
    /* Counting semaphore: count up to the maximum, then down. */
    bool counting_ok = uxSemaphoreGetCount(counting) == 0;
    for (int i = 0; i < 5; i++) {
        counting_ok = counting_ok && xSemaphoreGive(counting) == pdPASS;
    }
    counting_ok = counting_ok && xSemaphoreGive(counting) == pdFAIL && uxSemaphoreGetCount(counting) == 5;
    for (int i = 0; i < 5; i++) {
        counting_ok = counting_ok && xSemaphoreTake(counting, 0) == pdPASS;
    }
    counting_ok = counting_ok && xSemaphoreTake(counting, 0) == pdFAIL;
    CHECK(counting_ok, "counting semaphore: 5 gives, 6th fails, 5 takes, 6th fails");
    TickType_t t = xTaskGetTickCount();
    CHECK(xSemaphoreTake(counting, 4) == pdFAIL && xTaskGetTickCount() - t == 4, "take times out after 4 ticks");

    /* Inheritance scenario runs while control sleeps. */
    vTaskDelay(10);
    trace[trace_len] = '\0';
    CHECK(strcmp(trace, "hHwm") == 0, "holder finishes before medium runs, waiter gets the mutex next (%s)", trace);
    CHECK(holder_prio_while_waited == 3, "holder inherited the waiter's priority (%lu)",
          (unsigned long)holder_prio_while_waited);
    CHECK(uxTaskPriorityGet(holder_task) == 1, "holder back at its base priority");
    CHECK(xSemaphoreGetMutexHolder(mutex) == NULL, "mutex free at the end");
    /* queue.h's names for the holder, as semphr.h's macros call them in FreeRTOS. */
    CHECK(xSemaphoreTake(mutex, 0) == pdPASS && xQueueGetMutexHolder(mutex) == xTaskGetCurrentTaskHandle() &&
              xQueueGetMutexHolderFromISR(mutex) == xTaskGetCurrentTaskHandle(),
          "xQueueGetMutexHolder names the holder");
    CHECK(xSemaphoreGive(mutex) == pdPASS && xQueueGetMutexHolder(mutex) == NULL &&
              xQueueGetMutexHolder(counting) == NULL,
          "no holder once given, and none for a semaphore that is not a mutex");
    CHECK(xSemaphoreGive(mutex) == pdFAIL, "giving a mutex one does not hold fails");
    /* Recursion is the mutex's, not the call's. */
    CHECK(xSemaphoreTakeRecursive(mutex, 0) == pdPASS && xSemaphoreTakeRecursive(mutex, 0) == pdFAIL &&
              xSemaphoreGiveRecursive(mutex) == pdPASS && xSemaphoreGetMutexHolder(mutex) == NULL,
          "the recursive calls on a plain mutex take and give it once");
    CHECK(xSemaphoreTake(recursive, 0) == pdPASS && xSemaphoreTake(recursive, 0) == pdPASS &&
              xSemaphoreGive(recursive) == pdPASS &&
              xSemaphoreGetMutexHolder(recursive) == xTaskGetCurrentTaskHandle() &&
              xSemaphoreGive(recursive) == pdPASS && xSemaphoreGetMutexHolder(recursive) == NULL,
          "take and give on a recursive mutex count its levels");

    /* Interrupts give a binary semaphore; the task takes each. */
    uint64_t now = rtos_now_ns();
    for (int i = 1; i <= 3; i++) {
        rtos_inject_irq(now + (uint64_t)i * 1500000u, 9, button_isr, NULL);
    }
    unsigned takes = 0;
    while (xSemaphoreTake(binary, 10) == pdPASS) {
        takes++;
    }
    CHECK(takes == 3 && isr_gives == 3, "3 interrupt gives, 3 takes");

    /* Recursive mutex: nests, the holder alone can take it. */
    xSemaphoreTakeRecursive(recursive, 0);
    recurse(4);
    CHECK(recursion_depth_seen == 4, "recursive mutex taken 5 levels deep");
    xTaskCreate(other_taker, "other", configMINIMAL_STACK_SIZE, NULL, 5, NULL);
    CHECK(other_take_result == pdFAIL, "another task cannot take it while held");
    xSemaphoreGiveRecursive(recursive);
    CHECK(xSemaphoreGetMutexHolder(recursive) == NULL, "released after the matching gives");
    CHECK(xSemaphoreGiveRecursive(recursive) == pdFAIL, "one give too many fails");
    vTaskEndScheduler();
}

int main(void)
{
    counting = xSemaphoreCreateCountingStatic(5, 0, &counting_buf);
    binary = xSemaphoreCreateBinary();
    mutex = xSemaphoreCreateMutex();
    recursive = xSemaphoreCreateRecursiveMutex();
    CHECK(counting != NULL && binary != NULL && mutex != NULL && recursive != NULL, "semaphores created");
    xTaskCreate(control_task, "ctl", configMINIMAL_STACK_SIZE, NULL, 4, NULL);
    xTaskCreate(holder, "holder", configMINIMAL_STACK_SIZE, NULL, 1, &holder_task);
    xTaskCreate(medium, "medium", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    xTaskCreate(waiter, "waiter", configMINIMAL_STACK_SIZE, NULL, 3, &waiter_task);
    vTaskStartScheduler();
    return rtos_check_summary();
}
