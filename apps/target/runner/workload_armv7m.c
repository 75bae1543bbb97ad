/*
 * The runner's workload on a Cortex-M target: calibrated busy work, of whole
 * ticks (takt_arm_work_ticks) or exact (takt_arm_work_exact), stamps in
 * SysTick counts converted to ns of (virtual) time, input and trace through
 * the host's files (semihosting).
 */
#include "takt/takt.h"
#include "takt_armv7m.h"
#include "workload.h"

static workload_mode_t work_mode;

const char *workload_exact_work_unavailable(void)
{
    /* Exact work reports the idle loop's time, which only a kernel that
     * accounts it (never a tickless one) measures. */
    return TAKT_CONFIG_ARM_IDLE_ACCOUNTING ? NULL : "a tickless kernel does not account its idle time";
}

int workload_configure(uint32_t tick_hz, uint32_t duration, bool progress,
                       workload_mode_t mode)
{
    (void)progress; /* no progress reports from the target */
    work_mode = mode;
    if (mode == WORKLOAD_EXACT) {
        int rc = takt_arm_exact_work_calibrate();
        if (rc != TAKT_OK) {
            return rc;
        }
    }
    takt_arm_params_t params = {.tick_hz = tick_hz, .end_ticks = duration};
    return takt_arm_configure(&params);
}

void workload_work_ticks(uint32_t ticks, volatile uint64_t *worked)
{
    if (work_mode == WORKLOAD_EXACT) {
        takt_arm_work_exact(ticks, worked);
    } else {
        takt_arm_work_ticks(ticks);
    }
}

uint64_t workload_clock(void)
{
    return takt_arm_clock_counts();
}

/* A drain writes to the host (semihosting), and under -icount the clock
 * read across that call is not reliable: drains of 1,024 events measured
 * from 22 to 148,000 instructions with the shift, once negative, and that
 * error went into exact work's kernel time. With SysTick stopped the drain
 * takes none of the run's time, as on the sim. */
uint32_t workload_drain_begin(void)
{
    return takt_arm_clock_pause();
}

void workload_drain_end(uint32_t begun)
{
    takt_arm_clock_resume(begun);
}

workload_usage_t workload_usage(uint64_t worked, uint64_t drain_clock)
{
    return (workload_usage_t){
        .measured = work_mode == WORKLOAD_EXACT,
        .idle_ns = takt_arm_counts_to_ns(takt_arm_idle_counts()),
        .work_ns = takt_arm_counts_to_ns(takt_arm_exact_work_counts(worked)),
        .drain_ns = takt_arm_counts_to_ns(drain_clock),
    };
}

uint64_t workload_stamp_ns(uint64_t stamp)
{
    return takt_arm_counts_to_ns(stamp);
}

const char *workload_trace_header(void)
{
    /* Kernel work takes time here: with whole-tick work events land just
     * after the tick the sim stamps them with, and the toolkit rounds stamps
     * to the nearest tick; with exact work they fall anywhere in a tick, and
     * count at the kernel's tick count. */
    return work_mode == WORKLOAD_EXACT ? "stamps tick-count\n" : "stamps nearest-tick\n";
}

uint64_t workload_interrupts(void)
{
    return takt_arm_interrupts();
}

/* The boards have no hardware queue: the runner's programs emulate one
 * (port/armv7m/hwpq_emulated.c), hidden from the kernel's clock. */
bool workload_device_counts(unsigned unit, workload_device_counts_t *counts)
{
#ifdef TAKT_ARM_HWPQ_EMULATED
    const hwpq_model_counts_t *model = takt_arm_hwpq_counts(unit);
    if (model == NULL) {
        return false;
    }
    *counts = (workload_device_counts_t){.inserts = model->inserts,
                                         .removes = model->removes,
                                         .pops = model->pops,
                                         .reads = model->reads,
                                         .writes = model->writes};
    return true;
#else
    (void)unit;
    (void)counts;
    return false;
#endif
}

double workload_wall_seconds(void)
{
    return 0.0;
}
