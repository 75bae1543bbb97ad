/*
 * FreeRTOS queues, semaphores, mutexes and queue sets on Takt's (queue.h,
 * semphr.h). One handle type covers the four kinds; each call checks the
 * kind with configASSERT and forwards to the Takt object.
 */
#include <stddef.h>
#include <string.h>

#include "compat.h"
#include "queue.h"
#include "semphr.h"

static bool is_kind(const struct QueueDefinition *q, TaktFreeRTOSQueueKind_t kind)
{
    return q != NULL && q->kind == (uint8_t)kind;
}

/* A handle's Takt object, NULL for a NULL handle: every Takt call refuses
 * that (TAKT_ERR_ARG), so a NULL handle fails without configASSERT too. The
 * object is the handle's first member, so the test compiles away; written
 * out because &handle->object of a NULL handle is undefined. */
_Static_assert(offsetof(struct QueueDefinition, object) == 0, "the object first");

static inline takt_queue_t *queue_of(QueueHandle_t q)
{
    return q != NULL ? &q->object.queue : NULL;
}

static inline takt_sem_t *sem_of(QueueHandle_t q)
{
    return q != NULL ? &q->object.sem : NULL;
}

static inline takt_mutex_t *mutex_of(QueueHandle_t q)
{
    return q != NULL ? &q->object.mutex : NULL;
}

#if configUSE_QUEUE_SETS
static inline takt_queue_set_t *set_of(QueueSetHandle_t q)
{
    return q != NULL ? &q->object.set : NULL;
}
#endif

/* The item size the copying calls pass: any for a NULL queue, which the
 * kernel refuses before it looks at the size. */
static inline size_t item_size_of(const takt_queue_t *queue)
{
    return queue != NULL ? queue->item_size : 0;
}

/* A blocking call's Takt result as FreeRTOS's pdPASS / pdFAIL. Errors other
 * than "not in time" and "not now" are misuse (a deleted handle, a task's
 * call from an interrupt), asserted where the API function takes the result:
 * a macro, so that configASSERT's line names that function, as FreeRTOS's
 * own assertions do, rather than one line shared by every queue call. Without
 * configASSERT it compiles to what a function would. */
#define wait_result(call)                                                                          \
    __extension__({                                                                                \
        int wait_err_ = (call);                                                                    \
        configASSERT(wait_err_ == TAKT_OK || wait_err_ == TAKT_ERR_TIMEOUT ||                      \
                     wait_err_ == TAKT_ERR_STATE);                                                 \
        (BaseType_t)(wait_err_ == TAKT_OK ? pdPASS : pdFAIL);                                      \
    })

#if configSUPPORT_DYNAMIC_ALLOCATION
static struct QueueDefinition *object_alloc(size_t extra)
{
    compat_kernel_ready();
    struct QueueDefinition *q = pvPortMalloc(sizeof(*q) + extra);
    if (q != NULL) {
        /* Fresh memory holds no live object, but may hold an old one's bytes
         * where the kernel's create looks for a live magic. */
        memset(q, 0, sizeof(*q));
    }
    return q;
}
#endif

/* Finishes a create. The layer's fields are written only once the kernel
 * accepted the memory: a static buffer that still holds a live object (the
 * kernel's TAKT_ERR_STATE) keeps them, and so stays what it was. */
static QueueHandle_t object_made(struct QueueDefinition *q, int err, TaktFreeRTOSQueueKind_t kind, bool from_heap)
{
    if (err != TAKT_OK) {
        if (from_heap) {
            vPortFree(q);
        }
        return NULL;
    }
    q->kind = (uint8_t)kind;
    q->dynamic = from_heap ? 1u : 0u;
#if configUSE_TRACE_FACILITY
    q->number = 0;
    q->type = 0;
#endif
    return q;
}

#if configSUPPORT_STATIC_ALLOCATION
static QueueHandle_t static_object(struct QueueDefinition *buffer)
{
    configASSERT(buffer != NULL);
    if (buffer != NULL) {
        compat_kernel_ready();
    }
    return buffer;
}
#endif

/* A create's end: the object's FreeRTOS type (ucQueueGetQueueType) and the
 * create's trace macro, as FreeRTOS's xQueueGenericCreate and mutex and
 * counting-semaphore creators trace. */
