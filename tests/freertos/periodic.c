/*
 * One FreeRTOS program, several Takt policies (built once per variant:
 * tests/freertos/CMakeLists.txt). Expected values are derived by hand below.
 *
 * Run 1 — the demo "delay-until periodic tasks": T1 (period 10, 3 ms of work,
 * priority 3, first release at tick 0), T2 (20, 6 ms, priority 2, from tick 1),
 * T3 (40, 8 ms as 4 + preemption point + 4, priority 1, from tick 2); worst
 * response times over 80 ticks:
 *   FP, full preemption:     3, 8, 18  (T3 runs 9..10, preempted by T1 10..13, ends at 20)
 *   FP, deferred preemption: 6, 8, 18  (T1's job at 10 waits for T3's point at 13)
 *   EDF (any ready queue):  10, 8, 15  (FreeRTOS tasks have no deadline: they run
 *                            in the background class, first come first served,
 *                            priorities ignored; T3 runs 9..17 and T1's job at 10
 *                            waits for it)
 * The releases are staggered so no two tasks wake at one instant: the order of
 * simultaneous wake-ups in EDF's background class is not what this checks.
 * Run 2 — the Takt extension xTaskCreatePeriodic: P1 (period 4, 2 ms), P2
 * (period 6, 3 ms), utilisation 1, and a supervisor that ends the run at its
 * release at tick 96 (FP: highest priority; EDF: deadline 1096, so it runs
 * later, in no job's way). Rate monotonic misses P2's first deadline of every
 * 12-tick hyperperiod (it completes at 7): 8 misses by tick 96; EDF meets every
 * deadline; so does non-preemptive FP here (P2 runs 2..5 undisturbed, P1's
 * job at 4 runs 5..7 before its deadline at 8).
 * Run 3 — when jobs are released, and which parameters xTaskCreatePeriodic
 * takes: the offset counts from the task's creation (docs/freertos.md, "Under
 * EDF"). R (period 10, offset 0) and R3 (offset 3), created by a task at tick
 * 1, are released at 1, 11, 21 and 4, 14, 24; B, created before the start
 * with offset 5 and a deadline of 25 (beyond its period: accepted), at 5, 15,
 * 25. Their jobs do no work and meet no one, so each starts at its release.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include "rtos_check.h"
#include "rtos_port.h"

#define MS 1000000ull

#if configTAKT_POLICY == TAKT_POLICY_FP_LIST /* the same schedule as over the bitmap */
#define VARIANT "fp-list/full"
static const TickType_t expected_worst[3] = {3, 8, 18};
#define EXPECT_P2_MISSES 8
#elif configTAKT_POLICY == TAKT_POLICY_FP_HWPQ /* the same, the levels in the device */
#define VARIANT "fp-hwpq/full"
static const TickType_t expected_worst[3] = {3, 8, 18};
#define EXPECT_P2_MISSES 8
#elif configTAKT_POLICY == TAKT_POLICY_FP && configTAKT_PREEMPTION == configTAKT_PREEMPT_FULL
#define VARIANT "fp/full"
static const TickType_t expected_worst[3] = {3, 8, 18};
#define EXPECT_P2_MISSES 8
#elif configTAKT_POLICY == TAKT_POLICY_FP
#define VARIANT "fp/deferred"
static const TickType_t expected_worst[3] = {6, 8, 18};
#define EXPECT_P2_MISSES 0
#else
#define VARIANT "edf"
static const TickType_t expected_worst[3] = {10, 8, 15};
#define EXPECT_P2_MISSES 0
#endif

typedef struct {
    TickType_t offset;
    TickType_t period;
    uint64_t work_ns;
    TickType_t worst;
    unsigned jobs;
} periodic_t;

static periodic_t tasks[3] = {{0, 10, 3 * MS, 0, 0}, {1, 20, 6 * MS, 0, 0}, {2, 40, 8 * MS, 0, 0}};
static TickType_t t_start;

