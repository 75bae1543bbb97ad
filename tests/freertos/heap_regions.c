/*
 * Heap regions (vPortDefineHeapRegions, heap_5's interface): two static
 * arrays, passed in ascending address order (the lower one as two regions that
 * touch, which must act as one), become the whole heap before anything is
 * created. Refused definitions first (each asserts and changes
 * nothing: the valid one after them is accepted), then, before the scheduler
 * starts, the allocator itself with exact figures: where blocks go, their
 * sizes (request + header rounded up to _Alignof(max_align_t), as portable.h
 * documents), when a block is split, a request above the largest free block
 * failing with the malloc-failed hook, coalescing with either neighbour and
 * both, a second definition refused, frees of what the heap did not hand out
 * refused, and allocations and frees in random order (fixed seed) that never
 * overlap and never fail while a free block fits. Then tasks, queues and
 * semaphores created with the dynamic API take their memory from the regions
 * and give it back at their delete, including a task that deletes itself
 * (its stack freed by the idle task and reused). Counts assertions.
 * heap_regions_late.c: a definition after an allocation is refused.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#define RTOS_CHECK_COUNT_ASSERTS
#include <string.h>

#include "queue.h"
#include "rtos_check.h"
#include "semphr.h"

#define ALIGN ((uintptr_t)_Alignof(max_align_t))
#define ROUND_UP(n) (((n) + ALIGN - 1u) / ALIGN * ALIGN)
/* portable.h: a block's header holds its size and a free-list link. */
#define HEADER ROUND_UP(sizeof(size_t) + sizeof(void *))
#define BLOCK(request) ROUND_UP((size_t)(request) + HEADER)

/* The whole program's heap: the control task's stack too. */
#ifdef TAKT_TEST_TARGET
#define AREA_BYTES_A (6u * 1024u + 5u)
#define AREA_BYTES_B (9u * 1024u + 3u)
#define WORKER_STACK 256u /* words */
#else
#define AREA_BYTES_A (96u * 1024u + 5u)
#define AREA_BYTES_B (112u * 1024u + 3u)
#define WORKER_STACK (configMINIMAL_STACK_SIZE / 4u)
#endif
#define CONTROL_STACK configMINIMAL_STACK_SIZE

static uint8_t area_a[AREA_BYTES_A];
static uint8_t area_b[AREA_BYTES_B];
static uint8_t area_other[256];

/* The two arrays' regions, in ascending address order. */
static HeapRegion_t arrays[2];
/* What is defined: the lower array given as two regions that touch (they
 * must act as one), then the higher one; [3] ends it. */
static HeapRegion_t regions[4];
/* Each region's usable part, what the allocator must make of it. */
static uintptr_t low[2], high[2];
static size_t total;

static HeapStats_t stats(void)
{
    HeapStats_t s;
    vPortGetHeapStats(&s);
    return s;
}

static size_t free_blocks(void)
{
    return stats().xNumberOfFreeBlocks;
}

/* [p, p + bytes) inside region i's usable part, after a header. */
static bool in_region(int i, const void *p, size_t bytes)
{
    uintptr_t a = (uintptr_t)p;
    return a >= low[i] + HEADER && a <= high[i] && bytes <= high[i] - a;
}

static bool in_regions(const void *p, size_t bytes)
{
    return in_region(0, p, bytes) || in_region(1, p, bytes);
}

/* Regions start 3 bytes in (rounded up) and end 8 bytes before the array's
 * end (rounded down): the two never touch, so each stays one free block. */
static void order_regions(void)
{
    uint8_t *first = area_a, *second = area_b;
    size_t first_bytes = sizeof(area_a), second_bytes = sizeof(area_b);
    if ((uintptr_t)area_b < (uintptr_t)area_a) {
        first = area_b, second = area_a;
        first_bytes = sizeof(area_b), second_bytes = sizeof(area_a);
    }
    arrays[0] = (HeapRegion_t){first + 3, first_bytes - 3 - 8};
    arrays[1] = (HeapRegion_t){second + 3, second_bytes - 3 - 8};
    for (int i = 0; i < 2; i++) {
        uintptr_t start = (uintptr_t)arrays[i].pucStartAddress;
        uintptr_t end = start + arrays[i].xSizeInBytes;
        low[i] = (start + ALIGN - 1u) / ALIGN * ALIGN;
        high[i] = end / ALIGN * ALIGN;
    }
    size_t cut = (size_t)(low[0] + 64u * ALIGN - (uintptr_t)arrays[0].pucStartAddress); /* an aligned address */
    regions[0] = (HeapRegion_t){arrays[0].pucStartAddress, cut};
    regions[1] = (HeapRegion_t){arrays[0].pucStartAddress + cut, arrays[0].xSizeInBytes - cut};
    regions[2] = arrays[1];
    regions[3] = (HeapRegion_t){NULL, 0};
    total = (size_t)(high[0] - low[0]) + (size_t)(high[1] - low[1]);
    CHECK(high[0] < low[1], "the regions are apart (%lu and %lu usable bytes)", (unsigned long)(high[0] - low[0]),
          (unsigned long)(high[1] - low[1]));
}

