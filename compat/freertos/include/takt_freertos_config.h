/*
 * The application's FreeRTOSConfig.h as Takt reads it: FreeRTOS's defaults for
 * what it leaves out, the Takt-specific options (configTAKT_*), and a clear
 * #error for every option set to something Takt does not support
 * (docs/freertos.md lists them). Included by FreeRTOS.h and by the kernel's
 * compat takt_config.h, so the kernel and the application see one configuration.
 */
#ifndef TAKT_FREERTOS_CONFIG_H
#define TAKT_FREERTOS_CONFIG_H

/* FreeRTOS.h defines these before reading FreeRTOSConfig.h, so a config that
 * says configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS (the V11
 * template's spelling) compares the same numbers here as on FreeRTOS. */
#define TICK_TYPE_WIDTH_16_BITS 0
#define TICK_TYPE_WIDTH_32_BITS 1
#define TICK_TYPE_WIDTH_64_BITS 2

#include "FreeRTOSConfig.h"

/* ---- required ---- */
#ifndef configTICK_RATE_HZ
#error "FreeRTOSConfig.h: configTICK_RATE_HZ is not defined"
#endif
#ifndef configMAX_PRIORITIES
#error "FreeRTOSConfig.h: configMAX_PRIORITIES is not defined"
#elif configMAX_PRIORITIES < 1 || configMAX_PRIORITIES > 1023
#error "FreeRTOSConfig.h: configMAX_PRIORITIES must be within 1..1023 on Takt"
#endif
#ifndef configMINIMAL_STACK_SIZE
#error "FreeRTOSConfig.h: configMINIMAL_STACK_SIZE is not defined"
#endif
#ifndef configUSE_PREEMPTION
#error "FreeRTOSConfig.h: configUSE_PREEMPTION is not defined"
#endif
#ifndef configUSE_IDLE_HOOK
#error "FreeRTOSConfig.h: configUSE_IDLE_HOOK is not defined"
#endif
#ifndef configUSE_TICK_HOOK
#error "FreeRTOSConfig.h: configUSE_TICK_HOOK is not defined"
#endif

/* ---- FreeRTOS defaults ---- */
#ifndef configENABLE_BACKWARD_COMPATIBILITY
#define configENABLE_BACKWARD_COMPATIBILITY 1
#endif
#ifndef configUSE_TICKLESS_IDLE
#define configUSE_TICKLESS_IDLE 0
#endif
/* Tickless idle (configUSE_TICKLESS_IDLE 1; docs/freertos.md "Tickless
 * idle"): the shortest sleep worth stopping the tick for, in ticks, and the
 * application's hooks around a sleep, nothing unless defined (src/tickless.c
 * calls them, in the idle task with interrupts held off). As in FreeRTOS.h,
 * the minimum is checked whether or not the tick ever stops. */
#ifndef configEXPECTED_IDLE_TIME_BEFORE_SLEEP
#define configEXPECTED_IDLE_TIME_BEFORE_SLEEP 2
#endif
#ifndef configPRE_SUPPRESS_TICKS_AND_SLEEP_PROCESSING
#define configPRE_SUPPRESS_TICKS_AND_SLEEP_PROCESSING(x)
#endif
#ifndef configPRE_SLEEP_PROCESSING
#define configPRE_SLEEP_PROCESSING(x)
#endif
#ifndef configPOST_SLEEP_PROCESSING
#define configPOST_SLEEP_PROCESSING(x)
#endif
/* The kernel's idle and timer tasks take these names. */
#ifndef configIDLE_TASK_NAME
#define configIDLE_TASK_NAME "IDLE"
#endif
#ifndef configTIMER_SERVICE_TASK_NAME
#define configTIMER_SERVICE_TASK_NAME "Tmr Svc"
#endif
#ifndef configUSE_TIME_SLICING
#define configUSE_TIME_SLICING 1
#endif
/* The idle task yields to the application's tasks at tskIDLE_PRIORITY. */
#ifndef configIDLE_SHOULD_YIELD
#define configIDLE_SHOULD_YIELD 1
#endif
#ifndef configMAX_TASK_NAME_LEN
#define configMAX_TASK_NAME_LEN 16
#endif
#ifndef configSUPPORT_DYNAMIC_ALLOCATION
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#endif
#ifndef configSUPPORT_STATIC_ALLOCATION
#define configSUPPORT_STATIC_ALLOCATION 0
#endif
/* 1: the layer provides the idle and timer tasks' memory itself (FreeRTOS V11.1's
 * option); 0: the application's vApplicationGet*TaskMemory (a weak default of the
 * layer's when it has none). */
