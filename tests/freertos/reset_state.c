/*
 * FreeRTOS V11.1's restart calls: vTaskResetState, vTimerResetState and
 * vPortHeapResetState between two runs of the scheduler (sim port; on the
 * boards the scheduler does not return). The first run uses the C library's
 * heap; after it every object is deleted and the state reset, the heap is
 * back to its start-up figures, and heap regions may be defined again: the
 * second run's tasks, queue and timer come from them. The control task
 * deletes what it made before it ends a run; vTaskResetState frees it. Refused, changing
 * nothing: a heap reset with a block still handed out, and each reset while
 * the scheduler runs. Counts assertions.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#define RTOS_CHECK_COUNT_ASSERTS
#include "queue.h"
#include "rtos_check.h"
#include "timers.h"

/* Room for two tasks of configMINIMAL_STACK_SIZE words (8-byte words on a
 * 64-bit host) and a queue. */
static uint8_t area[4u * configMINIMAL_STACK_SIZE * sizeof(StackType_t) + 4096u] __attribute__((aligned(16)));
static HeapRegion_t regions[2];
static QueueHandle_t queue;
static volatile unsigned timer_fired, worker_runs;
static unsigned refused_while_running;

static bool in_area(const void *p)
{
    return (const uint8_t *)p >= area && (const uint8_t *)p < area + sizeof(area);
}

static void on_timer(TimerHandle_t timer)
{
    (void)timer;
    timer_fired++;
}

static void worker(void *arg)
{
    (void)arg;
    uint32_t item = 0;
    for (;;) {
        if (xQueueReceive(queue, &item, portMAX_DELAY) == pdPASS) {
            worker_runs++;
        }
    }
}

/* Sends one item, waits for the timer, deletes what it made (the worker
 * and the queue too), tries the resets (refused while the scheduler runs:
 * the heap still holds this task), ends the run. */
static TaskHandle_t worker_task;
static bool queue_in_area;

static void control(void *arg)
{
    (void)arg;
    uint32_t item = 1;
    CHECK(xQueueSend(queue, &item, 0) == pdPASS, "an item for the worker");
    TimerHandle_t timer = xTimerCreate("t", 2, pdFALSE, NULL, on_timer);
    CHECK(timer != NULL && xTimerStart(timer, 0) == pdPASS, "a one-shot timer of 2 ticks");
    vTaskDelay(4);
    CHECK(xTimerDelete(timer, 0) == pdPASS, "the timer deleted");
    vTaskDelete(worker_task);
    queue_in_area = in_area(queue);
    vQueueDelete(queue);
    vTaskDelay(1); /* the timer task carries the delete out */
    unsigned long before = assertions;
    HeapStats_t stats_before, stats_after;
    vPortGetHeapStats(&stats_before);
    vTaskResetState();
    vTimerResetState();
    vPortHeapResetState();
    vPortGetHeapStats(&stats_after);
    refused_while_running = (unsigned)(assertions - before);
    CHECK(stats_after.xNumberOfSuccessfulAllocations == stats_before.xNumberOfSuccessfulAllocations,
          "the heap refused the reset: this task's blocks are handed out");
    vTaskEndScheduler();
}

static void run(void)
{
    timer_fired = 0;
    worker_runs = 0;
    queue = xQueueCreate(2, sizeof(uint32_t));
    bool created = queue != NULL &&
                   xTaskCreate(worker, "worker", configMINIMAL_STACK_SIZE, NULL, 2, &worker_task) == pdPASS &&
                   xTaskCreate(control, "ctl", configMINIMAL_STACK_SIZE, NULL, 1, NULL) == pdPASS;
    CHECK(created, "a queue, a worker and a control task");
    if (!created) {
        return; /* no run: nothing would end it */
    }
    vTaskStartScheduler();
    CHECK(worker_runs == 1 && timer_fired == 1, "the run: the worker got its item, the timer fired");
    CHECK(refused_while_running == 3, "the three resets trip configASSERT while the scheduler runs (%u)",
          refused_while_running);
}

int main(void)
{
    run();

    /* A block still handed out: the heap keeps its state. */
    void *kept = pvPortMalloc(100);
    HeapStats_t before, after;
    vPortGetHeapStats(&before);
    unsigned long asserted = assertions;
    vPortHeapResetState();
    vPortGetHeapStats(&after);
    CHECK(kept != NULL && assertions == asserted + 1 &&
              after.xNumberOfSuccessfulAllocations == before.xNumberOfSuccessfulAllocations &&
              after.xAvailableHeapSpaceInBytes == before.xAvailableHeapSpaceInBytes,
          "vPortHeapResetState with a block handed out: configASSERT, nothing changed");
    vPortFree(kept);

    vTaskResetState();
    vTimerResetState();
    asserted = assertions;
    vPortHeapResetState();
    vPortGetHeapStats(&after);
    CHECK(assertions == asserted && after.xNumberOfSuccessfulAllocations == 0 &&
              after.xNumberOfSuccessfulFrees == 0 && after.xAvailableHeapSpaceInBytes == configTOTAL_HEAP_SIZE &&
              after.xMinimumEverFreeBytesRemaining == configTOTAL_HEAP_SIZE,
          "after the resets the heap is as at start-up");

    regions[0] = (HeapRegion_t){area, sizeof(area)};
    regions[1] = (HeapRegion_t){NULL, 0};
    vPortDefineHeapRegions(regions);
    CHECK(assertions == asserted && xPortGetFreeHeapSize() > sizeof(area) - 1024u,
          "heap regions accepted after the reset");
    void *probe = pvPortMalloc(16);
    CHECK(in_area(probe), "allocations come from the regions");
    vPortFree(probe);

    run();
    CHECK(queue_in_area, "the second run's queue came from the regions");

    asserted = assertions;
    vTaskResetState();
    vPortHeapResetState();
    CHECK(assertions == asserted && xPortGetFreeHeapSize() == configTOTAL_HEAP_SIZE,
          "reset again: the regions forgotten, the C library's heap back");
    return rtos_check_summary();
}
