/*
 * Two-level hierarchical scheduling (SCHEDULING.md "Two-level hierarchical
 * scheduling") on the sim port: the worked example for idling and deferrable
 * servers as whole timelines rebuilt from the trace, budgets (REPLENISH,
 * DEPLETE, SWITCH events, remaining budget, statistics), a deferrable server
 * whose task blocks, the global order (priority, then creation), servers
 * created while running, and every API error leaving the kernel unchanged.
 * Timeline scenarios run with the tick counter at 0, just below 2^32 and just
 * below 2^31 (h_both): the traces must be identical, so budgets deplete and
 * replenish correctly across the wraparound.
 */
#include "harness.h"
#include "hsf_common.h"

/* ---------------------------------------------------------------- helpers */

static void hsf_begin(takt_tick_t tick0, uint64_t end_ticks)
{
    takt_init_params_t init = {.scheduler = TAKT_SCHED_HSF, .tick_start = tick0,
                               .preemption = TAKT_PREEMPT_FULL};
    h_begin_params(&init, end_ticks);
}

/* A task of server s with the given period (implicit deadline, no offset). */
static takt_task_t *server_task(takt_server_t *s, const char *name, unsigned priority,
                                void (*entry)(void *), void *arg, takt_tick_t period)
{
    return hsf_task_full(s, name, priority, entry, arg, period, 0, 0);
}

/* A periodic job of wcet ticks (the argument). */
static void job_loop(void *arg)
{
    uint64_t wcet = (uint64_t)(uintptr_t)arg;
    for (;;) {
        h_work(wcet);
        takt_job_end();
    }
}

#define WCET(n) ((void *)(uintptr_t)(n))

/*
 * The timeline as the toolkit draws it: rows split on every SERVER_SWITCH and
 * DISPATCH, the server column named by the latest SERVER_SWITCH ("idle" for
 * the idle server), the job column the DISPATCH's job (empty for idle).
 * "start,end,server,task,job" rows separated by spaces, in ticks.
 */
static const char *timeline(const char *const *server_names, const char *const *task_names,
                            uint64_t end_ticks)
{
    static char buf[4096];
    size_t len = 0;
    buf[0] = '\0';
    const char *srv = "idle", *task = NULL;
    long job = -1;
    uint64_t start = 0;
    for (size_t i = 0; i <= h_log_n; i++) {
        bool last = i == h_log_n;
        const takt_trace_event_t *e = last ? NULL : &h_log[i];
        if (!last && e->type != TAKT_EV_SERVER_SWITCH && e->type != TAKT_EV_DISPATCH) {
            continue;
        }
        uint64_t at = last ? T(end_ticks) : e->stamp;
        if (task != NULL && at > start && len + 64 < sizeof(buf)) {
            char jobtext[24] = "";
            if (job >= 0) {
                snprintf(jobtext, sizeof(jobtext), "%ld", job);
            }
            len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%llu,%llu,%s,%s,%s",
                                    len ? " " : "", (unsigned long long)(start / TICK_NS),
                                    (unsigned long long)(at / TICK_NS), srv, task, jobtext);
        }
        if (last) {
            break;
        }
        start = at;
        if (e->type == TAKT_EV_SERVER_SWITCH) {
            srv = e->task == TAKT_TRACE_NO_TASK ? "idle" : server_names[e->task];
        } else {
            task = e->task == 0 ? "idle" : task_names[e->task];
            job = e->task == 0 ? -1 : (long)e->arg;
        }
    }
    return buf;
}

static const char *const example_servers[] = {"S1", "S2"};
static const char *const example_tasks[] = {"idle", "T1", "T2", "T3"};

/* Servers S1 (priority 2, P=20, Q=10), S2 (priority 1, P=40, Q=15); tasks T1
 * (S1, priority 1, T=20, C=4), T2 (S1, priority 2, T=15, C=2), T3 (S2,
 * priority 2, T=60, C=10). */
static takt_server_t *ex_s1, *ex_s2;
static int32_t seen_budget[8];
static takt_server_t *seen_running[8];
static size_t seen_n;

/* T2's job: records what the running server looks like at its start. */
static void t2_loop(void *arg)
{
    (void)arg;
    for (;;) {
        if (seen_n < 8) {
            seen_running[seen_n] = takt_server_running();
            seen_budget[seen_n++] = takt_server_remaining_budget(NULL);
        }
        h_work(2);
        takt_job_end();
    }
}

