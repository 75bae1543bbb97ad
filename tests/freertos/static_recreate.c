/*
 * A static create over a buffer that still holds a live object fails and
 * leaves the object as it was: its items, count, waiter, bits, bytes and
 * timer callback. That holds whichever kind the second create makes (one
 * StaticQueue_t serves queues, semaphores, mutexes and sets), and for a heap
 * object's memory handed over as a buffer (its failure must not free it:
 * ASan reports the double free at its later delete). Once the object is
 * deleted, the same buffer is accepted again. A live task's control block
 * and stack count as live objects. Counts assertions (a failed
 * semaphore create asserts, as FreeRTOS's does for bad arguments).
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#define RTOS_CHECK_COUNT_ASSERTS
#include "event_groups.h"
#include "queue.h"
#include "rtos_check.h"
#include "semphr.h"
#include "message_buffer.h"
#include "stream_buffer.h"
#include "timers.h"

static StaticQueue_t queue_buffer;
static uint8_t queue_storage[2 * sizeof(uint32_t)];
static StaticSemaphore_t sem_buffer;
static StaticSemaphore_t mutex_buffer;
static StaticTimer_t timer_buffer;
static StaticStreamBuffer_t stream_buffer;
static uint8_t stream_storage[16];
static StaticEventGroup_t events_buffer;
static uint8_t other_storage[4 * sizeof(uint32_t)];
static QueueSetMemberHandle_t set_storage[2];

static SemaphoreHandle_t waited_sem;
static volatile int waiter_woken;
static volatile int first_callback_runs, second_callback_runs;

static void first_callback(TimerHandle_t timer)
{
    (void)timer;
    first_callback_runs++;
}

static void second_callback(TimerHandle_t timer)
{
    (void)timer;
    second_callback_runs++;
}

static void waiter_task(void *arg)
{
    (void)arg;
    if (xSemaphoreTake(waited_sem, portMAX_DELAY) == pdTRUE) {
        waiter_woken = 1;
    }
    vTaskDelete(NULL);
}

/* Every queue-family create over buffer: each must refuse it. */
static void recreate_every_kind(StaticQueue_t *buffer, const char *what)
{
    CHECK(xQueueCreateStatic(4, sizeof(uint32_t), other_storage, buffer) == NULL, "%s: not re-created as a queue",
          what);
    CHECK(xSemaphoreCreateBinaryStatic(buffer) == NULL, "%s: not re-created as a binary semaphore", what);
    CHECK(xSemaphoreCreateCountingStatic(3, 3, buffer) == NULL, "%s: not re-created as a counting semaphore", what);
    CHECK(xSemaphoreCreateMutexStatic(buffer) == NULL, "%s: not re-created as a mutex", what);
    CHECK(xSemaphoreCreateRecursiveMutexStatic(buffer) == NULL, "%s: not re-created as a recursive mutex", what);
#if configUSE_QUEUE_SETS
    CHECK(xQueueCreateSetStatic(2, (uint8_t *)set_storage, buffer) == NULL, "%s: not re-created as a queue set",
          what);
#endif
}

static void queue_survives(void)
{
    QueueHandle_t queue = xQueueCreateStatic(2, sizeof(uint32_t), queue_storage, &queue_buffer);
    uint32_t item = 11;
    CHECK(queue != NULL && xQueueSend(queue, &item, 0) == pdPASS, "a static queue holds an item");
    recreate_every_kind(&queue_buffer, "live queue");
    uint32_t out = 0;
    CHECK(uxQueueMessagesWaiting(queue) == 1 && uxQueueSpacesAvailable(queue) == 1, "its count and length stand");
    CHECK(xQueueReceive(queue, &out, 0) == pdPASS && out == 11, "its item is still there");
    vQueueDelete(queue);
    QueueHandle_t again = xQueueCreateStatic(2, sizeof(uint32_t), queue_storage, &queue_buffer);
    CHECK(again == queue, "deleted, the buffer is accepted again");
    vQueueDelete(again);
}

