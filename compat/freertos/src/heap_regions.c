/*
 * Heap regions: vPortDefineHeapRegions (FreeRTOS's heap_5 interface) and the
 * allocator over the application's regions that serves pvPortMalloc and
 * vPortFree from then on (heap.c dispatches to it; heap_regions.h).
 *
 * Every block, free or handed out, starts with a header of one alignment unit
 * (_Alignof(max_align_t)) holding the block's size in bytes, header included,
 * a multiple of the alignment. A handed-out block's size carries
 * BLOCK_ALLOCATED in its low bit, so vPortFree can refuse a block that is not
 * handed out; a free block's header also links the next free block. The free
 * blocks form one list in address order: an allocation takes the first that
 * fits and splits off what is left when that can serve a request of its own
 * (MIN_BLOCK); a free puts the block back in its place and merges it with the
 * free block just below and the one just above when they touch it. Adjacent
 * regions therefore act as one.
 *
 * Locking, as heap.c's counters: the list changes under the kernel's critical
 * section (takt_critical_enter_from_isr), not the scheduler lock, because the
 * kernel frees memory while it holds its own critical section (a task's delete).
 * An allocation or a free walks the free list masked: the walk is bounded by
 * the number of free blocks and runs masked, as any kernel free does.
 *
 * Under AddressSanitizer (the sim's test builds) the payload of a free block
 * is poisoned, as the C library's freed memory is: a use after free is
 * reported. A handed-out block is unpoisoned whole, whatever its memory held
 * before (a deleted task's stack included).
 */
#include <stdint.h>

#include "compat.h"
#include "heap_regions.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(address, bytes) __asan_poison_memory_region((address), (bytes))
#define UNPOISON(address, bytes) __asan_unpoison_memory_region((address), (bytes))
#else
#define POISON(address, bytes) ((void)(address), (void)(bytes))
#define UNPOISON(address, bytes) ((void)(address), (void)(bytes))
#endif

#define ALIGNMENT ((uintptr_t)_Alignof(max_align_t))

typedef struct block {
    _Alignas(max_align_t) size_t size; /* | BLOCK_ALLOCATED while handed out */
    struct block *next;                /* free: the next free block, at a higher address */
} block_t;

#define HEADER ((size_t)sizeof(block_t))
#define MIN_BLOCK (HEADER + ALIGNMENT) /* the block of a 1-byte request */
#define BLOCK_ALLOCATED ((size_t)1)

