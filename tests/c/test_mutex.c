/*
 * Mutexes on the sim port: the classic priority inversion measured in virtual
 * time (bounded with inheritance, unbounded without), nested mutexes with a
 * waiter timing out (the holder drops to exactly the level the remaining
 * waiters justify), deadline inheritance under EDF, recursion, ownership
 * errors, a holder deleted, a lowered task going behind its new equals (also
 * one that becomes ready between the unlock and the switch the unlock asks
 * for, inside a critical section or with the scheduler locked), a hand-off to
 * a waiter behind an equal that came first and to a waiter with a timeout, a
 * hand-off that leaves waiters behind while the old holder keeps another mutex,
 * and a deadlock cycle (the inheritance walk stops; a timeout breaks it).
 */
#include "sync_common.h"

static takt_mutex_t *mtx;
static takt_sem_t *bsem;
static bool use_mutex;
static uint64_t h_blocked_ns;

static void lock(void)
{
    if (use_mutex) {
        CHECK_EQ(takt_mutex_lock(mtx, TAKT_WAIT_FOREVER), TAKT_OK);
    } else {
        CHECK_EQ(takt_sem_take(bsem, TAKT_WAIT_FOREVER), TAKT_OK);
    }
}

static void unlock(void)
{
    if (use_mutex) {
        CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    } else {
        CHECK_EQ(takt_sem_give(bsem), TAKT_OK);
    }
}

/* Work in one-tick steps, each followed by a preemption point, so deferred
 * preemption switches at tick granularity like full preemption. */
static void work_points(unsigned ticks)
{
    for (unsigned i = 0; i < ticks; i++) {
        h_work(1);
        s_point();
        hp_work_ns(0); /* full preemption: take a switch the tick asked for now */
    }
}

/* ---------------------------------------------------------------- inversion */

#define CS_TICKS 4u
#define M_TICKS 10u

static void inv_low(void *arg)
{
    (void)arg;
    lock();
    work_points(CS_TICKS);
    unlock();
    s_point();
    h_park();
}

static void inv_medium(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(2), TAKT_OK);
    work_points(M_TICKS);
    h_park();
}

static void inv_high(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    uint64_t asked = hp_now_ns();
    lock();
    h_blocked_ns = hp_now_ns() - asked;
    unlock();
    h_park();
}

static uint64_t run_inversion(takt_tick_t tick0, bool with_mutex)
{
    s_begin(tick0, 30);
    use_mutex = with_mutex;
    h_blocked_ns = 0;
    CHECK_EQ(takt_mutex_create(0, &mtx), TAKT_OK);
    CHECK_EQ(takt_sem_create(1, 1, &bsem), TAKT_OK);
    s_task("L", 1, inv_low, NULL);
    s_task("M", 2, inv_medium, NULL);
    s_task("H", 3, inv_high, NULL);
    h_start();
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_OK);
    CHECK_EQ(takt_sem_delete(bsem), TAKT_OK);
    h_end();
    return h_blocked_ns;
}

static void scenario_inversion(takt_tick_t tick0)
{
    /* L holds the resource 0..4; H asks at 1; M (in between) runs 10 ticks from 2. */
    uint64_t with_inheritance = run_inversion(tick0, true);
    CHECK(with_inheritance <= T(CS_TICKS));  /* bounded by the critical section */
    CHECK_EQ(with_inheritance, T(CS_TICKS - 1u));
    /* L ran at H's level while H waited (the trace shows the raise and the drop) */
    CHECK_STREQ(h_events(TAKT_EV_PRIORITY, true), "1:1/3 4:1/1");
    uint64_t without = run_inversion(tick0, false);
    CHECK(without >= T(M_TICKS));           /* M's whole execution got in the way */
    CHECK_EQ(without, T(CS_TICKS - 1u + M_TICKS));
    CHECK_EQ(h_count(TAKT_EV_PRIORITY, -1), 0);
    printf("inversion: H blocked %llu ticks with inheritance, %llu without (CS %u, M %u)\n",
           (unsigned long long)(with_inheritance / TICK_NS),
           (unsigned long long)(without / TICK_NS), CS_TICKS, M_TICKS);
}

