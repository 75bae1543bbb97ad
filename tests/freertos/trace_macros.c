/*
 * FreeRTOS's trace macros, defined by the application (config/
 * trace_macros_config.h records each), called where FreeRTOS calls them:
 * the kernel's (switches, ticks, task creation, deletion, suspension,
 * resumption, readying) through Takt's trace hook, the calls' as they
 * return, with pxCurrentTCB the running task. Checked on the record: every
 * switch-out names the task the switch before switched in, the ticks come
 * one by one, and each call's macro names its object.
 *
 * "ctl" (priority 3) makes the calls; "worker" (priority 2) waits on a queue.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include <string.h>

#include "event_groups.h"
#include "queue.h"
#include "rtos_check.h"
#include "semphr.h"
#include "stream_buffer.h"
#include "timers.h"

#define CTL_PRIORITY 3
#define WORKER_PRIORITY 2
#define RESUME_IRQ 4
#define MAX_RECORDS 4096

typedef struct {
    char kind;
    const void *subject;
    unsigned long value;
    const void *task; /* the task the macro ran in, for the blocking macros */
} record_t;

static record_t records[MAX_RECORDS];
static volatile unsigned record_count, records_lost;

void test_trace_in(char kind, const void *task, const void *subject, unsigned long value)
{
    if (record_count == MAX_RECORDS) {
        records_lost++;
        return;
    }
    records[record_count++] = (record_t){kind, subject, value, task};
}

void test_trace(char kind, const void *subject, unsigned long value)
{
    test_trace_in(kind, NULL, subject, value);
}

/* The first record of kind about subject (NULL: any) from index from on; -1 if none. */
static int find(unsigned from, char kind, const void *subject)
{
    for (unsigned i = from; i < record_count; i++) {
        if (records[i].kind == kind && (subject == NULL || records[i].subject == subject)) {
            return (int)i;
        }
    }
    return -1;
}

static QueueHandle_t queue;
static TaskHandle_t ctl, worker, sleeper;

static void worker_task(void *arg)
{
    (void)arg;
    uint32_t item;
    for (;;) {
        (void)xQueueReceive(queue, &item, portMAX_DELAY);
    }
}

static void sleeper_task(void *arg)
{
    (void)arg;
    vTaskSuspend(NULL);
    vTaskDelete(NULL);
}

static volatile int timer_calls, pended_calls;
static int pend_tag; /* the pended call's first argument, which its trace names */

static void timer_callback(TimerHandle_t timer)
{
    (void)timer;
    timer_calls++;
}

static void pended(void *arg1, uint32_t arg2)
{
    (void)arg1;
    (void)arg2;
    pended_calls++;
}

static SemaphoreHandle_t shared;