static QueueHandle_t created(QueueHandle_t made, uint8_t type)
{
#if configUSE_TRACE_FACILITY
    if (made != NULL) {
        made->type = type;
    }
#endif
    if (type == queueQUEUE_TYPE_MUTEX || type == queueQUEUE_TYPE_RECURSIVE_MUTEX) {
        if (made != NULL) {
            traceCREATE_MUTEX(made);
        } else {
            traceCREATE_MUTEX_FAILED();
        }
    } else if (type == queueQUEUE_TYPE_COUNTING_SEMAPHORE) {
        if (made != NULL) {
            traceCREATE_COUNTING_SEMAPHORE();
        } else {
            traceCREATE_COUNTING_SEMAPHORE_FAILED();
        }
    } else if (made != NULL) {
        traceQUEUE_CREATE(made);
    } else {
        traceQUEUE_CREATE_FAILED(type);
    }
    return made;
}

/* A call's result with its trace macro (takt_freertos_trace.h): passed or
 * failed, as the call returns. Without the macros it is the result alone. */
#define traced(result, queue, passed, failed)                                                    \
    __extension__({                                                                              \
        BaseType_t traced_ = (result);                                                           \
        if (traced_ == pdPASS) {                                                                 \
            passed(queue);                                                                       \
        } else {                                                                                 \
            failed(queue);                                                                       \
        }                                                                                        \
        traced_;                                                                                 \
    })

/* ---- queues ---- */

#if configSUPPORT_DYNAMIC_ALLOCATION
TAKT_COLD QueueHandle_t xQueueCreate(UBaseType_t uxQueueLength, UBaseType_t uxItemSize)
{
    if (uxQueueLength == 0 || uxQueueLength > UINT32_MAX ||
        (uxItemSize != 0 && uxQueueLength > SIZE_MAX / uxItemSize)) {
        return created(NULL, queueQUEUE_TYPE_BASE);
    }
    size_t storage = TAKT_QUEUE_STORAGE_SIZE(uxQueueLength, uxItemSize);
    struct QueueDefinition *q = object_alloc(storage);
    if (q == NULL) {
        return created(NULL, queueQUEUE_TYPE_BASE);
    }
    int err = takt_queue_create_static(&q->object.queue, (uint32_t)uxQueueLength, uxItemSize,
                                       storage != 0 ? (void *)(q + 1) : NULL);
    return created(object_made(q, err, TAKT_FREERTOS_QUEUE, FROM_HEAP), queueQUEUE_TYPE_BASE);
}
#endif

#if configSUPPORT_STATIC_ALLOCATION
TAKT_COLD QueueHandle_t xQueueCreateStatic(UBaseType_t uxQueueLength, UBaseType_t uxItemSize, uint8_t *pucQueueStorage,
                                 StaticQueue_t *pxQueueBuffer)
{
    struct QueueDefinition *q = static_object(pxQueueBuffer);
    if (q == NULL) {
        return created(NULL, queueQUEUE_TYPE_BASE);
    }
    int err = uxQueueLength > UINT32_MAX /* a 64-bit host's: not cut to its low bits */
                  ? TAKT_ERR_ARG
                  : takt_queue_create_static(&q->object.queue, (uint32_t)uxQueueLength, uxItemSize, pucQueueStorage);
    return created(object_made(q, err, TAKT_FREERTOS_QUEUE, FROM_BUFFER), queueQUEUE_TYPE_BASE);
}
#endif

TAKT_COLD void vQueueDelete(QueueHandle_t xQueue)
{
    configASSERT(xQueue != NULL);
    if (xQueue == NULL) {
        return;
    }
    int err = TAKT_ERR_ARG;
    switch ((TaktFreeRTOSQueueKind_t)xQueue->kind) {
    case TAKT_FREERTOS_QUEUE:
        err = takt_queue_delete(&xQueue->object.queue);
        break;
    case TAKT_FREERTOS_SEMAPHORE:
        err = takt_sem_delete(&xQueue->object.sem);
        break;
    case TAKT_FREERTOS_MUTEX:
        err = takt_mutex_delete(&xQueue->object.mutex);
        break;
    case TAKT_FREERTOS_QUEUE_SET:
#if configUSE_QUEUE_SETS
        err = takt_queue_set_delete(&xQueue->object.set);
#endif
        break;
    }
    configASSERT(err == TAKT_OK); /* FreeRTOS: no task may wait on a deleted queue */
    if (err == TAKT_OK) {
        traceQUEUE_DELETE(xQueue);
    }
#if configQUEUE_REGISTRY_SIZE > 0
    if (err == TAKT_OK) {
        vQueueUnregisterQueue(xQueue);
    }
#endif
    if (err == TAKT_OK && xQueue->dynamic) {
        vPortFree(xQueue);
    }
}

/* xQueueGenericSend at a position other than xQueueSend's: out of line, so
 * that the usual send tests one value. Any position but front and overwrite
 * sends to the back. */