/* ---------------------------------------------------------------- nested, timeout */

static takt_mutex_t *m1, *m2;
static takt_task_t *nest_low;

static void nest_low_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(m1, 0), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(m2, 0), TAKT_OK);
    for (int t = 0; t < 6; t++) {
        s_log("p%d", takt_task_get_priority(NULL));
        work_points(1);
    }
    CHECK_EQ(takt_mutex_unlock(m2), TAKT_OK); /* M takes over at 6 */
    s_log("p%d", takt_task_get_priority(NULL));
    CHECK_EQ(takt_mutex_unlock(m1), TAKT_OK);
    h_park();
}

static void nest_high_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(m1, 3), TAKT_ERR_TIMEOUT);
    s_log("H-timeout");
    h_park();
}

static void nest_mid_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(m2, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("M-got");
    CHECK_EQ(takt_mutex_unlock(m2), TAKT_OK);
    h_park();
}

static void scenario_nested(takt_tick_t tick0)
{
    s_begin(tick0, 10);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &m1), TAKT_OK);
    CHECK_EQ(takt_mutex_create(0, &m2), TAKT_OK);
    nest_low = s_task("L", 1, nest_low_body, NULL);
    s_task("H", 5, nest_high_body, NULL);
    s_task("M", 3, nest_mid_body, NULL);
    h_start();
    /* M waits on m2 from 1 (L at 3), H on m1 from 2 (L at 5) until its
     * timeout at 5: L drops to 3, not 1, since M still waits; L releases m2
     * at 6: M runs, L back to 1 */
    CHECK_STREQ(s_log_buf, S_DEFERRED
                               ? "p1@0 p3@1 p5@2 p5@3 p5@4 H-timeout@5 p3@5 p1@6 M-got@6"
                               : "p1@0 p3@1 p5@2 p5@3 p5@4 H-timeout@5 p3@5 M-got@6 p1@6");
    CHECK_STREQ(h_events(TAKT_EV_PRIORITY, true), "1:1/3 2:1/5 5:1/3 6:1/1");
    if (S_EDF) {
        /* L runs by M's deadline, then H's, then M's again, then its own */
        takt_tick_t dh = S_PERIOD / 2u - 5000u, dm = S_PERIOD / 2u - 3000u;
        char expect[128];
        snprintf(expect, sizeof(expect), "1:1/%u 2:1/%u 5:1/%u", (unsigned)(tick0 + dm),
                 (unsigned)(tick0 + dh), (unsigned)(tick0 + dm));
        CHECK_STREQ(h_events(TAKT_EV_DEADLINE_INHERIT, true), expect);
        CHECK_STREQ(h_events(TAKT_EV_DEADLINE_RESTORE, false), "6:1");
    }
    CHECK(takt_mutex_holder(m1) == NULL && takt_mutex_holder(m2) == NULL);
    CHECK_EQ(takt_mutex_delete(m1), TAKT_OK);
    CHECK_EQ(takt_mutex_delete(m2), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- chain */

/* Transitive inheritance: L holds m1; M holds m2 and waits on m1; H waits on
 * m2. L must run at H's level (through M). */
static void chain_low(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(m1, 0), TAKT_OK);
    work_points(3);
    s_log("L%d", takt_task_get_priority(NULL));
    CHECK_EQ(takt_mutex_unlock(m1), TAKT_OK);
    s_log("L%d", takt_task_get_priority(NULL));
    h_park();
}

