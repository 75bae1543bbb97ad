/*
 * Between heap.c (pvPortMalloc and the rest of the public heap calls) and
 * heap_regions.c (the allocator over vPortDefineHeapRegions's regions). heap.c
 * holds a pointer to the regions' calls, NULL until the regions are defined:
 * that pointer is the one test the C-library path pays, and an application
 * that never calls vPortDefineHeapRegions links none of heap_regions.c.
 */
#ifndef TAKT_FREERTOS_HEAP_REGIONS_H
#define TAKT_FREERTOS_HEAP_REGIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "FreeRTOS.h"

typedef struct {
    void *(*malloc)(size_t wanted);  /* NULL for 0 bytes or no fit; no hook (pvPortMalloc calls it) */
    void (*free)(void *block);       /* never NULL */
    size_t (*free_bytes)(void);
    size_t (*least_free_bytes)(void);
    void (*reset_least_free_bytes)(void);
    void (*stats)(HeapStats_t *stats); /* never NULL */
    size_t (*blocks_in_use)(void);
    void (*forget)(void); /* back to no regions; nothing may be in use */
} heap_regions_ops_t;

/* Hands every later allocation to ops. Call inside the kernel's critical
 * section (takt_critical_enter_from_isr), which the caller holds while it then
 * builds its free list. False, and nothing changes, once regions were taken
 * or the C library's allocator has handed out memory (a later vPortFree could
 * not tell which allocator a block came from). */
bool heap_use_regions(const heap_regions_ops_t *ops);

#endif
