/* FreeRTOS portable.h on Takt: the port macros and the heap functions. */
#ifndef PORTABLE_H
#define PORTABLE_H

#include "portmacro.h"

/* The heap (compat/freertos/src/heap.c): the C library's allocator, limited to
 * configTOTAL_HEAP_SIZE bytes in use; a failed allocation calls
 * vApplicationMallocFailedHook when configUSE_MALLOC_FAILED_HOOK is 1. */
void *pvPortMalloc(size_t xWantedSize);
void vPortFree(void *pv);
size_t xPortGetFreeHeapSize(void);
size_t xPortGetMinimumEverFreeHeapSize(void);

#endif
