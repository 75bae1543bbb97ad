/* The tickless tests' stand-in for WFI on the MPS2 boards: spinning, with
 * interrupts held off, until one is pending. Under -icount sleep=off QEMU's
 * clocks (SysTick, the FPGA counter, the CMSDK timers) count a WFI's skipped
 * time differently; spinning, every clock counts instructions. */
#ifndef TAKT_TEST_SPIN_UNTIL_INTERRUPT_H
#define TAKT_TEST_SPIN_UNTIL_INTERRUPT_H

#include <stdbool.h>

#include "armv7m_regs.h"

/* SysTick's interrupt, or an enabled line's (0..63), is pending. */
static inline bool interrupt_pending(void)
{
    if ((SCB_ICSR & SCB_ICSR_PENDSTSET) != 0) {
        return true;
    }
    for (unsigned n = 0; n < 2u; n++) {
        if ((NVIC_ISPR(n) & NVIC_ISER(n)) != 0) {
            return true;
        }
    }
    return false;
}

static inline void spin_until_interrupt(void)
{
    while (!interrupt_pending()) {
        for (volatile int i = 0; i < 8; i++) {
            /* polling the registers is slow under QEMU; instructions are not */
        }
    }
}

#endif
