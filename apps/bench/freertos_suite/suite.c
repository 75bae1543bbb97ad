/*
 * Kernel benchmark suite on the FreeRTOS API (issue 7): the latency tests of
 * the hardware-accelerated FreeRTOS study (Semaphore-2, Mutex-1, Mutex-6,
 * Message-passing-1/3/4, Interrupt-response-1, Timeout-1, plus the yield and
 * the tick) and Thread-Metric-style throughput tests. Only FreeRTOS calls and
 * the small platform interface of bench_platform.h (clock, interrupt trigger,
 * task creation for the policy, masked-instruction meter, exit) are used, so
 * the same file builds against FreeRTOS itself. Method and output:
 * README.md and docs/benchmarks.md.
 *
 * A window runs from just before the API call in the calling task (the clock
 * read) to the first instruction after the call in whichever task runs next
 * (the next clock read), minus the cost of the reads themselves. A window
 * that saw an unexpected tick is discarded and measured again.
 *
 * Output, one line each (instructions):
 *   window,<test>,<param>,<n>,<min>,<max>,<sum>    plain build
 *   masked,<test>,<param>,<n>,<min>,<max>,<sum>    meter build: masked instructions
 *   throughput,<test>,<ticks>,<operations>         plain build
 *   info,<key>,<value> / error,<text> / done,<errors>
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"

#include "bench_platform.h"

#ifdef BENCH_QUICK
#define SAMPLES 4u
#define IRQ_SAMPLES 4u
#define TM_TICKS 2u
static const uint32_t gaps[] = {1, 29};
static const uint32_t mutex6_gaps[] = {2, 29};
static const uint32_t sizes[] = {4, 1024};
static const uint32_t delayed_counts[] = {0, 31};
#else
#define SAMPLES 20u
#define IRQ_SAMPLES 30u
#define TM_TICKS 10u
static const uint32_t gaps[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29};
static const uint32_t mutex6_gaps[] = {2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                       16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29};
static const uint32_t sizes[] = {4, 8, 16, 32, 64, 128, 256, 512, 1024};
static const uint32_t delayed_counts[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                                          11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                                          22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
#endif
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define WARMUP 2u        /* first samples of every statistic are dropped */
#define STACK_WORDS 256u /* benchmark tasks */
#define DRIVER_STACK_WORDS 1024u
#define DRIVER_PRIORITY (configMAX_PRIORITIES - 1) /* benchmark tasks stay below it */
#define MAX_SPAWNED 40u
#define ITEM_MAX 1024u

/* ---- statistics ---- */

typedef struct {
    const char *name;
    uint32_t param;
    uint32_t skip;
    uint32_t n, min, max;
    uint64_t sum;
    uint32_t masked_min, masked_max;
    uint64_t masked_sum;
    uint32_t discarded;
} stat_t;

typedef struct {
    volatile TickType_t ticks;
    volatile bench_masked_mark_t mark;
    volatile bool open;
    volatile bench_clock_t clock;
} window_t;

static uint32_t read_overhead;
static unsigned errors;
static TaskHandle_t driver;
static volatile bool finished;

static void stat_init(stat_t *s, const char *name, uint32_t param)
{
    memset(s, 0, sizeof(*s));
    s->name = name;
    s->param = param;
    s->skip = WARMUP;
}

static inline void window_start(window_t *w)
{
    w->ticks = xTaskGetTickCount();
    w->open = true;
    w->mark = bench_masked_mark();
    w->clock = bench_clock();
}

/* Closes w with the reading `now` taken right after the call; ticks: how many
 * tick interrupts the window is meant to contain. */