static void example_setup(takt_tick_t tick0, uint64_t end, takt_server_type_t type)
{
    hsf_begin(tick0, end);
    seen_n = 0;
    ex_s1 = hsf_server("S1", 2, 20, 10, 0, type);
    ex_s2 = hsf_server("S2", 1, 40, 15, 0, type);
    server_task(ex_s1, "T1", 1, job_loop, WCET(4), 20);
    server_task(ex_s1, "T2", 2, t2_loop, NULL, 15);
    server_task(ex_s2, "T3", 2, job_loop, WCET(10), 60);
}

/* ---------------------------------------------------------------- worked example */

static void scenario_example_idling(takt_tick_t tick0)
{
    example_setup(tick0, 50, TAKT_SERVER_IDLING);
    h_start();
    CHECK_STREQ(timeline(example_servers, example_tasks, 50),
                "0,2,S1,T2,0 2,6,S1,T1,0 6,10,S1,idle, 10,20,S2,T3,0 20,22,S1,T2,1 "
                "22,26,S1,T1,1 26,30,S1,idle, 30,35,S2,idle, 35,40,idle,idle, 40,42,S1,T2,2 "
                "42,45,S1,T1,2 45,47,S1,T2,3 47,48,S1,T1,2 48,50,S1,idle,");
    /* replenishments at offset + k*P, set to Q; in server order at one instant */
    CHECK_STREQ(h_events(TAKT_EV_SERVER_REPLENISH, true), "0:0/10 0:1/15 20:0/10 40:0/10 40:1/15");
    CHECK_STREQ(h_events(TAKT_EV_SERVER_DEPLETE, true), "10:0/0 30:0/0 35:1/0");
    /* the idle task burnt S1's budget 6..10, S2's 30..35 */
    CHECK_STREQ(h_events(TAKT_EV_SERVER_SWITCH, true),
                "0:0/10 10:1/15 20:0/10 30:1/5 35:-1/0 40:0/10");
    /* the switch comes before the dispatch it causes; a replenishment before
     * the releases due at the same instant (SCHEDULING.md step 4, step 5) */
    long sw = h_find(TAKT_EV_SERVER_SWITCH, 1, 0), disp = h_find(TAKT_EV_DISPATCH, 3, 0);
    CHECK(sw >= 0 && sw < disp && h_log[sw].stamp == h_log[disp].stamp);
    long repl = h_find(TAKT_EV_SERVER_REPLENISH, 0, 1), rel = h_find(TAKT_EV_RELEASE, 1, 1);
    CHECK(repl >= 0 && repl < rel && h_log[repl].stamp == h_log[rel].stamp);

    /* the tick at 50 is the end: S1 ran ticks 1..10, 21..30, 41..49 */
    takt_server_stats_t st;
    CHECK_EQ(takt_server_stats(ex_s1, &st), TAKT_OK);
    CHECK_EQ(st.budget_consumed, 29);
    CHECK_EQ(st.depletions, 2);
    CHECK_EQ(st.replenishments, 3);
    CHECK_EQ(st.deadline_misses, 0);
    CHECK_EQ(takt_server_stats(ex_s2, &st), TAKT_OK);
    CHECK_EQ(st.budget_consumed, 15);
    CHECK_EQ(st.depletions, 1);
    CHECK_EQ(st.replenishments, 2);
    CHECK_EQ(takt_server_remaining_budget(ex_s1), 1);
    CHECK_EQ(takt_server_remaining_budget(ex_s2), 15);
    CHECK(takt_server_running() == ex_s1);
    CHECK_EQ(takt_server_remaining_budget(NULL), 1);
    /* T2's jobs start at 0, 20, 40, 45 on S1's budget */
    CHECK_EQ(seen_n, 4);
    CHECK(seen_running[0] == ex_s1 && seen_running[3] == ex_s1);
    CHECK_EQ(seen_budget[0], 10);
    CHECK_EQ(seen_budget[1], 10);
    CHECK_EQ(seen_budget[2], 10);
    CHECK_EQ(seen_budget[3], 5);
    h_end();
}

