/*
 * Per-buffer completion callbacks, batching buffers and the notification
 * index of stream and message buffers, through the FreeRTOS API (built with
 * configUSE_SB_COMPLETED_CALLBACK 1 under fp, edf and, with the tasks in a
 * server, hsf). The send callback plays the doorbell of two-core message
 * passing: it raises an interrupt two ticks later, and that interrupt's
 * xStreamBufferSendCompletedFromISR wakes the waiting reader, as the other
 * core's would. The checks read the ticks at which things happened, so they
 * hold whatever order the policy runs the woken tasks in.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include <string.h>

#include "message_buffer.h"
#include "rtos_check.h"
#include "stream_buffer.h"
#include "rtos_port.h"
#include "rtos_tasks.h"

/* ---- a reader and a writer that wait on whatever buffer the control task names ---- */

static StreamBufferHandle_t reader_source, writer_sink;
static size_t reader_length = 32;
static volatile unsigned reader_rounds, writer_rounds;
static volatile size_t reader_got, writer_put;
static volatile TickType_t reader_woke_at, writer_woke_at;
static size_t writer_length;

static void reader_task(void *arg)
{
    (void)arg;
    uint8_t buf[32];
    for (;;) {
        while (reader_source == NULL) {
            vTaskDelay(1);
        }
        reader_got = xStreamBufferReceive(reader_source, buf, reader_length, portMAX_DELAY);
        reader_woke_at = xTaskGetTickCount();
        reader_source = NULL;
        reader_rounds++;
    }
}

