/*
 * Scheduling and time on the sim port: delay, delay-until (FreeRTOS
 * xTaskDelayUntil semantics), yield, round-robin, FIFO order among equal
 * priorities (ready time first, then creation order at one instant), the
 * "preempted job resumes first" rule, and interrupts at the tick's instant.
 * Every scenario also runs with the tick counter just below wraparound.
 */
#include "harness.h"

/* ---------------------------------------------------------------- delay */

static uint64_t dl_times[4];

static void dl_body(void *arg)
{
    (void)arg;
    hp_work_ns(500);
    CHECK_EQ(takt_delay(3), TAKT_OK); /* from tick 0: wakes at tick 3 */
    dl_times[0] = hp_now_ns();
    CHECK_EQ(h_now_ticks(), 3);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    dl_times[1] = hp_now_ns();
    hp_work_ns(T(2) + 999); /* to 6.999 */
    CHECK_EQ(takt_delay(1), TAKT_OK); /* tick 6 + 1 */
    dl_times[2] = hp_now_ns();
    h_park();
}

static void scenario_delay(takt_tick_t tick0)
{
    h_begin(tick0, 10, false);
    memset(dl_times, 0, sizeof(dl_times));
    h_task("A", 2, dl_body, NULL);
    h_run();
    CHECK_EQ(dl_times[0], T(3));
    CHECK_EQ(dl_times[1], T(4));
    CHECK_EQ(dl_times[2], T(7));
    CHECK_STREQ(h_events(TAKT_EV_WAKE, true), "3:1/1 4:1/1 7:1/1");
    CHECK_STREQ(h_events(TAKT_EV_BLOCK, true), "500ns:1/1 3:1/1 6999ns:1/1");
}

/* ---------------------------------------------------------------- delay until */

static int du_ret[8];
static uint64_t du_at[8];
static takt_tick_t du_prev[8];

static void du_body(void *arg)
{
    (void)arg;
    takt_tick_t prev = takt_tick_count();
    int i = 0;
    for (; i < 3; i++) { /* on time: wakes at 2, 4, 6 */
        hp_work_ns(500);
        du_ret[i] = takt_delay_until(&prev, 2);
        du_at[i] = hp_now_ns();
        du_prev[i] = prev - h_tick0;
    }
    hp_work_ns(T(2) + 500); /* to 8.5: the wake time 8 has passed */
    du_ret[i] = takt_delay_until(&prev, 2);
    du_at[i] = hp_now_ns();
    du_prev[i++] = prev - h_tick0;
    hp_work_ns(T(3) + 500); /* to 12: 10 has passed, 12 is now */
    du_ret[i] = takt_delay_until(&prev, 2);
    du_at[i] = hp_now_ns();
    du_prev[i++] = prev - h_tick0;
    du_ret[i] = takt_delay_until(&prev, 2); /* wake time 12 == now: not delayed */
    du_at[i] = hp_now_ns();
    du_prev[i++] = prev - h_tick0;
    du_ret[i] = takt_delay_until(&prev, 2); /* 14 */
    du_at[i] = hp_now_ns();
    du_prev[i++] = prev - h_tick0;
    h_park();
}

static void scenario_delay_until(takt_tick_t tick0)
{
    h_begin(tick0, 20, false);
    memset(du_ret, 0x7F, sizeof(du_ret));
    h_task("A", 2, du_body, NULL);
    h_run();
    static const int ret[] = {1, 1, 1, 0, 0, 0, 1};
    static const uint64_t at[] = {T(2), T(4), T(6), 8500, T(12), T(12), T(14)};
    static const takt_tick_t prev[] = {2, 4, 6, 8, 10, 12, 14};
    for (int i = 0; i < 7; i++) {
        if (!CHECK_EQ(du_ret[i], ret[i]) | !CHECK_EQ(du_at[i], at[i]) |
            !CHECK_EQ(du_prev[i], prev[i])) {
            fprintf(stderr, "  (delay_until call %d)\n", i);
        }
    }
}

/* ---------------------------------------------------------------- yield */

static void yd_a(void *arg)
{
    (void)arg;
    h_note("a1");
    takt_yield();
    h_note("a2");
    takt_yield();
    h_note("a3");
    takt_yield(); /* B is parked: no equal, A goes on */
    h_note("a4");
    CHECK_EQ(takt_delay(0), TAKT_OK); /* delay 0 yields: still alone */
    h_note("a5");
    h_park();
}

static void yd_b(void *arg)
{
    (void)arg;
    h_note("b1");
    takt_yield();
    h_note("b2");
    h_park();
}

static void yd_c(void *arg)
{
    (void)arg;
    h_note("c");
    h_park();
}

/* A and B take turns; C waits below them under fp. Under EDF tasks without a
 * deadline share one FIFO whatever their priorities: a yield goes behind all
 * of them, C included. */
static takt_scheduler_t yield_sched_any;

