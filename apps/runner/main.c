/*
 * takt-runner: executes a scenario on the kernel (sim port, or a Cortex-M
 * target through the workload interface, workload.h).
 *
 *   takt-runner [-o TRACE] [--progress] [--work ticks|exact] INPUT|-
 *
 * Every task body is its synthetic workload: work for wcet ticks, then
 * takt_job_end(); a task with segments works each segment in turn with a
 * preemption point between them. --work exact (targets only) makes the work
 * exact instead of ending on tick boundaries (workload.h). The output is the kernel trace, drained from the ring as it
 * fills: a text header (format, tick length, under hsf one line "server <index>
 * <name>" per server, one line "task <id> <name>" per task and under hsf
 * "task-server <task id> <server index>"), the line "events", then 16-byte
 * little-endian records (takt_trace_event_t).
 * A last line on stderr, "takt-stats ...", gives the run's counters, what
 * the hardware priority queue's units did if the run used them, and, with
 * exact work, where the run's time went (idle_ns, work_ns, drain_ns) and how
 * often the ring filled and was drained during the run (drains); and the
 * ticks a drain saw lost (ticks_lost), if any.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_input.h"
#include "takt/takt.h"
#include "workload.h"

#ifndef RUNNER_STACK_SIZE
#define RUNNER_STACK_SIZE (32u * 1024u)
#endif

typedef struct {
    uint32_t wcet;
    uint32_t segment_count;
    uint32_t segments[RUNNER_MAX_SEGMENTS];
    volatile uint64_t worked; /* the task's own count (workload_work_ticks) */
} synthetic_t;

static FILE *trace_out;
static bool trace_write_failed;
static uint64_t events_written;
static uint64_t drain_clock; /* workload_clock units spent draining */
static uint32_t drains;      /* drains that found events */
static uint32_t ticks_lost_seen; /* by a drain (drain_trace) */

/* The hook drains from wherever the ring fills: a task's kernel call, the
 * tick or the switch (PendSV), whose stacks on the target are 1 and 2 KiB.
 * So the batch is not on the stack; the kernel calls the hook with its lock
 * held, and the last drain comes after the run, so no two drains overlap. */
static void drain_trace(void)
{
    static takt_trace_event_t batch[256];
    uint64_t started = workload_clock();
    uint32_t begun = workload_drain_begin();
    uint64_t before = events_written;
    size_t n;
    while ((n = takt_trace_read(batch, 256)) > 0) {
        for (size_t i = 0; i < n; i++) {
            batch[i].stamp = workload_stamp_ns(batch[i].stamp);
        }
        if (fwrite(batch, sizeof(batch[0]), n, trace_out) != n) {
            trace_write_failed = true;
        }
        events_written += n;
    }
    workload_drain_end(begun);
    /* The clock stands still through the drain, so it reads back only when a
     * tick was lost in this window: the next wrap came while the one before
     * was still pending (the tick handled more than a tick late, as a long
     * tick handler on a slow processor is), and the kernel's tick count, the
     * clock with it, stays a tick behind for the rest of the run. That
     * drain's few instructions then go uncounted. */
    uint64_t ended = workload_clock();
    if (ended >= started) {
        drain_clock += ended - started;
    } else {
        ticks_lost_seen++;
    }
    drains += events_written != before;
}

void takt_trace_drain_hook(void)
{
    drain_trace();
}

static void synthetic_job_loop(void *arg)
{
    synthetic_t *work = arg;
    for (;;) {
        if (work->segment_count == 0) {
            workload_work_ticks(work->wcet, &work->worked);
        } else {
            for (uint32_t s = 0; s < work->segment_count; s++) {
                if (s > 0) {
                    takt_preemption_point();
                }
                workload_work_ticks(work->segments[s], &work->worked);
            }
        }
        takt_job_end();
    }
}

/* What a creation refusal means here: the scenario passed the toolkit's checks,
 * so it is mostly a limit of the kernel's configuration (takt_config.h). */