static void chain_mid(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(m2, 0), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(m1, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("M%d", takt_task_get_priority(NULL));
    CHECK_EQ(takt_mutex_unlock(m1), TAKT_OK);
    CHECK_EQ(takt_mutex_unlock(m2), TAKT_OK);
    h_park();
}

static void chain_high(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(m2, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("H");
    CHECK_EQ(takt_mutex_unlock(m2), TAKT_OK);
    h_park();
}

static void scenario_chain(takt_tick_t tick0)
{
    s_begin(tick0, 10);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &m1), TAKT_OK);
    CHECK_EQ(takt_mutex_create(0, &m2), TAKT_OK);
    s_task("L", 1, chain_low, NULL);
    s_task("M", 3, chain_mid, NULL);
    s_task("H", 6, chain_high, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "L6@3 L1@3 M6@3 H@3" : "L6@3 M6@3 H@3 L1@3");
    CHECK_STREQ(h_events(TAKT_EV_PRIORITY, true), "1:1/3 2:2/6 2:1/6 3:1/1 3:2/3");
    CHECK_EQ(takt_mutex_delete(m1), TAKT_OK);
    CHECK_EQ(takt_mutex_delete(m2), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- recursive, errors */

static takt_mutex_t static_mutex;
static int isr_rc[3];

static void mutex_isr(void *arg)
{
    (void)arg;
    isr_rc[0] = takt_mutex_lock(mtx, 0);
    isr_rc[1] = takt_mutex_unlock(mtx);
    isr_rc[2] = takt_mutex_delete(mtx);
}

static void rec_other(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_ERR_STATE); /* not the holder */
    CHECK_EQ(takt_mutex_lock(mtx, 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(takt_mutex_lock(mtx, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("other");
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    h_park();
}

static void rec_owner(void *arg)
{
    (void)arg;
    takt_mutex_t *plain = NULL;
    CHECK_EQ(takt_mutex_create(0, &plain), TAKT_OK);
    CHECK_EQ(takt_mutex_unlock(plain), TAKT_ERR_STATE); /* not held */
    CHECK_EQ(takt_mutex_lock(plain, 0), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(plain, 5), TAKT_ERR_STATE); /* would deadlock */
    CHECK_EQ(takt_mutex_delete(plain), TAKT_ERR_STATE);  /* held */
    CHECK_EQ(takt_mutex_unlock(plain), TAKT_OK);
    CHECK_EQ(takt_mutex_delete(plain), TAKT_OK);

    CHECK_EQ(takt_mutex_lock(mtx, 0), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(mtx, 0), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(mtx, 0), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK); /* the other task tries, then waits */
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_ERR_STATE); /* held, with a waiter */
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    CHECK(takt_mutex_holder(mtx) == takt_task_self());
    s_log("last");
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK); /* hand-off */
    CHECK(takt_mutex_holder(mtx) != takt_task_self());
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_ERR_STATE);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    s_log("owner");
    h_park();
}

static void scenario_recursive(takt_tick_t tick0)
{
    s_begin(tick0, 6);
    s_log_reset();
    takt_mutex_t *out = NULL;
    CHECK_EQ(takt_mutex_create(4, &out), TAKT_ERR_ARG);
    CHECK_EQ(takt_mutex_create(0, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_mutex_lock(NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_mutex_unlock(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_mutex_delete(NULL), TAKT_ERR_ARG);
    CHECK(takt_mutex_holder(NULL) == NULL);
    CHECK_EQ(takt_mutex_create(TAKT_MUTEX_RECURSIVE, &mtx), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(mtx, 0), TAKT_ERR_CONTEXT); /* before start: no task */
    CHECK_EQ(takt_mutex_create_static(&static_mutex, 0), TAKT_OK);
    CHECK_EQ(takt_mutex_create_static(&static_mutex, 0), TAKT_ERR_STATE);
    CHECK_EQ(takt_mutex_delete(&static_mutex), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(&static_mutex, 0), TAKT_ERR_ARG); /* deleted */
    s_task("O", 3, rec_owner, NULL);
    s_task("X", 2, rec_other, NULL);
    hp_inject_irq(T(3), 1, mutex_isr, NULL);
    h_start();
    /* the other task (lower) gets it at the hand-off but runs only once O delays */
    CHECK_STREQ(s_log_buf, "last@1 other@1 owner@2");
    /* one lock/unlock event per ownership (plain; O's three levels; X after the hand-off) */
    CHECK_EQ(h_count(TAKT_EV_MUTEX_LOCK, -1), 3);
    CHECK_EQ(h_count(TAKT_EV_MUTEX_UNLOCK, -1), 3);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(isr_rc[i], TAKT_ERR_CONTEXT);
    }
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- holder deleted */

static takt_task_t *doomed;

static void doomed_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(mtx, 0), TAKT_OK);
    h_park();
}

static void del_waiter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(mtx, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("got");
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    h_park();
}

static void del_killer(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_task_get_priority(doomed), 4); /* inherits from the waiter */
    CHECK_EQ(takt_task_delete(doomed), TAKT_OK);
    s_log("deleted");
    h_park();
}

static void scenario_holder_deleted(takt_tick_t tick0)
{
    s_begin(tick0, 5);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &mtx), TAKT_OK);
    doomed = s_task("D", 2, doomed_body, NULL);
    s_task("W", 4, del_waiter, NULL);
    s_task("K", 5, del_killer, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "deleted@2 got@2" : "deleted@2 got@2");
    CHECK(takt_mutex_holder(mtx) == NULL);
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- lowered: behind equals */

static void demote_a(void *arg)
{
    (void)arg;
    s_log("a");
    CHECK_EQ(takt_task_set_priority(NULL, 2), TAKT_OK); /* now equal to B: B goes first */
    s_log("a2");
    h_park();
}

static void demote_b(void *arg)
{
    (void)arg;
    s_log("b");
    h_park();
}

static void scenario_demote(takt_tick_t tick0)
{
    s_begin(tick0, 3);
    s_log_reset();
    s_task("A", 3, demote_a, NULL);
    s_task("B", 2, demote_b, NULL);
    h_start();
    /* FreeRTOS puts a task whose priority drops at the back of its new level;
     * a non-preemptive task keeps the processor. */
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "a@0 a2@0 b@0" : "a@0 b@0 a2@0");
    h_end();
}

