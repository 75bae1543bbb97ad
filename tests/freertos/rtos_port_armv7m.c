/*
 * The FreeRTOS programs' platform on the Cortex-M boards: the kernel tests'
 * port (tests/target/harness_port_armv7m.c), built with TICK_NS = 1,000,000
 * so that its test ns are ns at the layer's 1 kHz tick. The layer configures
 * the run itself (compat/freertos/port/armv7m); the harness's interrupts are
 * attached once, before main, by the same call with the same tick and no end.
 */
#include "rtos_port.h"

#include <stdlib.h>

#include "board.h"
#include "harness_port.h"
#include "spin_until_interrupt.h"
#include "takt_armv7m.h"

_Static_assert(TICK_NS == RTOS_TICK_NS, "the harness port must be built with the layer's tick");

__attribute__((constructor)) static void attach_harness_interrupts(void)
{
    if (hp_configure(0) != 0) {
        abort();
    }
}

void rtos_work_ns(uint64_t ns)
{
    hp_work_ns(ns);
}

uint64_t rtos_now_ns(void)
{
    return hp_now_ns();
}

uint64_t rtos_interrupts(void)
{
    return hp_interrupts();
}

int rtos_inject_irq(uint64_t at_ns, unsigned irq, void (*handler)(void *arg), void *arg)
{
    return hp_inject_irq(at_ns, irq, handler, arg);
}

void rtos_spin_until_interrupt(void)
{
    spin_until_interrupt();
}

void rtos_port_tick(void)
{
    hp_tick();
}

/*
 * The port's own time since the start (SysTick counts, the kernel tick's
 * clock). The board's CMSDK timer 1 would be the usual choice, but under
 * QEMU's -icount sleep=off it runs twice as fast as SysTick while the
 * processor sleeps in the idle task (measured in task_info: 8000 us of timer 1
 * against SysTick's 5 ms at the 5th tick, 3 ms of them idle; the two agree
 * while busy, and with sleep=on), which no tolerance could absorb.
 */
#define COUNTS_PER_US (TAKT_BOARD_CORE_HZ / 1000000u)

static uint64_t run_time_origin;

void rtos_run_time_start(void)
{
    run_time_origin = takt_arm_now_counts();
}

uint32_t rtos_run_time_us(void)
{
    return (uint32_t)((takt_arm_now_counts() - run_time_origin) / COUNTS_PER_US);
}