static void scenario_example_deferrable(takt_tick_t tick0)
{
    example_setup(tick0, 50, TAKT_SERVER_DEFERRABLE);
    h_start();
    /* SCHEDULING.md gives the first 20 ticks; the rest follows the same rules */
    CHECK_STREQ(timeline(example_servers, example_tasks, 50),
                "0,2,S1,T2,0 2,6,S1,T1,0 6,15,S2,T3,0 15,17,S1,T2,1 17,18,S2,T3,0 "
                "18,20,idle,idle, 20,24,S1,T1,1 24,30,idle,idle, 30,32,S1,T2,2 "
                "32,40,idle,idle, 40,44,S1,T1,2 44,45,idle,idle, 45,47,S1,T2,3 "
                "47,50,idle,idle,");
    /* S1 kept 4 ticks at 6 and used 2 of them at 15; at 20 its budget is set
     * to 10, not 12 */
    CHECK_STREQ(h_events(TAKT_EV_SERVER_SWITCH, true),
                "0:0/10 6:1/15 15:0/4 17:1/6 18:-1/0 20:0/10 24:-1/0 30:0/6 32:-1/0 "
                "40:0/10 44:-1/0 45:0/6 47:-1/0");
    CHECK_STREQ(h_events(TAKT_EV_SERVER_REPLENISH, true), "0:0/10 0:1/15 20:0/10 40:0/10 40:1/15");
    CHECK_EQ(h_count(TAKT_EV_SERVER_DEPLETE, -1), 0);
    takt_server_stats_t st;
    CHECK_EQ(takt_server_stats(ex_s1, &st), TAKT_OK);
    CHECK_EQ(st.budget_consumed, 20);
    CHECK_EQ(st.depletions, 0);
    CHECK_EQ(st.replenishments, 3);
    CHECK_EQ(takt_server_stats(ex_s2, &st), TAKT_OK);
    CHECK_EQ(st.budget_consumed, 10);
    CHECK_EQ(takt_server_remaining_budget(ex_s1), 4);
    CHECK_EQ(takt_server_remaining_budget(ex_s2), 15);
    CHECK(takt_server_running() == NULL);
    CHECK_EQ(takt_server_remaining_budget(NULL), 0);
    CHECK_EQ(seen_budget[1], 4); /* T2's job 1 starts at 15 on what S1 kept */
    h_end();
}

/* ---------------------------------------------------------------- a task that blocks */

static void blocking_body(void *arg)
{
    (void)arg;
    h_work(2);
    takt_delay(5);
    h_work(2);
    h_park();
}

static void busy_body(void *arg)
{
    (void)arg;
    for (;;) {
        h_work(1);
    }
}

static const char *const block_servers[] = {"S1", "S2"};
static const char *const block_tasks[] = {"idle", "A", "B"};

/* S1's only task A blocks in a delay 2..7: a deferrable S1 lets S2 run and
 * keeps its budget; an idling S1 burns it with its idle. */
static void block_run(takt_tick_t tick0, takt_server_type_t type, takt_server_t **s1_out)
{
    hsf_begin(tick0, 20);
    takt_server_t *s1 = hsf_server("S1", 2, 20, 10, 0, type);
    takt_server_t *s2 = hsf_server("S2", 1, 20, 20, 0, TAKT_SERVER_IDLING);
    server_task(s1, "A", 1, blocking_body, NULL, 0);
    server_task(s2, "B", 1, busy_body, NULL, 0);
    *s1_out = s1;
    h_start();
}

static void scenario_deferrable_block(takt_tick_t tick0)
{
    takt_server_t *s1;
    block_run(tick0, TAKT_SERVER_DEFERRABLE, &s1);
    CHECK_STREQ(timeline(block_servers, block_tasks, 20),
                "0,2,S1,A,0 2,7,S2,B,0 7,9,S1,A,0 9,20,S2,B,0");
    CHECK_STREQ(h_events(TAKT_EV_SERVER_SWITCH, true), "0:0/10 2:1/20 7:0/8 9:1/15");
    CHECK_EQ(takt_server_remaining_budget(s1), 6);
    takt_server_stats_t st;
    CHECK_EQ(takt_server_stats(s1, &st), TAKT_OK);
    CHECK_EQ(st.budget_consumed, 4);
    CHECK_EQ(st.depletions, 0);
    h_end();
}

static void scenario_idling_block(takt_tick_t tick0)
{
    takt_server_t *s1;
    block_run(tick0, TAKT_SERVER_IDLING, &s1);
    CHECK_STREQ(timeline(block_servers, block_tasks, 20),
                "0,2,S1,A,0 2,7,S1,idle, 7,9,S1,A,0 9,10,S1,idle, 10,20,S2,B,0");
    CHECK_EQ(takt_server_remaining_budget(s1), 0);
    CHECK_STREQ(h_events(TAKT_EV_SERVER_DEPLETE, true), "10:0/0");
    h_end();
}

/* A deferrable server replenished while it has no ready task stays out of the
 * way (its budget waits for its task); replenishments do not accumulate. */