static void scenario_yield(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = yield_sched_any, .tick_start = tick0};
    h_begin_params(&init, 3);
    h_task("A", 2, yd_a, NULL);
    h_task("B", 2, yd_b, NULL);
    h_task("C", 1, yd_c, NULL);
    h_run();
    if (h_fixed_priority(yield_sched_any)) {
        CHECK_STREQ(h_order, "a1 b1 a2 b2 a3 a4 a5 c");
        CHECK_STREQ(h_dispatches(), "0:1 0:2 0:1 0:2 0:1 0:3 0:0");
    } else {
        CHECK_STREQ(h_order, "a1 b1 c a2 b2 a3 a4 a5");
        CHECK_STREQ(h_dispatches(), "0:1 0:2 0:3 0:1 0:2 0:1 0:0");
    }
    CHECK_EQ(h_count(TAKT_EV_YIELD, 1), 4);
    CHECK_EQ(h_count(TAKT_EV_YIELD, 2), 1);
}

/* A yield goes behind every equal, also one that became ready at the yield's
 * own instant with a larger id (policy.h YIELD). Under EDF both jobs are
 * released at 0 with deadline 10: A (defined first) runs, yields at 0, and B
 * must run before A goes on. The sim's instants are virtual times, so the
 * yield must count as an instant of its own there (sched/core.c stamp_ready). */
static takt_scheduler_t yield_sched;

static void yield_tie_a(void *arg)
{
    (void)arg;
    h_note("a1");
    takt_yield();
    h_note("a2");
    h_park();
}

static void yield_tie_b(void *arg)
{
    (void)arg;
    h_note("b");
    h_park();
}

static void scenario_yield_same_instant(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = yield_sched, .tick_start = tick0};
    h_begin_params(&init, 3);
    h_periodic("A", 2, yield_tie_a, NULL, 10, 0, 0);
    h_periodic("B", 2, yield_tie_b, NULL, 10, 0, 0);
    h_run();
    CHECK_STREQ(h_order, "a1 b a2");
    CHECK_EQ(h_count(TAKT_EV_YIELD, 1), 1);
}

static void yield_three_a(void *arg)
{
    (void)arg;
    h_note("a1");
    takt_yield();
    h_note("a2");
    h_park();
}

static void yield_three_other(void *arg)
{
    h_note((const char *)arg);
    h_park();
}

/* A yield goes behind every equal, not only the next one. */
static void scenario_yield_behind_all(takt_tick_t tick0)
{
    h_begin(tick0, 3, false);
    h_task("A", 2, yield_three_a, NULL);
    h_task("B", 2, yield_three_other, "b");
    h_task("C", 2, yield_three_other, "c");
    h_task("L", 1, yield_three_other, "l");
    h_run();
    CHECK_STREQ(h_order, "a1 b c a2 l");
}

/* ---------------------------------------------------------------- round-robin */

static uint64_t rr_end[3];

static void rr_busy(void *arg)
{
    int i = (int)(uintptr_t)arg;
    hp_work_ns(T(i == 0 ? 2 : 3));
    rr_end[i] = hp_now_ns();
    h_park();
}

static void rr_run(takt_tick_t tick0, bool rr)
{
    h_begin(tick0, 12, rr);
    memset(rr_end, 0, sizeof(rr_end));
    h_task("H", 3, rr_busy, (void *)0); /* alone at its level: never sliced */
    h_task("A", 2, rr_busy, (void *)1);
    h_task("B", 2, rr_busy, (void *)2);
    h_run();
}

static void scenario_round_robin(takt_tick_t tick0)
{
    rr_run(tick0, true);
    CHECK_EQ(rr_end[0], T(2));
    CHECK_EQ(rr_end[1], T(7));
    CHECK_EQ(rr_end[2], T(8));
    CHECK_STREQ(h_dispatches(), "0:1 2:2 3:3 4:2 5:3 6:2 7:3 8:0");
}

static void scenario_no_round_robin(takt_tick_t tick0)
{
    rr_run(tick0, false);
    CHECK_EQ(rr_end[1], T(5));
    CHECK_EQ(rr_end[2], T(8));
    CHECK_STREQ(h_dispatches(), "0:1 2:2 5:3 8:0");
}

/* A slice that expires at the instant an equal task becomes ready goes to that
 * task, although the running one was created first. */
static void rr_a6(void *arg)
{
    (void)arg;
    h_work(6);
    rr_end[0] = hp_now_ns();
    h_park();
}

static void hp_body(void *arg);

static void scenario_rr_same_instant(takt_tick_t tick0)
{
    h_begin(tick0, 12, true);
    memset(rr_end, 0, sizeof(rr_end));
    h_task("A", 2, rr_a6, NULL);                             /* 1 */
    h_periodic("B", 2, hp_body, (void *)2, 100, 0, 2);       /* 2: released at 2 */
    h_run();
    CHECK_EQ(rr_end[0], T(8));
    CHECK_STREQ(h_dispatches(), "0:1 2:2 3:1 4:2 5:1 8:0");
}

