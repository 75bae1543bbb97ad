/* FreeRTOSConfig.h of the sample application: an ordinary FreeRTOS
 * configuration plus the Takt-specific choices (configTAKT_*). */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configTICK_RATE_HZ 1000
#define configMAX_PRIORITIES 5
/* Words. The sim port runs tasks on host stacks (printf needs room); a
 * Cortex-M build would use a few hundred. */
#define configMINIMAL_STACK_SIZE 8192
#define configMAX_TASK_NAME_LEN 12
#define configTOTAL_HEAP_SIZE (1024u * 1024u)
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configSUPPORT_STATIC_ALLOCATION 0

#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#define configUSE_MALLOC_FAILED_HOOK 1
#define configCHECK_FOR_STACK_OVERFLOW 2

#define configUSE_MUTEXES 1
#define configUSE_TIMERS 1
#define configTIMER_TASK_PRIORITY 4
#define configTIMER_QUEUE_LENGTH 8
#define configTIMER_TASK_STACK_DEPTH configMINIMAL_STACK_SIZE

/* Takt: the scheduling policy (TAKT_POLICY_FP, _EDF_HEAP, _EDF_MLIST, _EDF_RBTREE). */
#define configTAKT_POLICY TAKT_POLICY_FP

void app_assert_failed(const char *file, int line);
#define configASSERT(x)                           \
    do {                                          \
        if (!(x)) {                               \
            app_assert_failed(__FILE__, __LINE__); \
        }                                         \
    } while (0)

#endif
