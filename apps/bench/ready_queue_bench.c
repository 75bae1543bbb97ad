/*
 * takt-bench-queues: cost of the EDF ready queues against the number of
 * ready jobs, on the host.
 *
 *   takt-bench-queues [--queue heap|mlist|rbtree] [--n N] [--iterations K] [--no-instr]
 *
 * For each queue and N, N periodic tasks with distinct random relative
 * deadlines are made ready, then K rounds of the EDF steady state run on the
 * policy's own operations:
 *   remove-head      the dispatch: take the earliest-deadline job out
 *   insert-preempted put it back in front (a release preempted it: EDF-L's O(1) case)
 *   insert-release   after taking it out again, its next job (deadline one
 *                    period later) is released and does not preempt (EDF-L's
 *                    tail insertion and re-distribution)
 * Two passes over the same (seeded) sequence: one times each operation with
 * the monotonic clock, one counts its user-space instructions with the
 * processor's instruction counter (perf_event_open; the columns stay empty
 * where the machine has none). Each measured operation is a noinline
 * function, so `valgrind --tool=callgrind --toggle-collect=measured_*` can
 * also count its instructions deterministically (takt bench queues does).
 * Output: CSV `queue,n,op,ops,mean_ns,p99_ns,max_ns,mean_instr,max_instr`.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "takt_sim.h"

static const struct {
    const char *name;
    takt_scheduler_t scheduler;
    unsigned max_n;
} queues[] = {
    {"heap", TAKT_SCHED_EDF_HEAP, 1023},
    {"mlist", TAKT_SCHED_EDF_MLIST, 256},
    {"rbtree", TAKT_SCHED_EDF_RBTREE, 1023},
};

static const unsigned sizes[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1023};

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)rng_state;
}

static int instr_fd = -1;

static void instr_open(void)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.type = PERF_TYPE_HARDWARE;
    attr.size = sizeof(attr);
    attr.config = PERF_COUNT_HW_INSTRUCTIONS;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    instr_fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

static uint64_t instr_now(void)
{
    uint64_t count = 0;
    if (read(instr_fd, &count, sizeof(count)) != (ssize_t)sizeof(count)) {
        return 0;
    }
    return count;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The runner's configuration drains the trace through this hook; the
 * benchmark does not keep the trace. */
void takt_trace_drain_hook(void)
{
    takt_trace_event_t sink[64];
    while (takt_trace_read(sink, 64) > 0) {
    }
}

static void body(void *arg)
{
    (void)arg;
}

__attribute__((noinline)) takt_task_t *measured_remove_head(void)
{
    takt_task_t *head = takt_kernel.policy->peek();
    takt_kernel.policy->remove(head);
    return head;
}

__attribute__((noinline)) void measured_insert_preempted(takt_task_t *task)
{
    takt_kernel.policy->insert(task, TAKT_READY_PREEMPTED);
}

__attribute__((noinline)) void measured_insert_release(takt_task_t *task)
{
    sched_make_ready(task);
}

typedef struct {
    uint64_t *samples;
    unsigned count;
    uint64_t sum;
} series_t;

static void record(series_t *s, uint64_t ns)
{
    s->samples[s->count++] = ns;
    s->sum += ns;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

typedef struct {
    double mean, p99, max;
} stats_t;

static double less(uint64_t value, uint64_t overhead)
{
    return value > overhead ? (double)(value - overhead) : 0.0;
}

static stats_t summarise(series_t *s, uint64_t overhead)
{
    qsort(s->samples, s->count, sizeof(uint64_t), cmp_u64);
    double mean = (double)s->sum / s->count - (double)overhead;
    return (stats_t){mean < 0 ? 0.0 : mean, less(s->samples[(s->count * 99u) / 100u], overhead),
                     less(s->samples[s->count - 1], overhead)};
}

/* The cost of reading a probe twice, subtracted from every sample. */
static uint64_t probe_overhead(uint64_t (*probe)(void))
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 10000; i++) {
        uint64_t a = probe();
        uint64_t b = probe();
        if (b - a < best) {
            best = b - a;
        }
    }
    return best;
}

enum { OP_REMOVE_HEAD, OP_INSERT_PREEMPTED, OP_INSERT_RELEASE, OPS };
static const char *const op_names[OPS] = {"remove-head", "insert-preempted", "insert-release"};

