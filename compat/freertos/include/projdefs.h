/* FreeRTOS projdefs.h on Takt: constants and conversions of the FreeRTOS API. */
#ifndef PROJDEFS_H
#define PROJDEFS_H

typedef void (*TaskFunction_t)(void *arg);

/* Rounds down, like FreeRTOS V11 (64-bit intermediate, no overflow). */
#ifndef pdMS_TO_TICKS
#define pdMS_TO_TICKS(xTimeInMs) \
    ((TickType_t)(((uint64_t)(xTimeInMs) * (uint64_t)configTICK_RATE_HZ) / (uint64_t)1000U))
#endif
#ifndef pdTICKS_TO_MS
#define pdTICKS_TO_MS(xTimeInTicks) \
    ((TickType_t)(((uint64_t)(xTimeInTicks) * (uint64_t)1000U) / (uint64_t)configTICK_RATE_HZ))
#endif

#define pdFALSE ((BaseType_t)0)
#define pdTRUE ((BaseType_t)1)
#define pdFALSE_SIGNED ((BaseType_t)0)
#define pdTRUE_SIGNED ((BaseType_t)1)
#define pdFALSE_UNSIGNED ((UBaseType_t)0)
#define pdTRUE_UNSIGNED ((UBaseType_t)1)
#define pdPASS (pdTRUE)
#define pdFAIL (pdFALSE)
#define errQUEUE_EMPTY ((BaseType_t)0)
#define errQUEUE_FULL ((BaseType_t)0)

#define errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY (-1)
#define errQUEUE_BLOCKED (-4)
#define errQUEUE_YIELD (-5)

#endif
