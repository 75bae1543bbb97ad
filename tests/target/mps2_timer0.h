/* CMSDK APB timer 0 of the MPS2 boards (counts the 25 MHz clock down to 0),
 * for the target tests that raise interrupts with it. */
#ifndef TAKT_TEST_MPS2_TIMER0_H
#define TAKT_TEST_MPS2_TIMER0_H

#include <stdint.h>

#define TIMER0_IRQ 8u
#define TIMER0_CTRL (*(volatile uint32_t *)0x40000000u)
#define TIMER0_VALUE (*(volatile uint32_t *)0x40000004u)
#define TIMER0_RELOAD (*(volatile uint32_t *)0x40000008u)
#define TIMER0_INTCLEAR (*(volatile uint32_t *)0x4000000Cu)
#define TIMER_ENABLE 1u
#define TIMER_IRQ_ENABLE 8u

#endif
