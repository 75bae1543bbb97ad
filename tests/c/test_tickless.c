/*
 * Tickless idle (TAKT_CONFIG_TICKLESS_IDLE) on the sim: while only the idle
 * task can run, the tick stops until the tick that reaches the next timer,
 * or an interrupt before it, and the ticks left out are counted at once.
 * Checked here: every task sees the tick count it would see with the tick
 * running (the count is always the virtual time's whole ticks), wakes come
 * at the same instants, and the only tick interrupts left are the ones with
 * something to do; an interrupt in the middle of a sleep sees the ticks
 * before it counted, and the tick goes on aligned after it; the sleep's
 * hooks (a plan that shortens or forbids the sleep), the idle task's query
 * and the step's refusals; no sleep under hsf, whose servers spend budget
 * at every tick. The same scenarios run from three tick starts (the wrap).
 */
#include "harness.h"
#include "hsf_common.h"

/* At every observation a task makes: the tick count is the virtual time's
 * whole ticks since the run's start. */
static void check_aligned(void)
{
    uint64_t now = hp_now_ns();
    if (!CHECK_EQ((uint64_t)h_now_ticks(), now / TICK_NS)) {
        fprintf(stderr, "  at %llu ns\n", (unsigned long long)now);
    }
}

/* ---- delays only: a tick interrupt exactly where a timer is due ---- */

static takt_tick_t a_woke[3], b_woke[4];

static void delayer_a(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(takt_delay(10), TAKT_OK);
        check_aligned();
        CHECK_EQ(hp_now_ns(), T(h_now_ticks())); /* woken by the tick itself */
        a_woke[i] = h_now_ticks();
    }
    h_park();
}

static void delayer_b(void *arg)
{
    (void)arg;
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(takt_delay(7), TAKT_OK);
        check_aligned();
        b_woke[i] = h_now_ticks();
    }
    h_park();
}

static takt_tick_t plans[16];
static unsigned plan_n;

static takt_tick_t record_plan(takt_tick_t ticks)
{
    if (plan_n < 16) {
        plans[plan_n] = ticks;
    }
    plan_n++;
    return ticks;
}

static void delays(takt_tick_t tick0)
{
    h_begin(tick0, 40, false);
    h_task("a", 2, delayer_a, NULL);
    h_task("b", 1, delayer_b, NULL);
    unsigned long sleeps = h_sleep_enters;
    plan_n = 0;
    h_sleep_plan_probe = record_plan;
    h_start();
    h_sleep_plan_probe = NULL;
    /* Each sleep lasts up to the next timer's tick: from 0 to b's 7, 7 to
     * a's 10, 10 to 14, 14 to 20; at 20 b's timer is one tick away (no
     * sleep); 21 to 28, 28 to 30, and from 30 nothing is timed. */
    const takt_tick_t expected[] = {7, 3, 4, 6, 7, 2, TAKT_IDLE_TICKS_UNBOUNDED};
    CHECK_EQ(plan_n, 7u);
    for (unsigned i = 0; i < 7 && i < plan_n; i++) {
        CHECK_EQ(plans[i], expected[i]);
    }
    CHECK(a_woke[0] == 10 && a_woke[1] == 20 && a_woke[2] == 30);
    CHECK(b_woke[0] == 7 && b_woke[1] == 14 && b_woke[2] == 21 && b_woke[3] == 28);
    /* Ticking, 39 interrupts (ticks 1..39; the 40th is the run's end). Here
     * one per tick with a timer due: 7 10 14 20 21 28 30; then a sleep to
     * the end. */
    CHECK_EQ(hp_interrupts(), 7u);
    CHECK_EQ(h_sleep_enters - sleeps, 7u);
    CHECK_EQ(h_now_ticks(), 39u); /* the ticks before the end are counted, as ticking */
    h_end();
}

/* ---- an interrupt in the middle of a sleep ---- */

static takt_sem_t *sem;
static takt_tick_t isr_saw[2];
static unsigned isr_calls;