static void scenario_deferrable_replenished_empty(takt_tick_t tick0)
{
    static const char *const names[] = {"D", "L"};
    static const char *const tasks[] = {"idle", "E", "B"};
    hsf_begin(tick0, 20);
    takt_server_t *d = hsf_server("D", 2, 5, 2, 0, TAKT_SERVER_DEFERRABLE);
    takt_server_t *l = hsf_server("L", 1, 20, 20, 0, TAKT_SERVER_IDLING);
    takt_task_params_t ep = {.name = "E", .entry = job_loop, .arg = WCET(1), .priority = 1,
                             .stack_size = H_STACK, .period = 10, .offset = 3};
    takt_task_t *e;
    CHECK_EQ(takt_server_task_create(d, &ep, &e), TAKT_OK);
    server_task(l, "B", 1, busy_body, NULL, 0);
    h_start();
    CHECK_STREQ(timeline(names, tasks, 20),
                "0,3,L,B,0 3,4,D,E,0 4,13,L,B,0 13,14,D,E,1 14,20,L,B,0");
    CHECK_STREQ(h_events(TAKT_EV_SERVER_REPLENISH, true), "0:0/2 0:1/20 5:0/2 10:0/2 15:0/2");
    CHECK_EQ(takt_server_remaining_budget(d), 2);
    CHECK_EQ(takt_server_remaining_budget(l), 20 - 17); /* the tick at 20 ends the run */
    h_end();
}

/* A task that holds the scheduler lock past its server's depletion runs on
 * to its unlock (the lock holds the switch back): the ticks past the depletion
 * are an overrun, counted apart, and the budget stays spent (before, the
 * tick charged the depleted server again: an assertion, or without asserts a
 * budget wrapped to 2^32 - 1). At the unlock the other server takes over; the
 * task resumes at its server's replenishment. */
static int overrun_unlock_result = -9;
static takt_tick_t overrun_resumed_at;
static takt_server_stats_t overrun_stats_at_resume;
static takt_server_t *overrun_server;

static void overrun_locker(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sched_lock(), TAKT_OK);
    h_work(5);
    overrun_unlock_result = takt_sched_unlock();
    overrun_resumed_at = h_now_ticks();
    CHECK_EQ(takt_server_stats(overrun_server, &overrun_stats_at_resume), TAKT_OK);
    busy_body(NULL);
}

static void scenario_lock_past_depletion(takt_tick_t tick0)
{
    static const char *const names[] = {"A", "B"};
    static const char *const tasks[] = {"idle", "K", "B"};
    hsf_begin(tick0, 20);
    overrun_server = hsf_server("A", 2, 10, 3, 0, TAKT_SERVER_IDLING);
    takt_server_t *b = hsf_server("B", 1, 20, 20, 0, TAKT_SERVER_IDLING);
    server_task(overrun_server, "K", 1, overrun_locker, NULL, 0);
    server_task(b, "B", 1, busy_body, NULL, 0);
    h_start();
    CHECK_STREQ(timeline(names, tasks, 20), "0,5,A,K,0 5,10,B,B,0 10,13,A,K,0 13,20,B,B,0");
    CHECK_EQ(overrun_unlock_result, 1); /* B ran before the unlock returned */
    CHECK_EQ(overrun_resumed_at, 10u);
    CHECK_EQ(overrun_stats_at_resume.overrun_ticks, 2u);
    CHECK_EQ(overrun_stats_at_resume.budget_consumed, 3u);
    CHECK_EQ(overrun_stats_at_resume.depletions, 1u);
    CHECK_STREQ(h_events(TAKT_EV_SERVER_DEPLETE, true), "3:0/0 13:0/0");
    takt_server_stats_t end;
    CHECK_EQ(takt_server_stats(overrun_server, &end), TAKT_OK);
    CHECK(end.overrun_ticks == 2u && end.budget_consumed == 6u);
    CHECK_EQ(takt_server_remaining_budget(b), 20 - 11); /* 5..10, 13..20; the tick at 20 ends the run */
    h_end();
}

/* ---------------------------------------------------------------- global order */

static const char *const order_servers[] = {"LOW", "HIGH", "MID", "TIE"};
static const char *const order_tasks[] = {"idle", "L", "H", "M", "X"};

/* Created low, high, mid, then a second priority-2 server: each runs its
 * budget in the order (priority, then creation), whatever the creation order. */
static void scenario_global_order(takt_tick_t tick0)
{
    hsf_begin(tick0, 30);
    takt_server_t *low = hsf_server("LOW", 1, 30, 2, 0, TAKT_SERVER_DEFERRABLE);
    takt_server_t *high = hsf_server("HIGH", 3, 30, 2, 0, TAKT_SERVER_DEFERRABLE);
    takt_server_t *mid = hsf_server("MID", 2, 30, 2, 0, TAKT_SERVER_DEFERRABLE);
    takt_server_t *tie = hsf_server("TIE", 2, 30, 2, 0, TAKT_SERVER_DEFERRABLE);
    CHECK_EQ(takt_server_index(low), 0);
    CHECK_EQ(takt_server_index(tie), 3);
    CHECK_STREQ(takt_server_name(mid), "MID");
    server_task(low, "L", 1, busy_body, NULL, 0);
    server_task(high, "H", 1, busy_body, NULL, 0);
    server_task(mid, "M", 1, busy_body, NULL, 0);
    server_task(tie, "X", 1, busy_body, NULL, 0);
    h_start();
    CHECK_STREQ(timeline(order_servers, order_tasks, 30),
                "0,2,HIGH,H,0 2,4,MID,M,0 4,6,TIE,X,0 6,8,LOW,L,0 8,30,idle,idle,");
    h_end();
}

