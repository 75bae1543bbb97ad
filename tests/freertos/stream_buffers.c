/*
 * Stream and message buffers in the style of the FreeRTOS demo
 * StreamBufferDemo / MessageBufferDemo: a UART-like interrupt feeding a task
 * through a stream buffer, trigger levels and receive timeouts, a blocked
 * writer, a producer/consumer pair on a message buffer with messages of
 * varying lengths, static creation, reset, and the refusals (trigger level
 * above the size, a message longer than the buffer, a buffer too small).
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */
#include <string.h>

#include "message_buffer.h"
#include "rtos_check.h"
#include "rtos_port.h"
#include "stream_buffer.h"

#define TICK_NS 1000000u /* configTICK_RATE_HZ 1000 */

static const char uart_text[] = "The quick brown fox jumps over the lazy dog; 0123456789.";
static StreamBufferHandle_t uart_rx, levels;
static MessageBufferHandle_t messages;
static size_t uart_sent;
static unsigned uart_wakes;
static volatile bool consumer_done;

/* ---- a UART receive interrupt: one to three bytes per interrupt ---- */

static void uart_isr(void *arg)
{
    (void)arg;
    size_t chunk = 1 + uart_sent % 3;
    if (chunk > sizeof uart_text - 1 - uart_sent) {
        chunk = sizeof uart_text - 1 - uart_sent;
    }
    BaseType_t woken = pdFALSE;
    uart_sent += xStreamBufferSendFromISR(uart_rx, uart_text + uart_sent, chunk, &woken);
    if (woken == pdTRUE) {
        uart_wakes++;
    }
    portYIELD_FROM_ISR(woken);
}

static void uart_part(void)
{
    uint64_t now = rtos_now_ns();
    for (unsigned i = 0; i < sizeof uart_text; i++) {
        rtos_inject_irq(now + TICK_NS / 4 + (uint64_t)i * (TICK_NS / 3), 5, uart_isr, NULL);
    }
    char line[sizeof uart_text];
    size_t got = 0;
    unsigned receives = 0;
    while (got < sizeof uart_text - 1) {
        size_t n = xStreamBufferReceive(uart_rx, line + got, sizeof line - 1 - got, pdMS_TO_TICKS(50));
        if (n == 0) {
            break;
        }
        got += n;
        receives++;
    }
    line[got] = '\0';
    CHECK(got == sizeof uart_text - 1 && strcmp(line, uart_text) == 0,
          "%u bytes from the interrupt, in order, in %u receives", (unsigned)got, receives);
    CHECK(uart_wakes > 0 && uart_wakes == receives, "the interrupt reported each wake (%u)", uart_wakes);
    CHECK(xStreamBufferIsEmpty(uart_rx) == pdTRUE, "the stream is empty afterwards");
}

/* ---- trigger level and timeouts ---- */

static void level_isr(void *arg)
{
    size_t n = (size_t)(uintptr_t)arg;
    BaseType_t woken = pdFALSE;
    (void)xStreamBufferSendFromISR(levels, "abcdefgh", n, &woken);
}

static void trigger_part(void)
{
    char buf[16];
    vTaskDelay(1); /* from a tick boundary: the interrupts below fall inside known ticks */
    uint64_t now = rtos_now_ns();
    rtos_inject_irq(now + 2 * TICK_NS + 10, 5, level_isr, (void *)(uintptr_t)4);
    rtos_inject_irq(now + 5 * TICK_NS + 10, 5, level_isr, (void *)(uintptr_t)4);
    TickType_t start = xTaskGetTickCount();
    size_t n = xStreamBufferReceive(levels, buf, sizeof buf, pdMS_TO_TICKS(50));
    CHECK(n == 8 && xTaskGetTickCount() - start == 5,
          "trigger level 8: woken when 8 bytes are in (tick +%u), not at 4",
          (unsigned)(xTaskGetTickCount() - start));

    rtos_inject_irq(rtos_now_ns() + 2 * TICK_NS + 10, 5, level_isr, (void *)(uintptr_t)3);
    start = xTaskGetTickCount();
    n = xStreamBufferReceive(levels, buf, sizeof buf, pdMS_TO_TICKS(10));
    CHECK(n == 3 && xTaskGetTickCount() - start == 10, "the timeout returns what is there: %u bytes",
          (unsigned)n);
    start = xTaskGetTickCount();
    n = xStreamBufferReceive(levels, buf, sizeof buf, pdMS_TO_TICKS(10));
    CHECK(n == 0 && xTaskGetTickCount() - start == 10, "an empty stream: 0 bytes after the timeout");

    (void)xStreamBufferSend(levels, "xy", 2, 0);
    start = xTaskGetTickCount();
    n = xStreamBufferReceive(levels, buf, sizeof buf, portMAX_DELAY);
    CHECK(n == 2 && xTaskGetTickCount() == start, "below the level but not empty: returns at once");

    CHECK(xStreamBufferSetTriggerLevel(levels, 17) == pdFALSE, "a trigger level above the size is refused");
    CHECK(xStreamBufferSetTriggerLevel(levels, 16) == pdTRUE, "a trigger level of the size is taken");
    CHECK(xStreamBufferCreate(16, 17) == NULL, "xStreamBufferCreate refuses a level above the size");
}

