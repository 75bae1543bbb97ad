/*
 * Software timers on the sim port: one-shot and auto-reload expiries at the
 * right ticks (also across the wraparound), commands from tasks, before start
 * and from interrupts, reset, change of period, stop, delete, pending calls,
 * queries, a full command queue, and bad input. Callbacks run in the timer
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
    h_both(scenario_server_without_hsf, "server_without_hsf");
    return CHECK_SUMMARY();
}
