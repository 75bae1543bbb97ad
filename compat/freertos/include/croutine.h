/* FreeRTOS croutine.h: not provided by Takt (docs/freertos.md). */
#ifndef TAKT_FREERTOS_CROUTINE_H
#define TAKT_FREERTOS_CROUTINE_H
#error "not supported by Takt's FreeRTOS layer: co-routines (croutine.h) (see docs/freertos.md)"
#endif