static void window_end(stat_t *s, window_t *w, bench_clock_t now, TickType_t ticks)
{
    if (!w->open) {
        return;
    }
    w->open = false;
    uint32_t masked = bench_masked_since(w->mark);
    if (xTaskGetTickCount() - w->ticks != ticks || masked == UINT32_MAX) {
        s->discarded++;
        return;
    }
    if (s->skip > 0) {
        s->skip--;
        return;
    }
    uint32_t insns = bench_instructions(w->clock, now) - read_overhead;
    if (s->n == 0 || insns < s->min) {
        s->min = insns;
    }
    if (s->n == 0 || insns > s->max) {
        s->max = insns;
    }
    if (s->n == 0 || masked < s->masked_min) {
        s->masked_min = masked;
    }
    if (s->n == 0 || masked > s->masked_max) {
        s->masked_max = masked;
    }
    s->sum += insns;
    s->masked_sum += masked;
    s->n++;
}

static void stat_print(const stat_t *s)
{
    if (s->n == 0) {
        errors++;
    }
    if (BENCH_MASKED) {
        printf("masked,%s,%lu,%lu,%lu,%lu,%lu\n", s->name, (unsigned long)s->param, (unsigned long)s->n,
               (unsigned long)s->masked_min, (unsigned long)s->masked_max, (unsigned long)s->masked_sum);
    } else {
        printf("window,%s,%lu,%lu,%lu,%lu,%lu\n", s->name, (unsigned long)s->param, (unsigned long)s->n,
               (unsigned long)s->min, (unsigned long)s->max, (unsigned long)s->sum);
    }
}

/* ---- running one test: the driver creates, waits, deletes, prints ---- */

static TaskHandle_t spawned[MAX_SPAWNED];
static unsigned spawned_count;
static stat_t stats[2];
static window_t win[2];

static SemaphoreHandle_t sem;
static SemaphoreHandle_t mutex;
static QueueHandle_t queue;
static TaskHandle_t task_high, task_mid;

static TaskHandle_t spawn(TaskFunction_t code, UBaseType_t priority, void *arg)
{
    TaskHandle_t t = NULL;
    if (spawned_count >= MAX_SPAWNED ||
        bench_task_create(code, "bench", STACK_WORDS, arg, priority, &t) != pdPASS) {
        printf("error,task creation failed\n");
        bench_exit(2);
    }
    spawned[spawned_count++] = t;
    return t;
}

/* Called by a benchmark task when its statistics are complete: the driver
 * (highest priority) takes over at once. */
static void finish(void)
{
    if (!finished) {
        finished = true;
        xTaskNotifyGive(driver);
    }
    for (;;) {
        vTaskSuspend(NULL); /* not reached: the driver deletes the caller */
    }
}

static bool complete(unsigned nstats)
{
    for (unsigned i = 0; i < nstats; i++) {
        if (stats[i].n < SAMPLES) {
            return false;
        }
    }
    return true;
}

static void run_and_report(unsigned nstats)
{
    ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
    while (spawned_count > 0) {
        vTaskDelete(spawned[--spawned_count]);
    }
    for (unsigned i = 0; i < nstats; i++) {
        stat_print(&stats[i]);
    }
}

static void begin(unsigned nstats, const char *a, const char *b, uint32_t param)
{
    finished = false;
    stat_init(&stats[0], a, param);
    if (nstats > 1) {
        stat_init(&stats[1], b, param);
    }
    win[0].open = false;
    win[1].open = false;
}

/* Closes window i with `now`, the clock read by the caller right after the
 * call (so nothing here is in the window), and hands over to the driver once
 * the test's nstats statistics are complete. */
static void close_window(unsigned i, bench_clock_t now, TickType_t ticks, unsigned nstats)
{
    window_end(&stats[i], &win[i], now, ticks);
    if (complete(nstats)) {
        finish();
    }
}

/* The handover tests: T1 (`high`, priority 1 + gap, also task_high) and T2
 * (`low`, priority 1), with the test's primitive created by the caller. */
static void run_handover(unsigned nstats, const char *a, const char *b, uint32_t gap,
                         TaskFunction_t high, TaskFunction_t low)
{
    begin(nstats, a, b, gap);
    task_high = spawn(high, 1 + gap, NULL);
    spawn(low, 1, NULL);
    run_and_report(nstats);
}

