/* Configuration of the scenario runner on the sim port. */
#ifndef TAKT_CONFIG_H
#define TAKT_CONFIG_H

#include <assert.h>
#include <stdlib.h>

#define TAKT_CONFIG_POLICY TAKT_POLICY_FP
#define TAKT_CONFIG_MAX_PRIORITIES 256
/* The runners with their timers on the hardware priority queue
 * (takt-runner-timers-hwpq, CMakeLists.txt) set the two below: a unit holds
 * 1024 entries (hw/model), every timer there can be is 3 per task and 1 per
 * server (kernel/services/time.c), so 256 tasks (the idle task's among them)
 * with 256 servers fill it. */
#ifndef TAKT_CONFIG_MAX_TASKS
#define TAKT_CONFIG_MAX_TASKS 1024
#endif
#define TAKT_CONFIG_MAX_SERVERS 256
#define TAKT_CONFIG_ROUND_ROBIN 1
#ifndef TAKT_CONFIG_TIMER_QUEUE
#define TAKT_CONFIG_TIMER_QUEUE TAKT_PQ_HEAP
#endif
#define TAKT_CONFIG_DYNAMIC_ALLOCATION 1
#define TAKT_CONFIG_MALLOC(size) malloc(size)
#define TAKT_CONFIG_FREE(ptr) free(ptr)
#define TAKT_CONFIG_IDLE_STACK_SIZE 16384
#define TAKT_CONFIG_MAX_NAME_LEN 32
#define TAKT_CONFIG_STACK_CHECK 1
#define TAKT_CONFIG_STACK_OVERFLOW_HOOK 0
#define TAKT_CONFIG_DEADLINE_MISS_HOOK 0
#define TAKT_CONFIG_IDLE_HOOK 0
#define TAKT_CONFIG_TICK_HOOK 0
/* The runner drains the ring into its output file whenever it fills. */
#define TAKT_CONFIG_TRACE 1
#define TAKT_CONFIG_TRACE_EVENTS 4096
#define TAKT_CONFIG_TRACE_DRAIN_HOOK 1
#define TAKT_CONFIG_ASSERTS 1
#define TAKT_CONFIG_ASSERT(cond) assert(cond)

/* Direct-to-task notification slots per task (takt/notify.h); 0: none (no RAM). */
#define TAKT_CONFIG_TASK_NOTIFICATIONS 1

/* Software timers (takt/soft_timer.h): the timer task, created by the first
 * soft timer, runs at this priority (default: the highest application level,
 * as FreeRTOS recommends for configTIMER_TASK_PRIORITY, so callbacks are
 * timely) with this stack, and takes commands from a queue of this length. */
#define TAKT_CONFIG_SOFT_TIMER_PRIORITY (TAKT_CONFIG_MAX_PRIORITIES - 1)
#define TAKT_CONFIG_SOFT_TIMER_STACK_SIZE 65536
#define TAKT_CONFIG_SOFT_TIMER_COMMANDS 16

#endif
