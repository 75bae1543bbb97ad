/*
 * The runner's input: a compiled scenario in a line format the Python toolkit
 * writes after it has validated the TOML file (so errors here are about a
 * malformed input, not a user's scenario):
 *
 *   takt-scenario 1
 *   system <tick_hz> <duration_ticks> <round_robin 0|1> <tick_start> [<scheduler> [<preemption>]]
 *     scheduler: fp (default) | fp-list | edf-heap | edf-mlist | edf-rbtree | hsf
 *     preemption: full (default) | none | deferred
 *   server <priority> <period> <budget> <offset> <idling|deferrable> <name>   (hsf only,
 *     before every task line; indexed 0, 1, ... in line order)
 *   task <priority> <period> <wcet> <deadline> <offset> <name (rest of line)>
 *   server-of <index>        (hsf: exactly one, right after each task line)
 *   segments <c1> <c2> ...   (non-preemptive subjobs of the task before)
 *     scheduler hsf: two-level hierarchy of servers, preemption full only
 */
#ifndef TAKT_RUNNER_SCENARIO_INPUT_H
#define TAKT_RUNNER_SCENARIO_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define RUNNER_MAX_TASKS 1000 /* the kernel is built for 1,024 with idle */
#define RUNNER_MAX_NAME 32
#define RUNNER_MAX_SEGMENTS 64
#define RUNNER_MAX_SERVERS 256 /* the runner's kernel configuration */

typedef struct {
    char name[RUNNER_MAX_NAME];
    uint32_t priority;
    uint32_t period;
    uint32_t wcet;
    uint32_t deadline;
    uint32_t offset;
    uint32_t segment_count; /* 0: the job is one piece of work */
    uint32_t segments[RUNNER_MAX_SEGMENTS];
    int server; /* index of its server (hsf); -1 otherwise */
} runner_task_t;

typedef struct {
    char name[RUNNER_MAX_NAME];
    uint32_t priority;
    uint32_t period;
    uint32_t budget;
    uint32_t offset;
    int type; /* takt_server_type_t */
} runner_server_t;

typedef struct {
    uint32_t tick_hz;
    uint32_t duration;
    bool round_robin;
    uint32_t tick_start;
    int scheduler;  /* takt_scheduler_t */
    int preemption; /* takt_preemption_t */
    uint32_t server_count;
    runner_server_t servers[RUNNER_MAX_SERVERS];
    uint32_t task_count;
    runner_task_t tasks[RUNNER_MAX_TASKS];
} runner_scenario_t;

/* Parses in into *out; on error writes a message naming the line to err and returns false. */
bool scenario_input_read(FILE *in, runner_scenario_t *out, char *err, size_t err_size);

#endif
