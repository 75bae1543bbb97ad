/*
 * Hierarchical scheduling and deferred preemption on a Cortex-M under QEMU
 * -icount, in guest instructions (the method of kernel_costs.c: SysTick's
 * current value read at both ends of a window, the reads' own cost
 * subtracted, counts rounded to instructions; exact for shift >= 7).
 *
 * HSF: the hierarchy and tick classes of apps/bench/hsf_hierarchy.h (shared
 * with the sim's callgrind program). The kernel's tick handler
 * (takt_tick_from_isr, called by the SysTick handler) and the switch decision
 * (takt_sched_switch_point, called by PendSV) are wrapped at link time; each
 * tick of the second and third period is classified before it runs and timed
 * in its class:
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
 * Output: CSV lines bench,<measurement>,<servers>,<n>,<min>,<max>,<mean x100>;
 * built with TAKT_ARM_MASK_METER (takt-bench-hsf-masked) also
 *   masked,<measurement>,<servers>,<n>,<min>,<max>,<mean x100>,<unmeasured>
 * (icount_meter.h). The decision runs inside PendSV's critical section, so
 * all of its window is masked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armv7m_regs.h"
#include "board.h"
#include "hsf_hierarchy.h"
#include "icount_meter.h"
#include "internal.h"
#include "takt/takt.h"
#include "takt_armv7m.h"

#define TICK_HZ 50u /* 156,250 instructions a tick at shift 7: room for the checks at 256 servers */
#define STACK 1024u
#define SAMPLES 40u

/* stats_add of icount_meter.h written as this program always had it: with the
 * other form GCC arranges the wrapped tick differently and moves two of its own
 * instructions out of the measured window, so the published tick numbers would
 * drop by 2. */
static uint32_t add_window(stats_t *s, uint32_t counts_window)
{
    uint32_t c = counts_window >= meter_read_cost ? counts_window - meter_read_cost : 0;
    uint32_t v = to_instructions(c);
    s->min = s->n == 0 || v < s->min ? v : s->min;
    s->max = s->n == 0 || v > s->max ? v : s->max;
    s->sum += v;
    s->n++;
    return v;
}

/* A window and, in the meter build, its masked instructions (kept out of
 * add_window, whose call the plain build's windows hold as they were). */
static inline void add_masked_window(stats_t *s, uint32_t counts_window, masked_mark_t mark)
{
    uint32_t v = add_window(s, counts_window);
    stats_add_masked(s, mark, v);
}

static void report(const char *what, unsigned servers, const stats_t *s)
{
    printf("bench,%s,%u,%lu,%lu,%lu,%lu\n", what, servers, (unsigned long)s->n,
           (unsigned long)s->min, (unsigned long)s->max,
           (unsigned long)(s->n ? s->sum * 100u / s->n : 0));
    if (METER_MASKED) {
        char key[48];
        snprintf(key, sizeof(key), "%s,%u", what, servers);
        meter_report_masked(key, s);
    }
}

static void fail(const char *what)
{
    printf("bench: %s\n", what);
    exit(2);
}

/* ---- HSF: tick and decision against the number of servers ---- */

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

void __wrap_takt_tick_from_isr(void)
{
    int c = hsf_classify_next_tick();
    if (c == CASE_NONE) {
        __real_takt_tick_from_isr();
        last_tick_case = CASE_NONE;
        return;
    }
    hsf_totals_t before = hsf_totals();
    uint32_t pend_before = SCB_ICSR & SCB_ICSR_PENDSVSET;
    masked_mark_t m = masked_mark();
    uint32_t a = cvr();
    __real_takt_tick_from_isr();
    uint32_t b = cvr();
    add_masked_window(&st_tick[c], counts_between(a, b), m);
    bool tick_asked_switch = pend_before == 0 && (SCB_ICSR & SCB_ICSR_PENDSVSET) != 0;
    hsf_totals_t after = hsf_totals();
    misclassified += hsf_tick_matches_class(c, before, after) ? 0u : 1u;
    last_tick_case = tick_asked_switch ? c : CASE_NONE;
}

takt_task_t *__wrap_takt_sched_switch_point(void)
{
    int c = last_tick_case;
    last_tick_case = CASE_NONE;
    if (c == CASE_NONE) {
        return __real_takt_sched_switch_point();
    }
    masked_mark_t m = masked_mark();
    uint32_t a = cvr();
    takt_task_t *next = __real_takt_sched_switch_point();
    uint32_t b = cvr();
    add_masked_window(&st_switch[c], counts_between(a, b), m);
    return next;
}

static void bench_hsf(unsigned n)
{
    memset(st_tick, 0, sizeof(st_tick));
    memset(st_switch, 0, sizeof(st_switch));
    misclassified = 0;
    last_tick_case = CASE_NONE;
    takt_arm_params_t p = {.tick_hz = TICK_HZ, .end_ticks = 3u * hsf_period(n) + 1u};
    takt_init_params_t init = {.scheduler = TAKT_SCHED_HSF, .preemption = TAKT_PREEMPT_FULL};
    if (takt_arm_configure(&p) != TAKT_OK || takt_init(&init) != TAKT_OK) {
        fail("kernel initialisation failed");
    }
    unsigned failed;
    if (hsf_hierarchy_create(n, job_loop, STACK, &failed) != TAKT_OK) {
        fail("creating a server failed");
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
        snprintf(name, sizeof(name), "hsf_tick_%s", hsf_case_names[c]);
        report(name, n, &st_tick[c]);
        snprintf(name, sizeof(name), "hsf_switch_%s", hsf_case_names[c]);
        report(name, n, &st_switch[c]);
    }
}

/* ---- deferred preemption ---- */

static stats_t st_point_idle, st_point_switch, st_should_yield;
static volatile uint32_t mark;
static masked_mark_t masked_at_mark; /* taken with mark */
static volatile bool sink;

static void waker(void *arg) /* high priority: woken by each tick */
{
    (void)arg;
    for (;;) {
        takt_delay(1);
        uint32_t end = cvr(); /* first instruction after the switch */
        if (mark != 0) {
            add_masked_window(&st_point_switch, counts_between(mark, end), masked_at_mark);
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
            masked_at_mark = masked_mark();
            mark = cvr();
            takt_preemption_point(); /* a switch is waiting: to the waker */
            continue;
        }
        if (st_point_idle.n < SAMPLES) {
            masked_mark_t m = masked_mark();
            uint32_t a = cvr();
            takt_preemption_point(); /* nothing waiting */
            uint32_t b = cvr();
            add_masked_window(&st_point_idle, counts_between(a, b), m);
        }
        if (st_should_yield.n < SAMPLES) {
            masked_mark_t m = masked_mark();
            uint32_t a = cvr();
            sink = takt_should_yield();
            uint32_t b = cvr();
            add_masked_window(&st_should_yield, counts_between(a, b), m);
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
    meter_begin(argc, argv, TICK_HZ);
    meter_stop();
    static const unsigned counts[] = {10, 20, 30, 40, 64, 256};
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        bench_hsf(counts[i]);
    }
    bench_deferred();
    printf("done\n");
    return 0;
}
