/* FreeRTOS portable.h on Takt: the port macros and the heap functions. */
#ifndef PORTABLE_H
#define PORTABLE_H

#include "portmacro.h"

/* The heap (compat/freertos/src/heap.c): the C library's allocator, limited to
 * configTOTAL_HEAP_SIZE bytes in use; a failed allocation calls
 * vApplicationMallocFailedHook when configUSE_MALLOC_FAILED_HOOK is 1. */
void *pvPortMalloc(size_t xWantedSize);
/* xNum * xSize bytes, zeroed; NULL when the product overflows or is refused. */
void *pvPortCalloc(size_t xNum, size_t xSize);
void vPortFree(void *pv);
size_t xPortGetFreeHeapSize(void);
size_t xPortGetMinimumEverFreeHeapSize(void);
/* The least free ever becomes the bytes free now. */
void xPortResetHeapMinimumEverFreeHeapSize(void);

/* vPortGetHeapStats's answer, FreeRTOS's fields. The heap is a budget of
 * configTOTAL_HEAP_SIZE bytes over the C library's allocator, whose
 * fragmentation this layer does not see: what is left of the budget is one
 * free block (largest = smallest = the bytes free; none when the budget is
 * spent), the size any request up to which the layer grants. */
typedef struct xHeapStats {
    size_t xAvailableHeapSpaceInBytes;
    size_t xSizeOfLargestFreeBlockInBytes;
    size_t xSizeOfSmallestFreeBlockInBytes;
    size_t xNumberOfFreeBlocks;
    size_t xMinimumEverFreeBytesRemaining;
    size_t xNumberOfSuccessfulAllocations;
    size_t xNumberOfSuccessfulFrees;
} HeapStats_t;

/* Nothing happens for a NULL pxHeapStats. */
void vPortGetHeapStats(HeapStats_t *pxHeapStats);

#endif
