/*
 * The Cortex-M (ARMv7-M) port's own API: run length, time, modelled work,
 * application interrupts, console and exit.
 *
 * Interrupt priorities (8-bit NVIC values; lower is more urgent):
 *   0x00..TAKT_ARM_BASEPRI-1  never masked by the kernel; must not call it
 *   TAKT_ARM_KERNEL_IRQ_PRIORITY  SysTick and every interrupt that calls the
 *                             kernel (*_from_isr, takt_isr_enter/exit); one
 *                             level, so they never nest among themselves
 *   0xE0                     PendSV (the context switch), below everything
 * Kernel critical sections raise BASEPRI to TAKT_ARM_BASEPRI.
 */
#ifndef TAKT_ARMV7M_H
#define TAKT_ARMV7M_H

#include <stdbool.h>
#include <stdint.h>

#define TAKT_ARM_BASEPRI 0x40u
#define TAKT_ARM_KERNEL_IRQ_PRIORITY 0xC0u
#define TAKT_ARM_PENDSV_PRIORITY 0xE0u

typedef struct {
    uint32_t tick_hz;   /* kernel ticks per second; the core clock must be a multiple */
    uint64_t end_ticks; /* takt_start returns when this tick is due (0: runs forever) */
} takt_arm_params_t;

/* Configures the next run; call before takt_start. 0, or TAKT_ERR_ARG when the
 * tick does not divide the core clock into at most 2^24 SysTick counts. */
int takt_arm_configure(const takt_arm_params_t *params);

/* Core clock in Hz (the board's). */
uint32_t takt_arm_core_hz(void);

/* Time since takt_start: SysTick counts (the port's time stamps) and ns. */
uint64_t takt_arm_now_counts(void);
uint64_t takt_arm_counts_to_ns(uint64_t counts);
/* SysTick counts in one kernel tick. */
uint32_t takt_arm_tick_counts(void);

/* Stops the kernel's clock (SysTick) and starts it again where it stood: what
 * runs between takes no time on it, for work that is not the system's (a
 * runner's trace drain, whose host call the clock cannot time under -icount).
 * At most one count in progress is lost at each pause. With interrupts
 * masked, never nested, and not across an access of the emulated device. */
uint32_t takt_arm_clock_pause(void);
void takt_arm_clock_resume(uint32_t paused);

#ifdef TAKT_ARM_HWPQ_EMULATED
#include "hwpq_model.h"
/* The emulated hardware priority queue's counters (commands, register
 * accesses) of unit; NULL for a unit the board does not have. */
const hwpq_model_counts_t *takt_arm_hwpq_counts(unsigned unit);
#endif

/* Ends the run from a task: takt_start returns (like the sim's end of time). */
void takt_arm_stop(void);

/* Interrupts handled since takt_start: the ticks (the port handles no other). */
uint64_t takt_arm_interrupts(void);

/* Application interrupts: handler for external interrupt irq (0-based), run at
 * TAKT_ARM_KERNEL_IRQ_PRIORITY (or the given priority); pend sets it pending. */
int takt_arm_irq_attach(unsigned irq, void (*handler)(void), uint8_t priority);
void takt_arm_irq_pend(unsigned irq);

/* Start-up (Reset_Handler) and the end of a run: outside a run the thread
 * uses the main stack, and the process stack pointer is parked on a small
 * area of the port's, where a switch asked for outside a run saves and
 * restores the registers it finds (port_armv7m.c, run_boundary). */
void takt_arm_park_process_stack(void);

/* The port's: PendSV's vector. Outside a run it is PendSV_Handler, which
 * handles the boundaries; during a run, one that only switches
 * (port_armv7m.c), so no switch tests whether a run goes on. */
void takt_arm_set_pendsv(void (*handler)(void));

/* Busy loop of exactly `iterations` iterations of two instructions each. */
void takt_arm_spin(uint32_t iterations);

/*
 * Modelled work of whole ticks, with the sim's semantics at its end: the
 * caller runs (busy, preemptible) until it has executed about `ticks` ticks
 * of processor time, lets the interrupt of the tick boundary nearest to that
 * point run, and returns with any switch that tick asked for held back until
 * the caller's next kernel call (or next work): so "work ends at t, then the
 * task completes or delays at t" sees the tick at t, and the tick's
 * preemption follows the task's own call — exactly what the sim does when
 * work ends on a tick. Snapping to the boundary keeps kernel overheads from
 * adding up over a run. Context: task. See docs/ports.md.
 */
void takt_arm_work_ticks(uint32_t ticks);

/*
 * Exact work, for measuring what kernel overheads do to a schedule: the
 * caller executes `ticks` ticks' worth of instructions of its own (busy,
 * preemptible) and returns whenever that is done, so everything else that
 * runs (interrupts, the kernel, other tasks) comes on top, as on a real
 * processor. The work is done in chunks of a fixed instruction count; *worked
 * (the caller's own counter: no two tasks share one) grows by one per chunk
 * finished. takt_arm_exact_work_calibrate times the chunk with SysTick first:
 * once, before takt_start (it uses SysTick itself). Context: task. See
 * docs/ports.md.
 */
