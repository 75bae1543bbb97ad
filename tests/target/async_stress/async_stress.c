/*
 * Stress with asynchronous interrupts on the Cortex-M port (QEMU mps2-an385 /
 * an386), through the FreeRTOS API. The kernel tests of tests/c inject their
 * interrupts on tick boundaries or at chosen instants; here two CMSDK timers
 * fire at pseudo-random intervals of a few hundred instructions, so they land
 * anywhere: inside critical sections (their exit then takes the interrupt),
 * in PendSV, in the tick, between the halves of the fast paths that serve a
 * waiting task in line.
 *
 *   timer 0, the kernel's interrupt level: xQueueSendFromISR (a producer of
 *     its own), xSemaphoreGiveFromISR on a counting semaphore,
 *     vTaskNotifyGiveFromISR to a task, portYIELD_FROM_ISR;
 *   timer 1, above the kernel's level (never masked, calls nothing of it):
 *     counts where it lands (BASEPRI raised: inside a kernel section; inside
 *     timer 0's handler: nested) and, with an FPU, does float work;
 *   tasks: two producers of equal priority and two consumers on one queue
 *     (one below the producers, one above),
 *     a counting-semaphore taker and a notification taker of equal
 *     priority, with random timeouts, delays and busy work; the consumers
 *     and the semaphore taker share a mutex around a read-modify-write with
 *     busy work inside (so the mutex's inheritance runs under every
 *     interleaving), and with an FPU every task checks its float registers
 *     (s0-s15 through a float loop, s16-s31 through a pattern it keeps in
 *     them across its busy work).
 *
 * Checked at the end (a checker task of the highest priority, after both
 * timers are off and every worker parked): every message arrived exactly
 * once and in each producer's order; the mutex's counter lost no update;
 * semaphore gives = takes + the count left; notification gives = takes; every
 * task is back at its own priority; no float register changed under a task;
 * the unmasked interrupt did land inside kernel sections and inside the
 * kernel-level handler. Any kernel assertion fails the run (configASSERT).
 * The seed (first program argument) picks the intervals and the tasks'
 * choices; the same seed replays the same run (QEMU -icount).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "FreeRTOS.h"
#include "armv7m_regs.h"
#include "check.h"
#include "queue.h"
#include "semphr.h"
#include "takt_armv7m.h"
#include "task.h"
#if configTAKT_POLICY == TAKT_POLICY_HSF
#include "server.h"
#endif

#ifndef STRESS_MESSAGES_PER_PRODUCER
#define STRESS_MESSAGES_PER_PRODUCER 4000u
#endif
#define PRODUCERS 3u /* two tasks and the interrupt */
#define ISR_PRODUCER 2u
#define TOTAL_MESSAGES (PRODUCERS * STRESS_MESSAGES_PER_PRODUCER)
#define QUEUE_LENGTH 4u
#define SEMAPHORE_MAX 6u
/* The run fails rather than hangs when the messages have not all arrived
 * after this many ticks. */
#define RUN_LIMIT_TICKS 20000u

/* CMSDK APB timers of the MPS2 boards: count the 25 MHz clock down, interrupt
 * at 0 and reload. */
#define TIMER_REG(base, offset) (*(volatile uint32_t *)((base) + (offset)))
#define TIMER_CTRL(base) TIMER_REG(base, 0x0u)
#define TIMER_VALUE(base) TIMER_REG(base, 0x4u)
#define TIMER_RELOAD(base) TIMER_REG(base, 0x8u)
#define TIMER_INTCLEAR(base) TIMER_REG(base, 0xCu)
#define TIMER_ENABLE 1u
#define TIMER_IRQ_ENABLE 8u
#define KERNEL_TIMER 0x40000000u
#define KERNEL_TIMER_IRQ 8u
#define HIGH_TIMER 0x40001000u
#define HIGH_TIMER_IRQ 9u
#define HIGH_IRQ_PRIORITY 0x00u /* above TAKT_ARM_BASEPRI: never masked */