static void give_isr(void *arg)
{
    (void)arg;
    isr_saw[isr_calls++ % 2] = h_now_ticks();
    bool woken = false;
    CHECK_EQ(takt_sem_give_from_isr(sem, &woken), TAKT_OK);
    CHECK(woken);
}

static void waiter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sem_take(sem, 50), TAKT_OK); /* given at 12.5 ticks */
    check_aligned();
    CHECK_EQ(hp_now_ns(), T(12) + TICK_NS / 2);
    CHECK_EQ(takt_delay(3), TAKT_OK); /* the tick runs aligned after the early wake */
    check_aligned();
    CHECK_EQ(hp_now_ns(), T(15));
    CHECK_EQ(takt_sem_take(sem, 50), TAKT_OK); /* given at 20, a tick left out */
    check_aligned();
    CHECK_EQ(hp_now_ns(), T(20));
    CHECK_EQ(takt_sem_take(sem, 4), TAKT_ERR_TIMEOUT); /* a timeout is a timer: its tick runs */
    check_aligned();
    CHECK_EQ(hp_now_ns(), T(24));
    h_park();
}

static void mid_sleep(takt_tick_t tick0)
{
    h_begin(tick0, 30, false);
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    isr_calls = 0;
    h_task("w", 1, waiter, NULL);
    CHECK_EQ(hp_inject_irq(T(12) + TICK_NS / 2, 1, give_isr, NULL), TAKT_OK);
    CHECK_EQ(hp_inject_irq(T(20), 1, give_isr, NULL), TAKT_OK);
    h_start();
    CHECK_EQ(isr_calls, 2u);
    CHECK(isr_saw[0] == 12 && isr_saw[1] == 20);
    /* Interrupts: the two injected, and ticks 15 (the delay) and 24 (the
     * timeout); the tick at 20 was left out, the injected one ran at it. */
    CHECK_EQ(hp_interrupts(), 4u);
    h_end();
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
}

/* ---- the plan hook shortens or forbids the sleep ---- */

static takt_tick_t at_most_three(takt_tick_t ticks)
{
    return ticks < 3 ? ticks : 3;
}

static takt_tick_t never(takt_tick_t ticks)
{
    (void)ticks;
    return 1; /* fewer than TAKT_CONFIG_TICKLESS_MIN_TICKS: no sleep */
}

static void one_delay(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(10), TAKT_OK);
    check_aligned();
    CHECK_EQ(hp_now_ns(), T(10));
    h_park();
}

static void planned(takt_tick_t (*plan)(takt_tick_t), uint64_t interrupts, unsigned long sleeps)
{
    h_begin(0, 11, false);
    h_sleep_plan_probe = plan;
    h_task("d", 1, one_delay, NULL);
    unsigned long before = h_sleep_enters;
    h_start();
    h_sleep_plan_probe = NULL;
    CHECK_EQ(hp_interrupts(), interrupts);
    CHECK_EQ(h_sleep_enters - before, sleeps);
    h_end();
}

/* ---- a timer one tick away: no sleep (the minimum is two) ---- */

static void every_tick(void *arg)
{
    (void)arg;
    for (int i = 0; i < 8; i++) {
        CHECK_EQ(takt_delay(1), TAKT_OK);
        check_aligned();
    }
    h_park();
}

/* What the idle task's query answers: 0 while the timer is one tick away
 * (below the minimum), unbounded once nothing is timed. */
static unsigned long early_queries, early_nonzero;
static takt_tick_t late_answer;

static void query_from_idle(void)
{
    takt_tick_t ticks = takt_tickless_idle_ticks();
    if (h_now_ticks() < 8u) {
        early_queries++;
        early_nonzero += ticks != 0u;
    } else {
        late_answer = ticks;
    }
}

/* ---- the query and the step from a task ---- */

