/* FreeRTOS software timers on Takt's (timers.h). */
#include <stddef.h>
#include <string.h>

#include "compat.h"

#if configUSE_TIMERS
#include "timers.h"

static void run_callback(takt_soft_timer_t *timer)
{
    TimerHandle_t handle = (TimerHandle_t)timer; /* the Takt timer is the first field */
    traceTIMER_EXPIRED(handle);
    handle->callback(handle);
}

/* A create's end, traced. */
static TimerHandle_t created(TimerHandle_t timer)
{
    if (timer != NULL) {
        traceTIMER_CREATE(timer);
    } else {
        traceTIMER_CREATE_FAILED();
    }
    return timer;
}

/* The layer's fields are written only once the kernel accepted the memory:
 * a static buffer that still holds a live timer (TAKT_ERR_STATE) keeps them.
 * The timer cannot run before this returns: its start is a later command. */
static TimerHandle_t timer_init(struct tmrTimerControl *t, const char *name, TickType_t period, BaseType_t auto_reload,
                                void *id, TimerCallbackFunction_t callback, bool from_heap)
{
    /* FreeRTOS asserts on a zero period and a missing callback. */
    configASSERT(period > 0 && callback != NULL);
    takt_soft_timer_params_t params = {.name = name, .period = period, .auto_reload = auto_reload != pdFALSE,
                                       .callback = run_callback, .id = id};
    if (callback == NULL || takt_soft_timer_create_static(&params, &t->timer) != TAKT_OK) {
        return NULL;
    }
    t->callback = callback;
    t->dynamic = from_heap ? 1u : 0u;
    return t;
}

#if configSUPPORT_DYNAMIC_ALLOCATION
TAKT_COLD TimerHandle_t xTimerCreate(const char *const pcTimerName, const TickType_t xTimerPeriodInTicks,
                           const BaseType_t xAutoReload, void *const pvTimerID,
                           TimerCallbackFunction_t pxCallbackFunction)
{
    compat_kernel_ready();
    struct tmrTimerControl *t = pvPortMalloc(sizeof(*t));
    if (t == NULL) {
        return created(NULL);
    }
    memset(t, 0, sizeof(*t)); /* no old object's magic where the kernel looks for a live one */
    if (timer_init(t, pcTimerName, xTimerPeriodInTicks, xAutoReload, pvTimerID, pxCallbackFunction, FROM_HEAP) == NULL) {
        vPortFree(t);
        return created(NULL);
    }
    return created(t);
}
#endif

#if configSUPPORT_STATIC_ALLOCATION
TAKT_COLD TimerHandle_t xTimerCreateStatic(const char *const pcTimerName, const TickType_t xTimerPeriodInTicks,
                                 const BaseType_t xAutoReload, void *const pvTimerID,
                                 TimerCallbackFunction_t pxCallbackFunction, StaticTimer_t *pxTimerBuffer)
{
    configASSERT(pxTimerBuffer != NULL);
    if (pxTimerBuffer == NULL) {
        return created(NULL);
    }
    compat_kernel_ready();
    return created(timer_init(pxTimerBuffer, pcTimerName, xTimerPeriodInTicks, xAutoReload, pvTimerID,
                              pxCallbackFunction, FROM_BUFFER));
}
#endif

/* The handle's Takt timer, NULL for a NULL handle: every Takt timer call
 * refuses that, so a NULL handle fails without configASSERT too. The timer is
 * the handle's first member, so the test compiles away (but for the assert);
 * written out because &handle->timer of a NULL handle is undefined. */
_Static_assert(offsetof(struct tmrTimerControl, timer) == 0, "the timer first");

static inline takt_soft_timer_t *timer_of(TimerHandle_t xTimer)
{
    configASSERT(xTimer != NULL); /* as FreeRTOS's timer calls do */
    return xTimer != NULL ? &xTimer->timer : NULL;
}

/* A command's result; macros, so that a refusal asserts at the API
 * function's line. */
#define command_result(call)                                                                      \
    __extension__({                                                                               \
        int command_err_ = (call);                                                                \
        configASSERT(command_err_ == TAKT_OK || command_err_ == TAKT_ERR_TIMEOUT);               \
        (BaseType_t)(command_err_ == TAKT_OK ? pdPASS : pdFAIL);                                  \
    })
