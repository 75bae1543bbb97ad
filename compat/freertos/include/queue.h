/*
 * FreeRTOS queue.h on Takt: queues and queue sets (V11 signatures).
 *
 * A QueueHandle_t is one object that holds a Takt queue, semaphore, mutex or
 * queue set (as in FreeRTOS, semaphores are queues to the API: the same handle
 * type, uxQueueMessagesWaiting on a semaphore gives its count, a queue set
 * takes queues and semaphores). Items are copied by value, uxItemSize bytes.
 */
#ifndef QUEUE_H
#define QUEUE_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include queue.h"
#endif

#include "task.h"

typedef enum {
    TAKT_FREERTOS_QUEUE,
    TAKT_FREERTOS_SEMAPHORE,
    TAKT_FREERTOS_MUTEX,
    TAKT_FREERTOS_QUEUE_SET,
} TaktFreeRTOSQueueKind_t;

/* The Takt object first, so the member handle a Takt queue set returns is the
 * FreeRTOS handle. Fields belong to the layer; applications allocate
 * StaticQueue_t / StaticSemaphore_t for the *Static functions. */
struct QueueDefinition {
    union {
        takt_queue_t queue;
        takt_sem_t sem;
        takt_mutex_t mutex;
        takt_queue_set_t set;
    } object;
    uint8_t kind;    /* TaktFreeRTOSQueueKind_t */
    uint8_t dynamic; /* memory from pvPortMalloc, freed by vQueueDelete */
#if configUSE_TRACE_FACILITY
    UBaseType_t number; /* the application's (vQueueSetQueueNumber) */
    uint8_t type;       /* queueQUEUE_TYPE_* of a semaphore or mutex (0: a queue or set) */
#endif
};

typedef struct QueueDefinition *QueueHandle_t;
typedef struct QueueDefinition *QueueSetHandle_t;
typedef struct QueueDefinition *QueueSetMemberHandle_t;
typedef struct QueueDefinition StaticQueue_t;

#define queueSEND_TO_BACK ((BaseType_t)0)
#define queueSEND_TO_FRONT ((BaseType_t)1)
#define queueOVERWRITE ((BaseType_t)2)

#if configSUPPORT_DYNAMIC_ALLOCATION
QueueHandle_t xQueueCreate(UBaseType_t uxQueueLength, UBaseType_t uxItemSize);
#endif
#if configSUPPORT_STATIC_ALLOCATION
QueueHandle_t xQueueCreateStatic(UBaseType_t uxQueueLength, UBaseType_t uxItemSize, uint8_t *pucQueueStorage,
                                 StaticQueue_t *pxQueueBuffer);
#endif
void vQueueDelete(QueueHandle_t xQueue);

BaseType_t xQueueGenericSend(QueueHandle_t xQueue, const void *const pvItemToQueue, TickType_t xTicksToWait,
                             const BaseType_t xCopyPosition);
BaseType_t xQueueGenericSendFromISR(QueueHandle_t xQueue, const void *const pvItemToQueue,
                                    BaseType_t *const pxHigherPriorityTaskWoken, const BaseType_t xCopyPosition);
#define xQueueSend(xQueue, pvItemToQueue, xTicksToWait) \
    xQueueGenericSend((xQueue), (pvItemToQueue), (xTicksToWait), queueSEND_TO_BACK)
#define xQueueSendToBack(xQueue, pvItemToQueue, xTicksToWait) \
    xQueueGenericSend((xQueue), (pvItemToQueue), (xTicksToWait), queueSEND_TO_BACK)
#define xQueueSendToFront(xQueue, pvItemToQueue, xTicksToWait) \
    xQueueGenericSend((xQueue), (pvItemToQueue), (xTicksToWait), queueSEND_TO_FRONT)
#define xQueueOverwrite(xQueue, pvItemToQueue) xQueueGenericSend((xQueue), (pvItemToQueue), 0, queueOVERWRITE)
#define xQueueSendFromISR(xQueue, pvItemToQueue, pxHigherPriorityTaskWoken) \
    xQueueGenericSendFromISR((xQueue), (pvItemToQueue), (pxHigherPriorityTaskWoken), queueSEND_TO_BACK)
#define xQueueSendToBackFromISR(xQueue, pvItemToQueue, pxHigherPriorityTaskWoken) \
    xQueueGenericSendFromISR((xQueue), (pvItemToQueue), (pxHigherPriorityTaskWoken), queueSEND_TO_BACK)
