/*
 * Kernel costs on a Cortex-M under QEMU -icount, in guest instructions.
 *
 * Every window is read off SysTick's current value (SYST_CVR) at its two
 * ends: under -icount each instruction takes 2^shift ns of virtual time and
 * SysTick counts that time at the board's 25 MHz, so with shift >= 7 one
 * count is at most 0.3125 instructions and rounding counts to instructions
 * is exact. The cost of the reads themselves (measured with nothing between
 * them) is subtracted. Exception entry and exit take no instructions under
 * icount, so interrupt paths count only the handlers' instructions.
 * Output: one CSV line per sample set,
 *   bench,<measurement>,<timer queue>,<scheduler>,<tasks>,<n>,<min>,<max>,<mean x100>
 * and "calibration" lines that check the method on loops of known length.
 * Built with TAKT_ARM_MASK_METER (the -masked programs), each sample set also
 * gets the instructions its windows executed with interrupts masked,
 *   masked,<measurement>,<timer queue>,<scheduler>,<tasks>,<n>,<min>,<max>,<mean x100>,<unmeasured>
 * and calibration lines that check the meter on windows of known masking.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armv7m_regs.h"
#include "board.h"
#include "icount_meter.h"
#include "takt/takt.h"
#include "takt_armv7m.h"
/* The ready queue's own operations (bench_pick): the policy interface the
 * scheduler core calls, measured alone. */
#include "internal.h"
#include "sched/bound.h"
#ifdef TAKT_PORT_HWPQ_UNITS
#include "hwpq_regs.h"
#endif

#define SAMPLES 40u
#define STACK 1024u
#define TICK_HZ 20u /* long ticks (390,625 instructions at shift 7): a window never
                          * spans a tick unless it measures one, and 64 releases fit in one */

#if BENCH_TIMER_QUEUE == TAKT_PQ_LIST
#define QUEUE_NAME "list"
#elif BENCH_TIMER_QUEUE == TAKT_PQ_HEAP
#define QUEUE_NAME "heap"
#elif BENCH_TIMER_QUEUE == TAKT_PQ_HW
#define QUEUE_NAME "hw" /* the emulated hardware queue's unit 1 */
#else
#define QUEUE_NAME "rbtree"
#endif

static void report(const char *what, const char *sched, unsigned tasks, const stats_t *s)
{

    printf("bench,%s,%s,%s,%u,%lu,%lu,%lu,%lu\n", what, QUEUE_NAME, sched, tasks,
           (unsigned long)s->n, (unsigned long)s->min, (unsigned long)s->max,
           (unsigned long)(s->n ? s->sum * 100u / s->n : 0));
    if (METER_MASKED) {
        char key[64];
        snprintf(key, sizeof(key), "%s,%s,%s,%u", what, QUEUE_NAME, sched, tasks);
        meter_report_masked(key, s);
    }
}

static void begin(takt_scheduler_t sched, takt_preemption_t preemption)
{
    takt_arm_params_t p = {.tick_hz = TICK_HZ, .end_ticks = 0};
    takt_init_params_t init = {.scheduler = sched, .preemption = preemption};
    if (takt_arm_configure(&p) != TAKT_OK || takt_init(&init) != TAKT_OK) {
        printf("bench: kernel initialisation failed\n");
        exit(2);
    }
}

static takt_task_t *spawn(unsigned prio, void (*entry)(void *), void *arg, takt_tick_t period,
                          takt_tick_t deadline, takt_tick_t offset)
{
    takt_task_params_t p = {.name = "b", .entry = entry, .arg = arg, .priority = prio,
                            .stack_size = STACK, .period = period, .deadline = deadline,
                            .offset = offset};
    takt_task_t *t = NULL;
    if (takt_task_create(&p, &t) != TAKT_OK) {
        printf("bench: task creation failed\n");
        exit(2);
    }
    return t;
}

static void finish(void)
{
    takt_teardown();
}