/* A non-preemptive task is not sliced: a slice that ends inside its subjob
 * sends it behind its equal at its next preemption point, and without one
 * (FPNS) it runs to the end. B, preemptive, is sliced as usual. */
static void rr_np_a(void *arg)
{
    bool with_point = arg != NULL;
    CHECK_EQ(takt_task_set_preemptive(NULL, false), TAKT_OK);
    h_work(3);
    if (with_point) {
        CHECK(takt_should_yield()); /* the slice ended: B waits for its turn */
        takt_preemption_point();
    }
    h_work(2);
    h_park();
}

static void rr_np_b(void *arg)
{
    (void)arg;
    h_work(2);
    h_park();
}

static void scenario_rr_nonpreemptive_at_point(takt_tick_t tick0)
{
    h_begin(tick0, 10, true);
    h_task("A", 2, rr_np_a, (void *)1);
    h_task("B", 2, rr_np_b, NULL);
    h_run();
    CHECK_STREQ(h_dispatches(), "0:1 3:2 4:1 6:2 7:0");
}

static void scenario_rr_nonpreemptive_no_point(takt_tick_t tick0)
{
    h_begin(tick0, 10, true);
    h_task("A", 2, rr_np_a, NULL);
    h_task("B", 2, rr_np_b, NULL);
    h_run();
    CHECK_STREQ(h_dispatches(), "0:1 5:2 7:0");
}

/* ---------------------------------------------------------------- FIFO among equals */

static void work1_then_park(void *arg)
{
    (void)arg;
    h_work(1);
    h_park();
}

static void fifo_x(void *arg) /* id 1: ready at 3 */
{
    (void)arg;
    takt_delay(3);
    h_note("x");
    h_work(1);
    h_park();
}

static void fifo_y(void *arg) /* id 2: ready at 2 */
{
    (void)arg;
    takt_delay(2);
    h_note("y");
    h_work(1);
    h_park();
}

static void hp_body(void *arg) /* periodic, one job of arg ticks */
{
    h_work((uintptr_t)arg);
    takt_job_end();
    h_park();
}

/* Ready earlier runs first, whatever the creation order. */
static void scenario_fifo_ready_time(takt_tick_t tick0)
{
    h_begin(tick0, 10, false);
    h_task("X", 2, fifo_x, NULL);
    h_task("Y", 2, fifo_y, NULL);
    h_periodic("H", 3, hp_body, (void *)4, 100, 0, 1); /* runs 1..5 */
    h_run();
    CHECK_STREQ(h_order, "y x");
    CHECK_STREQ(h_dispatches(), "0:1 0:2 0:0 1:3 5:2 6:1 7:0");
}

/* Ready at the same instant: the task created first runs first, even when the
 * kernel processes the other one first (Y's timer was queued before X's). */
static void fifo_same_x(void *arg) /* id 1 */
{
    (void)arg;
    takt_delay(1);
    takt_tick_t prev = h_tick0;
    CHECK_EQ(takt_delay_until(&prev, 4), 1);
    h_note("x");
    h_work(1);
    h_park();
}

static void fifo_same_y(void *arg) /* id 2 */
{
    (void)arg;
    takt_tick_t prev = h_tick0;
    CHECK_EQ(takt_delay_until(&prev, 4), 1);
    h_note("y");
    h_work(1);
    h_park();
}

static void scenario_fifo_same_instant(takt_tick_t tick0)
{
    h_begin(tick0, 10, false);
    h_task("X", 2, fifo_same_x, NULL);
    h_task("Y", 2, fifo_same_y, NULL);
    h_periodic("H", 3, hp_body, (void *)4, 100, 0, 2); /* runs 2..6 */
    h_run();
    CHECK_STREQ(h_order, "x y");
    CHECK_STREQ(h_dispatches(), "0:1 0:2 0:0 1:1 1:0 2:3 6:1 7:2 8:0");
}

/* A preempted job resumes before equal-priority jobs that became ready after
 * it; an equal-priority release never preempts. */
static void l1_body(void *arg)
{
    (void)arg;
    h_work(6);
    h_note("l1");
    h_park();
}

static void scenario_preempted_first(takt_tick_t tick0)
{
    h_begin(tick0, 12, false);
    h_task("L1", 2, l1_body, NULL);                            /* 1: runs from 0 */
    h_periodic("L2", 2, hp_body, (void *)1, 100, 0, 3);        /* 2: ready at 3 */
    h_periodic("L3", 2, hp_body, (void *)1, 100, 0, 1);        /* 3: ready at 1 */
    h_periodic("H", 3, hp_body, (void *)2, 100, 0, 2);         /* 4: runs 2..4 */
    h_run();
    CHECK_STREQ(h_dispatches(), "0:1 2:4 4:1 8:3 9:2 10:0");
    CHECK_STREQ(h_events(TAKT_EV_PREEMPT, false), "2:1");
    CHECK_STREQ(h_events(TAKT_EV_RELEASE, false), "1:3 2:4 3:2");
}

