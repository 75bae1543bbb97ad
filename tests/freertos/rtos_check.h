/*
 * Checks for the FreeRTOS-API programs: each CHECK prints a PASS or FAIL line
 * (the transcript), rtos_check_summary() prints "N passed, N failed" (ctest
 * fails the run on any failure, or if the summary never comes). The hooks the
 * shared FreeRTOSConfig.h enables count their calls here; configASSERT fails
 * the program at once. Include in exactly one file per program.
 */
#ifndef RTOS_CHECK_H
#define RTOS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include "FreeRTOS.h"
#include "rtos_port.h"
#include "task.h"

static unsigned rtos_passed, rtos_failed;
static volatile unsigned long idle_hook_calls, tick_hook_calls, malloc_failed_calls, stack_overflows;

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (cond) {                                                       \
            rtos_passed++;                                                \
            printf("PASS ");                                              \
        } else {                                                          \
            rtos_failed++;                                                \
            printf("FAIL (%s:%d: %s) ", __FILE__, __LINE__, #cond);       \
        }                                                                 \
        printf(__VA_ARGS__);                                              \
        printf("\n");                                                     \
    } while (0)

/* Deterministic progress line: virtual tick and text. */
#define LOG(...)                                                  \
    do {                                                          \
        printf("[%4lu] ", (unsigned long)xTaskGetTickCount());    \
        printf(__VA_ARGS__);                                      \
        printf("\n");                                             \
    } while (0)

static inline int rtos_check_summary(void)
{
    printf("%u passed, %u failed\n", rtos_passed, rtos_failed);
    return rtos_failed == 0 ? 0 : 1;
}

/* A program that commits misuse on purpose counts the assertions instead
 * (RTOS_CHECK_COUNT_ASSERTS: misuse.c). */
#ifdef RTOS_CHECK_COUNT_ASSERTS
static volatile unsigned long assertions;
/* Where the last one tripped. */
static const char *volatile last_assert_file;
static volatile int last_assert_line;

void vAssertCalled(const char *file, int line)
{
    last_assert_file = file;
    last_assert_line = line;
    assertions++;
}
#elif !defined(TEST_NO_CONFIG_ASSERT)
void vAssertCalled(const char *file, int line)
{
    printf("FAIL configASSERT at %s:%d\n", file, line);
    fflush(stdout);
    abort();
}
#endif

void vApplicationIdleHook(void)
{
    idle_hook_calls++;
}

/* A program may watch every tick (set before vTaskStartScheduler). */
static void (*volatile rtos_tick_probe)(void);

void vApplicationTickHook(void)
{
    tick_hook_calls++;
    rtos_port_tick();
    if (rtos_tick_probe != NULL) {
        rtos_tick_probe();
    }
}

void vApplicationMallocFailedHook(void)
{
    malloc_failed_calls++;
}

void vApplicationStackOverflowHook(TaskHandle_t xTask, char *pcTaskName)
{
    (void)xTask;
    printf("stack overflow in %s\n", pcTaskName);
    stack_overflows++;
}

#endif
