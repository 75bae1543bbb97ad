/*
 * The kernel's trace events as FreeRTOS's trace macros (takt_freertos_trace.h):
 * Takt's trace hook, built when FreeRTOSConfig.h defines one of the kernel's
 * (TAKT_CONFIG_TRACE_HOOK). It runs inside the kernel's section, as FreeRTOS's
 * macros run inside its own. pxCurrentTCB, which FreeRTOS's macros read, is
 * the running task here too: the one switched out, then the one switched in.
 */
#include "compat.h"
#include "task.h"

#if TAKT_CONFIG_TRACE_HOOK
#undef pxCurrentTCB /* compat.h's: the running task, which this file keeps itself */

takt_task_t *compat_priority_setting;

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
