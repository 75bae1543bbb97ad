/*
 * takt_tick_catch_up (FreeRTOS's xTaskCatchUpTicks): lost ticks are done at
 * once, each one's work in turn, and only then the switch they call for. A
 * higher-priority task whose delay ended in the third of five caught-up ticks
 * runs once all five are counted and sees the fifth; a soft timer due in them
 * fires (the timer task outranks high); ticks that make no task above the
 * caller ready do not switch it away.
 * The ticks that come afterwards go on from there. Refused from inside a
 * critical section, with the scheduler locked, before the start, and beyond
 * half the tick range, with nothing changed. Under hsf the caller's server
 * pays for the ticks: those past its depletion are an overrun, and the
 * switch to the other server comes once all are counted.
 */
#include "harness.h"
#include "hsf_common.h"

static takt_tick_t high_saw = 99, low_saw = 99, timer_saw = 99;

static void high(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(3), TAKT_OK);
    high_saw = h_now_ticks();
    h_note("H");
    h_park();
}

static void low(void *arg)
{
    (void)arg;
    low_saw = h_now_ticks();
    h_note("L");
    h_park();
}

static void on_expiry(takt_soft_timer_t *timer)
{
    (void)timer;
    timer_saw = h_now_ticks();
    h_note("T");
}

static void caller(void *arg)
{
    (void)arg;
    bool switched = true;
    CHECK_EQ(takt_tick_catch_up(0, &switched), TAKT_OK);
    CHECK(!switched && h_now_ticks() == 0);

    takt_soft_timer_params_t p = {.name = "t", .period = 2, .callback = on_expiry};
    takt_soft_timer_t *timer = NULL;
    CHECK_EQ(takt_soft_timer_create(&p, &timer), TAKT_OK);
    CHECK_EQ(takt_soft_timer_start(timer, 0), TAKT_OK);

    /* Refused, changing nothing. */
    CHECK_EQ(takt_tick_catch_up((uint32_t)INT32_MAX + 1u, &switched), TAKT_ERR_ARG);
    takt_critical_enter();
    CHECK_EQ(takt_tick_catch_up(5, &switched), TAKT_ERR_CONTEXT);
    takt_critical_exit();
    CHECK_EQ(takt_sched_lock(), TAKT_OK);
    CHECK_EQ(takt_tick_catch_up(5, NULL), TAKT_ERR_STATE);
    CHECK_EQ(takt_sched_unlock(), TAKT_OK);
    CHECK(h_now_ticks() == 0 && !switched);
    CHECK_STREQ(h_order, "");

    CHECK_EQ(takt_tick_catch_up(5, &switched), TAKT_OK);
    CHECK(switched); /* high ran before this returned */
    CHECK_EQ(h_now_ticks(), 5u);
    CHECK_EQ(high_saw, 5u);
    CHECK_EQ(timer_saw, 5u);
    CHECK(low_saw == 99); /* lower than the caller: not yet */

    CHECK_EQ(takt_tick_catch_up(2, &switched), TAKT_OK);
    CHECK(!switched && h_now_ticks() == 7); /* nothing it readied outranks the caller */

    h_work(1); /* the next real tick goes on from there */
    CHECK_EQ(h_now_ticks(), 8u);
    CHECK(low_saw == 99); /* lower than the caller: it runs once the caller stops */
    h_park();
}

static takt_server_t *server_a;
static takt_tick_t other_saw = 99;

static void hsf_caller(void *arg)
{
    (void)arg;
    bool switched = false;
    CHECK_EQ(takt_tick_catch_up(5, &switched), TAKT_OK);
    CHECK(switched);                 /* B ran: A's budget of 3 was spent */
    CHECK_EQ(other_saw, 5u);         /* after all five */
    CHECK_EQ(h_now_ticks(), 10u);    /* back at A's replenishment */
    takt_server_stats_t st;
    CHECK_EQ(takt_server_stats(server_a, &st), TAKT_OK);
    CHECK(st.budget_consumed == 3u && st.overrun_ticks == 2u && st.depletions == 1u);
    h_park();
}

static void hsf_other(void *arg)
{
    (void)arg;
    other_saw = h_now_ticks();
    h_park();
}

static void hsf_run(void)
{
    takt_init_params_t init = {.scheduler = TAKT_SCHED_HSF, .preemption = TAKT_PREEMPT_FULL};
    h_begin_params(&init, 20);
    server_a = hsf_server("A", 2, 10, 3, 0, TAKT_SERVER_IDLING);
    takt_server_t *b = hsf_server("B", 1, 20, 20, 0, TAKT_SERVER_IDLING);
    hsf_task(server_a, "caller", 1, hsf_caller, NULL);
    hsf_task(b, "other", 1, hsf_other, NULL);
    h_run();
    CHECK_EQ(other_saw, 5u);
}

int main(void)
{
    bool switched = true;
    CHECK_EQ(takt_tick_catch_up(1, &switched), TAKT_ERR_STATE); /* no kernel yet */
    CHECK(!switched);
    h_begin(0, 20, false);
    CHECK_EQ(takt_tick_catch_up(1, NULL), TAKT_ERR_STATE); /* not started */
    CHECK_EQ(takt_tick_count(), 0u);
    h_task("high", 3, high, NULL);
    h_task("caller", 2, caller, NULL);
    h_task("low", 1, low, NULL);
    h_run();
    CHECK_STREQ(h_order, "T H L"); /* the timer task outranks high */
    CHECK_EQ(low_saw, 8u);
    hsf_run();
    return CHECK_SUMMARY();
}