/* The same through disinheritance: L (base 2) inherits 4 while W waits; the
 * unlock drops it to 2, behind the equal E that has been waiting behind it.
 * dis_low and dis_waiter are also the holder and the waiter of the hand-off
 * scenarios below. */
static void dis_low(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(mtx, 0), TAKT_OK);
    work_points(2);
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    s_log("L");
    h_park();
}

static void dis_waiter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(mtx, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("W");
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    h_park();
}

static void dis_equal(void *arg)
{
    (void)arg; /* ready from 0, behind L (created first) */
    s_log("E");
    h_park();
}

static void scenario_disinherit(takt_tick_t tick0)
{
    s_begin(tick0, 4);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &mtx), TAKT_OK);
    s_task("L", 2, dis_low, NULL);
    s_task("W", 4, dis_waiter, NULL);
    s_task("E", 2, dis_equal, NULL);
    h_start();
    /* deferred: L keeps the processor through the unlock */
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "L@2 W@2 E@2" : "W@2 E@2 L@2");
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_OK);
    h_end();
}

/* The same, and then, at the switch's instant, W wakes F (2), an equal of
 * L's base created before L. The demotion put L behind E with a ready order
 * of that instant, as a yield does, so F, with the lower id, goes in front
 * of it (SCHEDULING.md: ties at one instant by creation); and L went behind
 * E without being preempted. On a port whose instants are kernel sections
 * (TAKT_PORT_ORDERED_INSTANTS: Cortex-M) W's give is an instant after the
 * switch, so F goes behind L. */
static takt_sem_t *ds_sem;

static void ds_first(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sem_take(ds_sem, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("F");
    h_park();
}

static void ds_waiter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(mtx, TAKT_WAIT_FOREVER), TAKT_OK);
    CHECK_EQ(takt_sem_give(ds_sem), TAKT_OK);
    s_log("W");
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    h_park();
}

