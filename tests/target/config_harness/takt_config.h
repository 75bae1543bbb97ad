/* Configuration of the kernel the harness-based kernel tests run on, on the
 * Cortex-M target: the sim tests' (tests/c/config) with RAM-sized stacks. */
#ifndef TAKT_CONFIG_H
#define TAKT_CONFIG_H

#include <assert.h>
#include <stdlib.h>

#define TAKT_CONFIG_POLICY TAKT_POLICY_FP
#define TAKT_CONFIG_MAX_PRIORITIES 32
#define TAKT_CONFIG_MAX_TASKS 64
#define TAKT_CONFIG_MAX_SERVERS 16
#define TAKT_CONFIG_ROUND_ROBIN 1
#define TAKT_CONFIG_TIMER_QUEUE TAKT_PQ_RBTREE
#define TAKT_CONFIG_DYNAMIC_ALLOCATION 1
#define TAKT_CONFIG_MALLOC(size) malloc(size)
#define TAKT_CONFIG_FREE(ptr) free(ptr)
#define TAKT_CONFIG_IDLE_STACK_SIZE 2048
#define TAKT_CONFIG_MAX_NAME_LEN 16
#define TAKT_CONFIG_STACK_CHECK 1
#define TAKT_CONFIG_STACK_OVERFLOW_HOOK 1
#define TAKT_CONFIG_DEADLINE_MISS_HOOK 1
#define TAKT_CONFIG_IDLE_HOOK 1
#define TAKT_CONFIG_TICK_HOOK 1
/* The tests drain the ring into their own log from the hook, so nothing is lost. */
#define TAKT_CONFIG_TRACE 1
#define TAKT_CONFIG_TRACE_EVENTS 256
#define TAKT_CONFIG_TRACE_DRAIN_HOOK 1
#define TAKT_CONFIG_ASSERTS 1
#define TAKT_CONFIG_ASSERT(cond) assert(cond)

/* Direct-to-task notification slots per task (takt/notify.h); 0: none (no RAM). */
#define TAKT_CONFIG_TASK_NOTIFICATIONS 3

/* Software timers (takt/soft_timer.h): the timer task, created by the first
 * soft timer, runs at this priority (default: the highest application level,
 * as FreeRTOS recommends for configTIMER_TASK_PRIORITY, so callbacks are
 * timely) with this stack, and takes commands from a queue of this length. */
#define TAKT_CONFIG_SOFT_TIMER_PRIORITY (TAKT_CONFIG_MAX_PRIORITIES - 1)
#define TAKT_CONFIG_SOFT_TIMER_STACK_SIZE 2048
#define TAKT_CONFIG_SOFT_TIMER_COMMANDS 16

#endif
