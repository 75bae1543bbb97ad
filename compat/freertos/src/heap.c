/*
 * pvPortMalloc / vPortFree: the C library's allocator with FreeRTOS's
 * accounting. Every block carries its size, so the layer knows the bytes in
 * use, refuses what would exceed configTOTAL_HEAP_SIZE (as a FreeRTOS heap of
 * that size would, give or take fragmentation), and calls the malloc-failed
 * hook. The kernel allocates through here too (TAKT_CONFIG_MALLOC).
 *
 * Once the application has defined heap regions (vPortDefineHeapRegions,
 * heap_regions.c), every call here goes to the allocator over those regions
 * instead: heap.regions points to its calls, and is the one test the C
 * library's path pays in pvPortMalloc and vPortFree.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include "heap_regions.h"
#include "task.h"

typedef union {
    size_t size;
    max_align_t align; /* keeps the block after the header aligned */
} block_header_t;

/* One object: its fields share one address load. */
static struct {
    const heap_regions_ops_t *regions; /* NULL: the C library's allocator */
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

/* The allocation's end: traced (the size asked for), and a failure hooked.
 * An allocation is at least 1 byte: 0 gives NULL without the hook. */
static inline void *malloc_done(void *block, size_t wanted)
{
    traceMALLOC(block, wanted);
#if configUSE_MALLOC_FAILED_HOOK
    if (block == NULL && wanted > 0) {
        vApplicationMallocFailedHook();
    }
#else
    (void)wanted;
#endif
    return block;
}

/* Out of line: the C library's path below stays as it was without regions. */
static __attribute__((noinline)) void *malloc_from_regions(const heap_regions_ops_t *regions, size_t wanted)
{
    return malloc_done(regions->malloc(wanted), wanted);
}

/* heap.regions is read outside the lock: the regions are defined before
 * anything allocates (an allocation refuses them, heap_use_regions), so a
 * task that reads NULL here while another defines them can only be one whose
 * very first allocation races the definition, which FreeRTOS forbids too.
 * Tested after the size, so the C library's path is the one it was plus a load
 * and a branch. */
void *pvPortMalloc(size_t xWantedSize)
{
    void *block = NULL;
    if (xWantedSize > 0) {
        const heap_regions_ops_t *regions = heap.regions;
        if (regions != NULL) {
            return malloc_from_regions(regions, xWantedSize);
        }
        if (reserve(xWantedSize)) {
            block_header_t *header = malloc(sizeof(block_header_t) + xWantedSize);
            if (header != NULL) {
                header->size = xWantedSize;
                block = header + 1;
            } else {
                release(xWantedSize, false);
            }
        }
    }
    return malloc_done(block, xWantedSize);
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
    const heap_regions_ops_t *regions = heap.regions;
    if (regions != NULL) {
        regions->free(pv);
        return;
    }
    block_header_t *header = (block_header_t *)pv - 1;
    traceFREE(pv, header->size);
    release(header->size, true);
    free(header);
}

bool heap_use_regions(const heap_regions_ops_t *ops)
{
    if (heap.regions != NULL || heap.allocations != 0) {
        return false;
    }
    heap.regions = ops;
    return true;
}

TAKT_COLD void vPortHeapResetState(void)
{
    bool running = compat_scheduler_started();
    uint32_t state = takt_critical_enter_from_isr();
    size_t in_use = heap.regions != NULL ? heap.regions->blocks_in_use() : heap.allocations - heap.frees;
    bool reset = in_use == 0 && !running;
    if (reset) {
        if (heap.regions != NULL) {
            heap.regions->forget();
        }
        heap = (__typeof__(heap)){0};
    }
    takt_critical_exit_from_isr(state);
    configASSERT(reset);
}

size_t xPortGetFreeHeapSize(void)
{
    if (heap.regions != NULL) {
        return heap.regions->free_bytes();
    }
    return (size_t)configTOTAL_HEAP_SIZE - heap.bytes_in_use;
}

size_t xPortGetMinimumEverFreeHeapSize(void)
{
    if (heap.regions != NULL) {
        return heap.regions->least_free_bytes();
    }
    return (size_t)configTOTAL_HEAP_SIZE - heap.most_in_use;
}

void xPortResetHeapMinimumEverFreeHeapSize(void)
{
    if (heap.regions != NULL) {
        heap.regions->reset_least_free_bytes();
        return;
    }
    uint32_t state = takt_critical_enter_from_isr();
    heap.most_in_use = heap.bytes_in_use;
    takt_critical_exit_from_isr(state);
}

void vPortGetHeapStats(HeapStats_t *pxHeapStats)
{
    if (pxHeapStats == NULL) {
        return;
    }
    if (heap.regions != NULL) {
        heap.regions->stats(pxHeapStats);
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
