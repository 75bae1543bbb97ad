/*
 * FreeRTOS stream and message buffers on Takt's streams (stream_buffer.h,
 * message_buffer.h). A file of its own: only applications that use them
 * link it. Misuse FreeRTOS asserts on (a NULL handle or data pointer, a
 * task-context call from an interrupt) trips configASSERT; every other
 * refusal is FreeRTOS's own answer (0 bytes, NULL, pdFAIL).
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
    if (type == sbTYPE_STREAM_BUFFER) {
        return 0;
    }
    return type == sbTYPE_MESSAGE_BUFFER ? (int)sizeof(configMESSAGE_BUFFER_LENGTH_TYPE) : -1;
}

/* A byte count from the kernel: an error moves nothing. Being called from
 * the wrong context is misuse; other refusals (a message that can never fit,
 * a deleted handle) are FreeRTOS's 0. */
static size_t moved(int result)
{
    configASSERT(result != TAKT_ERR_CONTEXT);
    return result > 0 ? (size_t)result : 0u;
}

#if configSUPPORT_DYNAMIC_ALLOCATION
TAKT_COLD StreamBufferHandle_t xStreamBufferGenericCreate(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
                                                          BaseType_t xStreamBufferType,
                                                          StreamBufferCallbackFunction_t pxSendCompletedCallback,
                                                          StreamBufferCallbackFunction_t pxReceiveCompletedCallback)
{
    /* Completion callbacks need configUSE_SB_COMPLETED_CALLBACK (refused). */
    configASSERT(pxSendCompletedCallback == NULL && pxReceiveCompletedCallback == NULL);
    (void)pxSendCompletedCallback;
    (void)pxReceiveCompletedCallback;
    int width = length_bytes(xStreamBufferType);
    if (width < 0 || xBufferSizeBytes == 0 || xBufferSizeBytes > TAKT_STREAM_MAX_SIZE) {
        return NULL;
    }
    compat_kernel_ready();
    struct StreamBufferDef_t *handle = pvPortMalloc(sizeof(*handle) + xBufferSizeBytes);
    if (handle == NULL) {
        return NULL;
    }
    memset(handle, 0, sizeof(*handle));
    if (takt_stream_create_static(&handle->stream, xBufferSizeBytes, xTriggerLevelBytes, (unsigned)width,
                                  handle + 1) != TAKT_OK) {
        vPortFree(handle);
        return NULL;
    }
    handle->dynamic = 1;
    return handle;
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
    /* Completion callbacks need configUSE_SB_COMPLETED_CALLBACK (refused). */
    configASSERT(pxSendCompletedCallback == NULL && pxReceiveCompletedCallback == NULL);
    (void)pxSendCompletedCallback;
    (void)pxReceiveCompletedCallback;
    configASSERT(pucStreamBufferStorageArea != NULL && pxStaticStreamBuffer != NULL);
    int width = length_bytes(xStreamBufferType);
    if (width < 0 || pucStreamBufferStorageArea == NULL || pxStaticStreamBuffer == NULL) {
        return NULL;
    }
    compat_kernel_ready();
    memset(pxStaticStreamBuffer, 0, sizeof(*pxStaticStreamBuffer));
    if (takt_stream_create_static(&pxStaticStreamBuffer->stream, xBufferSizeBytes, xTriggerLevelBytes,
                                  (unsigned)width, pucStreamBufferStorageArea) != TAKT_OK) {
        return NULL;
    }
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
    if (err == TAKT_OK && xStreamBuffer->dynamic) {
        vPortFree(xStreamBuffer);
    }
}

size_t xStreamBufferSend(StreamBufferHandle_t xStreamBuffer, const void *pvTxData, size_t xDataLengthBytes,
                         TickType_t xTicksToWait)
{
    configASSERT(pvTxData != NULL);
    return moved(takt_stream_send(stream_of(xStreamBuffer), pvTxData, xDataLengthBytes,
                                  compat_timeout(xTicksToWait)));
}

size_t xStreamBufferSendFromISR(StreamBufferHandle_t xStreamBuffer, const void *pvTxData, size_t xDataLengthBytes,
                                BaseType_t *const pxHigherPriorityTaskWoken)
{
    configASSERT(pvTxData != NULL);
    bool woken = false;
    int result = takt_stream_send_from_isr(stream_of(xStreamBuffer), pvTxData, xDataLengthBytes, &woken);
    compat_woken(woken, pxHigherPriorityTaskWoken);
    return moved(result);
}

size_t xStreamBufferReceive(StreamBufferHandle_t xStreamBuffer, void *pvRxData, size_t xBufferLengthBytes,
                            TickType_t xTicksToWait)
{
    configASSERT(pvRxData != NULL);
    return moved(takt_stream_receive(stream_of(xStreamBuffer), pvRxData, xBufferLengthBytes,
                                     compat_timeout(xTicksToWait)));
}

size_t xStreamBufferReceiveFromISR(StreamBufferHandle_t xStreamBuffer, void *pvRxData, size_t xBufferLengthBytes,
                                   BaseType_t *const pxHigherPriorityTaskWoken)
{
    configASSERT(pvRxData != NULL);
    bool woken = false;
    int result = takt_stream_receive_from_isr(stream_of(xStreamBuffer), pvRxData, xBufferLengthBytes, &woken);
    compat_woken(woken, pxHigherPriorityTaskWoken);
    return moved(result);
}

/* A query's count; a bad handle (asserted) answers 0. */
static size_t count_of(int result)
{
    configASSERT(result >= 0);
    return result > 0 ? (size_t)result : 0u;
}

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

static BaseType_t reset_result(int err)
{
    configASSERT(err == TAKT_OK || err == TAKT_ERR_STATE);
    return err == TAKT_OK ? pdPASS : pdFAIL;
}

BaseType_t xStreamBufferReset(StreamBufferHandle_t xStreamBuffer)
{
    return reset_result(takt_stream_reset(stream_of(xStreamBuffer)));
}

BaseType_t xStreamBufferResetFromISR(StreamBufferHandle_t xStreamBuffer)
{
    return reset_result(takt_stream_reset_from_isr(stream_of(xStreamBuffer)));
}

BaseType_t xStreamBufferSetTriggerLevel(StreamBufferHandle_t xStreamBuffer, size_t xTriggerLevel)
{
    return takt_stream_set_trigger(stream_of(xStreamBuffer), xTriggerLevel) == TAKT_OK ? pdTRUE : pdFALSE;
}
