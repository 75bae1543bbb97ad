/*
 * Validates the application's takt_config.h: every option must be defined and
 * within range, so a misconfiguration stops the build instead of misbehaving.
 */
#ifndef TAKT_CONFIG_CHECK_H
#define TAKT_CONFIG_CHECK_H

#define TAKT_POLICY_FP 1
#define TAKT_POLICY_EDF_HEAP 2
#define TAKT_POLICY_EDF_MLIST 3
#define TAKT_POLICY_EDF_RBTREE 4
#define TAKT_POLICY_HSF 5 /* servers (takt/server.h); full preemption only */
#define TAKT_POLICY_FP_LIST 6 /* fixed priority over one list instead of the bitmap of lists */
#define TAKT_POLICY_EDF_HWPQ 7 /* EDF over the hardware priority queue (a port with hw/'s device) */
#define TAKT_POLICY_FP_HWPQ 8 /* fixed priority, the levels indexed by the hardware priority queue */

#define TAKT_PQ_LIST 1
#define TAKT_PQ_HEAP 2
#define TAKT_PQ_RBTREE 3
#define TAKT_PQ_HW 4 /* the hardware priority queue's unit 1 (a port with hw/'s device) */

#include "takt_config.h"

#ifndef TAKT_CONFIG_POLICY
#error "takt_config.h: TAKT_CONFIG_POLICY is not defined (TAKT_POLICY_FP, _EDF_HEAP, _EDF_MLIST, _EDF_RBTREE, _HSF, _FP_LIST, _EDF_HWPQ, _FP_HWPQ)"
#elif TAKT_CONFIG_POLICY < TAKT_POLICY_FP || TAKT_CONFIG_POLICY > TAKT_POLICY_FP_HWPQ
#error "takt_config.h: TAKT_CONFIG_POLICY must be TAKT_POLICY_FP, _EDF_HEAP, _EDF_MLIST, _EDF_RBTREE, _HSF, _FP_LIST, _EDF_HWPQ or _FP_HWPQ"
#endif

/* Optional: 1 binds the scheduler to TAKT_CONFIG_POLICY at compile time
 * (direct calls, the other policies not linked; takt_init accepts only that
 * scheduler). 0 (default): the scheduler is takt_init's runtime choice. */
#ifndef TAKT_CONFIG_POLICY_ONLY
#define TAKT_CONFIG_POLICY_ONLY 0
#elif TAKT_CONFIG_POLICY_ONLY != 0 && TAKT_CONFIG_POLICY_ONLY != 1
#error "takt_config.h: TAKT_CONFIG_POLICY_ONLY must be 0 or 1"
#endif

#ifndef TAKT_CONFIG_MAX_PRIORITIES
#error "takt_config.h: TAKT_CONFIG_MAX_PRIORITIES is not defined"
#elif TAKT_CONFIG_MAX_PRIORITIES < 2 || TAKT_CONFIG_MAX_PRIORITIES > 1024
#error "takt_config.h: TAKT_CONFIG_MAX_PRIORITIES must be within 2..1024"
#endif

#ifndef TAKT_CONFIG_MAX_TASKS
#error "takt_config.h: TAKT_CONFIG_MAX_TASKS is not defined"
#elif TAKT_CONFIG_MAX_TASKS < 2 || TAKT_CONFIG_MAX_TASKS > 1024
#error "takt_config.h: TAKT_CONFIG_MAX_TASKS must be within 2..1024"
#endif

/* Optional (only the hsf scheduler uses it): servers the kernel can hold. Each
 * has a fixed-priority ready queue of TAKT_CONFIG_MAX_PRIORITIES lists. */
#ifndef TAKT_CONFIG_MAX_SERVERS
#define TAKT_CONFIG_MAX_SERVERS 8
#elif TAKT_CONFIG_MAX_SERVERS < 1 || TAKT_CONFIG_MAX_SERVERS > 1024
#error "takt_config.h: TAKT_CONFIG_MAX_SERVERS must be within 1..1024"
#endif

/* Optional: the names of the kernel's own tasks (the FreeRTOS layer gives
 * FreeRTOS's, "IDLE" and "Tmr Svc"). */
