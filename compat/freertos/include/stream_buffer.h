/* FreeRTOS stream_buffer.h: not provided by Takt (docs/freertos.md). */
#ifndef TAKT_FREERTOS_STREAM_BUFFER_H
#define TAKT_FREERTOS_STREAM_BUFFER_H
#error "not supported by Takt's FreeRTOS layer: stream buffers (stream_buffer.h) (see docs/freertos.md)"
#endif
