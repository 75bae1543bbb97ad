/*
 * Event groups and direct-to-task notifications on the sim port: wait for any
 * or all bits, clear on exit, every satisfied waiter served by one set (with
 * the same bits), rendezvous, timeouts, setting from an interrupt (woken), the
 * notification actions, indexed slots, take as a counting semaphore, and bad
 * input.
 */
#include "sync_common.h"

static takt_event_group_t *eg;

/* ---------------------------------------------------------------- event groups */

static void any_waiter(void *arg)
{
    (void)arg;
    takt_event_bits_t seen = 0;
    CHECK_EQ(takt_event_group_wait(eg, 0x3, 0, &seen, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("any=%x", (unsigned)seen);
    h_park();
}

static void all_waiter(void *arg)
{
    (void)arg;
    takt_event_bits_t seen = 0;
    CHECK_EQ(takt_event_group_wait(eg, 0x5, TAKT_EVENT_WAIT_ALL | TAKT_EVENT_CLEAR_ON_EXIT, &seen,
                                   TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("all=%x", (unsigned)seen);
    CHECK_EQ(takt_event_group_wait(eg, 0x80, 0, &seen, 2), TAKT_ERR_TIMEOUT);
    s_log("to=%x", (unsigned)seen);
    h_park();
}

static void setter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    takt_event_bits_t after = 0;
    CHECK_EQ(takt_event_group_set(eg, 0x4, &after), TAKT_OK); /* nobody satisfied */
    CHECK_EQ(after, 0x4);
    s_point();
    CHECK_EQ(takt_event_group_set(eg, 0x1, &after), TAKT_OK); /* both: 0x5 seen, 0x5 cleared */
    s_point();
    s_log("after=%x", (unsigned)after);
    h_park();
}

static bool eg_woken;

static void eg_isr(void *arg)
{
    (void)arg;
    eg_woken = false;
    CHECK_EQ(takt_event_group_set_from_isr(eg, 0x100, &eg_woken), TAKT_OK);
}

static void isr_waiter(void *arg)
{
    (void)arg;
    takt_event_bits_t seen = 0;
    CHECK_EQ(takt_event_group_wait(eg, 0x100, TAKT_EVENT_CLEAR_ON_EXIT, &seen, 20), TAKT_OK);
    s_log("isr=%x", (unsigned)seen);
    h_park();
}

static void scenario_groups(takt_tick_t tick0)
{
    s_begin(tick0, 12);
    s_log_reset();
    CHECK_EQ(takt_event_group_create(&eg), TAKT_OK);
    s_task("ANY", 4, any_waiter, NULL);
    s_task("ALL", 3, all_waiter, NULL);
    s_task("I", 5, isr_waiter, NULL);
    s_task("S", 2, setter, NULL);
    hp_inject_irq(T(6), 1, eg_isr, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "any=5@1 all=5@1 after=0@1 to=0@3 isr=100@6");
    CHECK(eg_woken);
    takt_event_bits_t bits = 1;
    CHECK_EQ(takt_event_group_get(eg, &bits), TAKT_OK);
    CHECK_EQ(bits, 0);
    CHECK_EQ(takt_event_group_delete(eg), TAKT_OK);
    h_end();
}

static void sync_task(void *arg)
{
    takt_event_bits_t mine = (takt_event_bits_t)(uintptr_t)arg;
    CHECK_EQ(takt_delay(mine), TAKT_OK); /* arrive at 1, 2, 4 */
    takt_event_bits_t seen = 0;
    CHECK_EQ(takt_event_group_sync(eg, mine, 0x7, &seen, 10), TAKT_OK);
    s_log("sync%u=%x", (unsigned)mine, (unsigned)seen);
    h_park();
}

static void scenario_rendezvous(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_event_group_create(&eg), TAKT_OK);
    s_task("A", 2, sync_task, (void *)1);
    s_task("B", 3, sync_task, (void *)2);
    s_task("C", 4, sync_task, (void *)4);
    h_start();
    /* the last to arrive (C) passes at once; A and B are served by its set */
    CHECK_STREQ(s_log_buf, "sync4=7@4 sync2=7@4 sync1=7@4");
    takt_event_bits_t bits = 1;
    CHECK_EQ(takt_event_group_get(eg, &bits), TAKT_OK);
    CHECK_EQ(bits, 0);
    CHECK_EQ(takt_event_group_delete(eg), TAKT_OK);
    h_end();
}

/* A wait whose timeout ends it at the tick where a higher-priority task is
 * woken and sets its bit: the bit is set before the waiter runs again, and
 * the waiter takes it (clear on exit) rather than reporting it with a
 * timeout and leaving it set for the next wait to report again. */
static void late_waiter(void *arg)
{
    (void)arg;
    takt_event_bits_t seen = 0;
    CHECK_EQ(takt_event_group_wait(eg, 0x8, TAKT_EVENT_CLEAR_ON_EXIT, &seen, 2), TAKT_OK);
    s_log("late=%x", (unsigned)seen);
    CHECK_EQ(takt_event_group_wait(eg, 0x8, TAKT_EVENT_CLEAR_ON_EXIT, &seen, 0), TAKT_ERR_TIMEOUT);
    s_log("again=%x", (unsigned)seen);
    h_park();
}

static void late_setter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_event_group_set(eg, 0x8, NULL), TAKT_OK); /* nobody waits any more */
    s_log("set");
    h_park();
}