/* Takes the mutex, waits for a notification holding it, gives it. */
static void holder_task(void *arg)
{
    (void)arg;
    (void)xSemaphoreTake(shared, portMAX_DELAY);
    (void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
    (void)xSemaphoreGive(shared);
    vTaskDelete(NULL);
}

static void resume_sleeper(void *arg)
{
    (void)arg;
    (void)xTaskResumeFromISR(sleeper);
}

/* The blocking macros' kinds: an event group's wait and sync, a
 * notification's take and wait. */
#define BLOCKING_KINDS "WYKN"

/* How many records of the blocking macros from index from on (task NULL: any task's). */
static unsigned blocking_records(unsigned from, const void *task)
{
    unsigned count = 0;
    for (unsigned i = from; i < record_count; i++) {
        if (strchr(BLOCKING_KINDS, records[i].kind) != NULL && (task == NULL || records[i].task == task)) {
            count++;
        }
    }
    return count;
}

/* The one blocking record from index from on, which must be of kind, in
 * task, about subject, with value; and before the task switches out. */
static bool one_blocking(unsigned from, char kind, const void *task, const void *subject, unsigned long value)
{
    int at = find(from, kind, subject);
    return blocking_records(from, NULL) == 1 && at >= 0 && records[at].task == task &&
           records[at].value == value && find((unsigned)at, 'o', task) > at;
}

/* Two tasks at one priority make the same blocking calls with their own
 * arguments; ctl wakes them one call at a time, alternately, so that each
 * is inside a call (its record set) while the other blocks. */
typedef struct {
    EventBits_t sync_set, sync_wait, wait_bits;
    UBaseType_t take_index, wait_index;
} blocker_args_t;

static EventGroupHandle_t blocking_group;
static const blocker_args_t alpha_args = {0x0100u, 0x0300u, 0x0400u, 0, 1};
static const blocker_args_t beta_args = {0x1000u, 0x3000u, 0x4000u, 1, 0};

static void blocker_task(void *arg)
{
    const blocker_args_t *args = arg;
    (void)xEventGroupSync(blocking_group, args->sync_set, args->sync_wait, portMAX_DELAY);
    (void)xEventGroupWaitBits(blocking_group, args->wait_bits, pdTRUE, pdTRUE, portMAX_DELAY);
    (void)ulTaskNotifyTakeIndexed(args->take_index, pdTRUE, portMAX_DELAY);
    (void)xTaskNotifyWaitIndexed(args->wait_index, 0, UINT32_MAX, NULL, portMAX_DELAY);
    vTaskDelete(NULL);
}

/* task's blocking records from index from on are exactly its four calls',
 * in order, with its arguments. */
static bool blocked_with_own_arguments(unsigned from, TaskHandle_t task, const blocker_args_t *args)
{
    const record_t expected[] = {
        {'Y', blocking_group, (unsigned long)args->sync_set << 16 | args->sync_wait, task},
        {'W', blocking_group, args->wait_bits, task},
        {'K', task, args->take_index, task},
        {'N', task, args->wait_index, task},
    };
    unsigned seen = 0;
    for (unsigned i = from; i < record_count; i++) {
        if (strchr(BLOCKING_KINDS, records[i].kind) == NULL || records[i].task != task) {
            continue;
        }
        const record_t *want = &expected[seen < 4 ? seen : 3];
        if (seen >= 4 || records[i].kind != want->kind || records[i].subject != want->subject ||
            records[i].value != want->value) {
            return false;
        }
        seen++;
    }
    return seen == 4;
}

/* The blocking macros: one as a call blocks, naming its arguments, none for
 * a call that returns at once; a sync told from a wait, a take from a wait;
 * each task its own. */
static void check_blocking_macros(void)
{
    EventGroupHandle_t group = xEventGroupCreate();
    CHECK(group != NULL, "an event group for the blocking calls");

    unsigned mark = record_count;
    (void)xEventGroupSetBits(group, 0x1u);
    CHECK(xEventGroupWaitBits(group, 0x1u, pdFALSE, pdTRUE, 5) == 0x1u, "a wait satisfied at once");
    CHECK(xEventGroupSync(group, 0x2u, 0x3u, 5) == 0x3u, "a sync satisfied at once, by its own bit too");
    CHECK(xEventGroupWaitBits(group, 0x8u, pdTRUE, pdTRUE, 0) == 0u, "a wait that may not wait");
    CHECK(xEventGroupSync(group, 0x10u, 0x30u, 0) == 0x10u, "a sync that may not wait");
    (void)xEventGroupClearBits(group, 0x10u);
    (void)xTaskNotifyGiveIndexed(ctl, 1);
    CHECK(ulTaskNotifyTakeIndexed(1, pdTRUE, 5) == 1u, "a take satisfied at once");
    CHECK(ulTaskNotifyTakeIndexed(1, pdTRUE, 0) == 0u, "a take that may not wait");
    (void)xTaskNotifyIndexed(ctl, 1, 0x4u, eSetBits);
    CHECK(xTaskNotifyWaitIndexed(1, 0, UINT32_MAX, NULL, 5) == pdTRUE, "a notification wait satisfied at once");
    CHECK(xTaskNotifyWaitIndexed(1, 0, UINT32_MAX, NULL, 0) == pdFALSE, "one that may not wait");
    CHECK(blocking_records(mark, NULL) == 0, "no blocking macro for a call that returns at once (%u)",
          blocking_records(mark, NULL));

    mark = record_count;
    CHECK(xEventGroupWaitBits(group, 0x40u, pdTRUE, pdTRUE, 2) == 0u, "a wait that blocks, then times out");
    CHECK(one_blocking(mark, 'W', ctl, group, 0x40u),
          "traceEVENT_GROUP_WAIT_BITS_BLOCK once, with the group and its bits, before ctl switches out");
    CHECK(find(mark, 'w', group) > find(mark, 'W', group), "then traceEVENT_GROUP_WAIT_BITS_END");
    mark = record_count;
    CHECK(xEventGroupSync(group, 0x20u, 0x60u, 2) == 0x20u, "a sync that blocks, then times out");
    CHECK(one_blocking(mark, 'Y', ctl, group, 0x20ul << 16 | 0x60u),
          "traceEVENT_GROUP_SYNC_BLOCK once (not the wait's), with the group and both bit sets");
    int sync_set = find(mark, '+', group);
    CHECK(sync_set >= 0 && records[sync_set].value == 0x20u && sync_set < find(mark, 'Y', group),
          "the sync traces traceEVENT_GROUP_SET_BITS with the bits it sets, before it blocks");
    (void)xEventGroupClearBits(group, 0x20u);
    mark = record_count;
    CHECK(ulTaskNotifyTakeIndexed(1, pdTRUE, 2) == 0u, "a take that blocks, then times out");
    CHECK(one_blocking(mark, 'K', ctl, ctl, 1), "traceTASK_NOTIFY_TAKE_BLOCK once (not the wait's), with its index");
    mark = record_count;
    CHECK(xTaskNotifyWaitIndexed(0, 0, 0, NULL, 2) == pdFALSE, "a notification wait that blocks, then times out");
    CHECK(one_blocking(mark, 'N', ctl, ctl, 0), "traceTASK_NOTIFY_WAIT_BLOCK once (not the take's), with its index");

    blocking_group = group;
    mark = record_count;
    TaskHandle_t alpha = NULL, beta = NULL;
    CHECK(xTaskCreate(blocker_task, "alpha", configMINIMAL_STACK_SIZE, (void *)&alpha_args, WORKER_PRIORITY,
                      &alpha) == pdPASS &&
              xTaskCreate(blocker_task, "beta", configMINIMAL_STACK_SIZE, (void *)&beta_args, WORKER_PRIORITY,
                          &beta) == pdPASS,
          "two tasks making the same blocking calls");
    vTaskDelay(1); /* both block in their syncs */
    CHECK(blocking_records(mark, alpha) == 1 && blocking_records(mark, beta) == 1, "each blocked once");
    (void)xEventGroupSetBits(group, alpha_args.sync_wait & ~alpha_args.sync_set);
    vTaskDelay(1); /* alpha on to its wait, beta still in its sync */
    (void)xEventGroupSetBits(group, beta_args.sync_wait & ~beta_args.sync_set);
    vTaskDelay(1);
    (void)xEventGroupSetBits(group, alpha_args.wait_bits);
    vTaskDelay(1); /* alpha on to its take, beta still in its wait */
    (void)xEventGroupSetBits(group, beta_args.wait_bits);
    vTaskDelay(1);
    (void)xTaskNotifyGiveIndexed(alpha, alpha_args.take_index);
    vTaskDelay(1); /* alpha on to its notification wait, beta still in its take */
    (void)xTaskNotifyGiveIndexed(beta, beta_args.take_index);
    vTaskDelay(1);
    (void)xTaskNotifyIndexed(alpha, alpha_args.wait_index, 0, eNoAction);
    (void)xTaskNotifyIndexed(beta, beta_args.wait_index, 0, eNoAction);
    vTaskDelay(1); /* both end */
    CHECK(find(mark, 'd', alpha) >= 0 && find(mark, 'd', beta) >= 0, "both went through their calls");
    CHECK(blocking_records(mark, NULL) == 8, "one blocking macro per blocking call (%u)", blocking_records(mark, NULL));
    CHECK(blocked_with_own_arguments(mark, alpha, &alpha_args), "alpha's blocking macros name alpha's arguments");
    CHECK(blocked_with_own_arguments(mark, beta, &beta_args), "beta's blocking macros name beta's arguments");
    vEventGroupDelete(group);
}

/* Every switch-out names the task the previous switch-in named; nothing
 * switches out before the first switch-in. */
static bool switches_pair_up(void)
{
    const void *running = NULL;
    unsigned switches = 0;
    for (unsigned i = 0; i < record_count; i++) {
        if (records[i].kind == 'o') {
            if (running == NULL || records[i].subject != running) {
                return false;
            }
            running = NULL;
        } else if (records[i].kind == 'i') {
            if (running != NULL && switches > 0) {
                return false; /* switched in without the other switched out */
            }
            running = records[i].subject;
            switches++;
        }
    }
    return switches > 2;
}

static bool ticks_one_by_one(unsigned *count)
{
    bool seen = false;
    unsigned long last = 0;
    *count = 0;
    for (unsigned i = 0; i < record_count; i++) {
        if (records[i].kind != 't') {
            continue;
        }
        if (seen && records[i].value != last + 1u) {
            return false;
        }
        seen = true;
        last = records[i].value;
        (*count)++;
    }
    return seen;
}

static void ctl_task(void *arg)
{
    (void)arg;
    TaskHandle_t idle = xTaskGetIdleTaskHandle();
    int start = find(0, 'S', idle);
    CHECK(start >= 0, "traceSTARTING_SCHEDULER with the idle task's handle");
    int first_in = find(0, 'i', NULL);
    CHECK(first_in > start && records[first_in].subject == ctl, "the first switch-in is ctl's, after the start");
    CHECK(find(0, 'c', ctl) >= 0 && find(0, 'm', ctl) > find(0, 'c', ctl),
          "traceTASK_CREATE, then traceMOVED_TASK_TO_READY_STATE, for ctl");
    CHECK(find(0, 'q', queue) >= 0, "traceQUEUE_CREATE for the queue main created");

    unsigned mark = record_count;
    CHECK(xTaskCreate(worker_task, "worker", configMINIMAL_STACK_SIZE, NULL, WORKER_PRIORITY, &worker) == pdPASS,
          "the worker");
    CHECK(find(mark, 'c', worker) >= 0, "traceTASK_CREATE for the worker");
    mark = record_count;
    vTaskDelay(2);
    int delay = find(mark, 'D', NULL);
    CHECK(delay >= 0 && records[delay].subject == ctl, "traceTASK_DELAY with pxCurrentTCB the delaying task");
    int out = find(mark, 'o', ctl);
    CHECK(out > delay && records[out + 1].kind == 'i' && records[out + 1].subject == worker,
          "ctl switched out, the worker switched in");
    CHECK(find(mark, 'o', worker) > out && find(mark, 'i', idle) > out, "the worker blocks: the idle task runs");
    int blocked = find(mark, 'b', queue);
    CHECK(blocked > out && blocked < find(mark, 'o', worker),
          "traceBLOCKING_ON_QUEUE_RECEIVE for the worker's receive, before it switches out");
    int woken = find(mark, 'm', ctl);
    CHECK(woken > out && find((unsigned)woken, 'i', ctl) > woken, "ctl made ready at its wake, then switched in");

    mark = record_count;
    uint32_t item = 7;
    CHECK(xQueueSend(queue, &item, 0) == pdPASS, "a send the worker waits for");
    CHECK(find(mark, 'm', worker) >= 0 && find(mark, '>', queue) > find(mark, 'm', worker),
          "the worker made ready, then traceQUEUE_SEND as the call returns");
    mark = record_count;
    vTaskDelay(1); /* the worker takes it and waits again */
    CHECK(xQueueReceive(queue, &item, 0) == pdFAIL && find(mark, '(', queue) >= 0,
          "a receive that found nothing traces it, with its own macro");

    mark = record_count;
    vTaskSuspend(worker);
    vTaskResume(worker);
    vTaskPrioritySet(worker, 1);
    int prio = find(mark, 'P', worker);
    CHECK(find(mark, 's', worker) >= 0 && find(mark, 'r', worker) > find(mark, 's', worker),
          "traceTASK_SUSPEND, then traceTASK_RESUME");
    CHECK(prio >= 0 && records[prio].value == 1, "traceTASK_PRIORITY_SET with the new priority");

    mark = record_count;
    TickType_t previous = xTaskGetTickCount();
    CHECK(xTaskDelayUntil(&previous, 3) == pdTRUE, "a delay until");
    int until = find(mark, 'U', ctl);
    CHECK(until >= 0 && records[until].value == (unsigned long)previous,
          "traceTASK_DELAY_UNTIL with the wake time (%lu)", until >= 0 ? records[until].value : 0ul);

    mark = record_count;
    void *block = pvPortMalloc(40);
    vPortFree(block);
    int alloc = find(mark, 'a', block);
    int freed = find(mark, 'f', block);
    CHECK(block != NULL && alloc >= 0 && records[alloc].value == 40 && freed > alloc && records[freed].value == 40,
          "traceMALLOC and traceFREE with the block and its size");

    mark = record_count;
    SemaphoreHandle_t mutex = xSemaphoreCreateMutex();
    CHECK(mutex != NULL && find(mark, 'M', mutex) >= 0, "traceCREATE_MUTEX");
    CHECK(xSemaphoreTake(mutex, 0) == pdPASS && find(mark, '<', mutex) >= 0, "a mutex take traces a receive");
    CHECK(xSemaphoreGive(mutex) == pdPASS && find(mark, '>', mutex) >= 0, "its give a send");
    vSemaphoreDelete(mutex);
    CHECK(find(mark, 'x', mutex) >= 0, "traceQUEUE_DELETE");

    mark = record_count;
    CHECK(xTaskCreate(sleeper_task, "sleeper", configMINIMAL_STACK_SIZE, NULL, WORKER_PRIORITY + 2, &sleeper) ==
              pdPASS,
          "a task that suspends itself");
    CHECK(rtos_inject_irq(rtos_now_ns() + RTOS_TICK_NS + RTOS_TICK_NS / 2u, RESUME_IRQ, resume_sleeper, NULL) == 0,
          "an interrupt resumes it");
    vTaskDelay(3);
    CHECK(find(mark, 'R', sleeper) > find(mark, 's', sleeper) && find(mark, 'd', sleeper) > find(mark, 'R', sleeper),
          "traceTASK_RESUME_FROM_ISR, then traceTASK_DELETE when it deleted itself");

    mark = record_count;
    CHECK(xTaskCreate(sleeper_task, "tiny", 8, NULL, 1, NULL) != pdPASS, "a task with too small a stack");
    CHECK(find(mark, 'C', NULL) >= 0, "a create that did not happen traces it, with its own macro");

    mark = record_count;
    shared = xSemaphoreCreateMutex();
    TaskHandle_t holder = NULL;
    CHECK(shared != NULL && xTaskCreate(holder_task, "holder", configMINIMAL_STACK_SIZE, NULL, 1, &holder) == pdPASS,
          "a mutex holder at priority 1");
    vTaskDelay(1);          /* it takes the mutex and waits */
    xTaskNotifyGive(holder); /* it may go on, but ctl runs */
    CHECK(xSemaphoreTake(shared, portMAX_DELAY) == pdPASS, "ctl takes the mutex after the holder");
    CHECK(find(mark, 'b', shared) >= 0, "ctl's blocked take traces a blocking receive on the mutex");
    int inherit = find(mark, 'I', holder);
    int disinherit = find(mark, 'J', holder);
    CHECK(inherit >= 0 && records[inherit].value == CTL_PRIORITY,
          "traceTASK_PRIORITY_INHERIT: the holder at ctl's priority");
    CHECK(disinherit > inherit && records[disinherit].value == 1, "traceTASK_PRIORITY_DISINHERIT: back to its own");
    CHECK(find(mark, 'P', holder) < 0, "no traceTASK_PRIORITY_SET for either");
    (void)xSemaphoreGive(shared);

    mark = record_count;
    QueueHandle_t full = xQueueCreate(1, sizeof(uint32_t));
    item = 1;
    CHECK(full != NULL && xQueueSend(full, &item, 0) == pdPASS, "a queue of one, full");
    CHECK(xQueueSend(full, &item, 1) == pdFAIL && find(mark, 'h', full) >= 0,
          "a send that waits for room traces traceBLOCKING_ON_QUEUE_SEND");
    uint32_t peeked = 0;
    CHECK(xQueueReceive(full, &peeked, 0) == pdPASS && xQueuePeek(full, &peeked, 1) == pdFAIL &&
              find(mark, 'v', full) >= 0,
          "a peek that waits traces traceBLOCKING_ON_QUEUE_PEEK");
    vQueueDelete(full);

    mark = record_count;
    vQueueAddToRegistry(queue, "work");
    CHECK(find(mark, 'g', queue) >= 0, "traceQUEUE_REGISTRY_ADD");

    mark = record_count;
    EventGroupHandle_t group = xEventGroupCreate();
    CHECK(group != NULL && find(mark, 'E', group) >= 0, "traceEVENT_GROUP_CREATE");
    (void)xEventGroupSetBits(group, 0x5u);
    (void)xEventGroupClearBits(group, 0x4u);
    (void)xEventGroupWaitBits(group, 0x2u, pdFALSE, pdFALSE, 1);
    int set = find(mark, '+', group);
    int cleared = find(mark, '-', group);
    int waited = find(mark, 'w', group);
    CHECK(set >= 0 && records[set].value == 0x5u && cleared > set && records[cleared].value == 0x4u,
          "traceEVENT_GROUP_SET_BITS and _CLEAR_BITS with their bits");
    CHECK(waited > cleared && records[waited].value == (unsigned long)pdTRUE,
          "traceEVENT_GROUP_WAIT_BITS_END saying the wait timed out");
    vEventGroupDelete(group);
    CHECK(find(mark, 'e', group) >= 0, "traceEVENT_GROUP_DELETE");

    mark = record_count;
    (void)xTaskNotifyGive(ctl);
    (void)ulTaskNotifyTake(pdTRUE, 0);
    int notified = find(mark, 'n', ctl);
    CHECK(notified >= 0 && find((unsigned)notified, 'k', ctl) > notified, "traceTASK_NOTIFY, then traceTASK_NOTIFY_TAKE");

    check_blocking_macros();

    mark = record_count;
    TimerHandle_t timer = xTimerCreate("t", 1, pdFALSE, NULL, timer_callback);
    CHECK(timer != NULL && find(mark, 'T', timer) >= 0, "traceTIMER_CREATE");
    CHECK(xTimerStart(timer, 0) == pdPASS, "a timer started");
    CHECK(xTimerPendFunctionCall(pended, &pend_tag, 17u, 0) == pdPASS, "a call pended");
    vTaskDelay(3);
    int command = find(mark, 'Q', timer);
    CHECK(command >= 0 && records[command].value == (unsigned long)tmrCOMMAND_START * 1000u + (unsigned long)pdPASS,
          "traceTIMER_COMMAND_SEND with the start command and its result");
    CHECK(timer_calls == 1 && find(mark, 'X', timer) > command, "traceTIMER_EXPIRED before its callback");
    int pend = find(mark, 'p', &pend_tag);
    CHECK(pended_calls == 1 && pend >= 0 && records[pend].value == 17u, "tracePEND_FUNC_CALL");
    (void)xTimerDelete(timer, 0);

    mark = record_count;
    unsigned mark_stream;
    StreamBufferHandle_t stream = xStreamBufferCreate(16, 1);
    uint8_t bytes[4] = {1, 2, 3, 4};
    CHECK(stream != NULL && find(mark, 'B', stream) >= 0, "traceSTREAM_BUFFER_CREATE");
    CHECK(xStreamBufferSend(stream, bytes, sizeof bytes, 0) == sizeof bytes, "4 bytes sent");
    CHECK(xStreamBufferReceive(stream, bytes, 3, 0) == 3, "3 received");
    CHECK(xStreamBufferReceive(stream, bytes, 3, 0) == 1 && xStreamBufferReceive(stream, bytes, 3, 0) == 0,
          "then 1, then none");
    mark_stream = record_count;
    CHECK(xStreamBufferReceive(stream, bytes, 3, 2) == 0, "a receive that waits 2 ticks for nothing");
    CHECK(find(mark_stream, 'z', stream) >= 0, "traceBLOCKING_ON_STREAM_BUFFER_RECEIVE");
    int sent = find(mark, '[', stream);
    int got = find(mark, ']', stream);
    CHECK(sent >= 0 && records[sent].value == 4 && got > sent && records[got].value == 3,
          "traceSTREAM_BUFFER_SEND and _RECEIVE with their byte counts");
    CHECK(find(mark, '{', stream) > got, "a receive that found nothing traces it, with its own macro");
    vStreamBufferDelete(stream);

    unsigned ticks = 0;
    CHECK(ticks_one_by_one(&ticks) && ticks >= 8, "traceTASK_INCREMENT_TICK once a tick, counting up (%u)", ticks);
    CHECK(switches_pair_up(), "every switch-out names the task switched in before it");
    CHECK(records_lost == 0, "no record lost (%u records)", record_count);
    vTaskEndScheduler();
}

int main(void)
{
    queue = xQueueCreate(2, sizeof(uint32_t));
    CHECK(queue != NULL, "a queue");
    CHECK(xTaskCreate(ctl_task, "ctl", configMINIMAL_STACK_SIZE, NULL, CTL_PRIORITY, &ctl) == pdPASS, "ctl");
    vTaskStartScheduler();
    printf("scheduler returned\n");
    return rtos_check_summary();
}
