/*
 * Hierarchical scheduling and deferred preemption on a Cortex-M under QEMU
 * -icount, in guest instructions (the method of kernel_costs.c: SysTick's
 * current value read at both ends of a window, the reads' own cost
 * subtracted, counts rounded to instructions; exact for shift >= 7).
 *
 * HSF: the hierarchy of apps/bench/hsf_tick_bench.c (the sim's callgrind
 * version). N servers, server i with priority 1 + i % 254, period 4N, offset
 * 4i, idling (budget 3) for even i, deferrable (budget 2) for odd i, each with
 * one periodic task (period 4N, offset 4i + 2, one tick of work). Tick t
 * brings exactly one replenishment when t % 4 == 0, releases when t % 4 == 2,
 * no timer otherwise. The kernel's tick handler (takt_tick_from_isr, called
 * by the SysTick handler) and the switch decision (takt_sched_switch_point,
 * called by PendSV) are wrapped at link time; each tick of the second and
 * third period is classified before it runs and timed in its class:
 *   tick_quiet / tick_deplete / tick_replenish, and switch_* for the decision
 *   that follows a tick of that class (after a replenishment that is a server
 *   switch: the replenished server preempts the running one).
 * Each measured tick is checked against the servers' counters; a tick that
 * did other work than its class makes the program fail.
 *
 * Deferred preemption (fp, TAKT_PREEMPT_DEFERRED): takt_preemption_point with
 * nothing waiting (return after the flag test), with a switch waiting (to the
 * first instruction of the woken task), and takt_should_yield.
 *
 * Output: CSV lines bench,<measurement>,<servers>,<n>,<min>,<max>,<mean x100>.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armv7m_regs.h"
#include "board.h"
#include "internal.h"
#include "takt/takt.h"
#include "takt_armv7m.h"

#define TICK_HZ 50u /* 156,250 instructions a tick at shift 7: room for the checks at 256 servers */
#define STACK 1024u
#define SAMPLES 40u
#define MAX_BENCH_SERVERS 256u

static unsigned shift = 7;
static uint32_t read_cost;

static inline uint32_t cvr(void)
{
    return SYST_CVR;
}

static uint32_t counts_between(uint32_t a, uint32_t b)
{
    uint32_t period = takt_arm_tick_counts();
    return a >= b ? a - b : a + period - b;
}

typedef struct {
    uint32_t n, min, max;
    uint64_t sum;
} stats_t;

static void stats_add(stats_t *s, uint32_t window)
{
    uint32_t c = window >= read_cost ? window - read_cost : 0;
    uint64_t per = (uint64_t)takt_arm_core_hz() << shift;
    uint32_t v = (uint32_t)(((uint64_t)c * 1000000000ull + per / 2u) / per);
    s->min = s->n == 0 || v < s->min ? v : s->min;
    s->max = s->n == 0 || v > s->max ? v : s->max;
    s->sum += v;
    s->n++;
}

static void report(const char *what, unsigned servers, const stats_t *s)
{
    printf("bench,%s,%u,%lu,%lu,%lu,%lu\n", what, servers, (unsigned long)s->n,
           (unsigned long)s->min, (unsigned long)s->max,
           (unsigned long)(s->n ? s->sum * 100u / s->n : 0));
}

static void fail(const char *what)
{
    printf("bench: %s\n", what);
    exit(2);
}

static void calibrate(void)
{
    takt_arm_params_t p = {.tick_hz = TICK_HZ, .end_ticks = 0};
    takt_arm_configure(&p);
    SYST_CSR = 0;
    SYST_RVR = takt_arm_tick_counts() - 1u;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_ENABLE;
    uint32_t a = cvr();
    uint32_t b = cvr();
    read_cost = counts_between(a, b);
    SYST_CSR = 0;
}

/* ---- HSF: tick and decision against the number of servers ---- */

enum { CASE_QUIET, CASE_DEPLETE, CASE_REPLENISH, CASE_COUNT, CASE_NONE = -1 };
static const char *const case_names[CASE_COUNT] = {"quiet", "deplete", "replenish"};