/* Equal priorities: the server created first runs first, also when it is
 * replenished while the later one runs (definition order is the tie order). */
static void scenario_equal_priority_replenish(takt_tick_t tick0)
{
    static const char *const names[] = {"A", "B"};
    static const char *const tasks[] = {"idle", "TA", "TB"};
    hsf_begin(tick0, 12);
    takt_server_t *a = hsf_server("A", 1, 10, 2, 3, TAKT_SERVER_IDLING);
    takt_server_t *b = hsf_server("B", 1, 10, 5, 0, TAKT_SERVER_IDLING);
    server_task(a, "TA", 1, busy_body, NULL, 0);
    server_task(b, "TB", 1, busy_body, NULL, 0);
    h_start();
    CHECK_STREQ(timeline(names, tasks, 12),
                "0,3,B,TB,0 3,5,A,TA,0 5,7,B,TB,0 7,10,idle,idle, 10,12,B,TB,0");
    h_end();
}

/* ---------------------------------------------------------------- misses, late creation */

static takt_task_t *miss_task, *ok_task;
static takt_server_t *miss_server, *ok_server;

static void scenario_misses(takt_tick_t tick0)
{
    hsf_begin(tick0, 60);
    /* 2 ticks of budget per 10 for jobs of 3 ticks every 10: every job is late */
    miss_server = hsf_server("SLOW", 2, 10, 2, 0, TAKT_SERVER_DEFERRABLE);
    ok_server = hsf_server("OK", 1, 10, 5, 0, TAKT_SERVER_IDLING);
    miss_task = server_task(miss_server, "LATE", 1, job_loop, WCET(3), 10);
    ok_task = server_task(ok_server, "FINE", 1, job_loop, WCET(1), 10);
    h_start();
    takt_server_stats_t st;
    CHECK_EQ(takt_server_stats(miss_server, &st), TAKT_OK);
    CHECK(st.deadline_misses > 0);
    CHECK_EQ(st.deadline_misses, takt_task_deadline_misses(miss_task));
    CHECK_EQ(st.deadline_misses, h_count(TAKT_EV_DEADLINE_MISS, takt_task_id(miss_task)));
    CHECK_EQ(st.depletions, 6); /* it always has work when budget comes */
    CHECK_EQ(takt_server_stats(ok_server, &st), TAKT_OK);
    CHECK_EQ(st.deadline_misses, 0);
    CHECK_EQ(takt_task_deadline_misses(ok_task), 0);
    h_end();
}

static takt_server_t *late_server;

/* A task creates a higher-priority server and a task in it: with offset 0 the
 * server is replenished at once and its task preempts the creator. */
static void creator_body(void *arg)
{
    (void)arg;
    h_work(3);
    takt_server_params_t p = {.name = "LATE", .priority = 5, .period = 10, .budget = 2,
                              .type = TAKT_SERVER_IDLING};
    CHECK_EQ(takt_server_create(&p, &late_server), TAKT_OK);
    takt_task_params_t tp = {.name = "N", .entry = busy_body, .priority = 1,
                             .stack_size = H_STACK};
    takt_task_t *t;
    CHECK_EQ(takt_server_task_create(late_server, &tp, &t), TAKT_OK);
    busy_body(NULL);
}

static void scenario_created_while_running(takt_tick_t tick0)
{
    static const char *const names[] = {"BASE", "LATE"};
    static const char *const tasks[] = {"idle", "C", "N"};
    hsf_begin(tick0, 16);
    takt_server_t *base = hsf_server("BASE", 1, 20, 20, 0, TAKT_SERVER_IDLING);
    server_task(base, "C", 1, creator_body, NULL, 0);
    h_start();
    /* LATE is replenished inside takt_server_create and, idling, takes over
     * at once with its idle: C creates N only when LATE has depleted */
    CHECK_STREQ(timeline(names, tasks, 16),
                "0,3,BASE,C,0 3,5,LATE,idle, 5,13,BASE,C,0 13,15,LATE,N,0 15,16,BASE,C,0");
    CHECK_STREQ(h_events(TAKT_EV_SERVER_REPLENISH, true), "0:0/20 3:1/2 13:1/2");
    h_end();
}