#define xQueueSendToFrontFromISR(xQueue, pvItemToQueue, pxHigherPriorityTaskWoken) \
    xQueueGenericSendFromISR((xQueue), (pvItemToQueue), (pxHigherPriorityTaskWoken), queueSEND_TO_FRONT)
#define xQueueOverwriteFromISR(xQueue, pvItemToQueue, pxHigherPriorityTaskWoken) \
    xQueueGenericSendFromISR((xQueue), (pvItemToQueue), (pxHigherPriorityTaskWoken), queueOVERWRITE)

BaseType_t xQueueReceive(QueueHandle_t xQueue, void *const pvBuffer, TickType_t xTicksToWait);
BaseType_t xQueuePeek(QueueHandle_t xQueue, void *const pvBuffer, TickType_t xTicksToWait);
BaseType_t xQueueReceiveFromISR(QueueHandle_t xQueue, void *const pvBuffer, BaseType_t *const pxHigherPriorityTaskWoken);
BaseType_t xQueuePeekFromISR(QueueHandle_t xQueue, void *const pvBuffer);
BaseType_t xQueueGenericReset(QueueHandle_t xQueue, BaseType_t xNewQueue);
#define xQueueReset(xQueue) xQueueGenericReset((xQueue), pdFALSE)

UBaseType_t uxQueueMessagesWaiting(const QueueHandle_t xQueue);
UBaseType_t uxQueueMessagesWaitingFromISR(const QueueHandle_t xQueue);
UBaseType_t uxQueueSpacesAvailable(const QueueHandle_t xQueue);
BaseType_t xQueueIsQueueEmptyFromISR(const QueueHandle_t xQueue);
BaseType_t xQueueIsQueueFullFromISR(const QueueHandle_t xQueue);
/* The length it was created with (a semaphore's maximum count, a mutex's 1)
 * and its item size (0 for semaphores, mutexes and sets); 0 for a NULL handle. */
UBaseType_t uxQueueGetQueueLength(QueueHandle_t xQueue);
UBaseType_t uxQueueGetQueueItemSize(QueueHandle_t xQueue);
#if configSUPPORT_STATIC_ALLOCATION
/* pdTRUE, with the buffers it was created with, for a statically created queue
 * (*ppucQueueStorage: NULL for one of zero-size items); pdFALSE otherwise. */
BaseType_t xQueueGetStaticBuffers(QueueHandle_t xQueue, uint8_t **ppucQueueStorage, StaticQueue_t **ppxStaticQueue);
#endif

/* FreeRTOS's lower-level creation and semaphore calls, which its semphr.h
 * macros expand to and some code calls directly. ucQueueType is a
 * queueQUEUE_TYPE_*: xQueueGenericCreate makes a queue, or, for a semaphore
 * or mutex type with zero-size items, that object (a binary semaphore
 * empty, as xSemaphoreCreateBinary's). */
#if configSUPPORT_DYNAMIC_ALLOCATION
QueueHandle_t xQueueGenericCreate(const UBaseType_t uxQueueLength, const UBaseType_t uxItemSize, const uint8_t ucQueueType);
QueueHandle_t xQueueCreateCountingSemaphore(const UBaseType_t uxMaxCount, const UBaseType_t uxInitialCount);
#if configUSE_MUTEXES || configUSE_RECURSIVE_MUTEXES
QueueHandle_t xQueueCreateMutex(const uint8_t ucQueueType);
#endif
#endif
#if configSUPPORT_STATIC_ALLOCATION
QueueHandle_t xQueueCreateCountingSemaphoreStatic(const UBaseType_t uxMaxCount, const UBaseType_t uxInitialCount,
                                                  StaticQueue_t *pxStaticQueue);
#if configUSE_MUTEXES || configUSE_RECURSIVE_MUTEXES
QueueHandle_t xQueueCreateMutexStatic(const uint8_t ucQueueType, StaticQueue_t *pxStaticQueue);
#endif
#endif
BaseType_t xQueueSemaphoreTake(QueueHandle_t xQueue, TickType_t xTicksToWait);
BaseType_t xQueueGiveFromISR(QueueHandle_t xQueue, BaseType_t *const pxHigherPriorityTaskWoken);
#if configUSE_RECURSIVE_MUTEXES
BaseType_t xQueueTakeMutexRecursive(QueueHandle_t xMutex, TickType_t xTicksToWait);
BaseType_t xQueueGiveMutexRecursive(QueueHandle_t xMutex);
#endif