/* A definition that must be refused: it asserts, and the heap stays the C
 * library's (its budget's figures; nothing was allocated yet). */
static void refused(const HeapRegion_t *array, const char *what)
{
    unsigned long before = assertions;
    vPortDefineHeapRegions(array);
    HeapStats_t s = stats();
    CHECK(assertions == before + 1 && xPortGetFreeHeapSize() == configTOTAL_HEAP_SIZE &&
              s.xAvailableHeapSpaceInBytes == configTOTAL_HEAP_SIZE && s.xNumberOfFreeBlocks == 1,
          "%s: refused, the heap unchanged", what);
}

static void refusals_before(void)
{
    uint8_t *start0 = arrays[0].pucStartAddress, *start1 = arrays[1].pucStartAddress;
    size_t size0 = arrays[0].xSizeInBytes, size1 = arrays[1].xSizeInBytes;
    refused(NULL, "a NULL array");
    refused((const HeapRegion_t[]){{NULL, 0}}, "no region");
    refused((const HeapRegion_t[]){{start1, size1}, {start0, size0}, {NULL, 0}}, "regions out of order");
    refused((const HeapRegion_t[]){{start0, size0}, {start0 + size0 / 2, size0 / 2}, {NULL, 0}},
            "overlapping regions");
    refused((const HeapRegion_t[]){{area_other + 1, HEADER}, {NULL, 0}}, "a region too small for a block");
    refused((const HeapRegion_t[]){{start0, size0}, {NULL, 64}, {NULL, 0}}, "a region at NULL");
    refused((const HeapRegion_t[]){{(uint8_t *)(UINTPTR_MAX - 63u), 128}, {NULL, 0}},
            "a region wrapping the address space");
}

static void defined(void)
{
    unsigned long before = assertions;
    vPortDefineHeapRegions(regions);
    CHECK(assertions == before, "the regions are accepted");
    HeapStats_t s = stats();
    size_t usable0 = high[0] - low[0], usable1 = high[1] - low[1];
    CHECK(xPortGetFreeHeapSize() == total && xPortGetMinimumEverFreeHeapSize() == total &&
              s.xAvailableHeapSpaceInBytes == total && s.xMinimumEverFreeBytesRemaining == total,
          "free and least free: the regions' usable bytes (%lu)", (unsigned long)total);
    CHECK(s.xNumberOfFreeBlocks == 2 && s.xSizeOfLargestFreeBlockInBytes == (usable0 > usable1 ? usable0 : usable1) &&
              s.xSizeOfSmallestFreeBlockInBytes == (usable0 < usable1 ? usable0 : usable1),
          "one free block per array (its two touching regions merged), largest and smallest");
    CHECK(s.xNumberOfSuccessfulAllocations == 0 && s.xNumberOfSuccessfulFrees == 0, "nothing allocated yet");
}