static void delay_until_task(void *arg)
{
    periodic_t *self = arg;
    TickType_t wake = t_start;
    if (self->offset > 0) {
        xTaskDelayUntil(&wake, self->offset);
    }
    for (;;) {
        TickType_t release = wake;
        if (self == &tasks[2]) {
            rtos_work_ns(self->work_ns / 2);
            taskPREEMPTION_POINT();
            rtos_work_ns(self->work_ns / 2);
        } else {
            rtos_work_ns(self->work_ns);
        }
        TickType_t response = xTaskGetTickCount() - release;
        if (response > self->worst) {
            self->worst = response;
        }
        self->jobs++;
        xTaskDelayUntil(&wake, self->period);
    }
}

static void end_after_80(void *arg)
{
    (void)arg;
    vTaskDelay(80);
    vTaskEndScheduler();
}

static TaskHandle_t p1, p2;

static void job_loop(void *arg)
{
    uint64_t work = *(const uint64_t *)arg;
    for (;;) {
        rtos_work_ns(work);
        xTaskJobEnd();
    }
}

#if configTAKT_DEADLINE_MISS_HOOK
/* The signature docs/freertos.md gives (a TaskHandle_t is a takt_task_t *):
 * once per missed job, with the job's index. */
static unsigned hook_calls_p2, hook_calls_other, hook_odd_jobs;

void takt_deadline_miss_hook(takt_task_t *task, uint32_t job)
{
    if (task == p2) {
        hook_calls_p2++;
        hook_odd_jobs += job % 2u; /* P2 misses job 0 of each 12-tick hyperperiod: the even ones */
    } else {
        hook_calls_other++;
    }
}
#endif

static void supervisor(void *arg)
{
    (void)arg;
    vTaskEndScheduler();
}

/* Run 3: the first three job starts of R, R3 and B. */
static TickType_t job_starts[3][3];
static TickType_t created_at;
static BaseType_t created_ok;

static void record_jobs(void *arg)
{
    TickType_t *starts = arg;
    for (unsigned job = 0;; job++) {
        if (job < 3) {
            starts[job] = xTaskGetTickCount();
        }
        xTaskJobEnd();
    }
}

static void creator(void *arg)
{
    (void)arg;
    vTaskDelay(1);
    created_at = xTaskGetTickCount();
    created_ok = xTaskCreatePeriodic(record_jobs, "R", configMINIMAL_STACK_SIZE, job_starts[0], 2, 10, 0, 0,
                                     NULL) == pdPASS &&
                 xTaskCreatePeriodic(record_jobs, "R3", configMINIMAL_STACK_SIZE, job_starts[1], 2, 10, 0, 3,
                                     NULL) == pdPASS;
    vTaskDelay(29);
    vTaskEndScheduler();
}

static bool starts_are(const TickType_t *starts, TickType_t first)
{
    return starts[0] == first && starts[1] == first + 10 && starts[2] == first + 20;
}

