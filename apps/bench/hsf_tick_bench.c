/*
 * takt-bench-hsf-tick: instructions of the tick handler (takt_tick_from_isr)
 * and of the scheduling decision after it, under the hsf scheduler, against
 * the number of servers; counted by callgrind on the sim port.
 *
 *   takt-bench-hsf-tick [--csv] [--servers N]...   (needs valgrind on the PATH)
 *   takt-bench-hsf-tick --child N                   (one run; what the parent measures)
 *
 * The hierarchy and the tick classes are those of hsf_hierarchy.h. Each tick
 * of the second and third period is classified before it runs and counted in
 * its own noinline function (the tick handler is wrapped at link time:
 * -Wl,--wrap):
 *   tick_quiet      no timer due, no depletion (the running server is charged if any)
 *   tick_deplete    no timer due, the running server's budget reaches 0
 *   tick_replenish  exactly one replenishment due, nothing else
 *   switch_*        the switch point a tick of that class asked for (the decision);
 *                   a tick that asks for none (a quiet one: nothing changed) has no
 *                   decision to count, and its column stays empty
 * Release ticks are not measured. After each measured tick the child checks
 * the class against the servers' and tasks' counters and fails if a tick did
 * other work than its class says.
 *
 * The parent runs the child once per (N, function) under
 * `valgrind --tool=callgrind --toggle-collect=measured_<case>`, so the
 * callgrind total is the inclusive instruction count of that function's calls,
 * and divides by the call count the child prints ("calls <case> <count>").
 * Output: a table (default) or CSV `servers,case,calls,instr_mean`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hsf_hierarchy.h"
#include "internal.h"
#include "takt_sim.h"

#define TICK_NS 1000000u
#define BENCH_STACK (16u * 1024u)

static unsigned long tick_calls[CASE_COUNT], switch_calls[CASE_COUNT];
static unsigned long misclassified;
static int last_tick_case = CASE_NONE;

void takt_trace_drain_hook(void)
{
    takt_trace_event_t sink[64];
    while (takt_trace_read(sink, 64) > 0) {
    }
}

static void job_loop(void *arg)
{
    (void)arg;
    for (;;) {
        takt_sim_work(TICK_NS);
        takt_job_end();
    }
}

/* ---- the wrapped kernel entry points ---- */

void __real_takt_tick_from_isr(void);
takt_task_t *__real_takt_sched_switch_point(void);
void __real_port_request_switch(void);

static bool in_tick, tick_asked_switch;

/* A switch point is the tick's decision only if the tick asked for it; the
 * next one may otherwise be a task's own (a job ending after the tick). */
void __wrap_port_request_switch(void)
{
    if (in_tick) {
        tick_asked_switch = true;
    }
    __real_port_request_switch();
}

__attribute__((noinline)) void measured_tick_quiet(void)
{
    __real_takt_tick_from_isr();
}

__attribute__((noinline)) void measured_tick_deplete(void)
{
    __real_takt_tick_from_isr();
}

__attribute__((noinline)) void measured_tick_replenish(void)
{
    __real_takt_tick_from_isr();
}

__attribute__((noinline)) takt_task_t *measured_switch_quiet(void)
{
    return __real_takt_sched_switch_point();
}

__attribute__((noinline)) takt_task_t *measured_switch_deplete(void)
{
    return __real_takt_sched_switch_point();
}

__attribute__((noinline)) takt_task_t *measured_switch_replenish(void)
{
    return __real_takt_sched_switch_point();
}

void __wrap_takt_tick_from_isr(void)
{
    int c = hsf_classify_next_tick();
    if (c == CASE_NONE) {
        __real_takt_tick_from_isr();
        last_tick_case = CASE_NONE;
        return;
    }
    hsf_totals_t before = hsf_totals();
    in_tick = true;
    tick_asked_switch = false;
    if (c == CASE_QUIET) {
        measured_tick_quiet();
    } else if (c == CASE_DEPLETE) {
        measured_tick_deplete();
    } else {
        measured_tick_replenish();
    }
    in_tick = false;
    hsf_totals_t after = hsf_totals();
    if (!hsf_tick_matches_class(c, before, after)) {
        misclassified++;
    }
    tick_calls[c]++;
    last_tick_case = tick_asked_switch ? c : CASE_NONE;
}

takt_task_t *__wrap_takt_sched_switch_point(void)
{
    int c = last_tick_case;
    last_tick_case = CASE_NONE;
    if (c == CASE_NONE) {
        return __real_takt_sched_switch_point();
    }
    switch_calls[c]++;
    if (c == CASE_QUIET) {
        return measured_switch_quiet();
    }
    if (c == CASE_DEPLETE) {
        return measured_switch_deplete();
    }
    return measured_switch_replenish();
}

/* ---- one run ---- */

