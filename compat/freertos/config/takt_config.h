/*
 * takt_config.h for a FreeRTOS application: the kernel's configuration derived
 * from the application's FreeRTOSConfig.h (its directory is on the include
 * path). Nothing here is edited by the application; it sets configTAKT_* and
 * the ordinary FreeRTOS options instead (docs/freertos.md).
 */
#ifndef TAKT_CONFIG_H
#define TAKT_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "takt_freertos_config.h"

void *pvPortMalloc(size_t xWantedSize);
void vPortFree(void *pv);
void vTaktFreeRTOSAssertFailed(const char *file, int line);

#define TAKT_CONFIG_POLICY configTAKT_POLICY
/* A FreeRTOS application picks its scheduler at compile time: bind it (direct
 * calls, the other policies not linked). */
#define TAKT_CONFIG_POLICY_ONLY 1
/* FreeRTOS priority p runs at Takt priority p + 1, and the idle task at 1 with
 * the tasks of tskIDLE_PRIORITY, as FreeRTOS's shares that level with them
 * (giving way to them at each pass with configIDLE_SHOULD_YIELD). Level 0 stays
 * empty. */
#define TAKT_CONFIG_MAX_PRIORITIES (configMAX_PRIORITIES + 1)
#define TAKT_CONFIG_IDLE_SHARES_LEVEL 1
#define TAKT_CONFIG_IDLE_YIELDS (configIDLE_SHOULD_YIELD != 0)
#define TAKT_CONFIG_MAX_TASKS configTAKT_MAX_TASKS
#define TAKT_CONFIG_MAX_SERVERS configTAKT_MAX_SERVERS
#define TAKT_CONFIG_ROUND_ROBIN configUSE_TIME_SLICING
#define TAKT_CONFIG_TIMER_QUEUE configTAKT_TIMER_QUEUE
#define TAKT_CONFIG_DYNAMIC_ALLOCATION configSUPPORT_DYNAMIC_ALLOCATION
#define TAKT_CONFIG_MALLOC(size) pvPortMalloc(size)
#define TAKT_CONFIG_FREE(ptr) vPortFree(ptr)
#define TAKT_CONFIG_IDLE_STACK_SIZE ((size_t)configMINIMAL_STACK_SIZE * sizeof(uintptr_t))
/* With static allocation the idle and timer tasks' stacks are the
 * application's, from vApplicationGetIdleTaskMemory / vApplicationGetTimerTaskMemory
 * (compat/freertos/src/static_memory.c), as in FreeRTOS. */
#define TAKT_CONFIG_IDLE_MEMORY_FROM_APP (configSUPPORT_STATIC_ALLOCATION != 0)
#define TAKT_CONFIG_SOFT_TIMER_MEMORY_FROM_APP (configSUPPORT_STATIC_ALLOCATION != 0 && configUSE_TIMERS != 0)
#define TAKT_CONFIG_MAX_NAME_LEN configMAX_TASK_NAME_LEN
#define TAKT_CONFIG_IDLE_TASK_NAME configIDLE_TASK_NAME
#define TAKT_CONFIG_TIMER_TASK_NAME configTIMER_SERVICE_TASK_NAME
#define TAKT_CONFIG_STACK_CHECK (configCHECK_FOR_STACK_OVERFLOW > 0 || INCLUDE_uxTaskGetStackHighWaterMark)
#define TAKT_CONFIG_STACK_OVERFLOW_HOOK (configCHECK_FOR_STACK_OVERFLOW > 0)
#ifdef configTAKT_DEADLINE_MISS_HOOK
#define TAKT_CONFIG_DEADLINE_MISS_HOOK configTAKT_DEADLINE_MISS_HOOK
#else
#define TAKT_CONFIG_DEADLINE_MISS_HOOK 0
#endif
#define TAKT_CONFIG_IDLE_HOOK (configUSE_IDLE_HOOK != 0)
#define TAKT_CONFIG_TICK_HOOK (configUSE_TICK_HOOK != 0)
/* Tickless idle: the port leaves tick interrupts out while the idle task runs alone
 * (configUSE_TICKLESS_IDLE 1; 2 is refused), and calls the layer's sleep
 * hooks, which call FreeRTOS's sleep macros (compat/freertos/src/tickless.c). */