static void exact_sizes(void)
{
    unsigned long hooks = malloc_failed_calls;
    uint8_t *p = pvPortMalloc(1);
    CHECK(p == (uint8_t *)low[0] + HEADER, "the first block is at the lowest region's start, after its header");
    CHECK(xPortGetFreeHeapSize() == total - BLOCK(1), "1 byte takes %lu bytes", (unsigned long)BLOCK(1));
    uint8_t *q = pvPortMalloc(100);
    CHECK(q == p + BLOCK(1) && xPortGetFreeHeapSize() == total - BLOCK(1) - BLOCK(100),
          "100 bytes: the next block, %lu bytes", (unsigned long)BLOCK(100));
    uint8_t *r = pvPortCalloc(10, 7);
    bool zero = r != NULL;
    for (int i = 0; zero && i < 70; i++) {
        zero = r[i] == 0;
    }
    CHECK(r == q + BLOCK(100) && zero && xPortGetFreeHeapSize() == total - BLOCK(1) - BLOCK(100) - BLOCK(70),
          "pvPortCalloc: zeroed, the next block");
    CHECK((uintptr_t)p % ALIGN == 0 && (uintptr_t)q % ALIGN == 0 && (uintptr_t)r % ALIGN == 0,
          "blocks aligned to _Alignof(max_align_t)");
    size_t in_use = BLOCK(1) + BLOCK(100) + BLOCK(70);
    CHECK(pvPortMalloc(0) == NULL && xPortGetFreeHeapSize() == total - in_use && malloc_failed_calls == hooks,
          "0 bytes: NULL, no hook, nothing taken");
    CHECK(xPortGetMinimumEverFreeHeapSize() == total - in_use && free_blocks() == 2, "least free ever follows");
    vPortFree(q);
    CHECK(xPortGetFreeHeapSize() == total - BLOCK(1) - BLOCK(70) && free_blocks() == 3,
          "the middle block freed: a free block of its own");
    vPortFree(NULL);
    CHECK(xPortGetFreeHeapSize() == total - BLOCK(1) - BLOCK(70) && free_blocks() == 3, "vPortFree(NULL): nothing");
    vPortFree(p);
    vPortFree(r);
    HeapStats_t s = stats();
    CHECK(xPortGetFreeHeapSize() == total && s.xNumberOfFreeBlocks == 2 &&
              xPortGetMinimumEverFreeHeapSize() == total - in_use,
          "all freed: one block per region again; least free ever stays");
    CHECK(s.xNumberOfSuccessfulAllocations == 3 && s.xNumberOfSuccessfulFrees == 3, "3 allocations, 3 frees");
}

/* A block is split only when the rest could serve a 1-byte request. */
static void splitting(void)
{
    size_t usable0 = high[0] - low[0];
    uint8_t *p = pvPortMalloc(usable0 - HEADER - ALIGN); /* leaves one unit: not split off */
    CHECK(p == (uint8_t *)low[0] + HEADER && xPortGetFreeHeapSize() == total - usable0 && free_blocks() == 1,
          "a rest too small for a block stays with the block: the whole region taken");
    vPortFree(p);
    p = pvPortMalloc(usable0 - 2 * HEADER - ALIGN); /* leaves a header and one unit: split */
    HeapStats_t s = stats();
    CHECK(p == (uint8_t *)low[0] + HEADER && s.xAvailableHeapSpaceInBytes == total - (usable0 - HEADER - ALIGN) &&
              s.xNumberOfFreeBlocks == 2 && s.xSizeOfSmallestFreeBlockInBytes == HEADER + ALIGN,
          "a rest that can hold a 1-byte block is split off");
    uint8_t *q = pvPortMalloc(1);
    CHECK(q == (uint8_t *)high[0] - ALIGN && free_blocks() == 1, "and serves a 1-byte request (first fit)");
    vPortFree(q);
    vPortFree(p);
    CHECK(xPortGetFreeHeapSize() == total && free_blocks() == 2, "freed: one block per region");
}

static void too_large(void)
{
    HeapStats_t s = stats();
    size_t largest = s.xSizeOfLargestFreeBlockInBytes;
    int big = high[1] - low[1] == largest ? 1 : 0;
    unsigned long hooks = malloc_failed_calls;
    size_t request = largest - HEADER + 1u;
    CHECK(request < xPortGetFreeHeapSize(), "(%lu bytes: less than the bytes free)", (unsigned long)request);
    CHECK(pvPortMalloc(request) == NULL && malloc_failed_calls == hooks + 1, "more than the largest block: NULL, the hook");
    s = stats();
    CHECK(s.xAvailableHeapSpaceInBytes == total && s.xNumberOfFreeBlocks == 2 &&
              s.xSizeOfLargestFreeBlockInBytes == largest,
          "nothing taken by the failure");
    CHECK(pvPortMalloc(SIZE_MAX) == NULL && pvPortCalloc(SIZE_MAX / 2, 3) == NULL && malloc_failed_calls == hooks + 3,
          "SIZE_MAX and an overflowing calloc: NULL, the hook");
    uint8_t *p = pvPortMalloc(largest - HEADER);
    CHECK(p == (uint8_t *)low[big] + HEADER && xPortGetFreeHeapSize() == total - largest && free_blocks() == 1 &&
              malloc_failed_calls == hooks + 3,
          "exactly the largest block: granted, the whole region");
    vPortFree(p);
    CHECK(xPortGetFreeHeapSize() == total && free_blocks() == 2, "freed");
}