#define isr_command_result(err, woken, pxHigherPriorityTaskWoken)                                 \
    __extension__({                                                                               \
        compat_woken((woken), (pxHigherPriorityTaskWoken));                                       \
        command_result(err);                                                                      \
    })

/* A command's result, traced as FreeRTOS traces its timer commands: id is
 * the command's number, value the tick it was given at (a start or reset),
 * the new period, or 0. Without the macro, value is not even worked out. */
#define commanded(result, timer, id, value)                                                       \
    __extension__({                                                                             \
        BaseType_t commanded_ = (result);                                                       \
        traceTIMER_COMMAND_SEND((timer), (id), (value), commanded_);                            \
        commanded_;                                                                             \
    })

BaseType_t xTimerStart(TimerHandle_t xTimer, TickType_t xTicksToWait)
{
    return commanded(command_result(takt_soft_timer_start(timer_of(xTimer), compat_timeout(xTicksToWait))), xTimer,
                     tmrCOMMAND_START, xTaskGetTickCount());
}

BaseType_t xTimerStop(TimerHandle_t xTimer, TickType_t xTicksToWait)
{
    return commanded(command_result(takt_soft_timer_stop(timer_of(xTimer), compat_timeout(xTicksToWait))), xTimer,
                     tmrCOMMAND_STOP, 0u);
}

BaseType_t xTimerReset(TimerHandle_t xTimer, TickType_t xTicksToWait)
{
    return commanded(command_result(takt_soft_timer_reset(timer_of(xTimer), compat_timeout(xTicksToWait))), xTimer,
                     tmrCOMMAND_RESET, xTaskGetTickCount());
}

BaseType_t xTimerChangePeriod(TimerHandle_t xTimer, TickType_t xNewPeriod, TickType_t xTicksToWait)
{
    configASSERT(xNewPeriod > 0);
    return commanded(
        command_result(takt_soft_timer_change_period(timer_of(xTimer), xNewPeriod, compat_timeout(xTicksToWait))),
        xTimer, tmrCOMMAND_CHANGE_PERIOD, xNewPeriod);
}

static void free_timer(void *timer, uint32_t unused)
{
    (void)unused;
    vPortFree(timer);
}

/* The timer task executes the delete later, and frees a dynamic handle's
 * memory with it, in the same command (so a posted delete never leaves the
 * memory behind). The handle may be gone once the command is posted: its
 * kind is read before. */
BaseType_t xTimerDelete(TimerHandle_t xTimer, TickType_t xTicksToWait)
{
    takt_soft_timer_t *timer = timer_of(xTimer);
    void (*release)(void *, uint32_t) = timer != NULL && xTimer->dynamic ? free_timer : NULL;
    int err = takt_soft_timer_delete_then_call(timer, compat_timeout(xTicksToWait), release, xTimer, 0);
    return commanded(command_result(err), xTimer, tmrCOMMAND_DELETE, 0u);
}

BaseType_t xTimerStartFromISR(TimerHandle_t xTimer, BaseType_t *pxHigherPriorityTaskWoken)
{
    bool woken = false;
    int err = takt_soft_timer_start_from_isr(timer_of(xTimer), &woken);
    return commanded(isr_command_result(err, woken, pxHigherPriorityTaskWoken), xTimer, tmrCOMMAND_START_FROM_ISR,
                     xTaskGetTickCountFromISR());
}

BaseType_t xTimerStopFromISR(TimerHandle_t xTimer, BaseType_t *pxHigherPriorityTaskWoken)
{
    bool woken = false;
    int err = takt_soft_timer_stop_from_isr(timer_of(xTimer), &woken);
    return commanded(isr_command_result(err, woken, pxHigherPriorityTaskWoken), xTimer, tmrCOMMAND_STOP_FROM_ISR, 0u);
}

BaseType_t xTimerResetFromISR(TimerHandle_t xTimer, BaseType_t *pxHigherPriorityTaskWoken)
{
    bool woken = false;
    int err = takt_soft_timer_reset_from_isr(timer_of(xTimer), &woken);
    return commanded(isr_command_result(err, woken, pxHigherPriorityTaskWoken), xTimer, tmrCOMMAND_RESET_FROM_ISR,
                     xTaskGetTickCountFromISR());
}