/* ---- yield: two equal tasks hand over with taskYIELD ---- */

static void yield_task(void *arg)
{
    (void)arg;
    for (;;) {
        bench_clock_t now = bench_clock();
        close_window(0, now, 0, 1);
        window_start(&win[0]);
        taskYIELD();
    }
}

static void test_yield(void)
{
    begin(1, "yield", NULL, 0);
    spawn(yield_task, 1, NULL);
    spawn(yield_task, 1, NULL);
    run_and_report(1);
}

/* ---- Semaphore-2: wait-block (T1 -> T2) and signal-unblock (T2 -> T1) ---- */

static void sem2_high(void *arg)
{
    (void)arg;
    for (;;) {
        window_start(&win[0]);
        xSemaphoreTake(sem, portMAX_DELAY);
        bench_clock_t now = bench_clock();
        close_window(1, now, 0, 2);
    }
}

static void sem2_low(void *arg)
{
    (void)arg;
    for (;;) {
        bench_clock_t now = bench_clock();
        window_end(&stats[0], &win[0], now, 0);
        window_start(&win[1]);
        xSemaphoreGive(sem);
    }
}

static void test_semaphore2(uint32_t gap)
{
    sem = xSemaphoreCreateBinary();
    run_handover(2, "sem_wait_block", "sem_signal_unblock", gap, sem2_high, sem2_low);
    vSemaphoreDelete(sem);
}

/* ---- Mutex-1: T1 blocks on the mutex T2 holds (T2 inherits); T2 gives it
 * back (disinherits, T1 runs) ---- */

/* T1 of Mutex-1 and Mutex-6: released by T2, blocks on the mutex T2 holds */
static void mutex_high(void *arg)
{
    (void)arg;
    for (;;) {
        ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
        window_start(&win[0]);
        xSemaphoreTake(mutex, portMAX_DELAY);
        bench_clock_t now = bench_clock();
        window_end(&stats[1], &win[1], now, 0);
        xSemaphoreGive(mutex);
        if (complete(2)) {
            finish();
        }
    }
}

static void mutex1_low(void *arg)
{
    (void)arg;
    for (;;) {
        xSemaphoreTake(mutex, portMAX_DELAY);
        xTaskNotifyGive(task_high);
        bench_clock_t now = bench_clock();
        window_end(&stats[0], &win[0], now, 0);
        window_start(&win[1]);
        xSemaphoreGive(mutex);
    }
}

static void test_mutex1(uint32_t gap)
{
    mutex = xSemaphoreCreateMutex();
    run_handover(2, "mutex1_inherit", "mutex1_disinherit", gap, mutex_high, mutex1_low);
    vSemaphoreDelete(mutex);
}

/* ---- Mutex-6: as Mutex-1, but TA is released while TB holds the mutex
 * together with a ready middle task TM (priority 2): inheritance is what lets
 * TB, not TM, run while TA waits ---- */

static void mutex6_mid(void *arg)
{
    (void)arg;
    for (;;) {
        ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
    }
}

static void mutex6_low(void *arg)
{
    (void)arg;
    for (;;) {
        xSemaphoreTake(mutex, portMAX_DELAY);
        vTaskSuspendAll();
        xTaskNotifyGive(task_mid);
        xTaskNotifyGive(task_high);
        xTaskResumeAll();
        bench_clock_t now = bench_clock();
        window_end(&stats[0], &win[0], now, 0);
        window_start(&win[1]);
        xSemaphoreGive(mutex);
    }
}

static void test_mutex6(uint32_t gap)
{
    begin(2, "mutex6_inherit", "mutex6_disinherit", gap);
    mutex = xSemaphoreCreateMutex();
    task_high = spawn(mutex_high, 1 + gap, NULL);
    task_mid = spawn(mutex6_mid, 2, NULL);
    spawn(mutex6_low, 1, NULL);
    run_and_report(2);
    vSemaphoreDelete(mutex);
}