/* ---- a blocked writer ---- */

static StreamBufferHandle_t pipe_sb;

static void pipe_reader(void *arg)
{
    (void)arg;
    char buf[8];
    vTaskDelay(pdMS_TO_TICKS(3));
    (void)xStreamBufferReceive(pipe_sb, buf, 6, 0);
    vTaskDelete(NULL);
}

static void writer_part(void)
{
    static const char ten[] = "0123456789";
    pipe_sb = xStreamBufferCreate(10, 1);
    CHECK(xStreamBufferSend(pipe_sb, ten, 8, 0) == 8, "8 bytes into a stream of 10");
    CHECK(xStreamBufferSend(pipe_sb, ten, 5, 0) == 2, "a send without block time writes what fits (2)");
    CHECK(xStreamBufferIsFull(pipe_sb) == pdTRUE && xStreamBufferSpacesAvailable(pipe_sb) == 0,
          "full");
    xTaskCreate(pipe_reader, "reader", configMINIMAL_STACK_SIZE, NULL, 1, NULL);
    TickType_t start = xTaskGetTickCount();
    size_t n = xStreamBufferSend(pipe_sb, ten, 5, portMAX_DELAY);
    CHECK(n == 5 && xTaskGetTickCount() - start == 3, "a blocked send of 5 completes when a receive makes room");
    start = xTaskGetTickCount();
    n = xStreamBufferSend(pipe_sb, ten, 4, pdMS_TO_TICKS(4));
    CHECK(n == 1 && xTaskGetTickCount() - start == 4, "its timeout writes what fits then (1 byte)");
    CHECK(xStreamBufferBytesAvailable(pipe_sb) == 10, "10 bytes held");
    CHECK(xStreamBufferReset(pipe_sb) == pdPASS && xStreamBufferIsEmpty(pipe_sb) == pdTRUE,
          "reset with nobody waiting");
    vStreamBufferDelete(pipe_sb);
}

/* ---- messages of varying lengths ---- */

#define MESSAGES 30

static size_t message_length(unsigned i)
{
    return 1 + (i * 13u) % 40u;
}

static void fill_message(char *out, unsigned i)
{
    for (size_t k = 0; k < message_length(i); k++) {
        out[k] = (char)('a' + (i + k) % 26);
    }
}

static void message_producer(void *arg)
{
    (void)arg;
    char msg[64];
    for (unsigned i = 0; i < MESSAGES; i++) {
        fill_message(msg, i);
        if (xMessageBufferSend(messages, msg, message_length(i), portMAX_DELAY) != message_length(i)) {
            CHECK(false, "message %u sent whole", i);
        }
    }
    vTaskDelete(NULL);
}

static void message_consumer(void *arg)
{
    (void)arg;
    char buf[64], expected[64];
    bool in_order = true;
    for (unsigned i = 0; i < MESSAGES; i++) {
        size_t next = xMessageBufferNextLengthBytes(messages);
        size_t n = xMessageBufferReceive(messages, buf, sizeof buf, portMAX_DELAY);
        fill_message(expected, i);
        in_order = in_order && n == message_length(i) && memcmp(buf, expected, n) == 0 &&
                   (next == 0 || next == n);
        if (i % 4 == 0) {
            vTaskDelay(1); /* let the producer fill the buffer and block */
        }
    }
    CHECK(in_order, "%u messages of 1..40 bytes through a 64-byte message buffer, whole and in order",
          MESSAGES);
    consumer_done = true;
    vTaskDelete(NULL);
}

