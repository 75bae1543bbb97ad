/*
 * Queues in the style of the FreeRTOS demo BlockQ / QPeek / ISR-driven sends:
 * a blocking producer/consumer pair at both priority orders, send-to-front,
 * a mailbox (overwrite + peek), receive timeouts, a receiver suspended and
 * resumed in its wait, a receiver deleted before it took the item sent to it,
 * and an interrupt that feeds a queue a task blocks on.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */
#include <string.h>

#include "queue.h"
#include "rtos_check.h"
#include "rtos_port.h"

#define ITEMS 20

static QueueHandle_t fast_q, slow_q, isr_q, mailbox;
static StaticQueue_t mailbox_buf;
static uint8_t mailbox_storage[sizeof(uint32_t)];
static uint32_t received_fast[ITEMS], received_slow[ITEMS];
static volatile unsigned consumers_done;

/* The consumer outranks the producer: every send wakes it at once. */
static void consumer_high(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITEMS; i++) {
        if (xQueueReceive(fast_q, &received_fast[i], portMAX_DELAY) != pdPASS) {
            received_fast[i] = 0xdead;
        }
    }
    consumers_done++;
    vTaskDelete(NULL);
}

static void producer_low(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < ITEMS; i++) {
        xQueueSend(fast_q, &i, portMAX_DELAY);
    }
    vTaskDelete(NULL);
}

/* The producer outranks the consumer: it fills the queue and blocks while full. */
static unsigned producer_blocked;

static void producer_high(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < ITEMS; i++) {
        if (uxQueueSpacesAvailable(slow_q) == 0) {
            producer_blocked++;
        }
        xQueueSend(slow_q, &i, portMAX_DELAY);
    }
    vTaskDelete(NULL);
}

static void consumer_low(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITEMS; i++) {
        xQueueReceive(slow_q, &received_slow[i], portMAX_DELAY);
    }
    consumers_done++;
    vTaskDelete(NULL);
}

static uint32_t isr_count;

static void sensor_isr(void *arg)
{
    (void)arg;
    BaseType_t woken = pdFALSE;
    uint32_t sample = 1000 + isr_count++;
    xQueueSendFromISR(isr_q, &sample, &woken);
    portYIELD_FROM_ISR(woken);
}

/* Receives once with an infinite block time; suspended and resumed meanwhile. */
static QueueHandle_t suspend_q;
static uint32_t suspended_got;
static volatile BaseType_t suspended_rc = -1;

static void suspended_receiver(void *arg)
{
    (void)arg;
    suspended_rc = xQueueReceive(suspend_q, &suspended_got, portMAX_DELAY);
    vTaskDelete(NULL);
}