BaseType_t xTimerChangePeriodFromISR(TimerHandle_t xTimer, TickType_t xNewPeriod,
                                     BaseType_t *pxHigherPriorityTaskWoken)
{
    bool woken = false;
    int err = takt_soft_timer_change_period_from_isr(timer_of(xTimer), xNewPeriod, &woken);
    return commanded(isr_command_result(err, woken, pxHigherPriorityTaskWoken), xTimer,
                     tmrCOMMAND_CHANGE_PERIOD_FROM_ISR, xNewPeriod);
}

BaseType_t xTimerPendFunctionCall(PendedFunction_t xFunctionToPend, void *pvParameter1, uint32_t ulParameter2,
                                  TickType_t xTicksToWait)
{
    compat_kernel_ready();
    BaseType_t result = command_result(
        takt_soft_timer_pend_call(xFunctionToPend, pvParameter1, ulParameter2, compat_timeout(xTicksToWait)));
    tracePEND_FUNC_CALL(xFunctionToPend, pvParameter1, ulParameter2, result);
    return result;
}

BaseType_t xTimerPendFunctionCallFromISR(PendedFunction_t xFunctionToPend, void *pvParameter1,
                                         uint32_t ulParameter2, BaseType_t *pxHigherPriorityTaskWoken)
{
    bool woken = false;
    int err = takt_soft_timer_pend_call_from_isr(xFunctionToPend, pvParameter1, ulParameter2, &woken);
    BaseType_t result = isr_command_result(err, woken, pxHigherPriorityTaskWoken);
    tracePEND_FUNC_CALL_FROM_ISR(xFunctionToPend, pvParameter1, ulParameter2, result);
    return result;
}

void *pvTimerGetTimerID(const TimerHandle_t xTimer)
{
    return takt_soft_timer_id(timer_of(xTimer));
}

void vTimerSetTimerID(TimerHandle_t xTimer, void *pvNewID)
{
    int err = takt_soft_timer_set_id(timer_of(xTimer), pvNewID);
    configASSERT(err == TAKT_OK);
    (void)err;
}

BaseType_t xTimerIsTimerActive(TimerHandle_t xTimer)
{
    return takt_soft_timer_active(timer_of(xTimer)) ? pdTRUE : pdFALSE;
}

const char *pcTimerGetName(TimerHandle_t xTimer)
{
    return takt_soft_timer_name(timer_of(xTimer));
}

TickType_t xTimerGetPeriod(TimerHandle_t xTimer)
{
    return takt_soft_timer_period(timer_of(xTimer));
}

TickType_t xTimerGetExpiryTime(TimerHandle_t xTimer)
{
    return takt_soft_timer_expiry(timer_of(xTimer));
}

TAKT_COLD void vTimerResetState(void)
{
    configASSERT(!compat_scheduler_started());
}

#if configSUPPORT_STATIC_ALLOCATION
BaseType_t xTimerGetStaticBuffer(TimerHandle_t xTimer, StaticTimer_t **ppxTimerBuffer)
{
    configASSERT(xTimer != NULL && ppxTimerBuffer != NULL);
    if (xTimer == NULL || ppxTimerBuffer == NULL || xTimer->dynamic) {
        return pdFALSE;
    }
    *ppxTimerBuffer = xTimer;
    return pdTRUE;
}
#endif

void vTimerSetReloadMode(TimerHandle_t xTimer, const BaseType_t xAutoReload)
{
    int err = takt_soft_timer_set_auto_reload(timer_of(xTimer), xAutoReload != pdFALSE);
    configASSERT(err == TAKT_OK);
    (void)err;
}

BaseType_t xTimerGetReloadMode(TimerHandle_t xTimer)
{
    return takt_soft_timer_auto_reload(timer_of(xTimer)) ? pdTRUE : pdFALSE;
}

UBaseType_t uxTimerGetReloadMode(TimerHandle_t xTimer)
{
    return takt_soft_timer_auto_reload(timer_of(xTimer)) ? 1u : 0u;
}

TaskHandle_t xTimerGetTimerDaemonTaskHandle(void)
{
    return takt_soft_timer_task();
}
#endif
