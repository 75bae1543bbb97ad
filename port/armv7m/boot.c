/*
 * Takt's step of the boot (startup.c calls it before any C library
 * constructor): the kernel may ask for a switch before takt_start, and
 * PendSV then finds no run and returns, touching only the parked process
 * stack. At the lowest priority PendSV never interrupts a handler or a
 * critical section.
 */
#include "armv7m_regs.h"
#include "takt_armv7m.h"

void takt_arm_boot(void)
{
    takt_arm_park_process_stack();
    SCB_SHPR3 = (SCB_SHPR3 & 0xFF00FFFFu) | (TAKT_ARM_PENDSV_PRIORITY << 16);
}
