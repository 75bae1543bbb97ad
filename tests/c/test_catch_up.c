/*
 * takt_tick_catch_up (FreeRTOS's xTaskCatchUpTicks): lost ticks are done at
 * once, each one's work in turn, and only then the switch they call for. A
 * higher-priority task whose delay ended in the third of five caught-up ticks
 * runs once all five are counted and sees the fifth; a soft timer due in them
 * fires (the timer task outranks high); ticks that make no task above the
 * caller ready do not switch it away.
 * The ticks that come afterwards go on from there. Refused from inside a
 * critical section, with the scheduler locked, before the start, and beyond
 * half the tick range, with nothing changed.
 */
#include "harness.h"

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
    return CHECK_SUMMARY();
}