typedef struct {
    uint32_t producer;
    uint32_t seq;
} message_t;

enum { P0, P1, C0, C1, SEM_TAKER, NOTIFY_TAKER, WORKERS };

static QueueHandle_t queue;
static SemaphoreHandle_t counting;
static SemaphoreHandle_t lock;
static SemaphoreHandle_t all_received;
static TaskHandle_t worker[WORKERS];
static TaskHandle_t notify_taker_handle;
/* A consumer below the producers (the queue fills: sends block and time out)
 * and one above them. */
static const UBaseType_t worker_priority[WORKERS] = {2, 2, 1, 4, 5, 5};
static const char *const worker_name[WORKERS] = {"P0", "P1", "C0", "C1", "SEM", "NOTE"};

/* Per-task random streams: a task's choices do not depend on another's. */
static uint32_t rng_state[WORKERS + 1u];
#define ISR_STREAM WORKERS

static uint32_t rng(unsigned stream)
{
    uint32_t x = rng_state[stream];
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    rng_state[stream] = x;
    return x;
}

/* Producers' progress (each written by its producer only). */
static uint32_t next_seq[PRODUCERS];
static uint32_t send_timeouts, isr_queue_full;

/* The consumers' bookkeeping, under the mutex. */
static uint8_t seen[PRODUCERS][STRESS_MESSAGES_PER_PRODUCER];
static uint32_t last_seen[2][PRODUCERS];
static uint32_t received, duplicates, reorders;
static uint32_t guarded_counter, guarded_sections;

/* The interrupts' tallies; the takers' (each written by one task). */
static volatile uint32_t semaphore_given, semaphore_refused, notifications_given;
static uint32_t semaphore_taken, notifications_taken;
static volatile uint32_t kernel_irqs, high_irqs, high_in_section, high_nested;
static volatile bool in_kernel_irq;

/* Phases: all received (producers and consumers park), then quiet (both
 * timers off: the takers drain and park). */
static volatile bool done, quiet;
static volatile uint32_t parked;
static uint32_t float_failures;

void vAssertCalled(const char *file, int line)
{
    taskDISABLE_INTERRUPTS();
    fprintf(stderr, "async_stress: assertion failed at %s:%d\n", file, line);
    takt_arm_exit(70);
}

void vApplicationStackOverflowHook(TaskHandle_t xTask, char *pcTaskName)
{
    (void)xTask;
    fprintf(stderr, "async_stress: stack overflow in %s\n", pcTaskName);
    takt_arm_exit(71);
}

#if defined(__ARM_FP)
/* s0-s15: a float sum the compiler keeps in them while the loop runs. */
static uint32_t float_sum_wrong(uint32_t n)
{
    float sum = 0.0f;
    for (uint32_t i = 0; i < n; i++) {
        sum += 1.0f;
    }
    return sum == (float)n ? 0u : 1u;
}

/* s16-s31, which only a switch saves: a pattern written to them, kept over
 * `spins` loop turns (interrupts and switches land there), then compared. */
#define FP_SET(r) "vmov " r ", %[p]\n\tadd %[p], %[p], #1\n\t"
#define FP_CHECK(r) "vmov %[t], " r "\n\teor %[t], %[t], %[p]\n\torr %[b], %[b], %[t]\n\tadd %[p], %[p], #1\n\t"
#define FP_BANK(op)                                                                               \
    op("s16") op("s17") op("s18") op("s19") op("s20") op("s21") op("s22") op("s23") op("s24")      \
        op("s25") op("s26") op("s27") op("s28") op("s29") op("s30") op("s31")

static uint32_t float_bank_wrong(uint32_t pattern, uint32_t spins)
{
    uint32_t bad = 0, scratch;
    __asm volatile(FP_BANK(FP_SET) "1:\n\tsubs %[n], %[n], #1\n\tbne 1b\n\t"
                                   "sub %[p], %[p], #16\n\t" FP_BANK(FP_CHECK)
                   : [p] "+r"(pattern), [n] "+r"(spins), [b] "+r"(bad), [t] "=&r"(scratch)
                   :
                   : "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26",
                     "s27", "s28", "s29", "s30", "s31", "cc");
    return bad != 0u ? 1u : 0u;
}
#endif

