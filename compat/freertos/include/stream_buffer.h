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
    uint8_t dynamic;            /* memory from pvPortMalloc, freed by vStreamBufferDelete */
    uint8_t notification_index; /* recorded only: Takt's waits use no notification */
#if configUSE_SB_COMPLETED_CALLBACK
    void (*send_completed)(struct StreamBufferDef_t *, BaseType_t, BaseType_t *const);
    void (*receive_completed)(struct StreamBufferDef_t *, BaseType_t, BaseType_t *const);
#endif
};

typedef struct StreamBufferDef_t *StreamBufferHandle_t;
typedef struct StreamBufferDef_t StaticStreamBuffer_t;

/* A per-buffer completion callback (configUSE_SB_COMPLETED_CALLBACK 1): it
 * replaces sbSEND_COMPLETED / sbRECEIVE_COMPLETED for its buffer, including
 * their wake of the task waiting on the other side (docs/freertos.md). */
typedef void (*StreamBufferCallbackFunction_t)(StreamBufferHandle_t xStreamBuffer, BaseType_t xIsInsideISR,
                                               BaseType_t *const pxHigherPriorityTaskWoken);

#define sbTYPE_STREAM_BUFFER ((BaseType_t)0)
#define sbTYPE_MESSAGE_BUFFER ((BaseType_t)1)
#define sbTYPE_STREAM_BATCHING_BUFFER ((BaseType_t)2)

#if configSUPPORT_DYNAMIC_ALLOCATION
/* xStreamBufferType: sbTYPE_STREAM_BUFFER, sbTYPE_MESSAGE_BUFFER or
 * sbTYPE_STREAM_BATCHING_BUFFER; the callbacks must be NULL unless
 * configUSE_SB_COMPLETED_CALLBACK is 1. */
StreamBufferHandle_t xStreamBufferGenericCreate(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
                                                BaseType_t xStreamBufferType,
                                                StreamBufferCallbackFunction_t pxSendCompletedCallback,
                                                StreamBufferCallbackFunction_t pxReceiveCompletedCallback);
#define xStreamBufferCreate(xBufferSizeBytes, xTriggerLevelBytes) \
    xStreamBufferGenericCreate((xBufferSizeBytes), (xTriggerLevelBytes), sbTYPE_STREAM_BUFFER, NULL, NULL)
/* A batching buffer: a task's receive gets bytes only once the buffer holds
 * more than the trigger level (docs/freertos.md). */
#define xStreamBatchingBufferCreate(xBufferSizeBytes, xTriggerLevelBytes) \
    xStreamBufferGenericCreate((xBufferSizeBytes), (xTriggerLevelBytes), sbTYPE_STREAM_BATCHING_BUFFER, NULL, NULL)
#if configUSE_SB_COMPLETED_CALLBACK
#define xStreamBufferCreateWithCallback(xBufferSizeBytes, xTriggerLevelBytes, pxSendCompletedCallback,     \
                                        pxReceiveCompletedCallback)                                     \
    xStreamBufferGenericCreate((xBufferSizeBytes), (xTriggerLevelBytes), sbTYPE_STREAM_BUFFER,              \
                               (pxSendCompletedCallback), (pxReceiveCompletedCallback))
#define xStreamBatchingBufferCreateWithCallback(xBufferSizeBytes, xTriggerLevelBytes, pxSendCompletedCallback, \
                                                pxReceiveCompletedCallback)                                 \
    xStreamBufferGenericCreate((xBufferSizeBytes), (xTriggerLevelBytes), sbTYPE_STREAM_BATCHING_BUFFER,         \
                               (pxSendCompletedCallback), (pxReceiveCompletedCallback))
#endif
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
#define xStreamBatchingBufferCreateStatic(xBufferSizeBytes, xTriggerLevelBytes, pucStreamBufferStorageArea,  \
                                          pxStaticStreamBuffer)                                            \
    xStreamBufferGenericCreateStatic((xBufferSizeBytes), (xTriggerLevelBytes), sbTYPE_STREAM_BATCHING_BUFFER, \
                                     (pucStreamBufferStorageArea), (pxStaticStreamBuffer), NULL, NULL)
