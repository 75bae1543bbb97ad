/*
 * The runner's workload on a Cortex-M target: whole ticks of calibrated busy
 * work (takt_arm_work_ticks), stamps in SysTick counts converted to ns of
 * (virtual) time, input and trace through the host's files (semihosting).
 */
#include "takt/takt.h"
#include "takt_armv7m.h"
#include "workload.h"

int workload_configure(uint32_t tick_hz, uint32_t duration, bool progress)
{
    (void)progress; /* no progress reports from the target */
    takt_arm_params_t params = {.tick_hz = tick_hz, .end_ticks = duration};
    return takt_arm_configure(&params);
}

void workload_work_ticks(uint32_t ticks)
{
    takt_arm_work_ticks(ticks);
}

uint64_t workload_stamp_ns(uint64_t stamp)
{
    return takt_arm_counts_to_ns(stamp);
}

const char *workload_trace_header(void)
{
    /* Kernel work takes time here: events land just after the tick the sim
     * stamps them with; the toolkit rounds stamps to the nearest tick. */
    return "stamps nearest-tick\n";
}

uint64_t workload_interrupts(void)
{
    return takt_arm_interrupts();
}

double workload_wall_seconds(void)
{
    return 0.0;
}