static int child(unsigned n)
{
    if (n == 0 || n > HSF_MAX_SERVERS || n > TAKT_CONFIG_MAX_SERVERS) {
        fprintf(stderr, "takt-bench-hsf-tick: 1..%u servers\n", HSF_MAX_SERVERS);
        return 2;
    }
    takt_sim_params_t sim = {.tick_period_ns = TICK_NS,
                             .end_ns = (uint64_t)(3u * hsf_period(n) + 1u) * TICK_NS};
    takt_init_params_t init = {.scheduler = TAKT_SCHED_HSF, .tick_start = 0,
                               .preemption = TAKT_PREEMPT_FULL};
    if (takt_sim_configure(&sim) != TAKT_OK || takt_init(&init) != TAKT_OK) {
        fprintf(stderr, "takt-bench-hsf-tick: kernel initialisation failed\n");
        return 2;
    }
    unsigned failed;
    if (hsf_hierarchy_create(n, job_loop, BENCH_STACK, &failed) != TAKT_OK) {
        fprintf(stderr, "takt-bench-hsf-tick: creating server %u failed\n", failed);
        return 2;
    }
    takt_start();
    takt_teardown();
    for (int c = 0; c < CASE_COUNT; c++) {
        printf("calls tick_%s %lu\n", hsf_case_names[c], tick_calls[c]);
        printf("calls switch_%s %lu\n", hsf_case_names[c], switch_calls[c]);
    }
    if (misclassified != 0) {
        fprintf(stderr, "takt-bench-hsf-tick: %lu ticks did other work than their class\n",
                misclassified);
        return 1;
    }
    return 0;
}

/* ---- the parent: callgrind per (N, measured function) ---- */

/* Runs the child under callgrind collecting only inside measured_<name>;
 * returns the instruction total and the call count, false on failure. */
static bool measure(const char *self, unsigned n, const char *name, double *instr,
                    unsigned long *calls)
{
    char out[64], cmd[4096 + 256], line[256];
    snprintf(out, sizeof(out), "/tmp/takt-hsf-tick-%d.cg", (int)getpid());
    snprintf(cmd, sizeof(cmd),
             "valgrind -q --tool=callgrind --callgrind-out-file=%s "
             "--toggle-collect=measured_%s '%s' --child %u",
             out, name, self, n);
    FILE *p = popen(cmd, "r");
    if (p == NULL) {
        return false;
    }
    bool have_calls = false;
    while (fgets(line, sizeof(line), p) != NULL) {
        char which[64];
        unsigned long count;
        if (sscanf(line, "calls %63s %lu", which, &count) == 2 && strcmp(which, name) == 0) {
            *calls = count;
            have_calls = true;
        }
    }
    int status = pclose(p);
    FILE *cg = fopen(out, "r");
    bool have_total = false;
    while (cg != NULL && fgets(line, sizeof(line), cg) != NULL) {
        unsigned long long total;
        if (sscanf(line, "totals: %llu", &total) == 1 || sscanf(line, "summary: %llu", &total) == 1) {
            *instr = (double)total;
            have_total = true;
        }
    }
    if (cg != NULL) {
        fclose(cg);
    }
    remove(out);
    return status == 0 && have_calls && have_total;
}

static int usage(void)
{
    fprintf(stderr, "usage: takt-bench-hsf-tick [--csv] [--servers N]... | --child N\n");
    return 2;
}

int main(int argc, char **argv)
{
    static const unsigned default_sizes[] = {10, 20, 30, 40, 64, 256};
    unsigned sizes[16];
    unsigned n_sizes = 0;
    bool csv = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--child") == 0 && i + 1 < argc) {
            return child((unsigned)strtoul(argv[i + 1], NULL, 10));
        } else if (strcmp(argv[i], "--csv") == 0) {
            csv = true;
        } else if (strcmp(argv[i], "--servers") == 0 && i + 1 < argc && n_sizes < 16) {
            sizes[n_sizes++] = (unsigned)strtoul(argv[++i], NULL, 10);
        } else {
            return usage();
        }
    }
    if (n_sizes == 0) {
        memcpy(sizes, default_sizes, sizeof(default_sizes));
        n_sizes = sizeof(default_sizes) / sizeof(default_sizes[0]);
    }
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (len <= 0) {
        fprintf(stderr, "takt-bench-hsf-tick: cannot find its own executable\n");
        return 1;
    }
    self[len] = '\0';
    static const char *const measured[] = {"tick_quiet",   "tick_deplete",   "tick_replenish",
                                           "switch_quiet", "switch_deplete", "switch_replenish"};
    enum { N_MEASURED = sizeof(measured) / sizeof(measured[0]) };
    if (csv) {
        printf("servers,case,calls,instr_mean\n");
    } else {
        printf("instructions per call (callgrind, inclusive), hsf scheduler, sim port\n");
        printf("%8s", "servers");
        for (int m = 0; m < N_MEASURED; m++) {
            printf(" %17s", measured[m]);
        }
        printf("\n");
    }
    for (unsigned s = 0; s < n_sizes; s++) {
        if (!csv) {
            printf("%8u", sizes[s]);
        }
        for (int m = 0; m < N_MEASURED; m++) {
            double instr = 0;
            unsigned long calls = 0;
            bool is_tick = strncmp(measured[m], "tick_", 5) == 0;
            if (!measure(self, sizes[s], measured[m], &instr, &calls) ||
                (calls == 0 && is_tick)) {
                fprintf(stderr, "\ntakt-bench-hsf-tick: measuring %s with %u servers failed "
                                "(is valgrind installed?)\n",
                        measured[m], sizes[s]);
                return 1;
            }
            if (calls == 0) { /* those ticks asked for no decision */
                if (!csv) {
                    printf(" %17s", "-");
                }
                continue;
            }
            if (csv) {
                printf("%u,%s,%lu,%.1f\n", sizes[s], measured[m], calls, instr / (double)calls);
            } else {
                printf(" %17.1f", instr / (double)calls);
            }
            fflush(stdout);
        }
        if (!csv) {
            printf("\n");
        }
    }
    return 0;
}
