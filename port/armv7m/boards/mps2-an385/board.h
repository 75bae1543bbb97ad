/* ARM MPS2 + AN385 (Cortex-M3), as QEMU's mps2-an385 emulates it. */
#ifndef TAKT_BOARD_H
#define TAKT_BOARD_H

#define TAKT_BOARD_NAME "mps2-an385"
#define TAKT_BOARD_CORE_HZ 25000000u /* SysTick counts the 25 MHz processor clock */
#define TAKT_BOARD_IRQ_COUNT 32u
/* External interrupts no device of the emulated board raises: tests and
 * benchmarks pend them by software. */
#define TAKT_BOARD_SPARE_IRQ 30u
#define TAKT_BOARD_SPARE_IRQ2 31u

#include "../mps2_irq_handlers.h"

#endif
