/*
 * What the kernel tests need from the platform beyond the kernel's API:
 * modelled work, the current virtual time, interrupts injected at an instant,
 * the end of a run, and trace stamps as virtual time. The sim implements it
 * with takt_sim_* (harness_port_sim.c); the Cortex-M target with calibrated
 * busy work and pended interrupts (tests/target/harness_port_armv7m.c), so
 * the same test programs run on both and are checked by the same output.
 *
 * Virtual time is in "test ns": one kernel tick is TICK_NS of them whatever
 * the tick's real length. The sim models every instant exactly. The target
 * models whole ticks of work only, and reports times snapped to the instant
 * they belong to (a tick boundary or an injected interrupt's instant: the
 * kernel's own work lands a little after it); HP_SUBTICK_WORK is 0 there and
 * test cases that need sub-tick work are left out with a reason.
 */
#ifndef TAKT_TEST_HARNESS_PORT_H
#define TAKT_TEST_HARNESS_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "takt_port_types.h"

#ifndef TICK_NS /* the FreeRTOS programs' target build: 1 ms in ns (tests/freertos/rtos_port_armv7m.c) */
#define TICK_NS 1000u
#endif
#define T(ticks) ((uint64_t)(ticks) * TICK_NS) /* ticks -> test ns */

#ifdef TAKT_TEST_TARGET
#define HP_SUBTICK_WORK 0
#define HP_STACK (4u * 1024u)        /* the board's RAM, not the host's */
/* At most this much of a task's stack is used before it first runs: the
 * port's first exception frame (17 words) and the mark's granularity. */
#define HP_STACK_FIRST_FRAME 128u
#define HP_LOG_MAX (1u << 13)
/* Randomised tests run this many times fewer cases (emulation is slow). */
#define HP_CASES_DIVISOR 10
#else
#define HP_CASES_DIVISOR 1
#define HP_SUBTICK_WORK 1
#define HP_STACK (64u * 1024u)
#define HP_STACK_FIRST_FRAME 64u
#define HP_LOG_MAX (1u << 16)
#endif

/* Prepares a run of end_ticks ticks (0 or a negative error); before takt_init. */
int hp_configure(uint64_t end_ticks);

/* Models ns test-ns of execution by the calling task (0: just takes a switch
 * the tick asked for). The target takes whole ticks only. */
void hp_work_ns(uint64_t ns);

/* Virtual time now, in test ns. */
uint64_t hp_now_ns(void);

/*
 * handler(arg) runs in interrupt context at test time at_ns, bracketed by
 * takt_isr_enter/exit(irq); interrupts due at one instant run after the tick
 * due then, in injection order. 0, or TAKT_ERR_ARG (null handler, irq 0 which
 * is the tick's, an instant in the past; on the target also one in the first
 * tick), TAKT_ERR_NOMEM (too many pending).
 */
int hp_inject_irq(uint64_t at_ns, unsigned irq, void (*handler)(void *arg), void *arg);

/* Ends the run now (from a task): takt_start returns. */
void hp_stop(void);

/* Interrupts handled so far in this run (the tick included). */
uint64_t hp_interrupts(void);

/* A trace stamp of this run as test ns. */
uint64_t hp_stamp_ns(takt_stamp_t stamp);

/* Called by the harness from the kernel's tick hook. */
void hp_tick(void);

#endif