#ifndef TAKT_CONFIG_IDLE_TASK_NAME
#define TAKT_CONFIG_IDLE_TASK_NAME "idle"
#endif
#ifndef TAKT_CONFIG_TIMER_TASK_NAME
#define TAKT_CONFIG_TIMER_TASK_NAME "timer"
#endif

#ifndef TAKT_CONFIG_ROUND_ROBIN
#error "takt_config.h: TAKT_CONFIG_ROUND_ROBIN is not defined (0 or 1)"
#endif

#ifndef TAKT_CONFIG_TIMER_QUEUE
#error "takt_config.h: TAKT_CONFIG_TIMER_QUEUE is not defined (TAKT_PQ_LIST, TAKT_PQ_HEAP, TAKT_PQ_RBTREE, TAKT_PQ_HW)"
#elif TAKT_CONFIG_TIMER_QUEUE < TAKT_PQ_LIST || TAKT_CONFIG_TIMER_QUEUE > TAKT_PQ_HW
#error "takt_config.h: TAKT_CONFIG_TIMER_QUEUE must be TAKT_PQ_LIST, TAKT_PQ_HEAP, TAKT_PQ_RBTREE or TAKT_PQ_HW"
#endif

#ifndef TAKT_CONFIG_DYNAMIC_ALLOCATION
#error "takt_config.h: TAKT_CONFIG_DYNAMIC_ALLOCATION is not defined (0 or 1)"
#elif TAKT_CONFIG_DYNAMIC_ALLOCATION && (!defined(TAKT_CONFIG_MALLOC) || !defined(TAKT_CONFIG_FREE))
#error "takt_config.h: dynamic allocation needs TAKT_CONFIG_MALLOC(size) and TAKT_CONFIG_FREE(ptr)"
#endif

/* The idle task's control block and stack: the kernel's (the stack
 * TAKT_CONFIG_IDLE_STACK_SIZE bytes), or, with TAKT_CONFIG_IDLE_MEMORY_FROM_APP
 * 1, the application's (takt_idle_memory, takt/kernel.h; the size is then not
 * used). */
#ifndef TAKT_CONFIG_IDLE_STACK_SIZE
#error "takt_config.h: TAKT_CONFIG_IDLE_STACK_SIZE is not defined"
#endif
#if defined(TAKT_CONFIG_IDLE_STACK_FROM_APP) || defined(TAKT_CONFIG_SOFT_TIMER_STACK_FROM_APP)
#error "takt_config.h: TAKT_CONFIG_*_STACK_FROM_APP are now TAKT_CONFIG_*_MEMORY_FROM_APP (the hooks give the control block too)"
#endif
#ifndef TAKT_CONFIG_IDLE_MEMORY_FROM_APP
#define TAKT_CONFIG_IDLE_MEMORY_FROM_APP 0
#elif TAKT_CONFIG_IDLE_MEMORY_FROM_APP != 0 && TAKT_CONFIG_IDLE_MEMORY_FROM_APP != 1
#error "takt_config.h: TAKT_CONFIG_IDLE_MEMORY_FROM_APP must be 0 or 1"
#endif

#ifndef TAKT_CONFIG_MAX_NAME_LEN
#error "takt_config.h: TAKT_CONFIG_MAX_NAME_LEN is not defined"
#elif TAKT_CONFIG_MAX_NAME_LEN < 1
#error "takt_config.h: TAKT_CONFIG_MAX_NAME_LEN must be at least 1"
#endif

#if !defined(TAKT_CONFIG_STACK_CHECK) || !defined(TAKT_CONFIG_STACK_OVERFLOW_HOOK)
#error "takt_config.h: TAKT_CONFIG_STACK_CHECK and TAKT_CONFIG_STACK_OVERFLOW_HOOK must be defined (0 or 1)"
#endif

#ifndef TAKT_CONFIG_DEADLINE_MISS_HOOK
#error "takt_config.h: TAKT_CONFIG_DEADLINE_MISS_HOOK is not defined (0 or 1)"
#endif