/* ---- the queue registry (configQUEUE_REGISTRY_SIZE > 0) ----
 * Names for queues, semaphores and mutexes, for debuggers and
 * pcQueueGetName: configQUEUE_REGISTRY_SIZE entries. The name is kept as a
 * pointer (it must outlive the entry). Adding a queue already registered
 * renames it; adding to a full registry (or a NULL name) does nothing;
 * vQueueDelete unregisters. With size 0 these do nothing and pcQueueGetName
 * returns NULL, as in FreeRTOS. Task or interrupt context. */
#if configQUEUE_REGISTRY_SIZE > 0
void vQueueAddToRegistry(QueueHandle_t xQueue, const char *pcQueueName);
void vQueueUnregisterQueue(QueueHandle_t xQueue);
/* The registered name; NULL if the queue is not in the registry. */
const char *pcQueueGetName(QueueHandle_t xQueue);
#else
#define vQueueAddToRegistry(xQueue, pcQueueName) ((void)(xQueue), (void)(pcQueueName))
#define vQueueUnregisterQueue(xQueue) ((void)(xQueue))
#define pcQueueGetName(xQueue) ((void)(xQueue), (const char *)NULL)
#endif

/* ---- trace facility (configUSE_TRACE_FACILITY) ---- */
#define queueQUEUE_TYPE_BASE ((uint8_t)0U)
#define queueQUEUE_TYPE_SET ((uint8_t)0U)
#define queueQUEUE_TYPE_MUTEX ((uint8_t)1U)
#define queueQUEUE_TYPE_COUNTING_SEMAPHORE ((uint8_t)2U)
#define queueQUEUE_TYPE_BINARY_SEMAPHORE ((uint8_t)3U)
#define queueQUEUE_TYPE_RECURSIVE_MUTEX ((uint8_t)4U)
/* The application's number for a queue (0 until set). */
TAKT_FREERTOS_TRACE_FACILITY
UBaseType_t uxQueueGetQueueNumber(QueueHandle_t xQueue);
TAKT_FREERTOS_TRACE_FACILITY
void vQueueSetQueueNumber(QueueHandle_t xQueue, UBaseType_t uxQueueNumber);
/* The queueQUEUE_TYPE_* the handle was created as. */
TAKT_FREERTOS_TRACE_FACILITY
uint8_t ucQueueGetQueueType(QueueHandle_t xQueue);

/* The task holding a mutex (semphr.h's xSemaphoreGetMutexHolder): NULL when
 * it is free or the handle is not a mutex. */
TaskHandle_t xQueueGetMutexHolder(QueueHandle_t xSemaphore);
TaskHandle_t xQueueGetMutexHolderFromISR(QueueHandle_t xSemaphore);

/* ---- queue sets (configUSE_QUEUE_SETS) ---- */
#if configUSE_QUEUE_SETS
#if configSUPPORT_DYNAMIC_ALLOCATION
QueueSetHandle_t xQueueCreateSet(const UBaseType_t uxEventQueueLength);
#endif
#if configSUPPORT_STATIC_ALLOCATION
/* pucQueueStorage holds uxEventQueueLength handles
 * (uxEventQueueLength * sizeof(QueueSetMemberHandle_t) bytes), aligned as a
 * pointer is: the set keeps them as pointers. NULL for storage that is
 * missing or not so aligned. */
QueueSetHandle_t xQueueCreateSetStatic(const UBaseType_t uxEventQueueLength, uint8_t *pucQueueStorage,
                                       StaticQueue_t *pxStaticQueue);
#endif
/* pdFAIL if the member is not empty or already in a set. */
BaseType_t xQueueAddToSet(QueueSetMemberHandle_t xQueueOrSemaphore, QueueSetHandle_t xQueueSet);
BaseType_t xQueueRemoveFromSet(QueueSetMemberHandle_t xQueueOrSemaphore, QueueSetHandle_t xQueueSet);
QueueSetMemberHandle_t xQueueSelectFromSet(QueueSetHandle_t xQueueSet, const TickType_t xTicksToWait);
QueueSetMemberHandle_t xQueueSelectFromSetFromISR(QueueSetHandle_t xQueueSet);
#endif

#endif