/* Busy work of a random length; with an FPU it checks the float registers
 * across it. Called by tasks only (float_failures is theirs; a lost update
 * of it could only hide a failure that another one also counts). */
static void busy(unsigned stream, uint32_t max_spins)
{
    uint32_t spins = 1u + rng(stream) % max_spins;
#if defined(__ARM_FP)
    uint32_t wrong = float_bank_wrong(rng(stream), spins) + float_sum_wrong(spins / 4u + 1u);
    if (wrong != 0u) {
        float_failures++;
    }
#else
    takt_arm_spin(spins);
#endif
}

/* A call that cannot fail in this program, failing: the run stops there. */
static void must(bool ok, int line)
{
    if (!ok) {
        vAssertCalled(__FILE__, line);
    }
}

static void park(void)
{
    taskENTER_CRITICAL();
    parked++;
    taskEXIT_CRITICAL();
    vTaskSuspend(NULL);
}

/* ---- the interrupts ---- */

static void timer_start(uint32_t base, uint32_t counts)
{
    TIMER_CTRL(base) = 0;
    TIMER_INTCLEAR(base) = 1;
    TIMER_VALUE(base) = counts;
    TIMER_RELOAD(base) = counts;
    TIMER_CTRL(base) = TIMER_ENABLE | TIMER_IRQ_ENABLE;
}

static void timer_stop(uint32_t base, unsigned irq)
{
    TIMER_CTRL(base) = 0;
    TIMER_INTCLEAR(base) = 1;
    NVIC_ICPR(irq / 32u) = 1u << (irq % 32u);
}

/* 40..2599 timer counts: at -icount shift=5 (32 ns an instruction, 40 ns a
 * count) 50..3248 instructions, about ten interrupts a tick. Much more often,
 * and the takers they wake leave the producers no time on the Cortex-M4,
 * whose busy work also checks the float registers. */
static uint32_t next_interval(void)
{
    return 40u + rng(ISR_STREAM) % 2560u;
}

static void kernel_irq(void)
{
    TIMER_INTCLEAR(KERNEL_TIMER) = 1;
    in_kernel_irq = true;
    kernel_irqs++;
    BaseType_t woken = pdFALSE;
    uint32_t choice = rng(ISR_STREAM);
    if ((choice & 3u) == 0u || (choice & 3u) == 3u) {
        if (next_seq[ISR_PRODUCER] < STRESS_MESSAGES_PER_PRODUCER) {
            message_t m = {ISR_PRODUCER, next_seq[ISR_PRODUCER]};
            if (xQueueSendFromISR(queue, &m, &woken) == pdPASS) {
                next_seq[ISR_PRODUCER]++;
            } else {
                isr_queue_full++;
            }
        }
    }
    if ((choice & 3u) == 1u) {
        if (xSemaphoreGiveFromISR(counting, &woken) == pdPASS) {
            semaphore_given++;
        } else {
            semaphore_refused++;
        }
    }
    if ((choice & 3u) == 2u || (choice & 3u) == 3u) {
        vTaskNotifyGiveFromISR(notify_taker_handle, &woken);
        notifications_given++;
    }
    TIMER_VALUE(KERNEL_TIMER) = next_interval();
    in_kernel_irq = false;
    portYIELD_FROM_ISR(woken);
}

static void high_irq(void)
{
    TIMER_INTCLEAR(HIGH_TIMER) = 1;
    high_irqs++;
    if (arm_basepri() != 0u) {
        high_in_section++;
    }
    if (in_kernel_irq) {
        high_nested++;
    }
#if defined(__ARM_FP)
    if (float_sum_wrong(8u) != 0u) {
        takt_arm_exit(72); /* an interrupt's own float state: no task to blame */
    }
#endif
    /* Its own stream: never interleaved with the kernel handler's. */
    uint32_t x = rng_state[ISR_STREAM] * 2654435761u;
    TIMER_VALUE(HIGH_TIMER) = 30u + (x >> 22);
}

