/*
 * Software timers on the sim port: one-shot and auto-reload expiries at the
 * right ticks (also across the wraparound), commands from tasks, before start
 * and from interrupts, reset, change of period, stop, delete, pending calls,
 * queries, a full command queue, a delete that overtakes a command waiting
 * for room, and bad input. Callbacks run in the timer
 * task (checked through takt_task_self).
 */
#include "sync_common.h"

static takt_soft_timer_t one_shot, reload;
static takt_soft_timer_t *dyn;
static int reload_count;

static void on_expiry(takt_soft_timer_t *timer)
{
    CHECK(takt_task_self() == takt_soft_timer_task());
    if (timer == &reload) {
        reload_count++;
    }
    s_log("%s", takt_soft_timer_name(timer));
}

static void pended(void *arg1, uint32_t arg2)
{
    CHECK(takt_task_self() == takt_soft_timer_task());
    s_log("call:%s:%u", (const char *)arg1, (unsigned)arg2);
}

static bool isr_woken;
static int isr_rc[3];

static void timer_isr(void *arg)
{
    (void)arg;
    isr_woken = false;
    isr_rc[0] = takt_soft_timer_start_from_isr(&one_shot, &isr_woken); /* restart: 12 + 5 */
    isr_rc[1] = takt_soft_timer_pend_call_from_isr(pended, "isr", 7, &isr_woken);
    isr_rc[2] = takt_soft_timer_start(&one_shot, 0); /* task call from an interrupt */
}

static void controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(7), TAKT_OK);
    /* 7: the reload timer (3, 6 so far) gets period 4 from now: 11, 15, ... */
    CHECK_EQ(takt_soft_timer_change_period(&reload, 4, 0), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_soft_timer_period(&reload), 4);
    CHECK_EQ(takt_soft_timer_expiry(&reload), h_tick0 + 11u);
    CHECK(takt_soft_timer_active(&reload));
    CHECK(!takt_soft_timer_active(&one_shot)); /* fired at 5 */
    CHECK_EQ(takt_delay(8), TAKT_OK);
    /* 16: stop it (it fired at 11 and 15) */
    CHECK_EQ(takt_soft_timer_stop(&reload, 0), TAKT_OK);
    CHECK_EQ(takt_soft_timer_pend_call(pended, "task", 1, 0), TAKT_OK);
    /* a dynamic one-shot, reset twice: the last reset counts (16 -> 18 + 2) */
    takt_soft_timer_params_t p = {.name = "dyn", .period = 2, .callback = on_expiry};
    CHECK_EQ(takt_soft_timer_create(&p, &dyn), TAKT_OK);
    CHECK_EQ(takt_soft_timer_start(dyn, 0), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_soft_timer_reset(dyn, 0), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_soft_timer_reset(dyn, 0), TAKT_OK);
    CHECK_EQ(takt_delay(3), TAKT_OK);
    CHECK_EQ(takt_soft_timer_delete(dyn, 0), TAKT_OK);
    /* the call rides on the delete, carried out in the timer task; a
     * refused delete calls nothing */
    CHECK_EQ(takt_soft_timer_delete_then_call(&one_shot, 0, pended, "deleted", 2), TAKT_OK);
    CHECK_EQ(takt_soft_timer_delete_then_call(&one_shot, 0, pended, "twice", 3), TAKT_ERR_ARG);
    CHECK_EQ(takt_soft_timer_delete_then_call(&reload, 0, NULL, NULL, 0), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_soft_timer_start(&one_shot, 0), TAKT_ERR_ARG); /* deleted static timer */
    s_log("end");
    h_park();
}

