/*
 * Event groups in the style of the FreeRTOS demo EventGroupsDemo: waiting for
 * any / all bits, clear on exit, a three-task rendezvous (xEventGroupSync),
 * bits set from an interrupt, timeouts.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */
#include "event_groups.h"
#include "rtos_check.h"
#include "rtos_port.h"

#define BIT_A (1u << 0)
#define BIT_B (1u << 1)
#define BIT_C (1u << 2)
#define BIT_ISR (1u << 8)
#define SYNC_ALL (BIT_A | BIT_B | BIT_C)

static EventGroupHandle_t events, rendezvous;
static StaticEventGroup_t rendezvous_buf;
static TickType_t sync_done_at[3];
static EventBits_t any_result, all_result;
static TickType_t any_at, all_at;

static void any_waiter(void *arg)
{
    (void)arg;
    any_result = xEventGroupWaitBits(events, BIT_A | BIT_B, pdFALSE, pdFALSE, portMAX_DELAY);
    any_at = xTaskGetTickCount();
    vTaskSuspend(NULL);
}

static void all_waiter(void *arg)
{
    (void)arg;
    all_result = xEventGroupWaitBits(events, BIT_A | BIT_B, pdTRUE, pdTRUE, portMAX_DELAY);
    all_at = xTaskGetTickCount();
    vTaskSuspend(NULL);
}

/* Each arrives at the rendezvous after its own delay; all leave together. */
static void sync_task(void *arg)
{
    uintptr_t i = (uintptr_t)arg;
    vTaskDelay((TickType_t)(2 + 3 * i));
    EventBits_t bits = xEventGroupSync(rendezvous, (EventBits_t)1u << i, SYNC_ALL, portMAX_DELAY);
    sync_done_at[i] = (bits & SYNC_ALL) == SYNC_ALL ? xTaskGetTickCount() : 0;
    vTaskSuspend(NULL);
}

static BaseType_t isr_set_result = -1, isr_set_deleted_result = -1;
static EventGroupHandle_t deleted;
static StaticEventGroup_t deleted_buf;

static void isr_sets_bit(void *arg)
{
    (void)arg;
    BaseType_t woken = pdFALSE;
    isr_set_result = xEventGroupSetBitsFromISR(events, BIT_ISR, &woken);
    portYIELD_FROM_ISR(woken);
}

/* A static group's memory outlives its deletion, so the call reads no freed memory. */
static void isr_sets_deleted(void *arg)
{
    (void)arg;
    isr_set_deleted_result = xEventGroupSetBitsFromISR(deleted, BIT_ISR, NULL);
}

static void control_task(void *arg)
{
    (void)arg;
    TickType_t t0 = xTaskGetTickCount();
    /* The waiters have a lower priority: they run when control sleeps. */
    vTaskDelay(2);
    xEventGroupSetBits(events, BIT_A);
    vTaskDelay(2);
    CHECK(any_result == BIT_A && any_at == t0 + 2, "any-waiter woken by A at tick 2");
    CHECK(all_at == 0, "all-waiter still waits for B");
    EventBits_t after = xEventGroupSetBits(events, BIT_B);
    vTaskDelay(1);
    CHECK((all_result & (BIT_A | BIT_B)) == (BIT_A | BIT_B) && all_at == t0 + 4, "all-waiter woken by B at tick 4");
    CHECK(after == 0 && xEventGroupGetBits(events) == 0, "clear-on-exit cleared A and B");

    TickType_t t = xTaskGetTickCount();
    EventBits_t timed_out = xEventGroupWaitBits(events, BIT_C, pdTRUE, pdFALSE, 5);
    CHECK(timed_out == 0 && xTaskGetTickCount() - t == 5, "wait for C times out after 5 ticks with the bits then");

    xEventGroupSetBits(events, BIT_A | BIT_C);
    CHECK(xEventGroupClearBits(events, BIT_A) == (BIT_A | BIT_C) && xEventGroupGetBits(events) == BIT_C,
          "clear returns the bits before");
    xEventGroupClearBits(events, BIT_C);

    /* Rendezvous: arrivals at ticks 2, 5 and 8 after start; all leave at 8. */
    vTaskDelay(20);
    bool sync_ok = sync_done_at[0] != 0 && sync_done_at[0] == sync_done_at[1] && sync_done_at[1] == sync_done_at[2] &&
                   sync_done_at[0] == t0 + 8;
    CHECK(sync_ok, "three tasks leave the rendezvous together at the last arrival (tick %lu)",
          (unsigned long)(sync_done_at[2] - t0));
    CHECK(xEventGroupGetBits(rendezvous) == 0, "rendezvous bits cleared");

    uint64_t now = rtos_now_ns();
    rtos_inject_irq(now + 2500000u, 11, isr_sets_bit, NULL);
    t = xTaskGetTickCount();
    EventBits_t isr_bits = xEventGroupWaitBits(events, BIT_ISR, pdTRUE, pdTRUE, 10);
    CHECK(isr_bits == BIT_ISR && xTaskGetTickCount() - t == 2,
          "bit set from an interrupt at +2.5 ms wakes the waiter at once (tick +2)");
    CHECK(isr_set_result == pdPASS, "xEventGroupSetBitsFromISR in an interrupt: pdPASS");

    /* From a task it is xEventGroupSetBits (isr_calls_from_task.c); for a
     * deleted group it fails (pdFAIL) with nothing set. */
    CHECK(xEventGroupSetBitsFromISR(events, BIT_ISR, NULL) == pdPASS && xEventGroupGetBits(events) == BIT_ISR,
          "xEventGroupSetBitsFromISR from a task sets the bits");
    (void)xEventGroupClearBits(events, BIT_ISR);
    deleted = xEventGroupCreateStatic(&deleted_buf);
    vEventGroupDelete(deleted);
    rtos_inject_irq(rtos_now_ns() + 500000u, 11, isr_sets_deleted, NULL);
    vTaskDelay(1);
    CHECK(isr_set_deleted_result == pdFAIL, "xEventGroupSetBitsFromISR on a deleted group fails");
    vTaskEndScheduler();
}

int main(void)
{
    events = xEventGroupCreate();
    rendezvous = xEventGroupCreateStatic(&rendezvous_buf);
    CHECK(events != NULL && rendezvous == &rendezvous_buf, "event groups created");
    xTaskCreate(control_task, "ctl", configMINIMAL_STACK_SIZE, NULL, 3, NULL);
    xTaskCreate(any_waiter, "any", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    xTaskCreate(all_waiter, "all", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    for (uintptr_t i = 0; i < 3; i++) {
        xTaskCreate(sync_task, "sync", configMINIMAL_STACK_SIZE, (void *)i, 1, NULL);
    }
    vTaskStartScheduler();
    return rtos_check_summary();
}