__attribute__((noinline)) static BaseType_t send_at(takt_queue_t *queue, const void *item,
                                                    TickType_t ticks, BaseType_t position)
{
    int err;
    if (position == queueOVERWRITE) {
        err = takt_queue_overwrite(queue, item, item_size_of(queue));
    } else if (position == queueSEND_TO_FRONT) {
        err = takt_queue_send_front(queue, item, item_size_of(queue), compat_timeout(ticks));
    } else {
        err = takt_queue_send_item(queue, item, compat_timeout(ticks));
    }
    return wait_result(err);
}

BaseType_t xQueueGenericSend(QueueHandle_t xQueue, const void *const pvItemToQueue, TickType_t xTicksToWait,
                             const BaseType_t xCopyPosition)
{
    configASSERT(is_kind(xQueue, TAKT_FREERTOS_QUEUE));
    takt_queue_t *queue = queue_of(xQueue);
    if (xCopyPosition != queueSEND_TO_BACK) {
        return traced(send_at(queue, pvItemToQueue, xTicksToWait, xCopyPosition), xQueue, traceQUEUE_SEND,
                      traceQUEUE_SEND_FAILED);
    }
    return traced(wait_result(takt_queue_send_item(queue, pvItemToQueue, compat_timeout(xTicksToWait))), xQueue,
                  traceQUEUE_SEND, traceQUEUE_SEND_FAILED);
}

BaseType_t xQueueGenericSendFromISR(QueueHandle_t xQueue, const void *const pvItemToQueue,
                                    BaseType_t *const pxHigherPriorityTaskWoken, const BaseType_t xCopyPosition)
{
    configASSERT(is_kind(xQueue, TAKT_FREERTOS_QUEUE));
    takt_queue_t *queue = queue_of(xQueue);
    size_t size = item_size_of(queue);
    bool woken = false;
    int err;
    if (xCopyPosition == queueOVERWRITE) {
        err = takt_queue_overwrite_from_isr(queue, pvItemToQueue, size, &woken);
    } else if (xCopyPosition == queueSEND_TO_FRONT) {
        err = takt_queue_send_front_from_isr(queue, pvItemToQueue, size, &woken);
    } else {
        err = takt_queue_send_from_isr(queue, pvItemToQueue, size, &woken);
    }
    compat_woken(woken, pxHigherPriorityTaskWoken);
    return traced(wait_result(err), xQueue, traceQUEUE_SEND_FROM_ISR, traceQUEUE_SEND_FROM_ISR_FAILED);
}

BaseType_t xQueueReceive(QueueHandle_t xQueue, void *const pvBuffer, TickType_t xTicksToWait)
{
    configASSERT(is_kind(xQueue, TAKT_FREERTOS_QUEUE));
    return traced(wait_result(takt_queue_receive_item(queue_of(xQueue), pvBuffer, compat_timeout(xTicksToWait))),
                  xQueue, traceQUEUE_RECEIVE, traceQUEUE_RECEIVE_FAILED);
}

BaseType_t xQueuePeek(QueueHandle_t xQueue, void *const pvBuffer, TickType_t xTicksToWait)
{
    configASSERT(is_kind(xQueue, TAKT_FREERTOS_QUEUE));
    takt_queue_t *queue = queue_of(xQueue);
    return traced(wait_result(takt_queue_peek(queue, pvBuffer, item_size_of(queue), compat_timeout(xTicksToWait))),
                  xQueue, traceQUEUE_PEEK, traceQUEUE_PEEK_FAILED);
}

BaseType_t xQueueReceiveFromISR(QueueHandle_t xQueue, void *const pvBuffer, BaseType_t *const pxHigherPriorityTaskWoken)
{
    configASSERT(is_kind(xQueue, TAKT_FREERTOS_QUEUE));
    takt_queue_t *queue = queue_of(xQueue);
    bool woken = false;
    int err = takt_queue_receive_from_isr(queue, pvBuffer, item_size_of(queue), &woken);
    compat_woken(woken, pxHigherPriorityTaskWoken);
    return traced(wait_result(err), xQueue, traceQUEUE_RECEIVE_FROM_ISR, traceQUEUE_RECEIVE_FROM_ISR_FAILED);
}

BaseType_t xQueuePeekFromISR(QueueHandle_t xQueue, void *const pvBuffer)
{
    configASSERT(is_kind(xQueue, TAKT_FREERTOS_QUEUE));
    takt_queue_t *queue = queue_of(xQueue);
    return traced(wait_result(takt_queue_peek_from_isr(queue, pvBuffer, item_size_of(queue))), xQueue,
                  traceQUEUE_PEEK_FROM_ISR, traceQUEUE_PEEK_FROM_ISR_FAILED);
}