static void scenario_timers(takt_tick_t tick0)
{
    s_begin(tick0, 30);
    s_log_reset();
    reload_count = 0;
    takt_soft_timer_params_t p = {.name = "once", .period = 5, .callback = on_expiry,
                                  .id = (void *)0x1D};
    CHECK_EQ(takt_soft_timer_create_static(&p, &one_shot), TAKT_OK);
    CHECK_EQ(takt_soft_timer_create_static(&p, &one_shot), TAKT_ERR_STATE);
    p.name = "tick";
    p.period = 3;
    p.auto_reload = true;
    CHECK_EQ(takt_soft_timer_create_static(&p, &reload), TAKT_OK);
    CHECK(takt_soft_timer_task() != NULL);
    CHECK(takt_soft_timer_id(&one_shot) == (void *)0x1D);
    CHECK(takt_soft_timer_auto_reload(&reload));
    CHECK(!takt_soft_timer_auto_reload(&one_shot));
    /* commands before start take effect at start (tick 0) */
    CHECK_EQ(takt_soft_timer_start(&one_shot, 0), TAKT_OK);
    CHECK_EQ(takt_soft_timer_start(&reload, 0), TAKT_OK);
    CHECK(!takt_soft_timer_active(&one_shot)); /* not executed yet */
    s_task("C", 3, controller, NULL);
    hp_inject_irq(T(12), 1, timer_isr, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "tick@3 once@5 tick@6 tick@11 call:isr:7@12 tick@15 "
                           "call:task:1@16 once@17 dyn@20 call:deleted:2@21 end@22");
    CHECK_EQ(reload_count, 4);
    CHECK_EQ(isr_rc[0], TAKT_OK);
    CHECK_EQ(isr_rc[1], TAKT_OK);
    CHECK_EQ(isr_rc[2], TAKT_ERR_CONTEXT);
    CHECK(isr_woken); /* the timer task waits on its command queue */
    h_end();
}

/* ---------------------------------------------------------------- bad input, full queue */

static int no_daemon_rc;
static takt_soft_timer_t bad_timer;

static void no_daemon_isr(void *arg)
{
    (void)arg;
    no_daemon_rc = takt_soft_timer_pend_call_from_isr(pended, "x", 0, NULL);
}

static void idle_body(void *arg)
{
    (void)arg;
    h_park();
}