#ifndef configKERNEL_PROVIDED_STATIC_MEMORY
#define configKERNEL_PROVIDED_STATIC_MEMORY 0
#endif
#ifndef configTOTAL_HEAP_SIZE
#define configTOTAL_HEAP_SIZE ((size_t)1 << 20)
#endif
#ifndef configUSE_MALLOC_FAILED_HOOK
#define configUSE_MALLOC_FAILED_HOOK 0
#endif
#ifndef configCHECK_FOR_STACK_OVERFLOW
#define configCHECK_FOR_STACK_OVERFLOW 0
#endif
#ifndef configUSE_MUTEXES
#define configUSE_MUTEXES 0
#endif
#ifndef configUSE_RECURSIVE_MUTEXES
#define configUSE_RECURSIVE_MUTEXES 0
#endif
#ifndef configUSE_COUNTING_SEMAPHORES
#define configUSE_COUNTING_SEMAPHORES 0
#endif
#ifndef configUSE_QUEUE_SETS
#define configUSE_QUEUE_SETS 0
#endif
#ifndef configUSE_TASK_NOTIFICATIONS
#define configUSE_TASK_NOTIFICATIONS 1
#endif
#ifndef configTASK_NOTIFICATION_ARRAY_ENTRIES
#define configTASK_NOTIFICATION_ARRAY_ENTRIES 1
#endif
#ifndef configUSE_TIMERS
#define configUSE_TIMERS 0
#endif
#ifndef configUSE_DAEMON_TASK_STARTUP_HOOK
#define configUSE_DAEMON_TASK_STARTUP_HOOK 0
#endif
#ifndef configUSE_EVENT_GROUPS
#define configUSE_EVENT_GROUPS 1
#endif
#ifndef configSTACK_DEPTH_TYPE
#define configSTACK_DEPTH_TYPE StackType_t
#endif
#ifndef configQUEUE_REGISTRY_SIZE
#define configQUEUE_REGISTRY_SIZE 0
#endif
#ifndef configUSE_TRACE_FACILITY
#define configUSE_TRACE_FACILITY 0
#endif
#ifndef configUSE_STATS_FORMATTING_FUNCTIONS
#define configUSE_STATS_FORMATTING_FUNCTIONS 0
#endif
#ifndef configSTATS_BUFFER_MAX_LENGTH
#define configSTATS_BUFFER_MAX_LENGTH 0xFFFF
#endif
#ifndef configGENERATE_RUN_TIME_STATS
#define configGENERATE_RUN_TIME_STATS 0
#endif
#ifndef configRUN_TIME_COUNTER_TYPE
#define configRUN_TIME_COUNTER_TYPE uint32_t
#endif
#ifndef configUSE_APPLICATION_TASK_TAG
#define configUSE_APPLICATION_TASK_TAG 0
#endif
#ifndef configNUM_THREAD_LOCAL_STORAGE_POINTERS
#define configNUM_THREAD_LOCAL_STORAGE_POINTERS 0
#endif
#ifndef INCLUDE_vTaskPrioritySet
#define INCLUDE_vTaskPrioritySet 1
#endif
#ifndef INCLUDE_uxTaskPriorityGet
#define INCLUDE_uxTaskPriorityGet 1
#endif
#ifndef INCLUDE_vTaskDelete
#define INCLUDE_vTaskDelete 1
#endif
#ifndef INCLUDE_vTaskSuspend
#define INCLUDE_vTaskSuspend 1
#endif
#ifndef INCLUDE_xTaskDelayUntil
#define INCLUDE_xTaskDelayUntil 1
#endif
#ifndef INCLUDE_vTaskDelay
#define INCLUDE_vTaskDelay 1
#endif
#ifndef INCLUDE_uxTaskGetStackHighWaterMark
#define INCLUDE_uxTaskGetStackHighWaterMark 0
#endif
#if configUSE_TIMERS
#ifndef configTIMER_TASK_PRIORITY
#error "FreeRTOSConfig.h: configUSE_TIMERS needs configTIMER_TASK_PRIORITY"
#endif
#ifndef configTIMER_QUEUE_LENGTH
#error "FreeRTOSConfig.h: configUSE_TIMERS needs configTIMER_QUEUE_LENGTH"
#endif
#ifndef configTIMER_TASK_STACK_DEPTH
#error "FreeRTOSConfig.h: configUSE_TIMERS needs configTIMER_TASK_STACK_DEPTH"
#endif
#endif