#if !defined(TAKT_CONFIG_TRACE) || !defined(TAKT_CONFIG_TRACE_EVENTS) || !defined(TAKT_CONFIG_TRACE_DRAIN_HOOK)
#error "takt_config.h: TAKT_CONFIG_TRACE, TAKT_CONFIG_TRACE_EVENTS and TAKT_CONFIG_TRACE_DRAIN_HOOK must be defined"
#elif TAKT_CONFIG_TRACE && (TAKT_CONFIG_TRACE_EVENTS < 2 || (TAKT_CONFIG_TRACE_EVENTS & (TAKT_CONFIG_TRACE_EVENTS - 1)) != 0)
#error "takt_config.h: TAKT_CONFIG_TRACE_EVENTS must be a power of two, at least 2"
#endif
/* Optional: the application's takt_trace_hook (takt/trace.h) sees every
 * trace event as the kernel records it, with the ring (TAKT_CONFIG_TRACE) or
 * without it, and each tick (TAKT_EV_TICK, for the hook only). */
#ifndef TAKT_CONFIG_TRACE_HOOK
#define TAKT_CONFIG_TRACE_HOOK 0
#elif TAKT_CONFIG_TRACE_HOOK != 0 && TAKT_CONFIG_TRACE_HOOK != 1
#error "takt_config.h: TAKT_CONFIG_TRACE_HOOK must be 0 or 1"
#endif

#ifndef TAKT_CONFIG_TASK_NOTIFICATIONS
#error "takt_config.h: TAKT_CONFIG_TASK_NOTIFICATIONS is not defined (notification slots per task, 0..32)"
#elif TAKT_CONFIG_TASK_NOTIFICATIONS < 0 || TAKT_CONFIG_TASK_NOTIFICATIONS > 32
#error "takt_config.h: TAKT_CONFIG_TASK_NOTIFICATIONS must be within 0..32"
#endif

#if !defined(TAKT_CONFIG_SOFT_TIMER_PRIORITY) || !defined(TAKT_CONFIG_SOFT_TIMER_STACK_SIZE) || !defined(TAKT_CONFIG_SOFT_TIMER_COMMANDS)
#error "takt_config.h: TAKT_CONFIG_SOFT_TIMER_PRIORITY, _STACK_SIZE and _COMMANDS must be defined"
#elif TAKT_CONFIG_SOFT_TIMER_PRIORITY < 1 || TAKT_CONFIG_SOFT_TIMER_PRIORITY >= TAKT_CONFIG_MAX_PRIORITIES
#error "takt_config.h: TAKT_CONFIG_SOFT_TIMER_PRIORITY must be within 1..TAKT_CONFIG_MAX_PRIORITIES-1"
#elif TAKT_CONFIG_SOFT_TIMER_COMMANDS < 1
#error "takt_config.h: TAKT_CONFIG_SOFT_TIMER_COMMANDS must be at least 1"
#endif
/* TAKT_CONFIG_SOFT_TIMER_MEMORY_FROM_APP 1: the application supplies the timer
 * task's control block and stack (takt_soft_timer_memory, takt/soft_timer.h),
 * not the kernel. */
#ifndef TAKT_CONFIG_SOFT_TIMER_MEMORY_FROM_APP
#define TAKT_CONFIG_SOFT_TIMER_MEMORY_FROM_APP 0
#elif TAKT_CONFIG_SOFT_TIMER_MEMORY_FROM_APP != 0 && TAKT_CONFIG_SOFT_TIMER_MEMORY_FROM_APP != 1
#error "takt_config.h: TAKT_CONFIG_SOFT_TIMER_MEMORY_FROM_APP must be 0 or 1"
#endif

/* Application hooks in the idle loop and the tick interrupt (as FreeRTOS's
 * configUSE_IDLE_HOOK / configUSE_TICK_HOOK); off, they are not compiled in. */
#ifndef TAKT_CONFIG_IDLE_HOOK
#define TAKT_CONFIG_IDLE_HOOK 0
#elif TAKT_CONFIG_IDLE_HOOK != 0 && TAKT_CONFIG_IDLE_HOOK != 1
#error "takt_config.h: TAKT_CONFIG_IDLE_HOOK must be 0 or 1"
#endif
/* Where the idle task runs. 0 (the default): at level 0, alone, below every
 * task (SCHEDULING.md). 1: at priority 1 with the lowest tasks, as FreeRTOS's
 * idle task shares tskIDLE_PRIORITY: under fixed priority it takes its place
 * among them in the ready order (a round-robin slice reaches it, a task of
 * that level that becomes ready does not preempt it); under EDF and hsf it
 * stays the fallback that runs when nothing else is ready. */
