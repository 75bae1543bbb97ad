/*
 * FreeRTOS's tickless idle (configUSE_TICKLESS_IDLE 1) on the kernel's: the
 * port leaves tick interrupts out while the idle task runs alone and steps the tick count
 * over the ticks it left out (takt_tickless_idle_ticks, takt_tick_step); the
 * layer supplies the kernel's sleep hooks, which call FreeRTOS's sleep macros
 * where FreeRTOS's ports call them, and answers eTaskConfirmSleepModeStatus
 * from the kernel's idle query. docs/freertos.md "Tickless idle".
 */
#include "compat.h"
#include "task.h"

#if configUSE_TICKLESS_IDLE == 1

/* What configPRE_SLEEP_PROCESSING was given for the wait under way:
 * configPOST_SLEEP_PROCESSING is given it too, as FreeRTOS's ports pass the
 * expected idle time, not what the application left in its copy. Only the
 * idle task sleeps, one wait at a time. */
static TickType_t wait_expected;

/*
 * Assumptions: the idle task, interrupts held off (FreeRTOS calls
 * configPRE_SUPPRESS_TICKS_AND_SLEEP_PROCESSING with the scheduler suspended
 * and interrupts on), ticks the kernel's ticks to the next timer or
 * TAKT_IDLE_TICKS_UNBOUNDED (portMAX_DELAY), or a port's cap of them, at
 * least configEXPECTED_IDLE_TIME_BEFORE_SLEEP (the kernel asks only then,
 * as FreeRTOS does).
 */
takt_tick_t takt_sleep_plan(takt_tick_t ticks)
{
    TickType_t xExpectedIdleTime = ticks;
    configPRE_SUPPRESS_TICKS_AND_SLEEP_PROCESSING(xExpectedIdleTime);
    /* Longer than the kernel's answer would sleep past a timer: the kernel's
     * is the most there is. */
    return xExpectedIdleTime > ticks ? ticks : xExpectedIdleTime;
}

/*
 * Assumptions: the idle task, interrupts held off, the tick interrupts held back; the
 * port waits for an interrupt next unless *ticks comes back 0. A sleep has
 * one such wait on the sim, up to two on the Cortex-M port, none when the
 * port gives the sleep up after the plan (a tick came due): so the low-power
 * trace brackets each wait, not the plan, and always comes in pairs.
 */
void takt_sleep_enter(takt_tick_t *ticks)
{
    wait_expected = *ticks;
    traceLOW_POWER_IDLE_BEGIN();
    TickType_t xModifiableIdleTime = *ticks;
    configPRE_SLEEP_PROCESSING(xModifiableIdleTime);
    /* Only 0 means something (the application made the processor wait
     * itself), as in FreeRTOS's ports. */
    if (xModifiableIdleTime == 0) {
        *ticks = 0;
    }
}

/* Assumptions: the idle task, interrupts held off, after the wait and before
 * the interrupt that ended it runs. */
void takt_sleep_exit(takt_tick_t ticks)
{
    (void)ticks;
    TickType_t xExpectedIdleTime = wait_expected;
    configPOST_SLEEP_PROCESSING(xExpectedIdleTime);
    (void)xExpectedIdleTime;
    traceLOW_POWER_IDLE_END();
}

eSleepModeStatus eTaskConfirmSleepModeStatus(void)
{
    takt_tick_t ticks = takt_tickless_idle_ticks();
    if (ticks == 0) {
        return eAbortSleep;
    }
#if INCLUDE_vTaskSuspend == 1
    if (ticks == TAKT_IDLE_TICKS_UNBOUNDED) {
        return eNoTasksWaitingTimeout; /* no timer: only an interrupt ends the sleep */
    }
#endif
    return eStandardSleep;
}

#endif