/* ---------------------------------------------------------------- interrupts at the tick */

typedef struct {
    unsigned irq;
    takt_tick_t tick;
    uint64_t at;
} irq_rec_t;

static irq_rec_t irq_recs[8];
static int irq_n;
static uint64_t it_w_woke;

static void irq_handler(void *arg)
{
    irq_recs[irq_n++] = (irq_rec_t){(unsigned)(uintptr_t)arg, h_now_ticks(), hp_now_ns()};
}

static void it_w(void *arg) /* prio 3: wakes at the tick of 5 */
{
    (void)arg;
    takt_delay(5);
    it_w_woke = hp_now_ns();
    CHECK_EQ(irq_n, 3); /* the interrupts at 5 ran before the switch to W */
    h_park();
}

static void it_z(void *arg) /* prio 1: busy, the interrupts hit its work */
{
    (void)arg;
    for (;;) {
        h_work(2);
    }
}

static void scenario_irq_at_tick(takt_tick_t tick0)
{
    h_begin(tick0, 8, false);
    irq_n = 0;
    it_w_woke = 0;
    h_task("W", 3, it_w, NULL);
    h_task("Z", 1, it_z, NULL);
    CHECK_EQ(hp_inject_irq(T(5), 7, irq_handler, (void *)7), TAKT_OK);
    CHECK_EQ(hp_inject_irq(T(5), 3, irq_handler, (void *)3), TAKT_OK);
    CHECK_EQ(hp_inject_irq(T(5) - 1, 5, irq_handler, (void *)5), TAKT_OK);
    CHECK_EQ(hp_inject_irq(T(5), 0, irq_handler, NULL), TAKT_ERR_ARG); /* irq 0: tick */
    CHECK_EQ(hp_inject_irq(T(5), 4, NULL, NULL), TAKT_ERR_ARG);
    h_run();
    CHECK_EQ(irq_n, 3);
    CHECK_EQ(irq_recs[0].irq, 5);
    CHECK_EQ(irq_recs[0].tick, 4);
    CHECK_EQ(irq_recs[0].at, T(5) - 1);
    CHECK_EQ(irq_recs[1].irq, 7); /* after the tick, in injection order */
    CHECK_EQ(irq_recs[1].tick, 5);
    CHECK_EQ(irq_recs[1].at, T(5));
    CHECK_EQ(irq_recs[2].irq, 3);
    CHECK_EQ(irq_recs[2].tick, 5);
    CHECK_EQ(it_w_woke, T(5));
    CHECK_STREQ(h_events(TAKT_EV_ISR_ENTER, true), "4999ns:-1/5 5:-1/7 5:-1/3");
    long wake = h_find(TAKT_EV_WAKE, 1, 0), isr7 = h_find(TAKT_EV_ISR_ENTER, -1, 1),
         disp = h_find(TAKT_EV_DISPATCH, 1, 1), exit3 = h_find(TAKT_EV_ISR_EXIT, -1, 2);
    CHECK(wake >= 0 && wake < isr7); /* the tick's work comes first */
    CHECK(exit3 >= 0 && exit3 < disp);
    CHECK_STREQ(h_dispatches(), "0:1 0:2 5:1 5:2");
}

/* ---------------------------------------------------------------- same instant, every policy */

/* Each task first sleeps its own argument (0 = none), then sleeps until 5: the
 * three reach the timer queue in the order C, B, A, and all become ready at 5. */
static void same_instant_body(void *arg)
{
    takt_tick_t first = (takt_tick_t)(uintptr_t)arg;
    if (first > 0) {
        CHECK_EQ(takt_delay(first), TAKT_OK);
    }
    takt_tick_t prev = h_tick0;
    CHECK_EQ(takt_delay_until(&prev, 5), 1);
    h_note(takt_task_name(NULL));
    h_work(1);
    h_park();
}

static takt_scheduler_t same_instant_sched;

/* SCHEDULING.md "Order of events": tasks that become ready at the same instant
 * run in definition order (A, B, C) whatever order the kernel wakes them in —
 * among equal priorities under fp, and in EDF's background class (tasks
 * without a deadline), under every EDF ready queue. */
static void scenario_same_instant_any_policy(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = same_instant_sched, .tick_start = tick0};
    h_begin_params(&init, 10);
    h_task("A", 2, same_instant_body, (void *)2);
    h_task("B", 2, same_instant_body, (void *)1);
    h_task("C", 2, same_instant_body, (void *)0);
    h_run();
    CHECK_STREQ(h_order, "A B C");
    CHECK_STREQ(h_dispatches(), "0:1 0:2 0:3 0:0 1:2 1:0 2:1 2:0 5:1 6:2 7:3 8:0");
}

/* ---------------------------------------------------------------- the tick's paths share its instant */

