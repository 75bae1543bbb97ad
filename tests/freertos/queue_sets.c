/*
 * Queue sets in the style of the FreeRTOS demo QueueSet: one task blocks on
 * two queues and a semaphore at once; tasks and an interrupt post to them; the
 * reader gets each member in the order the data arrived.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */
#include <string.h>

#include "queue.h"
#include "rtos_check.h"
#include "rtos_port.h"
#include "semphr.h"

static QueueHandle_t q1, q2;
static SemaphoreHandle_t sem;
static QueueSetHandle_t set;
static char seen[32];
static unsigned seen_len;
static uint32_t sum;

static void reader_task(void *arg) /* priority 3 */
{
    (void)arg;
    for (;;) {
        QueueSetMemberHandle_t member = xQueueSelectFromSet(set, portMAX_DELAY);
        uint32_t v = 0;
        char c = '?';
        if (member == q1 && xQueueReceive(q1, &v, 0) == pdPASS) {
            c = 'a';
        } else if (member == q2 && xQueueReceive(q2, &v, 0) == pdPASS) {
            c = 'b';
        } else if (member == sem && xSemaphoreTake(sem, 0) == pdPASS) {
            c = 's';
        }
        sum += v;
        if (seen_len + 1 < sizeof(seen)) {
            seen[seen_len++] = c;
        }
    }
}

static void isr_post(void *arg)
{
    (void)arg;
    BaseType_t woken = pdFALSE;
    uint32_t v = 100;
    xQueueSendFromISR(q2, &v, &woken);
    xSemaphoreGiveFromISR(sem, &woken);
    portYIELD_FROM_ISR(woken);
}

static void control_task(void *arg) /* priority 2: each post wakes the reader at once */
{
    (void)arg;
    uint32_t one = 1, two = 2;
    xQueueSend(q1, &one, 0);
    xQueueSend(q2, &two, 0);
    xSemaphoreGive(sem);
    xQueueSend(q1, &one, 0);
    CHECK(strcmp(seen, "absa") == 0, "reader served each post at once, in order (%s)", seen);

    /* With the reader suspended, posts pile up and are read in arrival order. */
    vTaskSuspendAll();
    xQueueSend(q2, &two, 0);
    xQueueSend(q1, &one, 0);
    xSemaphoreGive(sem);
    xTaskResumeAll();
    CHECK(strcmp(seen, "absabas") == 0, "queued members come out in arrival order (%s)", seen);

    rtos_inject_irq(rtos_now_ns() + 1500000u, 15, isr_post, NULL);
    vTaskDelay(3);
    CHECK(strcmp(seen, "absabasbs") == 0 && sum == 1 + 2 + 1 + 2 + 1 + 100, "interrupt posts to a member queue and semaphore (%s)", seen);

    CHECK(xQueueAddToSet(q1, set) == pdFAIL, "a queue already in a set cannot be added again");
    QueueHandle_t spare = xQueueCreate(1, sizeof(uint32_t));
    xQueueSend(spare, &one, 0);
    CHECK(xQueueAddToSet(spare, set) == pdFAIL, "a non-empty queue cannot be added");

    /* A set in the application's memory. Its storage holds handles: storage
     * not aligned as a pointer is refused, as is none. */
    static StaticQueue_t static_set_buffer;
    static QueueSetMemberHandle_t static_set_storage[2];
    uint8_t *storage = (uint8_t *)static_set_storage;
    CHECK(xQueueCreateSetStatic(2, storage + 1, &static_set_buffer) == NULL,
          "a static set's misaligned storage is refused");
    QueueSetHandle_t static_set = xQueueCreateSetStatic(2, storage, &static_set_buffer);
    QueueHandle_t member = xQueueCreate(1, sizeof(uint32_t));
    CHECK(static_set != NULL && xQueueAddToSet(member, static_set) == pdPASS, "a static set takes a member");
    CHECK(xQueueSelectFromSet(static_set, 0) == NULL, "an empty static set selects nothing");
    xQueueSend(member, &two, 0);
    CHECK(xQueueSelectFromSet(static_set, 0) == member, "a static set selects the member that got data");
    vTaskEndScheduler();
}

int main(void)
{
    q1 = xQueueCreate(4, sizeof(uint32_t));
    q2 = xQueueCreate(4, sizeof(uint32_t));
    sem = xSemaphoreCreateBinary();
    set = xQueueCreateSet(4 + 4 + 1);
    CHECK(xQueueAddToSet(q1, set) == pdPASS && xQueueAddToSet(q2, set) == pdPASS && xQueueAddToSet(sem, set) == pdPASS,
          "two queues and a semaphore added to a set");
    xTaskCreate(reader_task, "reader", configMINIMAL_STACK_SIZE, NULL, 3, NULL);
    xTaskCreate(control_task, "ctl", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    vTaskStartScheduler();
    return rtos_check_summary();
}
