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
 *     (one below the producers, one above); the producers now and then
 *     suspend the scheduler across a tick or more, or catch up lost ticks,
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
 * Under deferred preemption (the fp-deferred program) every task is one
 * non-preemptive stretch between the preemption points after its busy work
 * and its blocking calls.
 * The seed (first program argument) picks the intervals and the tasks'
 * choices; the same seed replays the same run (QEMU -icount).
 */
#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"

enum { P0, P1, C0, C1, SEM_TAKER, NOTIFY_TAKER, WORKERS };
#define ISR_STREAM WORKERS
#define STRESS_STREAMS (WORKERS + 1u)
#include "stress_common.h"

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

typedef struct {
    uint32_t producer;
    uint32_t seq;
} message_t;

static QueueHandle_t queue;
static SemaphoreHandle_t counting;
static SemaphoreHandle_t lock;
static SemaphoreHandle_t all_received;
static TaskHandle_t worker[WORKERS];
/* A consumer below the producers (the queue fills: sends block and time out)
 * and one above them. */
static const UBaseType_t worker_priority[WORKERS] = {2, 2, 1, 4, 5, 5};
static const char *const worker_name[WORKERS] = {"P0", "P1", "C0", "C1", "SEM", "NOTE"};

/* Producers' progress (each written by its producer only). */
static uint32_t next_seq[PRODUCERS];
static uint32_t send_timeouts, isr_queue_full;

/* The consumers' bookkeeping, under the mutex. */
static uint8_t seen[PRODUCERS][STRESS_MESSAGES_PER_PRODUCER];
static uint32_t last_seen[2][PRODUCERS];
static uint32_t received, duplicates, reorders;
static uint32_t guarded_counter, guarded_sections;

/* The kernel-level interrupt's tallies; the takers' (each written by one task). */
static volatile uint32_t semaphore_given, semaphore_refused, notifications_given;
static uint32_t semaphore_taken, notifications_taken;
static volatile uint32_t kernel_irqs;

/* Phases: all received (producers and consumers park), then quiet (both
 * timers off: the takers drain and park). */
static volatile bool done, quiet;

/* ---- the interrupt ---- */

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
        vTaskNotifyGiveFromISR(worker[NOTIFY_TAKER], &woken);
        notifications_given++;
    }
    TIMER_VALUE(KERNEL_TIMER) = kernel_interval(ISR_STREAM);
    in_kernel_irq = false;
    portYIELD_FROM_ISR(woken);
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
        uint32_t roll = (r >> 24) % 64u;
        if (roll == 0u) {
            /* The scheduler held across a tick or more: under hsf the
             * server's budget may run out meanwhile (an overrun). */
            vTaskSuspendAll();
            busy(me, 40000u);
            (void)xTaskResumeAll();
        } else if (roll == 1u) {
            (void)xTaskCatchUpTicks((TickType_t)(r >> 30)); /* 0..3 ticks lost and caught up */
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
        MUST(xSemaphoreTake(lock, portMAX_DELAY) == pdPASS);
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
        MUST(xSemaphoreGive(lock) == pdPASS);
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
            MUST(xSemaphoreTake(lock, portMAX_DELAY) == pdPASS);
            guarded_update(SEM_TAKER);
            MUST(xSemaphoreGive(lock) == pdPASS);
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
    for (unsigned w = 0; w < WORKERS; w++) {
        CHECK_EQ(uxTaskPriorityGet(worker[w]), worker_priority[w]);
    }
    /* The run exercised what it is for. */
    CHECK(semaphore_taken > 0u && notifications_taken > 0u);
    CHECK(isr_queue_full > 0u && send_timeouts > 0u);
    check_interrupts_and_floats(kernel_irqs);
#if configTAKT_POLICY == TAKT_POLICY_HSF
    ServerStats_t stats_a, stats_b;
    MUST(xServerGetStats(server_a, &stats_a) == pdPASS && xServerGetStats(server_b, &stats_b) == pdPASS);
    printf("async stress: servers: SA %lu depletions, %lu overrun ticks; SB %lu depletions, %lu overrun ticks\n",
           (unsigned long)stats_a.uxDepletions, (unsigned long)stats_a.uxOverrunTicks,
           (unsigned long)stats_b.uxDepletions, (unsigned long)stats_b.uxOverrunTicks);
    CHECK(stats_a.uxOverrunTicks + stats_b.uxOverrunTicks > 0u); /* suspensions ran past a depletion */
#endif
}

static void checker(void *arg)
{
    (void)arg;
    start_interrupts(kernel_irq, ISR_STREAM); /* the checker runs first */
    bool arrived = xSemaphoreTake(all_received, RUN_LIMIT_TICKS) == pdPASS;
    done = true;
    stop_interrupts();
    quiet = true;
    CHECK(wait_parked(WORKERS));
    report(arrived);
    end_run();
}

int main(int argc, char **argv)
{
    uint32_t seed = stress_seed(argc, argv);
    printf("async_stress: seed 0x%08" PRIx32 ", %u messages\n", seed, (unsigned)TOTAL_MESSAGES);
    queue = xQueueCreate(QUEUE_LENGTH, sizeof(message_t));
    counting = xSemaphoreCreateCounting(SEMAPHORE_MAX, 0);
    lock = xSemaphoreCreateMutex();
    all_received = xSemaphoreCreateBinary();
    MUST(queue != NULL && counting != NULL && lock != NULL && all_received != NULL);
    create_servers();
    static const unsigned server_of[WORKERS] = {0, 1, 0, 1, 1, 0};
    static TaskFunction_t const code_of[WORKERS] = {producer, producer, consumer, consumer,
                                                    semaphore_taker, notification_taker};
    static const uintptr_t arg_of[WORKERS] = {P0, P1, 0, 1, 0, 0};
    for (unsigned w = 0; w < WORKERS; w++) {
        create_task(code_of[w], worker_name[w], 512, (void *)arg_of[w], worker_priority[w], server_of[w],
                    &worker[w]);
    }
    create_task(checker, "CHECK", 1024, NULL, configMAX_PRIORITIES - 1, 1, NULL);
    vTaskStartScheduler();
    return CHECK_SUMMARY();
}
