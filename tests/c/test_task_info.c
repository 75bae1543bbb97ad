/*
 * takt_task_info / takt_task_info_each (snapshots: names, ids, states,
 * priorities, stacks; a short array; the caller; bad arguments; from an
 * interrupt), the run time charged at every switch (TAKT_CONFIG_RUN_TIME_STATS,
 * counted in virtual test ns, so exact: the running task's includes its
 * current run) and the per-task application words (TAKT_CONFIG_TASK_USER_WORDS),
 * under each scheduler.
 */
#include "harness.h"

uint32_t test_run_time_counter(void)
{
    return (uint32_t)hp_now_ns();
}

/* Run times are exact on the sim. On the boards the counter is real time, and
 * a task's checks between its modelled work (the snapshots below scan stacks
 * for their high-water marks: about 60 us) run past the tick they began on,
 * so there a run time is checked to a tenth of a tick. */
#if HP_SUBTICK_WORK
#define RUN_TIME_SLACK 0u
#else
#define RUN_TIME_SLACK (TICK_NS / 10u)
#endif
#define CHECK_RUN_TIME(actual, expected) CHECK_NEAR((actual), (expected), RUN_TIME_SLACK)

static takt_task_t *first, *second;

/* Collects the walk's snapshots into an array (at most its size). */
typedef struct {
    takt_task_info_t *info;
    unsigned max, seen;
} collect_t;

static void collect(const takt_task_info_t *info, void *ctx)
{
    collect_t *c = ctx;
    if (c->seen < c->max) {
        c->info[c->seen] = *info;
    }
    c->seen++;
}

static unsigned info_all(takt_task_info_t *info, unsigned max, bool stack_high_water)
{
    collect_t c = {info, max, 0};
    unsigned visited = takt_task_info_each(collect, &c, stack_high_water);
    CHECK_EQ(visited, c.seen);
    return visited;
}

static int isr_result = 99;
static unsigned isr_count = 99;

static void isr_queries(void *arg)
{
    (void)arg;
    takt_task_info_t one;
    isr_result = takt_task_info(first, &one, false);
    isr_count = takt_task_info_each(collect, &(collect_t){&one, 1, 0}, false);
}

static void first_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_task_user_words(NULL)[0], 0u); /* zero at creation */
    CHECK_EQ(takt_task_user_words(NULL)[1], 0u);
    takt_task_user_words(NULL)[1] = 0xf1u;
    h_work(3); /* 0 .. 3 */
    CHECK_EQ(takt_delay(10), TAKT_OK); /* until 13 */
    /* Back at 13: the idle task ran 7 .. 13. */
    CHECK_RUN_TIME(takt_task_run_time(takt_task_idle()), (uint32_t)T(6));
    CHECK_RUN_TIME(takt_task_run_time(NULL), (uint32_t)T(3));
    h_work(1);
    CHECK_RUN_TIME(takt_task_run_time(NULL), (uint32_t)T(4)); /* its current run counts */
    CHECK_RUN_TIME(takt_task_run_time(second), (uint32_t)T(4));
    /* Every instant since the start is charged to some task. */
    uint32_t charged = takt_task_run_time(takt_task_idle()) + takt_task_run_time(second) +
                       takt_task_run_time(NULL);
    CHECK_RUN_TIME(charged, (uint32_t)hp_now_ns());
    h_park();
}