static void asks(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_tickless_idle_ticks(), 0u); /* not the idle task */
    CHECK_EQ(takt_delay(5), TAKT_OK);
    /* A timer due at tick 15 (the other task's delay): a step to it or past
     * it is refused, as is one of more than half the tick range. */
    CHECK_EQ(takt_tick_step(10), TAKT_ERR_ARG);
    CHECK_EQ(takt_tick_step(11), TAKT_ERR_ARG);
    CHECK_EQ(takt_tick_step((takt_tick_t)INT32_MAX + 1u), TAKT_ERR_ARG);
    CHECK_EQ(takt_tick_step(0), TAKT_OK);
    CHECK_EQ(h_now_ticks(), 5u); /* nothing changed */
    check_aligned();
    h_park();
}

static void sleeper(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(15), TAKT_OK);
    check_aligned();
    h_park();
}

static void query_and_step(void)
{
    CHECK_EQ(takt_tickless_idle_ticks(), 0u); /* not started */
    h_begin(0, 20, false);
    CHECK_EQ(takt_tick_step(1), TAKT_ERR_STATE);
    CHECK_EQ(takt_tickless_idle_ticks(), 0u);
    h_task("asks", 2, asks, NULL);
    h_task("sleeper", 1, sleeper, NULL);
    h_run();
}

/* ---- nothing timed: only the run's end stops the sleep ---- */

static takt_sem_t never_given; /* static: the run ends with its waiter */

static void forever(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sem_take(&never_given, TAKT_WAIT_FOREVER), TAKT_OK);
}

static void unbounded(void)
{
    h_begin(0, 100, false);
    CHECK_EQ(takt_sem_create_static(&never_given, 1, 0), TAKT_OK);
    h_task("f", 1, forever, NULL);
    h_sleep_planned_last = 0;
    h_start();
    CHECK_EQ(h_sleep_planned_last, TAKT_IDLE_TICKS_UNBOUNDED);
    CHECK_EQ(hp_interrupts(), 0u);
    CHECK_EQ(h_now_ticks(), 99u);
    h_end();
}

/* ---- hsf: the tick never stops ---- */

static void hsf_delayer(void *arg)
{
    (void)arg;
    for (;;) {
        CHECK_EQ(takt_delay(6), TAKT_OK);
        check_aligned();
    }
}

static void hsf_no_sleep(void)
{
    takt_init_params_t init = {.scheduler = TAKT_SCHED_HSF, .preemption = TAKT_PREEMPT_FULL};
    h_begin_params(&init, 30);
    takt_server_t *a = hsf_server("A", 1, 10, 5, 0, TAKT_SERVER_IDLING);
    hsf_task(a, "d", 1, hsf_delayer, NULL);
    unsigned long plans = h_sleeps;
    h_start();
    CHECK_EQ(h_sleeps, plans);
    CHECK_EQ(hp_interrupts(), 29u);
    h_end();
}

int main(void)
{
    CHECK_EQ(takt_tick_step(1), TAKT_ERR_STATE); /* no kernel yet */
    h_both(delays, "delays");
    h_both(mid_sleep, "mid_sleep");
    /* Sleeps from 0, 3 and 6, cut short by the plan: ticks 3, 6 and 9 with
     * nothing due; at 9 the timer is one tick away (no sleep): tick 10; a
     * fourth sleep from 10 to the end. */
    planned(at_most_three, 4u, 4u);
    planned(never, 10u, 0u); /* ticks 1..10 */
    planned(NULL, 1u, 2u);   /* tick 10; a second sleep from 10 to the end */
    h_begin(0, 12, false);
    h_task("e", 1, every_tick, NULL);
    unsigned long before = h_sleep_enters;
    h_idle_probe = query_from_idle;
    h_start();
    h_idle_probe = NULL;
    CHECK_EQ(hp_interrupts(), 8u);
    CHECK_EQ(h_sleep_enters - before, 1u); /* after the eighth delay: 8 to the end */
    CHECK(early_queries >= 8u);
    CHECK_EQ(early_nonzero, 0u);
    CHECK_EQ(late_answer, TAKT_IDLE_TICKS_UNBOUNDED);
    h_end();
    query_and_step();
    unbounded();
    hsf_no_sleep();
    return CHECK_SUMMARY();
}