#ifndef TAKT_CONFIG_IDLE_SHARES_LEVEL
#define TAKT_CONFIG_IDLE_SHARES_LEVEL 0
#elif TAKT_CONFIG_IDLE_SHARES_LEVEL != 0 && TAKT_CONFIG_IDLE_SHARES_LEVEL != 1
#error "takt_config.h: TAKT_CONFIG_IDLE_SHARES_LEVEL must be 0 or 1"
#endif
/* With the level shared: the idle task yields to a ready task of its level at
 * every pass of its loop instead of sleeping (FreeRTOS's
 * configIDLE_SHOULD_YIELD); 0: it sleeps until an interrupt, and such a task
 * runs when the idle task's slice ends. */
#ifndef TAKT_CONFIG_IDLE_YIELDS
#define TAKT_CONFIG_IDLE_YIELDS 1
#elif TAKT_CONFIG_IDLE_YIELDS != 0 && TAKT_CONFIG_IDLE_YIELDS != 1
#error "takt_config.h: TAKT_CONFIG_IDLE_YIELDS must be 0 or 1"
#endif
/* Optional: the application's takt_soft_timer_startup_hook, called once by the
 * timer task before its first command (FreeRTOS's daemon task start-up hook). */
#ifndef TAKT_CONFIG_SOFT_TIMER_STARTUP_HOOK
#define TAKT_CONFIG_SOFT_TIMER_STARTUP_HOOK 0
#elif TAKT_CONFIG_SOFT_TIMER_STARTUP_HOOK != 0 && TAKT_CONFIG_SOFT_TIMER_STARTUP_HOOK != 1
#error "takt_config.h: TAKT_CONFIG_SOFT_TIMER_STARTUP_HOOK must be 0 or 1"
#endif
#ifndef TAKT_CONFIG_TICK_HOOK
#define TAKT_CONFIG_TICK_HOOK 0
#elif TAKT_CONFIG_TICK_HOOK != 0 && TAKT_CONFIG_TICK_HOOK != 1
#error "takt_config.h: TAKT_CONFIG_TICK_HOOK must be 0 or 1"
#endif

/* Tickless idle (FreeRTOS's configUSE_TICKLESS_IDLE 1). 1: when the idle
 * task runs alone and no timer is due for TAKT_CONFIG_TICKLESS_MIN_TICKS
 * ticks or more, the port leaves the tick interrupts out up to the next
 * timer's tick or the next interrupt, and steps the tick count over them
 * (takt_tickless_idle_ticks, takt_tick_step). The tick hook is not called for
 * them, and the trace has no tick event for them. Never under hsf: servers
 * spend budget at every tick. 0 (default): a tick at every period, and none
 * of it is built. */
#ifndef TAKT_CONFIG_TICKLESS_IDLE
#define TAKT_CONFIG_TICKLESS_IDLE 0
#elif TAKT_CONFIG_TICKLESS_IDLE != 0 && TAKT_CONFIG_TICKLESS_IDLE != 1
#error "takt_config.h: TAKT_CONFIG_TICKLESS_IDLE must be 0 or 1"
#endif
/* The shortest sleep worth leaving ticks out for, in ticks (FreeRTOS's
 * configEXPECTED_IDLE_TIME_BEFORE_SLEEP); at least 2: a sleep of one tick
 * leaves no tick out. */
#ifndef TAKT_CONFIG_TICKLESS_MIN_TICKS
#define TAKT_CONFIG_TICKLESS_MIN_TICKS 2
#elif TAKT_CONFIG_TICKLESS_MIN_TICKS < 2
#error "takt_config.h: TAKT_CONFIG_TICKLESS_MIN_TICKS must be 2 or more"
#endif
/* The application's hooks around a tickless sleep (takt_sleep_plan,
 * takt_sleep_enter, takt_sleep_exit in takt/kernel.h; FreeRTOS's
 * configPRE_SUPPRESS_TICKS_AND_SLEEP_PROCESSING, configPRE_SLEEP_PROCESSING,
 * configPOST_SLEEP_PROCESSING). Only with TAKT_CONFIG_TICKLESS_IDLE. */
