/*
 * Task services on the sim port: creation (dynamic and static), state and
 * priority queries, argument and context errors (which must change nothing),
 * deletion, suspend/resume (also from an injected interrupt), priorities.
 * Every scenario runs with the tick counter at 0 and just below wraparound.
 */
#include "harness.h"
#ifdef TAKT_PORT_HWPQ_UNITS
#include "takt_sim.h" /* the hardware queue's depth */
#endif

#define STATIC_STACK HP_STACK

static takt_task_t tcb[4];
static uint8_t stacks[4][STATIC_STACK] __attribute__((aligned(16)));

static void park_body(void *arg)
{
    (void)arg;
    h_park();
}

/* ---------------------------------------------------------------- create/state */

static takt_task_t *cs_a;
static int cs_b_steps, cs_a_steps;

static void cs_body_b(void *arg)
{
    (void)arg;
    CHECK(takt_task_self() == &tcb[0]);
    CHECK_EQ(takt_task_state(NULL), TAKT_TASK_RUNNING);
    CHECK_EQ(takt_task_state(&tcb[0]), TAKT_TASK_RUNNING);
    CHECK_EQ(takt_task_state(cs_a), TAKT_TASK_READY);
    CHECK_EQ(takt_task_get_priority(NULL), 3);
    CHECK_EQ(takt_task_id(NULL), 2);
    CHECK_STREQ(takt_task_name(NULL), "B");
    cs_b_steps++;
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(hp_now_ns(), T(2));
    CHECK_EQ(h_now_ticks(), 2);
    CHECK_EQ(takt_task_state(cs_a), TAKT_TASK_BLOCKED);
    cs_b_steps++;
    CHECK_EQ(takt_task_suspend(NULL), TAKT_OK);
    cs_b_steps++; /* never: nobody resumes B */
}

static void cs_body_a(void *arg)
{
    CHECK_EQ((uintptr_t)arg, 0xA);
    CHECK_EQ(hp_now_ns(), 0);
    CHECK_EQ(takt_task_state(&tcb[0]), TAKT_TASK_BLOCKED);
    cs_a_steps++;
    takt_delay(5);
    CHECK_EQ(hp_now_ns(), T(5));
    CHECK_EQ(takt_task_state(&tcb[0]), TAKT_TASK_SUSPENDED);
    cs_a_steps++;
    h_park();
}

static void scenario_create_state(takt_tick_t tick0)
{
    h_begin(tick0, 8, false);
    cs_b_steps = cs_a_steps = 0;
    CHECK(takt_task_self() == NULL);
    cs_a = h_task("A", 2, cs_body_a, (void *)0xA);
    takt_task_params_t pb = {.name = "B", .entry = cs_body_b, .priority = 3};
    CHECK_EQ(takt_task_create_static(&pb, &tcb[0], stacks[0], STATIC_STACK), TAKT_OK);
    /* a long name is cut to TAKT_CONFIG_MAX_NAME_LEN - 1 bytes; no name is "" */
    takt_task_params_t pc = {.name = "a-rather-long-task-name", .entry = park_body,
                             .priority = 1, .stack_size = H_STACK};
    takt_task_t *c = NULL;
    CHECK_EQ(takt_task_create(&pc, &c), TAKT_OK);
    CHECK_STREQ(takt_task_name(c), "a-rather-long-t");
    pc.name = NULL;
    takt_task_t *d = NULL;
    CHECK_EQ(takt_task_create(&pc, &d), TAKT_OK);
    CHECK_STREQ(takt_task_name(d), "");

    CHECK_EQ(takt_task_id(cs_a), 1);
    CHECK_EQ(takt_task_id(&tcb[0]), 2);
    CHECK_EQ(takt_task_id(d), 4);
    CHECK_EQ(takt_task_state(cs_a), TAKT_TASK_READY);
    CHECK_EQ(takt_task_state(&tcb[0]), TAKT_TASK_READY);
    CHECK_EQ(takt_task_get_priority(cs_a), 2);
    CHECK_EQ(takt_task_get_priority(&tcb[0]), 3);
    CHECK_STREQ(takt_task_name(cs_a), "A");
    CHECK_EQ(takt_tick_count(), tick0);

    h_start();
    CHECK_EQ(cs_b_steps, 2);
    CHECK_EQ(cs_a_steps, 2);
    CHECK_EQ(takt_task_state(cs_a), TAKT_TASK_SUSPENDED);
    CHECK_EQ(takt_task_state(&tcb[0]), TAKT_TASK_SUSPENDED);
    CHECK_EQ(takt_tick_count(), tick0 + 7u);
    /* B first (highest), A when B blocks, C and D (prio 1, they park), idle; B at 2; A at 5 */
    CHECK_STREQ(h_dispatches(), "0:2 0:1 0:3 0:4 0:0 2:2 2:0 5:1 5:0");
    /* the idle task is created at priority 0 */
    CHECK_STREQ(h_events(TAKT_EV_TASK_CREATE, true), "0:0/0 0:1/2 0:2/3 0:3/1 0:4/1");
    h_end();
}

