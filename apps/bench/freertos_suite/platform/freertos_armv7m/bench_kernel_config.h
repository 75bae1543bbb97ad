/* The suite's FreeRTOSConfig.h settings that only FreeRTOS itself reads: the
 * reference's class (ARM_CM3 or ARM_CM4F port, optimised task selection,
 * heap_4, no asserts, no trace), on the same QEMU boards as Takt. */
#ifndef BENCH_KERNEL_CONFIG_H
#define BENCH_KERNEL_CONFIG_H

#include "board.h"

#define configCPU_CLOCK_HZ TAKT_BOARD_CORE_HZ
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 1
#define configIDLE_SHOULD_YIELD 1
#define configUSE_TRACE_FACILITY 0
#define configGENERATE_RUN_TIME_STATS 0
#define configUSE_RECURSIVE_MUTEXES 0
#define configQUEUE_REGISTRY_SIZE 0
#define configUSE_QUEUE_SETS 0
#define configUSE_APPLICATION_TASK_TAG 0
#define configUSE_CO_ROUTINES 0
#define configENABLE_BACKWARD_COMPATIBILITY 0

/* Interrupt priorities as Takt's port has them (takt_armv7m.h): the kernel
 * masks up to 0x40 (BASEPRI), the suite's interrupt runs at 0xC0, and the
 * kernel's own exceptions (PendSV, SysTick) at the lowest level. */
#define configKERNEL_INTERRUPT_PRIORITY 0xFF
#define configMAX_SYSCALL_INTERRUPT_PRIORITY 0x40
#define BENCH_IRQ_PRIORITY 0xC0u

/* The port's handlers under the names the vector table (startup.c) uses. */
#define vPortSVCHandler SVC_Handler
#define xPortPendSVHandler PendSV_Handler
#define xPortSysTickHandler SysTick_Handler

#endif