/* ---- calibration: loops of known length, and the read cost ---- */

/* The meter on windows whose masking is known, spin(n) in each:
 *   masked_none     no critical section: 0 masked
 *   masked_inside   the window inside a section: all of it masked
 *   masked_section  a section around spin(n) inside the window: 2 more per n,
 *                   and the section's own unmasked instructions (the code
 *                   before its raising msr and after its lowering one) the
 *                   same for every n
 * Line: calibration,<kind>,<n>,<window instructions>,<masked instructions>. */
static void calibrate_masked(void)
{
    for (uint32_t n = 100; n <= 104; n++) {
        masked_mark_t m = masked_mark();
        uint32_t a = cvr();
        takt_arm_spin(n);
        uint32_t b = cvr();
        uint32_t window = to_instructions(counts_between(a, b) - meter_read_cost);
        printf("calibration,masked_none,%lu,%lu,%lu\n", (unsigned long)n, (unsigned long)window,
               (unsigned long)masked_in_window(m, window));
    }
    for (uint32_t n = 100; n <= 104; n++) {
        takt_critical_enter();
        masked_mark_t m = masked_mark();
        uint32_t a = cvr();
        takt_arm_spin(n);
        uint32_t b = cvr();
        uint32_t window = to_instructions(counts_between(a, b) - meter_read_cost);
        uint32_t masked = masked_in_window(m, window);
        takt_critical_exit();
        printf("calibration,masked_inside,%lu,%lu,%lu\n", (unsigned long)n, (unsigned long)window,
               (unsigned long)masked);
    }
    for (uint32_t n = 100; n <= 104; n++) {
        masked_mark_t m = masked_mark();
        uint32_t a = cvr();
        takt_critical_enter();
        takt_arm_spin(n);
        takt_critical_exit();
        uint32_t b = cvr();
        uint32_t window = to_instructions(counts_between(a, b) - meter_read_cost);
        printf("calibration,masked_section,%lu,%lu,%lu\n", (unsigned long)n, (unsigned long)window,
               (unsigned long)masked_in_window(m, window));
    }
}

#ifdef TAKT_PORT_HWPQ_UNITS
/* What one register access of the emulated hardware queue costs in a window
 * (port/armv7m/hwpq_emulated.c: the call, SysTick stopped and started again
 * around hw/'s model): a read of the ID register and a write of the key
 * operand (no command), each alone in its window. On silicon an access is
 * one load or store. Line: calibration,hwpq_access_<read|write>,<sample>,<instructions>. */
static void calibrate_hwpq_access(void)
{
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t a = cvr();
        uint32_t id = port_hwpq_read(TAKT_PQ_HW_READY_UNIT, HWPQ_REG_ID);
        uint32_t b = cvr();
        if (id != HWPQ_ID) {
            printf("bench: the emulated hardware queue is not there\n");
            exit(2);
        }
        printf("calibration,hwpq_access_read,%lu,%lu\n", (unsigned long)i,
               (unsigned long)to_instructions(counts_between(a, b) - meter_read_cost));
    }
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t a = cvr();
        port_hwpq_write(TAKT_PQ_HW_READY_UNIT, HWPQ_REG_KEY, i);
        uint32_t b = cvr();
        printf("calibration,hwpq_access_write,%lu,%lu\n", (unsigned long)i,
               (unsigned long)to_instructions(counts_between(a, b) - meter_read_cost));
    }
}
#endif

static void calibrate(void)
{
    uint32_t a, b;
    for (uint32_t n = 100; n <= 104; n++) {
        a = cvr();
        takt_arm_spin(n);
        b = cvr();
        uint32_t c = counts_between(a, b) - meter_read_cost;
        /* spin(n): cbz, 2n loop instructions, bx, plus the call: mov, bl */
        printf("calibration,spin,%lu,%lu\n", (unsigned long)n, (unsigned long)to_instructions(c));
    }
    printf("calibration,read_cost_counts,%lu\n", (unsigned long)meter_read_cost);
    if (METER_MASKED) {
        calibrate_masked();
    }
#ifdef TAKT_PORT_HWPQ_UNITS
    calibrate_hwpq_access();
#endif
    meter_stop();
}