/* Each task first sleeps its own argument (so they reach the timer queue in
 * the order D, C, B, A), then becomes ready at 5 through one of the tick's
 * paths: a delay's end (A, C) or a semaphore wait's timeout (B, D: through
 * the object). E's first job is released at 5 (its job timer, queued first:
 * the tick finds it before the wake timers). All become ready at the tick's
 * one instant, so equals run in definition order, whichever path and order
 * woke them. */
static takt_sem_t *tick_paths_sem;
static takt_scheduler_t tick_paths_sched;

static void tick_path_first_sleep(void *arg)
{
    takt_tick_t first = (takt_tick_t)(uintptr_t)arg;
    if (first > 0) {
        CHECK_EQ(takt_delay(first), TAKT_OK);
    }
}

static void tick_path_delay(void *arg)
{
    tick_path_first_sleep(arg);
    takt_tick_t prev = h_tick0;
    CHECK_EQ(takt_delay_until(&prev, 5), 1);
    h_note(takt_task_name(NULL));
    h_work(1);
    h_park();
}

static void tick_path_timeout(void *arg)
{
    tick_path_first_sleep(arg);
    takt_tick_t left = h_tick0 + 5 - takt_tick_count();
    CHECK_EQ(takt_sem_take(tick_paths_sem, left), TAKT_ERR_TIMEOUT);
    h_note(takt_task_name(NULL));
    h_work(1);
    h_park();
}

static void tick_path_release(void *arg)
{
    (void)arg;
    h_note(takt_task_name(NULL));
    h_work(1);
    h_park();
}

static void scenario_tick_paths_same_instant(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = tick_paths_sched, .tick_start = tick0};
    h_begin_params(&init, 12);
    CHECK_EQ(takt_sem_create(1, 0, &tick_paths_sem), TAKT_OK);
    h_task("A", 2, tick_path_delay, (void *)3);
    h_task("B", 2, tick_path_timeout, (void *)2);
    h_task("C", 2, tick_path_delay, (void *)1);
    h_task("D", 2, tick_path_timeout, (void *)0);
    h_periodic("E", 2, tick_path_release, NULL, 100, 0, 5);
    h_run();
    CHECK_EQ(takt_sem_delete(tick_paths_sem), TAKT_OK);
    /* EDF: E's job has a deadline, the others are background tasks */
    CHECK_STREQ(h_order, h_fixed_priority(tick_paths_sched) ? "A B C D E" : "E A B C D");
}

/* The same without E, in two orders: the tick finds a wake timer first (a
 * timeout's, D; or a delay's, A), so its events begin with the tick's
 * instant (time.c's begin_with_expiries), and the wakes after it, through
 * their timers' functions, take that same instant. */
static void tick_paths_wake_first(takt_tick_t tick0, const uintptr_t first[4])
{
    takt_init_params_t init = {.scheduler = tick_paths_sched, .tick_start = tick0};
    h_begin_params(&init, 12);
    CHECK_EQ(takt_sem_create(1, 0, &tick_paths_sem), TAKT_OK);
    h_task("A", 2, tick_path_delay, (void *)first[0]);
    h_task("B", 2, tick_path_timeout, (void *)first[1]);
    h_task("C", 2, tick_path_delay, (void *)first[2]);
    h_task("D", 2, tick_path_timeout, (void *)first[3]);
    h_run();
    CHECK_EQ(takt_sem_delete(tick_paths_sem), TAKT_OK);
    CHECK_STREQ(h_order, "A B C D");
}

static void scenario_tick_paths_wake_first(takt_tick_t tick0)
{
    static const uintptr_t d_first[4] = {3, 2, 1, 0}; /* queued D, C, B, A */
    static const uintptr_t a_first[4] = {0, 1, 2, 3}; /* queued A, B, C, D */
    tick_paths_wake_first(tick0, d_first);
    tick_paths_wake_first(tick0, a_first);
}

/* Work that ends on a tick: the tick's events come first (they wake W), and
 * the task's next kernel call, at the same instant, shares the tick's
 * instant (SCHEDULING.md "Order of events"; on Cortex-M the held switch,
 * which reuses the instant the tick's delay wake took). So X, woken by L's
 * give, and W are equals that became ready together: X, defined first, runs
 * before W. */
static takt_sem_t *held_call_sem;

static void held_call_x(void *arg) /* id 1 */
{
    (void)arg;
    CHECK_EQ(takt_sem_take(held_call_sem, TAKT_WAIT_FOREVER), TAKT_OK);
    h_note("X");
    h_park();
}

static void held_call_w(void *arg) /* id 2 */
{
    (void)arg;
    takt_tick_t prev = h_tick0;
    CHECK_EQ(takt_delay_until(&prev, 5), 1);
    h_note("W");
    h_park();
}

static void held_call_l(void *arg) /* id 3, below both */
{
    (void)arg;
    h_work(5); /* ends on tick 5 */
    CHECK_EQ(takt_sem_give(held_call_sem), TAKT_OK);
    h_note("L");
    h_park();
}

