/*
 * The FreeRTOS names beyond the everyday calls that existing code uses: the
 * pre-V8 names (configENABLE_BACKWARD_COMPATIBILITY), the lower-level queue
 * calls semphr.h expands to on FreeRTOS, the size and static-buffer getters
 * (queues, semaphores, timers, event groups, tasks),
 * the base priority, the indexed notify-and-query from an interrupt,
 * pvPortCalloc, atomic.h, the port macros and the kernel tasks' names.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include <string.h>

#include "atomic.h"
#include "event_groups.h"
#include "rtos_check.h"
#include "semphr.h"
#include "timers.h"

static xTaskHandle control; /* the old name of TaskHandle_t */
static volatile uint32_t isr_previous;
static volatile BaseType_t isr_result;

static void legacy_names(void)
{
    xQueueHandle queue = xQueueCreate(2, sizeof(uint32_t));
    xSemaphoreHandle sem = xSemaphoreCreateBinary();
    portTickType before = xTaskGetTickCount();
    vTaskDelay(20 / portTICK_RATE_MS);
    CHECK(queue != NULL && sem != NULL && xTaskGetTickCount() - before == 20 / portTICK_PERIOD_MS,
          "xQueueHandle, xSemaphoreHandle, portTickType, portTICK_RATE_MS");
    CHECK(strcmp(pcTaskGetTaskName(NULL), "ctl") == 0 && eTaskStateGet(control) == eRunning,
          "pcTaskGetTaskName, eTaskStateGet");
    vQueueDelete(queue);
    vSemaphoreDelete(sem);
}

static void unused_callback(TimerHandle_t timer)
{
    (void)timer;
}

static void suspended_for_good(void *arg)
{
    (void)arg;
    for (;;) {
        vTaskSuspend(NULL);
    }
}

static void task_buffers(void)
{
    static StaticTask_t task_buffer;
    static StackType_t task_stack[configMINIMAL_STACK_SIZE] __attribute__((aligned(16)));
    TaskHandle_t fixed = xTaskCreateStatic(suspended_for_good, "fixed", configMINIMAL_STACK_SIZE, NULL, 1,
                                           task_stack, &task_buffer);
    StackType_t *got_stack = NULL;
    StaticTask_t *got_task = NULL;
    CHECK(fixed == &task_buffer && xTaskGetStaticBuffers(fixed, &got_stack, &got_task) == pdTRUE &&
              got_stack == task_stack && got_task == &task_buffer,
          "xTaskGetStaticBuffers gives back a static task's stack and control block");
    got_stack = NULL;
    got_task = NULL;
    CHECK(xTaskGetStaticBuffers(NULL, &got_stack, &got_task) == pdFALSE && got_stack == NULL && got_task == NULL,
          "xTaskGetStaticBuffers: pdFALSE for the caller, created by xTaskCreate; nothing written");
    TaskHandle_t idle = xTaskGetIdleTaskHandle();
    CHECK(xTaskGetStaticBuffers(idle, &got_stack, &got_task) == pdTRUE && got_task == idle && got_stack != NULL,
          "the idle task is static: its control block is its handle");
    vTaskDelete(fixed);
    /* The control block inside the stack it is given: refused, as the stack
     * would overwrite it. */
    static StackType_t shared[4u * configMINIMAL_STACK_SIZE] __attribute__((aligned(16)));
    StaticTask_t *inside = (StaticTask_t *)(void *)&shared[2u * configMINIMAL_STACK_SIZE];
    CHECK(xTaskCreateStatic(suspended_for_good, "inside", 4u * configMINIMAL_STACK_SIZE, NULL, 1, shared, inside) ==
              NULL,
          "xTaskCreateStatic: NULL for a control block inside its stack");
}