/* One pass: the same seeded task set and sequence whatever the probe. */
static int run(unsigned q, unsigned n, unsigned iterations, uint64_t (*probe)(void),
               uint64_t overhead, stats_t out[OPS])
{
    rng_state = 0x9E3779B97F4A7C15ull ^ ((uint64_t)q << 32) ^ n;
    takt_sim_params_t sim = {.tick_period_ns = 1000000, .end_ns = 1000000};
    takt_init_params_t init = {.scheduler = queues[q].scheduler};
    if (takt_sim_configure(&sim) != TAKT_OK || takt_init(&init) != TAKT_OK) {
        return 1;
    }
    takt_task_t **tasks = calloc(n, sizeof(*tasks));
    for (unsigned i = 0; i < n; i++) {
        takt_task_params_t params = {.name = "bench", .entry = body, .priority = 1,
                                     .stack_size = 16384, .period = 1000u + rng() % 100000u,
                                     .wcet = 1};
        if (takt_task_create(&params, &tasks[i]) != TAKT_OK) {
            fprintf(stderr, "task creation failed at %u\n", i);
            return 1;
        }
        /* Released (first jobs at random points of their period), not waiting. */
        tasks[i]->first_release = rng() % tasks[i]->period;
        tasks[i]->job_deadline = tasks[i]->first_release + tasks[i]->rel_deadline; /* job 0's */
        timer_cancel(&tasks[i]->release_timer);
        sched_make_ready(tasks[i]);
    }
    series_t series[OPS];
    for (int op = 0; op < OPS; op++) {
        series[op] = (series_t){calloc(iterations, sizeof(uint64_t)), 0, 0};
    }
    for (unsigned k = 0; k < iterations; k++) {
        uint64_t t0 = probe();
        takt_task_t *head = measured_remove_head();
        uint64_t t1 = probe();
        head->state = TAKT_TASK_READY;
        uint64_t t2 = probe();
        measured_insert_preempted(head);
        uint64_t t3 = probe();
        takt_task_t *again = takt_kernel.policy->peek();
        takt_kernel.policy->remove(again);
        /* its next job: deadline one period later (the kernel keeps the two in step) */
        again->jobs_completed++;
        again->job_deadline += again->period;
        uint64_t t4 = probe();
        measured_insert_release(again);
        uint64_t t5 = probe();
        record(&series[OP_REMOVE_HEAD], t1 - t0);
        record(&series[OP_INSERT_PREEMPTED], t3 - t2);
        record(&series[OP_INSERT_RELEASE], t5 - t4);
    }
    for (int op = 0; op < OPS; op++) {
        out[op] = summarise(&series[op], overhead);
        free(series[op].samples);
    }
    free(tasks);
    takt_teardown();
    return 0;
}

int main(int argc, char **argv)
{
    const char *only_queue = NULL;
    unsigned only_n = 0, iterations = 20000;
    bool count_instructions = true;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--queue") == 0 && i + 1 < argc) {
            only_queue = argv[++i];
        } else if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
            only_n = (unsigned)atoi(argv[++i]);
        } else if (strcmp(argv[i], "--no-instr") == 0) {
            count_instructions = false; /* under valgrind: the counter pass would double the calls */
        } else if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            iterations = (unsigned)atoi(argv[++i]);
        } else {
            fprintf(stderr,
                    "usage: %s [--queue heap|mlist|rbtree] [--n N] [--iterations K] [--no-instr]\n",
                    argv[0]);
            return 2;
        }
    }
    uint64_t time_overhead = probe_overhead(now_ns);
    if (count_instructions) {
        instr_open();
    }
    bool have_instr = instr_fd >= 0 && instr_now() > 0;
    uint64_t instr_overhead = have_instr ? probe_overhead(instr_now) : 0;
    printf("queue,n,op,ops,mean_ns,p99_ns,max_ns,mean_instr,max_instr\n");
    for (unsigned q = 0; q < sizeof(queues) / sizeof(queues[0]); q++) {
        if (only_queue != NULL && strcmp(only_queue, queues[q].name) != 0) {
            continue;
        }
        for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            unsigned n = sizes[s];
            if (n > queues[q].max_n || (only_n != 0 && n != only_n)) {
                continue;
            }
            stats_t ns[OPS], instr[OPS];
            if (run(q, n, iterations, now_ns, time_overhead, ns) != 0 ||
                (have_instr && run(q, n, iterations, instr_now, instr_overhead, instr) != 0)) {
                return 1;
            }
            for (int op = 0; op < OPS; op++) {
                printf("%s,%u,%s,%u,%.1f,%.1f,%.1f,", queues[q].name, n, op_names[op], iterations,
                       ns[op].mean, ns[op].p99, ns[op].max);
                if (have_instr) {
                    printf("%.1f,%.0f\n", instr[op].mean, instr[op].max);
                } else {
                    printf(",\n");
                }
            }
        }
    }
    return 0;
}
