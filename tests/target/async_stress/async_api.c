/*
 * Stress with asynchronous interrupts, the rest of the FreeRTOS API
 * (async_stress.c has queues, semaphores, counting notifications and a
 * mutex; stress_common.h the interrupts and the checks they share). The
 * kernel-level timer's handler, at random intervals, does one of:
 *
 *   xEventGroupSetBitsFromISR of a bit a task waits for with
 *     xEventGroupWaitBits;
 *   xTaskNotifyFromISR (eSetBits) of a bit a task waits for with
 *     xTaskNotifyWait;
 *   xQueueReceiveFromISR from a queue a task feeds with blocking sends (the
 *     interrupt is the consumer, so its receive wakes the sender);
 *   xTaskResumeFromISR of a task that suspends itself over and over;
 *   xSemaphoreTakeFromISR of a counting semaphore a task gives;
 *   xTimerPendFunctionCallFromISR of a numbered call.
 *
 * Meanwhile one task keeps changing the feeder's priority (vTaskPrioritySet)
 * while the feeder and another task share a mutex (so the base priority
 * changes under inheritance), and an auto-reload timer of one tick runs.
 *
 * Bits are set again only after the waiter counted the last one, so none
 * merges with another. Checked at the end (timers off, every worker
 * parked): every bit set was received, every item fed was received by the
 * interrupt once and in order, every resume that reported a resumed task
 * was one return from vTaskSuspend, semaphore gives = takes + count, every
 * pended call ran once and in order, the feeder has the priority it was last
 * given and the others their own, and the auto-reload timer ran about once
 * a tick; plus the float and unmasked-interrupt checks of stress_common.h.
 */
#include "FreeRTOS.h"
#include "event_groups.h"
#include "queue.h"
#include "semphr.h"
#include "timers.h"

enum { EVENT_WAITER, BITS_WAITER, FEEDER, SUSPENDER, CHURNER, GIVER, WORKERS };
#define ISR_STREAM WORKERS
#define STRESS_STREAMS (WORKERS + 1u)
#include "stress_common.h"

#ifndef STRESS_FEED_ITEMS
#define STRESS_FEED_ITEMS 6000u
#endif
#define EVENT_BITS 4u
#define NOTIFY_BITS 8u
#define FEED_QUEUE_LENGTH 3u
#define SEMAPHORE_MAX 3u
#define RUN_LIMIT_TICKS 20000u

static EventGroupHandle_t events;
static QueueHandle_t feed;
static SemaphoreHandle_t counting;
static SemaphoreHandle_t lock;
static SemaphoreHandle_t all_fed;
static TimerHandle_t every_tick;
static TaskHandle_t worker[WORKERS];
static const UBaseType_t worker_priority[WORKERS] = {4, 4, 2, 3, 5, 6};
static const char *const worker_name[WORKERS] = {"EVENT", "BITS", "FEED", "SUSP", "CHURN", "GIVE"};
static const unsigned worker_server[WORKERS] = {0, 1, 0, 1, 1, 0};

/* Each counter has one writer: the interrupt, a task, or the timer task. */
static volatile uint32_t events_set[EVENT_BITS], events_received[EVENT_BITS], events_refused;
static volatile uint32_t bits_sent[NOTIFY_BITS], bits_received[NOTIFY_BITS];
/* Left for the waiters after the run's last tick: none should be. */
static volatile uint32_t events_received_late, bits_received_late;
static uint32_t fed, feed_timeouts;
static volatile uint32_t isr_received, isr_out_of_order, isr_feed_empty;
static volatile uint32_t resumes_reported, suspend_returns, resumed_by_checker;
static volatile uint32_t semaphore_given, semaphore_taken_by_isr;
static volatile uint32_t calls_pended, calls_refused, calls_run, calls_out_of_order;
static volatile uint32_t tick_callbacks;
static volatile UBaseType_t feeder_priority_set;
static uint32_t guarded_counter, guarded_sections;
static volatile uint32_t kernel_irqs;
static volatile bool quiet;

/* ---- the interrupt and what it pends ---- */