/* ---- the tasks ---- */

static void producer(void *arg)
{
    unsigned me = (unsigned)(uintptr_t)arg;
    while (!done && next_seq[me] < STRESS_MESSAGES_PER_PRODUCER) {
        message_t m = {me, next_seq[me]};
        busy(me, 300u);
        uint32_t r = rng(me);
        TickType_t timeout = r % 4u == 0u ? 0u : (TickType_t)(r >> 8) % 3u;
        if (xQueueSend(queue, &m, timeout) == pdPASS) {
            next_seq[me]++;
        } else {
            send_timeouts++;
        }
        if ((r >> 16) % 16u == 0u) {
            vTaskDelay((TickType_t)(r >> 20) % 3u);
        }
    }
    park();
}

/* Inside the mutex: a read-modify-write with work in between. */
static void guarded_update(unsigned stream)
{
    uint32_t before = guarded_counter;
    busy(stream, 100u);
    guarded_counter = before + 1u;
    guarded_sections++;
}

static void consumer(void *arg)
{
    unsigned me = (unsigned)(uintptr_t)arg;
    unsigned stream = C0 + me;
    while (!done) {
        message_t m;
        BaseType_t got = xQueueReceive(queue, &m, 1u + (TickType_t)(rng(stream) % 3u));
        must(xSemaphoreTake(lock, portMAX_DELAY) == pdPASS, __LINE__);
        if (got == pdPASS) {
            if (m.producer >= PRODUCERS || m.seq >= STRESS_MESSAGES_PER_PRODUCER ||
                seen[m.producer][m.seq] != 0u) {
                duplicates++;
            } else {
                seen[m.producer][m.seq] = 1u;
                if (m.seq + 1u <= last_seen[me][m.producer]) {
                    reorders++;
                }
                last_seen[me][m.producer] = m.seq + 1u;
                if (++received == TOTAL_MESSAGES) {
                    done = true;
                    xSemaphoreGive(all_received);
                }
            }
        }
        guarded_update(stream);
        must(xSemaphoreGive(lock) == pdPASS, __LINE__);
        busy(stream, 200u);
        uint32_t r = rng(stream);
        if (r % 8u == 0u) {
            vTaskDelay(1u + (TickType_t)(r >> 8) % 2u); /* the queue fills meanwhile */
        }
    }
    park();
}

static void semaphore_taker(void *arg)
{
    (void)arg;
    while (!quiet) {
        if (xSemaphoreTake(counting, (TickType_t)(rng(SEM_TAKER) % 3u)) == pdPASS) {
            semaphore_taken++;
        }
        if (rng(SEM_TAKER) % 4u == 0u) {
            must(xSemaphoreTake(lock, portMAX_DELAY) == pdPASS, __LINE__);
            guarded_update(SEM_TAKER);
            must(xSemaphoreGive(lock) == pdPASS, __LINE__);
        }
        busy(SEM_TAKER, 200u);
    }
    park();
}

static void notification_taker(void *arg)
{
    (void)arg;
    while (!quiet) {
        if (ulTaskNotifyTake(pdFALSE, (TickType_t)(rng(NOTIFY_TAKER) % 3u)) != 0u) {
            notifications_taken++;
        }
        busy(NOTIFY_TAKER, 200u);
    }
    /* The timers are off: what is left of the count is taken at once. */
    notifications_taken += ulTaskNotifyTake(pdTRUE, 0);
    park();
}