/* ---------------------------------------------------------------- random hierarchies */

/*
 * A reference check of the rules on random hierarchies, from the trace alone:
 * per tick, the budgets (set by REPLENISH, one tick charged to the server that
 * ran, 0 at DEPLETE) and the pending jobs (RELEASE minus COMPLETE) say which
 * servers are eligible; the running server must be the first of them in the
 * order (priority, then creation) — the idle server if none — and the running
 * task the running server's highest-priority pending task, or the idle task if
 * it has none (only possible for an idling server). Server and task
 * priorities are drawn from few values, so ties are frequent. Work is whole
 * ticks, so every event falls on a tick. A third of the cases start just below
 * the tick wraparound.
 */
#define R_MAX_SERVERS 5
#define R_MAX_TASKS 12
#define R_TICKS 240

static uint32_t r_state = 12345u;
static uint32_t r_next(uint32_t bound)
{
    r_state = r_state * 1664525u + 1013904223u;
    return (r_state >> 8) % bound;
}

typedef struct {
    unsigned priority;
    takt_tick_t period, budget, offset;
    takt_server_type_t type;
} r_server_t;

typedef struct {
    unsigned server, priority;
    takt_tick_t period, wcet, offset;
} r_task_t;

static bool r_check_case(const r_server_t *sv, unsigned ns, const r_task_t *tk, unsigned nt)
{
    long budget[R_MAX_SERVERS] = {0};
    long pending[R_MAX_TASKS + 1] = {0};
    int running_server = -1, running_task = 0; /* -1: the idle server; task 0: idle */
    size_t i = 0;
    for (uint64_t t = 0; t < R_TICKS; t++) {
        if (t > 0 && running_server >= 0) {
            budget[running_server]--;
            if (!CHECK(budget[running_server] >= 0)) {
                return false;
            }
        }
        for (; i < h_log_n && h_log[i].stamp <= T(t); i++) {
            const takt_trace_event_t *e = &h_log[i];
            if (!CHECK_EQ(e->stamp, T(t))) {
                return false;
            }
            switch (e->type) {
            case TAKT_EV_SERVER_REPLENISH:
                budget[e->task] = (long)e->arg;
                CHECK_EQ(e->arg, sv[e->task].budget);
                break;
            case TAKT_EV_SERVER_DEPLETE:
                CHECK_EQ(budget[e->task], 0);
                break;
            case TAKT_EV_SERVER_SWITCH:
                running_server = e->task == TAKT_TRACE_NO_TASK ? -1 : (int)e->task;
                CHECK_EQ(e->arg, running_server >= 0 ? budget[running_server] : 0);
                break;
            case TAKT_EV_DISPATCH:
                running_task = e->task;
                break;
            case TAKT_EV_RELEASE:
                pending[e->task]++;
                break;
            case TAKT_EV_COMPLETE:
                pending[e->task]--;
                break;
            default:
                break;
            }
        }
        /* the first eligible server in the global order */
        int want = -1;
        for (unsigned s = 0; s < ns; s++) {
            bool has_work = false;
            for (unsigned k = 0; k < nt; k++) {
                has_work = has_work || (tk[k].server == s && pending[k + 1] > 0);
            }
            bool eligible = budget[s] > 0 && (sv[s].type == TAKT_SERVER_IDLING || has_work);
            if (eligible && (want < 0 || sv[s].priority > sv[want].priority)) {
                want = (int)s;
            }
        }
        if (!CHECK_EQ(running_server, want)) {
            fprintf(stderr, "  tick %llu\n", (unsigned long long)t);
            return false;
        }
        /* the running server's highest local priority among its pending tasks */
        unsigned best = 0;
        for (unsigned k = 0; k < nt; k++) {
            if ((int)tk[k].server == want && pending[k + 1] > 0 && tk[k].priority > best) {
                best = tk[k].priority;
            }
        }
        bool task_ok = best == 0 ? running_task == 0
                                 : running_task > 0 && tk[running_task - 1].server == (unsigned)want &&
                                       pending[running_task] > 0 &&
                                       tk[running_task - 1].priority == best;
        if (!CHECK(task_ok)) {
            fprintf(stderr, "  tick %llu: task %d runs, best local priority %u\n",
                    (unsigned long long)t, running_task, best);
            return false;
        }
    }
    return true;
}

