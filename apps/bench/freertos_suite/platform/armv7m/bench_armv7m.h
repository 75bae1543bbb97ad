/*
 * What both Cortex-M platform files of the suite (Takt's and FreeRTOS's) do
 * alike on the QEMU boards: the clock and its conversion to instructions, the
 * tick and the benchmark interrupt pended by software, and the clock check.
 * The includer defines BENCH_IRQ_PRIORITY (the suite's interrupt's NVIC
 * priority: one its kernel lets call the FromISR functions).
 *
 * Time: QEMU runs with -icount shift=7, so every guest instruction is 128 ns
 * of virtual time; SysTick counts the 25 MHz processor clock (40 ns), 3.2
 * counts per instruction. A reading is floor or ceil of the exact count, so a
 * difference of d counts is 3.2 m +- <1 for m instructions, and
 * m = (5 d + 8) / 16 (d / 3.2 rounded) is exact. Exception entry and exit
 * execute no guest instructions. Both kernels tick at 100 Hz from SysTick
 * (a reload every 250,000 counts).
 */
#ifndef BENCH_ARMV7M_H
#define BENCH_ARMV7M_H

#include <stdint.h>

#include "armv7m_regs.h"
#include "board.h"
#include "takt_armv7m.h"

#define BENCH_ICOUNT_SHIFT 7u

typedef uint32_t bench_clock_t;

static inline bench_clock_t bench_clock(void)
{
    return SYST_CVR;
}

/* SysTick counts down and reloads from SYST_RVR; at most one reload apart. */
static inline uint32_t bench_instructions(bench_clock_t from, bench_clock_t to)
{
    uint32_t counts = from >= to ? from - to : from + (SYST_RVR + 1u) - to;
    return (counts * 5u + 8u) / 16u;
}

/* The tick: SysTick pended by software runs the same handler a timer reload
 * runs (the kernel's tick count runs ahead of SysTick's; nothing here cares). */
static inline void bench_tick_trigger(void)
{
    SCB_ICSR = SCB_ICSR_PENDSTSET;
}

#define BENCH_IRQ TAKT_BOARD_SPARE_IRQ

static inline void bench_irq_attach(void (*handler)(void))
{
    (void)takt_arm_irq_attach(BENCH_IRQ, handler, BENCH_IRQ_PRIORITY);
}

static inline void bench_irq_trigger(void)
{
    NVIC_ISPR(BENCH_IRQ / 32u) = 1u << (BENCH_IRQ % 32u);
}

/* The clock must count instructions exactly: a loop of known length
 * (takt_arm_spin(n): the call, 2n loop instructions and the return) measured
 * for a few n. Nonzero when QEMU runs at another -icount shift or clock. */
static inline int bench_check_clock(void)
{
    SYST_CSR = 0;
    SYST_RVR = SYST_RVR_MAX;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_ENABLE; /* counting, no interrupt */
    bench_clock_t r0 = bench_clock();
    bench_clock_t r1 = bench_clock();
    uint32_t read_overhead = bench_instructions(r0, r1);
    int bad = 0;
    uint32_t base = 0;
    for (uint32_t n = 10; n <= 14; n++) {
        bench_clock_t a = bench_clock();
        takt_arm_spin(n);
        bench_clock_t b = bench_clock();
        uint32_t insns = bench_instructions(a, b) - read_overhead;
        if (n == 10) {
            base = insns - 20u;
        } else if (insns != base + 2u * n) {
            bad = 1;
        }
    }
    SYST_CSR = 0;
    return bad;
}

#endif