static void sizes_and_buffers(void)
{
    QueueHandle_t queue = xQueueCreate(5, 12);
    SemaphoreHandle_t counting = xSemaphoreCreateCounting(7, 2);
    SemaphoreHandle_t mutex = xSemaphoreCreateMutex();
    CHECK(uxQueueGetQueueLength(queue) == 5 && uxQueueGetQueueItemSize(queue) == 12,
          "uxQueueGetQueueLength / ItemSize of a queue: 5, 12");
    CHECK(uxQueueGetQueueLength(counting) == 7 && uxQueueGetQueueItemSize(counting) == 0 &&
              uxQueueGetQueueLength(mutex) == 1 && uxQueueGetQueueItemSize(mutex) == 0,
          "a counting semaphore's length is its maximum, a mutex's 1; item size 0");

    static StaticQueue_t queue_buffer;
    static uint8_t storage[3 * sizeof(uint32_t)];
    QueueHandle_t fixed = xQueueCreateStatic(3, sizeof(uint32_t), storage, &queue_buffer);
    uint8_t *got_storage = NULL;
    StaticQueue_t *got_buffer = NULL;
    CHECK(xQueueGetStaticBuffers(fixed, &got_storage, &got_buffer) == pdTRUE && got_storage == storage &&
              got_buffer == &queue_buffer,
          "xQueueGetStaticBuffers gives back the static queue's buffers");
    CHECK(xQueueGetStaticBuffers(queue, &got_storage, &got_buffer) == pdFALSE,
          "xQueueGetStaticBuffers: pdFALSE for a dynamic queue");
    static StaticSemaphore_t sem_buffer;
    SemaphoreHandle_t fixed_sem = xSemaphoreCreateBinaryStatic(&sem_buffer);
    StaticSemaphore_t *got_sem = NULL;
    CHECK(xSemaphoreGetStaticBuffer(fixed_sem, &got_sem) == pdTRUE && got_sem == &sem_buffer &&
              xSemaphoreGetStaticBuffer(mutex, &got_sem) == pdFALSE,
          "xSemaphoreGetStaticBuffer: the static semaphore's buffer; pdFALSE for a dynamic mutex");
    static StaticTimer_t timer_buffer;
    TimerHandle_t fixed_timer = xTimerCreateStatic("t", 5, pdFALSE, NULL, unused_callback, &timer_buffer);
    StaticTimer_t *got_timer = NULL;
    CHECK(xTimerGetStaticBuffer(fixed_timer, &got_timer) == pdTRUE && got_timer == &timer_buffer,
          "xTimerGetStaticBuffer");
    CHECK(xTimerDelete(fixed_timer, 0) == pdPASS, "the static timer deleted");
    static StaticEventGroup_t group_buffer;
    EventGroupHandle_t fixed_group = xEventGroupCreateStatic(&group_buffer);
    EventGroupHandle_t group = xEventGroupCreate();
    StaticEventGroup_t *got_group = NULL;
    CHECK(xEventGroupGetStaticBuffer(fixed_group, &got_group) == pdTRUE && got_group == &group_buffer,
          "xEventGroupGetStaticBuffer gives back the static group's buffer");
    got_group = NULL;
    CHECK(xEventGroupGetStaticBuffer(group, &got_group) == pdFALSE && got_group == NULL,
          "xEventGroupGetStaticBuffer: pdFALSE for a dynamic group, nothing written");
    vEventGroupDelete(fixed_group);
    vEventGroupDelete(group);
    task_buffers();
    vQueueDelete(queue);
    vQueueDelete(fixed);
    vSemaphoreDelete(counting);
    vSemaphoreDelete(mutex);
    vSemaphoreDelete(fixed_sem);
}

