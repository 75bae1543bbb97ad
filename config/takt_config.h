/*
 * takt_config.h — the documented template of a Takt build configuration.
 *
 * An application copies this file next to its sources, edits it, and puts its
 * directory on the include path. Every option must be defined: a missing or
 * invalid option stops the build (kernel/include/takt/config_check.h).
 * A feature configured off costs nothing: no code, no data, no branch.
 */
#ifndef TAKT_CONFIG_H
#define TAKT_CONFIG_H

/* Default scheduling policy (takt_init with NULL params): TAKT_POLICY_FP (fixed
 * priority, bitmap of lists), TAKT_POLICY_FP_LIST (fixed priority, one list),
 * TAKT_POLICY_EDF_HEAP, TAKT_POLICY_EDF_MLIST or TAKT_POLICY_EDF_RBTREE (EDF
 * over a binary heap, Pathan's multiple lists, a red-black tree), or
 * TAKT_POLICY_HSF (servers). */
#define TAKT_CONFIG_POLICY TAKT_POLICY_FP

/* Optional. 1: the build has only TAKT_CONFIG_POLICY (bound at compile time:
 * direct calls, the other policies not linked; takt_init refuses any other
 * scheduler with TAKT_ERR_ARG). 0 (default): the scheduler is takt_init's choice. */
#define TAKT_CONFIG_POLICY_ONLY 0

/* Priority levels 0..TAKT_CONFIG_MAX_PRIORITIES-1; 0 belongs to the idle task. 2..1024. */
#define TAKT_CONFIG_MAX_PRIORITIES 32

/* Most tasks alive at once, idle task included: sizes the EDF heap and the
 * EDF-L lists (at most 1024). */
#define TAKT_CONFIG_MAX_TASKS 64

/* Optional (default 8): most servers of the hsf scheduler (takt/server.h), 1..1024.
 * Each has a ready queue of TAKT_CONFIG_MAX_PRIORITIES lists. */
#define TAKT_CONFIG_MAX_SERVERS 8

/* Round-robin among equal priorities (time slice: one tick), when enabled at run time. */
#define TAKT_CONFIG_ROUND_ROBIN 1

/* Backend of the timer queue (delays, job releases, deadline checks): TAKT_PQ_LIST
 * (O(n) insertion), TAKT_PQ_HEAP or TAKT_PQ_RBTREE (O(log n)), or TAKT_PQ_HW
 * (the hardware priority queue, O(1); a port that has it: the sim). */
#define TAKT_CONFIG_TIMER_QUEUE TAKT_PQ_LIST

/* Task control blocks and stacks from the heap (takt_task_create) in addition to
 * caller-provided memory (takt_task_create_static). */
#define TAKT_CONFIG_DYNAMIC_ALLOCATION 1
#define TAKT_CONFIG_MALLOC(size) malloc(size)
#define TAKT_CONFIG_FREE(ptr) free(ptr)

/* Bytes of the idle task's stack. */
#define TAKT_CONFIG_IDLE_STACK_SIZE 16384

/* Longest task name kept, including the terminating NUL. */
#define TAKT_CONFIG_MAX_NAME_LEN 16
/* TAKT_CONFIG_IDLE_TASK_NAME / TAKT_CONFIG_TIMER_TASK_NAME: optional, "idle" and
 * "timer" (config_check.h). */

/* Stack high-water mark and overflow detection (a guard pattern checked at every
 * switch). On overflow the kernel calls takt_stack_overflow_hook(task) if the
 * hook is enabled, then suspends the task. */
#define TAKT_CONFIG_STACK_CHECK 1
#define TAKT_CONFIG_STACK_OVERFLOW_HOOK 0

/* Call takt_deadline_miss_hook(task, job) when a job misses its deadline. */
#define TAKT_CONFIG_DEADLINE_MISS_HOOK 0

/* Call takt_idle_hook() on every pass of the idle loop and takt_tick_hook() in
 * the tick interrupt after the tick's work (takt/kernel.h); 0: no call at all. */
#define TAKT_CONFIG_IDLE_HOOK 0
#define TAKT_CONFIG_TICK_HOOK 0

/* Trace ring buffer: TAKT_CONFIG_TRACE_EVENTS events (a power of two). With the
 * drain hook, the kernel calls takt_trace_drain_hook() when the ring is full so
 * the application can empty it; without it, or if the hook leaves it full, the
 * newest events are dropped and counted. */
#define TAKT_CONFIG_TRACE 1
#define TAKT_CONFIG_TRACE_EVENTS 1024
#define TAKT_CONFIG_TRACE_DRAIN_HOOK 0

/* Internal consistency checks; TAKT_CONFIG_ASSERT(x) is called with the condition. */
#define TAKT_CONFIG_ASSERTS 1
#define TAKT_CONFIG_ASSERT(cond) assert(cond)

/* Direct-to-task notification slots per task (takt/notify.h); 0: none (no RAM). */
#define TAKT_CONFIG_TASK_NOTIFICATIONS 1

/* Software timers (takt/soft_timer.h): the timer task, created by the first
 * soft timer, runs at this priority (default: the highest application level,
 * as FreeRTOS recommends for configTIMER_TASK_PRIORITY, so callbacks are
 * timely) with this stack, and takes commands from a queue of this length. */
#define TAKT_CONFIG_SOFT_TIMER_PRIORITY (TAKT_CONFIG_MAX_PRIORITIES - 1)
#define TAKT_CONFIG_SOFT_TIMER_STACK_SIZE 16384
#define TAKT_CONFIG_SOFT_TIMER_COMMANDS 16

#endif
