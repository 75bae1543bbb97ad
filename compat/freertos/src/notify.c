/* FreeRTOS task notifications on Takt's notification slots (takt/notify.h). */
#include "compat.h"
#include "task.h"

#if configUSE_TASK_NOTIFICATIONS

/* FreeRTOS's actions and Takt's are numbered alike. A value that is none of
 * them goes through as it is and the kernel refuses it (TAKT_ERR_ARG: the
 * call asserts and fails, nothing changes), as FreeRTOS asserts on it. */
_Static_assert(eNoAction == (int)TAKT_NOTIFY_NO_ACTION && eSetBits == (int)TAKT_NOTIFY_SET_BITS &&
                   eIncrement == (int)TAKT_NOTIFY_INCREMENT &&
                   eSetValueWithOverwrite == (int)TAKT_NOTIFY_OVERWRITE &&
                   eSetValueWithoutOverwrite == (int)TAKT_NOTIFY_NO_OVERWRITE,
               "FreeRTOS's notify actions numbered as Takt's");

static takt_notify_action_t notify_action(eNotifyAction action)
{
    return (takt_notify_action_t)action;
}

/* eSetValueWithoutOverwrite on a pending slot is the one pdFAIL FreeRTOS knows.
 * A macro, so that a refusal asserts at the API function's line. */
#define notify_result(call)                                                                       \
    __extension__({                                                                               \
        int notify_err_ = (call);                                                                 \
        configASSERT(notify_err_ == TAKT_OK || notify_err_ == TAKT_ERR_STATE);                   \
        (BaseType_t)(notify_err_ == TAKT_OK ? pdPASS : pdFAIL);                                   \
    })

BaseType_t xTaskGenericNotify(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify, uint32_t ulValue,
                              eNotifyAction eAction, uint32_t *pulPreviousNotificationValue)
{
    traceTASK_NOTIFY(uxIndexToNotify);
    return notify_result(takt_notify(xTaskToNotify, compat_notify_index(uxIndexToNotify), ulValue,
                                     notify_action(eAction), pulPreviousNotificationValue));
}

BaseType_t xTaskGenericNotifyFromISR(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify,
                                     uint32_t ulValue, eNotifyAction eAction,
                                     uint32_t *pulPreviousNotificationValue,
                                     BaseType_t *pxHigherPriorityTaskWoken)
{
    traceTASK_NOTIFY_FROM_ISR(uxIndexToNotify);
    bool woken = false;
    int err = takt_notify_from_isr(xTaskToNotify, compat_notify_index(uxIndexToNotify), ulValue,
                                   notify_action(eAction), pulPreviousNotificationValue, &woken);
    compat_woken(woken, pxHigherPriorityTaskWoken);
    return notify_result(err);
}

void vTaskGenericNotifyGiveFromISR(TaskHandle_t xTaskToNotify, UBaseType_t uxIndexToNotify,
                                   BaseType_t *pxHigherPriorityTaskWoken)
{
    _Static_assert(_Generic(pxHigherPriorityTaskWoken, long *: 1, default: 0),
                   "the kernel sets the flag as a long");
    traceTASK_NOTIFY_GIVE_FROM_ISR(uxIndexToNotify);
    int err = takt_notify_give_from_isr_flag(xTaskToNotify, compat_notify_index(uxIndexToNotify),
                                             pxHigherPriorityTaskWoken);
    configASSERT(err == TAKT_OK); /* a bad handle or index (FreeRTOS asserts on both) */
    (void)err;
}

BaseType_t xTaskGenericNotifyWait(UBaseType_t uxIndexToWaitOn, uint32_t ulBitsToClearOnEntry,
                                  uint32_t ulBitsToClearOnExit, uint32_t *pulNotificationValue,
                                  TickType_t xTicksToWait)
{
    COMPAT_BLOCKING_BEGIN(.call = COMPAT_BLOCKING_NOTIFY_WAIT, .index = uxIndexToWaitOn);
    int err = takt_notify_wait(compat_notify_index(uxIndexToWaitOn), ulBitsToClearOnEntry, ulBitsToClearOnExit,
                               pulNotificationValue, compat_timeout(xTicksToWait));
    COMPAT_BLOCKING_END();
    configASSERT(err == TAKT_OK || err == TAKT_ERR_TIMEOUT);
    traceTASK_NOTIFY_WAIT(uxIndexToWaitOn);
    return err == TAKT_OK ? pdTRUE : pdFALSE;
}

uint32_t ulTaskGenericNotifyTake(UBaseType_t uxIndexToWaitOn, BaseType_t xClearCountOnExit,
                                 TickType_t xTicksToWait)
{
    uint32_t value = 0; /* a timeout leaves 0 here, an error nothing */
    COMPAT_BLOCKING_BEGIN(.call = COMPAT_BLOCKING_NOTIFY_TAKE, .index = uxIndexToWaitOn);
    int err = takt_notify_take(compat_notify_index(uxIndexToWaitOn), xClearCountOnExit != pdFALSE, &value,
                               compat_timeout(xTicksToWait));
    COMPAT_BLOCKING_END();
    configASSERT(err == TAKT_OK || err == TAKT_ERR_TIMEOUT);
    traceTASK_NOTIFY_TAKE(uxIndexToWaitOn);
    (void)err;
    return value;
}

BaseType_t xTaskGenericNotifyStateClear(TaskHandle_t xTask, UBaseType_t uxIndexToClear)
{
    int was_pending = takt_notify_clear_state(xTask, compat_notify_index(uxIndexToClear));
    configASSERT(was_pending >= 0);
    return was_pending > 0 ? pdTRUE : pdFALSE;
}

uint32_t ulTaskGenericNotifyValueClear(TaskHandle_t xTask, UBaseType_t uxIndexToClear, uint32_t ulBitsToClear)
{
    uint32_t previous = 0;
    int err = takt_notify_clear_bits(xTask, compat_notify_index(uxIndexToClear), ulBitsToClear, &previous);
    configASSERT(err == TAKT_OK);
    (void)err;
    return previous;
}

#endif
