/*
 * configUSE_DAEMON_TASK_STARTUP_HOOK: vApplicationDaemonTaskStartupHook runs
 * once, in the timer service task, after the scheduler started and before
 * the task executes any command: a timer started and a function call pended
 * before vTaskStartScheduler wait for it. Built under fp, edf and hsf (the
 * timer task in a server), and once without any timer (TEST_NO_TIMERS: the
 * timer task still starts with the scheduler, so the hook still runs).
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include "rtos_check.h"
#include "timers.h"
#include "rtos_tasks.h"

static volatile unsigned hook_calls, timer_calls, pended_calls;
static volatile bool hook_in_timer_task, hook_after_start, hook_before_commands;
static volatile TickType_t hook_tick, pended_tick;

void vApplicationDaemonTaskStartupHook(void)
{
    hook_calls++;
    hook_tick = xTaskGetTickCount();
    hook_in_timer_task = xTaskGetCurrentTaskHandle() == xTimerGetTimerDaemonTaskHandle();
    hook_after_start = xTaskGetSchedulerState() == taskSCHEDULER_RUNNING;
    hook_before_commands = timer_calls == 0 && pended_calls == 0;
    vTaskDelay(2); /* the hook may block; the commands wait for it */
}

#ifndef TEST_NO_TIMERS
static void on_timer(TimerHandle_t timer)
{
    (void)timer;
    timer_calls++;
}

static void pended(void *arg, uint32_t value)
{
    (void)arg;
    (void)value;
    pended_calls++;
    pended_tick = xTaskGetTickCount();
}
#endif

static void check_task(void *arg)
{
    (void)arg;
    vTaskDelay(10);
    CHECK(hook_calls == 1, "the hook ran once");
    CHECK(hook_in_timer_task, "in the timer service task");
    CHECK(hook_after_start && hook_tick == 0, "after the scheduler started, at tick 0");
#ifndef TEST_NO_TIMERS
    CHECK(hook_before_commands, "before the task executed any command");
    CHECK(pended_calls == 1 && pended_tick == 2, "the pended call ran after the hook's delay (tick %lu)",
          (unsigned long)pended_tick);
    CHECK(timer_calls >= 2, "the timer runs");
#endif
    vTaskEndScheduler();
}

int main(void)
{
#if configTAKT_POLICY == TAKT_POLICY_HSF
    CHECK(xServerCreate(100, 100, 1, eServerDeferrable, "S", &rtos_server) == pdPASS &&
              xServerSetTimerServer(rtos_server) == pdPASS,
          "a server for the tasks and the timer service task");
#endif
#ifndef TEST_NO_TIMERS
    TimerHandle_t timer = xTimerCreate("t", 3, pdTRUE, NULL, on_timer);
    CHECK(timer != NULL && xTimerStart(timer, 0) == pdPASS, "a timer started before the scheduler");
    CHECK(xTimerPendFunctionCall(pended, NULL, 0, 0) == pdPASS, "a function call pended before it");
#else
    CHECK(xTimerGetTimerDaemonTaskHandle() == NULL, "no timer: no timer task before the start");
#endif
    CHECK(RTOS_TASK_CREATE(check_task, "check", 1, NULL) == pdPASS, "a task to check");
    vTaskStartScheduler();
    CHECK(hook_calls == 1, "once in the whole run");
    return rtos_check_summary();
}
