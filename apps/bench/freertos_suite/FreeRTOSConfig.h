/* FreeRTOSConfig.h of the benchmark suite: the configuration class of the
 * FreeRTOS reference (no asserts, no trace, no stack checking, preemptive with
 * time slicing, 32 priorities as FreeRTOS's optimised task selection allows),
 * the same for Takt's FreeRTOS layer and for FreeRTOS itself. What only one
 * kernel reads is in the platform's bench_kernel_config.h. */
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
#define INCLUDE_vTaskDelay 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskPrioritySet 1

#include "bench_kernel_config.h"

#endif