static void lower_level_calls(void)
{
    SemaphoreHandle_t binary = xQueueGenericCreate(1, 0, queueQUEUE_TYPE_BINARY_SEMAPHORE);
    CHECK(binary != NULL && uxSemaphoreGetCount(binary) == 0 && xSemaphoreGive(binary) == pdTRUE &&
              xQueueSemaphoreTake(binary, 0) == pdTRUE && xQueueSemaphoreTake(binary, 0) == pdFALSE,
          "xQueueGenericCreate of a binary semaphore: created empty, one give, one take");
    SemaphoreHandle_t counting = xQueueCreateCountingSemaphore(4, 3);
    CHECK(counting != NULL && uxSemaphoreGetCount(counting) == 3 && uxQueueGetQueueLength(counting) == 4,
          "xQueueCreateCountingSemaphore(4, 3)");
    SemaphoreHandle_t mutex = xQueueCreateMutex(queueQUEUE_TYPE_MUTEX);
    SemaphoreHandle_t recursive = xQueueCreateMutex(queueQUEUE_TYPE_RECURSIVE_MUTEX);
    CHECK(mutex != NULL && xSemaphoreTake(mutex, 0) == pdTRUE && xSemaphoreGetMutexHolder(mutex) == control &&
              xSemaphoreGive(mutex) == pdTRUE,
          "xQueueCreateMutex(queueQUEUE_TYPE_MUTEX) is a mutex");
    CHECK(recursive != NULL && xQueueTakeMutexRecursive(recursive, 0) == pdTRUE &&
              xQueueTakeMutexRecursive(recursive, 0) == pdTRUE && xQueueGiveMutexRecursive(recursive) == pdTRUE &&
              xQueueGiveMutexRecursive(recursive) == pdTRUE && xQueueGiveMutexRecursive(recursive) == pdFALSE,
          "xQueueCreateMutex(queueQUEUE_TYPE_RECURSIVE_MUTEX): taken twice, given twice, then not held");
    QueueHandle_t queue = xQueueGenericCreate(3, sizeof(uint32_t), queueQUEUE_TYPE_BASE);
    uint32_t v = 9, out = 0;
    CHECK(queue != NULL && xQueueSend(queue, &v, 0) == pdTRUE && xQueueReceive(queue, &out, 0) == pdTRUE && out == 9,
          "xQueueGenericCreate of a queue");
    vSemaphoreDelete(binary);
    vSemaphoreDelete(counting);
    vSemaphoreDelete(mutex);
    vSemaphoreDelete(recursive);
    vQueueDelete(queue);
}

static void inheriting_holder(void *arg)
{
    SemaphoreHandle_t mutex = arg;
    (void)xSemaphoreTake(mutex, portMAX_DELAY);
    vTaskDelay(3); /* ctl waits for the mutex meanwhile */
    isr_result = (BaseType_t)(uxTaskPriorityGet(NULL) * 10 + uxTaskBasePriorityGet(NULL));
    (void)xSemaphoreGive(mutex);
    vTaskSuspend(NULL);
}

static void inherited_priority(void)
{
    SemaphoreHandle_t mutex = xSemaphoreCreateMutex();
    TaskHandle_t low = NULL;
    CHECK(xTaskCreate(inheriting_holder, "low2", configMINIMAL_STACK_SIZE, mutex, 1, &low) == pdPASS,
          "low2 created");
    vTaskDelay(1);
    (void)xSemaphoreTake(mutex, portMAX_DELAY);
    CHECK(isr_result == 31, "while inheriting: priority 3, base priority 1 (%ld)", (long)isr_result);
    CHECK(uxTaskBasePriorityGet(low) == 1 && uxTaskBasePriorityGetFromISR(NULL) == 3,
          "uxTaskBasePriorityGet: 1 for low2 after, 3 for this task");
    (void)xSemaphoreGive(mutex);
    vTaskDelete(low);
    vSemaphoreDelete(mutex);
}

static void notify_query_isr(void *arg)
{
    (void)arg;
    uint32_t previous = 0;
    BaseType_t woken = pdFALSE;
    isr_result = xTaskNotifyAndQueryIndexedFromISR(control, 0, 0x10, eSetBits, &previous, &woken);
    isr_previous = previous;
    portYIELD_FROM_ISR(woken);
}

static void indexed_query_from_isr(void)
{
    (void)xTaskNotifyStateClearIndexed(NULL, 0);
    (void)xTaskNotifyIndexed(control, 0, 0x3, eSetValueWithOverwrite);
    rtos_inject_irq(rtos_now_ns() + 1000000u, 12, notify_query_isr, NULL);
    uint32_t value = 0;
    vTaskDelay(2);
    CHECK(xTaskNotifyWaitIndexed(0, 0, 0xffffffffu, &value, 0) == pdTRUE && value == 0x13 &&
              isr_previous == 0x3 && isr_result == pdPASS,
          "xTaskNotifyAndQueryIndexedFromISR: previous 0x3, now 0x13");
}