/* ---- cooperative yield: two equal tasks hand over by takt_yield ---- */

static volatile uint32_t mark;
static masked_mark_t masked_at_mark; /* taken with mark */
static stats_t st_yield;
static unsigned warmup;

static void yielder(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t end = cvr(); /* first instruction after takt_yield returns */
        if (warmup > 0) {
            warmup--; /* the first hand-over enters the other task at its start */
        } else if (mark != 0) {
            stats_add_window(&st_yield, counts_between(mark, end), masked_at_mark);
            if (st_yield.n == SAMPLES) {
                takt_arm_stop();
            }
        }
        masked_at_mark = masked_mark();
        mark = cvr();
        takt_yield();
    }
}

static void bench_yield(void)
{
    memset(&st_yield, 0, sizeof(st_yield));
    mark = 0;
    warmup = 2;
    begin(TAKT_SCHED_FP, TAKT_PREEMPT_FULL);
    spawn(2, yielder, NULL, 0, 0, 0);
    spawn(2, yielder, NULL, 0, 0, 0);
    takt_start();
    finish();
    report("yield_switch", "fp", 2, &st_yield);
}

/* ---- the tick: no wake, and waking a task that preempts ---- */

static stats_t st_tick_idle, st_tick_wake;
static uint32_t watch_limit;
static masked_mark_t masked_before_tick; /* the watcher's latest mark */
static volatile bool wake_pending;

/* Reads the clock and the port's tick count in a loop whose iterations all
 * run the same instructions until a tick has happened: the count is read
 * before the clock, and the only branch depends on the count. A tick that
 * lands before an iteration's count read is in that iteration's gap and is
 * seen there; one that lands between the count read and the clock read is
 * in that gap too but seen one iteration later. So when the count changes,
 * the tick is in one of the last two gaps and the other is the loop's own
 * length: their difference is the tick interrupt, whatever the point in the
 * loop it landed on. (An earlier watcher learnt the loop on another path
 * than the one a tick took, which added about 22 instructions and up to 5
 * of jitter to everything it measured.) After recording, the clock is read
 * again so the recording's own time is in no gap, and two clean gaps are
 * awaited before the next record. The watcher opens no critical section:
 * the sections logged since the last record (or the start) are the tick's. */
static void tick_watcher(void *arg)
{
    stats_t *stats = arg;
    masked_mark_t since_recorded = masked_mark();
    uint64_t ticks = takt_arm_ticks_handled();
    uint32_t prev = cvr();
    uint32_t gap = 0, gap_before = 0;
    unsigned clean = 0; /* gaps since the last record; both must be whole iterations */
    for (;;) {
        if (METER_MASKED) {
            masked_before_tick = masked_mark();
        }
        uint64_t t = takt_arm_ticks_handled();
        uint32_t now = cvr();
        gap_before = gap;
        gap = counts_between(prev, now);
        prev = now;
        clean++;
        if (t == ticks) {
            continue;
        }
        ticks = t;
        if (stats != NULL && clean > 2u) {
            uint32_t with_tick = gap > gap_before ? gap : gap_before;
            uint32_t loop = gap > gap_before ? gap_before : gap;
            stats_add_window(stats, with_tick - loop + meter_read_cost, since_recorded);
            if (stats->n == watch_limit) {
                takt_arm_stop();
            }
            since_recorded = masked_mark();
        }
        clean = 0;
        prev = cvr();
    }
}