static void test_random_hierarchies(void)
{
    for (int c = 0; c < 150 / HP_CASES_DIVISOR; c++) {
        r_server_t sv[R_MAX_SERVERS];
        r_task_t tk[R_MAX_TASKS];
        unsigned ns = 1 + r_next(R_MAX_SERVERS), nt = 0;
        takt_tick_t start = c % 3 == 0 ? WRAP_START : 0;
        hsf_begin(start, R_TICKS);
        takt_server_t *handles[R_MAX_SERVERS];
        for (unsigned s = 0; s < ns; s++) {
            sv[s].priority = 1 + r_next(4); /* ties on purpose */
            sv[s].period = 4 + r_next(30);
            sv[s].budget = 1 + r_next(sv[s].period);
            sv[s].offset = r_next(10);
            sv[s].type = r_next(2) ? TAKT_SERVER_IDLING : TAKT_SERVER_DEFERRABLE;
            takt_server_params_t p = {.name = "S", .priority = sv[s].priority,
                                      .period = sv[s].period, .budget = sv[s].budget,
                                      .offset = sv[s].offset, .type = sv[s].type};
            CHECK_EQ(takt_server_create(&p, &handles[s]), TAKT_OK);
            unsigned per = 1 + r_next(3);
            for (unsigned k = 0; k < per && nt < R_MAX_TASKS; k++, nt++) {
                tk[nt] = (r_task_t){.server = s, .priority = 1 + r_next(4),
                                    .period = 5 + r_next(50), .wcet = 1 + r_next(5),
                                    .offset = r_next(12)};
                takt_task_params_t tp = {.name = "T", .entry = job_loop,
                                         .arg = WCET(tk[nt].wcet), .priority = tk[nt].priority,
                                         .stack_size = H_STACK, .period = tk[nt].period,
                                         .offset = tk[nt].offset};
                takt_task_t *t;
                CHECK_EQ(takt_server_task_create(handles[s], &tp, &t), TAKT_OK);
            }
        }
        h_start();
        if (!r_check_case(sv, ns, tk, nt)) {
            fprintf(stderr, "  random case %d (%u servers, %u tasks)\n", c, ns, nt);
            h_end();
            return;
        }
        h_end();
    }
}

/* ---------------------------------------------------------------- API errors */

static int isr_result;
static void isr_create_server(void *arg)
{
    (void)arg;
    takt_server_params_t p = {.priority = 1, .period = 10, .budget = 1};
    takt_server_t *s;
    isr_result = takt_server_create(&p, &s);
}

static void idle_body(void *arg)
{
    (void)arg;
    h_park();
}

