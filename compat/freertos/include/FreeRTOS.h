/*
 * FreeRTOS.h on Takt: include it first, as with FreeRTOS. It reads the
 * application's FreeRTOSConfig.h (through takt_freertos_config.h, which refuses
 * the options Takt does not support) and brings in the types and port macros.
 * The kernel underneath is Takt (kernel/include/takt/takt.h); docs/freertos.md
 * says what maps to what.
 */
#ifndef INC_FREERTOS_H
#define INC_FREERTOS_H

#include <stddef.h>
#include <stdint.h>

#include "takt/takt.h" /* config_check.h -> takt_config.h -> takt_freertos_config.h */
#include "takt_freertos_config.h"

#include "portable.h"
#include "projdefs.h"

#define tskKERNEL_VERSION_NUMBER "V11.1.0-takt"
#define tskKERNEL_VERSION_MAJOR 11
#define tskKERNEL_VERSION_MINOR 1
#define tskKERNEL_VERSION_BUILD 0

#ifndef configASSERT
#define configASSERT(x) ((void)0)
#define configASSERT_DEFINED 0
#else
#define configASSERT_DEFINED 1
#endif

#ifndef portPRIVILEGE_BIT
#define portPRIVILEGE_BIT ((UBaseType_t)0x00)
#endif

/* Static objects: the application allocates them, Takt fills them in. */
typedef takt_task_t StaticTask_t;

#endif