BaseType_t xQueueGenericReset(QueueHandle_t xQueue, BaseType_t xNewQueue)
{
    (void)xNewQueue;
    configASSERT(is_kind(xQueue, TAKT_FREERTOS_QUEUE));
    int err = takt_queue_reset(queue_of(xQueue));
    configASSERT(err == TAKT_OK);
    return err == TAKT_OK ? pdPASS : pdFAIL;
}

/* Items in a queue, or the count of a semaphore (FreeRTOS keeps both as items). */
static UBaseType_t items_waiting(const struct QueueDefinition *q)
{
    configASSERT(q != NULL);
    if (q == NULL) {
        return 0;
    }
    int n = 0;
    switch ((TaktFreeRTOSQueueKind_t)q->kind) {
    case TAKT_FREERTOS_QUEUE:
        n = takt_queue_count(&q->object.queue);
        break;
    case TAKT_FREERTOS_SEMAPHORE:
        n = takt_sem_count(&q->object.sem);
        break;
    case TAKT_FREERTOS_MUTEX:
        n = takt_mutex_holder(&q->object.mutex) == NULL ? 1 : 0;
        break;
    case TAKT_FREERTOS_QUEUE_SET:
        n = (int)q->object.set.count;
        break;
    }
    return n > 0 ? (UBaseType_t)n : 0u;
}

UBaseType_t uxQueueMessagesWaiting(const QueueHandle_t xQueue)
{
    return items_waiting(xQueue);
}

UBaseType_t uxQueueMessagesWaitingFromISR(const QueueHandle_t xQueue)
{
    return items_waiting(xQueue);
}

UBaseType_t uxQueueSpacesAvailable(const QueueHandle_t xQueue)
{
    configASSERT(is_kind(xQueue, TAKT_FREERTOS_QUEUE));
    int n = takt_queue_spaces(queue_of(xQueue));
    return n > 0 ? (UBaseType_t)n : 0u;
}

BaseType_t xQueueIsQueueEmptyFromISR(const QueueHandle_t xQueue)
{
    return items_waiting(xQueue) == 0 ? pdTRUE : pdFALSE;
}

BaseType_t xQueueIsQueueFullFromISR(const QueueHandle_t xQueue)
{
    /* A NULL handle has no spaces, but is not a full queue either. */
    configASSERT(xQueue != NULL);
    return xQueue != NULL && uxQueueSpacesAvailable(xQueue) == 0 ? pdTRUE : pdFALSE;
}

/* ---- semaphores and mutexes ---- */


static QueueHandle_t make_sem(struct QueueDefinition *q, UBaseType_t max, UBaseType_t initial, bool from_heap)
{
    if (q == NULL) {
        return NULL;
    }
    /* Counts past 32 bits (a 64-bit host's UBaseType_t) refused here, not cut to
     * their low bits; the kernel checks the rest. */
    int err = max > UINT32_MAX || initial > UINT32_MAX
                  ? TAKT_ERR_ARG
                  : takt_sem_create_static(&q->object.sem, (uint32_t)max, (uint32_t)initial);
    configASSERT(err == TAKT_OK); /* FreeRTOS asserts on max 0 or initial > max */
    return object_made(q, err, TAKT_FREERTOS_SEMAPHORE, from_heap);
}

static QueueHandle_t make_mutex(struct QueueDefinition *q, unsigned flags, bool from_heap)
{
    if (q == NULL) {
        return NULL;
    }
    return object_made(q, takt_mutex_create_static(&q->object.mutex, flags), TAKT_FREERTOS_MUTEX, from_heap);
}

#if configSUPPORT_DYNAMIC_ALLOCATION
TAKT_COLD SemaphoreHandle_t xSemaphoreCreateBinary(void)
{
    return created(make_sem(object_alloc(0), 1, 0, FROM_HEAP), queueQUEUE_TYPE_BINARY_SEMAPHORE);
}

TAKT_COLD SemaphoreHandle_t xSemaphoreCreateCounting(UBaseType_t uxMaxCount, UBaseType_t uxInitialCount)
{
    return created(make_sem(object_alloc(0), uxMaxCount, uxInitialCount, FROM_HEAP), queueQUEUE_TYPE_COUNTING_SEMAPHORE);
}
#if configUSE_MUTEXES
TAKT_COLD SemaphoreHandle_t xSemaphoreCreateMutex(void)
{
    return created(make_mutex(object_alloc(0), 0, FROM_HEAP), queueQUEUE_TYPE_MUTEX);
}
#endif
#if configUSE_RECURSIVE_MUTEXES
TAKT_COLD SemaphoreHandle_t xSemaphoreCreateRecursiveMutex(void)
{
    return created(make_mutex(object_alloc(0), TAKT_MUTEX_RECURSIVE, FROM_HEAP), queueQUEUE_TYPE_RECURSIVE_MUTEX);
}
#endif
#endif