static void control_task(void *arg)
{
    (void)arg;
    vTaskDelay(10); /* both pairs run meanwhile */
    bool fast_ok = true, slow_ok = true;
    for (uint32_t i = 0; i < ITEMS; i++) {
        fast_ok = fast_ok && received_fast[i] == i;
        slow_ok = slow_ok && received_slow[i] == i;
    }
    CHECK(consumers_done == 2, "both consumers received %d items", ITEMS);
    CHECK(fast_ok, "high-priority consumer: items in order");
    CHECK(slow_ok, "low-priority consumer: items in order");
    CHECK(producer_blocked == ITEMS - 4, "high-priority producer found the 4-slot queue full %u times", producer_blocked);

    /* Send to front, counts, timeouts. */
    QueueHandle_t q = xQueueCreate(3, sizeof(uint16_t));
    uint16_t a = 1, b = 2, c = 3, d = 4, out = 0;
    xQueueSend(q, &a, 0);
    xQueueSend(q, &b, 0);
    xQueueSendToFront(q, &c, 0);
    CHECK(uxQueueMessagesWaiting(q) == 3 && uxQueueSpacesAvailable(q) == 0, "3 waiting, 0 spaces");
    TickType_t t = xTaskGetTickCount();
    CHECK(xQueueSend(q, &d, 5) == errQUEUE_FULL && xTaskGetTickCount() - t == 5, "send to a full queue times out after 5 ticks");
    xQueueReceive(q, &out, 0);
    CHECK(out == 3, "the item sent to the front comes out first");
    xQueuePeek(q, &out, 0);
    CHECK(out == 1 && uxQueueMessagesWaiting(q) == 2, "peek copies without removing");
    xQueueReset(q);
    t = xTaskGetTickCount();
    CHECK(xQueueReceive(q, &out, 3) == pdFALSE && xTaskGetTickCount() - t == 3, "receive from an empty queue times out after 3 ticks");
    vQueueDelete(q);

    /* Item sizes the copies treat differently, from and into odd addresses; a
     * finite block time from 2^31 ticks up is a long wait, not an error; a copy
     * position FreeRTOS does not name sends to the back. */
    static uint8_t in_bytes[20], out_bytes[20];
    static const size_t sizes[] = {3, 4, 5, 8, 13};
    bool sizes_ok = true;
    for (size_t n = 0; n < sizeof(sizes) / sizeof(sizes[0]); n++) {
        QueueHandle_t sq = xQueueCreate(2, sizes[n]);
        for (uint32_t round = 0; round < 3; round++) {
            for (size_t k = 0; k < sizes[n]; k++) {
                in_bytes[1 + k] = (uint8_t)(round * 17u + k + 1u);
            }
            memset(out_bytes, 0, sizeof(out_bytes));
            sizes_ok = sizes_ok && xQueueSend(sq, &in_bytes[1], 0x80000000u) == pdPASS &&
                       xQueueReceive(sq, &out_bytes[3], 0xFFFFFFFEu) == pdPASS &&
                       memcmp(&in_bytes[1], &out_bytes[3], sizes[n]) == 0 && out_bytes[3 + sizes[n]] == 0;
        }
        vQueueDelete(sq);
    }
    CHECK(sizes_ok, "items of 3, 4, 5, 8 and 13 bytes at odd addresses, long block times accepted");
    q = xQueueCreate(3, sizeof(uint16_t));
    a = 1;
    b = 2;
    xQueueSend(q, &a, 0);
    CHECK(xQueueGenericSend(q, &b, 0, (BaseType_t)7) == pdPASS, "an unnamed copy position sends");
    xQueueReceive(q, &out, 0);
    CHECK(out == 1, "... to the back");
    vQueueDelete(q);

    /* A receiver suspended in an infinite wait waits again once resumed, and
     * takes at its resume the item sent while it was suspended (FreeRTOS's
     * receive loops until its block time is over). */
    suspend_q = xQueueCreate(2, sizeof(uint32_t));
    TaskHandle_t receiver = NULL;
    xTaskCreate(suspended_receiver, "susp", configMINIMAL_STACK_SIZE, NULL, 4, &receiver);
    vTaskDelay(1); /* it blocks */
    vTaskSuspend(receiver);
    vTaskResume(receiver);
    CHECK(eTaskGetState(receiver) == eBlocked && suspended_rc == -1,
          "a receiver suspended and resumed in an infinite wait waits again");
    vTaskSuspend(receiver);
    uint32_t item = 42;
    xQueueSend(suspend_q, &item, 0);
    vTaskResume(receiver);
    vTaskDelay(1);
    CHECK(suspended_rc == pdPASS && suspended_got == 42 && uxQueueMessagesWaiting(suspend_q) == 0,
          "... and takes the item sent while it was suspended");

    /* A receiver deleted after an item was sent to it, before it ran: the
     * item stays in the queue, in front of what was sent after it, as with
     * FreeRTOS, whose woken receiver has not taken it yet. */
    suspended_rc = -1;
    xTaskCreate(suspended_receiver, "served", configMINIMAL_STACK_SIZE, NULL, 4, &receiver);
    vTaskDelay(1); /* it blocks */
    item = 43;
    xQueueSend(suspend_q, &item, 0);
    item = 44;
    xQueueSend(suspend_q, &item, 0);
    vTaskDelete(receiver);
    uint32_t first = 0, second = 0;
    CHECK(uxQueueMessagesWaiting(suspend_q) == 2 && xQueueReceive(suspend_q, &first, 0) == pdPASS &&
              xQueueReceive(suspend_q, &second, 0) == pdPASS && first == 43 && second == 44 &&
              suspended_rc == -1,
          "a receiver deleted before it ran leaves the item sent to it in the queue, first");
    vQueueDelete(suspend_q);

    /* Mailbox: a static queue of one item, overwritten and peeked. */
    mailbox = xQueueCreateStatic(1, sizeof(uint32_t), mailbox_storage, &mailbox_buf);
    uint32_t v = 7, got = 0;
    xQueueOverwrite(mailbox, &v);
    v = 8;
    xQueueOverwrite(mailbox, &v);
    CHECK(xQueuePeek(mailbox, &got, 0) == pdPASS && got == 8 && uxQueueMessagesWaiting(mailbox) == 1,
          "mailbox keeps the latest value");

    /* An interrupt every 2 ms feeds a queue; the task blocks on it. */
    uint64_t now = rtos_now_ns();
    for (int i = 1; i <= 5; i++) {
        rtos_inject_irq(now + (uint64_t)i * 2000000u, 7, sensor_isr, NULL);
    }
    TickType_t start = xTaskGetTickCount();
    bool isr_ok = true;
    for (uint32_t i = 0; i < 5; i++) {
        uint32_t sample = 0;
        isr_ok = isr_ok && xQueueReceive(isr_q, &sample, pdMS_TO_TICKS(100)) == pdPASS && sample == 1000 + i &&
                 xTaskGetTickCount() - start == 2 * (i + 1);
    }
    CHECK(isr_ok, "5 samples from the interrupt, each received at its interrupt's tick");
    vTaskEndScheduler();
}

int main(void)
{
    fast_q = xQueueCreate(4, sizeof(uint32_t));
    slow_q = xQueueCreate(4, sizeof(uint32_t));
    isr_q = xQueueCreate(8, sizeof(uint32_t));
    CHECK(fast_q != NULL && slow_q != NULL && isr_q != NULL, "queues created before the scheduler");
    xTaskCreate(control_task, "ctl", configMINIMAL_STACK_SIZE, NULL, 5, NULL);
    xTaskCreate(consumer_high, "cons_hi", configMINIMAL_STACK_SIZE, NULL, 3, NULL);
    xTaskCreate(producer_low, "prod_lo", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    xTaskCreate(producer_high, "prod_hi", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    xTaskCreate(consumer_low, "cons_lo", configMINIMAL_STACK_SIZE, NULL, 1, NULL);
    vTaskStartScheduler();
    return rtos_check_summary();
}