static void pended_call(void *unused, uint32_t number)
{
    (void)unused;
    if (number != calls_run) {
        calls_out_of_order++;
    }
    calls_run++;
}

static void timer_tick(TimerHandle_t timer)
{
    (void)timer;
    tick_callbacks++;
}

static void kernel_irq(void)
{
    TIMER_INTCLEAR(KERNEL_TIMER) = 1;
    in_kernel_irq = true;
    kernel_irqs++;
    BaseType_t woken = pdFALSE;
    uint32_t r = rng(ISR_STREAM);
    switch (r % 6u) {
    case 0: {
        unsigned bit = (r >> 8) % EVENT_BITS;
        if (events_set[bit] == events_received[bit]) {
            if (xEventGroupSetBitsFromISR(events, 1u << bit, &woken) == pdPASS) {
                events_set[bit]++;
            } else {
                events_refused++;
            }
        }
        break;
    }
    case 1: {
        unsigned bit = (r >> 8) % NOTIFY_BITS;
        if (bits_sent[bit] == bits_received[bit]) {
            bits_sent[bit]++;
            (void)xTaskNotifyFromISR(worker[BITS_WAITER], 1u << bit, eSetBits, &woken);
        }
        break;
    }
    case 2: {
        uint32_t item;
        if (xQueueReceiveFromISR(feed, &item, &woken) == pdPASS) {
            if (item != isr_received) {
                isr_out_of_order++;
            }
            if (++isr_received == STRESS_FEED_ITEMS) {
                (void)xSemaphoreGiveFromISR(all_fed, &woken);
            }
        } else {
            isr_feed_empty++;
        }
        break;
    }
    case 3:
        if (xTaskResumeFromISR(worker[SUSPENDER]) == pdTRUE) {
            resumes_reported++;
            woken = pdTRUE;
        }
        break;
    case 4:
        if (xSemaphoreTakeFromISR(counting, &woken) == pdPASS) {
            semaphore_taken_by_isr++;
        }
        break;
    default:
        if (xTimerPendFunctionCallFromISR(pended_call, NULL, calls_pended, &woken) == pdPASS) {
            calls_pended++;
        } else {
            calls_refused++;
        }
        break;
    }
    TIMER_VALUE(KERNEL_TIMER) = kernel_interval(ISR_STREAM);
    in_kernel_irq = false;
    portYIELD_FROM_ISR(woken);
}

/* ---- the tasks ---- */

static void guarded_update(unsigned stream)
{
    MUST(xSemaphoreTake(lock, portMAX_DELAY) == pdPASS);
    uint32_t before = guarded_counter;
    busy(stream, 100u);
    guarded_counter = before + 1u;
    guarded_sections++;
    MUST(xSemaphoreGive(lock) == pdPASS);
}

static void event_waiter(void *arg)
{
    (void)arg;
    const EventBits_t all = (1u << EVENT_BITS) - 1u;
    while (!quiet) {
        TickType_t timeout = 1u + (TickType_t)(rng(EVENT_WAITER) % 3u);
        EventBits_t got = xEventGroupWaitBits(events, all, pdTRUE, pdFALSE, timeout) & all;
        for (unsigned bit = 0; bit < EVENT_BITS; bit++) {
            if ((got & (1u << bit)) != 0u) {
                events_received[bit]++;
            }
        }
        busy(EVENT_WAITER, 150u);
    }
    events_received_late = xEventGroupWaitBits(events, all, pdTRUE, pdFALSE, 0) & all;
    park();
}

static void bits_waiter(void *arg)
{
    (void)arg;
    while (!quiet) {
        uint32_t value = 0;
        TickType_t timeout = (TickType_t)(rng(BITS_WAITER) % 3u);
        if (xTaskNotifyWait(0, UINT32_MAX, &value, timeout) == pdPASS) {
            for (unsigned bit = 0; bit < NOTIFY_BITS; bit++) {
                if ((value & (1u << bit)) != 0u) {
                    bits_received[bit]++;
                }
            }
        }
        busy(BITS_WAITER, 150u);
    }
    uint32_t late = 0;
    (void)xTaskNotifyWait(0, UINT32_MAX, &late, 0);
    bits_received_late = late;
    park();
}

