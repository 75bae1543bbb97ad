/*
 * What the FreeRTOS-API programs need from the platform beyond FreeRTOS:
 * modelled work, the current time, and interrupts injected at an instant. On
 * the sim they are takt_sim_* themselves (macros: no extra frame on a task's
 * stack, whose high-water marks the transcripts print); on the Cortex-M
 * boards, the kernel tests' port (rtos_port_armv7m.c over
 * tests/target/harness_port_armv7m.c: calibrated whole-tick busy work,
 * interrupts from the tick hook and the board's timer 0). So one program runs
 * on both and is checked by the same transcript.
 *
 * Times are ns since the scheduler started (one tick is RTOS_TICK_NS). The
 * sim models every instant exactly; the target models whole ticks of work
 * only (RTOS_SUBTICK_WORK is 0 there: the checks that need sub-tick work are
 * left out with a reason) and reports times snapped to the tick boundary or
 * injection instant they belong to. Interrupts are counted as they are
 * handled (rtos_interrupts: tickless.c checks the ticks a sleep leaves out).
 */
#ifndef RTOS_PORT_H
#define RTOS_PORT_H

#include <stdint.h>

#include "FreeRTOS.h"

#define RTOS_TICK_NS (1000000000ull / configTICK_RATE_HZ)

#ifdef TAKT_TEST_TARGET

#define RTOS_SUBTICK_WORK 0

/* The calling task executes for ns ns (preemptible); whole ticks only. */
void rtos_work_ns(uint64_t ns);

/* Time now, in ns. */
uint64_t rtos_now_ns(void);

/* handler(arg) runs in interrupt context at at_ns, bracketed by
 * takt_isr_enter/exit(irq); 0 or an error as takt_sim_inject_irq's, and also
 * TAKT_ERR_ARG for an instant in the first tick. */
int rtos_inject_irq(uint64_t at_ns, unsigned irq, void (*handler)(void *arg), void *arg);

/* From the application's tick hook (rtos_check.h): injections start there. */
void rtos_port_tick(void);

/* Interrupts handled so far: the kernel's tick interrupts and the injected
 * ones (not the port's own housekeeping, such as the interrupt that starts
 * an injection inside a tick), as takt_sim_interrupts counts them. */
uint64_t rtos_interrupts(void);

/* Returns once an interrupt is pending, spinning with interrupts held off:
 * the board's stand-in for WFI in tickless.c's configPRE_SLEEP_PROCESSING
 * (which then sets x to 0, the application having slept itself). Under
 * -icount sleep=off QEMU's clocks count a WFI's skipped time differently
 * (an interrupt from timer 0 25.5 ticks into a tickless sleep came at
 * SysTick's tick 51); spinning, every clock counts instructions. */
void rtos_spin_until_interrupt(void);

/* Times are the board's: a check of an exact instant or run time has a
 * bounded target form, or is left out with a reason. */
#define RTOS_EXACT_TIME 0

/* The run-time statistics' counter (task_info.c): microseconds of the
 * board's SysTick time since rtos_run_time_start (rtos_port_armv7m.c says why
 * not a CMSDK timer); it wraps at 2^32 us as FreeRTOS expects. */
void rtos_run_time_start(void);
uint32_t rtos_run_time_us(void);

#else

#include "takt_sim.h"

#define RTOS_SUBTICK_WORK 1
#define rtos_work_ns(ns) takt_sim_work(ns)
#define rtos_now_ns() takt_sim_now()
#define rtos_inject_irq(at_ns, irq, handler, arg) takt_sim_inject_irq((at_ns), (irq), (handler), (arg))
#define rtos_port_tick() ((void)0)
#define rtos_interrupts() takt_sim_interrupts()
#define RTOS_EXACT_TIME 1
/* Virtual microseconds: every run time exact. */
#define rtos_run_time_start() ((void)0)
#define rtos_run_time_us() ((uint32_t)(takt_sim_now() / 1000u))

#endif

#endif
