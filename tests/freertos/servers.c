/*
 * Servers through the FreeRTOS-style API (server.h), configTAKT_POLICY
 * TAKT_POLICY_HSF. Expected values come from SCHEDULING.md "Worked example":
 * servers S1 (priority 2, P 20, Q 10), S2 (priority 1, P 40, Q 15) — FreeRTOS
 * priorities 1 and 0 here, Takt's 2 and 1 —; tasks T1 (S1, priority 1, T 20,
 * C 4), T2 (S1, priority 2, T 15, C 2), T3 (S2, priority 2, T 60, C 10).
 *
 * The tick hook records the server that ran during each tick (the spec's
 * server column, one character per tick: 1 = S1, 2 = S2, . = the idle server);
 * the tasks record each job's first and last tick (the spec's task rows).
 *   idling, 50 ticks:     1x10 2x10 1x10 2x5 .x5 1x10; T2 0-2, T1 2-6, T3
 *                         10-20, T2 20-22, T1 22-26, T2 40-42, T2 45-47, T1 42-48
 *   deferrable, 20 ticks: 1x6 2x9 1x2 2 .x2; T2 0-2, T1 2-6, T2 15-17, T3 6-18
 * A third run blocks in a deferrable server: H (P 20, Q 4) holds task A
 * waiting on a binary semaphore; L (P 20, Q 20) holds B (busy) and G (gives at
 * 7). An interrupt gives at 3: A preempts B with H's whole budget (4), and at
 * 7 H still has 3 (A worked 1): a blocked deferrable server keeps its budget.
 * A supervisor server (highest priority, deferrable, Q 1) ends each run.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include <string.h>

#include "rtos_check.h"
#include "rtos_port.h"
#include "semphr.h"
#include "server.h"
#include "timers.h"

#define MS 1000000ull

static char tick_servers[128];
static unsigned ticks_seen;

static void record_tick(void)
{
    if (ticks_seen + 1u < sizeof(tick_servers)) {
        ServerHandle_t running = xServerGetCurrentServerHandle();
        tick_servers[ticks_seen++] = running == NULL ? '.' : pcServerGetName(running)[1];
        tick_servers[ticks_seen] = '\0';
    }
}

static char jobs[512];

static void job_add(const char *name, TickType_t start, TickType_t end)
{
    size_t len = strlen(jobs);
    snprintf(jobs + len, sizeof(jobs) - len, "%s%s:%lu-%lu", len ? " " : "", name,
             (unsigned long)start, (unsigned long)end);
}

typedef struct {
    const char *name;
    uint64_t wcet_ticks;
} job_spec_t;

static TickType_t budget_at_t2[8];
static unsigned t2_jobs;

static void job_loop(void *arg)
{
    const job_spec_t *spec = arg;
    for (;;) {
        TickType_t start = xTaskGetTickCount();
        if (strcmp(spec->name, "T2") == 0 && t2_jobs < 8) {
            budget_at_t2[t2_jobs++] = xServerGetRemainingBudget(NULL);
        }
        rtos_work_ns(spec->wcet_ticks * MS);
        job_add(spec->name, start, xTaskGetTickCount());
        xTaskJobEnd();
    }
}

static void end_run(void *arg)
{
    (void)arg;
    vTaskEndScheduler();
}

/* The supervisor: ends the run at tick `end`. */
static void add_supervisor(TickType_t end)
{
    ServerHandle_t sup = NULL;
    CHECK(xServerCreate(1000, 1, configMAX_PRIORITIES - 1, eServerDeferrable, "S9", &sup) == pdPASS,
          "supervisor server");
    CHECK(xServerTaskCreatePeriodic(sup, end_run, "end", configMINIMAL_STACK_SIZE, NULL, 0, 1000, 0, end,
                                    NULL) == pdPASS,
          "supervisor task");
}

static const job_spec_t t1 = {"T1", 4}, t2 = {"T2", 2}, t3 = {"T3", 10};
static ServerHandle_t s1, s2;

static void example(eServerType type, TickType_t end)
{
    jobs[0] = '\0';
    ticks_seen = 0;
    t2_jobs = 0;
    CHECK(xServerCreate(20, 10, 1, type, "S1", &s1) == pdPASS, "create S1");
    CHECK(xServerCreate(40, 15, 0, type, "S2", &s2) == pdPASS, "create S2");
    CHECK(xServerTaskCreatePeriodic(s1, job_loop, "T1", configMINIMAL_STACK_SIZE, (void *)&t1, 0, 20, 0, 0,
                                    NULL) == pdPASS &&
              xServerTaskCreatePeriodic(s1, job_loop, "T2", configMINIMAL_STACK_SIZE, (void *)&t2, 1, 15, 0,
                                        0, NULL) == pdPASS &&
              xServerTaskCreatePeriodic(s2, job_loop, "T3", configMINIMAL_STACK_SIZE, (void *)&t3, 1, 60, 0,
                                        0, NULL) == pdPASS,
          "create T1, T2, T3");
    add_supervisor(end);
    rtos_tick_probe = record_tick;
    vTaskStartScheduler();
    rtos_tick_probe = NULL;
}