#define TAKT_CONFIG_TICKLESS_IDLE (configUSE_TICKLESS_IDLE == 1)
#define TAKT_CONFIG_TICKLESS_MIN_TICKS configEXPECTED_IDLE_TIME_BEFORE_SLEEP
#define TAKT_CONFIG_SLEEP_HOOKS (configUSE_TICKLESS_IDLE == 1)
#define TAKT_CONFIG_TRACE (configTAKT_TRACE_EVENTS > 0)
#define TAKT_CONFIG_TRACE_EVENTS (configTAKT_TRACE_EVENTS > 0 ? configTAKT_TRACE_EVENTS : 2)
#define TAKT_CONFIG_TRACE_DRAIN_HOOK 0
/* FreeRTOS trace macros of the kernel's events (takt_freertos_trace.h). */
#define TAKT_CONFIG_TRACE_HOOK configTAKT_KERNEL_TRACE_MACROS
#if configUSE_TASK_NOTIFICATIONS
#define TAKT_CONFIG_TASK_NOTIFICATIONS configTASK_NOTIFICATION_ARRAY_ENTRIES
#else
#define TAKT_CONFIG_TASK_NOTIFICATIONS 0
#endif
/* The FreeRTOS timer service task is Takt's soft-timer task. */
#if configUSE_TIMERS
#define TAKT_CONFIG_SOFT_TIMER_PRIORITY (configTIMER_TASK_PRIORITY + 1)
#define TAKT_CONFIG_SOFT_TIMER_STACK_SIZE ((size_t)configTIMER_TASK_STACK_DEPTH * sizeof(uintptr_t))
#define TAKT_CONFIG_SOFT_TIMER_COMMANDS configTIMER_QUEUE_LENGTH
#define TAKT_CONFIG_SOFT_TIMER_STARTUP_HOOK (configUSE_DAEMON_TASK_STARTUP_HOOK != 0)
#else
#define TAKT_CONFIG_SOFT_TIMER_PRIORITY configMAX_PRIORITIES
#define TAKT_CONFIG_SOFT_TIMER_STACK_SIZE ((size_t)configMINIMAL_STACK_SIZE * sizeof(uintptr_t))
#define TAKT_CONFIG_SOFT_TIMER_COMMANDS 1
#endif
#define TAKT_CONFIG_QUEUE_SETS (configUSE_QUEUE_SETS != 0)
/* Run-time statistics: the application's counter, read at every switch. */
#define TAKT_CONFIG_RUN_TIME_STATS (configGENERATE_RUN_TIME_STATS != 0)
#define TAKT_CONFIG_RUN_TIME_TYPE configRUN_TIME_COUNTER_TYPE
#if configGENERATE_RUN_TIME_STATS
#ifdef portALT_GET_RUN_TIME_COUNTER_VALUE
static inline configRUN_TIME_COUNTER_TYPE ulTaktFreeRTOSRunTimeCounter(void)
{
    configRUN_TIME_COUNTER_TYPE value;
    portALT_GET_RUN_TIME_COUNTER_VALUE(value);
    return value;
}
#define TAKT_CONFIG_RUN_TIME_COUNTER() ulTaktFreeRTOSRunTimeCounter()
#else
#define TAKT_CONFIG_RUN_TIME_COUNTER() ((configRUN_TIME_COUNTER_TYPE)(portGET_RUN_TIME_COUNTER_VALUE()))
#endif
#endif
/* Task numbers, tags and thread-local storage pointers (takt_freertos_config.h). */
#define TAKT_CONFIG_TASK_USER_WORDS TAKT_FREERTOS_TASK_WORDS
/* An event group's number (uxEventGroupGetNumber, vEventGroupSetNumber). */
#define TAKT_CONFIG_EVENT_GROUP_USER_WORD (configUSE_TRACE_FACILITY != 0)
/* The kernel's own consistency checks go to configASSERT when the application defines it. */
#ifdef configASSERT
#define TAKT_CONFIG_ASSERTS 1
#else
#define TAKT_CONFIG_ASSERTS 0
#endif
#define TAKT_CONFIG_ASSERT(cond)                                \
    do {                                                        \
        if (!(cond)) {                                          \
            vTaktFreeRTOSAssertFailed(__FILE__, __LINE__);      \
        }                                                       \
    } while (0)

#endif
