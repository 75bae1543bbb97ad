/*
 * Modelled work on the target: calibrated busy loops. Under QEMU -icount
 * every instruction takes the same virtual time, so the loops are exact.
 */
#include "armv7m_regs.h"
#include "takt/attributes.h"
#include "takt/takt.h"
#include "takt_armv7m.h"

bool takt_arm_run_ending(void);

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

/* ---- exact work ---- */

/* A chunk is short (about 530 instructions) so that the work a job asks for
 * is met to within half of one, and a run that ends mid-job leaves at most a
 * chunk per task uncounted. */
#define CHUNK_ITERATIONS 256u
#define CALIBRATION_CHUNKS 4096u

static uint32_t calibration_counts; /* SysTick counts of CALIBRATION_CHUNKS chunks */

/* The calibration times this same function, so its loop is part of a
 * chunk's cost. */
__attribute__((noinline)) static void work_chunks(uint64_t chunks, volatile uint64_t *worked)
{
    for (; chunks > 0; chunks--) {
        takt_arm_spin(CHUNK_ITERATIONS);
        *worked = *worked + 1u;
    }
}

TAKT_COLD int takt_arm_exact_work_calibrate(void)
{
    volatile uint64_t ignored = 0;
    SYST_CSR = 0;
    SYST_RVR = SYST_RVR_MAX;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_ENABLE;
    work_chunks(1, &ignored); /* past the counter's first reload */
    (void)SYST_CSR;           /* clears COUNTFLAG */
    uint32_t start = SYST_CVR;
    work_chunks(CALIBRATION_CHUNKS, &ignored);
    uint32_t end = SYST_CVR;
    bool wrapped = (SYST_CSR & SYST_CSR_COUNTFLAG) != 0;
    SYST_CSR = 0;
    if (wrapped || end >= start) {
        return TAKT_ERR_STATE; /* the processor is too slow for SysTick to time it */
    }
    calibration_counts = start - end;
    return TAKT_OK;
}

void takt_arm_work_exact(uint32_t ticks, volatile uint64_t *worked)
{
    if (calibration_counts == 0) {
        takt_arm_exit(71); /* takt_arm_exact_work_calibrate was not called */
    }
    uint64_t counts = (uint64_t)ticks * takt_arm_tick_counts();
    uint64_t chunks = (counts * CALIBRATION_CHUNKS + calibration_counts / 2u) / calibration_counts;
    work_chunks(chunks, worked);
}

uint64_t takt_arm_exact_work_counts(uint64_t chunks)
{
    return chunks * calibration_counts / CALIBRATION_CHUNKS;
}
