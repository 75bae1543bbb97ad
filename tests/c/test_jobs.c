/*
 * The periodic job model on the sim port (SCHEDULING.md "Jobs"): release
 * times, offsets, job counters, a job queued behind its unfinished
 * predecessor, deadline misses recorded exactly once (trace event, counter,
 * hook) at completion or at the first tick after the deadline, a job that
 * completes exactly at its deadline meeting it. Every scenario runs with the
 * tick counter at 0, just below 2^32 and just below 2^31: same traces.
 */
#include "harness.h"

/* Job body: job k works work[k] ticks (the last entry repeats). */
typedef struct {
    uint32_t work[8];
    int n;
} plan_t;

static void job_loop(void *arg)
{
    const plan_t *plan = arg;
    for (;;) {
        uint32_t job = takt_task_jobs_completed(takt_task_self());
        int i = (int)job < plan->n ? (int)job : plan->n - 1;
        h_work(plan->work[i]);
        CHECK_EQ(takt_job_end(), TAKT_OK);
    }
}

static const plan_t one = {{1}, 1};

/* ---------------------------------------------------------------- releases, offsets */

static void scenario_releases(takt_tick_t tick0)
{
    h_begin(tick0, 20, false);
    takt_task_t *t1 = h_periodic("T1", 3, job_loop, (void *)&one, 5, 0, 0);
    takt_task_t *t2 = h_periodic("T2", 2, job_loop, (void *)&one, 5, 0, 3);
    CHECK_EQ(takt_task_state(t1), TAKT_TASK_BLOCKED); /* waits for its first release */
    CHECK_EQ(takt_task_jobs_released(t1), 0);
    h_start();
    CHECK_STREQ(h_events(TAKT_EV_RELEASE, true),
                "0:1/0 3:2/0 5:1/1 8:2/1 10:1/2 13:2/2 15:1/3 18:2/3");
    CHECK_STREQ(h_events(TAKT_EV_COMPLETE, true),
                "1:1/0 4:2/0 6:1/1 9:2/1 11:1/2 14:2/2 16:1/3 19:2/3");
    CHECK_EQ(takt_task_jobs_released(t1), 4);
    CHECK_EQ(takt_task_jobs_completed(t1), 4);
    CHECK_EQ(takt_task_jobs_released(t2), 4);
    CHECK_EQ(takt_task_jobs_completed(t2), 4);
    CHECK_EQ(takt_task_deadline_misses(t1) + takt_task_deadline_misses(t2), 0);
    CHECK_EQ(h_miss_n, 0);
    h_end();
}

/* Rate-monotonic pair; T2's work ends exactly at the tick that releases T1:
 * the tick runs first, T2 completes at that instant, then T1 runs. */
static void scenario_rm(takt_tick_t tick0)
{
    static const plan_t three = {{3}, 1};
    h_begin(tick0, 12, false);
    h_periodic("T1", 3, job_loop, (void *)&one, 4, 0, 0);
    h_periodic("T2", 2, job_loop, (void *)&three, 6, 0, 0);
    h_run();
    CHECK_STREQ(h_dispatches(), "0:1 1:2 4:1 5:0 6:2 8:1 9:2 10:0");
    CHECK_STREQ(h_events(TAKT_EV_PREEMPT, true), "6:0/0 8:2/1");
    long complete = h_find(TAKT_EV_COMPLETE, 2, 0), release = h_find(TAKT_EV_RELEASE, 1, 1),
         dispatch = h_find(TAKT_EV_DISPATCH, 1, 1);
    CHECK(release >= 0 && release < complete && complete < dispatch);
    CHECK_EQ(h_log[complete].stamp, T(4));
    CHECK_EQ(h_miss_n, 0);
}

/* ---------------------------------------------------------------- queued jobs, misses */