static void feeder(void *arg)
{
    (void)arg;
    while (fed < STRESS_FEED_ITEMS && !quiet) {
        uint32_t r = rng(FEEDER);
        if (xQueueSend(feed, &fed, (TickType_t)(r % 3u)) == pdPASS) {
            fed++;
        } else {
            feed_timeouts++;
        }
        if ((r >> 8) % 4u == 0u) {
            guarded_update(FEEDER);
        }
        busy(FEEDER, 150u);
    }
    park();
}

static void suspender(void *arg)
{
    (void)arg;
    while (!quiet) {
        vTaskSuspend(NULL);
        suspend_returns++;
        busy(SUSPENDER, 100u);
    }
    park();
}

/* Changes the feeder's priority among 1..3 while it may hold or wait for
 * the mutex the giver also takes. */
static void churner(void *arg)
{
    (void)arg;
    while (!quiet) {
        UBaseType_t priority = 1u + (UBaseType_t)(rng(CHURNER) % 3u);
        feeder_priority_set = priority;
        vTaskPrioritySet(worker[FEEDER], priority);
        vTaskDelay(1u + (TickType_t)(rng(CHURNER) % 2u));
    }
    park();
}

static void giver(void *arg)
{
    (void)arg;
    while (!quiet) {
        uint32_t r = rng(GIVER);
        if (xSemaphoreGive(counting) == pdPASS) {
            semaphore_given++;
        }
        if (r % 3u == 0u) {
            guarded_update(GIVER);
        }
        busy(GIVER, 150u);
        if ((r >> 8) % 4u == 0u) {
            vTaskDelay((TickType_t)(r >> 16) % 2u);
        }
    }
    park();
}

static uint32_t sum(const volatile uint32_t *counts, unsigned n)
{
    uint32_t total = 0;
    for (unsigned i = 0; i < n; i++) {
        total += counts[i];
    }
    return total;
}

static void report(bool arrived, TickType_t timer_ticks)
{
    printf("async api: %" PRIu32 " items fed (%" PRIu32 " send timeouts), %" PRIu32
           " received by the interrupt (%" PRIu32 " out of order, %" PRIu32 " found empty)\n",
           fed, feed_timeouts, isr_received, isr_out_of_order, isr_feed_empty);
    printf("async api: event bits %" PRIu32 " set (%" PRIu32 " refused), %" PRIu32
           " received; notification bits %" PRIu32 " sent, %" PRIu32 " received\n",
           sum(events_set, EVENT_BITS), events_refused, sum(events_received, EVENT_BITS),
           sum(bits_sent, NOTIFY_BITS), sum(bits_received, NOTIFY_BITS));
    printf("async api: resumes %" PRIu32 ", returns from suspend %" PRIu32 "; semaphore %" PRIu32
           " given, %" PRIu32 " taken by the interrupt, %u left; calls %" PRIu32 " pended (%" PRIu32
           " refused), %" PRIu32 " run; auto-reload timer %" PRIu32 " calls in %" PRIu32
           " ticks; mutex sections %" PRIu32 ", counter %" PRIu32 "\n",
           resumes_reported, suspend_returns, semaphore_given, semaphore_taken_by_isr,
           (unsigned)uxSemaphoreGetCount(counting), calls_pended, calls_refused, calls_run,
           tick_callbacks, (uint32_t)timer_ticks, guarded_sections, guarded_counter);
    CHECK(arrived);
    CHECK_EQ(isr_received, STRESS_FEED_ITEMS);
    CHECK_EQ(isr_out_of_order, 0);
    for (unsigned bit = 0; bit < EVENT_BITS; bit++) {
        CHECK_EQ(events_set[bit], events_received[bit]);
    }
    for (unsigned bit = 0; bit < NOTIFY_BITS; bit++) {
        CHECK_EQ(bits_sent[bit], bits_received[bit]);
    }
    CHECK_EQ(resumes_reported + resumed_by_checker, suspend_returns);
    CHECK_EQ(events_received_late, 0);
    CHECK_EQ(bits_received_late, 0);
    CHECK_EQ(semaphore_given, semaphore_taken_by_isr + uxSemaphoreGetCount(counting));
    CHECK_EQ(calls_pended, calls_run);
    CHECK_EQ(calls_out_of_order, 0);
    CHECK_EQ(guarded_counter, guarded_sections);
    /* One call a tick, within one: the last tick's call may still have been
     * waiting for the timer task when the ticks were counted, and the stop is
     * carried out by the timer task, which may find one more tick due first. */
    CHECK(tick_callbacks + 1u >= (uint32_t)timer_ticks && tick_callbacks <= (uint32_t)timer_ticks + 1u);
    for (unsigned w = 0; w < WORKERS; w++) {
        UBaseType_t expected = w == FEEDER ? feeder_priority_set : worker_priority[w];
        CHECK_EQ(uxTaskPriorityGet(worker[w]), expected);
    }
    /* The run exercised what it is for. */
    CHECK(sum(events_set, EVENT_BITS) > 0u && sum(bits_sent, NOTIFY_BITS) > 0u);
    CHECK(resumes_reported > 0u && semaphore_taken_by_isr > 0u && calls_run > 0u);
    CHECK(feed_timeouts > 0u && isr_feed_empty > 0u);
    check_interrupts_and_floats(kernel_irqs);
}