/* ---- Message-passing-1: send-data and receive-data of one item ---- */

static uint8_t item_out[ITEM_MAX], item_in[ITEM_MAX];

static void mp1_task(void *arg)
{
    (void)arg;
    for (;;) {
        window_start(&win[0]);
        xQueueSend(queue, item_out, 0);
        bench_clock_t now = bench_clock();
        window_end(&stats[0], &win[0], now, 0);
        window_start(&win[1]);
        xQueueReceive(queue, item_in, 0);
        now = bench_clock();
        close_window(1, now, 0, 2);
    }
}

static void test_mp1(uint32_t size)
{
    begin(2, "mq_send", "mq_receive", size);
    queue = xQueueCreate(1, size);
    spawn(mp1_task, 1, NULL);
    run_and_report(2);
    vQueueDelete(queue);
}

/* ---- Message-passing-3: receive-block (T1 -> T2), send-unblock (T2 -> T1) ---- */

static void mp3_high(void *arg)
{
    (void)arg;
    uint32_t v;
    for (;;) {
        window_start(&win[0]);
        xQueueReceive(queue, &v, portMAX_DELAY);
        bench_clock_t now = bench_clock();
        close_window(1, now, 0, 2);
    }
}

static void mp3_low(void *arg)
{
    (void)arg;
    uint32_t v = 7;
    for (;;) {
        bench_clock_t now = bench_clock();
        window_end(&stats[0], &win[0], now, 0);
        window_start(&win[1]);
        xQueueSend(queue, &v, 0);
    }
}

static void test_mp3(uint32_t gap)
{
    queue = xQueueCreate(1, sizeof(uint32_t));
    run_handover(2, "mq_receive_block", "mq_send_unblock", gap, mp3_high, mp3_low);
    vQueueDelete(queue);
}

/* ---- Message-passing-4: T1 sends to the queue T2 waits on; T2 is lower, so
 * no switch: the window ends in T1 ---- */

static void mp4_high(void *arg)
{
    (void)arg;
    uint32_t v = 7;
    for (;;) {
        vTaskDelay(1); /* T2 gets to wait on the queue meanwhile */
        window_start(&win[0]);
        xQueueSend(queue, &v, 0);
        bench_clock_t now = bench_clock();
        close_window(0, now, 0, 1);
    }
}

static void mp4_low(void *arg)
{
    (void)arg;
    uint32_t v;
    for (;;) {
        xQueueReceive(queue, &v, portMAX_DELAY);
    }
}

static void test_mp4(uint32_t gap)
{
    queue = xQueueCreate(1, sizeof(uint32_t));
    run_handover(1, "mq_send_unblock_noswitch", NULL, gap, mp4_high, mp4_low);
    vQueueDelete(queue);
}

/* ---- interrupts: one handler, its action chosen per test ---- */

typedef enum { ISR_NOTIFY_HIGH, ISR_CLOCK, ISR_GIVE_SEM, ISR_NONE } isr_action_t;
static volatile isr_action_t isr_action = ISR_NONE;
static volatile bench_clock_t isr_clock;
static volatile uint32_t isr_count;

static void bench_isr(void)
{
    BaseType_t woken = pdFALSE;
    switch (isr_action) {
    case ISR_NOTIFY_HIGH:
        vTaskNotifyGiveFromISR(task_high, &woken);
        break;
    case ISR_CLOCK:
        isr_clock = bench_clock();
        break;
    case ISR_GIVE_SEM:
        isr_count++;
        xSemaphoreGiveFromISR(sem, &woken);
        break;
    default:
        break;
    }
    portYIELD_FROM_ISR(woken);
}

/* Interrupt-response-1: T2 pends the interrupt, its handler notifies T1,
 * T1 runs. The window includes the instructions that pend the interrupt. */
