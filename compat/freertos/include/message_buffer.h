/* FreeRTOS message_buffer.h: not provided by Takt (docs/freertos.md). */
#ifndef TAKT_FREERTOS_MESSAGE_BUFFER_H
#define TAKT_FREERTOS_MESSAGE_BUFFER_H
#error "not supported by Takt's FreeRTOS layer: message buffers (message_buffer.h) (see docs/freertos.md)"
#endif
