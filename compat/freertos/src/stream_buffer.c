/*
 * FreeRTOS stream and message buffers on Takt's streams (stream_buffer.h,
 * message_buffer.h). A file of its own: only applications that use them
 * link it. Misuse FreeRTOS asserts on (a NULL handle or data pointer, a
 * task-context call from an interrupt) trips configASSERT; every other
 * refusal is FreeRTOS's own answer (0 bytes, NULL, pdFAIL).
 *
 * Completions: FreeRTOS calls sbSEND_COMPLETED (sbRECEIVE_COMPLETED) after a
 * send (receive) to wake the task waiting on the other side, and lets the
 * application replace it, globally by defining the macro or per buffer by a
 * callback. Takt's kernel wakes that task itself, so where the application
 * replaces the completion the layer asks the kernel to leave the wake to it
 * (takt_stream_configure) and calls the replacement where FreeRTOS does;
 * xStreamBufferSendCompletedFromISR is the kernel's deferred wake.
 */
#include <string.h>

#include "compat.h"
#include "stream_buffer.h"

_Static_assert(sizeof(configMESSAGE_BUFFER_LENGTH_TYPE) == 1 || sizeof(configMESSAGE_BUFFER_LENGTH_TYPE) == 2 ||
                   sizeof(configMESSAGE_BUFFER_LENGTH_TYPE) == 4 || sizeof(configMESSAGE_BUFFER_LENGTH_TYPE) == 8,
               "configMESSAGE_BUFFER_LENGTH_TYPE must be 1, 2, 4 or 8 bytes wide");

static takt_stream_t *stream_of(StreamBufferHandle_t handle)
{
    configASSERT(handle != NULL);
    return handle == NULL ? NULL : &handle->stream;
}

/* The kernel's length word for a FreeRTOS buffer type; -1 for any other. */
static int length_bytes(BaseType_t type)
{
    if (type == sbTYPE_STREAM_BUFFER || type == sbTYPE_STREAM_BATCHING_BUFFER) {
        return 0;
    }
    return type == sbTYPE_MESSAGE_BUFFER ? (int)sizeof(configMESSAGE_BUFFER_LENGTH_TYPE) : -1;
}

/* The kernel options of a new buffer: batching, and the wakes that the
 * application's completions take over (a buffer's callback in every context,
 * else the macros FreeRTOSConfig.h defines, each in its own context). */
static unsigned kernel_options(BaseType_t type, bool send_callback, bool receive_callback)
{
    unsigned options = type == sbTYPE_STREAM_BATCHING_BUFFER ? TAKT_STREAM_BATCHING : 0u;
    if (send_callback) {
        options |= TAKT_STREAM_DEFER_RECEIVERS_TASK | TAKT_STREAM_DEFER_RECEIVERS_ISR;
    } else {
#ifdef sbSEND_COMPLETED
        options |= TAKT_STREAM_DEFER_RECEIVERS_TASK;
#endif
#ifdef sbSEND_COMPLETE_FROM_ISR
        options |= TAKT_STREAM_DEFER_RECEIVERS_ISR;
#endif
    }
    if (receive_callback) {
        options |= TAKT_STREAM_DEFER_SENDERS_TASK | TAKT_STREAM_DEFER_SENDERS_ISR;
    } else {
#ifdef sbRECEIVE_COMPLETED
        options |= TAKT_STREAM_DEFER_SENDERS_TASK;
#endif
#ifdef sbRECEIVE_COMPLETED_FROM_ISR
        options |= TAKT_STREAM_DEFER_SENDERS_ISR;
#endif
    }
    return options;
}

/* Makes handle a buffer in storage; false (nothing to undo) if the kernel
 * refuses the size, the trigger level or the memory (a static buffer that
 * still holds a live object). The layer's fields are written only once the
 * kernel accepted, so a refused buffer keeps them. The callbacks are NULL
 * unless configUSE_SB_COMPLETED_CALLBACK. */
