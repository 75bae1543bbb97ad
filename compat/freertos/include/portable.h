/* FreeRTOS portable.h on Takt: the port macros and the heap functions. */
#ifndef PORTABLE_H
#define PORTABLE_H

#include "portmacro.h"

/* The heap (compat/freertos/src/heap.c): the C library's allocator, limited to
 * configTOTAL_HEAP_SIZE bytes in use, unless the application defined heap
 * regions (vPortDefineHeapRegions, below); a failed allocation calls
 * vApplicationMallocFailedHook when configUSE_MALLOC_FAILED_HOOK is 1. */
void *pvPortMalloc(size_t xWantedSize);
/* xNum * xSize bytes, zeroed; NULL when the product overflows or is refused. */
void *pvPortCalloc(size_t xNum, size_t xSize);
void vPortFree(void *pv);
size_t xPortGetFreeHeapSize(void);
size_t xPortGetMinimumEverFreeHeapSize(void);
/* The least free ever becomes the bytes free now. */
void xPortResetHeapMinimumEverFreeHeapSize(void);
/* FreeRTOS V11.1's reset before a restart: the heap as at start-up (no
 * regions, so vPortDefineHeapRegions may be called again; every statistic
 * back to its first value). Only between runs and when no block is handed
 * out: otherwise it trips configASSERT and changes nothing (FreeRTOS would
 * hand the blocks out again). */
void vPortHeapResetState(void);

/* vPortGetHeapStats's answer, FreeRTOS's fields. Without heap regions the
 * heap is a budget of configTOTAL_HEAP_SIZE bytes over the C library's
 * allocator, whose fragmentation this layer does not see: what is left of the
 * budget is one free block (largest = smallest = the bytes free; none when the
 * budget is spent), the size any request up to which the layer grants. With
 * heap regions every figure is the regions' own (see HeapRegion_t). */
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

/* Heap regions, FreeRTOS's heap_5 interface (compat/freertos/src/heap_regions.c).
 * The array ends at an entry whose xSizeInBytes is 0; the regions must be in
 * ascending address order and must not overlap (regions that touch act as
 * one). Each region's start is rounded up and its end down to
 * _Alignof(max_align_t); a region too small to hold a block is ignored.
 *
 * Call it once, before anything allocates: from then on every pvPortMalloc
 * and vPortFree, the kernel's included (tasks' stacks and control blocks,
 * queues, semaphores...), is served from the regions, configTOTAL_HEAP_SIZE
 * is no longer used, and the free-heap figures are the regions' free bytes.
 * A block takes the request plus a header (the block's size and, while free,
 * the next free block's address: sizeof(size_t) + sizeof(void *)), rounded
 * up to _Alignof(max_align_t); the figures count blocks whole, headers
 * included, as FreeRTOS's do. An allocation takes the lowest free block that
 * fits and splits it when the rest could serve a 1-byte request; a free merges
 * the block with the free blocks either side. vPortGetHeapStats reports the
 * real largest and smallest free blocks and their number.
 *
 * Refused with configASSERT, changing nothing: a NULL array, a region at
 * address NULL or wrapping the address space, regions out of order or
 * overlapping, no usable region, a second call, and a call after pvPortMalloc
 * has handed out memory (the layer could not tell which allocator a block came
 * from). vPortFree asserts and does nothing for a pointer the regions did not
 * hand out or that was freed already (as far as its header shows). */
typedef struct HeapRegion {
    uint8_t *pucStartAddress;
    size_t xSizeInBytes;
} HeapRegion_t;

void vPortDefineHeapRegions(const HeapRegion_t *const pxHeapRegions);

#endif