static const char *rejection_reason(int rc)
{
    switch (rc) {
    case TAKT_ERR_ARG:
        return "a parameter out of the kernel's range";
    case TAKT_ERR_NOMEM:
        return "out of memory, or more than the kernel is configured for";
    case TAKT_ERR_STATE:
        return "not allowed in the kernel's state";
    default:
        return "unexpected";
    }
}

/* The stats line's fields for a unit of the hardware priority queue the run
 * used (" hwpq_inserts=..." for the ready queue's, " timer_hwpq_..." for the
 * timers'); nothing for a unit left untouched or a port without one. */
static void print_device_counts(FILE *out, const char *prefix, unsigned unit)
{
    workload_device_counts_t c;
    if (!workload_device_counts(unit, &c) || c.reads + c.writes == 0) {
        return;
    }
    fprintf(out, " %sinserts=%llu %sremoves=%llu %spops=%llu %sreads=%llu %swrites=%llu", prefix,
            (unsigned long long)c.inserts, prefix, (unsigned long long)c.removes, prefix,
            (unsigned long long)c.pops, prefix, (unsigned long long)c.reads, prefix,
            (unsigned long long)c.writes);
}

static int usage(void)
{
    fprintf(stderr, "usage: takt-runner [-o TRACE] [--progress] [--work ticks|exact] INPUT|-\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *input_path = NULL;
    const char *output_path = NULL;
    bool progress = false;
    workload_mode_t mode = WORKLOAD_TICKS;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            output_path = argv[++i];
        } else if (strcmp(argv[i], "--progress") == 0) {
            progress = true;
        } else if (strcmp(argv[i], "--work") == 0 && i + 1 < argc) {
            const char *name = argv[++i];
            if (strcmp(name, "exact") == 0) {
                mode = WORKLOAD_EXACT;
            } else if (strcmp(name, "ticks") != 0) {
                return usage();
            }
        } else if (input_path == NULL) {
            input_path = argv[i];
        } else {
            return usage();
        }
    }
    if (input_path == NULL) {
        return usage();
    }

    static runner_scenario_t scenario;
    char err[256];
    FILE *in = strcmp(input_path, "-") == 0 ? stdin : fopen(input_path, "r");
    if (in == NULL) {
        fprintf(stderr, "takt-runner: cannot open %s\n", input_path);
        return 2;
    }
    bool ok = scenario_input_read(in, &scenario, err, sizeof(err));
    if (in != stdin) {
        fclose(in);
    }
    if (!ok) {
        fprintf(stderr, "takt-runner: %s: %s\n", input_path, err);
        return 2;
    }

    trace_out = output_path == NULL ? stdout : fopen(output_path, "wb");
    if (trace_out == NULL) {
        fprintf(stderr, "takt-runner: cannot write %s\n", output_path);
        return 2;
    }

    uint64_t tick_ns = 1000000000ull / scenario.tick_hz;
    takt_init_params_t init = {.scheduler = (takt_scheduler_t)scenario.scheduler,
                               .tick_start = scenario.tick_start,
                               .round_robin = scenario.round_robin,
                               .preemption = (takt_preemption_t)scenario.preemption};
    const char *no_exact_work = workload_exact_work_unavailable();
    if (mode == WORKLOAD_EXACT && no_exact_work != NULL) {
        fprintf(stderr, "takt-runner: --work exact: %s\n", no_exact_work);
        return 2;
    }
    if (workload_configure(scenario.tick_hz, scenario.duration, progress, mode) != TAKT_OK ||
        takt_init(&init) != TAKT_OK) {
        fprintf(stderr, "takt-runner: kernel initialisation failed\n");
        return 2;
    }

    fprintf(trace_out, "takt-trace 1\ntick_ns %llu\n%s", (unsigned long long)tick_ns,
            workload_trace_header());
    static takt_server_t *servers[RUNNER_MAX_SERVERS];
    for (uint32_t i = 0; i < scenario.server_count; i++) {
        const runner_server_t *s = &scenario.servers[i];
        takt_server_params_t params = {
            .name = s->name,
            .priority = s->priority,
            .period = s->period,
            .budget = s->budget,
            .offset = s->offset,
            .type = (takt_server_type_t)s->type,
        };
        int rc = takt_server_create(&params, &servers[i]);
        if (rc != TAKT_OK) {
            fprintf(stderr, "takt-runner: server %s rejected by the kernel (error %d: %s)\n",
                    s->name, rc, rejection_reason(rc));
            return 2;
        }
        fprintf(trace_out, "server %d %s\n", takt_server_index(servers[i]), s->name);
    }
    static synthetic_t work[RUNNER_MAX_TASKS];
    for (uint32_t i = 0; i < scenario.task_count; i++) {
        const runner_task_t *t = &scenario.tasks[i];
        work[i].wcet = t->wcet;
        work[i].segment_count = t->segment_count;
        for (uint32_t s = 0; s < t->segment_count; s++) {
            work[i].segments[s] = t->segments[s];
        }
        takt_task_params_t params = {
            .name = t->name,
            .entry = synthetic_job_loop,
            .arg = &work[i],
            .priority = t->priority,
            .stack_size = RUNNER_STACK_SIZE,
            .period = t->period,
            .deadline = t->deadline,
            .wcet = t->wcet,
            .offset = t->offset,
        };
        takt_task_t *task;
        int rc = t->server >= 0 ? takt_server_task_create(servers[t->server], &params, &task)
                                : takt_task_create(&params, &task);
        if (rc != TAKT_OK) {
            fprintf(stderr, "takt-runner: task %s rejected by the kernel (error %d: %s)\n",
                    t->name, rc, rejection_reason(rc));
            return 2;
        }
        fprintf(trace_out, "task %d %s\n", takt_task_id(task), t->name);
        if (t->server >= 0) {
            fprintf(trace_out, "task-server %d %d\n", takt_task_id(task), t->server);
        }
    }
    fprintf(trace_out, "events\n");

    double started = workload_wall_seconds();
    takt_start();
    double wall = workload_wall_seconds() - started;
    uint64_t drain_in_run = drain_clock; /* the last drain comes after the run */
    uint32_t drains_in_run = drains;
    drain_trace();
    fflush(trace_out);
    if (trace_out != stdout) {
        fclose(trace_out);
    }
    uint64_t worked = 0;
    for (uint32_t i = 0; i < scenario.task_count; i++) {
        worked += work[i].worked;
    }
    workload_usage_t usage = workload_usage(worked, drain_in_run);
    fprintf(stderr,
            "takt-stats events=%llu lost=%u context_switches=%u interrupts=%llu wall_s=%.6f",
            (unsigned long long)events_written, (unsigned)takt_trace_lost(),
            (unsigned)takt_context_switches(),
            (unsigned long long)workload_interrupts(), wall);
    print_device_counts(stderr, "hwpq_", TAKT_PQ_HW_READY_UNIT);
    print_device_counts(stderr, "timer_hwpq_", TAKT_PQ_HW_TIMER_UNIT);
    if (usage.measured) {
        fprintf(stderr, " idle_ns=%llu work_ns=%llu drain_ns=%llu drains=%u",
                (unsigned long long)usage.idle_ns, (unsigned long long)usage.work_ns,
                (unsigned long long)usage.drain_ns, (unsigned)drains_in_run);
    }
    if (ticks_lost_seen != 0) {
        fprintf(stderr, " ticks_lost=%u", (unsigned)ticks_lost_seen);
    }
    fprintf(stderr, "\n");
    takt_teardown();
    if (trace_write_failed) {
        fprintf(stderr, "takt-runner: writing the trace failed\n");
        return 1;
    }
    return 0;
}
