/*
 * A FreeRTOS application's interrupt handler under its CMSIS name, as code
 * written for the MPS2 boards has it (FreeRTOS's own MPS2 demo defines
 * TIMER0_Handler): the program defines TIMER0_Handler, sets the line's
 * priority and enables it in the NVIC itself, and never calls a Takt
 * function to attach it. CMSDK timer 0 fires every 3 ms; each interrupt
 * gives a semaphore from the handler, and the task waiting on it preempts a
 * busy lower-priority task at once. Without the board's named vectors the
 * first interrupt lands in the fault handler and the program exits 71.
 */
#include <stdint.h>

#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include "rtos_check.h"
#include "semphr.h"
#include "task.h"

/* What an application reaches through CMSIS (core_cm3.h, CMSDK_CM3.h),
 * spelt out: this program brings no CMSIS headers. */
#define NVIC_ISER0 (*(volatile uint32_t *)0xE000E100u)
#define NVIC_IPR_BYTE(irq) (*(volatile uint8_t *)(0xE000E400u + (irq)))
#define TIMER0_IRQN 8u
#define TIMER0_CTRL (*(volatile uint32_t *)0x40000000u)
#define TIMER0_VALUE (*(volatile uint32_t *)0x40000004u)
#define TIMER0_RELOAD (*(volatile uint32_t *)0x40000008u)
#define TIMER0_INTCLEAR (*(volatile uint32_t *)0x4000000Cu)
#define TIMER_ENABLE 0x1u
#define TIMER_IRQ_ENABLE 0x8u
#define CORE_HZ 25000000u
#define PERIOD_MS 3u
#define INTERRUPTS 5u
/* The kernel's masking level (docs/freertos.md: an application's
 * configMAX_SYSCALL_INTERRUPT_PRIORITY must be it); the shared test
 * configuration does not set the macro. */
#define SYSCALL_PRIORITY 0x40u

static SemaphoreHandle_t from_timer;
static volatile unsigned handler_runs;
static volatile uint32_t handler_exception;
static volatile BaseType_t give_results = pdPASS;
static volatile unsigned busy_loops;
static volatile int taker_done;
static TickType_t taken_at[INTERRUPTS];
static unsigned busy_loops_at[INTERRUPTS];

void TIMER0_Handler(void)
{
    TIMER0_INTCLEAR = 1;
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr));
    handler_exception = ipsr & 0x1FFu;
    if (++handler_runs == INTERRUPTS) {
        TIMER0_CTRL = 0;
    }
    BaseType_t woken = pdFALSE;
    if (xSemaphoreGiveFromISR(from_timer, &woken) != pdPASS) {
        give_results = pdFAIL;
    }
    portYIELD_FROM_ISR(woken);
}

static void taker_task(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < INTERRUPTS; i++) {
        if (xSemaphoreTake(from_timer, pdMS_TO_TICKS(50)) != pdPASS) {
            break;
        }
        taken_at[i] = xTaskGetTickCount();
        busy_loops_at[i] = busy_loops;
    }
    taker_done = 1;
    vTaskDelete(NULL);
}

/* Never blocks: the taker runs only by preempting it. */
static void busy_task(void *arg)
{
    (void)arg;
    TickType_t start = xTaskGetTickCount();
    while (!taker_done && xTaskGetTickCount() - start < pdMS_TO_TICKS(100)) {
        busy_loops++;
    }
    CHECK(taker_done, "the taker took %u gives before the busy task gave up", INTERRUPTS);
    CHECK(handler_runs == INTERRUPTS && give_results == pdPASS,
          "TIMER0_Handler ran %u times, every give passed", handler_runs);
    CHECK(handler_exception == 16u + TIMER0_IRQN, "it ran as exception %u (IRQ 8)",
          (unsigned)handler_exception);
    int spaced = 1;
    for (unsigned i = 1; i < INTERRUPTS; i++) {
        TickType_t gap = taken_at[i] - taken_at[i - 1];
        spaced = spaced && gap >= PERIOD_MS - 1u && gap <= PERIOD_MS + 1u;
    }
    CHECK(spaced, "each take %u ms after the one before (+-1 tick)", PERIOD_MS);
    CHECK(busy_loops_at[0] > 0 && busy_loops_at[INTERRUPTS - 1] > busy_loops_at[0],
          "the taker preempted the busy task at each give");
    vTaskEndScheduler();
}

/* The injections of tests/freertos/rtos_port_armv7m.c are not linked: this
 * program has no harness (it would attach timer 0 itself). */
void rtos_port_tick(void)
{
}

int main(void)
{
    from_timer = xSemaphoreCreateBinary();
    CHECK(from_timer != NULL, "semaphore created");
    xTaskCreate(taker_task, "taker", configMINIMAL_STACK_SIZE, NULL, 3, NULL);
    xTaskCreate(busy_task, "busy", configMINIMAL_STACK_SIZE, NULL, 1, NULL);
    /* As the application does it: priority at the kernel's level (a line
     * more urgent than configMAX_SYSCALL_INTERRUPT_PRIORITY may not call
     * the kernel), then the line enabled, then the timer started. */
    NVIC_IPR_BYTE(TIMER0_IRQN) = SYSCALL_PRIORITY;
    NVIC_ISER0 = 1u << TIMER0_IRQN;
    TIMER0_RELOAD = CORE_HZ / 1000u * PERIOD_MS;
    TIMER0_VALUE = CORE_HZ / 1000u * PERIOD_MS;
    TIMER0_CTRL = TIMER_ENABLE | TIMER_IRQ_ENABLE;
    vTaskStartScheduler();
    return rtos_check_summary();
}
