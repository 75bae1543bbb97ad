/*
 * The FreeRTOS layer on the Cortex-M port: SysTick interrupts at
 * configTICK_RATE_HZ (the board's core clock must be a multiple of it), and
 * vTaskEndScheduler ends the run, so vTaskStartScheduler returns (the port
 * switches back to the thread that started the kernel).
 */
#include "compat.h"
#include "takt_armv7m.h"

/* The port masks at one fixed level: an application that counts on another
 * would have interrupts it believes masked racing the kernel, or ones it
 * believes never masked held back. Said at build time rather than run wrong
 * (a C assertion, not #if: configs often write the value with casts). */
#ifdef configMAX_SYSCALL_INTERRUPT_PRIORITY
_Static_assert(configMAX_SYSCALL_INTERRUPT_PRIORITY == TAKT_ARM_BASEPRI,
               "FreeRTOSConfig.h: configMAX_SYSCALL_INTERRUPT_PRIORITY must be 0x40 on Takt's Cortex-M port "
               "(its kernel sections mask at TAKT_ARM_BASEPRI; docs/freertos.md)");
#endif

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
