/*
 * Instruction counts on a Cortex-M under QEMU -icount, read off SysTick
 * (the method of kernel_costs.c, shared by the target benchmarks): a window
 * is SysTick's current value read at both ends, the reads' own cost
 * subtracted and the counts rounded to instructions (exact for shift >= 7).
 */
#ifndef TAKT_BENCH_ICOUNT_METER_H
#define TAKT_BENCH_ICOUNT_METER_H

#include <stdint.h>

#include "armv7m_regs.h"
#include "takt_armv7m.h"

/* All inline, as they were in each program: a window's two reads must be
 * the only instructions it adds, and the code around the windows stays as
 * it was measured. */
static inline uint32_t cvr(void)
{
    return SYST_CVR;
}

extern unsigned meter_shift;     /* QEMU -icount shift: an instruction is 2^shift ns */
extern uint32_t meter_read_cost; /* counts between two back-to-back reads */

/* Reads --shift from the arguments, prints the board and shift lines, and
 * measures the read cost with SysTick counting (no interrupt) at tick_hz's
 * reload; SysTick is left counting for further calibration (meter_stop). */
void meter_begin(int argc, char **argv, unsigned tick_hz);
void meter_stop(void);

/* Counts from reading a to reading b (SysTick counts down, reloads at 0). */
static inline uint32_t counts_between(uint32_t a, uint32_t b)
{
    uint32_t period = takt_arm_tick_counts();
    return a >= b ? a - b : a + period - b;
}

static inline uint32_t to_instructions(uint32_t counts)
{
    /* counts * ns-per-count / ns-per-instruction, rounded */
    uint64_t ns_x = (uint64_t)counts * 1000000000ull;
    uint64_t per = (uint64_t)takt_arm_core_hz() << meter_shift;
    return (uint32_t)((ns_x + per / 2u) / per);
}

typedef struct {
    uint32_t n, min, max;
    uint64_t sum;
} stats_t;

/* Adds one window (in counts, the reads included) as instructions. */
static inline void stats_add(stats_t *s, uint32_t counts_window)
{
    uint32_t c = counts_window >= meter_read_cost ? counts_window - meter_read_cost : 0;
    uint32_t v = to_instructions(c);
    if (s->n == 0 || v < s->min) {
        s->min = v;
    }
    if (s->n == 0 || v > s->max) {
        s->max = v;
    }
    s->sum += v;
    s->n++;
}

#endif
