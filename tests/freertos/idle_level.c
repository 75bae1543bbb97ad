/*
 * The idle task shares tskIDLE_PRIORITY with the application's tasks there,
 * as FreeRTOS's does. With time slicing a task of that level that never
 * blocks still lets the idle task run once a tick: its hook runs, and the
 * memory of a task that deleted itself is freed. A task of that level that an
 * interrupt readies while the idle task sleeps runs at once with
 * configIDLE_SHOULD_YIELD 1, and when the idle task's slice ends with 0.
 * Without time slicing the busy task keeps the idle task out, as in FreeRTOS.
 *
 * Built three ways (tests/freertos/CMakeLists.txt): FreeRTOS's defaults
 * (slicing, the idle task yields), slicing without the yield, and the yield
 * without slicing (the shared test configuration's).
 *
 * "ctl" (priority 3) runs the steps; "busy" (tskIDLE_PRIORITY) works for
 * ever; "waiter" (tskIDLE_PRIORITY) takes a semaphore an interrupt gives.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include "rtos_check.h"
#include "semphr.h"

#define CTL_PRIORITY 3
#define WORKER_PRIORITY 2
#define WAKE_IRQ 3

/* Whole ticks on a board, whose busy work is calibrated in ticks. */
#define BUSY_SLICE_NS (RTOS_SUBTICK_WORK ? RTOS_TICK_NS / 4u : RTOS_TICK_NS)

static TaskHandle_t busy;
static SemaphoreHandle_t wake_sem;
static volatile unsigned long busy_rounds;
static volatile uint64_t waiter_woke_ns;

static void busy_task(void *arg)
{
    (void)arg;
    for (;;) {
        rtos_work_ns(BUSY_SLICE_NS);
        busy_rounds++;
    }
}

static void waiter_task(void *arg)
{
    (void)arg;
    for (;;) {
        if (xSemaphoreTake(wake_sem, portMAX_DELAY) == pdTRUE) {
            waiter_woke_ns = rtos_now_ns();
        }
    }
}

static void self_deleting_task(void *arg)
{
    (void)arg;
    vTaskDelete(NULL);
}

static void give_from_isr(void *arg)
{
    (void)arg;
    BaseType_t woken = pdFALSE;
    xSemaphoreGiveFromISR(wake_sem, &woken);
    portYIELD_FROM_ISR(woken);
}

static void ctl_task(void *arg)
{
    (void)arg;
    TaskHandle_t idle = xTaskGetIdleTaskHandle();
    CHECK(idle != NULL && uxTaskPriorityGet(idle) == tskIDLE_PRIORITY, "the idle task reads tskIDLE_PRIORITY");

    /* A task of the idle task's level that never blocks. */
    CHECK(xTaskCreate(busy_task, "busy", configMINIMAL_STACK_SIZE, NULL, tskIDLE_PRIORITY, &busy) == pdPASS,
          "a busy task at tskIDLE_PRIORITY");
    unsigned long hooks_before = idle_hook_calls;
    unsigned long rounds_before = busy_rounds;
    vTaskDelay(10);
    unsigned long hooks = idle_hook_calls - hooks_before;
    unsigned long rounds = busy_rounds - rounds_before;
    LOG("10 ticks with the busy task: %lu idle hook calls, %lu busy rounds", hooks, rounds);
    CHECK(rounds > 0, "the busy task ran");
#if configUSE_TIME_SLICING && configIDLE_SHOULD_YIELD
    /* Each tick's slice end puts the busy task behind it: one pass, a yield. */
    CHECK(RTOS_EXACT_TIME ? hooks == 10 : hooks >= 9 && hooks <= 11,
          "the idle task ran once a tick, between the busy task's slices (%lu)", hooks);
#elif configUSE_TIME_SLICING
    CHECK(RTOS_EXACT_TIME ? hooks == 5 : hooks >= 4 && hooks <= 6,
          "the idle task ran every other tick: a whole slice each (%lu)", hooks);
#else
    /* The one pass it may have had before the busy task's first slice. */
    CHECK(hooks <= 1, "without time slicing the busy task keeps the idle task out, as in FreeRTOS (%lu)", hooks);
#endif

    /* The idle task frees what a task that deleted itself leaves. */
    size_t free_before = xPortGetFreeHeapSize();
    CHECK(xTaskCreate(self_deleting_task, "gone", configMINIMAL_STACK_SIZE, NULL, WORKER_PRIORITY, NULL) == pdPASS,
          "a task that deletes itself");
    vTaskDelay(3);
#if configUSE_TIME_SLICING
    CHECK(xPortGetFreeHeapSize() == free_before, "its memory was freed while the busy task ran");
#else
    CHECK(xPortGetFreeHeapSize() < free_before, "its memory waits for the idle task, as in FreeRTOS");
#endif

    /* The idle task alone at its level, asleep; a waiter of its level. */
    vTaskSuspend(busy);
    CHECK(xTaskCreate(waiter_task, "waiter", configMINIMAL_STACK_SIZE, NULL, tskIDLE_PRIORITY, NULL) == pdPASS,
          "a waiter at tskIDLE_PRIORITY");
    vTaskDelay(2);
    uint64_t give_at = rtos_now_ns() + RTOS_TICK_NS + RTOS_TICK_NS / 2u;
    CHECK(rtos_inject_irq(give_at, WAKE_IRQ, give_from_isr, NULL) == 0, "an interrupt gives the semaphore");
    vTaskDelay(4);
    CHECK(waiter_woke_ns != 0, "the waiter took the semaphore");
#if configIDLE_SHOULD_YIELD
    CHECK(waiter_woke_ns == give_at, "it ran at the give: the idle task gave way (woke at %llu, given at %llu)",
          (unsigned long long)waiter_woke_ns, (unsigned long long)give_at);
#else
    uint64_t next_tick = (give_at / RTOS_TICK_NS + 1u) * RTOS_TICK_NS;
    CHECK(waiter_woke_ns == next_tick, "it ran when the idle task's slice ended (woke at %llu, tick at %llu)",
          (unsigned long long)waiter_woke_ns, (unsigned long long)next_tick);
#endif
    vTaskResume(busy);
    vTaskEndScheduler();
}

int main(void)
{
    wake_sem = xSemaphoreCreateBinary();
    CHECK(wake_sem != NULL, "a binary semaphore");
    CHECK(xTaskCreate(ctl_task, "ctl", configMINIMAL_STACK_SIZE, NULL, CTL_PRIORITY, NULL) == pdPASS, "the control task");
    vTaskStartScheduler();
    printf("scheduler returned\n");
    return rtos_check_summary();
}