static bool buffer_setup(StreamBufferHandle_t handle, size_t size, size_t trigger, BaseType_t type, void *storage,
                         StreamBufferCallbackFunction_t send_callback,
                         StreamBufferCallbackFunction_t receive_callback, bool from_heap)
{
    if (takt_stream_create_static(&handle->stream, size, trigger, (unsigned)length_bytes(type), storage) != TAKT_OK) {
        return false;
    }
    handle->dynamic = from_heap ? 1u : 0u;
    handle->notification_index = 0;
#if configUSE_SB_COMPLETED_CALLBACK
    handle->send_completed = send_callback;
    handle->receive_completed = receive_callback;
#endif
    unsigned options = kernel_options(type, send_callback != NULL, receive_callback != NULL);
    if (options != 0) {
        int err = takt_stream_configure(&handle->stream, options); /* new: nobody waits */
        configASSERT(err == TAKT_OK);
        (void)err;
    }
    return true;
}

/* FreeRTOS's completions after a transfer that moved bytes: the buffer's
 * callback, else the application's macro; without either, nothing (the
 * kernel woke the other side). FreeRTOS calls the send completion only when
 * the buffer holds what ends a reader's wait. */
static void send_completed(StreamBufferHandle_t handle, BaseType_t *pxHigherPriorityTaskWoken, bool in_isr)
{
    (void)handle;
    (void)pxHigherPriorityTaskWoken;
    (void)in_isr;
#if configUSE_SB_COMPLETED_CALLBACK
    if (handle->send_completed != NULL) {
        if (takt_stream_receiver_servable(&handle->stream)) {
            handle->send_completed(handle, in_isr ? pdTRUE : pdFALSE, in_isr ? pxHigherPriorityTaskWoken : NULL);
        }
        return;
    }
#endif
#ifdef sbSEND_COMPLETED
    if (!in_isr && takt_stream_receiver_servable(&handle->stream)) {
        sbSEND_COMPLETED(handle);
    }
#endif
#ifdef sbSEND_COMPLETE_FROM_ISR
    if (in_isr && takt_stream_receiver_servable(&handle->stream)) {
        sbSEND_COMPLETE_FROM_ISR(handle, pxHigherPriorityTaskWoken);
    }
#endif
}

static void receive_completed(StreamBufferHandle_t handle, BaseType_t *pxHigherPriorityTaskWoken, bool in_isr)
{
    (void)handle;
    (void)pxHigherPriorityTaskWoken;
    (void)in_isr;
#if configUSE_SB_COMPLETED_CALLBACK
    if (handle->receive_completed != NULL) {
        handle->receive_completed(handle, in_isr ? pdTRUE : pdFALSE, in_isr ? pxHigherPriorityTaskWoken : NULL);
        return;
    }
#endif
#ifdef sbRECEIVE_COMPLETED
    if (!in_isr) {
        sbRECEIVE_COMPLETED(handle);
    }
#endif
#ifdef sbRECEIVE_COMPLETED_FROM_ISR
    if (in_isr) {
        sbRECEIVE_COMPLETED_FROM_ISR(handle, pxHigherPriorityTaskWoken);
    }
#endif
}

/* The completion callbacks a creation call may pass. */
static bool callbacks_allowed(StreamBufferCallbackFunction_t send, StreamBufferCallbackFunction_t receive)
{
#if configUSE_SB_COMPLETED_CALLBACK
    (void)send;
    (void)receive;
    return true;
#else
    configASSERT(send == NULL && receive == NULL); /* they need configUSE_SB_COMPLETED_CALLBACK */
    return send == NULL && receive == NULL;
#endif
}

/* A byte count from the kernel: an error moves nothing. Being called from
 * the wrong context is misuse; other refusals (a message that can never fit,
 * a deleted handle) are FreeRTOS's 0. */
#define moved(call)                                                                               \
    __extension__({                                                                               \
        int moved_ = (call);                                                                      \
        configASSERT(moved_ != TAKT_ERR_CONTEXT);                                                 \
        (size_t)(moved_ > 0 ? (size_t)moved_ : 0u);                                               \
    })

/* A dynamic create's end, traced. */
static StreamBufferHandle_t created(StreamBufferHandle_t handle, BaseType_t type)
{
    if (handle != NULL) {
        traceSTREAM_BUFFER_CREATE(handle, type);
    } else {
        traceSTREAM_BUFFER_CREATE_FAILED(type);
    }
    (void)type;
    return handle;
}

