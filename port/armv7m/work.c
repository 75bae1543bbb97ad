/*
 * Modelled work on the target: calibrated busy loops. Under QEMU -icount
 * every instruction takes the same virtual time, so the loops are exact.
 */
#include "takt/takt.h"
#include "takt_armv7m.h"

bool takt_arm_run_ending(void);

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
 * consecutive readings of the clock; a gap much longer than a reading means
 * it was preempted, and does not count. Work ends at the boundary where the
 * time worked is closest to the requested whole ticks.
 */
void takt_arm_work_ticks(uint32_t ticks)
{
    takt_arm_release_switch(); /* a switch held by the previous work is due now */
    if (ticks == 0) {
        return;
    }
    const uint64_t tick = takt_arm_tick_counts();
    const uint64_t want = ticks * tick;
    const uint64_t guard = tick / 32u;     /* how close to the boundary the end waits */
    const uint64_t preempted = tick / 64u; /* a gap this long was someone else running */
    uint64_t worked = 0;
    uint64_t last = takt_arm_now_counts();
    for (;;) {
        takt_arm_spin(16);
        uint64_t now = takt_arm_now_counts();
        uint64_t gap = now - last;
        last = now;
        worked += gap < preempted ? gap : 0;
        uint64_t to_boundary = tick - now % tick;
        if (to_boundary <= guard && worked + to_boundary + tick / 2u >= want) {
            uint64_t boundary = now / tick + 1u;
            takt_arm_hold_switch();
            while (takt_arm_ticks_handled() < boundary) {
                takt_arm_spin(4);
            }
            if (takt_arm_run_ending()) {
                takt_arm_release_switch();
            }
            return;
        }
    }
}
