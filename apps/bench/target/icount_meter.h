/*
 * Instruction counts on a Cortex-M under QEMU -icount, read off SysTick
 * (the method of kernel_costs.c, shared by the target benchmarks): a window
 * is SysTick's current value read at both ends, the reads' own cost
 * subtracted and the counts rounded to instructions (exact for shift >= 7).
 */
#ifndef TAKT_BENCH_ICOUNT_METER_H
#define TAKT_BENCH_ICOUNT_METER_H

#include <stdbool.h>
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

/* Guest instructions from reading a to the later reading b. */
static inline uint32_t instructions_between(uint32_t a, uint32_t b)
{
    return to_instructions(counts_between(a, b));
}

/*
 * Instructions with interrupts masked, from the port's meter in the programs
 * built with TAKT_ARM_MASK_METER (the -masked ones; in the others METER_MASKED
 * is 0 and the masked code compiles away). A window's mark is taken just
 * before its first clock read. Two kinds of window are measurable: one that
 * starts and ends outside every kernel critical section (its masked
 * instructions are the sections logged in it, each whole), and one that lies
 * entirely inside one section (all of it is masked).
 */
#ifdef TAKT_ARM_MASK_METER
#include "takt_arm_mask_meter.h"
#include "takt_port_inline.h"
#define METER_MASKED 1
#else
#define METER_MASKED 0
#endif

typedef struct {
    uint32_t logged; /* sections logged before the window */
    bool inside;     /* a section was open at the window's start */
} masked_mark_t;

static inline masked_mark_t masked_mark(void)
{
    masked_mark_t m = {0, false};
#if METER_MASKED
    m.logged = takt_arm_mask_meter_mark();
    m.inside = takt_arm_in_critical();
#endif
    return m;
}

/* Masked instructions of the window that began at mark and took `window`
 * instructions; UINT32_MAX when the window is of neither kind (a section
 * open at one end only, or ended and another begun in between) or the log
 * overflowed. */
static inline uint32_t masked_in_window(masked_mark_t mark, uint32_t window)
{
#if METER_MASKED
    bool inside_now = takt_arm_in_critical();
    if (mark.inside) {
        return inside_now && takt_arm_mask_meter_mark() == mark.logged ? window : UINT32_MAX;
    }
    return inside_now ? UINT32_MAX : takt_arm_masked_since(mark.logged, instructions_between);
#else
    (void)mark;
    (void)window;
    return 0;
#endif
}

typedef struct {
    uint32_t n, min, max;
    uint64_t sum;
    /* masked instructions of the same windows (meter builds) */
    uint32_t masked_n, masked_min, masked_max, unmeasured;
    uint64_t masked_sum;
} stats_t;

/* Adds one window (in counts, the reads included) as instructions; returns them. */
static inline uint32_t stats_add(stats_t *s, uint32_t counts_window)
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
    return v;
}

/* Records the masked instructions of the window just added (window: its
 * instructions, as stats_add returned them). Nothing in plain builds. */
static inline void stats_add_masked(stats_t *s, masked_mark_t mark, uint32_t window)
{
    if (!METER_MASKED) {
        return;
    }
    uint32_t m = masked_in_window(mark, window);
    if (m == UINT32_MAX) {
        s->unmeasured++;
        return;
    }
    if (s->masked_n == 0 || m < s->masked_min) {
        s->masked_min = m;
    }
    if (s->masked_n == 0 || m > s->masked_max) {
        s->masked_max = m;
    }
    s->masked_sum += m;
    s->masked_n++;
}

/* Prints "masked,<key>,<n>,<min>,<max>,<mean x100>,<unmeasured>" for s in a
 * meter build (key: the fields that name the sample set in its bench line). */
void meter_report_masked(const char *key, const stats_t *s);

/* A window with its masked instructions. */
static inline void stats_add_window(stats_t *s, uint32_t counts_window, masked_mark_t mark)
{
    uint32_t v = stats_add(s, counts_window);
    stats_add_masked(s, mark, v);
}

#endif
