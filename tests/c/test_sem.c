/*
 * Semaphores on the sim port: service order (priority, then first come first
 * served), hand-off, timeouts (also across the tick wraparound), gives from an
 * interrupt and the woken indication, the scheduler lock and critical
 * sections, and every bad input (which must change nothing).
 */
#include "sync_common.h"

static takt_sem_t *sem;

/* ---------------------------------------------------------------- order */

static void order_waiter(void *arg)
{
    const char *name = arg;
    int rc = takt_sem_take(sem, TAKT_WAIT_FOREVER);
    s_log("%s%s", name, rc == TAKT_OK ? "" : "!");
    h_park();
}

static void order_giver(void *arg)
{
    (void)arg;
    s_log("give");
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(takt_sem_give(sem), TAKT_OK);
        s_point();
        h_work(1);
    }
    CHECK_EQ(takt_sem_count(sem), 0); /* every unit went to a waiter */
    CHECK_EQ(takt_sem_give(sem), TAKT_OK);
    CHECK_EQ(takt_sem_count(sem), 1);
    h_park();
}

/* Waiters block in the order they run (highest first, equals by creation);
 * the lowest-priority task gives four units: the waiters are served by
 * priority, the two equals first come first served, each at once. */
static void scenario_order(takt_tick_t tick0)
{
    s_begin(tick0, 10);
    s_log_reset();
    CHECK_EQ(takt_sem_create(4, 0, &sem), TAKT_OK);
    s_task("G", 1, order_giver, NULL);
    s_task("W2", 2, order_waiter, "w2");
    s_task("W3a", 3, order_waiter, "w3a");
    s_task("W3b", 3, order_waiter, "w3b");
    s_task("W4", 4, order_waiter, "w4");
    h_start();
    CHECK_STREQ(s_log_buf, "give@0 w4@0 w3a@1 w3b@2 w2@3");
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- timeouts */

static void timeout_waiter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sem_take(sem, 0), TAKT_ERR_TIMEOUT);
    s_log("t0");
    CHECK_EQ(takt_sem_take(sem, 5), TAKT_ERR_TIMEOUT);
    s_log("t5");
    CHECK_EQ(takt_sem_take(sem, 1), TAKT_ERR_TIMEOUT);
    s_log("t1");
    CHECK_EQ(takt_sem_take(sem, 20), TAKT_OK); /* given at 9 */
    s_log("got");
    h_park();
}

static void timeout_giver(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(9), TAKT_OK);
    CHECK_EQ(takt_sem_give(sem), TAKT_OK);
    s_log("gave");
    h_park();
}

static void scenario_timeouts(takt_tick_t tick0)
{
    s_begin(tick0, 12);
    s_log_reset();
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    s_task("W", 3, timeout_waiter, NULL);
    s_task("G", 2, timeout_giver, NULL);
    h_start();
    /* the giver is lower: the waiter runs first after the give... unless the
     * mode defers the switch, but the giver parks right away in both cases */
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "t0@0 t5@5 t1@6 gave@9 got@9" : "t0@0 t5@5 t1@6 got@9 gave@9");
    CHECK_EQ(h_count(TAKT_EV_WAIT_TIMEOUT, 1), 2);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    h_end();
}

/* A unit given after the timeout ended a wait, but before the waiter ran
 * again, is not the waiter's: the take reports the timeout and the unit
 * stays counted for the next take (docs/freertos.md "Timeouts"; FreeRTOS's
 * take would find it and succeed). Nothing is lost either way. */
static void late_waiter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sem_take(sem, 5), TAKT_ERR_TIMEOUT); /* timed out at 5 */
    s_log("t5");
    CHECK_EQ(takt_sem_count(sem), 1);
    CHECK_EQ(takt_sem_take(sem, 0), TAKT_OK);
    s_log("got");
    h_park();
}

static void late_giver(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(5), TAKT_OK); /* ready at 5, with the waiter's timeout */
    CHECK_EQ(takt_sem_give(sem), TAKT_OK); /* the waiter left the queue */
    s_log("gave");
    h_park();
}