#if configSUPPORT_STATIC_ALLOCATION
TAKT_COLD SemaphoreHandle_t xSemaphoreCreateBinaryStatic(StaticSemaphore_t *pxSemaphoreBuffer)
{
    return created(make_sem(static_object(pxSemaphoreBuffer), 1, 0, FROM_BUFFER), queueQUEUE_TYPE_BINARY_SEMAPHORE);
}

TAKT_COLD SemaphoreHandle_t xSemaphoreCreateCountingStatic(UBaseType_t uxMaxCount, UBaseType_t uxInitialCount,
                                                 StaticSemaphore_t *pxSemaphoreBuffer)
{
    return created(make_sem(static_object(pxSemaphoreBuffer), uxMaxCount, uxInitialCount, FROM_BUFFER),
                 queueQUEUE_TYPE_COUNTING_SEMAPHORE);
}
#if configUSE_MUTEXES
TAKT_COLD SemaphoreHandle_t xSemaphoreCreateMutexStatic(StaticSemaphore_t *pxMutexBuffer)
{
    return created(make_mutex(static_object(pxMutexBuffer), 0, FROM_BUFFER), queueQUEUE_TYPE_MUTEX);
}
#endif
#if configUSE_RECURSIVE_MUTEXES
TAKT_COLD SemaphoreHandle_t xSemaphoreCreateRecursiveMutexStatic(StaticSemaphore_t *pxMutexBuffer)
{
    return created(make_mutex(static_object(pxMutexBuffer), TAKT_MUTEX_RECURSIVE, FROM_BUFFER), queueQUEUE_TYPE_RECURSIVE_MUTEX);
}
#endif
#endif

/* Take and give: a NULL handle goes to the semaphore's call, which refuses
 * it, as a separate case: tested with the kind, GCC kept the handle in a
 * second register for both calls (two moves on every take and give). */
BaseType_t xSemaphoreTake(SemaphoreHandle_t xSemaphore, TickType_t xBlockTime)
{
    if (xSemaphore == NULL) {
        return wait_result(takt_sem_take(NULL, compat_timeout(xBlockTime)));
    }
    if (xSemaphore->kind == (uint8_t)TAKT_FREERTOS_MUTEX) {
        return traced(wait_result(takt_mutex_lock(&xSemaphore->object.mutex, compat_timeout(xBlockTime))),
                      xSemaphore, traceQUEUE_RECEIVE, traceQUEUE_RECEIVE_FAILED);
    }
    configASSERT(is_kind(xSemaphore, TAKT_FREERTOS_SEMAPHORE));
    return traced(wait_result(takt_sem_take(&xSemaphore->object.sem, compat_timeout(xBlockTime))), xSemaphore,
                  traceQUEUE_RECEIVE, traceQUEUE_RECEIVE_FAILED);
}

BaseType_t xSemaphoreGive(SemaphoreHandle_t xSemaphore)
{
    if (xSemaphore == NULL) {
        return wait_result(takt_sem_give(NULL));
    }
    if (xSemaphore->kind == (uint8_t)TAKT_FREERTOS_MUTEX) {
        return traced(wait_result(takt_mutex_unlock(&xSemaphore->object.mutex)), xSemaphore, traceQUEUE_SEND,
                      traceQUEUE_SEND_FAILED);
    }
    configASSERT(is_kind(xSemaphore, TAKT_FREERTOS_SEMAPHORE));
    return traced(wait_result(takt_sem_give(&xSemaphore->object.sem)), xSemaphore, traceQUEUE_SEND,
                  traceQUEUE_SEND_FAILED);
}

BaseType_t xSemaphoreTakeFromISR(SemaphoreHandle_t xSemaphore, BaseType_t *pxHigherPriorityTaskWoken)
{
    configASSERT(is_kind(xSemaphore, TAKT_FREERTOS_SEMAPHORE)); /* never a mutex from an ISR */
    bool woken = false;
    int err = takt_sem_take_from_isr(sem_of(xSemaphore), &woken);
    compat_woken(woken, pxHigherPriorityTaskWoken);
    return traced(wait_result(err), xSemaphore, traceQUEUE_RECEIVE_FROM_ISR, traceQUEUE_RECEIVE_FROM_ISR_FAILED);
}