static void scenario_queued_job(takt_tick_t tick0)
{
    static const plan_t plan = {{6, 1}, 2};
    h_begin(tick0, 12, false);
    takt_task_t *t = h_periodic("T", 2, job_loop, (void *)&plan, 4, 0, 0);
    h_start();
    /* job 1 is released at 4 while job 0 runs, and runs at 6 without blocking */
    CHECK_STREQ(h_events(TAKT_EV_RELEASE, true), "0:1/0 4:1/1 8:1/2");
    CHECK_STREQ(h_events(TAKT_EV_COMPLETE, true), "6:1/0 7:1/1 9:1/2");
    CHECK_STREQ(h_events(TAKT_EV_BLOCK, true), "7:1/2 9:1/2");
    CHECK_STREQ(h_dispatches(), "0:1 7:0 8:1 9:0");
    /* job 0 (deadline 4) misses, at the first tick after its deadline */
    CHECK_STREQ(h_events(TAKT_EV_DEADLINE_MISS, true), "5:1/0");
    CHECK_STREQ(h_records(h_misses, h_miss_n), "5:1/0");
    CHECK_EQ(takt_task_deadline_misses(t), 1);
    CHECK_EQ(takt_task_jobs_released(t), 3);
    CHECK_EQ(takt_task_jobs_completed(t), 3);
    h_end();
}

/* A completes exactly at its deadline (meets it); B completes one tick late:
 * one miss, recorded by the tick at the completion instant, not twice. */
static void scenario_deadline_edge(takt_tick_t tick0)
{
    static const plan_t four = {{4}, 1}, two = {{2}, 1};
    h_begin(tick0, 10, false);
    takt_task_t *a = h_periodic("A", 3, job_loop, (void *)&four, 10, 4, 0);
    takt_task_t *b = h_periodic("B", 2, job_loop, (void *)&two, 10, 5, 0);
    h_start();
    CHECK_STREQ(h_events(TAKT_EV_COMPLETE, true), "4:1/0 6:2/0");
    CHECK_EQ(takt_task_deadline_misses(a), 0);
    CHECK_EQ(takt_task_deadline_misses(b), 1);
    CHECK_STREQ(h_events(TAKT_EV_DEADLINE_MISS, true), "6:2/0");
    CHECK_STREQ(h_records(h_misses, h_miss_n), "6:2/0");
    long miss = h_find(TAKT_EV_DEADLINE_MISS, 2, 0), done = h_find(TAKT_EV_COMPLETE, 2, 0);
    CHECK(miss >= 0 && miss < done);
    h_end();
}

/* Overloaded (C = 3 > T = 2): every job misses, each once, at d + 1. */
static void scenario_overload(takt_tick_t tick0)
{
    static const plan_t three = {{3}, 1};
    h_begin(tick0, 20, false);
    takt_task_t *t = h_periodic("T", 2, job_loop, (void *)&three, 2, 0, 0);
    h_start();
    CHECK_STREQ(h_records(h_misses, h_miss_n),
                "3:1/0 5:1/1 7:1/2 9:1/3 11:1/4 13:1/5 15:1/6 17:1/7 19:1/8");
    CHECK_STREQ(h_events(TAKT_EV_DEADLINE_MISS, true),
                "3:1/0 5:1/1 7:1/2 9:1/3 11:1/4 13:1/5 15:1/6 17:1/7 19:1/8");
    CHECK_EQ(takt_task_deadline_misses(t), 9);
    CHECK_EQ(takt_task_jobs_released(t), 10);
    CHECK_EQ(takt_task_jobs_completed(t), 6);
    CHECK_STREQ(h_dispatches(), "0:1"); /* never blocks */
    h_end();
}

/* Deadline longer than the period: job 2 completes exactly at its deadline 9. */
static void scenario_long_deadline(takt_tick_t tick0)
{
    static const plan_t three = {{3}, 1};
    h_begin(tick0, 16, false);
    takt_task_t *t = h_periodic("T", 2, job_loop, (void *)&three, 2, 5, 0);
    h_start();
    CHECK_STREQ(h_events(TAKT_EV_COMPLETE, true), "3:1/0 6:1/1 9:1/2 12:1/3 15:1/4");
    CHECK_STREQ(h_records(h_misses, h_miss_n), "12:1/3 14:1/4");
    CHECK_EQ(takt_task_deadline_misses(t), 2);
    h_end();
}

