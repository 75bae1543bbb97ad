/*
 * FreeRTOSConfig.h of the FreeRTOS-API test programs (sim port, and the
 * Cortex-M boards with TAKT_TEST_TARGET; 1 kHz tick).
 * configTAKT_POLICY and configTAKT_PREEMPTION are left to the build
 * (tests/freertos/CMakeLists.txt) so one program runs under several policies.
 */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#ifndef configUSE_PREEMPTION /* the refusal tests (refuse/) set it to 0 */
#define configUSE_PREEMPTION 1
#endif
#ifndef configUSE_TIME_SLICING /* idle_level.c runs with and without */
#define configUSE_TIME_SLICING 0
#endif
#define configTICK_RATE_HZ 1000
#define configMAX_PRIORITIES 8
#ifdef TAKT_TEST_TARGET /* the same programs on the Cortex-M boards (tests/target), 4 MiB of RAM */
#define configMINIMAL_STACK_SIZE 1024
#else
/* Host code (printf, sanitizers) needs far more stack than a target: 8 KiB words. */
#define configMINIMAL_STACK_SIZE 8192
#endif
#define configMAX_TASK_NAME_LEN 16
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configSUPPORT_STATIC_ALLOCATION 1
#ifdef TAKT_TEST_TARGET
#define configTOTAL_HEAP_SIZE (1024u * 1024u)
#else
#define configTOTAL_HEAP_SIZE (4u * 1024u * 1024u)
#endif

#define configUSE_IDLE_HOOK 1
#define configUSE_TICK_HOOK 1
#define configUSE_MALLOC_FAILED_HOOK 1
#define configCHECK_FOR_STACK_OVERFLOW 2
#define INCLUDE_uxTaskGetStackHighWaterMark 1

#define configUSE_MUTEXES 1
#define configUSE_RECURSIVE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#ifndef configUSE_QUEUE_SETS /* freertos_*_no_sets build without */
#define configUSE_QUEUE_SETS 1
#endif
#define configUSE_TASK_NOTIFICATIONS 1
#define configTASK_NOTIFICATION_ARRAY_ENTRIES 2

#define configUSE_TIMERS 1
#define configTIMER_TASK_PRIORITY (configMAX_PRIORITIES - 1)
#define configTIMER_QUEUE_LENGTH 16
#define configTIMER_TASK_STACK_DEPTH configMINIMAL_STACK_SIZE

#define configTAKT_MAX_TASKS 32
#define configTAKT_TRACE_EVENTS 0

/* The run-time counter of the builds with run-time statistics
 * (tests/freertos/task_info.c defines it: virtual microseconds); the refusal
 * tests leave it out to see the layer ask for it. */
#if defined(configGENERATE_RUN_TIME_STATS) && configGENERATE_RUN_TIME_STATS && !defined(TEST_OMIT_RUN_TIME_COUNTER)
void vTestConfigureRunTimeCounter(void);
uint32_t ulTestRunTimeCounter(void);
#define portCONFIGURE_TIMER_FOR_RUN_TIME_STATS() vTestConfigureRunTimeCounter()
#define portGET_RUN_TIME_COUNTER_VALUE() ulTestRunTimeCounter()
#endif

/* TEST_NO_CONFIG_ASSERT: the layer as built without configASSERT (misuse.c
 * checks that it still refuses bad handles). */
#ifndef TEST_NO_CONFIG_ASSERT
void vAssertCalled(const char *file, int line);
#define configASSERT(x)                       \
    do {                                      \
        if (!(x)) {                           \
            vAssertCalled(__FILE__, __LINE__); \
        }                                     \
    } while (0)
#endif

#ifdef TEST_TRACE_MACROS /* trace_macros.c: FreeRTOS's trace macros, recorded */
#include "trace_macros_config.h"
#endif
#ifdef TEST_SLEEP_MACROS /* tickless.c: the tickless idle macros, counted */
#include "sleep_macros_config.h"
#endif

#endif