/* ---- blocking in a deferrable server ---- */

static SemaphoreHandle_t sem;
static ServerHandle_t srv_h, srv_l;
static char wake_log[256];

static void wake_add(const char *what, TickType_t budget)
{
    size_t len = strlen(wake_log);
    snprintf(wake_log + len, sizeof(wake_log) - len, "%s%s%lu@%lu", len ? " " : "", what,
             (unsigned long)budget, (unsigned long)xTaskGetTickCount());
}

static void waiter(void *arg)
{
    (void)arg;
    for (;;) {
        configASSERT(xSemaphoreTake(sem, portMAX_DELAY) == pdTRUE);
        wake_add("A", xServerGetRemainingBudget(NULL));
        rtos_work_ns(1 * MS);
    }
}

static void giver(void *arg)
{
    (void)arg;
    vTaskDelay(7);
    wake_add("H", xServerGetRemainingBudget(srv_h));
    xSemaphoreGive(sem);
    wake_add("G", xServerGetRemainingBudget(NULL));
    for (;;) {
        vTaskSuspend(NULL);
    }
}

static void busy(void *arg)
{
    (void)arg;
    for (;;) {
        rtos_work_ns(1000 * MS);
    }
}

static BaseType_t isr_woken;

/* ---- vTaskSuspendAll past a depletion ---- */

static ServerHandle_t srv_k;
static BaseType_t resume_all_result = 99;
static TickType_t locker_back_at;

static void suspend_all_locker(void *arg)
{
    (void)arg;
    vTaskSuspendAll();
    rtos_work_ns(5 * MS); /* the budget of 3 runs out at 3 */
    resume_all_result = xTaskResumeAll();
    locker_back_at = xTaskGetTickCount();
    busy(NULL);
}

static void give_isr(void *arg)
{
    (void)arg;
    isr_woken = pdFALSE;
    xSemaphoreGiveFromISR(sem, &isr_woken);
    portYIELD_FROM_ISR(isr_woken);
}

static void timer_callback(TimerHandle_t timer)
{
    (void)timer;
    wake_add("cb", xServerGetRemainingBudget(NULL));
}

