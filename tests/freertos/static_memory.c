/*
 * The idle and timer tasks' control blocks and stacks under
 * configSUPPORT_STATIC_ALLOCATION come from the application's
 * vApplicationGetIdleTaskMemory and vApplicationGetTimerTaskMemory, as in
 * FreeRTOS: this program gives both stacks larger than FreeRTOS's defaults
 * and checks that the tasks have them (their unused stack exceeds the default
 * size), that their handles are its StaticTask_t buffers (xTaskGetStaticBuffers
 * gives both back), and that each function is asked once. Built again with configKERNEL_PROVIDED_STATIC_MEMORY 1
 * (TEST_KERNEL_PROVIDED), where the layer provides them at the default sizes
 * and the program defines neither.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include "rtos_check.h"
#include "timers.h"

#define IDLE_WORDS (3u * configMINIMAL_STACK_SIZE)
#define TIMER_WORDS (2u * configTIMER_TASK_STACK_DEPTH)

static volatile unsigned idle_memory_calls, timer_memory_calls;

#ifndef TEST_KERNEL_PROVIDED
static StaticTask_t idle_tcb, timer_tcb;
static StackType_t idle_stack[IDLE_WORDS] __attribute__((aligned(16)));
static StackType_t timer_stack[TIMER_WORDS] __attribute__((aligned(16)));

void vApplicationGetIdleTaskMemory(StaticTask_t **ppxIdleTaskTCBBuffer, StackType_t **ppxIdleTaskStackBuffer,
                                   configSTACK_DEPTH_TYPE *puxIdleTaskStackSize)
{
    idle_memory_calls++;
    *ppxIdleTaskTCBBuffer = &idle_tcb;
    *ppxIdleTaskStackBuffer = idle_stack;
    *puxIdleTaskStackSize = IDLE_WORDS;
}

void vApplicationGetTimerTaskMemory(StaticTask_t **ppxTimerTaskTCBBuffer, StackType_t **ppxTimerTaskStackBuffer,
                                    configSTACK_DEPTH_TYPE *puxTimerTaskStackSize)
{
    timer_memory_calls++;
    *ppxTimerTaskTCBBuffer = &timer_tcb;
    *ppxTimerTaskStackBuffer = timer_stack;
    *puxTimerTaskStackSize = TIMER_WORDS;
}
#endif

static volatile int timer_runs;

static void timer_callback(TimerHandle_t timer)
{
    (void)timer;
    timer_runs++;
}

static void ctl_task(void *arg)
{
    (void)arg;
    TaskHandle_t idle = xTaskGetIdleTaskHandle();
    vTaskDelay(2); /* the idle task runs */
    UBaseType_t idle_free = uxTaskGetStackHighWaterMark(idle);
    TimerHandle_t timer = xTimerCreate("t", 1, pdFALSE, NULL, timer_callback);
    CHECK(timer != NULL && xTimerStart(timer, 0) == pdPASS, "a timer, started");
    vTaskDelay(3);
    CHECK(timer_runs == 1, "its callback ran in the timer task");
    TaskHandle_t timer_task = xTimerGetTimerDaemonTaskHandle();
    UBaseType_t timer_free = uxTaskGetStackHighWaterMark(timer_task);
    StackType_t *idle_stack_got = NULL, *timer_stack_got = NULL;
    StaticTask_t *idle_tcb_got = NULL, *timer_tcb_got = NULL;
    CHECK(xTaskGetStaticBuffers(idle, &idle_stack_got, &idle_tcb_got) == pdTRUE &&
              xTaskGetStaticBuffers(timer_task, &timer_stack_got, &timer_tcb_got) == pdTRUE,
          "xTaskGetStaticBuffers: the idle and timer tasks are static");
#ifndef TEST_KERNEL_PROVIDED
    CHECK(idle == &idle_tcb && idle_tcb_got == &idle_tcb && idle_stack_got == idle_stack,
          "the idle task is the application's StaticTask_t, on its stack");
    CHECK(timer_task == &timer_tcb && timer_tcb_got == &timer_tcb && timer_stack_got == timer_stack,
          "the timer task is the application's StaticTask_t, on its stack");
    CHECK(idle_memory_calls == 1, "vApplicationGetIdleTaskMemory asked once (%u)", idle_memory_calls);
    CHECK(idle_free > configMINIMAL_STACK_SIZE && idle_free <= IDLE_WORDS,
          "the idle task runs on the application's stack, larger than configMINIMAL_STACK_SIZE (%lu words free)",
          (unsigned long)idle_free);
    CHECK(timer_memory_calls == 1, "vApplicationGetTimerTaskMemory asked once, for the first timer (%u)",
          timer_memory_calls);
    CHECK(timer_free > configTIMER_TASK_STACK_DEPTH && timer_free <= TIMER_WORDS,
          "the timer task runs on the application's stack (%lu words free)", (unsigned long)timer_free);
#else
    CHECK(idle_tcb_got == idle && timer_tcb_got == timer_task && idle_stack_got != NULL && timer_stack_got != NULL,
          "the layer's blocks are the tasks' handles");
    CHECK(idle_free > 0 && idle_free <= configMINIMAL_STACK_SIZE,
          "the layer's idle stack: configMINIMAL_STACK_SIZE words (%lu free)", (unsigned long)idle_free);
    CHECK(timer_free > 0 && timer_free <= configTIMER_TASK_STACK_DEPTH,
          "the layer's timer stack: configTIMER_TASK_STACK_DEPTH words (%lu free)", (unsigned long)timer_free);
#endif
    (void)xTimerDelete(timer, 0);
    vTaskEndScheduler();
}

int main(void)
{
    CHECK(xTaskCreate(ctl_task, "ctl", configMINIMAL_STACK_SIZE, NULL, 2, NULL) == pdPASS, "the control task");
    vTaskStartScheduler();
    printf("scheduler returned\n");
    return rtos_check_summary();
}