static void irq1_high(void *arg)
{
    (void)arg;
    for (;;) {
        ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
        bench_clock_t now = bench_clock();
        window_end(&stats[0], &win[0], now, 0);
        if (stats[0].n >= IRQ_SAMPLES) {
            finish();
        }
    }
}

static void irq1_low(void *arg)
{
    (void)arg;
    for (;;) {
        window_start(&win[0]);
        bench_irq_trigger();
    }
}

static void test_irq1(void)
{
    begin(1, "irq_to_task", NULL, 0);
    isr_action = ISR_NOTIFY_HIGH;
    task_high = spawn(irq1_high, 2, NULL);
    spawn(irq1_low, 1, NULL);
    run_and_report(1);
    isr_action = ISR_NONE;
}

/* ---- the tick: pended by software, with and without a wake-up ---- */

static void tick_nowake_task(void *arg)
{
    (void)arg;
    for (;;) {
        window_start(&win[0]);
        bench_tick_trigger();
        bench_clock_t now = bench_clock();
        close_window(0, now, 1, 1);
    }
}

static void tick_wake_high(void *arg)
{
    (void)arg;
    for (;;) {
        vTaskDelay(1);
        bench_clock_t now = bench_clock();
        close_window(0, now, 1, 1);
    }
}

static void tick_wake_low(void *arg)
{
    (void)arg;
    for (;;) {
        window_start(&win[0]);
        bench_tick_trigger();
    }
}

static void test_ticks(void)
{
    begin(1, "tick_no_wake", NULL, 0);
    spawn(tick_nowake_task, 1, NULL);
    run_and_report(1);
    begin(1, "tick_wake_preempt", NULL, 0);
    spawn(tick_wake_high, 2, NULL);
    spawn(tick_wake_low, 1, NULL);
    run_and_report(1);
}

/* ---- Timeout-1: vTaskDelay with n tasks already delayed to the same or an
 * earlier tick. Every tick the n fillers (above T1) delay by 1, then T1
 * releases T2 (below it: no switch) and delays by 1; T2 runs next ---- */

static void timeout_filler(void *arg)
{
    (void)arg;
    for (;;) {
        vTaskDelay(1);
    }
}

static void timeout_high(void *arg)
{
    (void)arg;
    for (;;) {
        xTaskNotifyGive(task_mid);
        window_start(&win[0]);
        vTaskDelay(1);
    }
}

static void timeout_low(void *arg)
{
    (void)arg;
    for (;;) {
        ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
        bench_clock_t now = bench_clock();
        close_window(0, now, 0, 1);
    }
}

static void test_timeout1(uint32_t delayed)
{
    begin(1, "delay", NULL, delayed);
    task_mid = spawn(timeout_low, 2, NULL);
    for (uint32_t i = 0; i < delayed; i++) {
        spawn(timeout_filler, 4, NULL);
    }
    spawn(timeout_high, 3, NULL);
    run_and_report(1);
}

/* ---- Thread-Metric-style throughput: operations completed in TM_TICKS ---- */

#define TM_TASKS 5u
static volatile uint32_t tm_count[TM_TASKS];
static TaskHandle_t tm_task[TM_TASKS];
static volatile uint32_t tm_work[64];

/* cooperative: five equal tasks, each counts and yields */
static void tm_coop(void *arg)
{
    volatile uint32_t *c = arg;
    for (;;) {
        (*c)++;
        taskYIELD();
    }
}

/* preemptive: task i resumes task i+1 (higher, runs at once), then suspends */
static void tm_preempt(void *arg)
{
    uintptr_t i = (uintptr_t)arg;
    for (;;) {
        tm_count[i]++;
        if (i + 1 < TM_TASKS) {
            vTaskResume(tm_task[i + 1]);
        }
        if (i > 0) {
            vTaskSuspend(NULL);
        }
    }
}

/* interrupt processing: pend the interrupt, its handler gives a semaphore,
 * take it */