static void scenario_demote_same_instant(takt_tick_t tick0)
{
    s_begin(tick0, 4);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &mtx), TAKT_OK);
    CHECK_EQ(takt_sem_create(1, 0, &ds_sem), TAKT_OK);
    s_task("F", 2, ds_first, NULL);
    s_task("L", 2, dis_low, NULL);
    s_task("W", 4, ds_waiter, NULL);
    s_task("E", 2, dis_equal, NULL);
    h_start();
#ifdef TAKT_PORT_ORDERED_INSTANTS
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "L@2 W@2 E@2 F@2" : "W@2 E@2 L@2 F@2");
#else
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "L@2 W@2 E@2 F@2" : "W@2 E@2 F@2 L@2");
#endif
    CHECK_STREQ(h_events(TAKT_EV_PREEMPT, false), "1:2"); /* W preempts L; none at 2 */
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_OK);
    CHECK_EQ(takt_sem_delete(ds_sem), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- hand-off behind an equal */

/* L (base 1) inherits 4 from W; X (4) becomes ready while L runs at 4, so it
 * waits behind L. The unlock wakes W behind X, which came first: X runs
 * before W (the holder was not alone at its inherited level). */
static void he_low(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(mtx, 0), TAKT_OK);
    work_points(3);
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    CHECK_EQ(takt_task_get_priority(NULL), 1);
    s_log("L");
    h_park();
}

static void he_equal(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(2), TAKT_OK);
    s_log("X");
    h_park();
}

static void scenario_handoff_behind_equal(takt_tick_t tick0)
{
    s_begin(tick0, 5);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &mtx), TAKT_OK);
    s_task("L", 1, he_low, NULL);
    s_task("W", 4, dis_waiter, NULL);
    s_task("X", 4, he_equal, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "L@3 X@3 W@3" : "X@3 W@3 L@3");
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- more before the switch */

/* L (base 2) inherits 4 from W and unlocks inside a takt_critical_enter
 * section (or with the scheduler locked), where it then wakes E (2), an
 * equal of its base priority: the switch comes only at the section's end
 * (the lock's), and the demoted L goes behind E there, as behind any equal
 * that is ready at its switch point. */
static bool ub_sched_lock;
static takt_sem_t *ub_sem;

static void ub_low(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(mtx, 0), TAKT_OK);
    work_points(2);
    if (ub_sched_lock) {
        CHECK_EQ(takt_sched_lock(), TAKT_OK);
    } else {
        takt_critical_enter();
    }
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    CHECK_EQ(takt_sem_give(ub_sem), TAKT_OK);
    if (ub_sched_lock) {
        CHECK(takt_sched_unlock() >= 0);
    } else {
        takt_critical_exit();
    }
    s_log("L");
    h_park();
}

static void ub_equal(void *arg)
{
    (void)arg; /* created first: waits on the semaphore from 0 */
    CHECK_EQ(takt_sem_take(ub_sem, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("E");
    h_park();
}

static void run_unlock_before_switch(takt_tick_t tick0, bool sched_lock)
{
    ub_sched_lock = sched_lock;
    s_begin(tick0, 4);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &mtx), TAKT_OK);
    CHECK_EQ(takt_sem_create(1, 0, &ub_sem), TAKT_OK);
    s_task("E", 2, ub_equal, NULL);
    s_task("L", 2, ub_low, NULL);
    s_task("W", 4, dis_waiter, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "L@2 W@2 E@2" : "W@2 E@2 L@2");
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_OK);
    CHECK_EQ(takt_sem_delete(ub_sem), TAKT_OK);
    h_end();
}

static void scenario_unlock_in_critical(takt_tick_t tick0)
{
    run_unlock_before_switch(tick0, false);
}

static void scenario_unlock_sched_locked(takt_tick_t tick0)
{
    run_unlock_before_switch(tick0, true);
}

/* ---------------------------------------------------------------- hand-off to a timed waiter */

/* As the inversion's hand-off, to a waiter whose timeout is armed: it leaves
 * the timer queue, gets the mutex and runs; L drops to its base behind M. */
