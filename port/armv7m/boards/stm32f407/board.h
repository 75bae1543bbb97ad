/* STM32F407 (Cortex-M4F), e.g. the STM32F4-Discovery: 168 MHz from the PLL
 * (clock set-up is the application's; this file assumes it is done). Builds;
 * not run in CI. */
#ifndef TAKT_BOARD_H
#define TAKT_BOARD_H

#define TAKT_BOARD_NAME "stm32f407"
#define TAKT_BOARD_CORE_HZ 168000000u
#define TAKT_BOARD_IRQ_COUNT 82u
/* Interrupts the kernel's tests may pend by software (FMC and SDIO, unused). */
#define TAKT_BOARD_SPARE_IRQ 48u
#define TAKT_BOARD_SPARE_IRQ2 49u

#include "irq_handlers.h"

#endif
