/*
 * What the runner needs from the port it runs on, beyond the kernel API:
 * set up a run, model a task's work, read the time of day, and turn trace
 * stamps into nanoseconds. workload_sim.c (virtual time) and, for Cortex-M,
 * apps/target/runner/workload_armv7m.c (calibrated busy loops) implement it.
 */
#ifndef TAKT_RUNNER_WORKLOAD_H
#define TAKT_RUNNER_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

/* Sets up a run of duration ticks at tick_hz; progress reports (stderr) if
 * asked and the port can. 0, or a negative takt error. Before takt_init. */
int workload_configure(uint32_t tick_hz, uint32_t duration, bool progress);

/* Models `ticks` whole ticks of the calling task's execution. */
void workload_work_ticks(uint32_t ticks);

/* A trace stamp in nanoseconds since the start of the run. */
uint64_t workload_stamp_ns(uint64_t stamp);

/* Extra trace-header lines for this port (may be ""). */
const char *workload_trace_header(void);

/* Interrupts handled during the run (tick included). */
uint64_t workload_interrupts(void);

/* Host seconds, for the run's wall time (0 where there is no clock). */
double workload_wall_seconds(void);

#endif
