/*
 * Shared by the FreeRTOS layer's sources: kernel start-up on first use, the
 * priority mapping, and the port glue.
 */
#ifndef TAKT_FREERTOS_COMPAT_H
#define TAKT_FREERTOS_COMPAT_H

#include "FreeRTOS.h"
#include "takt/attributes.h"

/* FreeRTOS's trace macros (takt_freertos_trace.h) read pxCurrentTCB, the
 * running task of FreeRTOS's tasks.c; in the layer's sources it is the
 * kernel's (trace_hook.c, which does not include this, keeps its own). */
#define pxCurrentTCB ((TaskHandle_t)takt_task_running())

#if TAKT_CONFIG_TRACE_HOOK
/* The task vTaskPrioritySet changes while it does (trace_hook.c leaves its
 * priority event to traceTASK_PRIORITY_SET). */
extern takt_task_t *compat_priority_setting;
#endif

/* FreeRTOS allows creating objects before vTaskStartScheduler; the first call
 * that needs the kernel initialises it (takt_init) with the policy and
 * preemption mode FreeRTOSConfig.h names. Idempotent. */
void compat_kernel_ready(void);
bool compat_scheduler_started(void);

/* Where a create's memory came from (the object's `dynamic` field once the
 * kernel accepted it): the heap's goes back on failure and at the delete; a
 * static buffer is refused, untouched, while it holds a live object. */
#define FROM_HEAP true
#define FROM_BUFFER false

/* Port glue (compat/freertos/port/<port>/): set up the port before takt_init
 * (sim: tick period from configTICK_RATE_HZ, end time), and stop it. */
void compat_port_prepare(void);
void compat_port_end_scheduler(void);

/* FreeRTOS priority p is Takt priority p + 1 (Takt's 0 is its idle task's). */
static inline unsigned compat_takt_priority(UBaseType_t freertos_priority)
{
    UBaseType_t p = freertos_priority & ~portPRIVILEGE_BIT;
    if (p >= (UBaseType_t)configMAX_PRIORITIES) {
        configASSERT(p < (UBaseType_t)configMAX_PRIORITIES);
        p = (UBaseType_t)configMAX_PRIORITIES - 1u; /* FreeRTOS caps it too */
    }
    return (unsigned)p + 1u;
}

static inline UBaseType_t compat_freertos_priority(int takt_priority)
{
    return takt_priority <= 1 ? 0u : (UBaseType_t)(takt_priority - 1);
}

/* Ticks as a FreeRTOS block time: portMAX_DELAY waits forever (with
 * INCLUDE_vTaskSuspend, as FreeRTOS), anything else is a timeout. */
#define COMPAT_WAIT_FOREVER(ticks) ((ticks) == portMAX_DELAY && INCLUDE_vTaskSuspend)

/* A FreeRTOS block time as a Takt timeout: Takt's timeouts stay within half the
 * tick range, so a finite wait longer than 2^31-1 ticks is shortened to that. */
static inline takt_tick_t compat_timeout(TickType_t ticks)
{
#if INCLUDE_vTaskSuspend
    /* portMAX_DELAY and TAKT_WAIT_FOREVER are both -1 as signed counts; every
     * other count from 2^31 up is below -1: one compare on every blocking call. */
    _Static_assert(portMAX_DELAY == TAKT_WAIT_FOREVER && sizeof(TickType_t) == sizeof(int32_t),
                   "compat_timeout reads portMAX_DELAY as -1");
    return (int32_t)ticks < -1 ? (takt_tick_t)INT32_MAX : (takt_tick_t)ticks;
#else
    return ticks > (TickType_t)INT32_MAX ? (takt_tick_t)INT32_MAX : (takt_tick_t)ticks;
#endif
}

/* Reports a woken task to a FreeRTOS pxHigherPriorityTaskWoken (which may be NULL). */
static inline void compat_woken(bool woken, BaseType_t *pxHigherPriorityTaskWoken)
{
    if (woken && pxHigherPriorityTaskWoken != NULL) {
        *pxHigherPriorityTaskWoken = pdTRUE;
    }
}

#endif
