/* FreeRTOSConfig.h of the asynchronous-interrupt stress (async_stress.c,
 * async_api.c):
 * 1 kHz tick, assertions on (the kernel's own consistency checks go to
 * configASSERT too), the policy left to the build (one program per policy). */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 0
#define configTICK_RATE_HZ 1000
#define configMAX_PRIORITIES 8
#define configMINIMAL_STACK_SIZE 256
#define configMAX_TASK_NAME_LEN 8
#define configTOTAL_HEAP_SIZE (96u * 1024u)
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configSUPPORT_STATIC_ALLOCATION 0

#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 0
#define configUSE_MALLOC_FAILED_HOOK 0
#define configCHECK_FOR_STACK_OVERFLOW 2

#define configUSE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#define configUSE_TASK_NOTIFICATIONS 1
#define configUSE_TIMERS 1
#define configTIMER_TASK_PRIORITY (configMAX_PRIORITIES - 1)
#define configTIMER_QUEUE_LENGTH 8
#define configTIMER_TASK_STACK_DEPTH 512
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_vTaskDelete 1

#ifndef configTAKT_POLICY
#define configTAKT_POLICY TAKT_POLICY_FP
#endif
#define configTAKT_MAX_TASKS 14
#define configTAKT_TRACE_EVENTS 0

void vAssertCalled(const char *file, int line);
#define configASSERT(x)                        \
    do {                                       \
        if (!(x)) {                            \
            vAssertCalled(__FILE__, __LINE__); \
        }                                      \
    } while (0)

#endif