static void writer_task(void *arg)
{
    (void)arg;
    static const uint8_t bytes[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    for (;;) {
        while (writer_sink == NULL) {
            vTaskDelay(1);
        }
        writer_put = xStreamBufferSend(writer_sink, bytes, writer_length, portMAX_DELAY);
        writer_woke_at = xTaskGetTickCount();
        writer_sink = NULL;
        writer_rounds++;
    }
}

/* Lets the reader or writer reach its wait. */
static void settle(void)
{
    vTaskDelay(2);
}

/* ---- the doorbell: a send callback that raises the other side's interrupt ---- */

static volatile unsigned sent_from_task, sent_from_isr;
static volatile bool sent_woken_pointer;
static volatile BaseType_t doorbell_result, doorbell_woken;

static void doorbell_isr(void *arg)
{
    BaseType_t woken = pdFALSE;
    doorbell_result = xStreamBufferSendCompletedFromISR((StreamBufferHandle_t)arg, &woken);
    doorbell_woken = woken;
    portYIELD_FROM_ISR(woken);
}

static void ring_doorbell(StreamBufferHandle_t buffer, BaseType_t inside_isr, BaseType_t *const woken)
{
    if (inside_isr) {
        sent_from_isr++;
        sent_woken_pointer = woken != NULL;
    } else {
        sent_from_task++;
        sent_woken_pointer = woken != NULL;
    }
    rtos_inject_irq(rtos_now_ns() + 2 * RTOS_TICK_NS, 6, doorbell_isr, buffer);
}

static StreamBufferHandle_t link;

static void isr_send(void *arg)
{
    BaseType_t woken = pdFALSE;
    (void)xStreamBufferSendFromISR((StreamBufferHandle_t)arg, "de", 2, &woken);
}

static void doorbell_part(void)
{
    link = xStreamBufferCreateWithCallback(32, 1, ring_doorbell, NULL);
    CHECK(link != NULL, "a stream buffer with a send callback");
    reader_source = link;
    settle();
    TickType_t t0 = xTaskGetTickCount();
    CHECK(xStreamBufferSend(link, "abc", 3, 0) == 3, "a task sends 3 bytes");
    CHECK(sent_from_task == 1 && !sent_woken_pointer, "the callback ran in the task, no woken pointer");
    vTaskDelay(1);
    CHECK(reader_rounds == 0 && xStreamBufferBytesAvailable(link) == 3,
          "the callback replaced the wake: the reader still waits, the bytes are there");
    vTaskDelay(2);
    CHECK(reader_rounds == 1 && reader_got == 3 && reader_woke_at == t0 + 2,
          "the doorbell interrupt 2 ticks later woke the reader with the 3 bytes (at %lu)",
          (unsigned long)(reader_woke_at - t0));
    CHECK(doorbell_result == pdTRUE && doorbell_woken == pdTRUE,
          "xStreamBufferSendCompletedFromISR served it and asked for a switch");

    reader_source = link;
    settle();
    t0 = xTaskGetTickCount();
    /* On the next tick, not inside one: the boards' timer 0 is not exact
     * while the processor sleeps (docs/ports.md), so an interrupt for later in
     * this tick could come late enough to move the doorbell's tick. */
    rtos_inject_irq(rtos_now_ns() + RTOS_TICK_NS, 5, isr_send, link);
    vTaskDelay(1);
    CHECK(sent_from_isr == 1 && sent_woken_pointer && reader_rounds == 1,
          "a send from an interrupt: the callback ran inside it with the woken pointer; the reader waits");
    vTaskDelay(3);
    CHECK(reader_rounds == 2 && reader_got == 2 && reader_woke_at == t0 + 1 + 2,
          "its doorbell woke the reader 2 ticks after the send (rounds %u got %u at %ld)", (unsigned)reader_rounds, (unsigned)reader_got, (long)(reader_woke_at - t0 - 1));
    BaseType_t woken = pdFALSE;
    CHECK(xStreamBufferSendCompletedFromISR(link, &woken) == pdFALSE && woken == pdFALSE,
          "nobody waits: xStreamBufferSendCompletedFromISR serves nobody");
    vStreamBufferDelete(link);
}

/* ---- a receive callback on a message buffer, completing by hand ---- */

static volatile unsigned received_calls;

static void count_receive(StreamBufferHandle_t buffer, BaseType_t inside_isr, BaseType_t *const woken)
{
    (void)buffer;
    (void)inside_isr;
    (void)woken;
    received_calls++;
}

static void receive_part(void)
{
    MessageBufferHandle_t messages = xMessageBufferCreateWithCallback(40, NULL, count_receive);
    CHECK(messages != NULL, "a message buffer with a receive callback");
    writer_length = 10;
    size_t word = sizeof(configMESSAGE_BUFFER_LENGTH_TYPE);
    static const uint8_t first[10] = {0};
    CHECK(xMessageBufferSend(messages, first, 10, 0) == 10 && xMessageBufferSend(messages, first, 10, 0) == 10,
          "two messages of 10 bytes");
    CHECK(xMessageBufferSpacesAvailable(messages) < 10 + word, "a third does not fit");
    writer_sink = messages;
    settle();
    uint8_t buf[16];
    CHECK(xMessageBufferReceive(messages, buf, sizeof buf, 0) == 10 && received_calls == 1,
          "a receive makes room and calls the callback");
    vTaskDelay(1);
    CHECK(writer_rounds == 0, "the callback replaced the wake: the writer still waits");
    CHECK(xMessageBufferReceiveCompletedFromISR(messages, NULL) == pdTRUE,
          "xMessageBufferReceiveCompletedFromISR (from a task: Takt allows it) serves the writer");
    vTaskDelay(1);
    CHECK(writer_rounds == 1 && writer_put == 10, "the writer's message went in");
    CHECK(xMessageBufferReceiveCompletedFromISR(messages, NULL) == pdFALSE, "then there is nobody to serve");
    CHECK(xMessageBufferReceive(messages, buf, sizeof buf, 0) == 10 &&
              xMessageBufferReceive(messages, buf, sizeof buf, 0) == 10 && received_calls == 3,
          "both messages come out, one callback each");
    vMessageBufferDelete(messages);
}

/* ---- NULL callbacks, static creation with callbacks ---- */

static uint8_t static_storage[33];
static StaticStreamBuffer_t static_struct;
static uint8_t static_message_storage[41];
static StaticMessageBuffer_t static_message_struct;

static void default_and_static_part(void)
{
    StreamBufferHandle_t plain = xStreamBufferCreateWithCallback(16, 1, NULL, NULL);
    CHECK(plain != NULL, "NULL callbacks: sbSEND_COMPLETED's default");
    reader_source = plain;
    settle();
    TickType_t t0 = xTaskGetTickCount();
    CHECK(xStreamBufferSend(plain, "xy", 2, 0) == 2, "a send");
    vTaskDelay(1);
    CHECK(reader_rounds == 3 && reader_woke_at == t0, "woke the reader at once");
    vStreamBufferDelete(plain);

    unsigned calls = sent_from_task;
    StreamBufferHandle_t s =
        xStreamBufferCreateStaticWithCallback(32, 1, static_storage, &static_struct, ring_doorbell, count_receive);
    MessageBufferHandle_t m = xMessageBufferCreateStaticWithCallback(40, static_message_storage,
                                                                     &static_message_struct, ring_doorbell, NULL);
    CHECK(s == &static_struct && m == &static_message_struct, "static creation with callbacks");
    uint8_t buf[8];
    unsigned received = received_calls;
    CHECK(xStreamBufferSend(s, "ab", 2, 0) == 2 && xMessageBufferSend(m, "cd", 2, 0) == 2 &&
              sent_from_task == calls + 2,
          "their send callbacks run");
    CHECK(xStreamBufferReceive(s, buf, sizeof buf, 0) == 2 && received_calls == received + 1,
          "and the receive callback");
    vTaskDelay(3); /* the doorbells ring for nobody */
    vStreamBufferDelete(s);
    vMessageBufferDelete(m);
}

/* ---- batching buffers ---- */

static volatile size_t isr_received;
static uint8_t batch_storage[9];
static StaticStreamBuffer_t batch_struct;

static void isr_receive(void *arg)
{
    uint8_t buf[16];
    BaseType_t woken = pdFALSE;
    isr_received = xStreamBufferReceiveFromISR((StreamBufferHandle_t)arg, buf, sizeof buf, &woken);
}

static void batching_part(void)
{
    StreamBufferHandle_t batch = xStreamBatchingBufferCreate(16, 4);
    CHECK(batch != NULL, "a batching buffer, trigger level 4");
    uint8_t buf[16];
    CHECK(xStreamBufferSend(batch, "abc", 3, 0) == 3 && xStreamBufferReceive(batch, buf, sizeof buf, 0) == 0,
          "3 bytes: a receive without block time gets nothing (a stream buffer would get them)");
    reader_source = batch;
    settle();
    CHECK(reader_rounds == 3, "a reader waits although the buffer is not empty");
    CHECK(xStreamBufferSend(batch, "d", 1, 0) == 1, "the 4th byte");
    vTaskDelay(1);
    CHECK(reader_rounds == 3, "4 is the level, not above it: it waits on");
    TickType_t t0 = xTaskGetTickCount();
    CHECK(xStreamBufferSend(batch, "e", 1, 0) == 1, "the 5th byte");
    vTaskDelay(1);
    CHECK(reader_rounds == 4 && reader_got == 5 && reader_woke_at == t0, "the reader got all 5 at once");
    CHECK(xStreamBufferSend(batch, "fg", 2, 0) == 2, "2 bytes");
    t0 = xTaskGetTickCount();
    CHECK(xStreamBufferReceive(batch, buf, sizeof buf, 3) == 0 && xTaskGetTickCount() == t0 + 3,
          "a receive with block time 3 waits it out and gets 0");
    CHECK(xStreamBufferBytesAvailable(batch) == 2, "the bytes stay for the batch");
    rtos_inject_irq(rtos_now_ns() + RTOS_TICK_NS, 5, isr_receive, batch); /* as isr_send's */
    vTaskDelay(1);
    CHECK(isr_received == 2, "an interrupt's receive takes what is there");
    CHECK(xStreamBufferSetTriggerLevel(batch, 1) == pdTRUE && xStreamBufferSend(batch, "hi", 2, 0) == 2 &&
              xStreamBufferReceive(batch, buf, sizeof buf, 0) == 2,
          "with level 1, 2 bytes are a batch");
    vStreamBufferDelete(batch);

    StreamBufferHandle_t fixed = xStreamBatchingBufferCreateStatic(8, 2, batch_storage, &batch_struct);
    uint8_t *area = NULL;
    StaticStreamBuffer_t *object = NULL;
    CHECK(fixed == &batch_struct && xStreamBufferGetStaticBuffers(fixed, &area, &object) == pdTRUE &&
              area == batch_storage && object == &batch_struct,
          "a static batching buffer");
    CHECK(xStreamBufferSend(fixed, "ab", 2, 0) == 2 && xStreamBufferReceive(fixed, buf, sizeof buf, 0) == 0 &&
              xStreamBufferSend(fixed, "c", 1, 0) == 1 && xStreamBufferReceive(fixed, buf, sizeof buf, 0) == 3,
          "it batches too");
    vStreamBufferDelete(fixed);

    unsigned calls = sent_from_task;
    StreamBufferHandle_t called = xStreamBatchingBufferCreateWithCallback(16, 2, ring_doorbell, NULL);
    CHECK(called != NULL && xStreamBufferSend(called, "ab", 2, 0) == 2 && sent_from_task == calls,
          "a batching buffer's send callback: not at the level");
    CHECK(xStreamBufferSend(called, "c", 1, 0) == 1 && sent_from_task == calls + 1, "only above it");
    vTaskDelay(3);
    vStreamBufferDelete(called);
}

/* ---- the notification index ---- */

static void notification_part(void)
{
    StreamBufferHandle_t s = xStreamBufferCreate(8, 1);
    CHECK(uxStreamBufferGetStreamBufferNotificationIndex(s) == tskDEFAULT_INDEX_TO_NOTIFY, "index 0 by default");
    vStreamBufferSetStreamBufferNotificationIndex(s, 1);
    CHECK(uxStreamBufferGetStreamBufferNotificationIndex(s) == 1, "set to 1");
    xTaskNotifyGiveIndexed(xTaskGetCurrentTaskHandle(), 1);
    xTaskNotifyGive(xTaskGetCurrentTaskHandle());
    uint8_t buf[4];
    TickType_t t0 = xTaskGetTickCount();
    CHECK(xStreamBufferReceive(s, buf, sizeof buf, 2) == 0 && xTaskGetTickCount() == t0 + 2,
          "a receive with a pending notification at the index still waits out its block time");
    CHECK(ulTaskNotifyTakeIndexed(1, pdTRUE, 0) == 1 && ulTaskNotifyTake(pdTRUE, 0) == 1,
          "the wait consumed neither notification");
    vStreamBufferDelete(s);
}

static void control_task(void *arg)
{
    (void)arg;
    doorbell_part();
    receive_part();
    default_and_static_part();
    batching_part();
    notification_part();
    vTaskEndScheduler();
}

int main(void)
{
#if configTAKT_POLICY == TAKT_POLICY_HSF
    CHECK(xServerCreate(100, 100, 1, eServerDeferrable, "S", &rtos_server) == pdPASS, "a server for the tasks");
#endif
    CHECK(RTOS_TASK_CREATE(control_task, "ctl", 2, NULL) == pdPASS && RTOS_TASK_CREATE(reader_task, "reader", 3, NULL) == pdPASS &&
              RTOS_TASK_CREATE(writer_task, "writer", 3, NULL) == pdPASS,
          "three tasks");
    vTaskStartScheduler();
    return rtos_check_summary();
}
