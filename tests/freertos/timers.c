/*
 * Software timers in the style of the FreeRTOS demo TimerDemo: auto-reload
 * timers counting expiries at their period, a one-shot, stop / reset /
 * change-period, timer IDs, a start from an interrupt, and a pended call.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */
#include <string.h>

#include "rtos_check.h"
#include "rtos_port.h"
#include "timers.h"

static TimerHandle_t every3, every5, oneshot, from_isr;
static StaticTimer_t every5_buf;
static unsigned expiries[4];
static TickType_t last_expiry[4];
static unsigned pended_calls;
static uint32_t pended_arg;

static void count_expiry(TimerHandle_t timer)
{
    uintptr_t which = (uintptr_t)pvTimerGetTimerID(timer);
    expiries[which]++;
    last_expiry[which] = xTaskGetTickCount();
}

static void pended(void *arg1, uint32_t arg2)
{
    (void)arg1;
    pended_calls++;
    pended_arg = arg2;
}

static void start_isr(void *arg)
{
    (void)arg;
    BaseType_t woken = pdFALSE;
    xTimerStartFromISR(from_isr, &woken);
    portYIELD_FROM_ISR(woken);
}

static void ignore_call(void *arg1, uint32_t arg2)
{
    (void)arg1;
    (void)arg2;
}

/* A dynamic timer's delete that takes the command queue's last slot: the
 * timer task frees its memory with the delete (a second command, once
 * pended behind it, found the queue full, and the memory was lost); into
 * a full queue the delete fails and the timer stays. How many commands fit
 * is counted first: the first may go straight to the waiting timer task. */
static void delete_into_last_slot(void)
{
    size_t free_before = xPortGetFreeHeapSize();
    TimerHandle_t doomed = xTimerCreate("doomed", 5, pdTRUE, NULL, count_expiry);
    CHECK(doomed != NULL && xTimerStart(doomed, 0) == pdPASS, "a dynamic timer started");
    vTaskDelay(1);
    vTaskSuspendAll(); /* the timer task takes no command until the resume */
    unsigned fit = 0;
    while (fit <= 2u * configTIMER_QUEUE_LENGTH && xTimerPendFunctionCall(ignore_call, NULL, 0, 0) == pdPASS) {
        fit++;
    }
    CHECK(fit >= configTIMER_QUEUE_LENGTH && fit <= configTIMER_QUEUE_LENGTH + 1u,
          "the command queue takes its length (and one handed to the timer task)");
    CHECK(xTimerDelete(doomed, 0) == pdFAIL && xTimerIsTimerActive(doomed) == pdTRUE,
          "into a full queue the delete fails, the timer still there");
    xTaskResumeAll();
    vTaskDelay(1);
    vTaskSuspendAll();
    for (unsigned posted = 0; posted + 1u < fit; posted++) {
        xTimerPendFunctionCall(ignore_call, NULL, 0, 0);
    }
    CHECK(xTimerDelete(doomed, 0) == pdPASS, "the delete takes the last slot");
    xTaskResumeAll();
    vTaskDelay(1);
    CHECK(xPortGetFreeHeapSize() == free_before, "and the timer's memory went back to the heap");
}

static void control_task(void *arg)
{
    (void)arg;
    TickType_t t0 = xTaskGetTickCount();
    xTimerStart(every3, 0);
    xTimerStart(every5, 0);
    xTimerStart(oneshot, 0);
    vTaskDelay(30);
    CHECK(expiries[0] == 10 && last_expiry[0] == t0 + 30, "auto-reload 3-tick timer: 10 expiries in 30 ticks");
    CHECK(expiries[1] == 6 && last_expiry[1] == t0 + 30, "auto-reload 5-tick timer: 6 expiries in 30 ticks");
    CHECK(expiries[2] == 1 && last_expiry[2] == t0 + 7 && xTimerIsTimerActive(oneshot) == pdFALSE,
          "one-shot timer: once, at tick 7, then dormant");
    CHECK(xTimerIsTimerActive(every3) == pdTRUE && xTimerGetPeriod(every5) == 5, "queries: active, period");
    CHECK(xTimerGetExpiryTime(every3) == t0 + 33, "next expiry of the 3-tick timer at tick 33");

    xTimerStop(every3, 0);
    xTimerChangePeriod(every5, 10, 0); /* restarts it from now: expiries at +10, +20 */
    TickType_t t1 = xTaskGetTickCount();
    vTaskDelay(25);
    CHECK(expiries[0] == 10, "stopped timer does not expire");
    CHECK(expiries[1] == 8 && last_expiry[1] == t1 + 20, "period changed to 10: expiries at +10 and +20");

    /* Reset pushes a one-shot's expiry out. */
    TickType_t t2 = xTaskGetTickCount();
    xTimerStart(oneshot, 0);
    vTaskDelay(4);
    xTimerReset(oneshot, 0);
    vTaskDelay(10);
    CHECK(expiries[2] == 2 && last_expiry[2] == t2 + 4 + 7, "reset at +4: the one-shot fires at +11, not +7");

    vTimerSetTimerID(oneshot, (void *)(uintptr_t)3);
    xTimerStart(oneshot, 0);
    vTaskDelay(8);
    CHECK(expiries[3] == 1, "a changed timer ID is what the callback sees");

    /* Started from an interrupt at +2 ms, a 4-tick one-shot fires at +6. */
    TickType_t t3 = xTaskGetTickCount();
    rtos_inject_irq(rtos_now_ns() + 2000000u, 14, start_isr, NULL);
    vTaskDelay(10);
    CHECK(expiries[2] == 3 && last_expiry[2] == t3 + 6, "xTimerStartFromISR at +2: fires at +6");

    xTimerPendFunctionCall(pended, NULL, 42, 0);
    vTaskDelay(1);
    CHECK(pended_calls == 1 && pended_arg == 42, "pended function ran in the timer task");
    CHECK(xTimerGetTimerDaemonTaskHandle() != NULL &&
              uxTaskPriorityGet(xTimerGetTimerDaemonTaskHandle()) == configTIMER_TASK_PRIORITY,
          "timer service task at configTIMER_TASK_PRIORITY");
    CHECK(xTimerDelete(every3, 0) == pdPASS && xTimerDelete(from_isr, 0) == pdPASS, "dynamic timers deleted");
    vTaskDelay(1);
    delete_into_last_slot();
    vTaskEndScheduler();
}

int main(void)
{
    every3 = xTimerCreate("every3", 3, pdTRUE, (void *)(uintptr_t)0, count_expiry);
    every5 = xTimerCreateStatic("every5", 5, pdTRUE, (void *)(uintptr_t)1, count_expiry, &every5_buf);
    oneshot = xTimerCreate("oneshot", 7, pdFALSE, (void *)(uintptr_t)2, count_expiry);
    from_isr = xTimerCreate("isr", 4, pdFALSE, (void *)(uintptr_t)2, count_expiry);
    CHECK(every3 != NULL && every5 == (TimerHandle_t)&every5_buf && oneshot != NULL && from_isr != NULL,
          "timers created before the scheduler");
    CHECK(strcmp(pcTimerGetName(every3), "every3") == 0 && xTimerGetReloadMode(oneshot) == pdFALSE,
          "name and reload mode");
    xTaskCreate(control_task, "ctl", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    vTaskStartScheduler();
    return rtos_check_summary();
}
