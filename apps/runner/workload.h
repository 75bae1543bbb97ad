/*
 * What the runner needs from the port it runs on, beyond the kernel API:
 * set up a run, model a task's work, read the time of day, turn trace
 * stamps into nanoseconds, and (where the port can) say where the run's time
 * went. workload_sim.c (virtual time) and, for Cortex-M,
 * apps/target/runner/workload_armv7m.c (calibrated busy loops) implement it.
 */
#ifndef TAKT_RUNNER_WORKLOAD_H
#define TAKT_RUNNER_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* How a task's work is modelled. TICKS: whole ticks, ending on a tick
 * boundary as on the sim, so the timeline is the sim's (kernel time is
 * absorbed). EXACT: the wcet's worth of the task's own execution, with the
 * kernel's time on top, as on a real processor; only where the kernel takes
 * time (a target). */
typedef enum { WORKLOAD_TICKS, WORKLOAD_EXACT } workload_mode_t;

/* Why this runner cannot model work exactly, or NULL if it can: only where
 * the kernel takes time, and its idle time is accounted. */
const char *workload_exact_work_unavailable(void);

/* Sets up a run of duration ticks at tick_hz; progress reports (stderr) if
 * asked and the port can. 0, or a negative takt error (TAKT_ERR_ARG also for
 * a mode the port does not have). Before takt_init. */
int workload_configure(uint32_t tick_hz, uint32_t duration, bool progress,
                       workload_mode_t mode);

/* Models `ticks` ticks of the calling task's execution. *worked is the
 * task's own count of exact work done (workload_usage's unit). */
void workload_work_ticks(uint32_t ticks, volatile uint64_t *worked);

/* The port's clock, in its own units: for timing the runner's own work. */
uint64_t workload_clock(void);

/* Around a trace drain: where the kernel's clock is the time the run is
 * measured in (a target), the drain takes none of it (workload_armv7m.c). */
uint32_t workload_drain_begin(void);
void workload_drain_end(uint32_t begun);

/* Where a run's time went, where the port measures it (`measured`): asleep
 * in the idle loop, the tasks' exact work (the sum of their counts), and the
 * runner's trace drains (`drain_clock`, workload_clock units). */
typedef struct {
    bool measured;
    uint64_t idle_ns;
    uint64_t work_ns;
    uint64_t drain_ns;
} workload_usage_t;
workload_usage_t workload_usage(uint64_t worked, uint64_t drain_clock);

/* A trace stamp in nanoseconds since the start of the run. */
uint64_t workload_stamp_ns(uint64_t stamp);

/* Extra trace-header lines for this port (may be ""). */
const char *workload_trace_header(void);

/* Interrupts handled during the run (tick included). */
uint64_t workload_interrupts(void);

/* Host seconds, for the run's wall time (0 where there is no clock). */
double workload_wall_seconds(void);

/* What a unit of the hardware priority queue did in the run: its commands,
 * and the register accesses that made them (the HWDS study's counters). */
typedef struct {
    uint64_t inserts;
    uint64_t removes;
    uint64_t pops;
    uint64_t reads;
    uint64_t writes;
} workload_device_counts_t;

/* The counts of the device's unit (TAKT_PQ_HW_READY_UNIT or
 * TAKT_PQ_HW_TIMER_UNIT); false on a port without the device. */
bool workload_device_counts(unsigned unit, workload_device_counts_t *counts);

#endif