static void scenario_bad(takt_tick_t tick0)
{
    /* no soft timer: no timer task, and an interrupt cannot create it */
    s_begin(tick0, 3);
    CHECK_EQ(takt_soft_timer_pend_call(pended, "x", 0, 0x80000000u), TAKT_ERR_ARG);
    CHECK(takt_soft_timer_task() == NULL); /* the refused call created nothing */
    s_task("I", 1, idle_body, NULL);
    hp_inject_irq(T(1), 1, no_daemon_isr, NULL);
    h_start();
    CHECK_EQ(no_daemon_rc, TAKT_ERR_STATE);
    CHECK(takt_soft_timer_task() == NULL);
    h_end();

    s_begin(tick0, 3);
    s_log_reset();
    takt_soft_timer_params_t p = {.name = "bad", .period = 0, .callback = on_expiry};
    takt_soft_timer_t *out = NULL;
    CHECK_EQ(takt_soft_timer_create(&p, &out), TAKT_ERR_ARG);
    p.period = 0x80000000u;
    CHECK_EQ(takt_soft_timer_create(&p, &out), TAKT_ERR_ARG);
    p.period = 1;
    p.callback = NULL;
    CHECK_EQ(takt_soft_timer_create(&p, &out), TAKT_ERR_ARG);
    CHECK_EQ(takt_soft_timer_create(NULL, &out), TAKT_ERR_ARG);
    CHECK(out == NULL);
    p.callback = on_expiry;
    CHECK_EQ(takt_soft_timer_create(&p, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_soft_timer_start(NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_soft_timer_pend_call(NULL, NULL, 0, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_soft_timer_create_static(&p, &bad_timer), TAKT_OK);
    CHECK_EQ(takt_soft_timer_change_period(&bad_timer, 0, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_soft_timer_change_period_from_isr(&bad_timer, 0, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_soft_timer_start(&bad_timer, 0x80000000u), TAKT_ERR_ARG);
    /* the command queue holds TAKT_CONFIG_SOFT_TIMER_COMMANDS; then it is full */
    for (int i = 0; i < TAKT_CONFIG_SOFT_TIMER_COMMANDS - 1; i++) {
        CHECK_EQ(takt_soft_timer_stop(&bad_timer, 0), TAKT_OK);
    }
    CHECK_EQ(takt_soft_timer_delete(&bad_timer, 0), TAKT_OK);
    CHECK_EQ(takt_soft_timer_stop(&bad_timer, 0), TAKT_ERR_ARG); /* delete queued */
    CHECK_EQ(takt_soft_timer_pend_call(pended, "late", 0, 0), TAKT_ERR_TIMEOUT);
    CHECK(takt_soft_timer_name(&bad_timer) != NULL); /* not deleted until executed */
    s_task("I", 1, idle_body, NULL);
    h_start();
    CHECK(takt_soft_timer_name(&bad_timer) == NULL);
    CHECK_STREQ(s_log_buf, "");
    h_end();
}

/* ------------------------------------- a delete that overtakes a command waiting for room */

/*
 * A command checked while its timer was live, then waiting for room while a
 * delete of the timer got into the queue ahead of it (a waiting sender of
 * higher priority gets the room first), must not touch freed memory: it is
 * carried out as nothing, and the timer is released after it -- in the timer
 * task, or in the command's caller when its wait times out after the delete
 * was carried out. A second delete is refused as soon as the first is posted,
 * even while that one still waits for room.
 */
static takt_soft_timer_t filler;
static takt_soft_timer_t *doomed;
static takt_task_t *waiter_a, *deleter_b;
static int rc_a, rc_b, release_count;
static const char *released_in;

static void released(void *arg1, uint32_t arg2)
{
    CHECK(arg1 == &release_count);
    CHECK_EQ(arg2, 9u);
    release_count++;
    released_in = takt_task_name(takt_task_self());
    s_log("released:%s", released_in);
}

/* Fills the command queue (the timer task suspended), whatever it held. */
static void fill_commands(void)
{
    int posted = 0;
    while (posted <= TAKT_CONFIG_SOFT_TIMER_COMMANDS && takt_soft_timer_stop(&filler, 0) == TAKT_OK) {
        posted++;
    }
    CHECK(posted >= TAKT_CONFIG_SOFT_TIMER_COMMANDS - 1 && posted <= TAKT_CONFIG_SOFT_TIMER_COMMANDS);
    CHECK_EQ(takt_soft_timer_stop(&filler, 0), TAKT_ERR_TIMEOUT); /* full */
}

static void waiter_a_body(void *arg)
{
    takt_tick_t timeout = (takt_tick_t)(uintptr_t)arg;
    rc_a = takt_soft_timer_start(doomed, timeout); /* blocks: the queue is full */
    s_log("A:%d", rc_a);
    h_park();
}

static void deleter_b_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK); /* A waits first */
    rc_b = takt_soft_timer_delete_then_call(doomed, TAKT_WAIT_FOREVER, released,
                                            &release_count, 9);
    s_log("B:%d", rc_b);
    h_park();
}

static void overtaking_begin(takt_tick_t tick0, takt_tick_t a_timeout)
{
    s_begin(tick0, 12);
    s_log_reset();
    rc_a = rc_b = 1;
    release_count = 0;
    released_in = NULL;
    takt_soft_timer_params_t p = {.name = "filler", .period = 50, .callback = on_expiry};
    CHECK_EQ(takt_soft_timer_create_static(&p, &filler), TAKT_OK);
    p.name = "doomed";
    CHECK_EQ(takt_soft_timer_create(&p, &doomed), TAKT_OK);
    waiter_a = s_task("A", 2, waiter_a_body, (void *)(uintptr_t)a_timeout);
    deleter_b = s_task("B", 3, deleter_b_body, NULL);
}

static void overtaken_controller(void *arg)
{
    (void)arg;
    takt_task_t *timer_task = takt_soft_timer_task();
    CHECK_EQ(takt_task_suspend(timer_task), TAKT_OK);
    fill_commands();
    CHECK_EQ(takt_delay(2), TAKT_OK); /* 2: A and B wait for room */
    CHECK_EQ(takt_soft_timer_delete(doomed, 0), TAKT_ERR_ARG); /* B's delete is posted */
    CHECK_EQ(takt_soft_timer_stop(doomed, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_resume(timer_task), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    /* B's delete got in ahead of A's start, which ran as nothing after it */
    CHECK_EQ(release_count, 1);
    CHECK_STREQ(released_in, TAKT_CONFIG_TIMER_TASK_NAME);
    CHECK_EQ(takt_soft_timer_delete(&filler, 0), TAKT_OK);
    s_log("end");
    h_park();
}

static void scenario_overtaken(takt_tick_t tick0)
{
    overtaking_begin(tick0, TAKT_WAIT_FOREVER);
    s_task("K", 6, overtaken_controller, NULL);
    h_start();
    CHECK_EQ(rc_a, TAKT_OK);
    CHECK_EQ(rc_b, TAKT_OK);
    CHECK(strstr(s_log_buf, "released:" TAKT_CONFIG_TIMER_TASK_NAME "@2") != NULL);
    CHECK(strstr(s_log_buf, "end@3") != NULL);
    h_end();
}

/* Until tick 3: A and B wait for room (from 0 and 1); then A, suspended, is
 * out of the senders, so the room goes to B's delete, which the timer task
 * carries out while A's start still holds the timer. Returns the timer task. */
static takt_task_t *delete_while_a_is_suspended(void)
{
    takt_task_t *timer_task = takt_soft_timer_task();
    CHECK_EQ(takt_task_suspend(timer_task), TAKT_OK);
    fill_commands();
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_task_suspend(waiter_a), TAKT_OK);
    CHECK_EQ(takt_task_resume(timer_task), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    return timer_task;
}

static void timed_out_controller(void *arg)
{
    (void)arg;
    takt_task_t *timer_task = delete_while_a_is_suspended();
    CHECK_EQ(rc_b, TAKT_OK);
    CHECK_EQ(release_count, 0);
    CHECK(takt_soft_timer_name(doomed) == NULL); /* deleted; its memory still held */
    /* full again, and A's timeout (tick 4) over when it resumes: its post
     * fails, and the timer's last command releases it in A */
    CHECK_EQ(takt_task_suspend(timer_task), TAKT_OK);
    fill_commands();
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_task_resume(waiter_a), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(rc_a, TAKT_ERR_TIMEOUT);
    CHECK_EQ(release_count, 1);
    CHECK_STREQ(released_in, "A");
    CHECK_EQ(takt_task_resume(timer_task), TAKT_OK);
    CHECK_EQ(takt_soft_timer_delete(&filler, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("end");
    h_park();
}

static void scenario_overtaken_then_timed_out(takt_tick_t tick0)
{
    overtaking_begin(tick0, 4);
    s_task("K", 6, timed_out_controller, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "B:0@2 released:A@5 A:-5@5 end@6");
    h_end();
}

/* A static timer whose delete was carried out while a command on it still
 * waits for room is live memory until that command is done. */
static takt_soft_timer_t held;

static void held_controller(void *arg)
{
    (void)arg;
    (void)delete_while_a_is_suspended();
    takt_soft_timer_params_t p = {.name = "again", .period = 5, .callback = on_expiry};
    CHECK_EQ(takt_soft_timer_create_static(&p, &held), TAKT_ERR_STATE); /* A's start holds it */
    CHECK_EQ(takt_task_resume(waiter_a), TAKT_OK); /* the queue has room: A's start goes in */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(rc_a, TAKT_OK);
    CHECK_EQ(release_count, 1);
    CHECK_STREQ(released_in, TAKT_CONFIG_TIMER_TASK_NAME);
    CHECK_EQ(takt_soft_timer_create_static(&p, &held), TAKT_OK);
    CHECK(!takt_soft_timer_active(&held)); /* A's start did not carry over */
    CHECK_EQ(takt_soft_timer_delete(&held, 0), TAKT_OK);
    CHECK_EQ(takt_soft_timer_delete(&filler, 0), TAKT_OK);
    s_log("end");
    h_park();
}

static void scenario_static_held(takt_tick_t tick0)
{
    overtaking_begin(tick0, TAKT_WAIT_FOREVER);
    takt_soft_timer_params_t p = {.name = "held", .period = 5, .callback = on_expiry};
    CHECK_EQ(takt_soft_timer_create_static(&p, &held), TAKT_OK);
    CHECK_EQ(takt_soft_timer_delete(doomed, 0), TAKT_OK); /* A and B work on `held` here */
    doomed = &held;
    s_task("K", 6, held_controller, NULL);
    h_start();
    /* under EDF the timer task runs behind every job: A logs before it releases */
    CHECK_STREQ(s_log_buf, S_EDF ? "B:0@2 A:0@3 released:" TAKT_CONFIG_TIMER_TASK_NAME "@3 end@4"
                                 : "B:0@2 released:" TAKT_CONFIG_TIMER_TASK_NAME "@3 A:0@3 end@4");
    h_end();
}

/* Naming the timer task's server is for hsf only (test_hsf_sync.c covers hsf). */
static void scenario_server_without_hsf(takt_tick_t tick0)
{
    s_begin(tick0, 1);
    if (!S_HSF) {
        CHECK_EQ(takt_soft_timer_set_server(NULL), TAKT_ERR_STATE);
    } else {
        CHECK_EQ(takt_soft_timer_set_server(NULL), TAKT_ERR_ARG);
    }
    s_task("I", 1, idle_body, NULL);
    h_run();
}

int main(void)
{
    h_both(scenario_timers, "timers");
    h_both(scenario_bad, "bad");
    h_both(scenario_overtaken, "overtaken");
    h_both(scenario_overtaken_then_timed_out, "overtaken_then_timed_out");
    h_both(scenario_static_held, "static_held");
    h_both(scenario_server_without_hsf, "server_without_hsf");
    return CHECK_SUMMARY();
}