static void report(bool arrived)
{
    uint32_t missing = 0;
    for (uint32_t p = 0; p < PRODUCERS; p++) {
        for (uint32_t s = 0; s < STRESS_MESSAGES_PER_PRODUCER; s++) {
            missing += seen[p][s] == 0u;
        }
    }
    printf("async_stress: %" PRIu32 " of %u messages received (%" PRIu32 " missing, %" PRIu32
           " duplicated, %" PRIu32 " out of order), %" PRIu32 " send timeouts, %" PRIu32
           " interrupt sends refused (full)\n",
           received, (unsigned)TOTAL_MESSAGES, missing, duplicates, reorders, send_timeouts,
           isr_queue_full);
    printf("async_stress: semaphore %" PRIu32 " given (%" PRIu32 " refused at its maximum), %" PRIu32
           " taken, %u left; notifications %" PRIu32 " given, %" PRIu32 " taken; mutex sections %" PRIu32
           ", counter %" PRIu32 "\n",
           semaphore_given, semaphore_refused, semaphore_taken, (unsigned)uxSemaphoreGetCount(counting),
           notifications_given, notifications_taken, guarded_sections, guarded_counter);
    printf("async_stress: interrupts: kernel level %" PRIu32 ", unmasked %" PRIu32 " (%" PRIu32
           " inside kernel sections, %" PRIu32 " nested in the kernel-level handler); %" PRIu32
           " context switches, %" PRIu32 " ticks; float register failures %" PRIu32 "\n",
           kernel_irqs, high_irqs, high_in_section, high_nested, takt_context_switches(),
           (uint32_t)xTaskGetTickCount(), float_failures);
    if (!arrived) {
        for (unsigned p = 0; p < PRODUCERS; p++) {
            printf("async_stress: producer %u sent %" PRIu32 "\n", p, next_seq[p]);
        }
        for (unsigned w = 0; w < WORKERS; w++) {
            printf("async_stress: %s state %d priority %u\n", worker_name[w], (int)eTaskGetState(worker[w]),
                   (unsigned)uxTaskPriorityGet(worker[w]));
        }
    }
    CHECK(arrived);
    CHECK_EQ(received, TOTAL_MESSAGES);
    CHECK_EQ(missing, 0);
    CHECK_EQ(duplicates, 0);
    CHECK_EQ(reorders, 0);
    CHECK_EQ(guarded_counter, guarded_sections);
    CHECK_EQ(semaphore_given, semaphore_taken + uxSemaphoreGetCount(counting));
    CHECK_EQ(notifications_given, notifications_taken);
    CHECK_EQ(float_failures, 0);
    for (unsigned w = 0; w < WORKERS; w++) {
        CHECK_EQ(uxTaskPriorityGet(worker[w]), worker_priority[w]);
    }
    /* The run exercised what it is for. */
    CHECK(semaphore_taken > 0u && notifications_taken > 0u);
    CHECK(isr_queue_full > 0u && send_timeouts > 0u);
    CHECK(high_in_section > 0u);
    CHECK(high_nested > 0u);
}

static void checker(void *arg)
{
    (void)arg;
    /* The interrupts start with the run (the checker runs first). */
    must(takt_arm_irq_attach(KERNEL_TIMER_IRQ, kernel_irq, TAKT_ARM_KERNEL_IRQ_PRIORITY) == 0 &&
             takt_arm_irq_attach(HIGH_TIMER_IRQ, high_irq, HIGH_IRQ_PRIORITY) == 0,
         __LINE__);
    timer_start(KERNEL_TIMER, next_interval());
    timer_start(HIGH_TIMER, 500u);
    bool arrived = xSemaphoreTake(all_received, RUN_LIMIT_TICKS) == pdPASS;
    done = true;
    taskENTER_CRITICAL();
    timer_stop(KERNEL_TIMER, KERNEL_TIMER_IRQ);
    taskEXIT_CRITICAL();
    timer_stop(HIGH_TIMER, HIGH_TIMER_IRQ);
    quiet = true;
    for (uint32_t waited = 0; parked < WORKERS && waited < 1000u; waited++) {
        vTaskDelay(1);
    }
    CHECK_EQ(parked, WORKERS);
    report(arrived);
    vTaskEndScheduler();
    for (;;) {
        vTaskDelay(1000);
    }
}

/* ---- creation under each policy ---- */

#if configTAKT_POLICY == TAKT_POLICY_HSF
/* Two servers that run out of budget while the tasks work, share the mutex
 * and the queue across them, and are replenished by the tick. */