#ifndef TAKT_CONFIG_SLEEP_HOOKS
#define TAKT_CONFIG_SLEEP_HOOKS 0
#elif TAKT_CONFIG_SLEEP_HOOKS != 0 && TAKT_CONFIG_SLEEP_HOOKS != 1
#error "takt_config.h: TAKT_CONFIG_SLEEP_HOOKS must be 0 or 1"
#elif TAKT_CONFIG_SLEEP_HOOKS && !TAKT_CONFIG_TICKLESS_IDLE
#error "takt_config.h: TAKT_CONFIG_SLEEP_HOOKS needs TAKT_CONFIG_TICKLESS_IDLE"
#endif

/* Optional: queue sets (takt/queue_set.h; FreeRTOS's configUSE_QUEUE_SETS).
 * 0: the set API is neither declared nor built, and the send and give paths of
 * queues and semaphores have no set to tell. 1 (default): sets. */
#ifndef TAKT_CONFIG_QUEUE_SETS
#define TAKT_CONFIG_QUEUE_SETS 1
#elif TAKT_CONFIG_QUEUE_SETS != 0 && TAKT_CONFIG_QUEUE_SETS != 1
#error "takt_config.h: TAKT_CONFIG_QUEUE_SETS must be 0 or 1"
#endif

/* Optional: per-task run time (FreeRTOS's run-time statistics). 1 adds a
 * counter to every task and, at every switch, reads TAKT_CONFIG_RUN_TIME_COUNTER()
 * (the application's free-running counter, of type TAKT_CONFIG_RUN_TIME_TYPE,
 * wrapping at that type's width) and charges the time since the last switch
 * to the task that leaves. 0 (default): neither the field nor the read exist. */
#ifndef TAKT_CONFIG_RUN_TIME_STATS
#define TAKT_CONFIG_RUN_TIME_STATS 0
#elif TAKT_CONFIG_RUN_TIME_STATS != 0 && TAKT_CONFIG_RUN_TIME_STATS != 1
#error "takt_config.h: TAKT_CONFIG_RUN_TIME_STATS must be 0 or 1"
#elif TAKT_CONFIG_RUN_TIME_STATS && !defined(TAKT_CONFIG_RUN_TIME_COUNTER)
#error "takt_config.h: TAKT_CONFIG_RUN_TIME_STATS needs TAKT_CONFIG_RUN_TIME_COUNTER() (the counter's value now)"
#endif
#ifndef TAKT_CONFIG_RUN_TIME_TYPE
#define TAKT_CONFIG_RUN_TIME_TYPE uint32_t
#endif

/* Optional: words per task that belong to the application (or a layer above
 * the kernel: the FreeRTOS layer keeps task tags, thread-local storage
 * pointers and task numbers there), zero at creation. 0 (default): none, and
 * the task control block has no such field. */
#ifndef TAKT_CONFIG_TASK_USER_WORDS
#define TAKT_CONFIG_TASK_USER_WORDS 0
#elif TAKT_CONFIG_TASK_USER_WORDS < 0 || TAKT_CONFIG_TASK_USER_WORDS > 64
#error "takt_config.h: TAKT_CONFIG_TASK_USER_WORDS must be within 0..64"
#endif

/* Optional: one word per event group that belongs to the application (the
 * FreeRTOS layer keeps vEventGroupSetNumber's number there), zero at
 * creation. 0 (default): the group has no such field. */
#ifndef TAKT_CONFIG_EVENT_GROUP_USER_WORD
#define TAKT_CONFIG_EVENT_GROUP_USER_WORD 0
#elif TAKT_CONFIG_EVENT_GROUP_USER_WORD != 0 && TAKT_CONFIG_EVENT_GROUP_USER_WORD != 1
#error "takt_config.h: TAKT_CONFIG_EVENT_GROUP_USER_WORD must be 0 or 1"
#endif

#if !defined(TAKT_CONFIG_ASSERTS) || !defined(TAKT_CONFIG_ASSERT)
#error "takt_config.h: TAKT_CONFIG_ASSERTS (0 or 1) and TAKT_CONFIG_ASSERT(cond) must be defined"
#endif

#endif