static void semaphore_and_waiter_survive(void)
{
    waited_sem = xSemaphoreCreateBinaryStatic(&sem_buffer);
    CHECK(waited_sem != NULL, "a static semaphore");
    xTaskCreate(waiter_task, "waiter", configMINIMAL_STACK_SIZE, NULL, 3, NULL); /* runs and blocks at once */
    CHECK(!waiter_woken, "a task waits on it");
    recreate_every_kind(&sem_buffer, "semaphore with a waiter");
    CHECK(uxSemaphoreGetCount(waited_sem) == 0 && !waiter_woken, "still empty, the task still waiting");
    CHECK(xSemaphoreGive(waited_sem) == pdTRUE && waiter_woken, "a give still reaches the waiter");
    vSemaphoreDelete(waited_sem);
}

static void held_mutex_survives(void)
{
    SemaphoreHandle_t mutex = xSemaphoreCreateMutexStatic(&mutex_buffer);
    CHECK(mutex != NULL && xSemaphoreTake(mutex, 0) == pdTRUE, "a static mutex, held");
    recreate_every_kind(&mutex_buffer, "held mutex");
    CHECK(xSemaphoreGetMutexHolder(mutex) == xTaskGetCurrentTaskHandle(), "still held by this task");
    CHECK(xSemaphoreGive(mutex) == pdTRUE && xSemaphoreGetMutexHolder(mutex) == NULL, "and given back as a mutex");
    vSemaphoreDelete(mutex);
}

/* A heap object's memory passed as a buffer: refused, and not freed. */
static void heap_object_not_freed(void)
{
    QueueHandle_t queue = xQueueCreate(1, sizeof(uint32_t));
    uint32_t item = 5, out = 0;
    CHECK(queue != NULL && xQueueSend(queue, &item, 0) == pdPASS, "a heap queue holds an item");
    recreate_every_kind(queue, "heap queue");
    CHECK(xQueueReceive(queue, &out, 0) == pdPASS && out == 5, "its item is still there");
    vQueueDelete(queue); /* a double free if a refused create had freed it */
}

static void timer_survives(void)
{
    TimerHandle_t timer = xTimerCreateStatic("first", 2, pdFALSE, NULL, first_callback, &timer_buffer);
    CHECK(timer != NULL, "a static timer");
    CHECK(xTimerCreateStatic("second", 5, pdTRUE, NULL, second_callback, &timer_buffer) == NULL,
          "not re-created while live");
    CHECK(xTimerGetPeriod(timer) == 2 && xTimerIsTimerActive(timer) == pdFALSE, "its period stands, still dormant");
    CHECK(xTimerStart(timer, 0) == pdPASS, "started");
    vTaskDelay(4);
    CHECK(first_callback_runs == 1 && second_callback_runs == 0, "the first callback ran once, the second never");
    CHECK(xTimerDelete(timer, 0) == pdPASS, "deleted");
    vTaskDelay(1); /* the timer task carries out the delete */
    timer = xTimerCreateStatic("second", 5, pdTRUE, NULL, second_callback, &timer_buffer);
    CHECK(timer != NULL, "deleted, the buffer is accepted again");
    CHECK(xTimerDelete(timer, 0) == pdPASS, "and deleted");
    vTaskDelay(1);
}

static void stream_survives(void)
{
    StreamBufferHandle_t stream =
        xStreamBufferCreateStatic(sizeof(stream_storage) - 1, 1, stream_storage, &stream_buffer);
    CHECK(stream != NULL && xStreamBufferSend(stream, "abc", 3, 0) == 3, "a static stream buffer holds 3 bytes");
    CHECK(xStreamBufferCreateStatic(sizeof(stream_storage) - 1, 1, stream_storage, &stream_buffer) == NULL,
          "not re-created as a stream buffer");
    CHECK(xMessageBufferCreateStatic(sizeof(stream_storage) - 1, stream_storage, &stream_buffer) == NULL,
          "nor as a message buffer");
    char out[4] = {0};
    CHECK(xStreamBufferBytesAvailable(stream) == 3 && xStreamBufferReceive(stream, out, sizeof(out), 0) == 3 &&
              out[0] == 'a' && out[2] == 'c',
          "its bytes are still there");
    vStreamBufferDelete(stream);
}

