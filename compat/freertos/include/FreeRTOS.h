/*
 * FreeRTOS.h on Takt: include it first, as with FreeRTOS. It reads the
 * application's FreeRTOSConfig.h (through takt_freertos_config.h, which refuses
 * the options Takt does not support) and brings in the types and port macros.
 * The kernel underneath is Takt (kernel/include/takt/takt.h); docs/freertos.md
 * says what maps to what.
 */
#ifndef INC_FREERTOS_H
#define INC_FREERTOS_H

#include <stddef.h>
#include <stdint.h>

#include "takt/takt.h" /* config_check.h -> takt_config.h -> takt_freertos_config.h */
#include "takt_freertos_config.h"

#include "portable.h"
#include "projdefs.h"

#define tskKERNEL_VERSION_NUMBER "V11.1.0-takt"
#define tskKERNEL_VERSION_MAJOR 11
#define tskKERNEL_VERSION_MINOR 1
#define tskKERNEL_VERSION_BUILD 0

#ifndef configASSERT
#define configASSERT(x) ((void)0)
#define configASSERT_DEFINED 0
#else
#define configASSERT_DEFINED 1
#endif

#ifndef portPRIVILEGE_BIT
#define portPRIVILEGE_BIT ((UBaseType_t)0x00)
#endif

/* Static objects: the application allocates them, Takt fills them in. */
typedef takt_task_t StaticTask_t;

/* FreeRTOS's test-coverage hooks: nothing outside its own test builds. */
#ifndef mtCOVERAGE_TEST_MARKER
#define mtCOVERAGE_TEST_MARKER()
#endif
#ifndef mtCOVERAGE_TEST_DELAY
#define mtCOVERAGE_TEST_DELAY()
#endif

/* The names before V8 (FreeRTOS keeps them unless configENABLE_BACKWARD_COMPATIBILITY
 * is 0). Macros, as there: they name the types and calls of the headers that
 * define them, wherever those are included. */
#if configENABLE_BACKWARD_COMPATIBILITY
#define eTaskStateGet eTaskGetState
#define portTickType TickType_t
#define xTaskHandle TaskHandle_t
#define xQueueHandle QueueHandle_t
#define xSemaphoreHandle SemaphoreHandle_t
#define xQueueSetHandle QueueSetHandle_t
#define xQueueSetMemberHandle QueueSetMemberHandle_t
#define xTimeOutType TimeOut_t
#define xTaskStatusType TaskStatus_t
#define xTimerHandle TimerHandle_t
#define pdTASK_HOOK_CODE TaskHookFunction_t
#define portTICK_RATE_MS portTICK_PERIOD_MS
#define pcTaskGetTaskName pcTaskGetName
#define pcTimerGetTimerName pcTimerGetName
#define pcQueueGetQueueName pcQueueGetName
#define vTaskGetTaskInfo vTaskGetInfo
#define tmrTIMER_CALLBACK TimerCallbackFunction_t
#define pdTASK_CODE TaskFunction_t
#endif

#endif