BaseType_t xSemaphoreGiveFromISR(SemaphoreHandle_t xSemaphore, BaseType_t *pxHigherPriorityTaskWoken)
{
    _Static_assert(_Generic(pxHigherPriorityTaskWoken, long *: 1, default: 0),
                   "the kernel sets the flag as a long");
    configASSERT(is_kind(xSemaphore, TAKT_FREERTOS_SEMAPHORE));
    return traced(wait_result(takt_sem_give_from_isr_flag(sem_of(xSemaphore), pxHigherPriorityTaskWoken)),
                  xSemaphore, traceQUEUE_SEND_FROM_ISR, traceQUEUE_SEND_FROM_ISR_FAILED);
}

#if configUSE_RECURSIVE_MUTEXES
BaseType_t xSemaphoreTakeRecursive(SemaphoreHandle_t xMutex, TickType_t xBlockTime)
{
    configASSERT(is_kind(xMutex, TAKT_FREERTOS_MUTEX));
    return traced(wait_result(takt_mutex_lock(mutex_of(xMutex), compat_timeout(xBlockTime))), xMutex,
                  traceTAKE_MUTEX_RECURSIVE, traceTAKE_MUTEX_RECURSIVE_FAILED);
}

BaseType_t xSemaphoreGiveRecursive(SemaphoreHandle_t xMutex)
{
    configASSERT(is_kind(xMutex, TAKT_FREERTOS_MUTEX));
    return traced(wait_result(takt_mutex_unlock(mutex_of(xMutex))), xMutex, traceGIVE_MUTEX_RECURSIVE,
                  traceGIVE_MUTEX_RECURSIVE_FAILED);
}
#endif

UBaseType_t uxSemaphoreGetCount(SemaphoreHandle_t xSemaphore)
{
    return items_waiting(xSemaphore);
}

UBaseType_t uxSemaphoreGetCountFromISR(SemaphoreHandle_t xSemaphore)
{
    return items_waiting(xSemaphore);
}

TaskHandle_t xQueueGetMutexHolder(QueueHandle_t xSemaphore)
{
    return is_kind(xSemaphore, TAKT_FREERTOS_MUTEX) ? takt_mutex_holder(&xSemaphore->object.mutex) : NULL;
}

TaskHandle_t xQueueGetMutexHolderFromISR(QueueHandle_t xSemaphore)
{
    return xQueueGetMutexHolder(xSemaphore);
}

TaskHandle_t xSemaphoreGetMutexHolder(SemaphoreHandle_t xSemaphore)
{
    return xQueueGetMutexHolder(xSemaphore);
}

TaskHandle_t xSemaphoreGetMutexHolderFromISR(SemaphoreHandle_t xSemaphore)
{
    return xQueueGetMutexHolder(xSemaphore);
}

/* ---- queue sets ---- */

#if configUSE_QUEUE_SETS
#if configSUPPORT_DYNAMIC_ALLOCATION
TAKT_COLD QueueSetHandle_t xQueueCreateSet(const UBaseType_t uxEventQueueLength)
{
    if (uxEventQueueLength == 0 || uxEventQueueLength > UINT32_MAX / sizeof(void *)) {
        return created(NULL, queueQUEUE_TYPE_SET);
    }
    struct QueueDefinition *q = object_alloc((size_t)uxEventQueueLength * sizeof(void *));
    if (q == NULL) {
        return created(NULL, queueQUEUE_TYPE_SET);
    }
    int err = takt_queue_set_create_static(&q->object.set, (uint32_t)uxEventQueueLength, (void **)(q + 1));
    return created(object_made(q, err, TAKT_FREERTOS_QUEUE_SET, FROM_HEAP), queueQUEUE_TYPE_SET);
}
#endif

#if configSUPPORT_STATIC_ALLOCATION
TAKT_COLD QueueSetHandle_t xQueueCreateSetStatic(const UBaseType_t uxEventQueueLength, uint8_t *pucQueueStorage,
                                                 StaticQueue_t *pxStaticQueue)
{
    configASSERT(pucQueueStorage != NULL);
    if (pucQueueStorage == NULL || (uintptr_t)pucQueueStorage % _Alignof(void *) != 0 ||
        uxEventQueueLength != (uint32_t)uxEventQueueLength) {
        return created(NULL, queueQUEUE_TYPE_SET);
    }
    struct QueueDefinition *q = static_object(pxStaticQueue);
    if (q == NULL) {
        return created(NULL, queueQUEUE_TYPE_SET);
    }
    int err = takt_queue_set_create_static(&q->object.set, (uint32_t)uxEventQueueLength, (void **)(void *)pucQueueStorage);
    return created(object_made(q, err, TAKT_FREERTOS_QUEUE_SET, FROM_BUFFER), queueQUEUE_TYPE_SET);
}
#endif