static unsigned n_servers;
static takt_server_t *servers[MAX_BENCH_SERVERS];
static takt_task_t *tasks[MAX_BENCH_SERVERS];
static takt_tick_t period;
static stats_t st_tick[CASE_COUNT], st_switch[CASE_COUNT];
static unsigned long misclassified;
static int last_tick_case = CASE_NONE;


static void job_loop(void *arg)
{
    (void)arg;
    for (;;) {
        takt_arm_work_ticks(1);
        takt_job_end();
    }
}

void __real_takt_tick_from_isr(void);
takt_task_t *__real_takt_sched_switch_point(void);
void __wrap_takt_tick_from_isr(void);
takt_task_t *__wrap_takt_sched_switch_point(void);

typedef struct {
    uint64_t replenishments, depletions, releases, misses;
} totals_t;

static totals_t totals(void)
{
    totals_t t = {0, 0, 0, 0};
    for (unsigned i = 0; i < n_servers; i++) {
        takt_server_stats_t st;
        takt_server_stats(servers[i], &st);
        t.replenishments += st.replenishments;
        t.depletions += st.depletions;
        t.misses += st.deadline_misses;
        t.releases += takt_task_jobs_released(tasks[i]);
    }
    return t;
}

static int classify(void)
{
    takt_tick_t t = takt_tick_count() + 1u;
    if (t < period || t >= 3u * period) {
        return CASE_NONE;
    }
    switch (t % 4u) {
    case 0:
        return CASE_REPLENISH;
    case 2:
        return CASE_NONE;
    default:
        return takt_server_remaining_budget(NULL) == 1 ? CASE_DEPLETE : CASE_QUIET;
    }
}


void __wrap_takt_tick_from_isr(void)
{
    int c = classify();
    if (c == CASE_NONE) {
        __real_takt_tick_from_isr();
        last_tick_case = CASE_NONE;
        return;
    }
    totals_t before = totals();
    uint32_t pend_before = SCB_ICSR & SCB_ICSR_PENDSVSET;
    uint32_t a = cvr();
    __real_takt_tick_from_isr();
    uint32_t b = cvr();
    stats_add(&st_tick[c], counts_between(a, b));
    bool tick_asked_switch = pend_before == 0 && (SCB_ICSR & SCB_ICSR_PENDSVSET) != 0;
    totals_t after = totals();
    bool ok = after.releases == before.releases && after.misses == before.misses &&
              after.replenishments - before.replenishments == (c == CASE_REPLENISH ? 1u : 0u) &&
              after.depletions - before.depletions == (c == CASE_DEPLETE ? 1u : 0u);
    misclassified += ok ? 0u : 1u;
    last_tick_case = tick_asked_switch ? c : CASE_NONE;
}

takt_task_t *__wrap_takt_sched_switch_point(void)
{
    int c = last_tick_case;
    last_tick_case = CASE_NONE;
    if (c == CASE_NONE) {
        return __real_takt_sched_switch_point();
    }
    uint32_t a = cvr();
    takt_task_t *next = __real_takt_sched_switch_point();
    uint32_t b = cvr();
    stats_add(&st_switch[c], counts_between(a, b));
    return next;
}