int takt_arm_exact_work_calibrate(void);
void takt_arm_work_exact(uint32_t ticks, volatile uint64_t *worked);
/* SysTick counts that `chunks` chunks of exact work take. */
uint64_t takt_arm_exact_work_counts(uint64_t chunks);

/* SysTick counts since the run started, read from the counter even inside
 * the tick's instant (takt_arm_now_counts gives the instant there). */
uint64_t takt_arm_clock_counts(void);
/* SysTick counts the idle loop has spent asleep (WFI) in this run; 0 unless
 * the program's configuration sets TAKT_CONFIG_ARM_IDLE_ACCOUNTING. */
uint64_t takt_arm_idle_counts(void);

/* Tickless idle (TAKT_CONFIG_TICKLESS_IDLE): the ticks the idle task's
 * sleeps left out since reset, its sleeps, and those an interrupt other than
 * the tick ended early. */
void takt_arm_tickless_stats(uint64_t *left_out, uint32_t *sleeps, uint32_t *woken_early);

/* SysTick interrupts handled since takt_start. */
uint64_t takt_arm_ticks_handled(void);
/* Holds back PendSV (BASEPRI at its level) until the caller's next kernel
 * critical section ends or takt_arm_release_switch; other interrupts run. */
void takt_arm_hold_switch(void);
void takt_arm_release_switch(void);

#ifdef TAKT_ARM_MASK_METER
/* Benchmark builds only (-DTAKT_ARM_MASK_METER for the kernel and the port):
 * entry k % ENTRIES of log holds the SysTick values (SYST_CVR) read in the
 * k-th outermost kernel critical section, 2 instructions before its raising
 * msr basepri (start) and 8 before its lowering one (end). Its masked stretch
 * (the instruction after the raising msr through the lowering msr, without
 * the meter's own instructions) is (start - end) in instructions minus
 * TAKT_ARM_MASK_METER_SELF. */
#define TAKT_ARM_MASK_METER_ENTRIES 64u
#define TAKT_ARM_MASK_METER_SELF 6u
typedef struct {
    uint32_t start;          /* scratch: the open section's start */
    volatile uint32_t count; /* sections logged so far */
    struct {
        uint32_t start, end;
    } log[TAKT_ARM_MASK_METER_ENTRIES];
} takt_arm_mask_meter_t;
extern takt_arm_mask_meter_t takt_arm_mask_meter;

/* The meter's instructions, as text over named registers (t, b, s, i, a:
 * scratch; level: the value written to BASEPRI; mask:
 * TAKT_ARM_MASK_METER_ENTRIES - 1, an immediate), so that every section is
 * logged by the very same fixed sequences: the port's C sections, PendSV's
 * assembly (port_armv7m.c), and the suite's meter for FreeRTOS itself
 * (apps/bench/freertos_suite). The meter's own instructions inside the
 * masked stretch are then a known constant (TAKT_ARM_MASK_METER_SELF); the
 * log is written before the lowering msr, so a section is logged before the
 * switch it may cause. READ leaves SYST_CVR in t and the meter's address in
 * b; LOG writes the open section's entry with t as its end. */
#define TAKT_ARM_METER_READ_ASM(t, b)                                                          \
    "movw " t ", #0xE018\n\tmovt " t ", #0xE000\n\t"                                          \
    "movw " b ", #:lower16:takt_arm_mask_meter\n\tmovt " b ", #:upper16:takt_arm_mask_meter\n\t" \
    "ldr " t ", [" t "]\n\t"
#define TAKT_ARM_METER_LOG_ASM(t, b, s, i, a, mask) \
    "ldr " s ", [" b "]\n\t"                         \
    "ldr " i ", [" b ", #4]\n\t"                     \
    "and " a ", " i ", " mask "\n\t"                 \
    "add " a ", " b ", " a ", lsl #3\n\t"            \
    "strd " s ", " t ", [" a ", #8]\n\t"             \
    "add " i ", " i ", #1\n\t"                       \
    "str " i ", [" b ", #4]\n\t"
#define TAKT_ARM_METER_RAISE_ASM(t, b, level) \
    TAKT_ARM_METER_READ_ASM(t, b) "str " t ", [" b "]\n\tmsr basepri, " level "\n\tisb\n\t"
#define TAKT_ARM_METER_LOWER_ASM(t, b, s, i, a, level, mask)                   \
    TAKT_ARM_METER_READ_ASM(t, b) TAKT_ARM_METER_LOG_ASM(t, b, s, i, a, mask) \
    "msr basepri, " level "\n\tisb\n\t"
#endif

/* Console (semihosting) and exit with a status QEMU returns as its own. */
void takt_arm_exit(int status) __attribute__((noreturn));

#endif