static void tm_interrupt(void *arg)
{
    (void)arg;
    for (;;) {
        bench_irq_trigger();
        xSemaphoreTake(sem, portMAX_DELAY);
        tm_count[0]++;
    }
}

/* interrupt preemption: the handler notifies a higher task, which runs */
static void tm_irq_preempt_low(void *arg)
{
    (void)arg;
    for (;;) {
        bench_irq_trigger();
        tm_count[0]++;
    }
}

static void tm_irq_preempt_high(void *arg)
{
    (void)arg;
    for (;;) {
        ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
        tm_count[1]++;
    }
}

/* message processing: send a 16-byte message and receive it back */
static void tm_message(void *arg)
{
    (void)arg;
    uint32_t msg[4] = {1, 2, 3, 4}, back[4];
    for (;;) {
        xQueueSend(queue, msg, portMAX_DELAY);
        xQueueReceive(queue, back, portMAX_DELAY);
        msg[0] = back[0] + 1u;
        tm_count[0]++;
    }
}

/* synchronization: take and give a semaphore that is available */
static void tm_sync(void *arg)
{
    (void)arg;
    for (;;) {
        xSemaphoreTake(sem, portMAX_DELAY);
        xSemaphoreGive(sem);
        tm_count[0]++;
    }
}

/* memory allocation: allocate and free 128 bytes */
static void tm_memory(void *arg)
{
    (void)arg;
    for (;;) {
        void *p = pvPortMalloc(128);
        if (p == NULL) {
            continue;
        }
        vPortFree(p);
        tm_count[0]++;
    }
}

/* basic processing: fixed arithmetic work, no kernel call (what the tick
 * takes away) */
static void tm_basic(void *arg)
{
    (void)arg;
    for (;;) {
        for (uint32_t i = 0; i < 64u; i++) {
            tm_work[i] = (tm_work[i] + i) ^ tm_count[0];
        }
        tm_count[0]++;
    }
}

typedef enum {
    TM_COOP,
    TM_PREEMPT,
    TM_INTERRUPT,
    TM_INTERRUPT_PREEMPT,
    TM_MESSAGE,
    TM_SYNC,
    TM_MEMORY,
    TM_BASIC
} tm_test_t;

static const char *const tm_names[] = {"tm_cooperative", "tm_preemptive", "tm_interrupt",
                                       "tm_interrupt_preemption", "tm_message", "tm_synchronization",
                                       "tm_memory", "tm_basic"};

static void test_throughput(tm_test_t test)
{
    memset((void *)tm_count, 0, sizeof(tm_count));
    vTaskDelay(1); /* start right after a tick */
    switch (test) {
    case TM_COOP:
        for (uintptr_t i = 0; i < TM_TASKS; i++) {
            tm_task[i] = spawn(tm_coop, 1, (void *)&tm_count[i]);
        }
        break;
    case TM_PREEMPT:
        for (uintptr_t i = 0; i < TM_TASKS; i++) {
            tm_task[i] = spawn(tm_preempt, 1 + i, (void *)i);
            if (i > 0) {
                vTaskSuspend(tm_task[i]);
            }
        }
        break;
    case TM_INTERRUPT:
        sem = xSemaphoreCreateBinary();
        isr_action = ISR_GIVE_SEM;
        spawn(tm_interrupt, 1, NULL);
        break;
    case TM_INTERRUPT_PREEMPT:
        isr_action = ISR_NOTIFY_HIGH;
        task_high = spawn(tm_irq_preempt_high, 2, NULL);
        spawn(tm_irq_preempt_low, 1, NULL);
        break;
    case TM_MESSAGE:
        queue = xQueueCreate(1, 16);
        spawn(tm_message, 1, NULL);
        break;
    case TM_SYNC:
        sem = xSemaphoreCreateBinary();
        xSemaphoreGive(sem);
        spawn(tm_sync, 1, NULL);
        break;
    case TM_MEMORY:
        spawn(tm_memory, 1, NULL);
        break;
    case TM_BASIC:
        spawn(tm_basic, 1, NULL);
        break;
    }
    vTaskDelay(TM_TICKS);
    uint32_t total = 0;
    for (unsigned i = 0; i < TM_TASKS; i++) {
        total += tm_count[i];
    }
    while (spawned_count > 0) {
        vTaskDelete(spawned[--spawned_count]);
    }
    isr_action = ISR_NONE;
    if (test == TM_INTERRUPT || test == TM_SYNC) {
        vSemaphoreDelete(sem);
    }
    if (test == TM_MESSAGE) {
        vQueueDelete(queue);
    }
    printf("throughput,%s,%u,%lu\n", tm_names[test], TM_TICKS, (unsigned long)total);
}

