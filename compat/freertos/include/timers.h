/*
 * FreeRTOS timers.h on Takt's software timers (takt/soft_timer.h). The timer
 * service task is Takt's timer task: priority configTIMER_TASK_PRIORITY,
 * stack configTIMER_TASK_STACK_DEPTH words, command queue
 * configTIMER_QUEUE_LENGTH. It is created by the first timer (or pended call),
 * not by vTaskStartScheduler; with configSUPPORT_STATIC_ALLOCATION its control
 * block and stack are those vApplicationGetTimerTaskMemory gives then,
 * otherwise kernel memory.
 */
#ifndef TIMERS_H
#define TIMERS_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include timers.h"
#endif

#include "task.h"

#if !configUSE_TIMERS
#error "timers.h: set configUSE_TIMERS to 1 in FreeRTOSConfig.h to use software timers"
#endif

struct tmrTimerControl;
typedef struct tmrTimerControl *TimerHandle_t;

/* FreeRTOS's timer command numbers: what traceTIMER_COMMAND_SEND's
 * xMessageID says (Takt's timer task takes its own commands). */
#define tmrCOMMAND_START ((BaseType_t)1)
#define tmrCOMMAND_RESET ((BaseType_t)2)
#define tmrCOMMAND_STOP ((BaseType_t)3)
#define tmrCOMMAND_CHANGE_PERIOD ((BaseType_t)4)
#define tmrCOMMAND_DELETE ((BaseType_t)5)
#define tmrCOMMAND_START_FROM_ISR ((BaseType_t)6)
#define tmrCOMMAND_RESET_FROM_ISR ((BaseType_t)7)
#define tmrCOMMAND_STOP_FROM_ISR ((BaseType_t)8)
#define tmrCOMMAND_CHANGE_PERIOD_FROM_ISR ((BaseType_t)9)
typedef void (*TimerCallbackFunction_t)(TimerHandle_t xTimer);
typedef void (*PendedFunction_t)(void *arg1, uint32_t arg2);

/* The Takt timer first: its callback receives the Takt timer, which is the
 * FreeRTOS handle. Fields belong to the layer. */
struct tmrTimerControl {
    takt_soft_timer_t timer;
    TimerCallbackFunction_t callback;
    uint8_t dynamic;
};
typedef struct tmrTimerControl StaticTimer_t;

#if configSUPPORT_STATIC_ALLOCATION
/* The timer task's control block and stack (task.h's
 * vApplicationGetIdleTaskMemory says how). */
void vApplicationGetTimerTaskMemory(StaticTask_t **ppxTimerTaskTCBBuffer, StackType_t **ppxTimerTaskStackBuffer,
                                    configSTACK_DEPTH_TYPE *puxTimerTaskStackSize);
#endif

#if configSUPPORT_DYNAMIC_ALLOCATION
TimerHandle_t xTimerCreate(const char *const pcTimerName, const TickType_t xTimerPeriodInTicks,
                           const BaseType_t xAutoReload, void *const pvTimerID,
                           TimerCallbackFunction_t pxCallbackFunction);
#endif
#if configSUPPORT_STATIC_ALLOCATION
TimerHandle_t xTimerCreateStatic(const char *const pcTimerName, const TickType_t xTimerPeriodInTicks,
                                 const BaseType_t xAutoReload, void *const pvTimerID,
                                 TimerCallbackFunction_t pxCallbackFunction, StaticTimer_t *pxTimerBuffer);
#endif

/* Commands to the timer service task: pdPASS once queued (xTicksToWait: how
 * long to wait for room in the command queue). */
BaseType_t xTimerStart(TimerHandle_t xTimer, TickType_t xTicksToWait);
BaseType_t xTimerStop(TimerHandle_t xTimer, TickType_t xTicksToWait);
BaseType_t xTimerReset(TimerHandle_t xTimer, TickType_t xTicksToWait);
BaseType_t xTimerChangePeriod(TimerHandle_t xTimer, TickType_t xNewPeriod, TickType_t xTicksToWait);
BaseType_t xTimerDelete(TimerHandle_t xTimer, TickType_t xTicksToWait);
BaseType_t xTimerStartFromISR(TimerHandle_t xTimer, BaseType_t *pxHigherPriorityTaskWoken);
BaseType_t xTimerStopFromISR(TimerHandle_t xTimer, BaseType_t *pxHigherPriorityTaskWoken);
BaseType_t xTimerResetFromISR(TimerHandle_t xTimer, BaseType_t *pxHigherPriorityTaskWoken);
BaseType_t xTimerChangePeriodFromISR(TimerHandle_t xTimer, TickType_t xNewPeriod,
                                     BaseType_t *pxHigherPriorityTaskWoken);
BaseType_t xTimerPendFunctionCall(PendedFunction_t xFunctionToPend, void *pvParameter1, uint32_t ulParameter2,
                                  TickType_t xTicksToWait);
BaseType_t xTimerPendFunctionCallFromISR(PendedFunction_t xFunctionToPend, void *pvParameter1,
                                         uint32_t ulParameter2, BaseType_t *pxHigherPriorityTaskWoken);

void *pvTimerGetTimerID(const TimerHandle_t xTimer);
void vTimerSetTimerID(TimerHandle_t xTimer, void *pvNewID);
BaseType_t xTimerIsTimerActive(TimerHandle_t xTimer);
const char *pcTimerGetName(TimerHandle_t xTimer);
TickType_t xTimerGetPeriod(TimerHandle_t xTimer);
TickType_t xTimerGetExpiryTime(TimerHandle_t xTimer);
#if configSUPPORT_STATIC_ALLOCATION
/* pdTRUE, with the buffer it was created with, for a statically created
 * timer; pdFALSE otherwise. */
BaseType_t xTimerGetStaticBuffer(TimerHandle_t xTimer, StaticTimer_t **ppxTimerBuffer);
#endif
void vTimerSetReloadMode(TimerHandle_t xTimer, const BaseType_t xAutoReload);
BaseType_t xTimerGetReloadMode(TimerHandle_t xTimer);
UBaseType_t uxTimerGetReloadMode(TimerHandle_t xTimer);
/* NULL until the first timer exists (see above). */
TaskHandle_t xTimerGetTimerDaemonTaskHandle(void);
/* FreeRTOS V11.1's reset before a restart: the timer task and its queue are
 * the kernel's, made anew with it (vTaskResetState), so there is nothing
 * more to do. While the scheduler runs it trips configASSERT. */
void vTimerResetState(void);

#endif