static void ht_waiter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(mtx, 50), TAKT_OK);
    s_log("W");
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    h_park();
}

static void ht_mid(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    s_log("M");
    h_park();
}

static void scenario_handoff_timed(takt_tick_t tick0)
{
    s_begin(tick0, 4);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &mtx), TAKT_OK);
    s_task("L", 1, dis_low, NULL);
    s_task("W", 3, ht_waiter, NULL);
    s_task("M", 2, ht_mid, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "L@2 W@2 M@2" : "W@2 M@2 L@2");
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- hand-off, waiters left */

/* L holds m1 and m2; A waits on m2, then B (with a deadline) and C on m1. L's
 * unlock of m1 hands it to C (first waiter): C inherits the deadline of B, who
 * still waits; L keeps what A gives it through m2 (3, not its base 1) and loses
 * B's deadline. C's unlock hands m1 on to B with nobody left: C loses the
 * deadline. L's unlock of m2 takes it back to 1. */
#define HO_DEADLINE 50u

static takt_mutex_t *ho_m1, *ho_m2;

static void ho_low(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(ho_m1, 0), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(ho_m2, 0), TAKT_OK);
    work_points(4);
    CHECK_EQ(takt_mutex_unlock(ho_m1), TAKT_OK);
    s_log("L%d", takt_task_get_priority(NULL));
    CHECK_EQ(takt_mutex_unlock(ho_m2), TAKT_OK);
    s_log("L%d", takt_task_get_priority(NULL));
    h_park();
}

static void ho_waiter(takt_mutex_t *m, takt_tick_t delay, const char *name)
{
    CHECK_EQ(takt_delay(delay), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(m, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("%s", name);
    CHECK_EQ(takt_mutex_unlock(m), TAKT_OK);
    h_park();
}

static void ho_a(void *arg)
{
    (void)arg;
    ho_waiter(ho_m2, 1, "A");
}

static void ho_b(void *arg)
{
    (void)arg;
    ho_waiter(ho_m1, 2, "B");
}

static void ho_c(void *arg)
{
    (void)arg;
    ho_waiter(ho_m1, 3, "C");
}

static takt_task_t *ho_task(const char *name, unsigned priority, void (*entry)(void *),
                            takt_tick_t deadline)
{
    takt_tick_t period = deadline != 0 ? 1000u : 0u; /* one job, longer than the run */
    return S_HSF ? hsf_task_full(s_host, name, priority, entry, NULL, period, deadline, 0)
                 : h_task_full(name, priority, entry, NULL, period, deadline, 0);
}

static void scenario_handoff_left_waiters(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &ho_m1), TAKT_OK);
    CHECK_EQ(takt_mutex_create(0, &ho_m2), TAKT_OK);
    ho_task("L", 1, ho_low, 0);
    ho_task("A", 3, ho_a, 0);
    ho_task("B", 5, ho_b, HO_DEADLINE);
    ho_task("C", 6, ho_c, 0);
    h_start();
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "L3@4 L1@4 C@4 B@4 A@4" : "C@4 B@4 L3@4 A@4 L1@4");
    /* L: A's 3 at 1, B's 5 at 2, C's 6 at 3, A's 3 again at the hand-off, 1 at the end */
    CHECK_STREQ(h_events(TAKT_EV_PRIORITY, true), "1:1/3 2:1/5 3:1/6 4:1/3 4:1/1");
    char expect[64];
    snprintf(expect, sizeof(expect), "2:1/%u 4:4/%u", (unsigned)(tick0 + HO_DEADLINE),
             (unsigned)(tick0 + HO_DEADLINE));
    CHECK_STREQ(h_events(TAKT_EV_DEADLINE_INHERIT, true), expect);
    CHECK_STREQ(h_events(TAKT_EV_DEADLINE_RESTORE, false), "4:1 4:4");
    CHECK(takt_mutex_holder(ho_m1) == NULL && takt_mutex_holder(ho_m2) == NULL);
    CHECK_EQ(takt_mutex_delete(ho_m1), TAKT_OK);
    CHECK_EQ(takt_mutex_delete(ho_m2), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- deadlock cycle */

/* An application deadlock: A holds m1 and waits on m2 (timeout 2), B holds m2
 * and waits on m1. C then waits on m1: the raise of A goes round the cycle (A,
 * B, back to A, where nothing changes) and stops. A's timeout at 3 breaks the
 * cycle: B drops back to 4 (its base: nobody waits on m2 any more), A hands m1
 * to C, then C to B. */
static void dl_a(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(m1, 0), TAKT_OK);
    work_points(1);
    CHECK_EQ(takt_mutex_lock(m2, 2), TAKT_ERR_TIMEOUT);
    s_log("A-timeout");
    CHECK_EQ(takt_mutex_unlock(m1), TAKT_OK);
    s_log("A%d", takt_task_get_priority(NULL));
    h_park();
}