/* ---- Takt-specific options ---- */
/* Scheduling policy: TAKT_POLICY_FP (default), TAKT_POLICY_FP_LIST (fixed
 * priority over one list instead of the bitmap of lists), TAKT_POLICY_EDF_HEAP,
 * TAKT_POLICY_EDF_MLIST, TAKT_POLICY_EDF_RBTREE, TAKT_POLICY_HSF (servers:
 * server.h; tasks are created with xServerTaskCreate), or over the hardware
 * priority queue (a port with the device) TAKT_POLICY_FP_HWPQ and
 * TAKT_POLICY_EDF_HWPQ (kernel/include/takt/config_check.h). */
#ifndef configTAKT_POLICY
#define configTAKT_POLICY 1 /* TAKT_POLICY_FP */
#endif
/* Preemption mode: 0 full, 1 none, 2 deferred (the takt_preemption_t values).
 * Default: full with configUSE_PREEMPTION 1, none with configUSE_PREEMPTION 0. */
#define configTAKT_PREEMPT_FULL 0
#define configTAKT_PREEMPT_NONE 1
#define configTAKT_PREEMPT_DEFERRED 2
#ifndef configTAKT_PREEMPTION
#if configUSE_PREEMPTION
#define configTAKT_PREEMPTION configTAKT_PREEMPT_FULL
#else
#define configTAKT_PREEMPTION configTAKT_PREEMPT_NONE
#endif
#elif configTAKT_PREEMPTION < 0 || configTAKT_PREEMPTION > 2
#error "FreeRTOSConfig.h: configTAKT_PREEMPTION must be configTAKT_PREEMPT_FULL, _NONE or _DEFERRED"
#elif configTAKT_PREEMPTION == configTAKT_PREEMPT_FULL && !configUSE_PREEMPTION
#error "FreeRTOSConfig.h: configTAKT_PREEMPTION is FULL but configUSE_PREEMPTION is 0"
#endif
#if configTAKT_POLICY == 5 /* TAKT_POLICY_HSF */ && configTAKT_PREEMPTION != configTAKT_PREEMPT_FULL
#error "FreeRTOSConfig.h: configTAKT_POLICY TAKT_POLICY_HSF needs full preemption (configUSE_PREEMPTION 1, configTAKT_PREEMPTION FULL)"
#endif
/* Most tasks alive at once (idle and timer service tasks included). */
#ifndef configTAKT_MAX_TASKS
#define configTAKT_MAX_TASKS 32
#endif
/* Most servers (TAKT_POLICY_HSF). */
#ifndef configTAKT_MAX_SERVERS
#define configTAKT_MAX_SERVERS 8
#endif
/* Timer queue backend: TAKT_PQ_LIST (1), TAKT_PQ_HEAP (2), TAKT_PQ_RBTREE (3).
 * The heap by default: a delay that ends after those already queued (the usual
 * case) costs the same however many are (the list walks them all, the tree's
 * descent grows with log n). With fixed priorities and servers its pop is also
 * cheaper than the tree's; under EDF, whose queue also holds a deadline timer
 * per task, the heap's pop sifts down, so the EDF policies default to the tree
 * (docs/benchmarks.md, "Timer queue"). The heap costs a pointer of RAM per
 * timer (3 per task, 1 per server). */
#ifndef configTAKT_TIMER_QUEUE
#if (configTAKT_POLICY >= 2 && configTAKT_POLICY <= 4) || configTAKT_POLICY == 7 /* the EDF policies */
#define configTAKT_TIMER_QUEUE 3
#else
#define configTAKT_TIMER_QUEUE 2
#endif
#endif
/* Kernel trace ring (events; 0: no trace). */
#ifndef configTAKT_TRACE_EVENTS
#define configTAKT_TRACE_EVENTS 0
#endif
/* Initial tick count (tests start it just below the 32-bit wraparound). */
#ifndef configTAKT_TICK_START
#define configTAKT_TICK_START 0
#endif
/* Sim port: virtual milliseconds after which vTaskStartScheduler returns
 * (0: run until vTaskEndScheduler). */