static ServerHandle_t server_a, server_b;
#endif

static BaseType_t create_task(TaskFunction_t code, const char *name, uint16_t stack_words, void *arg,
                              UBaseType_t priority, unsigned server_index, TaskHandle_t *handle)
{
#if configTAKT_POLICY == TAKT_POLICY_FP || configTAKT_POLICY == TAKT_POLICY_FP_LIST
    (void)server_index;
    return xTaskCreate(code, name, stack_words, arg, priority, handle);
#elif configTAKT_POLICY == TAKT_POLICY_HSF
    return xServerTaskCreate(server_index == 0u ? server_a : server_b, code, name, stack_words, arg,
                             priority, handle);
#else
    /* EDF: one job that never ends; a larger priority is an earlier deadline
     * and equal priorities are equal deadlines. */
    (void)server_index;
    TickType_t deadline = (TickType_t)(1u << 28) - (TickType_t)priority * (1u << 16);
    return xTaskCreatePeriodic(code, name, stack_words, arg, priority, (TickType_t)1 << 30, deadline, 0,
                               handle);
#endif
}

static uint32_t seed_from(int argc, char **argv)
{
    uint32_t seed = 0x5EED0001u;
    if (argc > 1) {
        seed = (uint32_t)strtoul(argv[1], NULL, 0);
    }
    return seed != 0u ? seed : 1u;
}

int main(int argc, char **argv)
{
    uint32_t seed = seed_from(argc, argv);
    for (unsigned s = 0; s <= WORKERS; s++) {
        rng_state[s] = seed ^ (0x9E3779B9u * (s + 1u));
        if (rng_state[s] == 0u) {
            rng_state[s] = 1u;
        }
    }
    printf("async_stress: seed 0x%08" PRIx32 ", %u messages\n", seed, (unsigned)TOTAL_MESSAGES);
    queue = xQueueCreate(QUEUE_LENGTH, sizeof(message_t));
    counting = xSemaphoreCreateCounting(SEMAPHORE_MAX, 0);
    lock = xSemaphoreCreateMutex();
    all_received = xSemaphoreCreateBinary();
    if (queue == NULL || counting == NULL || lock == NULL || all_received == NULL) {
        fprintf(stderr, "async_stress: objects not created\n");
        return 1;
    }
#if configTAKT_POLICY == TAKT_POLICY_HSF
    if (xServerCreate(8, 3, 2, eServerIdling, "SA", &server_a) != pdPASS ||
        xServerCreate(6, 2, 3, eServerDeferrable, "SB", &server_b) != pdPASS) {
        fprintf(stderr, "async_stress: servers not created\n");
        return 1;
    }
#endif
    static const unsigned server_of[WORKERS] = {0, 1, 0, 1, 1, 0};
    static TaskFunction_t const code_of[WORKERS] = {producer, producer, consumer, consumer,
                                                    semaphore_taker, notification_taker};
    static const uintptr_t arg_of[WORKERS] = {P0, P1, 0, 1, 0, 0};
    for (unsigned w = 0; w < WORKERS; w++) {
        if (create_task(code_of[w], worker_name[w], 512, (void *)arg_of[w], worker_priority[w],
                        server_of[w], &worker[w]) != pdPASS) {
            fprintf(stderr, "async_stress: task %s not created\n", worker_name[w]);
            return 1;
        }
    }
    notify_taker_handle = worker[NOTIFY_TAKER];
    TaskHandle_t checker_handle;
    if (create_task(checker, "CHECK", 1024, NULL, configMAX_PRIORITIES - 1, 1, &checker_handle) != pdPASS) {
        fprintf(stderr, "async_stress: checker not created\n");
        return 1;
    }
    vTaskStartScheduler();
    timer_stop(KERNEL_TIMER, KERNEL_TIMER_IRQ);
    timer_stop(HIGH_TIMER, HIGH_TIMER_IRQ);
    return CHECK_SUMMARY();
}