static void dl_b(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(m2, 0), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(m1, 5), TAKT_OK);
    s_log("B%d", takt_task_get_priority(NULL));
    CHECK_EQ(takt_mutex_unlock(m1), TAKT_OK);
    CHECK_EQ(takt_mutex_unlock(m2), TAKT_OK);
    h_park();
}

static void dl_c(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(m1, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("C");
    CHECK_EQ(takt_mutex_unlock(m1), TAKT_OK);
    h_park();
}

static void scenario_deadlock_cycle(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &m1), TAKT_OK);
    CHECK_EQ(takt_mutex_create(0, &m2), TAKT_OK);
    s_task("A", 2, dl_a, NULL);
    s_task("B", 4, dl_b, NULL);
    s_task("C", 6, dl_c, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "A-timeout@3 A2@3 C@3 B4@3" : "A-timeout@3 C@3 B4@3 A2@3");
    CHECK_STREQ(h_events(TAKT_EV_PRIORITY, true), "1:1/4 2:1/6 2:2/6 3:2/4 3:1/2");
    CHECK(takt_mutex_holder(m1) == NULL && takt_mutex_holder(m2) == NULL);
    CHECK_EQ(takt_mutex_delete(m1), TAKT_OK);
    CHECK_EQ(takt_mutex_delete(m2), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- EDF: background holder */

static void bg_holder(void *arg) /* arg: ticks it holds the mutex */
{
    CHECK_EQ(takt_mutex_lock(mtx, 0), TAKT_OK);
    work_points((unsigned)(uintptr_t)arg);
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    s_log("bg");
    h_park();
}

static void bg_job(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(mtx, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("job");
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    h_park();
}

static void bg_other(void *arg) /* arg: ticks of work before it logs */
{
    work_points((unsigned)(uintptr_t)arg);
    s_log("other");
    h_park();
}

/* EDF: a task without a deadline holding a mutex a deadline job needs runs by
 * that job's deadline, ahead of a job with a later deadline. */
static void scenario_edf_background(takt_tick_t tick0)
{
    s_begin(tick0, 12);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &mtx), TAKT_OK);
    h_task("BG", 1, bg_holder, (void *)4);
    h_periodic("J", 1, bg_job, NULL, 100, 20, 1);
    h_periodic("O", 1, bg_other, (void *)3, 100, 50, 1);
    h_start();
    /* BG holds 0..4; J (deadline 21) asks at 1, BG inherits 21 < 51: O waits
     * (without inheritance J would get the mutex only after O's 3 ticks);
     * once BG lets go it is background again, behind O */
    CHECK_STREQ(s_log_buf, "job@4 other@7 bg@7");
    char expect[64];
    snprintf(expect, sizeof(expect), "1:1/%u", (unsigned)(tick0 + 21u));
    CHECK_STREQ(h_events(TAKT_EV_DEADLINE_INHERIT, true), expect);
    CHECK_STREQ(h_events(TAKT_EV_DEADLINE_RESTORE, false), "4:1");
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_OK);
    h_end();
}