static void scenario_held_call_shares_tick(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = tick_paths_sched, .tick_start = tick0};
    h_begin_params(&init, 8);
    CHECK_EQ(takt_sem_create(1, 0, &held_call_sem), TAKT_OK);
    h_task("X", 2, held_call_x, NULL);
    h_task("W", 2, held_call_w, NULL);
    h_task("L", 1, held_call_l, NULL);
    h_run();
    CHECK_EQ(takt_sem_delete(held_call_sem), TAKT_OK);
    /* EDF: three background tasks, L keeps running (priorities order none) */
    CHECK_STREQ(h_order, h_fixed_priority(tick_paths_sched) ? "X W L" : "L X W");
}

/* ---------------------------------------------------------------- the running task stays in front */

static takt_sem_t *front_sem;

static void front_b(void *arg) /* id 1 */
{
    (void)arg;
    CHECK_EQ(takt_sem_take(front_sem, TAKT_WAIT_FOREVER), TAKT_OK);
    h_note("B");
    h_park();
}

static void front_a(void *arg) /* id 2 */
{
    (void)arg;
    takt_tick_t prev = h_tick0;
    CHECK_EQ(takt_delay_until(&prev, 5), 1);
    CHECK_EQ(takt_sem_give(front_sem), TAKT_OK); /* B: ready at A's own instant */
    h_note("A");
    h_work(2);
    h_note("A2");
    h_park();
}

static void front_h(void *arg) /* id 3: released at 6 */
{
    (void)arg;
    h_note("H");
    h_work(1);
    h_park();
}

/* A becomes ready at 5 and runs; in the same instant it wakes B, its equal
 * with a lower id. B goes behind A, which keeps running: ids order tasks
 * that wait to run, never against the running task (the running task stays
 * in its ready list, fp's level or EDF's background class, so B's insertion
 * must not pass it). H, higher (a deadline job under EDF), preempts A at 6:
 * A keeps its place in front of B and resumes first. */
static takt_scheduler_t front_sched;

static void scenario_running_stays_in_front(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = front_sched, .tick_start = tick0};
    h_begin_params(&init, 10);
    CHECK_EQ(takt_sem_create(1, 0, &front_sem), TAKT_OK);
    h_task("B", 2, front_b, NULL);
    h_task("A", 2, front_a, NULL);
    h_periodic("H", 3, front_h, NULL, 100, 0, 6);
    h_run();
    CHECK_STREQ(h_order, "A H A2 B");
    CHECK_STREQ(h_dispatches(), "0:1 0:2 0:0 5:2 6:3 7:2 8:1 8:0");
    CHECK_EQ(takt_sem_delete(front_sem), TAKT_OK);
}

/* ---------------------------------------------------------------- EDF: an equal deadline waits */

static takt_sem_t *edf_tie_sem;

static void edf_tie_b(void *arg) /* id 1: deadline 15 */
{
    (void)arg;
    CHECK_EQ(takt_sem_take(edf_tie_sem, TAKT_WAIT_FOREVER), TAKT_OK);
    h_note("B");
    h_work(1);
    h_park();
}

static void edf_tie_a(void *arg) /* id 2: released at 5, deadline 15 */
{
    (void)arg;
    CHECK_EQ(takt_sem_give(edf_tie_sem), TAKT_OK); /* B: ready at A's instant */
    h_note("A");
    h_work(2);
    h_note("A2");
    h_park();
}

static void edf_tie_h(void *arg) /* id 3: released at 6, deadline 8 */
{
    (void)arg;
    h_note("H");
    h_work(1);
    h_park();
}

/* The EDF policies keep the running job in their queue, where B, with A's
 * deadline, the same ready instant and a lower id, comes first. B must still
 * wait (SCHEDULING.md: never preempted on a tie). When H preempts A, A keeps
 * its place, which is behind B: B runs before A goes on. On a port whose
 * instants are kernel sections (TAKT_PORT_ORDERED_INSTANTS: Cortex-M), B's
 * wake is an instant after A's release, so B is behind A from the start. */
static void scenario_edf_equal_deadline_waits(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = front_sched, .tick_start = tick0};
    h_begin_params(&init, 12);
    CHECK_EQ(takt_sem_create(1, 0, &edf_tie_sem), TAKT_OK);
    h_periodic("B", 2, edf_tie_b, NULL, 100, 15, 0);
    h_periodic("A", 2, edf_tie_a, NULL, 100, 10, 5);
    h_periodic("H", 2, edf_tie_h, NULL, 100, 2, 6);
    h_run();
#ifdef TAKT_PORT_ORDERED_INSTANTS
    CHECK_STREQ(h_order, "A H A2 B");
    CHECK_STREQ(h_dispatches(), "0:1 0:0 5:2 6:3 7:2 8:1 9:0");
#else
    CHECK_STREQ(h_order, "A H B A2");
    CHECK_STREQ(h_dispatches(), "0:1 0:0 5:2 6:3 7:1 8:2 9:0");
