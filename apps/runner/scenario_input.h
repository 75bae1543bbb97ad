/*
 * The runner's input: a compiled scenario in a line format the Python toolkit
 * writes after it has validated the TOML file (so errors here are about a
 * malformed input, not a user's scenario):
 *
 *   takt-scenario 1
 *   system <tick_hz> <duration_ticks> <round_robin 0|1> <tick_start> [<scheduler> [<preemption>]]
 *     scheduler: fp (default) | edf-heap | edf-mlist | edf-rbtree
 *     preemption: full (default) | none | deferred
 *   segments <c1> <c2> ...   (non-preemptive subjobs of the task on the line before)
 *   task <priority> <period> <wcet> <deadline> <offset> <name (rest of line)>
 */
#ifndef TAKT_RUNNER_SCENARIO_INPUT_H
#define TAKT_RUNNER_SCENARIO_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define RUNNER_MAX_TASKS 1000 /* the kernel is built for 1,024 with idle */
#define RUNNER_MAX_NAME 32
#define RUNNER_MAX_SEGMENTS 64

typedef struct {
    char name[RUNNER_MAX_NAME];
    uint32_t priority;
    uint32_t period;
    uint32_t wcet;
    uint32_t deadline;
    uint32_t offset;
    uint32_t segment_count; /* 0: the job is one piece of work */
    uint32_t segments[RUNNER_MAX_SEGMENTS];
} runner_task_t;

typedef struct {
    uint32_t tick_hz;
    uint32_t duration;
    bool round_robin;
    uint32_t tick_start;
    int scheduler;  /* takt_scheduler_t */
    int preemption; /* takt_preemption_t */
    uint32_t task_count;
    runner_task_t tasks[RUNNER_MAX_TASKS];
} runner_scenario_t;

/* Parses in into *out; on error writes a message naming the line to err and returns false. */
bool scenario_input_read(FILE *in, runner_scenario_t *out, char *err, size_t err_size);

#endif
