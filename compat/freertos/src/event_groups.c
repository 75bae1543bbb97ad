/* FreeRTOS event groups on Takt's (event_groups.h). */
#include "compat.h"
#include "event_groups.h"

/* FreeRTOS keeps the top byte of a 32-bit EventBits_t for itself. A call
 * that names one of those bits asserts and changes nothing (FreeRTOS asserts,
 * then goes on): it returns the group's bits as they are, or pdFAIL. */
#define CONTROL_BITS ((EventBits_t)0xff000000UL)

static bool names_reserved(EventBits_t bits)
{
    configASSERT((bits & CONTROL_BITS) == 0);
    return (bits & CONTROL_BITS) != 0;
}

static EventBits_t bits_now(EventGroupHandle_t group)
{
    takt_event_bits_t bits = 0;
    (void)takt_event_group_get(group, &bits);
    return bits;
}

/* A create's end, traced. */
static EventGroupHandle_t created(EventGroupHandle_t group)
{
    if (group != NULL) {
        traceEVENT_GROUP_CREATE(group);
    } else {
        traceEVENT_GROUP_CREATE_FAILED();
    }
    return group;
}

#if configSUPPORT_DYNAMIC_ALLOCATION
TAKT_COLD EventGroupHandle_t xEventGroupCreate(void)
{
    compat_kernel_ready();
    takt_event_group_t *group = NULL;
    return created(takt_event_group_create(&group) == TAKT_OK ? group : NULL);
}
#endif

#if configSUPPORT_STATIC_ALLOCATION
TAKT_COLD EventGroupHandle_t xEventGroupCreateStatic(StaticEventGroup_t *pxEventGroupBuffer)
{
    configASSERT(pxEventGroupBuffer != NULL);
    compat_kernel_ready();
    return created(takt_event_group_create_static(pxEventGroupBuffer) == TAKT_OK ? pxEventGroupBuffer : NULL);
}

BaseType_t xEventGroupGetStaticBuffer(EventGroupHandle_t xEventGroup, StaticEventGroup_t **ppxEventGroupBuffer)
{
    configASSERT(ppxEventGroupBuffer != NULL);
    int memory = takt_event_group_static_memory(xEventGroup);
    configASSERT(memory != TAKT_ERR_ARG);
    if (memory != TAKT_OK || ppxEventGroupBuffer == NULL) {
        return pdFALSE;
    }
    *ppxEventGroupBuffer = xEventGroup;
    return pdTRUE;
}
#endif

TAKT_COLD void vEventGroupDelete(EventGroupHandle_t xEventGroup)
{
    int err = takt_event_group_delete(xEventGroup);
    configASSERT(err == TAKT_OK);
    if (err == TAKT_OK) {
        traceEVENT_GROUP_DELETE(xEventGroup);
    }
}

EventBits_t xEventGroupWaitBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToWaitFor,
                                const BaseType_t xClearOnExit, const BaseType_t xWaitForAllBits,
                                TickType_t xTicksToWait)
{
    configASSERT(uxBitsToWaitFor != 0);
    if (names_reserved(uxBitsToWaitFor)) {
        return bits_now(xEventGroup);
    }
    unsigned flags = (xWaitForAllBits != pdFALSE ? TAKT_EVENT_WAIT_ALL : 0u) |
                     (xClearOnExit != pdFALSE ? TAKT_EVENT_CLEAR_ON_EXIT : 0u);
    takt_event_bits_t bits = 0;
    COMPAT_BLOCKING_BEGIN(.call = COMPAT_BLOCKING_WAIT_BITS, .group = xEventGroup,
                          .bits_to_wait_for = uxBitsToWaitFor);
    int err = takt_event_group_wait(xEventGroup, uxBitsToWaitFor, flags, &bits, compat_timeout(xTicksToWait));
    COMPAT_BLOCKING_END();
    configASSERT(err == TAKT_OK || err == TAKT_ERR_TIMEOUT);
    traceEVENT_GROUP_WAIT_BITS_END(xEventGroup, uxBitsToWaitFor, err == TAKT_ERR_TIMEOUT ? pdTRUE : pdFALSE);
    (void)err;
    return bits;
}