BaseType_t xQueueAddToSet(QueueSetMemberHandle_t xQueueOrSemaphore, QueueSetHandle_t xQueueSet)
{
    configASSERT(is_kind(xQueueSet, TAKT_FREERTOS_QUEUE_SET) && xQueueOrSemaphore != NULL);
    int err = TAKT_ERR_ARG;
    if (is_kind(xQueueOrSemaphore, TAKT_FREERTOS_QUEUE)) {
        err = takt_queue_set_add_queue(set_of(xQueueSet), &xQueueOrSemaphore->object.queue);
    } else if (is_kind(xQueueOrSemaphore, TAKT_FREERTOS_SEMAPHORE)) {
        err = takt_queue_set_add_sem(set_of(xQueueSet), &xQueueOrSemaphore->object.sem);
    }
    return err == TAKT_OK ? pdPASS : pdFAIL;
}

BaseType_t xQueueRemoveFromSet(QueueSetMemberHandle_t xQueueOrSemaphore, QueueSetHandle_t xQueueSet)
{
    configASSERT(is_kind(xQueueSet, TAKT_FREERTOS_QUEUE_SET) && xQueueOrSemaphore != NULL);
    int err = TAKT_ERR_ARG;
    if (is_kind(xQueueOrSemaphore, TAKT_FREERTOS_QUEUE)) {
        err = takt_queue_set_remove_queue(set_of(xQueueSet), &xQueueOrSemaphore->object.queue);
    } else if (is_kind(xQueueOrSemaphore, TAKT_FREERTOS_SEMAPHORE)) {
        err = takt_queue_set_remove_sem(set_of(xQueueSet), &xQueueOrSemaphore->object.sem);
    }
    return err == TAKT_OK ? pdPASS : pdFAIL;
}

/* The Takt set hands back the member's Takt object, which is the first field
 * of its FreeRTOS handle. */
QueueSetMemberHandle_t xQueueSelectFromSet(QueueSetHandle_t xQueueSet, const TickType_t xTicksToWait)
{
    configASSERT(is_kind(xQueueSet, TAKT_FREERTOS_QUEUE_SET));
    void *member = NULL;
    int err = takt_queue_set_select(set_of(xQueueSet), &member, compat_timeout(xTicksToWait));
    configASSERT(err == TAKT_OK || err == TAKT_ERR_TIMEOUT);
    return err == TAKT_OK ? (QueueSetMemberHandle_t)member : NULL;
}

QueueSetMemberHandle_t xQueueSelectFromSetFromISR(QueueSetHandle_t xQueueSet)
{
    configASSERT(is_kind(xQueueSet, TAKT_FREERTOS_QUEUE_SET));
    void *member = NULL;
    int err = takt_queue_set_select_from_isr(set_of(xQueueSet), &member);
    return err == TAKT_OK ? (QueueSetMemberHandle_t)member : NULL;
}
#endif

/* ---- sizes, static buffers and FreeRTOS's lower-level calls ---- */

UBaseType_t uxQueueGetQueueLength(QueueHandle_t xQueue)
{
    configASSERT(xQueue != NULL);
    if (xQueue == NULL) {
        return 0;
    }
    switch ((TaktFreeRTOSQueueKind_t)xQueue->kind) {
    case TAKT_FREERTOS_QUEUE:
        return xQueue->object.queue.length;
    case TAKT_FREERTOS_SEMAPHORE:
        return xQueue->object.sem.max;
    case TAKT_FREERTOS_MUTEX:
        return 1;
    case TAKT_FREERTOS_QUEUE_SET:
    default:
#if configUSE_QUEUE_SETS
        return xQueue->object.set.capacity;
#else
        return 0;
#endif
    }
}

UBaseType_t uxQueueGetQueueItemSize(QueueHandle_t xQueue)
{
    configASSERT(xQueue != NULL);
    return is_kind(xQueue, TAKT_FREERTOS_QUEUE) ? xQueue->object.queue.item_size : 0;
}

#if configSUPPORT_STATIC_ALLOCATION
BaseType_t xQueueGetStaticBuffers(QueueHandle_t xQueue, uint8_t **ppucQueueStorage, StaticQueue_t **ppxStaticQueue)
{
    configASSERT(xQueue != NULL && ppxStaticQueue != NULL);
    if (xQueue == NULL || ppxStaticQueue == NULL || xQueue->dynamic) {
        return pdFALSE;
    }
    if (ppucQueueStorage != NULL) {
        *ppucQueueStorage = is_kind(xQueue, TAKT_FREERTOS_QUEUE) ? xQueue->object.queue.storage : NULL;
    }
    *ppxStaticQueue = xQueue;
    return pdTRUE;
}
#endif

