/*
 * The assertion programs' handler and hooks (assert.c, assert_options.c):
 * configASSERT prints the file and line it fired at and ends the run with
 * status 0, so that ctest checks the message, not a crash. The hooks do
 * nothing: these programs only commit misuse.
 */
#ifndef ASSERT_HOOKS_H
#define ASSERT_HOOKS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"

void vAssertCalled(const char *file, int line)
{
    const char *base = strrchr(file, '/');
    printf("configASSERT caught at %s:%d\n", base != NULL ? base + 1 : file, line);
    exit(0);
}

void vApplicationIdleHook(void) {}
void vApplicationTickHook(void) {}
void vApplicationMallocFailedHook(void) {}
void vApplicationStackOverflowHook(TaskHandle_t xTask, char *pcTaskName)
{
    (void)xTask;
    (void)pcTaskName;
}

#endif