#ifndef configTAKT_SIM_END_MS
#define configTAKT_SIM_END_MS 0
#endif

/* ---- what Takt does not support: refused here, named ---- */
#if defined(configUSE_16_BIT_TICKS) && configUSE_16_BIT_TICKS
#error "FreeRTOSConfig.h: configUSE_16_BIT_TICKS = 1 is not supported by Takt (ticks are 32 bits)"
#endif
#if defined(configTICK_TYPE_WIDTH_IN_BITS)
#if configTICK_TYPE_WIDTH_IN_BITS == TICK_TYPE_WIDTH_16_BITS
#error "FreeRTOSConfig.h: configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_16_BITS is not supported by Takt (ticks are 32 bits: TICK_TYPE_WIDTH_32_BITS)"
#elif configTICK_TYPE_WIDTH_IN_BITS == TICK_TYPE_WIDTH_64_BITS
#error "FreeRTOSConfig.h: configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_64_BITS is not supported by Takt (ticks are 32 bits: TICK_TYPE_WIDTH_32_BITS)"
#elif configTICK_TYPE_WIDTH_IN_BITS != TICK_TYPE_WIDTH_32_BITS
#error "FreeRTOSConfig.h: configTICK_TYPE_WIDTH_IN_BITS must be TICK_TYPE_WIDTH_32_BITS on Takt (ticks are 32 bits)"
#endif
#endif
/* Tickless idle: 1, the port's own sleep (Takt's ports leave tick interrupts out and step
 * the tick count themselves). 2, the application's portSUPPRESS_TICKS_AND_SLEEP,
 * is not supported: the kernel does not call one, nor offers it vTaskStepTick. */
#if configUSE_TICKLESS_IDLE == 2
#error "FreeRTOSConfig.h: configUSE_TICKLESS_IDLE 2 (the application's own portSUPPRESS_TICKS_AND_SLEEP) is not supported by Takt: use 1, the port's tickless idle (docs/freertos.md)"
#elif configUSE_TICKLESS_IDLE != 0 && configUSE_TICKLESS_IDLE != 1
#error "FreeRTOSConfig.h: configUSE_TICKLESS_IDLE must be 0 or 1 on Takt (1: the port's tickless idle)"
#endif
#ifdef portSUPPRESS_TICKS_AND_SLEEP
#error "FreeRTOSConfig.h: portSUPPRESS_TICKS_AND_SLEEP is not called by Takt: with configUSE_TICKLESS_IDLE 1 the port sleeps itself (hook in with configPRE_SLEEP_PROCESSING / configPOST_SLEEP_PROCESSING)"
#endif
#if configEXPECTED_IDLE_TIME_BEFORE_SLEEP < 2
#error "FreeRTOSConfig.h: configEXPECTED_IDLE_TIME_BEFORE_SLEEP must not be less than 2 (a sleep of one tick leaves no tick out)"
#endif
#if defined(configUSE_CO_ROUTINES) && configUSE_CO_ROUTINES
#error "FreeRTOSConfig.h: configUSE_CO_ROUTINES is not supported by Takt"
#endif
#if (defined(configNUMBER_OF_CORES) && configNUMBER_OF_CORES > 1) || \
    (defined(configNUM_CORES) && configNUM_CORES > 1)
#error "FreeRTOSConfig.h: configNUMBER_OF_CORES > 1 (SMP) is not supported by Takt"
#endif
/* Run-time statistics need the application's counter, as in FreeRTOS. */
#if configGENERATE_RUN_TIME_STATS
#if !defined(portGET_RUN_TIME_COUNTER_VALUE) && !defined(portALT_GET_RUN_TIME_COUNTER_VALUE)
#error "FreeRTOSConfig.h: configGENERATE_RUN_TIME_STATS needs portGET_RUN_TIME_COUNTER_VALUE() or portALT_GET_RUN_TIME_COUNTER_VALUE(x)"
#endif
#ifndef portCONFIGURE_TIMER_FOR_RUN_TIME_STATS
#error "FreeRTOSConfig.h: configGENERATE_RUN_TIME_STATS needs portCONFIGURE_TIMER_FOR_RUN_TIME_STATS()"
#endif
#endif
#if configNUM_THREAD_LOCAL_STORAGE_POINTERS < 0 || configNUM_THREAD_LOCAL_STORAGE_POINTERS > 62
#error "FreeRTOSConfig.h: configNUM_THREAD_LOCAL_STORAGE_POINTERS must be within 0..62 on Takt"
#endif
#if (defined(configUSE_NEWLIB_REENTRANT) && configUSE_NEWLIB_REENTRANT) || \
    (defined(configUSE_C_RUNTIME_TLS_SUPPORT) && configUSE_C_RUNTIME_TLS_SUPPORT)