static void message_part(void)
{
    messages = xMessageBufferCreate(64);
    xTaskCreate(message_producer, "mprod", configMINIMAL_STACK_SIZE, NULL, 3, NULL);
    xTaskCreate(message_consumer, "mcons", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    while (!consumer_done) {
        vTaskDelay(5);
    }
    const size_t word = sizeof(configMESSAGE_BUFFER_LENGTH_TYPE);
    char big[64] = {0}, small[4];
    CHECK(xMessageBufferIsEmpty(messages) == pdTRUE && xMessageBufferSpacesAvailable(messages) == 64,
          "empty again: 64 bytes free");
    CHECK(xMessageBufferSend(messages, big, 64 - word + 1, portMAX_DELAY) == 0,
          "a message longer than the buffer can hold: 0 at once");
    CHECK(xMessageBufferSend(messages, big, 10, 0) == 10 &&
              xMessageBufferSpacesAvailable(messages) == 64 - 10 - word,
          "a message of 10 takes 10 + %u bytes", (unsigned)word);
    CHECK(xMessageBufferReceive(messages, small, sizeof small, 0) == 0 && xMessageBufferNextLengthBytes(messages) == 10,
          "a buffer too small: 0, the message stays");
    CHECK(xMessageBufferReceive(messages, big, sizeof big, 0) == 10, "then received whole");
    CHECK(xMessageBufferSend(messages, big, 64 - word, 0) == 64 - word && xMessageBufferIsFull(messages) == pdTRUE,
          "a message that fills the buffer exactly");
    CHECK(xMessageBufferReset(messages) == pdPASS && xMessageBufferIsEmpty(messages) == pdTRUE, "reset");
    vMessageBufferDelete(messages);
}

/* ---- static creation, reset refused while a task waits ---- */

static StaticStreamBuffer_t static_stream;
static uint8_t static_stream_storage[32 + 1]; /* FreeRTOS's contract: size + 1 */
static StaticMessageBuffer_t static_message;
static uint8_t static_message_storage[48 + 1];
static StreamBufferHandle_t waited_on;
static BaseType_t isr_reset_result = 99;

static void waiter(void *arg)
{
    (void)arg;
    char buf[4];
    (void)xStreamBufferReceive(waited_on, buf, sizeof buf, portMAX_DELAY);
    vTaskDelete(NULL);
}

static void reset_isr(void *arg)
{
    (void)arg;
    isr_reset_result = xStreamBufferResetFromISR(waited_on);
}

static void static_part(void)
{
    waited_on = xStreamBufferCreateStatic(32, 1, static_stream_storage, &static_stream);
    MessageBufferHandle_t m = xMessageBufferCreateStatic(48, static_message_storage, &static_message);
    CHECK(waited_on == &static_stream && m == &static_message, "static stream and message buffers");
    uint8_t *storage = NULL;
    StaticStreamBuffer_t *object = NULL;
    CHECK(xStreamBufferGetStaticBuffers(waited_on, &storage, &object) == pdTRUE &&
              storage == static_stream_storage && object == &static_stream,
          "xStreamBufferGetStaticBuffers gives them back");
    CHECK(xMessageBufferSend(m, "static", 6, 0) == 6 && xMessageBufferNextLengthBytes(m) == 6,
          "a message in static memory");

    xTaskCreate(waiter, "waiter", configMINIMAL_STACK_SIZE, NULL, 6, NULL); /* runs and blocks at once */
    CHECK(xStreamBufferReset(waited_on) == pdFAIL, "reset refused while a task waits to receive");
    rtos_inject_irq(rtos_now_ns() + TICK_NS / 2, 5, reset_isr, NULL);
    vTaskDelay(1);
    CHECK(isr_reset_result == pdFAIL, "xStreamBufferResetFromISR refused too");
    (void)xStreamBufferSend(waited_on, "go", 2, 0); /* the waiter takes it and ends */
    CHECK(xStreamBufferReset(waited_on) == pdPASS, "reset once nobody waits");
    rtos_inject_irq(rtos_now_ns() + TICK_NS / 2, 5, reset_isr, NULL);
    vTaskDelay(1);
    CHECK(isr_reset_result == pdPASS, "and from an interrupt");
    vStreamBufferDelete(waited_on);
    vMessageBufferDelete(m);
}

static void control_task(void *arg)
{
    (void)arg;
    uart_part();
    trigger_part();
    writer_part();
    message_part();
    static_part();
    vTaskEndScheduler();
}

int main(void)
{
    uart_rx = xStreamBufferCreate(16, 1);
    levels = xStreamBufferCreate(16, 8);
    CHECK(uart_rx != NULL && levels != NULL, "stream buffers created before the scheduler");
    xTaskCreate(control_task, "ctl", configMINIMAL_STACK_SIZE, NULL, 5, NULL);
    vTaskStartScheduler();
    vStreamBufferDelete(uart_rx);
    vStreamBufferDelete(levels);
    return rtos_check_summary();
}
