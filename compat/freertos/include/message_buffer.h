/*
 * FreeRTOS message_buffer.h on Takt (V11 names): as in FreeRTOS, message
 * buffers are stream buffers created as such, and every call is a macro over
 * the stream buffer call (stream_buffer.h; docs/freertos.md "Stream and
 * message buffers"). Each message is stored after a length word of
 * sizeof(configMESSAGE_BUFFER_LENGTH_TYPE) bytes, counted in the buffer's size.
 */
#ifndef MESSAGE_BUFFER_H
#define MESSAGE_BUFFER_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include message_buffer.h"
#endif

#include "stream_buffer.h"

typedef StreamBufferHandle_t MessageBufferHandle_t;
typedef StaticStreamBuffer_t StaticMessageBuffer_t;

#if configSUPPORT_DYNAMIC_ALLOCATION
#define xMessageBufferCreate(xBufferSizeBytes) \
    xStreamBufferGenericCreate((xBufferSizeBytes), (size_t)0, sbTYPE_MESSAGE_BUFFER, NULL, NULL)
#if configUSE_SB_COMPLETED_CALLBACK
#define xMessageBufferCreateWithCallback(xBufferSizeBytes, pxSendCompletedCallback, pxReceiveCompletedCallback) \
    xStreamBufferGenericCreate((xBufferSizeBytes), (size_t)0, sbTYPE_MESSAGE_BUFFER, (pxSendCompletedCallback), \
                               (pxReceiveCompletedCallback))
#endif
#endif
#if configSUPPORT_STATIC_ALLOCATION
#define xMessageBufferCreateStatic(xBufferSizeBytes, pucMessageBufferStorageArea, pxStaticMessageBuffer)        \
    xStreamBufferGenericCreateStatic((xBufferSizeBytes), (size_t)0, sbTYPE_MESSAGE_BUFFER,                     \
                                     (pucMessageBufferStorageArea), (pxStaticMessageBuffer), NULL, NULL)
#if configUSE_SB_COMPLETED_CALLBACK
#define xMessageBufferCreateStaticWithCallback(xBufferSizeBytes, pucMessageBufferStorageArea, pxStaticMessageBuffer, \
                                               pxSendCompletedCallback, pxReceiveCompletedCallback)                 \
    xStreamBufferGenericCreateStatic((xBufferSizeBytes), (size_t)0, sbTYPE_MESSAGE_BUFFER,                           \
                                     (pucMessageBufferStorageArea), (pxStaticMessageBuffer),                         \
                                     (pxSendCompletedCallback), (pxReceiveCompletedCallback))
#endif
#define xMessageBufferGetStaticBuffers(xMessageBuffer, ppucMessageBufferStorageArea, ppxStaticMessageBuffer) \
    xStreamBufferGetStaticBuffers((xMessageBuffer), (ppucMessageBufferStorageArea), (ppxStaticMessageBuffer))
#endif

#define xMessageBufferSend(xMessageBuffer, pvTxData, xDataLengthBytes, xTicksToWait) \
    xStreamBufferSend((xMessageBuffer), (pvTxData), (xDataLengthBytes), (xTicksToWait))
#define xMessageBufferSendFromISR(xMessageBuffer, pvTxData, xDataLengthBytes, pxHigherPriorityTaskWoken) \
    xStreamBufferSendFromISR((xMessageBuffer), (pvTxData), (xDataLengthBytes), (pxHigherPriorityTaskWoken))
#define xMessageBufferReceive(xMessageBuffer, pvRxData, xBufferLengthBytes, xTicksToWait) \
    xStreamBufferReceive((xMessageBuffer), (pvRxData), (xBufferLengthBytes), (xTicksToWait))
#define xMessageBufferReceiveFromISR(xMessageBuffer, pvRxData, xBufferLengthBytes, pxHigherPriorityTaskWoken) \
    xStreamBufferReceiveFromISR((xMessageBuffer), (pvRxData), (xBufferLengthBytes), (pxHigherPriorityTaskWoken))
#define vMessageBufferDelete(xMessageBuffer) vStreamBufferDelete(xMessageBuffer)
#define xMessageBufferIsFull(xMessageBuffer) xStreamBufferIsFull(xMessageBuffer)
#define xMessageBufferIsEmpty(xMessageBuffer) xStreamBufferIsEmpty(xMessageBuffer)
#define xMessageBufferReset(xMessageBuffer) xStreamBufferReset(xMessageBuffer)
#define xMessageBufferResetFromISR(xMessageBuffer) xStreamBufferResetFromISR(xMessageBuffer)
/* Free bytes, length words included: the longest message that fits is this
 * minus sizeof(configMESSAGE_BUFFER_LENGTH_TYPE). */
#define xMessageBufferSpaceAvailable(xMessageBuffer) xStreamBufferSpacesAvailable(xMessageBuffer)
#define xMessageBufferSpacesAvailable(xMessageBuffer) xStreamBufferSpacesAvailable(xMessageBuffer)
#define xMessageBufferNextLengthBytes(xMessageBuffer) xStreamBufferNextMessageLengthBytes(xMessageBuffer)
#if !configUSE_SB_COMPLETED_CALLBACK
StreamBufferHandle_t xMessageBufferCreateWithCallback(size_t xBufferSizeBytes,
                                                      StreamBufferCallbackFunction_t pxSendCompletedCallback,
                                                      StreamBufferCallbackFunction_t pxReceiveCompletedCallback)
    TAKT_FREERTOS_SB_CALLBACK;
StreamBufferHandle_t xMessageBufferCreateStaticWithCallback(size_t xBufferSizeBytes,
                                                            uint8_t *const pucMessageBufferStorageArea,
                                                            StaticMessageBuffer_t *const pxStaticMessageBuffer,
                                                            StreamBufferCallbackFunction_t pxSendCompletedCallback,
                                                            StreamBufferCallbackFunction_t pxReceiveCompletedCallback)
    TAKT_FREERTOS_SB_CALLBACK;
#endif
#define xMessageBufferSendCompletedFromISR(xMessageBuffer, pxHigherPriorityTaskWoken) \
    xStreamBufferSendCompletedFromISR((xMessageBuffer), (pxHigherPriorityTaskWoken))
#define xMessageBufferReceiveCompletedFromISR(xMessageBuffer, pxHigherPriorityTaskWoken) \
    xStreamBufferReceiveCompletedFromISR((xMessageBuffer), (pxHigherPriorityTaskWoken))

#endif