/* The longest relative deadline, 2^31 - 2: its miss check, a tick after it,
 * lands at the edge of the timer queue's half range and orders correctly
 * against the other task's releases (at 2^31 - 1 it would not: the kernel
 * refuses that, test_task.c). */
static void scenario_longest_deadline(takt_tick_t tick0)
{
    static const plan_t endless = {{1000}, 1};
    h_begin(tick0, 12, false);
    takt_task_t *l = h_periodic("L", 2, job_loop, (void *)&endless, 0x7FFFFFFFu, 0x7FFFFFFEu, 0);
    takt_task_t *h = h_periodic("H", 3, job_loop, (void *)&one, 5, 0, 0);
    h_start();
    CHECK_STREQ(h_events(TAKT_EV_RELEASE, true), "0:1/0 0:2/0 5:2/1 10:2/2");
    CHECK_STREQ(h_events(TAKT_EV_COMPLETE, true), "1:2/0 6:2/1 11:2/2");
    CHECK_EQ(takt_task_jobs_completed(l), 0);
    CHECK_EQ(takt_task_jobs_completed(h), 3);
    CHECK_EQ(h_miss_n, 0);
    h_end();
}

/* ---------------------------------------------------------------- created after start */

static void creator(void *arg)
{
    (void)arg;
    h_work(2);
    takt_task_t *p = h_periodic("P", 3, job_loop, (void *)&one, 3, 0, 0); /* released now */
    CHECK_EQ(takt_task_jobs_released(p), 1);
    CHECK_EQ(takt_task_state(p), TAKT_TASK_READY);
    h_periodic("Q", 2, job_loop, (void *)&one, 4, 0, 3); /* first release at 5 */
    h_park();
}

static void scenario_created_later(takt_tick_t tick0)
{
    h_begin(tick0, 10, false);
    h_task("C", 5, creator, NULL);
    h_run();
    CHECK_STREQ(h_events(TAKT_EV_RELEASE, true), "2:2/0 5:2/1 5:3/0 8:2/2 9:3/1");
    CHECK_STREQ(h_dispatches(), "0:1 2:2 3:0 5:2 6:3 7:0 8:2 9:3"); /* the run ends at 10 */
}

/* ---------------------------------------------------------------- suspended periodic task */

static takt_task_t *sp_p;

static void suspender(void *arg)
{
    (void)arg;
    takt_delay(1); /* P runs job 0 in 0..1 */
    CHECK_EQ(takt_task_state(sp_p), TAKT_TASK_BLOCKED);
    CHECK_EQ(takt_task_suspend(sp_p), TAKT_OK);
    takt_tick_t prev = h_tick0;
    takt_delay_until(&prev, 6);
    CHECK_EQ(takt_task_jobs_released(sp_p), 4); /* releases went on: 0, 2, 4, 6 */
    CHECK_EQ(takt_task_resume(sp_p), TAKT_OK);
    h_park();
}

static void scenario_suspended_periodic(takt_tick_t tick0)
{
    h_begin(tick0, 12, false);
    sp_p = h_periodic("P", 3, job_loop, (void *)&one, 2, 0, 0);
    h_task("S", 4, suspender, NULL);
    h_start();
    /* jobs 1..3 wait and then run back to back from 6 */
    CHECK_STREQ(h_events(TAKT_EV_COMPLETE, true), "1:1/0 7:1/1 8:1/2 9:1/3 10:1/4 11:1/5");
    CHECK_STREQ(h_records(h_misses, h_miss_n), "5:1/1 7:1/2 9:1/3");
    CHECK_EQ(takt_task_deadline_misses(sp_p), 3);
    h_end();
}

int main(void)
{
    h_both(scenario_releases, "releases");
    h_both(scenario_rm, "rm");
    h_both(scenario_queued_job, "queued_job");
    h_both(scenario_deadline_edge, "deadline_edge");
    h_both(scenario_overload, "overload");
    h_both(scenario_long_deadline, "long_deadline");
    h_both(scenario_longest_deadline, "longest_deadline");
    h_both(scenario_created_later, "created_later");
    h_both(scenario_suspended_periodic, "suspended_periodic");
    return CHECK_SUMMARY();
}