#if configSUPPORT_DYNAMIC_ALLOCATION
TAKT_COLD StreamBufferHandle_t xStreamBufferGenericCreate(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
                                                          BaseType_t xStreamBufferType,
                                                          StreamBufferCallbackFunction_t pxSendCompletedCallback,
                                                          StreamBufferCallbackFunction_t pxReceiveCompletedCallback)
{
    if (!callbacks_allowed(pxSendCompletedCallback, pxReceiveCompletedCallback) ||
        length_bytes(xStreamBufferType) < 0 || xBufferSizeBytes == 0 || xBufferSizeBytes > TAKT_STREAM_MAX_SIZE) {
        return created(NULL, xStreamBufferType);
    }
    compat_kernel_ready();
    struct StreamBufferDef_t *handle = pvPortMalloc(sizeof(*handle) + xBufferSizeBytes);
    if (handle == NULL) {
        return created(NULL, xStreamBufferType);
    }
    memset(handle, 0, sizeof(*handle)); /* no old object's magic where the kernel looks for a live one */
    if (!buffer_setup(handle, xBufferSizeBytes, xTriggerLevelBytes, xStreamBufferType, handle + 1,
                      pxSendCompletedCallback, pxReceiveCompletedCallback, FROM_HEAP)) {
        vPortFree(handle);
        return created(NULL, xStreamBufferType);
    }
    return created(handle, xStreamBufferType);
}
#endif

#if configSUPPORT_STATIC_ALLOCATION
TAKT_COLD StreamBufferHandle_t xStreamBufferGenericCreateStatic(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
                                                                BaseType_t xStreamBufferType,
                                                                uint8_t *const pucStreamBufferStorageArea,
                                                                StaticStreamBuffer_t *const pxStaticStreamBuffer,
                                                                StreamBufferCallbackFunction_t pxSendCompletedCallback,
                                                                StreamBufferCallbackFunction_t pxReceiveCompletedCallback)
{
    configASSERT(pucStreamBufferStorageArea != NULL && pxStaticStreamBuffer != NULL);
    if (!callbacks_allowed(pxSendCompletedCallback, pxReceiveCompletedCallback) ||
        length_bytes(xStreamBufferType) < 0 || pucStreamBufferStorageArea == NULL || pxStaticStreamBuffer == NULL) {
        traceSTREAM_BUFFER_CREATE_STATIC_FAILED((StreamBufferHandle_t)NULL, xStreamBufferType);
        return NULL;
    }
    compat_kernel_ready();
    if (!buffer_setup(pxStaticStreamBuffer, xBufferSizeBytes, xTriggerLevelBytes, xStreamBufferType,
                      pucStreamBufferStorageArea, pxSendCompletedCallback, pxReceiveCompletedCallback, FROM_BUFFER)) {
        traceSTREAM_BUFFER_CREATE_STATIC_FAILED((StreamBufferHandle_t)NULL, xStreamBufferType);
        return NULL;
    }
    traceSTREAM_BUFFER_CREATE(pxStaticStreamBuffer, xStreamBufferType);
    return pxStaticStreamBuffer;
}

BaseType_t xStreamBufferGetStaticBuffers(StreamBufferHandle_t xStreamBuffer, uint8_t **ppucStreamBufferStorageArea,
                                         StaticStreamBuffer_t **ppxStaticStreamBuffer)
{
    configASSERT(ppucStreamBufferStorageArea != NULL && ppxStaticStreamBuffer != NULL);
    takt_stream_t *stream = stream_of(xStreamBuffer);
    if (stream == NULL || xStreamBuffer->dynamic || ppucStreamBufferStorageArea == NULL ||
        ppxStaticStreamBuffer == NULL) {
        return pdFALSE;
    }
    *ppucStreamBufferStorageArea = stream->storage;
    *ppxStaticStreamBuffer = xStreamBuffer;
    return pdTRUE;
}
#endif

