/*
 * The suite's platform file for FreeRTOS itself (FreeRTOS-Kernel V11, its
 * ARM_CM3 or ARM_CM4F port) on the same QEMU boards and the same board
 * start-up as Takt (port/armv7m: startup.c, semihost.c, spin.c), with the
 * clock read as Takt's is (../armv7m/bench_armv7m.h), so its numbers compare
 * with Takt's directly. Built when the ARM build is configured with
 * TAKT_WITH_FREERTOS (the sources are fetched, never part of the tree):
 * apps/bench/freertos_suite/CMakeLists.txt.
 *
 * The meter build (freertos-bench-suite-masked) logs FreeRTOS's critical
 * sections with Takt's meter: meter/portmacro.h and freertos_meter.c say
 * how, without a change to FreeRTOS's sources.
 */
#ifndef BENCH_PLATFORM_H
#define BENCH_PLATFORM_H

#include <stdio.h>

#include "FreeRTOS.h"
#include "bench_armv7m.h"
#include "task.h"

#define BENCH_PLATFORM_NAME "freertos-" TAKT_BOARD_NAME "/fp"

static inline BaseType_t bench_task_create(TaskFunction_t code, const char *name, uint16_t stack_words,
                                           void *arg, UBaseType_t priority, TaskHandle_t *handle)
{
    return xTaskCreate(code, name, stack_words, arg, priority, handle);
}

/* Interrupts masked: Takt's meter over FreeRTOS's own sections, in the
 * meter build (meter/portmacro.h, freertos_meter.c). */
#include "bench_meter.h"

static inline void bench_exit(int status)
{
    printf("info,timer_queue,list\n"); /* FreeRTOS's delayed list: sorted */
    fflush(stdout);
    takt_arm_exit(status);
}

#endif
