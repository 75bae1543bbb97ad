/* FreeRTOSConfig.h of the benchmark suite: the configuration class of the
 * FreeRTOS reference (no asserts, no trace, no stack checking, preemptive with
 * time slicing, 32 priorities as FreeRTOS's optimised task selection allows). */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
/* 100 Hz: a tick is 10 ms = 78125 instructions at -icount shift=7 exactly. */
#define configTICK_RATE_HZ 100
#define configMAX_PRIORITIES 32
#define configMINIMAL_STACK_SIZE 256
#define configMAX_TASK_NAME_LEN 8
#define configTOTAL_HEAP_SIZE (512u * 1024u)
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configSUPPORT_STATIC_ALLOCATION 0

#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#define configUSE_MALLOC_FAILED_HOOK 0
#define configCHECK_FOR_STACK_OVERFLOW 0

#define configUSE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#define configUSE_TASK_NOTIFICATIONS 1
#define configUSE_TIMERS 0
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskPrioritySet 1

/* Takt: the policy comes from the build (one program per policy). */
#ifndef configTAKT_POLICY
#define configTAKT_POLICY TAKT_POLICY_FP
#endif
/* Driver, idle, 31 Timeout-1 fillers and the test's own tasks. */
#define configTAKT_MAX_TASKS 40
#define configTAKT_TRACE_EVENTS 0

#endif
