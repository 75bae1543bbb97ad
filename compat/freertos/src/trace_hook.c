/*
 * The kernel's trace events as FreeRTOS's trace macros (takt_freertos_trace.h):
 * Takt's trace hook, built when FreeRTOSConfig.h defines one of the kernel's
 * (TAKT_CONFIG_TRACE_HOOK). It runs inside the kernel's section, as FreeRTOS's
 * macros run inside its own. pxCurrentTCB, which FreeRTOS's macros read, is
 * the running task here too: the one switched out, then the one switched in.
 */
#include <stddef.h>

#include "compat.h"
#include "queue.h"
#include "stream_buffer.h"
#include "task.h"

#if TAKT_CONFIG_TRACE_HOOK
#undef pxCurrentTCB /* compat.h's: the running task, which this file keeps itself */

takt_task_t *compat_priority_setting;

_Static_assert(offsetof(struct StreamBufferDef_t, stream) == 0, "the Takt stream first: it is the handle");

#if TAKT_FREERTOS_TRACES_BLOCKING
/* An event group's or a notification's wait: the call task is in, which it
 * recorded (compat.h), names the macro and its arguments; such a call blocks
 * on nothing else. No record: a kernel call made directly, which FreeRTOS
 * has no macro for. */
static void blocking_in_call(takt_task_t *task)
{
    TaskHandle_t pxCurrentTCB = task; /* the running task, which blocks */
    (void)pxCurrentTCB;
    const compat_blocking_t *call = (const compat_blocking_t *)task->user_words[TAKT_FREERTOS_WORD_BLOCKING];
    if (call == NULL) {
        return;
    }
    switch (call->call) {
    case COMPAT_BLOCKING_WAIT_BITS:
        traceEVENT_GROUP_WAIT_BITS_BLOCK(call->group, call->bits_to_wait_for);
        break;
    case COMPAT_BLOCKING_SYNC:
        traceEVENT_GROUP_SYNC_BLOCK(call->group, call->bits_to_set, call->bits_to_wait_for);
        break;
    case COMPAT_BLOCKING_NOTIFY_TAKE:
        traceTASK_NOTIFY_TAKE_BLOCK(call->index);
        break;
    case COMPAT_BLOCKING_NOTIFY_WAIT:
        traceTASK_NOTIFY_WAIT_BLOCK(call->index);
        break;
    default:
        break;
    }
}
#endif

/* The object a task blocks on, from the wait list it joined (the Takt object
 * is the FreeRTOS handle, first in it), and FreeRTOS's macro for that wait:
 * a semaphore take, a mutex lock and a set's select are queue receives, as in
 * FreeRTOS. Event groups and notifications: the call the task is in
 * (blocking_in_call). Delays and releases have their own or none. */