/* The tick with nothing to wake, pended by software (as the FreeRTOS-API
 * suite does): the window around the store to ICSR holds the store and the
 * whole tick, since the pended SysTick is taken right after it. The same
 * window with a store of 0 (which pends nothing) is the reads' and the
 * store's own cost, taken off. A watcher loop waiting for the timer's own
 * ticks measured this before; where the tick landed in its loop changed the
 * loop's path, which showed as jitter that was not the tick's. The kernel's
 * tick count runs ahead of SysTick's; nothing here reads time from it. */
static volatile uint32_t tick_pend_value;

static __attribute__((noinline)) uint32_t pended_store_window(void)
{
    uint32_t a = cvr();
    SCB_ICSR = tick_pend_value;
    uint32_t b = cvr();
    return counts_between(a, b);
}

static void tick_pender(void *arg)
{
    stats_t *stats = arg;
    tick_pend_value = 0;
    uint32_t store_only = pended_store_window();
    tick_pend_value = SCB_ICSR_PENDSTSET;
    while (stats->n < SAMPLES) {
        masked_mark_t mark = masked_mark();
        uint32_t counts = pended_store_window();
        stats_add_window(stats, counts - store_only + meter_read_cost, mark);
    }
    takt_arm_stop();
}

static void bench_tick_no_wake(void)
{
    memset(&st_tick_idle, 0, sizeof(st_tick_idle));
    begin(TAKT_SCHED_FP, TAKT_PREEMPT_FULL);
    spawn(1, tick_pender, &st_tick_idle, 0, 0, 0);
    takt_start();
    finish();
    report("tick_no_wake", "fp", 1, &st_tick_idle);
}

/* The watcher's check: the timer's own no-wake ticks, watched, must cost
 * what the pended one does (the job release is measured by the watcher).
 * Line: calibration,tick_watcher,<n>,<min>,<max>. */
#define WATCHED_TICKS 6u

static void calibrate_tick_watcher(void)
{
    stats_t watched;
    memset(&watched, 0, sizeof(watched));
    watch_limit = WATCHED_TICKS;
    begin(TAKT_SCHED_FP, TAKT_PREEMPT_FULL);
    spawn(1, tick_watcher, &watched, 0, 0, 0);
    takt_start();
    finish();
    printf("calibration,tick_watcher,%lu,%lu,%lu\n", (unsigned long)watched.n,
           (unsigned long)watched.min, (unsigned long)watched.max);
}

static void delayed_waker(void *arg)
{
    (void)arg;
    for (;;) {
        takt_delay(1);
        /* first instruction after the delay: the tick's instant is the wrap
         * of SysTick to its reload value (a count after 0) */
        uint32_t now = cvr();
        stats_add_window(&st_tick_wake, takt_arm_tick_counts() - now + meter_read_cost - 1u,
                         masked_before_tick);
        if (st_tick_wake.n == SAMPLES) {
            takt_arm_stop();
        }
    }
}

static void bench_tick_wake(void)
{
    memset(&st_tick_wake, 0, sizeof(st_tick_wake));
    begin(TAKT_SCHED_FP, TAKT_PREEMPT_FULL);
    spawn(3, delayed_waker, NULL, 0, 0, 0);
    spawn(1, tick_watcher, NULL, 0, 0, 0);
    takt_start();
    finish();
    report("tick_wake_preempt", "fp", 2, &st_tick_wake);
}

/* ---- takt_delay with n tasks already delayed (earlier wake times) ---- */

static takt_task_t *delay_subject;
static stats_t st_delay;

static void long_sleeper(void *arg)
{
    takt_delay(1000000u + (takt_tick_t)(uintptr_t)arg);
    for (;;) {
        takt_task_suspend(NULL);
    }
}

static void delay_subject_main(void *arg)
{
    (void)arg;
    for (;;) {
        masked_at_mark = masked_mark();
        mark = cvr();
        takt_delay(2000000u); /* later than every sleeper: list insertion walks past them all */
    }
}

