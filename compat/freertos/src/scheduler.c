/*
 * Scheduler control, the hooks, and configASSERT for the kernel's own checks.
 *
 * Takt's takt_init must run before any object exists, while FreeRTOS lets the
 * application create tasks and queues before vTaskStartScheduler: the first
 * call that needs the kernel initialises it (compat_kernel_ready).
 */
#include "compat.h"
#include "task.h"

static bool kernel_initialised;
static bool scheduler_started;
static bool scheduler_ran; /* a run ended (sim): its tasks are freed at the next start-up */

/* The first call's work, apart from the test every creating call makes. */
TAKT_COLD static void kernel_initialise(void)
{
    if (scheduler_ran) {
        takt_teardown();
        scheduler_ran = false;
    }
    compat_port_prepare();
    takt_init_params_t params = {
        .scheduler = (takt_scheduler_t)(configTAKT_POLICY - TAKT_POLICY_FP),
        .tick_start = (takt_tick_t)configTAKT_TICK_START,
        .round_robin = configUSE_TIME_SLICING != 0,
        .preemption = (takt_preemption_t)configTAKT_PREEMPTION,
    };
    int err = takt_init(&params);
    configASSERT(err == TAKT_OK);
    (void)err;
    kernel_initialised = true;
}

void compat_kernel_ready(void)
{
    if (!kernel_initialised) {
        kernel_initialise();
    }
}

bool compat_scheduler_started(void)
{
    return scheduler_started;
}

TAKT_COLD void vTaskStartScheduler(void)
{
    configASSERT(!scheduler_started); /* called from a task: it runs already */
    if (scheduler_started) {
        return;
    }
    compat_kernel_ready();
#if configGENERATE_RUN_TIME_STATS
    portCONFIGURE_TIMER_FOR_RUN_TIME_STATS(); /* before the kernel's first reading, at takt_start */
#endif
#if configUSE_DAEMON_TASK_STARTUP_HOOK && configUSE_TIMERS
    /* The hook runs when the timer task first runs, so the task must exist
     * from the start (Takt otherwise creates it with the first timer). Under
     * hsf without a timer server it cannot yet: the hook then runs when the
     * first timer creates the task. */
    int timer_task = takt_soft_timer_task_create();
    configASSERT(timer_task == TAKT_OK || timer_task == TAKT_ERR_STATE);
    (void)timer_task;
#endif
    scheduler_started = true;
#ifdef TAKT_FREERTOS_TRACES_STARTING_SCHEDULER
    {
        TaskHandle_t xIdleTaskHandles[1] = {xTaskGetIdleTaskHandle()}; /* one core */
        traceSTARTING_SCHEDULER(xIdleTaskHandles);
    }
#endif
    takt_start();
    /* Sim port: the simulation ended. Task handles stay readable until the
     * next FreeRTOS call that needs the kernel, which starts from scratch. */
    scheduler_started = false;
    scheduler_ran = true;
    kernel_initialised = false;
}

void vTaskSuspendAll(void)
{
    int err = takt_sched_lock();
    configASSERT(err == TAKT_OK);
    (void)err;
}

BaseType_t xTaskResumeAll(void)
{
    int result = takt_sched_unlock();
    configASSERT(result >= 0);
    return result > 0 ? pdTRUE : pdFALSE;
}

void vTaskEndScheduler(void)
{
    compat_port_end_scheduler();
}

TAKT_COLD void vTaskResetState(void)
{
    configASSERT(!scheduler_started);
    if (scheduler_started) {
        return;
    }
    if (scheduler_ran || kernel_initialised) {
        (void)takt_teardown();
    }
    scheduler_ran = false;
    kernel_initialised = false;
}

BaseType_t xTaskGetSchedulerState(void)
{
    if (!scheduler_started) {
        return taskSCHEDULER_NOT_STARTED;
    }
    return takt_sched_lock_depth() > 0 ? taskSCHEDULER_SUSPENDED : taskSCHEDULER_RUNNING;
}

TickType_t xTaskGetTickCount(void)
{
    return takt_tick_count();
}

TickType_t xTaskGetTickCountFromISR(void)
{
    return takt_tick_count();
}

BaseType_t xTaskCatchUpTicks(TickType_t xTicksToCatchUp)
{
    bool switched = false;
    int err = takt_tick_catch_up(xTicksToCatchUp, &switched);
    configASSERT(err == TAKT_OK);
    (void)err;
    return switched ? pdTRUE : pdFALSE;
}

void vTaktFreeRTOSAssertFailed(const char *file, int line)
{
    (void)file;
    (void)line;
    configASSERT(0);
}

/* The idle and tick hooks are the kernel's (TAKT_CONFIG_IDLE_HOOK and
 * TAKT_CONFIG_TICK_HOOK follow configUSE_IDLE_HOOK and configUSE_TICK_HOOK):
 * in the idle loop, and in the tick interrupt after the tick count advanced,
 * where FreeRTOS calls them. */
#if configUSE_IDLE_HOOK
void takt_idle_hook(void)
{
    vApplicationIdleHook();
}
#endif

#if configUSE_TICK_HOOK
void takt_tick_hook(void)
{
    vApplicationTickHook();
}
#endif

#if configUSE_DAEMON_TASK_STARTUP_HOOK && configUSE_TIMERS
void takt_soft_timer_startup_hook(void)
{
    vApplicationDaemonTaskStartupHook();
}
#endif

#if configCHECK_FOR_STACK_OVERFLOW > 0
void takt_stack_overflow_hook(takt_task_t *task)
{
    vApplicationStackOverflowHook(task, (char *)takt_task_name(task));
}
#endif
