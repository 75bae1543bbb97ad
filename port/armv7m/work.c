/*
 * Modelled work on the target: calibrated busy loops. Under QEMU -icount
 * every instruction takes the same virtual time, so the loops are exact.
 */
#include "takt/takt.h"
#include "takt_armv7m.h"

__attribute__((naked, noinline)) void takt_arm_spin(uint32_t iterations)
{
    (void)iterations;
    __asm volatile(
        "cbz r0, 2f\n"
        "1: subs r0, r0, #1\n"
        "bne 1b\n"
        "2: bx lr\n");
}

/*
 * The caller's processor time is the sum of the gaps between its own
 * consecutive readings of the clock; a gap longer than a reading takes means
 * it was preempted (or an interrupt ran) and only a reading's worth counts.
 * Work ends next to the boundary where the time worked is closest to the
 * requested whole ticks, so rounding errors do not pile up job after job.
 */
void takt_arm_work_ticks(uint32_t ticks, takt_arm_work_end_t end)
{
    if (ticks == 0) {
        return;
    }
    const uint64_t tick = takt_arm_tick_counts();
    const uint64_t want = ticks * tick;
    const uint64_t guard = tick / 32u;      /* room before a boundary to finish the job */
    const uint64_t preempted = tick / 64u;  /* a gap this long was someone else running */
    uint64_t worked = 0;
    uint64_t last = takt_arm_now_counts();
    for (;;) {
        takt_arm_spin(16);
        uint64_t now = takt_arm_now_counts();
        uint64_t gap = now - last;
        last = now;
        worked += gap < preempted ? gap : 0;
        uint64_t into = now % tick;
        if (end == TAKT_ARM_END_BEFORE_TICK) {
            uint64_t to_boundary = tick - into;
            if (to_boundary <= guard && worked + to_boundary + tick / 2u >= want) {
                return;
            }
        } else if (into < tick / 2u && worked + tick / 2u >= want + into) {
            return;
        }
    }
}