static void delay_partner(void *arg)
{
    (void)arg;
    mark = 0;
    for (;;) {
        takt_yield(); /* to the subject, which is ready at the same priority */
        uint32_t end = cvr();
        if (mark != 0) {
            stats_add_window(&st_delay, counts_between(mark, end), masked_at_mark);
            if (st_delay.n == SAMPLES) {
                takt_arm_stop();
            }
        }
        mark = 0;
        takt_task_suspend(delay_subject); /* cancels its delay */
        takt_task_resume(delay_subject);  /* ready again, behind this task */
    }
}

static void bench_delay(unsigned delayed)
{
    memset(&st_delay, 0, sizeof(st_delay));
    begin(TAKT_SCHED_FP, TAKT_PREEMPT_FULL);
    for (unsigned i = 0; i < delayed; i++) {
        spawn(3, long_sleeper, (void *)(uintptr_t)i, 0, 0, 0);
    }
    delay_subject = spawn(2, delay_subject_main, NULL, 0, 0, 0);
    spawn(2, delay_partner, NULL, 0, 0, 0);
    takt_start();
    finish();
    report("delay", "fp", delayed, &st_delay);
}

/* ---- per policy: job release (tick releasing one job, no switch) and
 * dispatch (job end to the next job's first instruction) ---- */

static const struct {
    takt_scheduler_t sched;
    const char *name;
} policies[] = {{TAKT_SCHED_FP, "fp"},
                {TAKT_SCHED_FP_LIST, "fp-list"},
                {TAKT_SCHED_EDF_HEAP, "edf-heap"},
                {TAKT_SCHED_EDF_MLIST, "edf-mlist"},
                {TAKT_SCHED_EDF_RBTREE, "edf-rbtree"},
#ifdef TAKT_PORT_HWPQ_UNITS
                {TAKT_SCHED_FP_HWPQ, "fp-hwpq"},
                {TAKT_SCHED_EDF_HWPQ, "edf-hwpq"},
#endif
};
static stats_t st_release, st_dispatch;

/* Non-preemptive watcher: every tick releases one job that cannot switch in. */
static void release_watcher(void *arg)
{
    (void)arg;
    tick_watcher(&st_release);
}

static void release_job(void *arg)
{
    (void)arg;
    for (;;) {
        takt_job_end();
    }
}

static void bench_release(takt_scheduler_t sched, unsigned tasks)
{
    memset(&st_release, 0, sizeof(st_release));
    watch_limit = tasks;
    begin(sched, TAKT_PREEMPT_NONE);
    /* the watcher runs first (offset 0, highest priority / earliest deadline);
     * task i is released once, at tick i+1, and waits in the ready queue,
     * behind the jobs released before it (up to 28 of them: a lower priority,
     * a later deadline), which the one-list queue walks past */
    spawn(31, release_watcher, NULL, 1000000u, 1000000u, 0);
    for (unsigned i = 0; i < tasks; i++) {
        spawn(30 - i % 28, release_job, NULL, 1000000u, 1000u + i, i + 1u);
    }
    takt_start();
    finish();
}

static unsigned job_seq, round_jobs;

/* Round 1 (released at tick 0) starts every task; round 2 (tick 2) is
 * measured: each job end to the first instruction after the next task's own
 * takt_job_end, except the round's first job (it follows the idle task). */
static void dispatch_job(void *arg)
{
    (void)arg;
    for (;;) {
        uint32_t end = cvr();
        unsigned seq = job_seq++;
        if (seq > round_jobs) {
            stats_add_window(&st_dispatch, counts_between(mark, end), masked_at_mark);
        }
        if (seq + 1u == 2u * round_jobs) {
            takt_arm_stop();
        }
        masked_at_mark = masked_mark();
        mark = cvr();
        takt_job_end();
    }
}

static void bench_dispatch(takt_scheduler_t sched, unsigned tasks)
{
    memset(&st_dispatch, 0, sizeof(st_dispatch));
    job_seq = 0;
    round_jobs = tasks;
    begin(sched, TAKT_PREEMPT_FULL);
    /* all released at 0 with distinct priorities / deadlines: each job end
     * dispatches the next of the ready jobs */
    for (unsigned i = 0; i < tasks; i++) {
        spawn(30 - i % 28, dispatch_job, NULL, 2u, 2u, 0);
    }
    takt_start();
    finish();
}

