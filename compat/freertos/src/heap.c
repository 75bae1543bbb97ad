/*
 * pvPortMalloc / vPortFree: the C library's allocator with FreeRTOS's
 * accounting. Every block carries its size, so the layer knows the bytes in
 * use, refuses what would exceed configTOTAL_HEAP_SIZE (as a FreeRTOS heap of
 * that size would, give or take fragmentation), and calls the malloc-failed
 * hook. The kernel allocates through here too (TAKT_CONFIG_MALLOC).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "task.h"

typedef union {
    size_t size;
    max_align_t align; /* keeps the block after the header aligned */
} block_header_t;

/* One object: its fields share one address load. */
static struct {
    size_t bytes_in_use;
    size_t most_in_use;
    size_t allocations; /* successful ones (vPortGetHeapStats) */
    size_t frees;
} heap;

/* The counters change under the kernel's critical section (interrupts that may
 * call the kernel masked; nests, any context): a task preempted between the
 * check and the update must not let another allocation past the limit. The
 * bytes are reserved before malloc and given back if it fails. The C library
 * allocator's own reentrancy is the toolchain's (newlib: __malloc_lock). */
static bool reserve(size_t size)
{
    bool fits = false;
    uint32_t state = takt_critical_enter_from_isr();
    if (size <= (size_t)configTOTAL_HEAP_SIZE - heap.bytes_in_use) {
        heap.bytes_in_use += size;
        if (heap.bytes_in_use > heap.most_in_use) {
            heap.most_in_use = heap.bytes_in_use;
        }
        heap.allocations++; /* taken back if the C library fails it */
        fits = true;
    }
    takt_critical_exit_from_isr(state);
    return fits;
}

/* A block freed, or a reservation the C library could not serve. */
static void release(size_t size, bool freed)
{
    uint32_t state = takt_critical_enter_from_isr();
    heap.bytes_in_use -= size;
    if (freed) {
        heap.frees++;
    } else {
        heap.allocations--;
    }
    takt_critical_exit_from_isr(state);
}

void *pvPortMalloc(size_t xWantedSize)
{
    void *block = NULL;
    if (xWantedSize > 0 && reserve(xWantedSize)) {
        block_header_t *header = malloc(sizeof(block_header_t) + xWantedSize);
        if (header != NULL) {
            header->size = xWantedSize;
            block = header + 1;
        } else {
            release(xWantedSize, false);
        }
    }
#if configUSE_MALLOC_FAILED_HOOK
    if (block == NULL && xWantedSize > 0) {
        vApplicationMallocFailedHook();
    }
#endif
    return block;
}

void *pvPortCalloc(size_t xNum, size_t xSize)
{
    /* An overflowing product is a request too large: it fails (and calls the
     * hook) as one does. */
    size_t bytes = xSize != 0 && xNum > SIZE_MAX / xSize ? SIZE_MAX : xNum * xSize;
    void *block = pvPortMalloc(bytes);
    if (block != NULL) {
        memset(block, 0, bytes);
    }
    return block;
}

void vPortFree(void *pv)
{
    if (pv == NULL) {
        return;
    }
    block_header_t *header = (block_header_t *)pv - 1;
    release(header->size, true);
    free(header);
}

size_t xPortGetFreeHeapSize(void)
{
    return (size_t)configTOTAL_HEAP_SIZE - heap.bytes_in_use;
}

size_t xPortGetMinimumEverFreeHeapSize(void)
{
    return (size_t)configTOTAL_HEAP_SIZE - heap.most_in_use;
}

void xPortResetHeapMinimumEverFreeHeapSize(void)
{
    uint32_t state = takt_critical_enter_from_isr();
    heap.most_in_use = heap.bytes_in_use;
    takt_critical_exit_from_isr(state);
}

void vPortGetHeapStats(HeapStats_t *pxHeapStats)
{
    if (pxHeapStats == NULL) {
        return;
    }
    /* One section: the figures belong to one moment. */
    uint32_t state = takt_critical_enter_from_isr();
    size_t free_bytes = (size_t)configTOTAL_HEAP_SIZE - heap.bytes_in_use;
    *pxHeapStats = (HeapStats_t){
        .xAvailableHeapSpaceInBytes = free_bytes,
        .xSizeOfLargestFreeBlockInBytes = free_bytes,
        .xSizeOfSmallestFreeBlockInBytes = free_bytes,
        .xNumberOfFreeBlocks = free_bytes != 0 ? 1u : 0u,
        .xMinimumEverFreeBytesRemaining = (size_t)configTOTAL_HEAP_SIZE - heap.most_in_use,
        .xNumberOfSuccessfulAllocations = heap.allocations,
        .xNumberOfSuccessfulFrees = heap.frees,
    };
    takt_critical_exit_from_isr(state);
}