TAKT_COLD void vStreamBufferDelete(StreamBufferHandle_t xStreamBuffer)
{
    int err = takt_stream_delete(stream_of(xStreamBuffer));
    configASSERT(err == TAKT_OK); /* no task may wait on a deleted buffer */
    if (err == TAKT_OK) {
        traceSTREAM_BUFFER_DELETE(xStreamBuffer);
    }
    if (err == TAKT_OK && xStreamBuffer->dynamic) {
        vPortFree(xStreamBuffer);
    }
}

size_t xStreamBufferSend(StreamBufferHandle_t xStreamBuffer, const void *pvTxData, size_t xDataLengthBytes,
                         TickType_t xTicksToWait)
{
    configASSERT(pvTxData != NULL);
    size_t sent = moved(takt_stream_send(stream_of(xStreamBuffer), pvTxData, xDataLengthBytes,
                                         compat_timeout(xTicksToWait)));
    if (sent > 0) {
        traceSTREAM_BUFFER_SEND(xStreamBuffer, sent);
        send_completed(xStreamBuffer, NULL, false);
    } else {
        traceSTREAM_BUFFER_SEND_FAILED(xStreamBuffer);
    }
    return sent;
}

size_t xStreamBufferSendFromISR(StreamBufferHandle_t xStreamBuffer, const void *pvTxData, size_t xDataLengthBytes,
                                BaseType_t *const pxHigherPriorityTaskWoken)
{
    configASSERT(pvTxData != NULL);
    bool woken = false;
    size_t sent = moved(takt_stream_send_from_isr(stream_of(xStreamBuffer), pvTxData, xDataLengthBytes, &woken));
    compat_woken(woken, pxHigherPriorityTaskWoken);
    traceSTREAM_BUFFER_SEND_FROM_ISR(xStreamBuffer, sent);
    if (sent > 0) {
        send_completed(xStreamBuffer, pxHigherPriorityTaskWoken, true);
    }
    return sent;
}

size_t xStreamBufferReceive(StreamBufferHandle_t xStreamBuffer, void *pvRxData, size_t xBufferLengthBytes,
                            TickType_t xTicksToWait)
{
    configASSERT(pvRxData != NULL);
    size_t received = moved(takt_stream_receive(stream_of(xStreamBuffer), pvRxData, xBufferLengthBytes,
                                                compat_timeout(xTicksToWait)));
    if (received > 0) {
        traceSTREAM_BUFFER_RECEIVE(xStreamBuffer, received);
        receive_completed(xStreamBuffer, NULL, false);
    } else {
        traceSTREAM_BUFFER_RECEIVE_FAILED(xStreamBuffer);
    }
    return received;
}

size_t xStreamBufferReceiveFromISR(StreamBufferHandle_t xStreamBuffer, void *pvRxData, size_t xBufferLengthBytes,
                                   BaseType_t *const pxHigherPriorityTaskWoken)
{
    configASSERT(pvRxData != NULL);
    bool woken = false;
    size_t received =
        moved(takt_stream_receive_from_isr(stream_of(xStreamBuffer), pvRxData, xBufferLengthBytes, &woken));
    compat_woken(woken, pxHigherPriorityTaskWoken);
    traceSTREAM_BUFFER_RECEIVE_FROM_ISR(xStreamBuffer, received);
    if (received > 0) {
        receive_completed(xStreamBuffer, pxHigherPriorityTaskWoken, true);
    }
    return received;
}

/* A query's count; a bad handle (asserted) answers 0. */
#define count_of(call)                                                                            \
    __extension__({                                                                               \
        int count_ = (call);                                                                      \
        configASSERT(count_ >= 0);                                                                \
        (size_t)(count_ > 0 ? (size_t)count_ : 0u);                                               \
    })

size_t xStreamBufferSpacesAvailable(StreamBufferHandle_t xStreamBuffer)
{
    return count_of(takt_stream_spaces(stream_of(xStreamBuffer)));
}

size_t xStreamBufferBytesAvailable(StreamBufferHandle_t xStreamBuffer)
{
    return count_of(takt_stream_bytes(stream_of(xStreamBuffer)));
}

size_t xStreamBufferNextMessageLengthBytes(StreamBufferHandle_t xStreamBuffer)
{
    return count_of(takt_stream_next_length(stream_of(xStreamBuffer)));
}