/* Four blocks at the lowest region's start; each free merges as it should. */
static void coalescing(void)
{
    uint8_t *a = pvPortMalloc(200), *b = pvPortMalloc(200), *c = pvPortMalloc(200), *d = pvPortMalloc(200);
    size_t one = BLOCK(200);
    CHECK(a != NULL && b == a + one && c == b + one && d == c + one, "four adjacent blocks of %lu bytes",
          (unsigned long)one);
    vPortFree(b);
    HeapStats_t s = stats();
    CHECK(s.xNumberOfFreeBlocks == 3 && s.xSizeOfSmallestFreeBlockInBytes == one,
          "b freed between two blocks in use: a free block of its own");
    vPortFree(a);
    s = stats();
    CHECK(s.xNumberOfFreeBlocks == 3 && s.xSizeOfSmallestFreeBlockInBytes == 2 * one,
          "a freed below free b: merged with the block above");
    vPortFree(c);
    s = stats();
    CHECK(s.xNumberOfFreeBlocks == 3 && s.xSizeOfSmallestFreeBlockInBytes == 3 * one,
          "c freed above a+b, below d in use: merged with the block below");
    vPortFree(d);
    s = stats();
    size_t usable0 = high[0] - low[0], usable1 = high[1] - low[1];
    CHECK(s.xNumberOfFreeBlocks == 2 && s.xAvailableHeapSpaceInBytes == total &&
              s.xSizeOfLargestFreeBlockInBytes == (usable0 > usable1 ? usable0 : usable1) &&
              s.xSizeOfSmallestFreeBlockInBytes == (usable0 < usable1 ? usable0 : usable1),
          "d freed between a+b+c and the region's rest: merged with both, the region one block again");
}

static void second_definition_refused(void)
{
    uint8_t *p = pvPortMalloc(64);
    unsigned long before = assertions;
    vPortDefineHeapRegions(regions);
    CHECK(assertions == before + 1 && xPortGetFreeHeapSize() == total - BLOCK(64) && free_blocks() == 2,
          "a second definition (the same regions, a block in use): refused, nothing reset");
    vPortDefineHeapRegions((const HeapRegion_t[]){{area_other, sizeof(area_other)}, {NULL, 0}});
    CHECK(assertions == before + 2 && xPortGetFreeHeapSize() == total - BLOCK(64), "another array: refused");
    uint8_t *q = pvPortMalloc(64);
    CHECK(q == p + BLOCK(64), "allocations still come from the first regions");
    vPortFree(q);
    vPortFree(p);
    CHECK(xPortGetFreeHeapSize() == total && free_blocks() == 2, "the block freed into them");
}

/* Frees of memory the heap did not hand out (or no longer has out): refused. */
static void bad_frees_refused(void)
{
    static max_align_t not_heap[4];
    uint8_t *a = pvPortMalloc(32), *b = pvPortMalloc(32);
    vPortFree(b); /* a below is in use: b stays a free block's start */
    HeapStats_t s = stats();
    unsigned long before = assertions;
    vPortFree(b);
    vPortFree(&not_heap[2]);
    vPortFree(a + 1);
    HeapStats_t after = stats();
    CHECK(assertions == before + 3 && after.xAvailableHeapSpaceInBytes == s.xAvailableHeapSpaceInBytes &&
              after.xNumberOfFreeBlocks == s.xNumberOfFreeBlocks &&
              after.xNumberOfSuccessfulFrees == s.xNumberOfSuccessfulFrees,
          "a block freed twice, a static object, a pointer inside a block: refused, nothing changed");
    vPortFree(a);
    CHECK(xPortGetFreeHeapSize() == total && free_blocks() == 2, "the real free still works");
}

#define SLOTS 24
#define STEPS 1500

static uint32_t seed = 20240611u;