static void bench_hsf(unsigned n)
{
    n_servers = n;
    period = 4u * n;
    memset(st_tick, 0, sizeof(st_tick));
    memset(st_switch, 0, sizeof(st_switch));
    misclassified = 0;
    last_tick_case = CASE_NONE;
    takt_arm_params_t p = {.tick_hz = TICK_HZ, .end_ticks = 3u * period + 1u};
    takt_init_params_t init = {.scheduler = TAKT_SCHED_HSF, .preemption = TAKT_PREEMPT_FULL};
    if (takt_arm_configure(&p) != TAKT_OK || takt_init(&init) != TAKT_OK) {
        fail("kernel initialisation failed");
    }
    for (unsigned i = 0; i < n; i++) {
        bool idling = i % 2u == 0;
        takt_server_params_t sp = {.name = "S", .priority = 1u + i % 254u, .period = period,
                                   .budget = idling ? 3u : 2u, .offset = 4u * i,
                                   .type = idling ? TAKT_SERVER_IDLING : TAKT_SERVER_DEFERRABLE};
        takt_task_params_t tp = {.name = "T", .entry = job_loop, .priority = 1,
                                 .stack_size = STACK, .period = period, .wcet = 1,
                                 .offset = 4u * i + 2u};
        if (takt_server_create(&sp, &servers[i]) != TAKT_OK ||
            takt_server_task_create(servers[i], &tp, &tasks[i]) != TAKT_OK) {
            fail("creating a server failed");
        }
    }
    takt_start();
    takt_teardown();
    if (misclassified != 0) {
        printf("bench: %u servers: %lu ticks did other work than their class\n", n,
               misclassified);
        exit(1);
    }
    char name[32];
    for (int c = 0; c < CASE_COUNT; c++) {
        snprintf(name, sizeof(name), "hsf_tick_%s", case_names[c]);
        report(name, n, &st_tick[c]);
        snprintf(name, sizeof(name), "hsf_switch_%s", case_names[c]);
        report(name, n, &st_switch[c]);
    }
}

/* ---- deferred preemption ---- */

static stats_t st_point_idle, st_point_switch, st_should_yield;
static volatile uint32_t mark;
static volatile bool sink;

static void waker(void *arg) /* high priority: woken by each tick */
{
    (void)arg;
    for (;;) {
        takt_delay(1);
        uint32_t end = cvr(); /* first instruction after the switch */
        if (mark != 0) {
            stats_add(&st_point_switch, counts_between(mark, end));
            mark = 0;
        }
        if (st_point_switch.n == SAMPLES) {
            takt_arm_stop();
        }
    }
}

static void low_worker(void *arg) /* non-preemptive: polls its preemption points */
{
    (void)arg;
    for (;;) {
        if (takt_should_yield()) {
            mark = cvr();
            takt_preemption_point(); /* a switch is waiting: to the waker */
            continue;
        }
        if (st_point_idle.n < SAMPLES) {
            uint32_t a = cvr();
            takt_preemption_point(); /* nothing waiting */
            uint32_t b = cvr();
            stats_add(&st_point_idle, counts_between(a, b));
        }
        if (st_should_yield.n < SAMPLES) {
            uint32_t a = cvr();
            sink = takt_should_yield();
            uint32_t b = cvr();
            stats_add(&st_should_yield, counts_between(a, b));
        }
        takt_arm_spin(200);
    }
}

static void bench_deferred(void)
{
    memset(&st_point_idle, 0, sizeof(st_point_idle));
    memset(&st_point_switch, 0, sizeof(st_point_switch));
    memset(&st_should_yield, 0, sizeof(st_should_yield));
    mark = 0;
    takt_arm_params_t p = {.tick_hz = TICK_HZ, .end_ticks = 0};
    takt_init_params_t init = {.scheduler = TAKT_SCHED_FP, .preemption = TAKT_PREEMPT_DEFERRED};
    if (takt_arm_configure(&p) != TAKT_OK || takt_init(&init) != TAKT_OK) {
        fail("kernel initialisation failed");
    }
    takt_task_params_t hp = {.name = "W", .entry = waker, .priority = 3, .stack_size = STACK};
    takt_task_params_t lp = {.name = "L", .entry = low_worker, .priority = 1,
                             .stack_size = STACK};
    takt_task_t *t;
    if (takt_task_create(&hp, &t) != TAKT_OK || takt_task_create(&lp, &t) != TAKT_OK) {
        fail("task creation failed");
    }
    takt_start();
    takt_teardown();
    report("preemption_point_nothing_waiting", 0, &st_point_idle);
    report("preemption_point_switch", 0, &st_point_switch);
    report("should_yield", 0, &st_should_yield);
}

int main(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--shift") == 0) {
            shift = (unsigned)atoi(argv[i + 1]);
        }
    }
    printf("board,%s\nshift,%u\n", TAKT_BOARD_NAME, shift);
    calibrate();
    static const unsigned counts[] = {10, 20, 30, 40, 64, 256};
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        bench_hsf(counts[i]);
    }
    bench_deferred();
    printf("done\n");
    return 0;
}