#error "FreeRTOSConfig.h: configUSE_NEWLIB_REENTRANT / configUSE_C_RUNTIME_TLS_SUPPORT are not supported by Takt"
#endif
#if defined(configENABLE_MPU) && configENABLE_MPU
#error "FreeRTOSConfig.h: configENABLE_MPU is not supported by Takt"
#endif
#ifndef configUSE_SB_COMPLETED_CALLBACK
#define configUSE_SB_COMPLETED_CALLBACK 0
#endif
#if configUSE_TASK_NOTIFICATIONS && (configTASK_NOTIFICATION_ARRAY_ENTRIES < 1 || configTASK_NOTIFICATION_ARRAY_ENTRIES > 32)
#error "FreeRTOSConfig.h: configTASK_NOTIFICATION_ARRAY_ENTRIES must be within 1..32 on Takt"
#endif
#if configCHECK_FOR_STACK_OVERFLOW < 0 || configCHECK_FOR_STACK_OVERFLOW > 2
#error "FreeRTOSConfig.h: configCHECK_FOR_STACK_OVERFLOW must be 0, 1 or 2 (Takt checks a guard pattern: method 2)"
#endif
#if configSUPPORT_DYNAMIC_ALLOCATION == 0 && configSUPPORT_STATIC_ALLOCATION == 0
#error "FreeRTOSConfig.h: configSUPPORT_DYNAMIC_ALLOCATION and configSUPPORT_STATIC_ALLOCATION are both 0"
#endif

/* Marks a FreeRTOS function Takt does not provide: calling it stops the build
 * with this message (GCC and Clang). */
#define TAKT_FREERTOS_UNSUPPORTED(what) \
    __attribute__((error("not supported by Takt's FreeRTOS layer: " what " (see docs/freertos.md)")))

/* Marks a FreeRTOS function whose option is off: calling it stops the build
 * naming the option (FreeRTOS would leave it undeclared or undefined). */
#define TAKT_FREERTOS_NEEDS(option) \
    __attribute__((error("needs " option " in FreeRTOSConfig.h (see docs/freertos.md)")))

/* The words each task keeps for the layer (the kernel's
 * TAKT_CONFIG_TASK_USER_WORDS): the task number (configUSE_TRACE_FACILITY),
 * the application task tag, the thread-local storage pointers, then the
 * record of the call about to block when a blocking trace macro is defined
 * (TAKT_FREERTOS_TRACES_BLOCKING, takt_freertos_trace.h). Only what is
 * configured is there: with none of them the control block has no such
 * field. */
#define TAKT_FREERTOS_WORD_TASK_NUMBER 0
#define TAKT_FREERTOS_WORD_TAG (TAKT_FREERTOS_WORD_TASK_NUMBER + (configUSE_TRACE_FACILITY ? 1 : 0))
#define TAKT_FREERTOS_WORD_TLS (TAKT_FREERTOS_WORD_TAG + (configUSE_APPLICATION_TASK_TAG ? 1 : 0))
#define TAKT_FREERTOS_WORD_BLOCKING (TAKT_FREERTOS_WORD_TLS + configNUM_THREAD_LOCAL_STORAGE_POINTERS)
#define TAKT_FREERTOS_TASK_WORDS (TAKT_FREERTOS_WORD_BLOCKING + TAKT_FREERTOS_TRACES_BLOCKING)

/* Under hsf every task lives in a server: the creation calls without one are
 * refused at compile time (server.h has the ones with a server). */
#if configTAKT_POLICY == 5 /* TAKT_POLICY_HSF */
#define TAKT_FREERTOS_NOT_UNDER_HSF(what) \
    __attribute__((error(what " under configTAKT_POLICY TAKT_POLICY_HSF: tasks live in servers, use xServerTaskCreate (server.h, docs/freertos.md)")))
#else
#define TAKT_FREERTOS_NOT_UNDER_HSF(what)
#endif

#include "takt_freertos_trace.h"

#endif