static void test_api_errors(void)
{
    takt_server_params_t good = {.name = "S", .priority = 1, .period = 10, .budget = 5,
                                 .type = TAKT_SERVER_IDLING};
    takt_server_t *s = NULL;
    static takt_server_t statics[TAKT_CONFIG_MAX_SERVERS + 1];

    /* wrong scheduler */
    h_begin(0, 10, false);
    CHECK_EQ(takt_server_create(&good, &s), TAKT_ERR_STATE);
    CHECK_EQ(takt_server_create_static(&good, &statics[0]), TAKT_ERR_STATE);
    CHECK_EQ(takt_server_remaining_budget(NULL), TAKT_ERR_STATE);
    CHECK(takt_server_running() == NULL);
    h_end();

    /* hsf needs full preemption */
    takt_init_params_t deferred = {.scheduler = TAKT_SCHED_HSF,
                                   .preemption = TAKT_PREEMPT_DEFERRED};
    CHECK_EQ(takt_init(&deferred), TAKT_ERR_ARG);
    takt_init_params_t none = {.scheduler = TAKT_SCHED_HSF, .preemption = TAKT_PREEMPT_NONE};
    CHECK_EQ(takt_init(&none), TAKT_ERR_ARG);

    hsf_begin(0, 10);
    takt_server_params_t p;
    CHECK_EQ(takt_server_create(NULL, &s), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_create(&good, NULL), TAKT_ERR_ARG);
    p = good, p.period = 0, p.budget = 0;
    CHECK_EQ(takt_server_create(&p, &s), TAKT_ERR_ARG);
    p = good, p.budget = 0;
    CHECK_EQ(takt_server_create(&p, &s), TAKT_ERR_ARG);
    p = good, p.budget = 11;
    CHECK_EQ(takt_server_create(&p, &s), TAKT_ERR_ARG);
    p = good, p.priority = 0;
    CHECK_EQ(takt_server_create(&p, &s), TAKT_ERR_ARG);
    p = good, p.priority = TAKT_CONFIG_MAX_PRIORITIES;
    CHECK_EQ(takt_server_create(&p, &s), TAKT_ERR_ARG);
    p = good, p.type = (takt_server_type_t)7;
    CHECK_EQ(takt_server_create(&p, &s), TAKT_ERR_ARG);
    p = good, p.period = 0x80000000u, p.budget = 1;
    CHECK_EQ(takt_server_create(&p, &s), TAKT_ERR_ARG);
    p = good, p.offset = 0x80000000u;
    CHECK_EQ(takt_server_create(&p, &s), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_create_static(&good, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_create_static(NULL, &statics[0]), TAKT_ERR_ARG);
    /* nothing changed: the first server is index 0 and nothing was traced */
    CHECK_EQ(takt_server_create_static(&good, &statics[0]), TAKT_OK);
    CHECK_EQ(takt_server_index(&statics[0]), 0);
    CHECK_EQ(takt_server_create_static(&good, &statics[0]), TAKT_ERR_STATE); /* live */

    /* handles */
    takt_server_t bogus;
    memset(&bogus, 0, sizeof(bogus));
    takt_server_stats_t st;
    CHECK_EQ(takt_server_stats(&bogus, &st), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_stats(NULL, &st), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_stats(&statics[0], NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_remaining_budget(&bogus), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_remaining_budget(&statics[0]), 0); /* first replenishment at start */
    CHECK_EQ(takt_server_remaining_budget(NULL), 0);        /* the idle server runs */
    CHECK_EQ(takt_server_index(&bogus), -1);
    CHECK(takt_server_name(NULL) == NULL);

    /* tasks: inside a valid server only, and only that way under hsf */
    takt_task_params_t tp = {.name = "T", .entry = idle_body, .priority = 1,
                             .stack_size = H_STACK};
    takt_task_t *t = NULL;
    CHECK_EQ(takt_task_create(&tp, &t), TAKT_ERR_STATE);
    CHECK_EQ(takt_server_task_create(NULL, &tp, &t), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_task_create(&bogus, &tp, &t), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_task_create(&statics[0], NULL, &t), TAKT_ERR_ARG);
    tp.priority = 0;
    CHECK_EQ(takt_server_task_create(&statics[0], &tp, &t), TAKT_ERR_ARG);
    tp.priority = 1;
    static uint8_t stack[H_STACK];
    static takt_task_t tcb;
    CHECK_EQ(takt_server_task_create_static(&bogus, &tp, &tcb, stack, sizeof(stack)),
             TAKT_ERR_ARG);
    CHECK_EQ(takt_task_create_static(&tp, &tcb, stack, sizeof(stack)), TAKT_ERR_STATE);
    CHECK_EQ(takt_server_task_create_static(&statics[0], &tp, &tcb, stack, sizeof(stack)),
             TAKT_OK);
    CHECK_EQ(takt_task_id(&tcb), 1);
    CHECK_EQ(takt_task_set_preemptive(&tcb, false), TAKT_ERR_STATE);
    CHECK_EQ(takt_task_set_preemptive(&tcb, true), TAKT_OK);

    /* capacity: TAKT_CONFIG_MAX_SERVERS in all */
    for (unsigned i = 1; i < TAKT_CONFIG_MAX_SERVERS; i++) {
        CHECK_EQ(takt_server_create_static(&good, &statics[i]), TAKT_OK);
    }
    CHECK_EQ(takt_server_create_static(&good, &statics[TAKT_CONFIG_MAX_SERVERS]),
             TAKT_ERR_NOMEM);
    CHECK_EQ(takt_server_create(&good, &s), TAKT_ERR_NOMEM);

    /* from an interrupt */
    CHECK_EQ(hp_inject_irq(T(3), 7, isr_create_server, NULL), TAKT_OK);
    isr_result = 1;
    h_start();
    CHECK_EQ(isr_result, TAKT_ERR_CONTEXT);
    CHECK_EQ(h_count(TAKT_EV_SERVER_REPLENISH, -1), TAKT_CONFIG_MAX_SERVERS);
    h_end();
    /* a torn-down kernel's static control blocks can be used again */
    hsf_begin(0, 10);
    CHECK_EQ(takt_server_create_static(&good, &statics[0]), TAKT_OK);
    h_run();
}

int main(void)
{
    h_both(scenario_example_idling, "example_idling");
    h_both(scenario_example_deferrable, "example_deferrable");
    h_both(scenario_deferrable_block, "deferrable_block");
    h_both(scenario_idling_block, "idling_block");
    h_both(scenario_lock_past_depletion, "lock_past_depletion");
    h_both(scenario_deferrable_replenished_empty, "deferrable_replenished_empty");
    h_both(scenario_global_order, "global_order");
    h_both(scenario_equal_priority_replenish, "equal_priority_replenish");
    h_both(scenario_misses, "misses");
    h_both(scenario_created_while_running, "created_while_running");
    test_random_hierarchies();
    test_api_errors();
    return CHECK_SUMMARY();
}