static void scenario_given_after_timeout(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    s_task("W", 2, late_waiter, NULL);
    s_task("G", 3, late_giver, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "gave@5 t5@5 got@5");
    CHECK_EQ(takt_sem_count(sem), 0);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- interrupts */

static bool isr_woken[4];
static int isr_rc[4];

static bool isr_context_seen;

static void give_isr(void *arg)
{
    int i = (int)(intptr_t)arg;
    isr_woken[i] = false;
    uint32_t state = takt_critical_enter_from_isr();
    isr_context_seen = takt_in_isr();
    takt_critical_exit_from_isr(state);
    isr_rc[i] = takt_sem_give_from_isr(sem, &isr_woken[i]);
}

static void isr_waiter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sem_take(sem, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("hi");
    CHECK_EQ(takt_sem_take(sem, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("hi");
    h_park();
}

static void isr_low_waiter(void *arg)
{
    (void)arg;
    h_work(3); /* running when the second interrupt comes at 2 */
    CHECK_EQ(takt_sem_take(sem, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("lo");
    h_park();
}

static void isr_spinner(void *arg)
{
    (void)arg;
    for (;;) {
        s_point();
        h_work(1);
    }
}

static void scenario_isr(takt_tick_t tick0)
{
    s_begin(tick0, 12);
    s_log_reset();
    CHECK_EQ(takt_sem_create(2, 0, &sem), TAKT_OK);
    s_task("H", 5, isr_waiter, NULL);
    s_task("L", 2, isr_low_waiter, NULL);
    s_task("S", 1, isr_spinner, NULL);
    /* 1: H waits, L runs: the give wakes H (higher than L) -> woken.
     * 4: H waits again and so does L (H first); the give serves H -> woken.
     * 6: nobody waits but L; S runs; the give serves L (above S) -> woken.
     * 8: nobody waits, S runs: count 1, not woken. */
    hp_inject_irq(T(1) + 10, 1, give_isr, (void *)0);
    hp_inject_irq(T(4) + 10, 1, give_isr, (void *)1);
    hp_inject_irq(T(6) + 10, 1, give_isr, (void *)2);
    hp_inject_irq(T(8) + 10, 1, give_isr, (void *)3);
    h_start();
    /* deferred: H waits for L's block at 3; L's switch waits for S's point at 7 */
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "hi@3 hi@5 lo@7" : "hi@1 hi@4 lo@6");
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(isr_rc[i], TAKT_OK);
    }
    CHECK(isr_woken[0] && isr_woken[1] && isr_woken[2]);
    CHECK(!isr_woken[3]);
    CHECK(isr_context_seen);
    CHECK(!takt_in_isr());
    CHECK_EQ(takt_sem_count(sem), 1);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    h_end();
}

/* The flag variant (FreeRTOS's xSemaphoreGiveFromISR): the long is set to 1
 * when the served waiter preempts and left as it was otherwise; a full
 * count and a bad handle change nothing. */
static long flag_value[4];
static int flag_rc[4];

static void flag_isr(void *arg)
{
    int i = (int)(intptr_t)arg;
    if (i == 2) {
        flag_rc[i] = takt_sem_give_from_isr_flag(sem, NULL); /* full: STATE */
    } else if (i == 3) {
        flag_rc[i] = takt_sem_give_from_isr_flag(NULL, &flag_value[i]);
    } else {
        flag_rc[i] = takt_sem_give_from_isr_flag(sem, &flag_value[i]);
    }
}

static void flag_waiter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sem_take(sem, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("served");
    h_park();
}

static void scenario_isr_flag(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    CHECK_EQ(takt_sem_give_from_isr_flag(NULL, NULL), TAKT_ERR_ARG); /* the task's checks */
    flag_value[0] = 0;
    flag_value[1] = 7; /* not woken: stays 7 */
    flag_value[3] = 5;
    s_task("W", 5, flag_waiter, NULL);
    s_task("S", 1, isr_spinner, NULL);
    /* 1: W waits, S runs: the give serves W, which preempts -> 1.
     * 3: nobody waits: count 1. 5: full. 6: bad handle. */
    hp_inject_irq(T(1) + 10, 1, flag_isr, (void *)0);
    hp_inject_irq(T(3) + 10, 1, flag_isr, (void *)1);
    hp_inject_irq(T(5) + 10, 1, flag_isr, (void *)2);
    hp_inject_irq(T(6) + 10, 1, flag_isr, (void *)3);
    h_start();
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "served@2" : "served@1");
    CHECK_EQ(flag_rc[0], TAKT_OK);
    CHECK_EQ(flag_value[0], 1);
    CHECK_EQ(flag_rc[1], TAKT_OK);
    CHECK_EQ(flag_value[1], 7);
    CHECK_EQ(flag_rc[2], TAKT_ERR_STATE);
    CHECK_EQ(flag_rc[3], TAKT_ERR_ARG);
    CHECK_EQ(flag_value[3], 5);
    CHECK_EQ(takt_sem_count(sem), 1);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- bad input */

static takt_sem_t static_sem;
static int bad_isr_rc[4];

static void bad_isr(void *arg)
{
    (void)arg;
    bad_isr_rc[0] = takt_sem_take(sem, 0);  /* task call from an interrupt */
    bad_isr_rc[1] = takt_sem_give(sem);
    bad_isr_rc[2] = takt_sem_delete(sem);
    takt_sem_t *out = NULL;
    bad_isr_rc[3] = takt_sem_create(1, 0, &out);
}

static void bad_blocked(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sem_take(sem, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("served");
    h_park();
}

static void bad_body(void *arg)
{
    (void)arg;
    takt_sem_t *out = NULL;
    CHECK_EQ(takt_sem_create(0, 0, &out), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_create(2, 3, &out), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_create(0x80000000u, 0, &out), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_create(1, 0, NULL), TAKT_ERR_ARG);
    CHECK(out == NULL);
    CHECK_EQ(takt_sem_take(NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_give(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_count(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_delete(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_take_from_isr(NULL, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_give_from_isr(NULL, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_take(sem, 0x80000000u), TAKT_ERR_ARG); /* beyond the half range */
    /* a give at the maximum changes nothing */
    CHECK_EQ(takt_sem_give(sem), TAKT_OK);
    CHECK_EQ(takt_sem_give(sem), TAKT_ERR_STATE);
    CHECK_EQ(takt_sem_count(sem), 1);
    CHECK_EQ(takt_sem_take(sem, 0), TAKT_OK);
    /* deleted static handle */
    CHECK_EQ(takt_sem_create_static(&static_sem, 1, 1), TAKT_OK);
    CHECK_EQ(takt_sem_create_static(&static_sem, 1, 1), TAKT_ERR_STATE); /* live */
    CHECK_EQ(takt_sem_delete(&static_sem), TAKT_OK);
    CHECK_EQ(takt_sem_take(&static_sem, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_give(&static_sem), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_delete(&static_sem), TAKT_ERR_ARG);
    /* blocking where no switch may happen: refused, but a take that can
     * complete at once succeeds */
    CHECK_EQ(takt_sched_lock(), TAKT_OK);
    CHECK_EQ(takt_sem_take(sem, 5), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_delay(1), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_sem_give(sem), TAKT_OK);
    CHECK_EQ(takt_sem_take(sem, 5), TAKT_OK);
    CHECK_EQ(takt_sched_unlock(), 0);
    CHECK_EQ(takt_sched_unlock(), TAKT_ERR_STATE);
    takt_critical_enter();
    CHECK_EQ(takt_sem_take(sem, 5), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_sem_take(sem, 0), TAKT_ERR_TIMEOUT);
    takt_critical_exit();
    /* deleting a semaphore with a waiter is refused; the waiter stays */
    CHECK_EQ(takt_delay(1), TAKT_OK); /* B blocks on it */
    CHECK_EQ(takt_sem_delete(sem), TAKT_ERR_STATE);
    CHECK_EQ(takt_sem_give(sem), TAKT_OK);
    s_point();
    h_work(1);
    s_log("done");
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    sem = NULL;
    h_park();
}

static void scenario_bad(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    s_task("A", 3, bad_body, NULL);
    s_task("B", 2, bad_blocked, NULL);
    hp_inject_irq(T(5), 1, bad_isr, NULL);
    h_start();
    /* B is lower: A goes on after the give */
    CHECK_STREQ(s_log_buf, "done@2 served@2");
    CHECK_EQ(bad_isr_rc[0], TAKT_ERR_CONTEXT);
    CHECK_EQ(bad_isr_rc[1], TAKT_ERR_CONTEXT);
    CHECK_EQ(bad_isr_rc[2], TAKT_ERR_CONTEXT);
    CHECK_EQ(bad_isr_rc[3], TAKT_ERR_CONTEXT);
    h_end();
}

/* ---------------------------------------------------------------- sched lock */

static int lock_unlock_rc;

static void lock_high(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(2), TAKT_OK);
    s_log("high");
    h_park();
}

static void lock_low(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sched_lock(), TAKT_OK);
    CHECK_EQ(takt_sched_lock(), TAKT_OK);
    CHECK_EQ(takt_sched_lock_depth(), 2);
    h_work(3); /* H ready at 2, held back */
    CHECK_EQ(takt_sched_unlock(), 0); /* still locked */
    h_work(2);
    s_log("unlock");
    lock_unlock_rc = takt_sched_unlock(); /* H runs inside */
    s_log("low");
    h_park();
}

static void scenario_sched_lock(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    s_task("H", 3, lock_high, NULL);
    s_task("L", 2, lock_low, NULL);
    h_start();
    if (S_DEFERRED) {
        /* L is non-preemptive anyway: H waits for L to park */
        CHECK_STREQ(s_log_buf, "unlock@5 low@5 high@5");
        CHECK_EQ(lock_unlock_rc, 0);
    } else {
        CHECK_STREQ(s_log_buf, "unlock@5 high@5 low@5");
        CHECK_EQ(lock_unlock_rc, 1);
    }
    CHECK_EQ(takt_sched_lock_depth(), 0);
    h_end();
}

/* Nested takt_critical_enter: only the outermost exit unmasks, so the switch
 * to the waiter a give inside woke waits for it (the kernel keeps the
 * outermost key; the sim checks every section's key pairs up). */
static void critical_high(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sem_take(sem, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("high");
    h_park();
}

static void critical_low(void *arg)
{
    (void)arg;
    takt_critical_enter();
    takt_critical_enter();
    CHECK_EQ(takt_sem_give(sem), TAKT_OK); /* H ready, held back */
    takt_critical_exit();
    CHECK_EQ(takt_delay(1), TAKT_ERR_CONTEXT); /* still inside the outer section */
    s_log("inner");
    takt_critical_exit(); /* H runs here */
    s_log("low");
    h_park();
}

static void scenario_critical_nested(takt_tick_t tick0)
{
    s_begin(tick0, 4);
    s_log_reset();
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    s_task("H", 3, critical_high, NULL);
    s_task("L", 2, critical_low, NULL);
    h_start();
    if (S_DEFERRED) {
        CHECK_STREQ(s_log_buf, "inner@0 low@0 high@0"); /* L is non-preemptive anyway */
    } else {
        CHECK_STREQ(s_log_buf, "inner@0 high@0 low@0");
    }
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    h_end();
}

/* A yield under the lock waits for the unlock (FreeRTOS: taskYIELD with the
 * scheduler suspended switches at xTaskResumeAll). */
static int yield_unlock_rc;

static void yield_locked_equal(void *arg)
{
    (void)arg;
    s_log("equal");
    h_park();
}

static void yield_locked_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sched_lock(), TAKT_OK);
    takt_yield(); /* the equal task is ready, but no switch while locked */
    s_log("yielded");
    yield_unlock_rc = takt_sched_unlock(); /* the yield takes effect here */
    s_log("back");
    h_park();
}

static void scenario_yield_locked(takt_tick_t tick0)
{
    s_begin(tick0, 4);
    s_log_reset();
    s_task("Y", 2, yield_locked_body, NULL);
    s_task("E", 2, yield_locked_equal, NULL);
    h_start();
    /* Under every policy: a yield goes behind every equal (policy.h YIELD),
     * under EDF also E, whose job was released at the yield's own instant
     * with a larger id (test_sched "yield_same_instant"). */
    CHECK_STREQ(s_log_buf, "yielded@0 equal@0 back@0");
    CHECK_EQ(yield_unlock_rc, 1);
    CHECK_EQ(takt_sched_lock_depth(), 0);
    h_end();
}

/* ---------------------------------------------------------------- waiter suspended, deleted */

static takt_task_t *sw_first, *sw_second;

static void sw_waiter(void *arg)
{
    const char *name = arg;
    int rc = takt_sem_take(sem, TAKT_WAIT_FOREVER);
    s_log("%s=%d", name, rc);
    h_park();
}

static void sw_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK); /* all three wait: first, second, third */
    CHECK_EQ(takt_task_suspend(sw_first), TAKT_OK);  /* leaves the wait */
    CHECK_EQ(takt_task_delete(sw_second), TAKT_OK);  /* leaves the wait, freed */
    CHECK_EQ(takt_sem_give(sem), TAKT_OK);           /* goes to the third */
    s_point();
    CHECK_EQ(takt_sem_count(sem), 0);
    CHECK_EQ(takt_task_resume(sw_first), TAKT_OK);   /* waits again: nothing to take */
    CHECK_EQ(takt_task_state(sw_first), TAKT_TASK_BLOCKED);
    CHECK_EQ(takt_sem_give(sem), TAKT_OK);           /* goes to w1 */
    s_point();
    CHECK_EQ(takt_sem_count(sem), 0);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);         /* nobody waits any more */
    sem = NULL;
    s_log("end");
    h_park();
}

static void scenario_waiter_removed(takt_tick_t tick0)
{
    s_begin(tick0, 4);
    s_log_reset();
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    s_task("C", 5, sw_controller, NULL);
    sw_first = s_task("W1", 3, sw_waiter, "w1");
    sw_second = s_task("W2", 3, sw_waiter, "w2");
    s_task("W3", 2, sw_waiter, "w3");
    h_start();
    CHECK_STREQ(s_log_buf, "end@1 w1=0@1 w3=0@1"); /* w1 (higher) runs first */
    h_end();
}

int main(void)
{
    h_both(scenario_order, "order");
    h_both(scenario_timeouts, "timeouts");
    h_both(scenario_given_after_timeout, "given_after_timeout");
    h_both(scenario_isr, "isr");
    h_both(scenario_isr_flag, "isr_flag");
    h_both(scenario_bad, "bad");
    h_both(scenario_sched_lock, "sched_lock");
    h_both(scenario_critical_nested, "critical_nested");
    h_both(scenario_yield_locked, "yield_locked");
    h_both(scenario_waiter_removed, "waiter_removed");
    return CHECK_SUMMARY();
}