_Static_assert(HEADER % ALIGNMENT == 0, "a header keeps the next block aligned");
_Static_assert(HEADER == (sizeof(size_t) + sizeof(void *) + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT,
               "portable.h documents the header as size and link rounded up to the alignment");

static struct {
    block_t *free_list;     /* lowest address first */
    uintptr_t low, high;    /* from the first region's start to the last one's end */
    size_t free_bytes;      /* the free blocks' sizes, headers included */
    size_t least_free_bytes;
    size_t allocations;     /* successful ones */
    size_t frees;
} regions;

static inline block_t *block_at(uintptr_t address)
{
    return (block_t *)address;
}

static inline uintptr_t address_of(const block_t *block)
{
    return (uintptr_t)block;
}

/* A region's usable part, [*low, *high): its start rounded up and its end
 * down to the alignment; 0 bytes when that cannot hold a block. The caller
 * checked that start + size does not wrap. */
static size_t usable(const HeapRegion_t *region, uintptr_t *low, uintptr_t *high)
{
    uintptr_t start = (uintptr_t)region->pucStartAddress;
    uintptr_t end = start + region->xSizeInBytes;
    uintptr_t pad = (ALIGNMENT - start % ALIGNMENT) % ALIGNMENT;
    if (pad >= region->xSizeInBytes) {
        return 0;
    }
    *low = start + pad;
    *high = end - end % ALIGNMENT; /* >= *low: *low is aligned and <= end */
    size_t bytes = (size_t)(*high - *low);
    return bytes >= MIN_BLOCK ? bytes : 0;
}

/* The bytes the regions give, or 0 when the array is refused: NULL, a region
 * at address NULL or one that wraps the address space, a region that starts
 * below the previous one's end (out of order or overlapping), no usable
 * region. Reads the array only. */
static size_t regions_bytes(const HeapRegion_t *array)
{
    if (array == NULL) {
        return 0;
    }
    size_t total = 0;
    uintptr_t previous_end = 0;
    for (const HeapRegion_t *region = array; region->xSizeInBytes != 0; region++) {
        uintptr_t start = (uintptr_t)region->pucStartAddress;
        if (start == 0 || region->xSizeInBytes > UINTPTR_MAX - start || start < previous_end) {
            return 0;
        }
        previous_end = start + region->xSizeInBytes;
        uintptr_t low, high;
        total += usable(region, &low, &high);
    }
    return total;
}

static void *regions_malloc(size_t wanted)
{
    if (wanted == 0 || wanted > SIZE_MAX - HEADER - (ALIGNMENT - 1)) {
        return NULL;
    }
    size_t size = (wanted + HEADER + (ALIGNMENT - 1)) / ALIGNMENT * ALIGNMENT;
    void *payload = NULL;
    uint32_t state = takt_critical_enter_from_isr();
    block_t **link = &regions.free_list;
    block_t *block;
    while ((block = *link) != NULL && block->size < size) {
        link = &block->next;
    }
    if (block != NULL) {
        if (block->size - size >= MIN_BLOCK) {
            block_t *rest = block_at(address_of(block) + size);
            UNPOISON(rest, HEADER);
            rest->size = block->size - size;
            rest->next = block->next;
            *link = rest;
            block->size = size;
        } else {
            *link = block->next;
        }
        size = block->size;
        regions.free_bytes -= size;
        if (regions.free_bytes < regions.least_free_bytes) {
            regions.least_free_bytes = regions.free_bytes;
        }
        regions.allocations++;
        UNPOISON(block, size);
        block->size = size | BLOCK_ALLOCATED;
        block->next = NULL;
        payload = (uint8_t *)block + HEADER;
    }
    takt_critical_exit_from_isr(state);
    return payload;
}

static void regions_free(void *pv)
{
    uintptr_t address = (uintptr_t)pv;
    /* Within the regions, aligned, and handed out: anything else (a pointer
     * the heap never gave, a block freed twice) is refused. */
    bool valid = address >= regions.low + HEADER && address < regions.high && address % ALIGNMENT == 0;
    block_t *block = block_at(address - HEADER);
    valid = valid && (block->size & BLOCK_ALLOCATED) != 0;
    configASSERT(valid);
    if (!valid) {
        return;
    }
    traceFREE(pv, (block->size & ~BLOCK_ALLOCATED) - HEADER); /* the block is the caller's until here */
    uint32_t state = takt_critical_enter_from_isr();
    size_t size = block->size & ~BLOCK_ALLOCATED;
    regions.free_bytes += size;
    regions.frees++;
    block_t *below = NULL;
    block_t *above = regions.free_list;
    while (above != NULL && address_of(above) < address_of(block)) {
        below = above;
        above = above->next;
    }
    block->size = size;
    if (above != NULL && address_of(block) + size == address_of(above)) {
        block->size += above->size;
        block->next = above->next;
    } else {
        block->next = above;
    }
    if (below != NULL && address_of(below) + below->size == address_of(block)) {
        below->size += block->size;
        below->next = block->next;
        block = below;
    } else if (below != NULL) {
        below->next = block;
    } else {
        regions.free_list = block;
    }
    POISON((uint8_t *)block + HEADER, block->size - HEADER); /* also the headers merged into it */
    takt_critical_exit_from_isr(state);
}

static size_t regions_free_bytes(void)
{
    return regions.free_bytes;
}

static size_t regions_least_free_bytes(void)
{
    return regions.least_free_bytes;
}

static void regions_reset_least_free_bytes(void)
{
    uint32_t state = takt_critical_enter_from_isr();
    regions.least_free_bytes = regions.free_bytes;
    takt_critical_exit_from_isr(state);
}

static void regions_stats(HeapStats_t *stats)
{
    size_t count = 0, largest = 0, smallest = 0;
    /* One section, so the figures belong to one moment: the walk is bounded by
     * the number of free blocks and runs masked, as any kernel free does. */
    uint32_t state = takt_critical_enter_from_isr();
    for (const block_t *block = regions.free_list; block != NULL; block = block->next) {
        if (count == 0 || block->size < smallest) {
            smallest = block->size;
        }
        if (block->size > largest) {
            largest = block->size;
        }
        count++;
    }
    *stats = (HeapStats_t){
        .xAvailableHeapSpaceInBytes = regions.free_bytes,
        .xSizeOfLargestFreeBlockInBytes = largest,
        .xSizeOfSmallestFreeBlockInBytes = smallest,
        .xNumberOfFreeBlocks = count,
        .xMinimumEverFreeBytesRemaining = regions.least_free_bytes,
        .xNumberOfSuccessfulAllocations = regions.allocations,
        .xNumberOfSuccessfulFrees = regions.frees,
    };
    takt_critical_exit_from_isr(state);
}

static size_t regions_blocks_in_use(void)
{
    return regions.allocations - regions.frees;
}

static void regions_forget(void)
{
    for (block_t *block = regions.free_list; block != NULL; block = block->next) {
        UNPOISON(block, block->size); /* the application's memory again */
    }
    regions = (__typeof__(regions)){0};
}

static const heap_regions_ops_t regions_ops = {
    .malloc = regions_malloc,
    .free = regions_free,
    .free_bytes = regions_free_bytes,
    .least_free_bytes = regions_least_free_bytes,
    .reset_least_free_bytes = regions_reset_least_free_bytes,
    .stats = regions_stats,
    .blocks_in_use = regions_blocks_in_use,
    .forget = regions_forget,
};

TAKT_COLD void vPortDefineHeapRegions(const HeapRegion_t *const pxHeapRegions)
{
    size_t total = regions_bytes(pxHeapRegions);
    uint32_t state = takt_critical_enter_from_isr();
    bool accepted = total != 0 && heap_use_regions(&regions_ops);
    if (accepted) {
        /* One free block per region, in address order; a region that starts
         * where the previous block ends extends it. */
        block_t *last = NULL;
        for (const HeapRegion_t *region = pxHeapRegions; region->xSizeInBytes != 0; region++) {
            uintptr_t low, high;
            size_t bytes = usable(region, &low, &high);
            if (bytes == 0) {
                continue;
            }
            if (last == NULL) {
                regions.low = low;
            }
            regions.high = high;
            if (last != NULL && address_of(last) + last->size == low) {
                last->size += bytes;
                continue;
            }
            block_t *block = block_at(low);
            UNPOISON(block, HEADER);
            block->size = bytes;
            block->next = NULL;
            if (last != NULL) {
                last->next = block;
            } else {
                regions.free_list = block;
            }
            last = block;
        }
        for (block_t *block = regions.free_list; block != NULL; block = block->next) {
            POISON((uint8_t *)block + HEADER, block->size - HEADER);
        }
        regions.free_bytes = total;
        regions.least_free_bytes = total;
    }
    takt_critical_exit_from_isr(state);
    configASSERT(accepted);
}
