/*
 * Shared by the FreeRTOS layer's sources: kernel start-up on first use, the
 * priority mapping, and the port glue.
 */
#ifndef TAKT_FREERTOS_COMPAT_H
#define TAKT_FREERTOS_COMPAT_H

#include <stddef.h>
#include <stdint.h>

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

#if TAKT_FREERTOS_TRACES_BLOCKING
/* The call a task is in that may block, with the arguments its blocking trace
 * macro names (takt_freertos_trace.h): the kernel's block event says only
 * "an event group" or "a notification", not a sync from a wait nor a take
 * from a wait. It lives on the caller's stack for the call's length, its
 * address in the caller's word TAKT_FREERTOS_WORD_BLOCKING: per task, as a
 * task may be preempted before it blocks while others make the same calls.
 * trace_hook.c reads it at the block, in the blocking task. */
typedef enum {
    COMPAT_BLOCKING_WAIT_BITS = 1,
    COMPAT_BLOCKING_SYNC,
    COMPAT_BLOCKING_NOTIFY_TAKE,
    COMPAT_BLOCKING_NOTIFY_WAIT,
} compat_blocking_call_t;

typedef struct {
    compat_blocking_call_t call;
    takt_event_group_t *group;                /* the EventGroupHandle_t */
    TickType_t bits_to_set, bits_to_wait_for; /* EventBits_t */
    UBaseType_t index;
} compat_blocking_t;

/* Sets (record) or clears (NULL) the caller's record. Outside a task (an
 * interrupt, before the scheduler) there is none: the call cannot block. */
static inline void compat_blocking_record(const compat_blocking_t *record)
{
    uintptr_t *words = takt_task_user_words(NULL);
    if (words != NULL) {
        words[TAKT_FREERTOS_WORD_BLOCKING] = (uintptr_t)record;
    }
}

/* Around a call that may block, at the calling function's outermost block
 * (the record, a compound literal, lives until that block ends); nothing
 * without the blocking macros. */
#define COMPAT_BLOCKING_BEGIN(...) compat_blocking_record(&(compat_blocking_t){__VA_ARGS__})
#define COMPAT_BLOCKING_END() compat_blocking_record(NULL)
#else
#define COMPAT_BLOCKING_BEGIN(...) ((void)0)
#define COMPAT_BLOCKING_END() ((void)0)
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

/* A stack depth in StackType_t words as bytes; 0, which task creation
 * refuses, when they would not fit a size_t: the product's wrap would create
 * the task on a fraction of the stack asked for (a depth from 2^30 words
 * on a 32-bit target). */
static inline size_t compat_stack_bytes(uintmax_t depth)
{
    return depth > SIZE_MAX / sizeof(StackType_t) ? 0u : (size_t)depth * sizeof(StackType_t);
}

/* A notification index as the kernel's: where UBaseType_t is wider than an
 * unsigned (a 64-bit host), one beyond becomes the largest unsigned, which
 * the kernel refuses, not the index its low bits name. A constant test
 * otherwise. (limits.h stays out: its POSIX LINE_MAX is a name of ours.) */
static inline unsigned compat_notify_index(UBaseType_t index)
{
    const unsigned largest = ~0u;
    return index > largest ? largest : (unsigned)index;
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