#endif
    CHECK_STREQ(h_events(TAKT_EV_PREEMPT, false), "5:0 6:2"); /* idle at 5, A at 6 */
    CHECK_EQ(takt_sem_delete(edf_tie_sem), TAKT_OK);
}

/* ---------------------------------------------------------------- a wake tells a non-preemptive task */

static takt_sem_t *np_sem;

static void np_high(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sem_take(np_sem, TAKT_WAIT_FOREVER), TAKT_OK);
    h_note("H");
    h_park();
}

static void np_low(void *arg)
{
    (void)arg;
    /* The run's first non-preemptive task: the mode made none (full
     * preemption), so only this call tells the wake to look at the running task. */
    CHECK_EQ(takt_task_set_preemptive(NULL, false), TAKT_OK);
    CHECK_EQ(takt_sched_lock(), TAKT_OK);
    CHECK(!takt_should_yield());
    CHECK_EQ(takt_sem_give(np_sem), TAKT_OK);
    /* The switch point waits for the unlock, so only the wake can say it. */
    CHECK(takt_should_yield());
    h_note("L");
    CHECK_EQ(takt_sched_unlock(), 0); /* non-preemptive: it keeps running */
    h_note("L2");
    takt_preemption_point(); /* H runs here */
    h_note("L3");
    h_park();
}

/* H (higher) waits on a semaphore; L, made non-preemptive at run time under
 * full preemption, gives it with the scheduler locked: takt_should_yield says
 * so at once, and H runs at L's preemption point, not before. */
static void scenario_wake_tells_nonpreemptive(takt_tick_t tick0)
{
    h_begin(tick0, 10, false);
    CHECK_EQ(takt_sem_create(1, 0, &np_sem), TAKT_OK);
    h_task("H", 3, np_high, NULL);
    h_task("L", 1, np_low, NULL);
    h_run();
    CHECK_STREQ(h_order, "L L2 H L3");
    CHECK_EQ(takt_sem_delete(np_sem), TAKT_OK);
}

/* ---------------------------------------------------------------- the running task's priority changes */

static takt_sem_t *raise_sem;

static void raise_h(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sem_take(raise_sem, TAKT_WAIT_FOREVER), TAKT_OK);
    h_note("H");
    h_park();
}

static void raise_a(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sched_lock(), TAKT_OK);
    CHECK_EQ(takt_sem_give(raise_sem), TAKT_OK); /* H is ready at 3; the switch waits */
    CHECK_EQ(takt_task_set_priority(NULL, 3), TAKT_OK);
    CHECK_EQ(takt_sched_unlock(), 0);
    h_note("A");
    CHECK_EQ(takt_task_set_priority(NULL, 1), TAKT_OK); /* H runs here */
    h_note("A2");
    h_park();
}

/* A running task raised to the level of a task waiting to run goes in
 * front of it (policy.h PREEMPTED: it was running first), so it goes on
 * after the unlock; H runs only when A drops back below it. */
static void scenario_raised_in_front(takt_tick_t tick0)
{
    h_begin(tick0, 5, false);
    CHECK_EQ(takt_sem_create(1, 0, &raise_sem), TAKT_OK);
    h_task("H", 3, raise_h, NULL);
    h_task("A", 1, raise_a, NULL);
    h_run();
    CHECK_STREQ(h_order, "A H A2");
    CHECK_EQ(takt_sem_delete(raise_sem), TAKT_OK);
}

static void demoted_b(void *arg)
{
    (void)arg;
    h_note("B");
    h_park();
}

static void demoted_a(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_task_set_preemptive(NULL, false), TAKT_OK);
    CHECK_EQ(takt_task_set_priority(NULL, 2), TAKT_OK);
    CHECK_EQ(takt_task_set_priority(NULL, 1), TAKT_OK);
    h_note("A");
    takt_preemption_point(); /* B is its equal: A goes on */
    h_note("A2");
    h_park();
}

/* A non-preemptive task that drops back to its equal B's level goes in
 * front of it (sched_requeue_running: only a task that may be preempted goes
 * behind its new equals), so its next preemption point does not let B run. */
static void scenario_demoted_nonpreemptive_in_front(takt_tick_t tick0)
{
    h_begin(tick0, 5, false);
    h_task("A", 1, demoted_a, NULL);
    h_task("B", 1, demoted_b, NULL);
    h_run();
    CHECK_STREQ(h_order, "A A2 B");
}

/* ---------------------------------------------------------------- a ready task's priority changes */

static takt_scheduler_t reprioritise_sched;
static takt_task_t *reprioritise_a;

static void named_then_park(void *arg)
{
    (void)arg;
    h_note(takt_task_name(NULL));
    h_park();
}

static void reprioritise_c(void *arg) /* the first to run: a deadline job under EDF */
{
    (void)arg;
    h_work(1); /* a later instant than A's and B's (on the sim, 0 is one instant) */
    CHECK_EQ(takt_task_set_priority(reprioritise_a, 1), TAKT_OK);
    CHECK_EQ(takt_task_set_priority(reprioritise_a, 2), TAKT_OK);
    h_note("C");
    h_park();
}