static void second_body(void *arg)
{
    (void)arg;
    h_work(4); /* 3 .. 7 */
    takt_task_info_t info[5];
    memset(info, 0xa5, sizeof(info));
    CHECK_EQ(info_all(info, 5, true), 3u);
    CHECK(info[0].task == takt_task_idle() && info[1].task == first && info[2].task == second);
    CHECK_EQ(info[0].id, 0u);
    CHECK_EQ(info[1].id, 1u);
    CHECK_EQ(info[2].id, 2u);
    CHECK(strcmp(info[1].name, "first") == 0 && strcmp(info[2].name, "second") == 0);
    CHECK_EQ(info[0].state, TAKT_TASK_READY);
    CHECK_EQ(info[1].state, TAKT_TASK_BLOCKED);
    CHECK_EQ(info[2].state, TAKT_TASK_RUNNING);
    CHECK_EQ(info[1].priority, 3u);
    CHECK_EQ(info[1].base_priority, 3u);
    CHECK_EQ(info[0].priority, 0u);
    CHECK_RUN_TIME(info[1].run_time, (uint32_t)T(3));
    CHECK_RUN_TIME(info[2].run_time, (uint32_t)T(4)); /* the caller: up to now */
    CHECK_EQ(info[0].run_time, 0u);
    CHECK(info[1].stack_base != NULL && info[1].stack_size > 0u && info[1].stack_size <= H_STACK);
    CHECK(info[2].stack_high_water > 0u && info[2].stack_high_water < info[2].stack_size);
    CHECK(info[3].task == (takt_task_t *)(uintptr_t)0xa5a5a5a5a5a5a5a5ull); /* untouched */

    /* A short array: the count of all, only max written. */
    memset(info, 0xa5, sizeof(info));
    CHECK_EQ(info_all(info, 1, false), 3u);
    CHECK(info[0].task == takt_task_idle() && info[0].stack_high_water == 0u);
    CHECK(info[1].task == (takt_task_t *)(uintptr_t)0xa5a5a5a5a5a5a5a5ull);
    CHECK_EQ(takt_task_info_each(NULL, NULL, false), 0u);

    /* One task; NULL is the caller. */
    takt_task_info_t one;
    CHECK_EQ(takt_task_info(NULL, &one, false), TAKT_OK);
    CHECK(one.task == second && one.state == TAKT_TASK_RUNNING && one.stack_high_water == 0u);
    CHECK_EQ(takt_task_info(first, NULL, false), TAKT_ERR_ARG);
    takt_task_t fake;
    memset(&fake, 0, sizeof(fake));
    CHECK_EQ(takt_task_info(&fake, &one, false), TAKT_ERR_ARG);

    CHECK_EQ(hp_inject_irq(hp_now_ns() + T(1), 5, isr_queries, NULL), TAKT_OK);
    CHECK_EQ(takt_sched_lock(), TAKT_OK); /* the walk nests in a held lock */
    CHECK_EQ(info_all(info, 5, false), 3u);
    CHECK_EQ(takt_sched_lock_depth(), 1u);
    CHECK_EQ(takt_sched_unlock(), 0);

    /* The words: per task, NULL is the caller, a bad handle has none. */
    CHECK_EQ(takt_task_user_words(first)[1], 0xf1u);
    takt_task_user_words(NULL)[0] = 0x5eu;
    CHECK_EQ(takt_task_user_words(second)[0], 0x5eu);
    CHECK_EQ(takt_task_user_words(first)[0], 0u);
    CHECK(takt_task_user_words(&fake) == NULL);
    CHECK_EQ(takt_delay(100), TAKT_OK); /* the idle task runs from 7 */
    h_park();
}

static void run(takt_scheduler_t scheduler)
{
    takt_init_params_t init = {.scheduler = scheduler, .preemption = TAKT_PREEMPT_FULL};
    h_begin_params(&init, 20);
    takt_server_t *server = NULL;
    if (scheduler == TAKT_SCHED_HSF) {
        takt_server_params_t sp = {.name = "S", .period = 100, .budget = 100, .priority = 1,
                                   .type = TAKT_SERVER_DEFERRABLE};
        CHECK_EQ(takt_server_create(&sp, &server), TAKT_OK);
    }
    takt_task_params_t p1 = {.name = "first", .entry = first_body, .priority = 3, .stack_size = H_STACK};
    takt_task_params_t p2 = {.name = "second", .entry = second_body, .priority = 2, .stack_size = H_STACK};
    if (server != NULL) {
        CHECK_EQ(takt_server_task_create(server, &p1, &first), TAKT_OK);
        CHECK_EQ(takt_server_task_create(server, &p2, &second), TAKT_OK);
    } else {
        CHECK_EQ(takt_task_create(&p1, &first), TAKT_OK);
        CHECK_EQ(takt_task_create(&p2, &second), TAKT_OK);
    }
    /* Before the start: snapshots work, no task runs. */
    takt_task_info_t info[3];
    CHECK_EQ(info_all(info, 3, false), 3u);
    CHECK(info[1].state == TAKT_TASK_READY && info[2].state == TAKT_TASK_READY && info[1].run_time == 0u);
    isr_result = 99;
    isr_count = 99;
    h_start();
    CHECK_EQ(isr_result, TAKT_ERR_CONTEXT);
    CHECK_EQ(isr_count, 0u);
    CHECK_RUN_TIME(takt_task_run_time(second), (uint32_t)T(4));
    h_end();
}

int main(void)
{
    run(TAKT_SCHED_FP);
    run(TAKT_SCHED_FP_LIST);
    run(TAKT_SCHED_HSF);
    return check_summary();
}