BaseType_t xStreamBufferIsEmpty(StreamBufferHandle_t xStreamBuffer)
{
    return takt_stream_bytes(stream_of(xStreamBuffer)) == 0 ? pdTRUE : pdFALSE;
}

/* Full: not even a message's length word fits (a stream: no byte). */
BaseType_t xStreamBufferIsFull(StreamBufferHandle_t xStreamBuffer)
{
    takt_stream_t *stream = stream_of(xStreamBuffer);
    int spaces = takt_stream_spaces(stream);
    configASSERT(spaces >= 0);
    return spaces >= 0 && (size_t)spaces <= stream->length_bytes ? pdTRUE : pdFALSE;
}

#define reset_result(call)                                                                        \
    __extension__({                                                                               \
        int reset_err_ = (call);                                                                  \
        configASSERT(reset_err_ == TAKT_OK || reset_err_ == TAKT_ERR_STATE);                     \
        (BaseType_t)(reset_err_ == TAKT_OK ? pdPASS : pdFAIL);                                    \
    })

BaseType_t xStreamBufferReset(StreamBufferHandle_t xStreamBuffer)
{
    BaseType_t reset = reset_result(takt_stream_reset(stream_of(xStreamBuffer)));
    if (reset == pdPASS) {
        traceSTREAM_BUFFER_RESET(xStreamBuffer);
    }
    return reset;
}

BaseType_t xStreamBufferResetFromISR(StreamBufferHandle_t xStreamBuffer)
{
    BaseType_t reset = reset_result(takt_stream_reset_from_isr(stream_of(xStreamBuffer)));
    if (reset == pdPASS) {
        traceSTREAM_BUFFER_RESET_FROM_ISR(xStreamBuffer);
    }
    return reset;
}

BaseType_t xStreamBufferSetTriggerLevel(StreamBufferHandle_t xStreamBuffer, size_t xTriggerLevel)
{
    return takt_stream_set_trigger(stream_of(xStreamBuffer), xTriggerLevel) == TAKT_OK ? pdTRUE : pdFALSE;
}

/* The kernel's deferred wake; a count of served tasks, or a bad handle. */
#define completion_result(call, woken, pxHigherPriorityTaskWoken)                                 \
    __extension__({                                                                               \
        int served_ = (call);                                                                     \
        configASSERT(served_ >= 0);                                                               \
        compat_woken((woken), (pxHigherPriorityTaskWoken));                                       \
        (BaseType_t)(served_ > 0 ? pdTRUE : pdFALSE);                                             \
    })

BaseType_t xStreamBufferSendCompletedFromISR(StreamBufferHandle_t xStreamBuffer, BaseType_t *pxHigherPriorityTaskWoken)
{
    bool woken = false;
    int served = takt_stream_send_completed(stream_of(xStreamBuffer), &woken);
    return completion_result(served, woken, pxHigherPriorityTaskWoken);
}

BaseType_t xStreamBufferReceiveCompletedFromISR(StreamBufferHandle_t xStreamBuffer,
                                                BaseType_t *pxHigherPriorityTaskWoken)
{
    bool woken = false;
    int served = takt_stream_receive_completed(stream_of(xStreamBuffer), &woken);
    return completion_result(served, woken, pxHigherPriorityTaskWoken);
}

UBaseType_t uxStreamBufferGetStreamBufferNotificationIndex(StreamBufferHandle_t xStreamBuffer)
{
    configASSERT(xStreamBuffer != NULL);
    return xStreamBuffer == NULL ? 0u : xStreamBuffer->notification_index;
}

void vStreamBufferSetStreamBufferNotificationIndex(StreamBufferHandle_t xStreamBuffer, UBaseType_t uxNotificationIndex)
{
    configASSERT(xStreamBuffer != NULL && uxNotificationIndex < (UBaseType_t)configTASK_NOTIFICATION_ARRAY_ENTRIES);
    if (xStreamBuffer != NULL && uxNotificationIndex < (UBaseType_t)configTASK_NOTIFICATION_ARRAY_ENTRIES) {
        xStreamBuffer->notification_index = (uint8_t)uxNotificationIndex;
    }
}