/* The ready queue alone: the running job's removal from the queue's head
 * and the pick of the next (what a block or a job's end asks of the policy,
 * through its table as the runtime-policy kernel calls it), with tasks-1 jobs
 * queued behind it at distinct priorities / deadlines, inside the kernel's
 * section. The job goes back to the head after each sample. */
static stats_t st_pick;
static uint64_t pick_device_accesses; /* the emulated hardware queue's, in one window */

/* The register accesses the ready queue's unit has taken so far (0 without the device). */
static uint64_t device_accesses(void)
{
#ifdef TAKT_PORT_HWPQ_UNITS
    const hwpq_model_counts_t *c = takt_arm_hwpq_counts(TAKT_PQ_HW_READY_UNIT);
    return c->reads + c->writes;
#else
    return 0;
#endif
}

static void pick_measurer(void *arg)
{
    (void)arg;
    takt_task_t *self = takt_task_self();
    const takt_policy_t *policy = sched_policy();
    for (unsigned i = 0; i < SAMPLES; i++) {
        port_critical_t key = port_critical_enter();
        uint64_t accesses_before = device_accesses();
        masked_mark_t m = masked_mark();
        uint32_t a = cvr();
        policy->remove(self);
        takt_task_t *next = policy->peek();
        uint32_t b = cvr();
        stats_add_window(&st_pick, counts_between(a, b), m); /* in the section: all masked */
        pick_device_accesses = device_accesses() - accesses_before;
        policy->insert(self, TAKT_READY_PREEMPTED);
        port_critical_exit(key);
        if (next == self || next == NULL || policy->peek() != self) {
            printf("bench: pick measurement lost its queue\n");
            exit(2);
        }
    }
    takt_arm_stop();
}

static void filler(void *arg)
{
    (void)arg;
    for (;;) {
        takt_job_end(); /* never runs while the measurer does */
    }
}

static void bench_pick(takt_scheduler_t sched, unsigned tasks)
{
    memset(&st_pick, 0, sizeof(st_pick));
    begin(sched, TAKT_PREEMPT_FULL);
    spawn(31, pick_measurer, NULL, 1000000u, 10u, 0);
    for (unsigned i = 1; i < tasks; i++) {
        spawn(30 - i % 28, filler, NULL, 1000000u, 1000u + i, 0);
    }
    takt_start();
    finish();
}

static void bench_policies(void)
{
    static const unsigned counts[] = {2, 4, 8, 16, 32, 64};
    for (unsigned s = 0; s < sizeof(policies) / sizeof(policies[0]); s++) {
        for (unsigned c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
            unsigned n = counts[c];
            bench_release(policies[s].sched, n);
            report("job_release", policies[s].name, n, &st_release);
            bench_dispatch(policies[s].sched, n);
            report("dispatch", policies[s].name, n, &st_dispatch);
            bench_pick(policies[s].sched, n);
            report("head_removal_pick", policies[s].name, n, &st_pick);
            if (pick_device_accesses != 0) {
                /* hwpq,<measurement>,<scheduler>,<tasks>,<register accesses per window> */
                printf("hwpq,head_removal_pick,%s,%u,%lu\n", policies[s].name, n,
                       (unsigned long)pick_device_accesses);
            }
        }
    }
}

int main(int argc, char **argv)
{
    meter_begin(argc, argv, TICK_HZ);
    calibrate();
    bench_yield();
    bench_tick_no_wake();
    calibrate_tick_watcher();
    bench_tick_wake();
    for (unsigned n = 0; n < 32; n++) {
        bench_delay(n);
    }
    bench_policies();
    printf("done\n");
    return 0;
}