static uint32_t next_random(void)
{
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

static uint8_t pattern(int slot, size_t k)
{
    return (uint8_t)(slot * 37 + k * 11 + 5);
}

static void random_order(void)
{
    static struct {
        uint8_t *p;
        size_t size, block; /* requested; taken (BLOCK(size), or the whole free block when not split) */
    } live[SLOTS];
    xPortResetHeapMinimumEverFreeHeapSize();
    CHECK(xPortGetMinimumEverFreeHeapSize() == total, "least free ever reset: the bytes free");
    size_t max_request = total / 10u;
    size_t in_use = 0, most_in_use = 0;
    unsigned grants = 0, failures = 0, frees = 0;
    unsigned outside = 0, overlaps = 0, misaligned = 0, damaged = 0, wrong_figure = 0, unjustified = 0;
    unsigned wrong_block = 0, unsplit = 0;
    unsigned long hooks = malloc_failed_calls;
    for (int step = 0; step < STEPS; step++) {
        int slot = (int)(next_random() % SLOTS);
        if (live[slot].p != NULL) {
            for (size_t k = 0; k < live[slot].size; k++) {
                damaged += live[slot].p[k] != pattern(slot, k);
            }
            vPortFree(live[slot].p);
            in_use -= live[slot].block;
            live[slot].p = NULL;
            frees++;
        } else {
            size_t size = 1u + next_random() % max_request;
            size_t largest = stats().xSizeOfLargestFreeBlockInBytes;
            size_t free_before = xPortGetFreeHeapSize();
            uint8_t *p = pvPortMalloc(size);
            if (p == NULL) {
                failures++;
                unjustified += BLOCK(size) <= largest;
            } else {
                grants++;
                /* A rest smaller than a 1-byte block (header + one unit) is not split off. */
                size_t block = free_before - xPortGetFreeHeapSize();
                wrong_block += block < BLOCK(size) || block - BLOCK(size) >= HEADER + ALIGN;
                unsplit += block != BLOCK(size);
                outside += !in_regions(p, size);
                misaligned += (uintptr_t)p % ALIGN != 0;
                for (int other = 0; other < SLOTS; other++) {
                    if (live[other].p != NULL) {
                        uintptr_t mine = (uintptr_t)p - HEADER, theirs = (uintptr_t)live[other].p - HEADER;
                        overlaps += mine < theirs + live[other].block && theirs < mine + block;
                    }
                }
                for (size_t k = 0; k < size; k++) {
                    p[k] = pattern(slot, k);
                }
                live[slot].p = p;
                live[slot].size = size;
                live[slot].block = block;
                in_use += block;
                most_in_use = in_use > most_in_use ? in_use : most_in_use;
            }
        }
        wrong_figure += xPortGetFreeHeapSize() != total - in_use;
    }
    CHECK(grants > 100 && frees > 100 && failures > 0, "%u allocations, %u frees, %u refused", grants, frees,
          failures);
    CHECK(wrong_block == 0, "each takes its request's block, or a whole free block with less left (%u times)",
          unsplit);
    CHECK(outside == 0 && misaligned == 0, "every block inside a region, aligned");
    CHECK(overlaps == 0, "no block overlaps another in use");
    CHECK(damaged == 0, "every block's pattern intact at its free");
    CHECK(wrong_figure == 0, "the bytes free exact after every step");
    CHECK(unjustified == 0 && malloc_failed_calls == hooks + failures,
          "refused only when no free block fits, each with the hook");
    CHECK(xPortGetMinimumEverFreeHeapSize() == total - most_in_use, "least free ever: %lu bytes",
          (unsigned long)(total - most_in_use));
    for (int slot = 0; slot < SLOTS; slot++) {
        if (live[slot].p != NULL) {
            for (size_t k = 0; k < live[slot].size; k++) {
                damaged += live[slot].p[k] != pattern(slot, k);
            }
            vPortFree(live[slot].p);
            live[slot].p = NULL;
        }
    }
    HeapStats_t s = stats();
    CHECK(damaged == 0 && s.xAvailableHeapSpaceInBytes == total && s.xNumberOfFreeBlocks == 2,
          "the rest freed: the starting free figure, one block per region");
    CHECK(xPortGetMinimumEverFreeHeapSize() == total - most_in_use, "least free ever kept");
    xPortResetHeapMinimumEverFreeHeapSize();
    CHECK(xPortGetMinimumEverFreeHeapSize() == total, "and reset");
}

/* ---- objects of the dynamic API, from the control task ---- */

static volatile int worker_runs, ender_runs;

static void worker_task(void *arg)
{
    worker_runs++;
    xSemaphoreTake((SemaphoreHandle_t)arg, portMAX_DELAY); /* deleted while it waits */
    worker_runs++;
    vTaskSuspend(NULL);
}

static void ender_task(void *arg)
{
    (void)arg;
    ender_runs++;
    vTaskDelete(NULL);
}

static void control_task(void *arg)
{
    (void)arg;
    CHECK(in_regions(xTaskGetCurrentTaskHandle(), 1), "the control task's control block is in a region");
    size_t start = xPortGetFreeHeapSize();

    QueueHandle_t queue = xQueueCreate(4, sizeof(uint32_t));
    uint32_t item = 42, out = 0;
    CHECK(queue != NULL && in_regions(queue, 1) &&
              xPortGetFreeHeapSize() <= start - BLOCK(4 * sizeof(uint32_t)),
          "a queue: memory from a region, its storage counted");
    CHECK(xQueueSend(queue, &item, 0) == pdPASS && xQueueReceive(queue, &out, 0) == pdPASS && out == 42,
          "and it works");
    size_t after_queue = xPortGetFreeHeapSize();
    SemaphoreHandle_t binary = xSemaphoreCreateBinary();
    SemaphoreHandle_t mutex = xSemaphoreCreateMutex();
    SemaphoreHandle_t counting = xSemaphoreCreateCounting(3, 1);
    CHECK(binary != NULL && mutex != NULL && counting != NULL && in_regions(binary, 1) && in_regions(mutex, 1) &&
              in_regions(counting, 1) && xPortGetFreeHeapSize() <= after_queue - 3 * BLOCK(1),
          "binary, mutex, counting semaphores: from the regions");
    CHECK(xSemaphoreTake(mutex, 0) == pdTRUE && xSemaphoreGive(mutex) == pdTRUE && xSemaphoreTake(counting, 0) == pdTRUE,
          "and they work");
    size_t before_tasks = xPortGetFreeHeapSize();

    TaskHandle_t worker = NULL;
    CHECK(xTaskCreate(worker_task, "worker", WORKER_STACK, binary, 1, &worker) == pdPASS && in_regions(worker, 1) &&
              xPortGetFreeHeapSize() <= before_tasks - BLOCK(WORKER_STACK * sizeof(StackType_t)) - BLOCK(1),
          "a task: control block and stack from the regions");
    vTaskDelay(1);
    CHECK(worker_runs == 1, "it ran and waits");
    vTaskDelete(worker);
    CHECK(xPortGetFreeHeapSize() == before_tasks, "deleted: its memory back at once");

    CHECK(xTaskCreate(ender_task, "ender", WORKER_STACK, NULL, 3, NULL) == pdPASS && ender_runs == 1,
          "a task that deletes itself ran");
    vTaskDelay(2); /* the idle task frees it */
    CHECK(xPortGetFreeHeapSize() == before_tasks, "its memory back after the idle task ran");
    /* Every free byte handed out again, its stack's among them, and written
     * whole (under ASan the layer poisons free memory: none of it may stay
     * poisoned once handed out). */
    uint8_t *taken[16];
    int count = 0;
    bool inside = true;
    for (size_t largest; count < 16 && (largest = stats().xSizeOfLargestFreeBlockInBytes) != 0; count++) {
        taken[count] = pvPortMalloc(largest - HEADER);
        if (taken[count] == NULL) {
            break;
        }
        inside = inside && in_regions(taken[count], largest - HEADER);
        memset(taken[count], 0xA5, largest - HEADER);
    }
    CHECK(xPortGetFreeHeapSize() == 0 && free_blocks() == 0 && inside, "every free block taken (%d) and written",
          count);
    while (count > 0) {
        vPortFree(taken[--count]);
    }
    CHECK(xPortGetFreeHeapSize() == before_tasks, "and freed");

    vSemaphoreDelete(counting);
    vSemaphoreDelete(mutex);
    vSemaphoreDelete(binary);
    CHECK(xPortGetFreeHeapSize() == after_queue, "semaphores deleted: their memory back");
    vQueueDelete(queue);
    CHECK(xPortGetFreeHeapSize() == start, "queue deleted: the starting figure");
    vTaskEndScheduler();
}

int main(void)
{
    order_regions();
    refusals_before();
    defined();
    exact_sizes();
    splitting();
    too_large();
    coalescing();
    second_definition_refused();
    bad_frees_refused();
    random_order();

    TaskHandle_t control = NULL;
    BaseType_t created = xTaskCreate(control_task, "ctl", CONTROL_STACK, NULL, 2, &control);
    CHECK(created == pdPASS && in_regions(control, 1) &&
              xPortGetFreeHeapSize() <= total - BLOCK(CONTROL_STACK * sizeof(StackType_t)),
          "the control task's memory from the regions");
    if (created == pdPASS) { /* else the scheduler would run the idle task forever */
        vTaskStartScheduler();
    }
    return rtos_check_summary();
}
