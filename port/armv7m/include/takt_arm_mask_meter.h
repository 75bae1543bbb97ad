/*
 * The reader of the port's masked-instruction meter (builds with
 * TAKT_ARM_MASK_METER; the log is described in takt_armv7m.h), shared by the
 * benchmarks that report instructions executed with interrupts masked
 * (apps/bench/freertos_suite, apps/bench/target). Each benchmark brings its
 * own clock conversion: a section's two readings are converted on their own,
 * since rounding is exact per reading pair, not for a sum of counts.
 */
#ifndef TAKT_ARM_MASK_METER_H
#define TAKT_ARM_MASK_METER_H

#ifndef TAKT_ARM_MASK_METER
#error "takt_arm_mask_meter.h needs a build with TAKT_ARM_MASK_METER"
#endif

#include <stdint.h>

#include "takt_armv7m.h"

/* Guest instructions from SysTick reading `from` to the later reading `to`. */
typedef uint32_t (*takt_arm_reading_to_instructions_t)(uint32_t from, uint32_t to);

/* A mark: the number of sections logged so far. */
static inline uint32_t takt_arm_mask_meter_mark(void)
{
    return takt_arm_mask_meter.count;
}

/* Masked instructions of the sections logged since mark (each from the
 * instruction after its raising msr through its lowering msr, the meter's
 * own instructions left out); UINT32_MAX when more sections were logged than
 * the log holds. A section still open is not in it. */
static inline uint32_t takt_arm_masked_since(uint32_t mark, takt_arm_reading_to_instructions_t instructions)
{
    uint32_t end = takt_arm_mask_meter.count;
    if (end - mark > TAKT_ARM_MASK_METER_ENTRIES) {
        return UINT32_MAX;
    }
    uint32_t total = 0;
    for (uint32_t k = mark; k != end; k++) {
        uint32_t slot = k % TAKT_ARM_MASK_METER_ENTRIES;
        total += instructions(takt_arm_mask_meter.log[slot].start, takt_arm_mask_meter.log[slot].end) -
                 TAKT_ARM_MASK_METER_SELF;
    }
    return total;
}

#endif
