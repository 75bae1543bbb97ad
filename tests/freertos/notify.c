/*
 * Task notifications: as a light counting semaphore (give/take, also from an
 * interrupt), as event bits (xTaskNotifyWait with clear masks), as a mailbox
 * (overwrite / no overwrite), and a second index.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */
#include "rtos_check.h"
#include "rtos_port.h"

static TaskHandle_t worker, control;
static uint32_t worker_takes[8];
static unsigned worker_take_count;
static TickType_t worker_take_at[8];

/* Counts notifications one at a time (xClearCountOnExit = pdFALSE). */
static void worker_task(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t n = ulTaskNotifyTake(pdFALSE, portMAX_DELAY);
        if (worker_take_count < 8) {
            worker_take_at[worker_take_count] = xTaskGetTickCount();
            worker_takes[worker_take_count++] = n;
        }
    }
}

static void give_isr(void *arg)
{
    (void)arg;
    BaseType_t woken = pdFALSE;
    vTaskNotifyGiveFromISR(worker, &woken);
    portYIELD_FROM_ISR(woken);
}

/* Three gives in one interrupt: only the first wakes the worker (its flag
 * set), the second finds it ready (its flag left alone), the third has none. */
static BaseType_t give_woken[2];
static void give_three_isr(void *arg)
{
    (void)arg;
    give_woken[0] = pdFALSE;
    give_woken[1] = pdFALSE;
    vTaskNotifyGiveFromISR(worker, &give_woken[0]);
    vTaskNotifyGiveFromISR(worker, &give_woken[1]);
    vTaskNotifyGiveFromISR(worker, NULL);
}

static void bits_isr(void *arg)
{
    BaseType_t woken = pdFALSE;
    xTaskNotifyFromISR(control, (uint32_t)(uintptr_t)arg, eSetBits, &woken);
    portYIELD_FROM_ISR(woken);
}

static void control_task(void *arg)
{
    (void)arg;
    /* Three gives while the worker (lower priority) cannot run: it then takes 3, 2, 1. */
    xTaskNotifyGive(worker);
    xTaskNotifyGive(worker);
    xTaskNotifyGive(worker);
    vTaskDelay(1);
    CHECK(worker_take_count == 3 && worker_takes[0] == 3 && worker_takes[1] == 2 && worker_takes[2] == 1,
          "ulTaskNotifyTake(pdFALSE) counts down 3, 2, 1");

    /* Gives from an interrupt wake the worker at the interrupt's instant. */
    uint64_t now = rtos_now_ns();
    TickType_t t = xTaskGetTickCount();
    rtos_inject_irq(now + 2000000u, 12, give_isr, NULL);
    rtos_inject_irq(now + 4000000u, 12, give_isr, NULL);
    vTaskDelay(6);
    CHECK(worker_take_count == 5 && worker_take_at[3] == t + 2 && worker_take_at[4] == t + 4,
          "vTaskNotifyGiveFromISR wakes the worker at ticks +2 and +4");
    now = rtos_now_ns();
    rtos_inject_irq(now + 1000000u, 12, give_three_isr, NULL);
    vTaskDelay(2);
    CHECK(give_woken[0] == pdTRUE && give_woken[1] == pdFALSE,
          "vTaskNotifyGiveFromISR sets the flag when the task it wakes preempts, and only then");
    CHECK(worker_take_count == 8 && worker_takes[5] == 3 && worker_takes[6] == 2 && worker_takes[7] == 1,
          "the worker takes the three gives of one interrupt: 3, 2, 1");

    /* Event bits: two interrupts set bits; the wait clears them on exit. */
    now = rtos_now_ns();
    rtos_inject_irq(now + 1000000u, 13, bits_isr, (void *)(uintptr_t)0x1);
    rtos_inject_irq(now + 2000000u, 13, bits_isr, (void *)(uintptr_t)0x4);
    uint32_t value = 0;
    BaseType_t got = xTaskNotifyWait(0, 0xffffffffu, &value, 10);
    CHECK(got == pdTRUE && value == 0x1, "xTaskNotifyWait returns at the first interrupt (value 0x%lx)",
          (unsigned long)value);
    got = xTaskNotifyWait(0, 0xffffffffu, &value, 10);
    CHECK(got == pdTRUE && value == 0x4, "the second interrupt's bits are pending next (value 0x%lx)",
          (unsigned long)value);
    t = xTaskGetTickCount();
    got = xTaskNotifyWait(0, 0, &value, 3);
    CHECK(got == pdFALSE && xTaskGetTickCount() - t == 3, "nothing pending: times out after 3 ticks");

    /* Mailbox actions on the caller's own slot. */
    xTaskNotify(control, 10, eSetValueWithOverwrite);
    CHECK(xTaskNotify(control, 20, eSetValueWithoutOverwrite) == pdFAIL, "no-overwrite refused while pending");
    uint32_t previous = 0;
    xTaskNotifyAndQuery(control, 30, eSetValueWithOverwrite, &previous);
    CHECK(previous == 10, "xTaskNotifyAndQuery returns the previous value");
    xTaskNotifyWait(0, 0, &value, 0);
    CHECK(value == 30, "overwrite replaced the value");
    CHECK(xTaskNotifyStateClear(NULL) == pdFALSE, "nothing pending after the wait");
    xTaskNotify(control, 0, eNoAction);
    CHECK(xTaskNotifyStateClear(NULL) == pdTRUE, "eNoAction marks pending");
    CHECK(ulTaskNotifyValueClear(NULL, 0x10) == 30 && ulTaskNotifyValueClear(NULL, 0) == 14,
          "ulTaskNotifyValueClear returns the value before clearing");

    /* Index 1 is independent of index 0. */
    ulTaskNotifyValueClear(NULL, 0xffffffffu);
    xTaskNotifyGiveIndexed(control, 1);
    CHECK(ulTaskNotifyTake(pdTRUE, 0) == 0, "index 0 has nothing");
    CHECK(ulTaskNotifyTakeIndexed(1, pdTRUE, 0) == 1, "index 1 has the give");
    vTaskEndScheduler();
}

int main(void)
{
    xTaskCreate(control_task, "ctl", configMINIMAL_STACK_SIZE, NULL, 3, &control);
    xTaskCreate(worker_task, "worker", configMINIMAL_STACK_SIZE, NULL, 2, &worker);
    vTaskStartScheduler();
    return rtos_check_summary();
}
