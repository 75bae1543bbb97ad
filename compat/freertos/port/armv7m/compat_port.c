/*
 * The FreeRTOS layer on the Cortex-M port: SysTick interrupts at
 * configTICK_RATE_HZ (the board's core clock must be a multiple of it), and
 * vTaskEndScheduler ends the run, so vTaskStartScheduler returns (the port
 * switches back to the thread that started the kernel).
 */
#include "compat.h"
#include "takt_armv7m.h"

void compat_port_prepare(void)
{
    takt_arm_params_t params = {.tick_hz = (uint32_t)configTICK_RATE_HZ, .end_ticks = 0};
    int err = takt_arm_configure(&params);
    configASSERT(err == TAKT_OK);
    (void)err;
}

void compat_port_end_scheduler(void)
{
    takt_arm_stop();
}