static void event_group_survives(void)
{
    EventGroupHandle_t events = xEventGroupCreateStatic(&events_buffer);
    CHECK(events != NULL && xEventGroupSetBits(events, 0x5) == 0x5, "a static event group with bits 0x5");
    CHECK(xEventGroupCreateStatic(&events_buffer) == NULL, "not re-created while live");
    CHECK(xEventGroupGetBits(events) == 0x5, "its bits stand");
    vEventGroupDelete(events);
}

static void parked_task(void *arg)
{
    (void)arg;
    (void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
    vTaskDelete(NULL);
}

/* A live task's control block and stack are live memory too: no object, and
 * no other task, is created over them, and a task's control block is not
 * created over a live queue. Once the task is gone, both are free again. */
static void task_memory_survives(void)
{
    static StaticTask_t task_buffer;
    static StackType_t stack[configMINIMAL_STACK_SIZE] __attribute__((aligned(16)));
    static StaticTask_t spare_task;
    static StackType_t spare_stack[configMINIMAL_STACK_SIZE] __attribute__((aligned(16)));
    static union {
        StaticTask_t task;
        StaticQueue_t queue;
    } shared;
    TaskHandle_t task = xTaskCreateStatic(parked_task, "parked", configMINIMAL_STACK_SIZE, NULL, 3, stack,
                                          &task_buffer);
    CHECK(task != NULL && eTaskGetState(task) == eBlocked, "a static task, waiting");
    recreate_every_kind((StaticQueue_t *)(void *)&task_buffer, "a live task's control block");
    recreate_every_kind((StaticQueue_t *)(void *)(stack + configMINIMAL_STACK_SIZE / 2), "a live task's stack");
    CHECK(xTaskCreateStatic(parked_task, "again", configMINIMAL_STACK_SIZE, NULL, 3, spare_stack, &task_buffer) ==
              NULL,
          "no task over its control block");
    CHECK(xTaskCreateStatic(parked_task, "again", configMINIMAL_STACK_SIZE, NULL, 3, stack, &spare_task) == NULL,
          "nor on its stack");
    QueueHandle_t queue = xQueueCreateStatic(2, sizeof(uint32_t), queue_storage, &shared.queue);
    CHECK(queue != NULL, "a static queue");
    CHECK(xTaskCreateStatic(parked_task, "again", configMINIMAL_STACK_SIZE, NULL, 3, spare_stack, &shared.task) ==
              NULL,
          "no task over a live queue");
    vQueueDelete(queue);
    CHECK(eTaskGetState(task) == eBlocked && uxTaskPriorityGet(task) == 3, "the task stands");
    xTaskNotifyGive(task);
    vTaskDelay(1);
    SemaphoreHandle_t sem = xSemaphoreCreateBinaryStatic((StaticSemaphore_t *)(void *)&task_buffer);
    CHECK(sem != NULL, "the task gone, its control block takes a semaphore");
    vSemaphoreDelete(sem);
    task = xTaskCreateStatic(parked_task, "parked", configMINIMAL_STACK_SIZE, NULL, 3, stack, &shared.task);
    CHECK(task != NULL, "and its stack a new task");
    xTaskNotifyGive(task);
    vTaskDelay(1);
}

static void control_task(void *arg)
{
    (void)arg;
    queue_survives();
    semaphore_and_waiter_survive();
    held_mutex_survives();
    heap_object_not_freed();
    timer_survives();
    stream_survives();
    event_group_survives();
    task_memory_survives();
    vTaskEndScheduler();
}

int main(void)
{
    xTaskCreate(control_task, "ctl", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    vTaskStartScheduler();
    return rtos_check_summary();
}