static void scenario_set_after_timeout(takt_tick_t tick0)
{
    s_begin(tick0, 4);
    s_log_reset();
    CHECK_EQ(takt_event_group_create(&eg), TAKT_OK);
    s_task("W", 2, late_waiter, NULL);
    s_task("S", 3, late_setter, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "set@2 late=8@2 again=0@2");
    takt_event_bits_t bits = 1;
    CHECK_EQ(takt_event_group_get(eg, &bits), TAKT_OK);
    CHECK_EQ(bits, 0);
    CHECK_EQ(takt_event_group_delete(eg), TAKT_OK);
    h_end();
}

static takt_event_group_t static_eg;

static void eg_bad_body(void *arg)
{
    (void)arg;
    takt_event_bits_t bits;
    CHECK_EQ(takt_event_group_create(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_wait(NULL, 1, 0, NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_wait(eg, 0, 0, NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_wait(eg, 1, 0x80, NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_sync(eg, 1, 0, NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_set(NULL, 1, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_get(eg, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_set_from_isr(NULL, 1, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_get(eg, &bits), TAKT_OK);
    CHECK_EQ(bits, 0); /* nothing was set by the refused calls */
    CHECK_EQ(takt_event_group_wait(eg, 1, 0, &bits, 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(takt_event_group_create_static(&static_eg), TAKT_OK);
    CHECK_EQ(takt_event_group_create_static(&static_eg), TAKT_ERR_STATE);
    CHECK_EQ(takt_event_group_delete(&static_eg), TAKT_OK);
    CHECK_EQ(takt_event_group_set(&static_eg, 1, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_delay(1), TAKT_OK); /* W waits on eg */
    CHECK_EQ(takt_event_group_delete(eg), TAKT_ERR_STATE);
    CHECK_EQ(takt_event_group_clear(eg, 0xFF, &bits), TAKT_OK);
    CHECK_EQ(takt_event_group_set(eg, 2, NULL), TAKT_OK);
    s_log("done");
    h_park();
}

static void eg_bad_waiter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_event_group_wait(eg, 2, 0, NULL, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("w");
    h_park();
}

static void scenario_groups_bad(takt_tick_t tick0)
{
    s_begin(tick0, 4);
    s_log_reset();
    CHECK_EQ(takt_event_group_create(&eg), TAKT_OK);
    s_task("A", 3, eg_bad_body, NULL);
    s_task("W", 2, eg_bad_waiter, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "done@1 w@1");
    CHECK_EQ(takt_event_group_delete(eg), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- notifications */

#if TAKT_CONFIG_TASK_NOTIFICATIONS >= 3 /* slots 0 to 2 */
static takt_task_t *rx;

static void notify_rx(void *arg)
{
    (void)arg;
    uint32_t v = 0;
    /* 1: bits */
    CHECK_EQ(takt_notify_wait(0, 0, 0xFFFFFFFFu, &v, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("bits=%x", (unsigned)v);
    /* 2: counting: three increments, taken one at a time then cleared */
    CHECK_EQ(takt_notify_take(1, false, &v, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("take=%u", (unsigned)v);
    CHECK_EQ(takt_notify_take(1, true, &v, 0), TAKT_OK);
    s_log("take=%u", (unsigned)v);
    CHECK_EQ(takt_notify_take(1, false, &v, 0), TAKT_ERR_TIMEOUT);
    /* 3: timeout, then a notification from an interrupt in slot 2 */
    CHECK_EQ(takt_notify_wait(2, 0, 0, &v, 2), TAKT_ERR_TIMEOUT);
    s_log("timeout");
    CHECK_EQ(takt_notify_wait(2, 0, 0, &v, 10), TAKT_OK);
    s_log("isr=%u", (unsigned)v);
    /* 4: two gives from one interrupt, taken at once */
    CHECK_EQ(takt_notify_take(1, true, &v, 10), TAKT_OK);
    s_log("given=%u", (unsigned)v);
    h_park();
}

static bool n_woken;
static bool give_woken[2];
static int give_bad[3];

static void notify_give_isr(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2; i++) {
        give_woken[i] = false;
        CHECK_EQ(takt_notify_give_from_isr(rx, 1, &give_woken[i]), TAKT_OK);
    }
    give_bad[0] = takt_notify_give_from_isr(NULL, 1, NULL);
    give_bad[1] = takt_notify_give_from_isr(rx, TAKT_CONFIG_TASK_NOTIFICATIONS, NULL);
    give_bad[2] = takt_notify_give_from_isr(rx, 1, NULL); /* woken may be NULL */
}

static void notify_isr(void *arg)
{
    (void)arg;
    n_woken = false;
    CHECK_EQ(takt_notify_from_isr(rx, 2, 42, TAKT_NOTIFY_OVERWRITE, NULL, &n_woken), TAKT_OK);
}

static void notify_tx(void *arg)
{
    (void)arg;
    uint32_t prev = 0;
    CHECK_EQ(takt_notify(rx, 0, 0x1, TAKT_NOTIFY_SET_BITS, NULL), TAKT_OK);
    CHECK_EQ(takt_notify(rx, 0, 0x4, TAKT_NOTIFY_SET_BITS, &prev), TAKT_OK);
    CHECK_EQ(prev, 0x1);
    s_point();
    CHECK_EQ(takt_delay(1), TAKT_OK);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(takt_notify(rx, 1, 0, TAKT_NOTIFY_INCREMENT, NULL), TAKT_OK);
    }
    s_point();
    /* no-overwrite refuses while one is pending */
    CHECK_EQ(takt_notify(takt_task_self(), 0, 7, TAKT_NOTIFY_NO_OVERWRITE, NULL), TAKT_OK);
    CHECK_EQ(takt_notify(takt_task_self(), 0, 8, TAKT_NOTIFY_NO_OVERWRITE, &prev), TAKT_ERR_STATE);
    CHECK_EQ(takt_notify_clear_state(NULL, 0), 1);
    CHECK_EQ(takt_notify_clear_state(NULL, 0), 0);
    CHECK_EQ(takt_notify_clear_bits(NULL, 0, 0x3, &prev), TAKT_OK);
    CHECK_EQ(prev, 7);
    uint32_t v = 0;
    CHECK_EQ(takt_notify_wait(0, 0, 0, &v, 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(v, 4);
    /* bad input */
    CHECK_EQ(takt_notify(NULL, 0, 1, TAKT_NOTIFY_SET_BITS, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify(rx, TAKT_CONFIG_TASK_NOTIFICATIONS, 1, TAKT_NOTIFY_SET_BITS, NULL),
             TAKT_ERR_ARG);
    CHECK_EQ(takt_notify(rx, 0, 1, (takt_notify_action_t)9, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify_wait(TAKT_CONFIG_TASK_NOTIFICATIONS, 0, 0, NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify_from_isr(rx, 0, 1, (takt_notify_action_t)9, NULL, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify_give_from_isr(NULL, 0, NULL), TAKT_ERR_ARG);
    h_park();
}

static void scenario_notify(takt_tick_t tick0)
{
    s_begin(tick0, 12);
    s_log_reset();
    /* TX is higher: its notifications pile up before RX looks */
    rx = s_task("RX", 2, notify_rx, NULL);
    s_task("TX", 3, notify_tx, NULL);
    hp_inject_irq(T(5), 1, notify_isr, NULL);
    hp_inject_irq(T(7), 1, notify_give_isr, NULL);
    h_start();
    /* The third give (woken NULL) came in the same interrupt, before RX ran. */
    CHECK_STREQ(s_log_buf, "bits=5@0 take=3@1 take=2@1 timeout@3 isr=42@5 given=3@7");
    CHECK(n_woken);
    CHECK(give_woken[0]);  /* RX waited and preempts the idle task */
    CHECK(!give_woken[1]); /* already ready */
    CHECK_EQ(give_bad[0], TAKT_ERR_ARG);
    CHECK_EQ(give_bad[1], TAKT_ERR_ARG);
    CHECK_EQ(give_bad[2], TAKT_OK);
    h_end();
}
#endif

/* ---- a give from an interrupt, and what the woken take then finds ---- */

static takt_task_t *take_rx;
static long give_flags[6];
static int give_flag_bad[3];

/* Slot 0 only, so that the case also runs with one slot (CMakeLists.txt). */
static void take_rx_main(void *arg)
{
    (void)arg;
    uint32_t v = 0;
    /* 1: a timed wait (up to 3), ended by the first of three gives (one
     * interrupt, at 2); the take finds all three and leaves two */
    CHECK_EQ(takt_notify_take(0, false, &v, 3), TAKT_OK);
    s_log("take=%u", (unsigned)v);
    CHECK_EQ(takt_notify_take(0, true, &v, 0), TAKT_OK);
    s_log("left=%u", (unsigned)v);
    CHECK_EQ(takt_notify_take(0, false, &v, 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(v, 0u);
    /* 2: waits from 2 (the wait above no longer times out at 3), woken
     * while a higher task runs; a second give before it runs is taken too */
    CHECK_EQ(takt_notify_take(0, true, &v, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("take=%u", (unsigned)v);
    /* 3: the timeout ends the wait; a give before the task runs is still
     * taken */
    CHECK_EQ(takt_notify_take(0, true, &v, 2), TAKT_OK);
    s_log("late=%u", (unsigned)v);
    /* The interrupt's give from a task is the task's give (takt/sync.h):
     * here to itself, so nothing preempts and the flag stays as it was. */
    long flag = 0;
    CHECK_EQ(takt_notify_give_from_isr_flag(take_rx, 0, &flag), TAKT_OK);
    CHECK_EQ(flag, 0);
    CHECK_EQ(takt_notify_take(0, true, &v, 0), TAKT_OK);
    CHECK_EQ(v, 1u);
    h_park();
}

static void take_hi_main(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(4), TAKT_OK);
    h_work(3); /* 4..7: the give at 5 wakes RX, which waits to run; another at 6 */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    h_work(3); /* 8..11: RX's timeout at 9, a give at 10 */
    h_park();
}

static void give_flag_isr(void *arg)
{
    unsigned first = (unsigned)(uintptr_t)arg;
    give_flags[first] = 0;
    CHECK_EQ(takt_notify_give_from_isr_flag(take_rx, 0, &give_flags[first]), TAKT_OK);
    if (first == 0) {
        give_flags[1] = 0;
        CHECK_EQ(takt_notify_give_from_isr_flag(take_rx, 0, &give_flags[1]), TAKT_OK);
        give_flag_bad[0] = takt_notify_give_from_isr_flag(NULL, 0, NULL);
        give_flag_bad[1] = takt_notify_give_from_isr_flag(take_rx, TAKT_CONFIG_TASK_NOTIFICATIONS, NULL);
        give_flag_bad[2] = takt_notify_give_from_isr_flag(take_rx, 0, NULL); /* woken may be NULL */
    }
}

static void scenario_notify_isr_take(takt_tick_t tick0)
{
    s_begin(tick0, 14);
    s_log_reset();
    take_rx = s_task("RX", 3, take_rx_main, NULL);
    s_task("HI", 4, take_hi_main, NULL);
    hp_inject_irq(T(2), 1, give_flag_isr, (void *)(uintptr_t)0);
    hp_inject_irq(T(5), 1, give_flag_isr, (void *)(uintptr_t)2);
    hp_inject_irq(T(6), 1, give_flag_isr, (void *)(uintptr_t)3);
    hp_inject_irq(T(10), 1, give_flag_isr, (void *)(uintptr_t)4);
    h_start();
    /* at 2 three gives (the third woken NULL): 3, one taken and two left */
    CHECK_STREQ(s_log_buf, "take=3@2 left=2@2 take=2@7 late=1@11");
    CHECK_EQ(give_flags[0], 1);  /* RX waited and preempts the idle task */
    CHECK_EQ(give_flags[1], 0);  /* already ready */
    CHECK_EQ(give_flags[2], 0);  /* RX waited, but HI runs */
    CHECK_EQ(give_flags[3], 0);  /* RX ready, not running yet */
    CHECK_EQ(give_flags[4], 0);  /* RX's wait timed out; it waits to run */
    CHECK_EQ(give_flag_bad[0], TAKT_ERR_ARG);
    CHECK_EQ(give_flag_bad[1], TAKT_ERR_ARG);
    CHECK_EQ(give_flag_bad[2], TAKT_OK);
    h_end();
}

int main(void)
{
    h_both(scenario_groups, "groups");
    h_both(scenario_rendezvous, "rendezvous");
    h_both(scenario_groups_bad, "groups_bad");
    h_both(scenario_set_after_timeout, "set_after_timeout");
#if TAKT_CONFIG_TASK_NOTIFICATIONS >= 3
    h_both(scenario_notify, "notify");
#endif
    h_both(scenario_notify_isr_take, "notify_isr_take");
    return CHECK_SUMMARY();
}