/* ---- the driver ---- */

static void calibrate(void)
{
    /* The reads' own cost, with the window helpers exactly as the tests use them. */
    uint32_t best = UINT32_MAX;
    for (int i = 0; i < 8; i++) {
        window_start(&win[0]);
        bench_clock_t now = bench_clock();
        uint32_t c = bench_instructions(win[0].clock, now);
        if (c < best) {
            best = c;
        }
    }
    read_overhead = best;
    printf("info,read_overhead,%lu\n", (unsigned long)read_overhead);
    /* From just before the trigger to the handler's first clock read:
     * trigger, interrupt dispatch and handler prologue. */
    isr_action = ISR_CLOCK;
    best = UINT32_MAX;
    for (int i = 0; i < 8; i++) {
        window_start(&win[0]);
        bench_irq_trigger();
        uint32_t c = bench_instructions(win[0].clock, isr_clock) - read_overhead;
        if (c < best) {
            best = c;
        }
    }
    isr_action = ISR_NONE;
    printf("info,irq_entry_overhead,%lu\n", (unsigned long)best);
}

static void driver_task(void *arg)
{
    (void)arg;
    calibrate();
    test_yield();
    for (unsigned i = 0; i < COUNT(gaps); i++) {
        test_semaphore2(gaps[i]);
    }
    for (unsigned i = 0; i < COUNT(gaps); i++) {
        test_mutex1(gaps[i]);
    }
    for (unsigned i = 0; i < COUNT(mutex6_gaps); i++) {
        test_mutex6(mutex6_gaps[i]);
    }
    for (unsigned i = 0; i < COUNT(sizes); i++) {
        test_mp1(sizes[i]);
    }
    for (unsigned i = 0; i < COUNT(gaps); i++) {
        test_mp3(gaps[i]);
    }
    for (unsigned i = 0; i < COUNT(gaps); i++) {
        test_mp4(gaps[i]);
    }
    test_irq1();
    test_ticks();
    for (unsigned i = 0; i < COUNT(delayed_counts); i++) {
        test_timeout1(delayed_counts[i]);
    }
    if (!BENCH_MASKED) {
        for (tm_test_t t = TM_COOP; t <= TM_BASIC; t++) {
            test_throughput(t);
        }
    }
    printf("done,%u\n", errors);
    bench_exit(errors == 0 ? 0 : 1);
}

int main(void)
{
    printf("info,platform,%s\n", BENCH_PLATFORM_NAME);
    printf("info,masked_meter,%d\n", BENCH_MASKED);
    if (bench_check_clock() != 0) {
        printf("error,the clock does not count instructions (QEMU must run with -icount shift=%u)\n",
               (unsigned)BENCH_ICOUNT_SHIFT);
        bench_exit(3);
    }
    bench_irq_attach(bench_isr);
    if (bench_task_create(driver_task, "driver", DRIVER_STACK_WORDS, NULL, DRIVER_PRIORITY, &driver) != pdPASS) {
        printf("error,driver creation failed\n");
        bench_exit(2);
    }
    vTaskStartScheduler();
    printf("error,scheduler returned\n");
    bench_exit(2);
    return 0;
}