static void blocking_on(takt_task_t *task, takt_wait_t wait)
{
    takt_waitq_t *list = task->wait_queue;
    switch (wait) {
    case TAKT_WAIT_QUEUE_RECEIVE: {
        QueueHandle_t queue = (QueueHandle_t)(void *)TAKT_CONTAINER_OF(list, takt_queue_t, receivers);
        (void)queue;
        if (task->wait_flags & TAKT_QUEUE_WAIT_PEEK) {
            traceBLOCKING_ON_QUEUE_PEEK(queue);
        } else {
            traceBLOCKING_ON_QUEUE_RECEIVE(queue);
        }
        break;
    }
    case TAKT_WAIT_QUEUE_SEND: {
        QueueHandle_t queue = (QueueHandle_t)(void *)TAKT_CONTAINER_OF(list, takt_queue_t, senders);
        (void)queue;
        traceBLOCKING_ON_QUEUE_SEND(queue);
        break;
    }
    case TAKT_WAIT_SEM: {
        QueueHandle_t sem = (QueueHandle_t)(void *)TAKT_CONTAINER_OF(list, takt_sem_t, waiters);
        (void)sem;
        traceBLOCKING_ON_QUEUE_RECEIVE(sem);
        break;
    }
    case TAKT_WAIT_MUTEX: {
        QueueHandle_t mutex = (QueueHandle_t)(void *)TAKT_CONTAINER_OF(list, takt_mutex_t, waiters);
        (void)mutex;
        traceBLOCKING_ON_QUEUE_RECEIVE(mutex);
        break;
    }
#if configUSE_QUEUE_SETS
    case TAKT_WAIT_QUEUE_SET: {
        QueueHandle_t set = (QueueHandle_t)(void *)TAKT_CONTAINER_OF(list, takt_queue_set_t, selectors);
        (void)set;
        traceBLOCKING_ON_QUEUE_RECEIVE(set);
        break;
    }
#endif
    case TAKT_WAIT_STREAM_SEND: {
        StreamBufferHandle_t stream = (StreamBufferHandle_t)(void *)TAKT_CONTAINER_OF(list, takt_stream_t, senders);
        (void)stream;
        traceBLOCKING_ON_STREAM_BUFFER_SEND(stream);
        break;
    }
    case TAKT_WAIT_STREAM_RECEIVE: {
        StreamBufferHandle_t stream =
            (StreamBufferHandle_t)(void *)TAKT_CONTAINER_OF(list, takt_stream_t, receivers);
        (void)stream;
        traceBLOCKING_ON_STREAM_BUFFER_RECEIVE(stream);
        break;
    }
#if TAKT_FREERTOS_TRACES_BLOCKING
    case TAKT_WAIT_EVENT_GROUP:
    case TAKT_WAIT_NOTIFY:
        blocking_in_call(task);
        break;
#endif
    default:
        break;
    }
}

/* A change of effective priority that vTaskPrioritySet did not ask for (it
 * traces its own): a mutex holder inheriting a waiter's priority, or giving
 * it up. The kernel records it before it applies, so the task's priority is
 * still the old one. */
static void priority_changed(takt_task_t *task, uint32_t priority)
{
    if (task == compat_priority_setting || priority == task->priority) {
        return;
    }
    UBaseType_t freertos = compat_freertos_priority((int)priority);
    (void)freertos;
    if (priority > task->priority) {
        traceTASK_PRIORITY_INHERIT(task, freertos);
    } else {
        traceTASK_PRIORITY_DISINHERIT(task, freertos);
    }
}

void takt_trace_hook(takt_event_type_t type, takt_task_t *task, uint16_t id, uint32_t arg)
{
    (void)id;
    TaskHandle_t pxCurrentTCB = takt_task_running();
    (void)pxCurrentTCB; /* read by the application's macros, if at all */
    switch (type) {
    case TAKT_EV_DISPATCH:
        if (pxCurrentTCB != NULL) {
            traceTASK_SWITCHED_OUT();
        }
        pxCurrentTCB = task;
        traceTASK_SWITCHED_IN();
        break;
    case TAKT_EV_TICK:
        traceTASK_INCREMENT_TICK((TickType_t)arg);
        break;
    case TAKT_EV_TASK_CREATE:
        traceTASK_CREATE(task);
        if (task->period == 0) { /* a periodic task (xTaskCreatePeriodic) waits for its release */
            traceMOVED_TASK_TO_READY_STATE(task);
            tracePOST_MOVED_TASK_TO_READY_STATE(task);
        }
        break;
    case TAKT_EV_WAKE:
        traceMOVED_TASK_TO_READY_STATE(task);
        tracePOST_MOVED_TASK_TO_READY_STATE(task);
        break;
    case TAKT_EV_DELETE:
        traceTASK_DELETE(task);
        break;
    case TAKT_EV_SUSPEND:
        traceTASK_SUSPEND(task);
        break;
    case TAKT_EV_BLOCK:
        blocking_on(task, (takt_wait_t)arg);
        break;
    case TAKT_EV_PRIORITY:
        priority_changed(task, arg);
        break;
    case TAKT_EV_RESUME:
        if (takt_in_isr()) {
            traceTASK_RESUME_FROM_ISR(task);
        } else {
            traceTASK_RESUME(task);
        }
        break;
    default:
        break; /* no FreeRTOS macro of its own */
    }
}

#endif
