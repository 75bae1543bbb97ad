/*
 * FreeRTOS portmacro.h on Takt: the types and port macros. One file for every
 * Takt port: the processor-specific work (switching, interrupt masking) is the
 * Takt port's, reached through the kernel's API.
 */
#ifndef PORTMACRO_H
#define PORTMACRO_H

#include <stddef.h>
#include <stdint.h>

#include "takt/sync.h"

#define portCHAR char
#define portFLOAT float
#define portDOUBLE double
#define portLONG long
#define portSHORT short
#define portSTACK_TYPE uintptr_t
#define portBASE_TYPE long

typedef portSTACK_TYPE StackType_t;
typedef long BaseType_t;
typedef unsigned long UBaseType_t;
/* Takt's tick is 32 bits wide (configTICK_TYPE_WIDTH_IN_BITS must say so). */
typedef uint32_t TickType_t;
#define portMAX_DELAY ((TickType_t)0xffffffffUL)
#define portTICK_TYPE_IS_ATOMIC 1

#define portTICK_PERIOD_MS ((TickType_t)1000 / configTICK_RATE_HZ)
#define portBYTE_ALIGNMENT 8
#define portSTACK_GROWTH (-1)

/* Takt switches at interrupt exit whenever the kernel decided a switch, so the
 * ISR's explicit request has nothing left to do (docs/freertos.md). */
#define portYIELD_FROM_ISR(xSwitchRequired) ((void)(xSwitchRequired))
#define portEND_SWITCHING_ISR(xSwitchRequired) ((void)(xSwitchRequired))
#define portYIELD() takt_yield()

/* Takt's critical sections (takt/sync.h): they nest, also where FreeRTOS's
 * portDISABLE_INTERRUPTS does not. */
#define portENTER_CRITICAL() takt_critical_enter()
#define portEXIT_CRITICAL() takt_critical_exit()
#define portDISABLE_INTERRUPTS() takt_critical_enter()
#define portENABLE_INTERRUPTS() takt_critical_exit()
#define portSET_INTERRUPT_MASK_FROM_ISR() ((UBaseType_t)takt_critical_enter_from_isr())
#define portCLEAR_INTERRUPT_MASK_FROM_ISR(uxSavedStatus) takt_critical_exit_from_isr((uint32_t)(uxSavedStatus))

#define portNOP() ((void)0)
#define portINLINE __inline
#define portFORCE_INLINE inline __attribute__((always_inline))
#define portDONT_DISCARD __attribute__((used))
#define portMEMORY_BARRIER() __asm__ volatile("" ::: "memory")
/* pdTRUE in an interrupt handler (CMSIS-RTOS wrappers ask it). */
#define xPortIsInsideInterrupt() (takt_in_isr() ? 1L : 0L)
#define portTASK_FUNCTION_PROTO(vFunction, pvParameters) void vFunction(void *pvParameters)
#define portTASK_FUNCTION(vFunction, pvParameters) void vFunction(void *pvParameters)

#endif