int main(void)
{
    printf("variant %s\n", VARIANT);
    static const UBaseType_t prio[3] = {3, 2, 1};
    static const char *const names[3] = {"T1", "T2", "T3"};
    for (int i = 0; i < 3; i++) {
        xTaskCreate(delay_until_task, names[i], configMINIMAL_STACK_SIZE, &tasks[i], prio[i], NULL);
    }
    xTaskCreate(end_after_80, "end", configMINIMAL_STACK_SIZE, NULL, 0, NULL);
    t_start = xTaskGetTickCount();
    vTaskStartScheduler();
    for (int i = 0; i < 3; i++) {
        CHECK(tasks[i].worst == expected_worst[i], "%s: %u jobs, worst response %lu ticks (expected %lu)", names[i],
              tasks[i].jobs, (unsigned long)tasks[i].worst, (unsigned long)expected_worst[i]);
    }

    /* A second run of the scheduler: periodic tasks with deadlines. */
    static const uint64_t w1 = 2 * MS, w2 = 3 * MS;
    CHECK(xTaskCreatePeriodic(job_loop, "P1", configMINIMAL_STACK_SIZE, (void *)&w1, 2, 4, 0, 0, &p1) == pdPASS &&
              xTaskCreatePeriodic(job_loop, "P2", configMINIMAL_STACK_SIZE, (void *)&w2, 1, 6, 0, 0, &p2) == pdPASS &&
              xTaskCreatePeriodic(supervisor, "end", configMINIMAL_STACK_SIZE, NULL, 3, 1000, 0, 96, NULL) == pdPASS,
          "xTaskCreatePeriodic");
    CHECK(xTaskCreatePeriodic(job_loop, "bad", configMINIMAL_STACK_SIZE, NULL, 1, 0, 0, 0, NULL) ==
              errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY,
          "a period of 0 is refused");
    vTaskStartScheduler();
    /* Read before the next run: the handles stay valid until then. */
    UBaseType_t m1 = uxTaskGetDeadlineMisses(p1), m2 = uxTaskGetDeadlineMisses(p2);
    CHECK(m1 == 0, "P1: no deadline miss");
    CHECK(m2 == EXPECT_P2_MISSES, "P2: %lu deadline misses (expected %d)", (unsigned long)m2, EXPECT_P2_MISSES);
#if configTAKT_DEADLINE_MISS_HOOK
    CHECK(hook_calls_p2 == m2 && hook_odd_jobs == 0 && hook_calls_other == 0,
          "deadline-miss hook: %u calls for P2 (even jobs only), %u for others", hook_calls_p2, hook_calls_other);
#endif

    /* Run 3: releases count from creation; what the deadline may be. */
    const TickType_t half = (TickType_t)1 << 31; /* the kernel's timeouts stay below half the tick range */
    CHECK(xTaskCreatePeriodic(job_loop, "bad", configMINIMAL_STACK_SIZE, NULL, 1, half, 0, 0, NULL) ==
                  errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY &&
              xTaskCreatePeriodic(job_loop, "bad", configMINIMAL_STACK_SIZE, NULL, 1, 10, half, 0, NULL) ==
                  errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY &&
              xTaskCreatePeriodic(job_loop, "bad", configMINIMAL_STACK_SIZE, NULL, 1, 10, 0, half, NULL) ==
                  errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY,
          "a period, deadline or offset of 2^31 ticks is refused");
    TaskHandle_t b = NULL;
    TickType_t run3_start = xTaskGetTickCount();
    CHECK(xTaskCreatePeriodic(record_jobs, "B", configMINIMAL_STACK_SIZE, job_starts[2], 1, 10, 25, 5, &b) == pdPASS,
          "a deadline beyond the period is accepted");
    xTaskCreate(creator, "creator", configMINIMAL_STACK_SIZE, NULL, 3, NULL);
    vTaskStartScheduler();
    CHECK(created_ok && created_at == run3_start + 1, "R and R3 created at tick 1 of the run");
    CHECK(starts_are(job_starts[0], created_at), "R (offset 0, created at %lu): jobs at %lu, %lu, %lu",
          (unsigned long)created_at, (unsigned long)job_starts[0][0], (unsigned long)job_starts[0][1],
          (unsigned long)job_starts[0][2]);
    CHECK(starts_are(job_starts[1], created_at + 3), "R3 (offset 3, created at %lu): jobs at %lu, %lu, %lu",
          (unsigned long)created_at, (unsigned long)job_starts[1][0], (unsigned long)job_starts[1][1],
          (unsigned long)job_starts[1][2]);
    CHECK(starts_are(job_starts[2], run3_start + 5), "B (offset 5, created before the start): jobs at %lu, %lu, %lu",
          (unsigned long)job_starts[2][0], (unsigned long)job_starts[2][1], (unsigned long)job_starts[2][2]);
    CHECK(uxTaskGetDeadlineMisses(b) == 0, "B: no deadline miss");
    return rtos_check_summary();
}