EventBits_t xEventGroupSetBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet)
{
    if (names_reserved(uxBitsToSet)) {
        return bits_now(xEventGroup);
    }
    traceEVENT_GROUP_SET_BITS(xEventGroup, uxBitsToSet);
    takt_event_bits_t bits = 0;
    int err = takt_event_group_set(xEventGroup, uxBitsToSet, &bits);
    configASSERT(err == TAKT_OK);
    (void)err;
    return bits;
}

EventBits_t xEventGroupClearBits(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToClear)
{
    if (names_reserved(uxBitsToClear)) {
        return bits_now(xEventGroup);
    }
    traceEVENT_GROUP_CLEAR_BITS(xEventGroup, uxBitsToClear);
    takt_event_bits_t previous = 0;
    int err = takt_event_group_clear(xEventGroup, uxBitsToClear, &previous);
    configASSERT(err == TAKT_OK);
    (void)err;
    return previous;
}

EventBits_t xEventGroupSync(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet,
                            const EventBits_t uxBitsToWaitFor, TickType_t xTicksToWait)
{
    configASSERT(uxBitsToWaitFor != 0);
    if (names_reserved(uxBitsToSet | uxBitsToWaitFor)) {
        return bits_now(xEventGroup);
    }
    takt_event_bits_t bits = 0;
    traceEVENT_GROUP_SET_BITS(xEventGroup, uxBitsToSet); /* FreeRTOS's sync sets them through xEventGroupSetBits */
    COMPAT_BLOCKING_BEGIN(.call = COMPAT_BLOCKING_SYNC, .group = xEventGroup, .bits_to_set = uxBitsToSet,
                          .bits_to_wait_for = uxBitsToWaitFor);
    int err = takt_event_group_sync(xEventGroup, uxBitsToSet, uxBitsToWaitFor, &bits,
                                    compat_timeout(xTicksToWait));
    COMPAT_BLOCKING_END();
    configASSERT(err == TAKT_OK || err == TAKT_ERR_TIMEOUT);
    traceEVENT_GROUP_SYNC_END(xEventGroup, uxBitsToSet, uxBitsToWaitFor, err == TAKT_ERR_TIMEOUT ? pdTRUE : pdFALSE);
    (void)err;
    return bits;
}

EventBits_t xEventGroupGetBits(EventGroupHandle_t xEventGroup)
{
    takt_event_bits_t bits = 0;
    int err = takt_event_group_get(xEventGroup, &bits);
    configASSERT(err == TAKT_OK);
    (void)err;
    return bits;
}

EventBits_t xEventGroupGetBitsFromISR(EventGroupHandle_t xEventGroup)
{
    return xEventGroupGetBits(xEventGroup);
}

BaseType_t xEventGroupSetBitsFromISR(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToSet,
                                     BaseType_t *pxHigherPriorityTaskWoken)
{
    if (names_reserved(uxBitsToSet)) {
        return pdFAIL;
    }
    traceEVENT_GROUP_SET_BITS_FROM_ISR(xEventGroup, uxBitsToSet);
    bool woken = false;
    int err = takt_event_group_set_from_isr(xEventGroup, uxBitsToSet, &woken);
    compat_woken(woken, pxHigherPriorityTaskWoken);
    return err == TAKT_OK ? pdPASS : pdFAIL;
}

BaseType_t xEventGroupClearBitsFromISR(EventGroupHandle_t xEventGroup, const EventBits_t uxBitsToClear)
{
    if (names_reserved(uxBitsToClear)) {
        return pdFAIL;
    }
    traceEVENT_GROUP_CLEAR_BITS_FROM_ISR(xEventGroup, uxBitsToClear);
    return takt_event_group_clear_from_isr(xEventGroup, uxBitsToClear, NULL) == TAKT_OK ? pdPASS : pdFAIL;
}

#if configUSE_TRACE_FACILITY
UBaseType_t uxEventGroupGetNumber(void *xEventGroup)
{
    if (xEventGroup == NULL) {
        return 0; /* as FreeRTOS */
    }
    uintptr_t *word = takt_event_group_user_word(xEventGroup);
    configASSERT(word != NULL);
    return word != NULL ? (UBaseType_t)*word : 0;
}

void vEventGroupSetNumber(void *xEventGroup, UBaseType_t uxEventGroupNumber)
{
    uintptr_t *word = takt_event_group_user_word(xEventGroup);
    configASSERT(word != NULL);
    if (word != NULL) {
        *word = uxEventGroupNumber;
    }
}
#endif