#if configSUPPORT_DYNAMIC_ALLOCATION
TAKT_COLD QueueHandle_t xQueueGenericCreate(const UBaseType_t uxQueueLength, const UBaseType_t uxItemSize,
                                            const uint8_t ucQueueType)
{
    if (uxItemSize == 0 && ucQueueType == queueQUEUE_TYPE_BINARY_SEMAPHORE) {
        return xSemaphoreCreateBinary();
    }
    if (uxItemSize == 0 && ucQueueType == queueQUEUE_TYPE_COUNTING_SEMAPHORE) {
        return xSemaphoreCreateCounting(uxQueueLength, 0);
    }
#if configUSE_MUTEXES || configUSE_RECURSIVE_MUTEXES
    if (uxItemSize == 0 && (ucQueueType == queueQUEUE_TYPE_MUTEX || ucQueueType == queueQUEUE_TYPE_RECURSIVE_MUTEX)) {
        return xQueueCreateMutex(ucQueueType);
    }
#endif
    return xQueueCreate(uxQueueLength, uxItemSize);
}

TAKT_COLD QueueHandle_t xQueueCreateCountingSemaphore(const UBaseType_t uxMaxCount, const UBaseType_t uxInitialCount)
{
    return xSemaphoreCreateCounting(uxMaxCount, uxInitialCount);
}
#endif

#if configSUPPORT_STATIC_ALLOCATION
TAKT_COLD QueueHandle_t xQueueCreateCountingSemaphoreStatic(const UBaseType_t uxMaxCount,
                                                            const UBaseType_t uxInitialCount,
                                                            StaticQueue_t *pxStaticQueue)
{
    return xSemaphoreCreateCountingStatic(uxMaxCount, uxInitialCount, pxStaticQueue);
}
#endif

#if configUSE_MUTEXES || configUSE_RECURSIVE_MUTEXES
/* The flags of a mutex of FreeRTOS type ucQueueType; -1 for another type. */
static int mutex_flags(uint8_t ucQueueType)
{
    if (ucQueueType == queueQUEUE_TYPE_MUTEX && configUSE_MUTEXES) {
        return 0;
    }
    if (ucQueueType == queueQUEUE_TYPE_RECURSIVE_MUTEX && configUSE_RECURSIVE_MUTEXES) {
        return TAKT_MUTEX_RECURSIVE;
    }
    return -1;
}

#if configSUPPORT_DYNAMIC_ALLOCATION
TAKT_COLD QueueHandle_t xQueueCreateMutex(const uint8_t ucQueueType)
{
    int flags = mutex_flags(ucQueueType);
    configASSERT(flags >= 0 && "xQueueCreateMutex: queueQUEUE_TYPE_MUTEX or _RECURSIVE_MUTEX (with its option)");
    return flags < 0 ? NULL : created(make_mutex(object_alloc(0), (unsigned)flags, FROM_HEAP), ucQueueType);
}
#endif

#if configSUPPORT_STATIC_ALLOCATION
TAKT_COLD QueueHandle_t xQueueCreateMutexStatic(const uint8_t ucQueueType, StaticQueue_t *pxStaticQueue)
{
    int flags = mutex_flags(ucQueueType);
    configASSERT(flags >= 0 && "xQueueCreateMutexStatic: queueQUEUE_TYPE_MUTEX or _RECURSIVE_MUTEX (with its option)");
    return flags < 0 ? NULL : created(make_mutex(static_object(pxStaticQueue), (unsigned)flags, FROM_BUFFER), ucQueueType);
}
#endif
#endif

BaseType_t xQueueSemaphoreTake(QueueHandle_t xQueue, TickType_t xTicksToWait)
{
    return xSemaphoreTake(xQueue, xTicksToWait);
}

BaseType_t xQueueGiveFromISR(QueueHandle_t xQueue, BaseType_t *const pxHigherPriorityTaskWoken)
{
    return xSemaphoreGiveFromISR(xQueue, pxHigherPriorityTaskWoken);
}

#if configUSE_RECURSIVE_MUTEXES
BaseType_t xQueueTakeMutexRecursive(QueueHandle_t xMutex, TickType_t xTicksToWait)
{
    return xSemaphoreTakeRecursive(xMutex, xTicksToWait);
}

BaseType_t xQueueGiveMutexRecursive(QueueHandle_t xMutex)
{
    return xSemaphoreGiveRecursive(xMutex);
}
#endif