static void checker(void *arg)
{
    (void)arg;
    TickType_t timer_start_tick = xTaskGetTickCount();
    MUST(xTimerStart(every_tick, 0) == pdPASS);
    start_interrupts(kernel_irq, ISR_STREAM); /* the checker runs first */
    bool arrived = xSemaphoreTake(all_fed, RUN_LIMIT_TICKS) == pdPASS;
    stop_interrupts();
    MUST(xTimerStop(every_tick, 0) == pdPASS);
    TickType_t timer_ticks = xTaskGetTickCount() - timer_start_tick;
    /* What the interrupt left reaches its waiters (and the timer's last calls
     * run), with time for a server to be replenished; then the workers stop,
     * the suspender let out by the checker if it waits. */
    vTaskDelay(20);
    quiet = true;
    if (eTaskGetState(worker[SUSPENDER]) == eSuspended) {
        resumed_by_checker = 1;
        vTaskResume(worker[SUSPENDER]);
    }
    CHECK(wait_parked(WORKERS));
    report(arrived, timer_ticks);
    end_run();
}

int main(int argc, char **argv)
{
    uint32_t seed = stress_seed(argc, argv);
    printf("async api: seed 0x%08" PRIx32 ", %u items\n", seed, (unsigned)STRESS_FEED_ITEMS);
    events = xEventGroupCreate();
    feed = xQueueCreate(FEED_QUEUE_LENGTH, sizeof(uint32_t));
    counting = xSemaphoreCreateCounting(SEMAPHORE_MAX, 0);
    lock = xSemaphoreCreateMutex();
    all_fed = xSemaphoreCreateBinary();
    MUST(events != NULL && feed != NULL && counting != NULL && lock != NULL && all_fed != NULL);
    create_servers();
#if configTAKT_POLICY == TAKT_POLICY_HSF
    MUST(xServerSetTimerServer(server_b) == pdPASS);
#endif
    every_tick = xTimerCreate("TICK", 1, pdTRUE, NULL, timer_tick);
    MUST(every_tick != NULL);
    static TaskFunction_t const code_of[WORKERS] = {event_waiter, bits_waiter, feeder,
                                                    suspender,    churner,     giver};
    for (unsigned w = 0; w < WORKERS; w++) {
        create_task(code_of[w], worker_name[w], 512, NULL, worker_priority[w], worker_server[w],
                    &worker[w]);
    }
    feeder_priority_set = worker_priority[FEEDER];
    create_task(checker, "CHECK", 1024, NULL, configMAX_PRIORITIES - 1, 1, NULL);
    vTaskStartScheduler();
    return CHECK_SUMMARY();
}