/* ---------------------------------------------------------------- bad arguments */

static takt_task_t *ba_g;
static int isr_results[16];
static int ba_done;

static void spin_body(void *arg)
{
    (void)arg;
    for (;;) {
        h_work(1);
    }
}

static void ba_isr(void *arg)
{
    (void)arg;
    int *r = isr_results;
    takt_task_params_t p = {.name = "x", .entry = park_body, .priority = 2, .stack_size = H_STACK};
    takt_task_t *out = NULL;
    *r++ = takt_task_create(&p, &out); /* must not allocate: ASan would see a leak */
    *r++ = takt_task_create_static(&p, &tcb[2], stacks[2], STATIC_STACK);
    *r++ = takt_delay(1);
    takt_tick_t prev = takt_tick_count();
    *r++ = takt_delay_until(&prev, 1);
    *r++ = takt_task_delete(ba_g);
    *r++ = takt_task_suspend(ba_g);
    *r++ = takt_task_resume(ba_g);
    *r++ = takt_job_end();
    *r++ = takt_task_self() == NULL;
    *r++ = takt_task_resume_from_isr(ba_g); /* in an ISR now, but ba_g is running */
    CHECK(out == NULL);
}

static void ba_checker(void *arg)
{
    (void)arg;
    h_drain();
    size_t events_before = h_log_n;
    takt_tick_t prev = takt_tick_count();

    CHECK_EQ(takt_task_resume(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_resume(takt_task_self()), TAKT_ERR_STATE); /* running */
    CHECK_EQ(takt_task_resume(ba_g), TAKT_ERR_STATE);             /* ready */
    CHECK_EQ(takt_task_resume_from_isr(ba_g), TAKT_ERR_STATE); /* the task's call: ready */
    CHECK_EQ(takt_job_end(), TAKT_ERR_STATE);
    CHECK_EQ(takt_delay_until(NULL, 1), TAKT_ERR_ARG);
    CHECK_EQ(takt_delay_until(&prev, 0), TAKT_ERR_ARG);
    CHECK_EQ(prev, takt_tick_count());
    CHECK_EQ(takt_task_set_priority(ba_g, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_set_priority(ba_g, TAKT_CONFIG_MAX_PRIORITIES), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_set_priority(NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_set_priority(takt_kernel.idle, 3), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_delete(takt_kernel.idle), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_suspend(takt_kernel.idle), TAKT_ERR_ARG);

    /* a deleted (static) handle is refused everywhere */
    takt_task_params_t p = {.name = "gone", .entry = park_body, .priority = 1};
    CHECK_EQ(takt_task_create_static(&p, &tcb[1], stacks[1], STATIC_STACK), TAKT_OK);
    CHECK_EQ(takt_task_delete(&tcb[1]), TAKT_OK);
    h_drain();
    size_t events_mid = h_log_n;
    CHECK_EQ(takt_task_delete(&tcb[1]), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_suspend(&tcb[1]), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_resume(&tcb[1]), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_set_priority(&tcb[1], 2), TAKT_ERR_ARG);
    CHECK(takt_task_get_priority(&tcb[1]) < 0);
    CHECK_EQ(takt_task_state(&tcb[1]), TAKT_TASK_DELETED);
    CHECK_EQ(takt_task_stack_high_water(&tcb[1]), 0);
    CHECK_EQ(takt_task_id(&tcb[1]), -1);
    CHECK(takt_task_name(&tcb[1]) == NULL);

    /* nothing above changed anything: no trace event, same state and priority */
    h_drain();
    CHECK_EQ(h_log_n, events_mid);
    CHECK_EQ(events_mid - events_before, 2); /* create and delete of "gone" */
    CHECK_EQ(takt_task_state(ba_g), TAKT_TASK_READY);
    CHECK_EQ(takt_task_get_priority(ba_g), 1);
    CHECK_EQ(takt_task_get_priority(NULL), 5);

    takt_delay(3); /* the interrupt at 2.5 ticks finds ba_g running */
    ba_done = 1;
    h_park();
}

static void scenario_bad_args(takt_tick_t tick0)
{
    h_begin(tick0, 6, false);
    ba_done = 0;
    memset(isr_results, 0x7F, sizeof(isr_results));
    /* Values outside the enumerations: an unknown preemption mode, an unknown scheduler. */
    takt_init_params_t bad = {.tick_start = 5, .preemption = (takt_preemption_t)7};
    CHECK_EQ(takt_init(&bad), TAKT_ERR_ARG);
    bad.preemption = TAKT_PREEMPT_FULL;
    bad.scheduler = (takt_scheduler_t)9;
    CHECK_EQ(takt_init(&bad), TAKT_ERR_ARG);
    /* The hardware queue's schedulers: refused where the port has no device,
     * and where its device is one entry too shallow: EDF's holds
     * TAKT_CONFIG_MAX_TASKS jobs, fixed priority's every task level. */
    static const struct {
        takt_scheduler_t scheduler;
        uint32_t needs;
    } on_device[] = {{TAKT_SCHED_EDF_HWPQ, TAKT_CONFIG_MAX_TASKS},
                     {TAKT_SCHED_FP_HWPQ, TAKT_CONFIG_MAX_PRIORITIES - 1}};
    for (size_t i = 0; i < sizeof(on_device) / sizeof(on_device[0]); i++) {
        bad.scheduler = on_device[i].scheduler;
#ifdef TAKT_PORT_HWPQ_UNITS
        CHECK_EQ(takt_sim_hwpq_configure(0, on_device[i].needs - 1u), TAKT_OK);
        CHECK_EQ(takt_init(&bad), TAKT_ERR_ARG);
        CHECK_EQ(takt_sim_hwpq_configure(0, HWPQ_MODEL_MAX_DEPTH), TAKT_OK);
#else
        (void)on_device[i].needs;
        CHECK_EQ(takt_init(&bad), TAKT_ERR_ARG);
#endif
    }
    CHECK_EQ(takt_tick_count(), tick0); /* the failed init changed nothing */

    takt_task_params_t good = {.name = "g", .entry = spin_body, .priority = 1,
                               .stack_size = H_STACK};
    takt_task_params_t p;
    takt_task_t *const sentinel = (takt_task_t *)(uintptr_t)0x10;
    takt_task_t *out = sentinel;
    CHECK_EQ(takt_task_create(NULL, &out), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_create(&good, NULL), TAKT_ERR_ARG);
    p = good, p.entry = NULL;
    CHECK_EQ(takt_task_create(&p, &out), TAKT_ERR_ARG);
    p = good, p.priority = 0;
    CHECK_EQ(takt_task_create(&p, &out), TAKT_ERR_ARG);
    p = good, p.priority = TAKT_CONFIG_MAX_PRIORITIES;
    CHECK_EQ(takt_task_create(&p, &out), TAKT_ERR_ARG);
    p = good, p.stack_size = port_min_stack_size(); /* below the minimum plus the guard */
    CHECK_EQ(takt_task_create(&p, &out), TAKT_ERR_ARG);
    p = good, p.stack_size = 0;
    CHECK_EQ(takt_task_create(&p, &out), TAKT_ERR_ARG);
    p = good, p.deadline = 5; /* not periodic */
    CHECK_EQ(takt_task_create(&p, &out), TAKT_ERR_ARG);
    p = good, p.offset = 3; /* not periodic */
    CHECK_EQ(takt_task_create(&p, &out), TAKT_ERR_ARG);
    p = good, p.period = 0x80000000u;
    CHECK_EQ(takt_task_create(&p, &out), TAKT_ERR_ARG);
    p = good, p.period = 10, p.deadline = 0x80000000u;
    CHECK_EQ(takt_task_create(&p, &out), TAKT_ERR_ARG);
    /* a relative deadline of 2^31 - 1: its miss check would fall outside the half range */
    p = good, p.period = 0x7FFFFFFFu; /* the deadline is the period */
    CHECK_EQ(takt_task_create(&p, &out), TAKT_ERR_ARG);
    p = good, p.period = 10, p.deadline = 0x7FFFFFFFu;
    CHECK_EQ(takt_task_create(&p, &out), TAKT_ERR_ARG);
    CHECK(out == sentinel);

    /* static: the control block is not touched by a refused create */
    static takt_task_t pattern;
    memset(&pattern, 0x5A, sizeof(pattern));
    memcpy(&tcb[0], &pattern, sizeof(pattern));
    CHECK_EQ(takt_task_create_static(NULL, &tcb[0], stacks[0], STATIC_STACK), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_create_static(&good, NULL, stacks[0], STATIC_STACK), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_create_static(&good, &tcb[0], NULL, STATIC_STACK), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_create_static(&good, &tcb[0], stacks[0], port_min_stack_size()),
             TAKT_ERR_ARG);
    p = good, p.entry = NULL;
    CHECK_EQ(takt_task_create_static(&p, &tcb[0], stacks[0], STATIC_STACK), TAKT_ERR_ARG);
    p = good, p.priority = 0;
    CHECK_EQ(takt_task_create_static(&p, &tcb[0], stacks[0], STATIC_STACK), TAKT_ERR_ARG);
    p = good, p.deadline = 1;
    CHECK_EQ(takt_task_create_static(&p, &tcb[0], stacks[0], STATIC_STACK), TAKT_ERR_ARG);
    CHECK(memcmp(&tcb[0], &pattern, sizeof(pattern)) == 0);

    /* before start: no calling task, no blocking */
    takt_tick_t prev = 0;
    CHECK_EQ(takt_delay(1), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_delay_until(&prev, 1), TAKT_ERR_CONTEXT);
    CHECK_EQ(prev, 0);
    CHECK_EQ(takt_job_end(), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_task_delete(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_suspend(NULL), TAKT_ERR_ARG);
    CHECK(takt_task_get_priority(NULL) < 0);
    CHECK_EQ(takt_task_state(NULL), TAKT_TASK_DELETED);
    CHECK_EQ(takt_task_delete(takt_kernel.idle), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_suspend(takt_kernel.idle), TAKT_ERR_ARG);
    takt_yield(); /* no-op */

    /* nothing was created: only the idle task so far */
    h_drain();
    CHECK_EQ(h_count(TAKT_EV_TASK_CREATE, -1), 1);

    ba_g = h_task("g", 1, spin_body, NULL);
    CHECK_EQ(takt_task_id(ba_g), 1); /* refused creates used no id */
    takt_task_params_t pc = {.name = "checker", .entry = ba_checker, .priority = 5};
    CHECK_EQ(takt_task_create_static(&pc, &tcb[0], stacks[0], STATIC_STACK), TAKT_OK);
    /* reusing a live control block */
    memcpy(&pattern, &tcb[0], sizeof(pattern));
    CHECK_EQ(takt_task_create_static(&good, &tcb[0], stacks[3], STATIC_STACK), TAKT_ERR_STATE);
    CHECK(memcmp(&tcb[0], &pattern, sizeof(pattern)) == 0);
    CHECK_EQ(takt_task_id(&tcb[0]), 2);

    CHECK_EQ(hp_inject_irq(2500, 6, ba_isr, NULL), TAKT_OK);
    h_start();
    CHECK_EQ(ba_done, 1);
    const int expect_isr[] = {TAKT_ERR_CONTEXT, TAKT_ERR_CONTEXT, TAKT_ERR_CONTEXT,
                              TAKT_ERR_CONTEXT, TAKT_ERR_CONTEXT, TAKT_ERR_CONTEXT,
                              TAKT_ERR_CONTEXT, TAKT_ERR_CONTEXT, 1, TAKT_ERR_STATE};
    for (size_t i = 0; i < sizeof(expect_isr) / sizeof(expect_isr[0]); i++) {
        if (!CHECK_EQ(isr_results[i], expect_isr[i])) {
            fprintf(stderr, "  (interrupt-context call %zu)\n", i);
        }
    }
    CHECK_EQ(takt_task_state(ba_g), TAKT_TASK_RUNNING); /* untouched by the ISR */
    CHECK_EQ(h_count(TAKT_EV_TASK_CREATE, -1), 4);
    CHECK_EQ(h_count(TAKT_EV_DELETE, -1), 1);
    h_end();
}

/* ---------------------------------------------------------------- delete */

static takt_task_t *del_b, *del_d;
static int del_d_after, del_g_ran, del_f_done;

static void del_c_body(void *arg) /* prio 5, static tcb[0] */
{
    (void)arg;
    takt_delay(3);
    CHECK(!"a deleted task woke up");
    h_park();
}

static void del_a_body(void *arg) /* prio 4 */
{
    (void)arg;
    CHECK_EQ(takt_task_state(&tcb[0]), TAKT_TASK_BLOCKED);
    CHECK_EQ(takt_task_delete(del_b), TAKT_OK); /* ready, never ran; freed now */
    h_work(1);
    CHECK_EQ(takt_task_delete(&tcb[0]), TAKT_OK); /* blocked in a delay */
    CHECK_EQ(takt_task_state(&tcb[0]), TAKT_TASK_DELETED);
    takt_delay(10);
    h_park();
}

static void del_d_body(void *arg) /* prio 3, dynamic: deletes itself */
{
    (void)arg;
    CHECK(takt_task_self() == del_d);
    takt_task_delete(NULL);
    del_d_after = 1;
}

static void del_e_body(void *arg) /* prio 3, static tcb[1]: returns */
{
    (void)arg;
}

static void del_g_body(void *arg) /* prio 2, static, in tcb[1] again */
{
    (void)arg;
    del_g_ran = 1;
}

static void del_f_body(void *arg) /* prio 2 */
{
    (void)arg;
    CHECK_EQ(hp_now_ns(), T(1));
    CHECK_EQ(takt_task_state(&tcb[1]), TAKT_TASK_DELETED);
    /* E's control block is free again at once, before the idle task ran */
    takt_task_params_t p = {.name = "G", .entry = del_g_body, .priority = 2};
    CHECK_EQ(takt_task_create_static(&p, &tcb[1], stacks[1], STATIC_STACK), TAKT_OK);
    takt_delay(2);
    del_f_done = 1;
    h_park();
}

static void del_b_body(void *arg)
{
    (void)arg;
    CHECK(!"a deleted task ran");
    h_park();
}

static void scenario_delete(takt_tick_t tick0)
{
    h_begin(tick0, 12, false);
    del_d_after = del_g_ran = del_f_done = 0;
    takt_task_params_t pc = {.name = "C", .entry = del_c_body, .priority = 5};
    CHECK_EQ(takt_task_create_static(&pc, &tcb[0], stacks[0], STATIC_STACK), TAKT_OK); /* 1 */
    h_task("A", 4, del_a_body, NULL);                                                 /* 2 */
    del_b = h_task("B", 2, del_b_body, NULL);                                         /* 3 */
    del_d = h_task("D", 3, del_d_body, NULL);                                         /* 4 */
    takt_task_params_t pe = {.name = "E", .entry = del_e_body, .priority = 3};
    CHECK_EQ(takt_task_create_static(&pe, &tcb[1], stacks[1], STATIC_STACK), TAKT_OK); /* 5 */
    h_task("F", 2, del_f_body, NULL);                                                 /* 6 */
    h_start();
    CHECK_EQ(del_d_after, 0);
    CHECK_EQ(del_g_ran, 1);
    CHECK_EQ(del_f_done, 1);
    CHECK_EQ(h_count(TAKT_EV_DISPATCH, 3), 0);
    CHECK_EQ(h_count(TAKT_EV_DISPATCH, 1), 1);
    /* B at 0, C at 1, D and E (ended) at 1, G (ended) at 1 */
    CHECK_STREQ(h_events(TAKT_EV_DELETE, false), "0:3 1:1 1:4 1:5 1:7");
    CHECK_STREQ(h_dispatches(), "0:1 0:2 1:4 1:5 1:6 1:7 1:0 3:6 3:0 11:2 11:0");
    h_end();
}

/* A task that deleted itself is freed by the next task creation when the
 * idle task cannot run (a busy task above it). */

static int rc_worker_ends;

static void rc_worker_body(void *arg) /* prio 3, dynamic: deletes itself */
{
    (void)arg;
    rc_worker_ends++;
    takt_task_delete(NULL);
}

static void rc_busy_body(void *arg) /* prio 1: never blocks, the idle task never runs */
{
    (void)arg;
    takt_task_params_t p = {.name = "W", .entry = rc_worker_body, .priority = 3,
                            .stack_size = H_STACK};
    takt_task_t *worker = NULL;
    for (int round = 0; round < 3; round++) {
        CHECK_EQ(takt_task_create(&p, &worker), TAKT_OK); /* runs and ends at once */
        CHECK_EQ(rc_worker_ends, round + 1);
        CHECK(takt_list_first(&takt_kernel.reclaim) != NULL); /* its memory waits */
    }
    h_work(1);
    CHECK(takt_list_first(&takt_kernel.reclaim) != NULL); /* the idle task did not run */
    CHECK_EQ(takt_task_create(&p, &worker), TAKT_OK);
    /* only the newest worker waits: the create freed the others first */
    takt_list_node_t *first = takt_list_first(&takt_kernel.reclaim);
    CHECK(first != NULL && first->next == &takt_kernel.reclaim);
    for (;;) {
        h_work(1); /* busy to the end of the run */
    }
}

static void scenario_reclaim_without_idle(takt_tick_t tick0)
{
    h_begin(tick0, 4, false);
    rc_worker_ends = 0;
    h_task("B", 1, rc_busy_body, NULL);
    h_run();
    CHECK_EQ(rc_worker_ends, 4);
    CHECK_EQ(h_count(TAKT_EV_DISPATCH, 0), 0); /* idle never dispatched */
}

/* ---------------------------------------------------------------- suspend/resume */

static takt_task_t *sr_a, *sr_b, *sr_c;
static uint64_t sr_a_resumed_at, sr_c_woke_at, sr_b_resumed_at;
static int sr_b_after_resume;

static void sr_c_body(void *arg) /* prio 5 */
{
    (void)arg;
    takt_delay(3); /* cancelled by a suspend at 2 */
    sr_c_woke_at = hp_now_ns();
    h_park();
}

static void sr_a_body(void *arg) /* prio 4 */
{
    (void)arg;
    CHECK_EQ(takt_task_suspend(NULL), TAKT_OK);
    sr_a_resumed_at = hp_now_ns();
    CHECK_EQ(sr_b_after_resume, 0); /* preempted B at once */
    CHECK_EQ(takt_task_state(sr_b), TAKT_TASK_READY);
    CHECK_EQ(takt_task_state(sr_c), TAKT_TASK_BLOCKED);
    CHECK_EQ(takt_task_suspend(sr_c), TAKT_OK);
    CHECK_EQ(takt_task_suspend(sr_b), TAKT_OK);
    CHECK_EQ(takt_task_suspend(sr_b), TAKT_OK); /* already suspended: no change */
    CHECK_EQ(takt_task_state(sr_b), TAKT_TASK_SUSPENDED);
    CHECK_EQ(takt_task_state(sr_c), TAKT_TASK_SUSPENDED);
    takt_delay(3); /* 2..5: nothing but idle */
    CHECK_EQ(takt_task_resume(sr_c), TAKT_OK); /* C (prio 5) runs before this returns */
    CHECK_EQ(sr_c_woke_at, T(5));
    CHECK_EQ(takt_task_resume(sr_b), TAKT_OK);
    CHECK_EQ(takt_task_resume(sr_b), TAKT_ERR_STATE);
    CHECK_EQ(takt_task_state(sr_b), TAKT_TASK_READY);
    h_park();
}

static void sr_b_body(void *arg) /* prio 3 */
{
    (void)arg;
    h_work(2);
    CHECK_EQ(takt_task_resume(sr_a), TAKT_OK);
    sr_b_after_resume = 1;
    sr_b_resumed_at = hp_now_ns(); /* after its own suspension, at 5 */
    h_work(1);
    h_park();
}

static void scenario_suspend_resume(takt_tick_t tick0)
{
    h_begin(tick0, 10, false);
    sr_a_resumed_at = sr_c_woke_at = sr_b_resumed_at = 0;
    sr_b_after_resume = 0;
    sr_c = h_task("C", 5, sr_c_body, NULL);
    sr_a = h_task("A", 4, sr_a_body, NULL);
    sr_b = h_task("B", 3, sr_b_body, NULL);
    h_start();
    CHECK_EQ(sr_a_resumed_at, T(2));
    CHECK_EQ(sr_c_woke_at, T(5));
    CHECK_EQ(sr_b_resumed_at, T(5));
    CHECK_STREQ(h_dispatches(), "0:1 0:2 0:3 2:2 2:0 5:2 5:1 5:2 5:3 6:0");
    CHECK_STREQ(h_events(TAKT_EV_SUSPEND, false), "0:2 2:1 2:3 5:1 5:2 6:3");
    CHECK_STREQ(h_events(TAKT_EV_RESUME, false), "2:2 5:1 5:3");
    CHECK_STREQ(h_events(TAKT_EV_PREEMPT, false), "2:3 5:0 5:2");
    h_end();
}

/* ---------------------------------------------------------------- resume from ISR */

static takt_task_t *ri_h, *ri_l;
static uint64_t ri_h_at[2], ri_l_end;
static int ri_h_runs, ri_h_runs_seen;
static int ri_results[3];
static int ri_outside;

static void ri_isr(void *arg)
{
    (void)arg;
    ri_results[0] = takt_task_resume_from_isr(ri_h);
    ri_results[1] = takt_task_resume_from_isr(ri_l); /* running, not suspended */
    ri_results[2] = takt_task_resume_from_isr(NULL);
}

static void ri_h_body(void *arg) /* prio 4 */
{
    (void)arg;
    for (;;) {
        takt_task_suspend(NULL);
        ri_h_at[ri_h_runs++] = hp_now_ns();
        if (ri_h_runs == 2) {
            h_park();
        }
    }
}

static void ri_l_body(void *arg) /* prio 1 */
{
    (void)arg;
    /* From a task, the interrupt's resume is the task's (takt/sync.h): H
     * runs, and suspends itself again, before the call returns. */
    ri_outside = takt_task_resume_from_isr(ri_h);
    ri_h_runs_seen = ri_h_runs;
    CHECK_EQ(takt_task_state(ri_h), TAKT_TASK_SUSPENDED);
    h_work(10);
    ri_l_end = hp_now_ns();
    h_park();
}

static void scenario_resume_from_isr(takt_tick_t tick0)
{
    h_begin(tick0, 15, false);
    ri_h_at[0] = ri_h_at[1] = ri_l_end = 0;
    ri_h_runs = ri_h_runs_seen = 0;
    ri_h = h_task("H", 4, ri_h_body, NULL);
    ri_l = h_task("L", 1, ri_l_body, NULL);
    CHECK_EQ(hp_inject_irq(3500, 9, ri_isr, (void *)0x99), TAKT_OK);
    h_start();
    CHECK_EQ(ri_outside, TAKT_OK);
    CHECK_EQ(ri_h_runs_seen, 1);
    CHECK_EQ(ri_h_at[0], 0);
    CHECK_EQ(ri_results[0], TAKT_OK);
    CHECK_EQ(ri_results[1], TAKT_ERR_STATE);
    CHECK_EQ(ri_results[2], TAKT_ERR_ARG);
    CHECK_EQ(ri_h_at[1], 3500); /* the switch happens at interrupt exit, same instant */
    CHECK_EQ(ri_l_end, T(10)); /* H took no time */
    CHECK_STREQ(h_events(TAKT_EV_ISR_ENTER, true), "3500ns:-1/9");
    CHECK_STREQ(h_events(TAKT_EV_ISR_EXIT, true), "3500ns:-1/9");
    CHECK_STREQ(h_dispatches(), "0:1 0:2 0:1 0:2 3500ns:1 3500ns:2 10:0");
    long enter = h_find(TAKT_EV_ISR_ENTER, -1, 0), resume = h_find(TAKT_EV_RESUME, 1, 1),
         exit_ = h_find(TAKT_EV_ISR_EXIT, -1, 0), preempt = h_find(TAKT_EV_PREEMPT, 2, 1);
    CHECK(h_find(TAKT_EV_RESUME, 1, 0) < enter);
    CHECK(enter >= 0 && enter < resume && resume < exit_ && exit_ < preempt);
    h_end();
}

/* ---------------------------------------------------------------- priorities */

static takt_task_t *pr_l, *pr_r, *pr_s;
static int pr_r_ran, pr_r_after_lower, pr_l_saw;

static void pr_r_body(void *arg) /* prio 1, raised to 5 by L */
{
    (void)arg;
    pr_r_ran = 1;
    CHECK_EQ(takt_task_get_priority(NULL), 5);
    CHECK_EQ(takt_task_set_priority(NULL, 1), TAKT_OK); /* L (2) runs before this returns */
    CHECK_EQ(pr_l_saw, 1);
    pr_r_after_lower = 1;
    h_park();
}

static void pr_s_body(void *arg) /* prio 3, blocked while its priority changes */
{
    (void)arg;
    takt_delay(2);
    CHECK_EQ(takt_task_get_priority(NULL), 1);
    h_park();
}

static void pr_l_body(void *arg) /* prio 2 */
{
    (void)arg;
    CHECK_EQ(takt_task_state(pr_s), TAKT_TASK_BLOCKED);
    CHECK_EQ(takt_task_get_priority(pr_r), 1);
    CHECK_EQ(takt_task_set_priority(pr_r, 5), TAKT_OK); /* R preempts at once */
    CHECK_EQ(pr_r_ran, 1);
    CHECK_EQ(pr_r_after_lower, 0);
    CHECK_EQ(takt_task_get_priority(pr_r), 1);
    pr_l_saw = 1;
    CHECK_EQ(takt_task_set_priority(NULL, 2), TAKT_OK); /* unchanged: no event */
    CHECK_EQ(takt_task_set_priority(pr_s, 1), TAKT_OK); /* blocked task */
    CHECK_EQ(takt_task_get_priority(pr_s), 1);
    takt_delay(1);
    CHECK_EQ(pr_r_after_lower, 1);
    /* S woke at 2 with priority 1: it waits behind R? No: R parked. L still runs first. */
    takt_delay(2);
    h_park();
}

static void scenario_priorities(takt_tick_t tick0)
{
    h_begin(tick0, 6, false);
    pr_r_ran = pr_r_after_lower = pr_l_saw = 0;
    pr_s = h_task("S", 3, pr_s_body, NULL); /* 1 */
    pr_l = h_task("L", 2, pr_l_body, NULL); /* 2 */
    pr_r = h_task("R", 1, pr_r_body, NULL); /* 3 */
    h_start();
    CHECK_EQ(pr_r_after_lower, 1);
    CHECK_STREQ(h_events(TAKT_EV_PRIORITY, true), "0:3/5 0:3/1 0:1/1");
    CHECK_STREQ(h_dispatches(), "0:1 0:2 0:3 0:2 0:3 0:0 1:2 1:0 2:1 2:0 3:2 3:0");
    h_end();
}

#ifdef TAKT_PORT_HWPQ_UNITS
/* Fixed priority over a device exactly as deep as the task levels: a task
 * at every level, all ready at once, runs highest first, and the device
 * took each level once (the levels are its entries, not the tasks). */
static char el_order[TAKT_CONFIG_MAX_PRIORITIES];
static size_t el_n;

static void el_body(void *arg)
{
    (void)arg;
    el_order[el_n++] = (char)takt_task_get_priority(NULL);
    h_park();
}

static void scenario_fp_hwpq_every_level(takt_tick_t tick0)
{
    CHECK_EQ(takt_sim_hwpq_configure(0, TAKT_CONFIG_MAX_PRIORITIES - 1), TAKT_OK);
    takt_init_params_t init = {.scheduler = TAKT_SCHED_FP_HWPQ, .tick_start = tick0,
                               .preemption = TAKT_PREEMPT_FULL};
    h_begin_params(&init, 2);
    el_n = 0;
    for (unsigned p = 1; p < TAKT_CONFIG_MAX_PRIORITIES; p++) {
        (void)h_task("L", p, el_body, NULL);
    }
    /* the lowest level twice: its second task enters no new entry */
    (void)h_task("L", 1, el_body, NULL);
    h_run();
    CHECK_EQ(el_n, (size_t)TAKT_CONFIG_MAX_PRIORITIES);
    for (size_t i = 0; i + 1 < TAKT_CONFIG_MAX_PRIORITIES; i++) {
        CHECK_EQ(el_order[i], (char)(TAKT_CONFIG_MAX_PRIORITIES - 1 - i));
    }
    CHECK_EQ(el_order[TAKT_CONFIG_MAX_PRIORITIES - 1], 1);
    hwpq_model_counts_t counts;
    CHECK_EQ(takt_sim_hwpq_counts(0, &counts), TAKT_OK);
    CHECK_EQ(counts.inserts, (uint64_t)(TAKT_CONFIG_MAX_PRIORITIES - 1));
    CHECK_EQ(counts.removes, (uint64_t)(TAKT_CONFIG_MAX_PRIORITIES - 1));
    CHECK_EQ(takt_sim_hwpq_configure(0, HWPQ_MODEL_MAX_DEPTH), TAKT_OK);
}
#endif

int main(void)
{
    h_both(scenario_create_state, "create_state");
    h_both(scenario_bad_args, "bad_args");
    h_both(scenario_delete, "delete");
    h_both(scenario_reclaim_without_idle, "reclaim_without_idle");
    h_both(scenario_suspend_resume, "suspend_resume");
    h_both(scenario_resume_from_isr, "resume_from_isr");
    h_both(scenario_priorities, "priorities");
#ifdef TAKT_PORT_HWPQ_UNITS
    h_both(scenario_fp_hwpq_every_level, "fp_hwpq_every_level");
#endif
    return CHECK_SUMMARY();
}