/* A and B wait at priority 2, A first (created first, both ready at 0); at 1
 * C lowers A's priority and raises it back. Under fp A is now behind its equal
 * B (FreeRTOS: a re-prioritised ready task goes to the back of its new
 * level). Under EDF priorities order nothing (A and B have no deadline: the
 * background FIFO), so A keeps its place (mutex.c apply_as,
 * sched_requeue_ready); before that rule A went behind B there too. */
static void scenario_reprioritise_ready(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = reprioritise_sched, .tick_start = tick0};
    h_begin_params(&init, 4);
    reprioritise_a = h_task("A", 2, named_then_park, NULL);
    h_task("B", 2, named_then_park, NULL);
    h_periodic("C", 3, reprioritise_c, NULL, 100, 50, 0);
    h_run();
    CHECK_STREQ(h_order, h_fixed_priority(reprioritise_sched) ? "C B A" : "C A B");
}

/* Runs a scenario (h_both) under each single-level policy (or only the EDF
 * ones), which it reads from *policy; its name gets the policy's. */
static void h_each_policy(void (*scenario)(takt_tick_t tick0), takt_scheduler_t *policy,
                          const char *name, bool edf_only)
{
    static const struct {
        takt_scheduler_t scheduler;
        const char *name;
    } policies[] = {{TAKT_SCHED_FP, "fp"},
                    {TAKT_SCHED_FP_LIST, "fp_list"},
                    {TAKT_SCHED_EDF_HEAP, "edf_heap"},
                    {TAKT_SCHED_EDF_MLIST, "edf_mlist"},
                    {TAKT_SCHED_EDF_RBTREE, "edf_rbtree"},
#ifdef TAKT_PORT_HWPQ_UNITS
                    {TAKT_SCHED_EDF_HWPQ, "edf_hwpq"},
                    {TAKT_SCHED_FP_HWPQ, "fp_hwpq"},
#endif
    };
    for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
        if (edf_only && h_fixed_priority(policies[i].scheduler)) {
            continue;
        }
        char full[64];
        snprintf(full, sizeof(full), "%s/%s", name, policies[i].name);
        *policy = policies[i].scheduler;
        h_both(scenario, full);
    }
}

int main(void)
{
#if HP_SUBTICK_WORK
    h_both(scenario_delay, "delay");
    h_both(scenario_delay_until, "delay_until");
#else
    /* Both end work between ticks (a block at 0.5, a late delay-until at 8.5):
     * the target models whole ticks of work only. */
    (void)scenario_delay;
    (void)scenario_delay_until;
#endif
    h_both(scenario_round_robin, "round_robin");
    h_both(scenario_no_round_robin, "no_round_robin");
    h_both(scenario_rr_same_instant, "rr_same_instant");
    h_both(scenario_rr_nonpreemptive_at_point, "rr_nonpreemptive_at_point");
    h_both(scenario_rr_nonpreemptive_no_point, "rr_nonpreemptive_no_point");
    h_both(scenario_fifo_ready_time, "fifo_ready_time");
    h_both(scenario_fifo_same_instant, "fifo_same_instant");
    h_both(scenario_preempted_first, "preempted_first");
    h_both(scenario_wake_tells_nonpreemptive, "wake_tells_nonpreemptive");
#if HP_SUBTICK_WORK
    h_both(scenario_irq_at_tick, "irq_at_tick");
#else
    /* Its interrupt at 4.999 hits work that ends on tick 5, which the port
     * already holds at the tick's instant (docs/ports.md, modelled work). */
    (void)scenario_irq_at_tick;
#endif
    h_both(scenario_yield_behind_all, "yield_behind_all");
    h_both(scenario_raised_in_front, "raised_in_front");
    h_both(scenario_demoted_nonpreemptive_in_front, "demoted_nonpreemptive_in_front");
    h_each_policy(scenario_same_instant_any_policy, &same_instant_sched, "same_instant", false);
    h_each_policy(scenario_tick_paths_same_instant, &tick_paths_sched, "tick_paths_same_instant",
                  false);
    h_each_policy(scenario_held_call_shares_tick, &tick_paths_sched, "held_call_shares_tick",
                  false);
    h_each_policy(scenario_tick_paths_wake_first, &tick_paths_sched, "tick_paths_wake_first",
                  false);
    h_each_policy(scenario_yield_same_instant, &yield_sched, "yield_same_instant", false);
    h_each_policy(scenario_running_stays_in_front, &front_sched, "running_stays_in_front", false);
    h_each_policy(scenario_yield, &yield_sched_any, "yield", false);
    h_each_policy(scenario_edf_equal_deadline_waits, &front_sched, "edf_equal_deadline_waits",
                  true);
    h_each_policy(scenario_reprioritise_ready, &reprioritise_sched, "reprioritise_ready", false);
    (void)work1_then_park;
    return CHECK_SUMMARY();
}
