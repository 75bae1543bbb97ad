/*
 * FreeRTOS semphr.h on Takt: binary and counting semaphores (Takt semaphores),
 * mutexes and recursive mutexes (Takt mutexes with priority inheritance). The
 * handles are queue handles, as in FreeRTOS (queue.h).
 */
#ifndef SEMAPHORE_H
#define SEMAPHORE_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include semphr.h"
#endif

#include "queue.h"

typedef QueueHandle_t SemaphoreHandle_t;
typedef StaticQueue_t StaticSemaphore_t;

#if configSUPPORT_DYNAMIC_ALLOCATION
SemaphoreHandle_t xSemaphoreCreateBinary(void);
SemaphoreHandle_t xSemaphoreCreateCounting(UBaseType_t uxMaxCount, UBaseType_t uxInitialCount);
#if configUSE_MUTEXES
SemaphoreHandle_t xSemaphoreCreateMutex(void);
#endif
#if configUSE_RECURSIVE_MUTEXES
SemaphoreHandle_t xSemaphoreCreateRecursiveMutex(void);
#endif
#endif
#if configSUPPORT_STATIC_ALLOCATION
SemaphoreHandle_t xSemaphoreCreateBinaryStatic(StaticSemaphore_t *pxSemaphoreBuffer);
SemaphoreHandle_t xSemaphoreCreateCountingStatic(UBaseType_t uxMaxCount, UBaseType_t uxInitialCount,
                                                 StaticSemaphore_t *pxSemaphoreBuffer);
#if configUSE_MUTEXES
SemaphoreHandle_t xSemaphoreCreateMutexStatic(StaticSemaphore_t *pxMutexBuffer);
#endif
#if configUSE_RECURSIVE_MUTEXES
SemaphoreHandle_t xSemaphoreCreateRecursiveMutexStatic(StaticSemaphore_t *pxMutexBuffer);
#endif
#endif
#define vSemaphoreDelete(xSemaphore) vQueueDelete((QueueHandle_t)(xSemaphore))

/* pdTRUE if taken within xBlockTime. A mutex its holder takes again fails at
 * once (FreeRTOS would block until the timeout: it cannot succeed). */
BaseType_t xSemaphoreTake(SemaphoreHandle_t xSemaphore, TickType_t xBlockTime);
/* pdFAIL for a semaphore already at its maximum or a mutex the caller does not hold. */
BaseType_t xSemaphoreGive(SemaphoreHandle_t xSemaphore);
BaseType_t xSemaphoreTakeFromISR(SemaphoreHandle_t xSemaphore, BaseType_t *pxHigherPriorityTaskWoken);
BaseType_t xSemaphoreGiveFromISR(SemaphoreHandle_t xSemaphore, BaseType_t *pxHigherPriorityTaskWoken);
#if configUSE_RECURSIVE_MUTEXES
BaseType_t xSemaphoreTakeRecursive(SemaphoreHandle_t xMutex, TickType_t xBlockTime);
BaseType_t xSemaphoreGiveRecursive(SemaphoreHandle_t xMutex);
#endif
UBaseType_t uxSemaphoreGetCount(SemaphoreHandle_t xSemaphore);
UBaseType_t uxSemaphoreGetCountFromISR(SemaphoreHandle_t xSemaphore);
TaskHandle_t xSemaphoreGetMutexHolder(SemaphoreHandle_t xSemaphore);
TaskHandle_t xSemaphoreGetMutexHolderFromISR(SemaphoreHandle_t xSemaphore);
#if configSUPPORT_STATIC_ALLOCATION
/* pdTRUE, with the buffer it was created with, for a statically created
 * semaphore or mutex; pdFALSE otherwise. */
#define xSemaphoreGetStaticBuffer(xSemaphore, ppxSemaphoreBuffer) \
    xQueueGetStaticBuffers((QueueHandle_t)(xSemaphore), NULL, (ppxSemaphoreBuffer))
#endif

#if configSUPPORT_DYNAMIC_ALLOCATION
/* The old form, kept by FreeRTOS for old code: a binary semaphore created
 * given (available to the first take), unlike xSemaphoreCreateBinary's, which
 * starts empty. xSemaphore is NULL if it could not be created. */
#define vSemaphoreCreateBinary(xSemaphore)       \
    do {                                         \
        (xSemaphore) = xSemaphoreCreateBinary(); \
        if ((xSemaphore) != NULL) {              \
            (void)xSemaphoreGive(xSemaphore);    \
        }                                        \
    } while (0)
#endif

#endif
