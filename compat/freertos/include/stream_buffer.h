/*
 * FreeRTOS stream_buffer.h on Takt (V11 signatures): stream and message
 * buffers on Takt's streams (takt/stream.h); semantics and differences in
 * docs/freertos.md "Stream and message buffers".
 *
 * One handle type for both kinds, as in FreeRTOS: the kind is fixed at
 * creation, so xStreamBufferSend on a message buffer sends one message.
 * A message's length word is configMESSAGE_BUFFER_LENGTH_TYPE (size_t unless
 * FreeRTOSConfig.h says otherwise: 1, 2, 4 or 8 bytes).
 */
#ifndef STREAM_BUFFER_H
#define STREAM_BUFFER_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include stream_buffer.h"
#endif

#include "takt/stream.h"

#ifndef configMESSAGE_BUFFER_LENGTH_TYPE
#define configMESSAGE_BUFFER_LENGTH_TYPE size_t
#endif

/* The Takt stream first. Fields belong to the layer; applications allocate
 * StaticStreamBuffer_t / StaticMessageBuffer_t for the *Static functions. */
struct StreamBufferDef_t {
    takt_stream_t stream;
    uint8_t dynamic; /* memory from pvPortMalloc, freed by vStreamBufferDelete */
};

typedef struct StreamBufferDef_t *StreamBufferHandle_t;
typedef struct StreamBufferDef_t StaticStreamBuffer_t;

/* Completion callbacks need configUSE_SB_COMPLETED_CALLBACK, which Takt
 * refuses: the type is there for the generic creation calls' signatures. */
typedef void (*StreamBufferCallbackFunction_t)(StreamBufferHandle_t xStreamBuffer, BaseType_t xIsInsideISR,
                                               BaseType_t *const pxHigherPriorityTaskWoken);

#define sbTYPE_STREAM_BUFFER ((BaseType_t)0)
#define sbTYPE_MESSAGE_BUFFER ((BaseType_t)1)
#define sbTYPE_STREAM_BATCHING_BUFFER ((BaseType_t)2)

#if configSUPPORT_DYNAMIC_ALLOCATION
/* xStreamBufferType: sbTYPE_STREAM_BUFFER or sbTYPE_MESSAGE_BUFFER; the
 * callbacks must be NULL. */
StreamBufferHandle_t xStreamBufferGenericCreate(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
                                                BaseType_t xStreamBufferType,
                                                StreamBufferCallbackFunction_t pxSendCompletedCallback,
                                                StreamBufferCallbackFunction_t pxReceiveCompletedCallback);
#define xStreamBufferCreate(xBufferSizeBytes, xTriggerLevelBytes) \
    xStreamBufferGenericCreate((xBufferSizeBytes), (xTriggerLevelBytes), sbTYPE_STREAM_BUFFER, NULL, NULL)
#endif
#if configSUPPORT_STATIC_ALLOCATION
/* pucStreamBufferStorageArea: FreeRTOS asks for xBufferSizeBytes + 1 bytes;
 * Takt uses the first xBufferSizeBytes of them. */
StreamBufferHandle_t xStreamBufferGenericCreateStatic(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
                                                      BaseType_t xStreamBufferType,
                                                      uint8_t *const pucStreamBufferStorageArea,
                                                      StaticStreamBuffer_t *const pxStaticStreamBuffer,
                                                      StreamBufferCallbackFunction_t pxSendCompletedCallback,
                                                      StreamBufferCallbackFunction_t pxReceiveCompletedCallback);
#define xStreamBufferCreateStatic(xBufferSizeBytes, xTriggerLevelBytes, pucStreamBufferStorageArea,  \
                                  pxStaticStreamBuffer)                                            \
    xStreamBufferGenericCreateStatic((xBufferSizeBytes), (xTriggerLevelBytes), sbTYPE_STREAM_BUFFER, \
                                     (pucStreamBufferStorageArea), (pxStaticStreamBuffer), NULL, NULL)
