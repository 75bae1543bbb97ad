/*
 * FreeRTOS event_groups.h on Takt's event groups (takt/event_group.h).
 * EventBits_t is 32 bits wide; as in FreeRTOS with 32-bit ticks, the top 8
 * bits are reserved (configASSERT refuses them), so 24 bits are usable.
 * The FromISR set is done at once in the interrupt, not deferred to the timer
 * service task (it returns pdPASS, and needs no configUSE_TIMERS).
 */
#ifndef EVENT_GROUPS_H
#define EVENT_GROUPS_H

#ifndef INC_FREERTOS_H
#error "include FreeRTOS.h must appear in source files before include event_groups.h"
#endif

#include "task.h"

typedef takt_event_group_t *EventGroupHandle_t;
typedef takt_event_group_t StaticEventGroup_t;
typedef TickType_t EventBits_t;

#if configSUPPORT_DYNAMIC_ALLOCATION
EventGroupHandle_t xEventGroupCreate(void);
#endif
#if configSUPPORT_STATIC_ALLOCATION
EventGroupHandle_t xEventGroupCreateStatic(StaticEventGroup_t *pxEventGroupBuffer);
#endif
void vEventGroupDelete(EventGroupHandle_t xEventGroup);

EventBits_t xEventGroupWaitBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToWaitFor,
                                const BaseType_t xClearOnExit, const BaseType_t xWaitForAllBits,
                                TickType_t xTicksToWait);
EventBits_t xEventGroupSetBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet);
EventBits_t xEventGroupClearBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToClear);
EventBits_t xEventGroupSync(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet,
                            const EventBits_t uxBitsToWaitFor, TickType_t xTicksToWait);
EventBits_t xEventGroupGetBits(EventGroupHandle_t xEventGroup);
EventBits_t xEventGroupGetBitsFromISR(EventGroupHandle_t xEventGroup);
BaseType_t xEventGroupSetBitsFromISR(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet,
                                     BaseType_t *pxHigherPriorityTaskWoken);
BaseType_t xEventGroupClearBitsFromISR(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToClear);
#if configUSE_TRACE_FACILITY
/* The application's number for the group (0 until set; 0 for NULL), as
 * tracers keep it. */
UBaseType_t uxEventGroupGetNumber(void *xEventGroup);
void vEventGroupSetNumber(void *xEventGroup, UBaseType_t uxEventGroupNumber);
#endif
#if configSUPPORT_STATIC_ALLOCATION
/* pdTRUE with the group's buffer when it was created by
 * xEventGroupCreateStatic, pdFALSE otherwise. */
BaseType_t xEventGroupGetStaticBuffer(EventGroupHandle_t xEventGroup, StaticEventGroup_t **ppxEventGroupBuffer);
#endif

#endif
