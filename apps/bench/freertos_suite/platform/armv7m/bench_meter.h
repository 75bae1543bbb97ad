/* The suite's masked-instruction interface on the Cortex-M boards, for both
 * kernels: a build with TAKT_ARM_MASK_METER reads the port's meter (Takt's
 * critical sections log themselves; FreeRTOS's through
 * ../freertos_armv7m/meter), BENCH_MASKED 1; any other build has no meter,
 * BENCH_MASKED 0, and the suite prints no masked counts. */
#ifndef BENCH_METER_H
#define BENCH_METER_H

#include <stdint.h>

typedef uint32_t bench_masked_mark_t;

#ifdef TAKT_ARM_MASK_METER
#include "takt_arm_mask_meter.h"

#define BENCH_MASKED 1

static inline bench_masked_mark_t bench_masked_mark(void)
{
    return takt_arm_mask_meter_mark();
}

/* Masked instructions of the sections logged since mark; UINT32_MAX when
 * more sections were logged than the log holds. */
static inline uint32_t bench_masked_since(bench_masked_mark_t mark)
{
    return takt_arm_masked_since(mark, bench_instructions);
}
#else
#define BENCH_MASKED 0

static inline bench_masked_mark_t bench_masked_mark(void)
{
    return 0;
}

static inline uint32_t bench_masked_since(bench_masked_mark_t mark)
{
    (void)mark;
    return 0;
}
#endif

#endif