BaseType_t xStreamBufferGetStaticBuffers(StreamBufferHandle_t xStreamBuffer, uint8_t **ppucStreamBufferStorageArea,
                                         StaticStreamBuffer_t **ppxStaticStreamBuffer);
#endif
void vStreamBufferDelete(StreamBufferHandle_t xStreamBuffer);

size_t xStreamBufferSend(StreamBufferHandle_t xStreamBuffer, const void *pvTxData, size_t xDataLengthBytes,
                         TickType_t xTicksToWait);
size_t xStreamBufferSendFromISR(StreamBufferHandle_t xStreamBuffer, const void *pvTxData, size_t xDataLengthBytes,
                                BaseType_t *const pxHigherPriorityTaskWoken);
size_t xStreamBufferReceive(StreamBufferHandle_t xStreamBuffer, void *pvRxData, size_t xBufferLengthBytes,
                            TickType_t xTicksToWait);
size_t xStreamBufferReceiveFromISR(StreamBufferHandle_t xStreamBuffer, void *pvRxData, size_t xBufferLengthBytes,
                                   BaseType_t *const pxHigherPriorityTaskWoken);

BaseType_t xStreamBufferIsFull(StreamBufferHandle_t xStreamBuffer);
BaseType_t xStreamBufferIsEmpty(StreamBufferHandle_t xStreamBuffer);
BaseType_t xStreamBufferReset(StreamBufferHandle_t xStreamBuffer);
BaseType_t xStreamBufferResetFromISR(StreamBufferHandle_t xStreamBuffer);
size_t xStreamBufferSpacesAvailable(StreamBufferHandle_t xStreamBuffer);
size_t xStreamBufferBytesAvailable(StreamBufferHandle_t xStreamBuffer);
BaseType_t xStreamBufferSetTriggerLevel(StreamBufferHandle_t xStreamBuffer, size_t xTriggerLevel);
size_t xStreamBufferNextMessageLengthBytes(StreamBufferHandle_t xStreamBuffer);

/* Not provided: completion callbacks (configUSE_SB_COMPLETED_CALLBACK is
 * refused), the notification index and batching buffers. */
BaseType_t xStreamBufferSendCompletedFromISR(StreamBufferHandle_t xStreamBuffer,
                                             BaseType_t *pxHigherPriorityTaskWoken)
    TAKT_FREERTOS_UNSUPPORTED("xStreamBufferSendCompletedFromISR");
BaseType_t xStreamBufferReceiveCompletedFromISR(StreamBufferHandle_t xStreamBuffer,
                                                BaseType_t *pxHigherPriorityTaskWoken)
    TAKT_FREERTOS_UNSUPPORTED("xStreamBufferReceiveCompletedFromISR");
UBaseType_t uxStreamBufferGetStreamBufferNotificationIndex(StreamBufferHandle_t xStreamBuffer)
    TAKT_FREERTOS_UNSUPPORTED("uxStreamBufferGetStreamBufferNotificationIndex");
void vStreamBufferSetStreamBufferNotificationIndex(StreamBufferHandle_t xStreamBuffer, UBaseType_t uxNotificationIndex)
    TAKT_FREERTOS_UNSUPPORTED("vStreamBufferSetStreamBufferNotificationIndex");
StreamBufferHandle_t xStreamBatchingBufferCreate(size_t xBufferSizeBytes, size_t xTriggerLevelBytes)
    TAKT_FREERTOS_UNSUPPORTED("xStreamBatchingBufferCreate (stream batching buffers)");
StreamBufferHandle_t xStreamBatchingBufferCreateStatic(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
                                                       uint8_t *const pucStreamBufferStorageArea,
                                                       StaticStreamBuffer_t *const pxStaticStreamBuffer)
    TAKT_FREERTOS_UNSUPPORTED("xStreamBatchingBufferCreateStatic (stream batching buffers)");

#endif
