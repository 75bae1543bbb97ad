/*
 * pvPortMalloc / vPortFree: the C library's allocator with FreeRTOS's
 * accounting. Every block carries its size, so the layer knows the bytes in
 * use, refuses what would exceed configTOTAL_HEAP_SIZE (as a FreeRTOS heap of
 * that size would, give or take fragmentation), and calls the malloc-failed
 * hook. The kernel allocates through here too (TAKT_CONFIG_MALLOC).
 */
#include <stdlib.h>

#include "compat.h"
#include "task.h"

typedef union {
    size_t size;
    max_align_t align; /* keeps the block after the header aligned */
} block_header_t;

static size_t bytes_in_use;
static size_t most_in_use;

void *pvPortMalloc(size_t xWantedSize)
{
    void *block = NULL;
    size_t total = (size_t)configTOTAL_HEAP_SIZE;
    if (xWantedSize > 0 && xWantedSize <= total - bytes_in_use) {
        block_header_t *header = malloc(sizeof(block_header_t) + xWantedSize);
        if (header != NULL) {
            header->size = xWantedSize;
            bytes_in_use += xWantedSize;
            if (bytes_in_use > most_in_use) {
                most_in_use = bytes_in_use;
            }
            block = header + 1;
        }
    }
#if configUSE_MALLOC_FAILED_HOOK
    if (block == NULL && xWantedSize > 0) {
        vApplicationMallocFailedHook();
    }
#endif
    return block;
}

void vPortFree(void *pv)
{
    if (pv == NULL) {
        return;
    }
    block_header_t *header = (block_header_t *)pv - 1;
    bytes_in_use -= header->size;
    free(header);
}

size_t xPortGetFreeHeapSize(void)
{
    return (size_t)configTOTAL_HEAP_SIZE - bytes_in_use;
}

size_t xPortGetMinimumEverFreeHeapSize(void)
{
    return (size_t)configTOTAL_HEAP_SIZE - most_in_use;
}