#if configUSE_SB_COMPLETED_CALLBACK
#define xStreamBufferCreateStaticWithCallback(xBufferSizeBytes, xTriggerLevelBytes, pucStreamBufferStorageArea,   \
                                              pxStaticStreamBuffer, pxSendCompletedCallback,                   \
                                              pxReceiveCompletedCallback)                                      \
    xStreamBufferGenericCreateStatic((xBufferSizeBytes), (xTriggerLevelBytes), sbTYPE_STREAM_BUFFER,              \
                                     (pucStreamBufferStorageArea), (pxStaticStreamBuffer),                     \
                                     (pxSendCompletedCallback), (pxReceiveCompletedCallback))
#define xStreamBatchingBufferCreateStaticWithCallback(xBufferSizeBytes, xTriggerLevelBytes,                        \
                                                      pucStreamBufferStorageArea, pxStaticStreamBuffer,            \
                                                      pxSendCompletedCallback, pxReceiveCompletedCallback)         \
    xStreamBufferGenericCreateStatic((xBufferSizeBytes), (xTriggerLevelBytes), sbTYPE_STREAM_BATCHING_BUFFER,      \
                                     (pucStreamBufferStorageArea), (pxStaticStreamBuffer),                     \
                                     (pxSendCompletedCallback), (pxReceiveCompletedCallback))
#endif
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

#if !configUSE_SB_COMPLETED_CALLBACK
/* Per-buffer callbacks need the option, as in FreeRTOS (where these are
 * macros defined only with it): a call stops the build naming it. */
#define TAKT_FREERTOS_SB_CALLBACK TAKT_FREERTOS_NEEDS("configUSE_SB_COMPLETED_CALLBACK 1")
StreamBufferHandle_t xStreamBufferCreateWithCallback(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
                                                     StreamBufferCallbackFunction_t pxSendCompletedCallback,
                                                     StreamBufferCallbackFunction_t pxReceiveCompletedCallback)
    TAKT_FREERTOS_SB_CALLBACK;
StreamBufferHandle_t xStreamBatchingBufferCreateWithCallback(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
                                                             StreamBufferCallbackFunction_t pxSendCompletedCallback,
                                                             StreamBufferCallbackFunction_t pxReceiveCompletedCallback)
    TAKT_FREERTOS_SB_CALLBACK;
StreamBufferHandle_t xStreamBufferCreateStaticWithCallback(size_t xBufferSizeBytes, size_t xTriggerLevelBytes,
                                                           uint8_t *const pucStreamBufferStorageArea,
                                                           StaticStreamBuffer_t *const pxStaticStreamBuffer,
                                                           StreamBufferCallbackFunction_t pxSendCompletedCallback,
                                                           StreamBufferCallbackFunction_t pxReceiveCompletedCallback)
    TAKT_FREERTOS_SB_CALLBACK;
StreamBufferHandle_t xStreamBatchingBufferCreateStaticWithCallback(
    size_t xBufferSizeBytes, size_t xTriggerLevelBytes, uint8_t *const pucStreamBufferStorageArea,
    StaticStreamBuffer_t *const pxStaticStreamBuffer, StreamBufferCallbackFunction_t pxSendCompletedCallback,
    StreamBufferCallbackFunction_t pxReceiveCompletedCallback) TAKT_FREERTOS_SB_CALLBACK;
#endif

/* The default completion: serves the task waiting to receive (send) that the
 * buffer can serve now, whatever defers it. For the application's own
 * sbSEND_COMPLETED / sbRECEIVE_COMPLETED or callbacks, typically from the
 * interrupt they raise; Takt allows a task to call them too. pdTRUE if a
 * task was served. */
BaseType_t xStreamBufferSendCompletedFromISR(StreamBufferHandle_t xStreamBuffer, BaseType_t *pxHigherPriorityTaskWoken);
BaseType_t xStreamBufferReceiveCompletedFromISR(StreamBufferHandle_t xStreamBuffer,
                                                BaseType_t *pxHigherPriorityTaskWoken);

/* FreeRTOS's notification index for the buffer's waits (0 by default; below
 * configTASK_NOTIFICATION_ARRAY_ENTRIES). Takt records it: its waits do not
 * use a task notification, so no index is ever consumed. */
UBaseType_t uxStreamBufferGetStreamBufferNotificationIndex(StreamBufferHandle_t xStreamBuffer);
void vStreamBufferSetStreamBufferNotificationIndex(StreamBufferHandle_t xStreamBuffer, UBaseType_t uxNotificationIndex);

#endif