int main(void)
{
    printf("variant hsf\n");
    CHECK(xServerGetRemainingBudget(NULL) == 0 && xServerGetCurrentServerHandle() == NULL,
          "no server runs before the first one exists");

    example(eServerIdling, 50);
    CHECK(strcmp(tick_servers, "1111111111" "2222222222" "1111111111" "22222" "....." "1111111111") == 0,
          "idling: servers per tick %s", tick_servers);
    CHECK(strcmp(jobs, "T2:0-2 T1:2-6 T3:10-20 T2:20-22 T1:22-26 T2:40-42 T2:45-47 T1:42-48") == 0,
          "idling: jobs %s", jobs);
    CHECK(t2_jobs == 4 && budget_at_t2[0] == 10 && budget_at_t2[1] == 10 && budget_at_t2[2] == 10 &&
              budget_at_t2[3] == 5,
          "idling: S1's budget at T2's starts %lu %lu %lu %lu", (unsigned long)budget_at_t2[0],
          (unsigned long)budget_at_t2[1], (unsigned long)budget_at_t2[2], (unsigned long)budget_at_t2[3]);
    ServerStats_t st;
    CHECK(xServerGetStats(s2, &st) == pdPASS && st.ullBudgetConsumed == 15 && st.uxDepletions == 1 &&
              st.uxReplenishments == 2 && st.uxDeadlineMisses == 0,
          "idling: S2 consumed %llu, %lu depletion(s), %lu replenishments", (unsigned long long)st.ullBudgetConsumed,
          (unsigned long)st.uxDepletions, (unsigned long)st.uxReplenishments);
    CHECK(xServerGetStats(s1, NULL) == pdFAIL, "xServerGetStats refuses a NULL result");

    example(eServerDeferrable, 20);
    CHECK(strcmp(tick_servers, "111111" "222222222" "11" "2" "..") == 0, "deferrable: servers per tick %s",
          tick_servers);
    CHECK(strcmp(jobs, "T2:0-2 T1:2-6 T2:15-17 T3:6-18") == 0, "deferrable: jobs %s", jobs);

    /* Bad input changes nothing. */
    ServerHandle_t bad = NULL;
    CHECK(xServerCreate(0, 1, 1, eServerIdling, "x", &bad) == pdFAIL && bad == NULL, "period 0 refused");
    CHECK(xServerCreate(10, 11, 1, eServerIdling, "x", &bad) == pdFAIL && bad == NULL, "budget above period refused");
    CHECK(xServerCreate(10, 0, 1, eServerIdling, "x", &bad) == pdFAIL, "budget 0 refused");
    CHECK(xServerCreate(10, 5, configMAX_PRIORITIES, eServerIdling, "x", &bad) == pdFAIL,
          "priority configMAX_PRIORITIES refused");
    CHECK(xServerCreate(10, 5, 1, (eServerType)7, "x", &bad) == pdFAIL && bad == NULL, "unknown type refused");
    CHECK(xServerTaskCreate(NULL, busy, "x", configMINIMAL_STACK_SIZE, NULL, 0, NULL) == pdFAIL,
          "a task without a server is refused");
    CHECK(pcServerGetName(NULL) == NULL, "no name for a bad handle");

    /* Third run: blocking in a deferrable server, and the timer task in a server. */
    wake_log[0] = '\0';
    sem = xSemaphoreCreateBinary();
    CHECK(xTimerCreate("t", 10, pdFALSE, NULL, timer_callback) == NULL,
          "xTimerCreate fails before xServerSetTimerServer");
    CHECK(xServerCreate(20, 4, 2, eServerDeferrable, "SH", &srv_h) == pdPASS &&
              xServerCreate(20, 20, 1, eServerDeferrable, "SL", &srv_l) == pdPASS,
          "create H and L");
    CHECK(xServerSetTimerServer(NULL) == pdFAIL, "xServerSetTimerServer refuses a bad handle");
    CHECK(xServerSetTimerServer(srv_l) == pdPASS, "the timer task lives in L");
    TimerHandle_t timer = xTimerCreate("t", 10, pdFALSE, NULL, timer_callback);
    CHECK(timer != NULL && xTimerStart(timer, 0) == pdPASS, "a timer in L");
    CHECK(xServerSetTimerServer(srv_h) == pdFAIL, "the timer task does not move");
    TaskHandle_t a = NULL;
    CHECK(xServerTaskCreate(srv_h, waiter, "A", configMINIMAL_STACK_SIZE, NULL, 0, &a) == pdPASS &&
              xServerTaskCreate(srv_l, giver, "G", configMINIMAL_STACK_SIZE, NULL, 1, NULL) == pdPASS &&
              xServerTaskCreate(srv_l, busy, "B", configMINIMAL_STACK_SIZE, NULL, 0, NULL) == pdPASS,
          "create A, G, B");
    add_supervisor(12);
    rtos_inject_irq(3 * MS + 10, 1, give_isr, NULL);
    vTaskStartScheduler();
    /* timer: started at 0, due at 10, runs in L (timer task priority above B): L has 20 - 8 */
    CHECK(strcmp(wake_log, "A4@3 H3@7 A3@7 G14@8 cb12@10") == 0, "blocking: %s", wake_log);
    CHECK(isr_woken == pdTRUE, "the give from the interrupt woke a task that preempts");
    CHECK(xServerGetStats(srv_h, &st) == pdPASS && st.ullBudgetConsumed == 2 && st.uxDepletions == 0,
          "H consumed %llu (only while A ran)", (unsigned long long)st.ullBudgetConsumed);

    /* Fourth run: a task inside vTaskSuspendAll past its server's depletion
     * runs on to xTaskResumeAll (the ticks past it are an overrun), then the
     * other server runs until K's replenishment. */
    ServerHandle_t srv_o = NULL;
    CHECK(xServerCreate(10, 3, 2, eServerIdling, "K", &srv_k) == pdPASS &&
              xServerCreate(20, 20, 1, eServerIdling, "O", &srv_o) == pdPASS,
          "create K and O");
    CHECK(xServerTaskCreate(srv_k, suspend_all_locker, "K", configMINIMAL_STACK_SIZE, NULL, 0, NULL) == pdPASS &&
              xServerTaskCreate(srv_o, busy, "O", configMINIMAL_STACK_SIZE, NULL, 0, NULL) == pdPASS,
          "create the locker and a busy task");
    add_supervisor(12);
    vTaskStartScheduler();
    CHECK(resume_all_result == pdTRUE && locker_back_at == 10,
          "xTaskResumeAll yielded to O; the locker back at K's replenishment (%ld at %lu)", (long)resume_all_result,
          (unsigned long)locker_back_at);
    CHECK(xServerGetStats(srv_k, &st) == pdPASS && st.uxOverrunTicks == 2 && st.uxDepletions == 1,
          "K: 2 overrun ticks past 1 depletion (%lu, %lu)", (unsigned long)st.uxOverrunTicks,
          (unsigned long)st.uxDepletions);
    CHECK(xServerGetStats(srv_o, &st) == pdPASS && st.uxOverrunTicks == 0, "O: no overrun");
    return rtos_check_summary();
}
