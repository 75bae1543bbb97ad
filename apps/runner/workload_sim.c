/* The runner's workload on the sim port: virtual time. */
#include <stdio.h>
#include <time.h>

#include "takt/takt.h"
#include "takt_sim.h"
#include "workload.h"

static uint64_t tick_ns;

static void report_progress(uint64_t now_ns, uint64_t end_ns)
{
    fprintf(stderr, "progress %.1f\n", 100.0 * (double)now_ns / (double)end_ns);
    fflush(stderr);
}

const char *workload_exact_work_unavailable(void)
{
    /* the kernel takes no virtual time: exact work is whole ticks */
    return "this port does not model kernel time";
}

int workload_configure(uint32_t tick_hz, uint32_t duration, bool progress,
                       workload_mode_t mode)
{
    if (mode != WORKLOAD_TICKS) {
        return TAKT_ERR_ARG;
    }
    tick_ns = 1000000000ull / tick_hz;
    takt_sim_params_t sim = {
        .tick_period_ns = tick_ns,
        .end_ns = (uint64_t)duration * tick_ns,
        .progress = progress ? report_progress : NULL,
        .progress_every_ns = (uint64_t)duration * tick_ns / 100u,
    };
    return takt_sim_configure(&sim);
}

void workload_work_ticks(uint32_t ticks, volatile uint64_t *worked)
{
    (void)worked;
    takt_sim_work((uint64_t)ticks * tick_ns);
}

uint64_t workload_clock(void)
{
    return 0;
}

workload_usage_t workload_usage(uint64_t worked, uint64_t drain_clock)
{
    (void)worked;
    (void)drain_clock;
    return (workload_usage_t){.measured = false};
}

uint64_t workload_stamp_ns(uint64_t stamp)
{
    return stamp; /* already virtual ns */
}

const char *workload_trace_header(void)
{
    return "";
}

uint64_t workload_interrupts(void)
{
    return takt_sim_interrupts();
}

/* The sim's virtual time stands still while the runner drains. */
uint32_t workload_drain_begin(void)
{
    return 0;
}

void workload_drain_end(uint32_t begun)
{
    (void)begun;
}

bool workload_device_counts(unsigned unit, workload_device_counts_t *counts)
{
    hwpq_model_counts_t model;
    if (takt_sim_hwpq_counts(unit, &model) != TAKT_OK) {
        return false;
    }
    *counts = (workload_device_counts_t){.inserts = model.inserts,
                                         .removes = model.removes,
                                         .pops = model.pops,
                                         .reads = model.reads,
                                         .writes = model.writes};
    return true;
}

double workload_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