/* EDF: BG and O have no deadline, BG first; J (a deadline job, and a higher
 * priority) takes BG's mutex at 1, so BG inherits its deadline and its
 * priority. The unlock at 2 hands the mutex to J, which preempts BG. BG
 * keeps its place in front of O (a preempted job resumes first): priorities
 * order nothing under EDF, so dropping back to its own is no demotion that
 * would put it behind O (fp's rule, as FreeRTOS). */
static void scenario_edf_preempted_holder_keeps_place(takt_tick_t tick0)
{
    s_begin(tick0, 6);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &mtx), TAKT_OK);
    h_task("BG", 1, bg_holder, (void *)2);
    h_task("O", 1, bg_other, (void *)0);
    h_periodic("J", 3, bg_job, NULL, 100, 10, 1);
    h_start();
    CHECK_STREQ(s_log_buf, "job@2 bg@2 other@2");
    CHECK_STREQ(h_events(TAKT_EV_PRIORITY, false), "1:1 2:1");
    CHECK_STREQ(h_events(TAKT_EV_DEADLINE_RESTORE, false), "2:1");
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_OK);
    h_end();
}

/* EDF: H (deadline 30) holds the mutex; O is released at 1 with H's own
 * deadline, W at 2 with deadline 10. W blocks on the mutex, H inherits 10 and
 * runs. The unlock at 4 hands the mutex to W, which runs, and H drops back to
 * 30: the tie with O goes to H, ready since 0 (a preempted job resumes before
 * equal jobs that became ready after it). H inherits while it waits to run
 * (W preempted it): this fails if that re-queue stamps H as ready at 2, which
 * the kernel did before sched_requeue_ready ('job other bg'). It also runs
 * the EDF unlock's order (drop H's deadline, then wake W). */
static void scenario_edf_handoff_holder_keeps_tie(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &mtx), TAKT_OK);
    h_periodic("H", 1, bg_holder, (void *)4, 100, 30, 0);
    h_periodic("O", 1, bg_other, (void *)0, 100, 29, 1);
    h_periodic("W", 1, bg_job, NULL, 100, 8, 2);
    h_start();
    CHECK_STREQ(s_log_buf, "job@4 bg@4 other@4");
    char expect[64];
    snprintf(expect, sizeof(expect), "2:1/%u", (unsigned)(tick0 + 10u));
    CHECK_STREQ(h_events(TAKT_EV_DEADLINE_INHERIT, true), expect);
    CHECK_STREQ(h_events(TAKT_EV_DEADLINE_RESTORE, false), "4:1");
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_OK);
    h_end();
}

int main(void)
{
    s_both_inheriting(scenario_inversion, "inversion");
    s_both_inheriting(scenario_nested, "nested");
    s_both_inheriting(scenario_chain, "chain");
    s_both_inheriting(scenario_recursive, "recursive");
    s_both_inheriting(scenario_holder_deleted, "holder_deleted");
    if (!S_EDF) {
        h_both(scenario_demote, "demote");
        h_both(scenario_disinherit, "disinherit");
        h_both(scenario_demote_same_instant, "demote_same_instant");
        h_both(scenario_handoff_behind_equal, "handoff_behind_equal");
        h_both(scenario_unlock_in_critical, "unlock_in_critical");
        h_both(scenario_unlock_sched_locked, "unlock_sched_locked");
        h_both(scenario_handoff_timed, "handoff_timed");
        s_each_start(scenario_handoff_left_waiters, "handoff_left_waiters");
        h_both(scenario_deadlock_cycle, "deadlock_cycle");
    } else {
        s_both_inheriting(scenario_edf_background, "edf_background");
        s_both_inheriting(scenario_edf_preempted_holder_keeps_place, "edf_preempted_holder_keeps_place");
        s_both_inheriting(scenario_edf_handoff_holder_keeps_tie, "edf_handoff_holder_keeps_tie");
    }
    return CHECK_SUMMARY();
}
