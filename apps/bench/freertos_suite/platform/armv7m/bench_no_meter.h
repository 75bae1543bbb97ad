/* The suite's masked-instruction interface for a build without a meter
 * (FreeRTOS's program, Takt's plain ones): BENCH_MASKED 0, and the suite
 * prints no masked counts. */
#ifndef BENCH_NO_METER_H
#define BENCH_NO_METER_H

#include <stdint.h>

#define BENCH_MASKED 0
typedef uint32_t bench_masked_mark_t;

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