static void calloc_and_atomics(void)
{
    size_t free_before = xPortGetFreeHeapSize();
    uint32_t *block = pvPortCalloc(4, sizeof(uint32_t));
    CHECK(block != NULL && block[0] == 0 && block[3] == 0 && xPortGetFreeHeapSize() == free_before - 16,
          "pvPortCalloc: 16 zeroed bytes");
    vPortFree(block);
    CHECK(pvPortCalloc(SIZE_MAX / 2, 4) == NULL && xPortGetFreeHeapSize() == free_before,
          "pvPortCalloc: an overflowing size fails and takes nothing");

    volatile uint32_t word = 5;
    CHECK(Atomic_CompareAndSwap_u32(&word, 9, 4) == ATOMIC_COMPARE_AND_SWAP_FAILURE && word == 5 &&
              Atomic_CompareAndSwap_u32(&word, 9, 5) == ATOMIC_COMPARE_AND_SWAP_SUCCESS && word == 9,
          "Atomic_CompareAndSwap_u32");
    CHECK(Atomic_Add_u32(&word, 3) == 9 && Atomic_Subtract_u32(&word, 2) == 12 && Atomic_Increment_u32(&word) == 10 &&
              Atomic_Decrement_u32(&word) == 11 && word == 10,
          "Atomic_Add/Subtract/Increment/Decrement return the value before");
    CHECK(Atomic_OR_u32(&word, 0x5) == 10 && Atomic_AND_u32(&word, 0x6) == 15 && Atomic_XOR_u32(&word, 0x3) == 6 &&
              Atomic_NAND_u32(&word, 0x1) == 5 && word == ~1u,
          "Atomic_OR/AND/XOR/NAND");
    int a = 1, b = 2;
    void *volatile slot = &a;
    CHECK(Atomic_SwapPointers_p32(&slot, &b) == &a && slot == &b &&
              Atomic_CompareAndSwapPointers_p32(&slot, &a, &a) == ATOMIC_COMPARE_AND_SWAP_FAILURE &&
              Atomic_CompareAndSwapPointers_p32(&slot, &a, &b) == ATOMIC_COMPARE_AND_SWAP_SUCCESS && slot == &a,
          "Atomic_SwapPointers_p32, Atomic_CompareAndSwapPointers_p32");
    {
        ATOMIC_ENTER_CRITICAL();
        word = 0;
        ATOMIC_EXIT_CRITICAL();
    }
    CHECK(word == 0, "ATOMIC_ENTER_CRITICAL / ATOMIC_EXIT_CRITICAL");
}

static portFORCE_INLINE int twice(int x)
{
    mtCOVERAGE_TEST_MARKER();
    portMEMORY_BARRIER();
    return 2 * x;
}

static void port_macros_and_names(void)
{
    CHECK(twice(4) == 8 && xPortIsInsideInterrupt() == pdFALSE, "portFORCE_INLINE, xPortIsInsideInterrupt");
    CHECK(xTaskGetHandle(configIDLE_TASK_NAME) == xTaskGetIdleTaskHandle() &&
              strcmp(pcTaskGetName(xTaskGetIdleTaskHandle()), "IDLE") == 0,
          "the idle task is configIDLE_TASK_NAME, \"IDLE\"");
    CHECK(xTaskGetHandle(configTIMER_SERVICE_TASK_NAME) == xTimerGetTimerDaemonTaskHandle() &&
              strcmp(pcTaskGetName(xTimerGetTimerDaemonTaskHandle()), "Tmr Svc") == 0,
          "the timer task is configTIMER_SERVICE_TASK_NAME, \"Tmr Svc\"");
}

static void control_task(void *arg)
{
    (void)arg;
    legacy_names();
    sizes_and_buffers();
    lower_level_calls();
    inherited_priority();
    indexed_query_from_isr();
    calloc_and_atomics();
    port_macros_and_names();
    vTaskEndScheduler();
}

int main(void)
{
    xTaskCreate(control_task, "ctl", configMINIMAL_STACK_SIZE, NULL, 3, &control);
    vTaskStartScheduler();
    return rtos_check_summary();
}
