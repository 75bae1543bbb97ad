/*
 * vPortDefineHeapRegions after pvPortMalloc has handed out memory (here from
 * the C library's allocator, then freed): refused with configASSERT, and the
 * heap stays the C library's: its figures, its blocks, the blocks it hands out
 * afterwards (never in the would-be region) freed through it. A fresh process,
 * since the refusal needs an earlier allocation (heap_regions.c defines its
 * regions before any). Counts assertions.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#define RTOS_CHECK_COUNT_ASSERTS
#include <string.h>

#include "rtos_check.h"

static uint8_t area[4096];

static bool in_area(const void *p)
{
    return (uintptr_t)p >= (uintptr_t)area && (uintptr_t)p < (uintptr_t)area + sizeof(area);
}

int main(void)
{
    const HeapRegion_t regions[] = {{area, sizeof(area)}, {NULL, 0}};
    uint8_t *early = pvPortMalloc(48);
    CHECK(early != NULL && !in_area(early) && xPortGetFreeHeapSize() == configTOTAL_HEAP_SIZE - 48,
          "an allocation from the C library's allocator");
    vPortFree(early);
    CHECK(xPortGetFreeHeapSize() == configTOTAL_HEAP_SIZE, "and its free");

    unsigned long before = assertions;
    vPortDefineHeapRegions(regions);
    HeapStats_t s;
    vPortGetHeapStats(&s);
    CHECK(assertions == before + 1 && xPortGetFreeHeapSize() == configTOTAL_HEAP_SIZE &&
              xPortGetMinimumEverFreeHeapSize() == configTOTAL_HEAP_SIZE - 48 &&
              s.xNumberOfSuccessfulAllocations == 1 && s.xNumberOfSuccessfulFrees == 1,
          "regions after an allocation: refused, the figures still the C library heap's");

    uint8_t *later = pvPortMalloc(sizeof(area) / 2);
    CHECK(later != NULL && !in_area(later) && xPortGetFreeHeapSize() == configTOTAL_HEAP_SIZE - sizeof(area) / 2,
          "later allocations: still the C library's, not in the region");
    if (later != NULL) {
        memset(later, 0x5A, sizeof(area) / 2);
    }
    vPortFree(later); /* under ASan: a free through the wrong allocator would be reported */
    CHECK(xPortGetFreeHeapSize() == configTOTAL_HEAP_SIZE, "and freed through it");

    before = assertions;
    vPortDefineHeapRegions(regions);
    CHECK(assertions == before + 1 && xPortGetFreeHeapSize() == configTOTAL_HEAP_SIZE,
          "still refused with nothing in use: memory was handed out once");
    return rtos_check_summary();
}
