/* Configuration of the scenario runner on a Cortex-M target: the sim
 * runner's, sized for a few MiB of RAM. */
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
#define TAKT_CONFIG_MAX_SERVERS 256 /* as the sim runner: scenario_input.h's limit */
#define TAKT_CONFIG_ROUND_ROBIN 1
#ifndef TAKT_CONFIG_TIMER_QUEUE
#define TAKT_CONFIG_TIMER_QUEUE TAKT_PQ_HEAP
#endif
#define TAKT_CONFIG_DYNAMIC_ALLOCATION 1
#define TAKT_CONFIG_MALLOC(size) malloc(size)
#define TAKT_CONFIG_FREE(ptr) free(ptr)
#define TAKT_CONFIG_IDLE_STACK_SIZE 2048
#define TAKT_CONFIG_MAX_NAME_LEN 32
#define TAKT_CONFIG_STACK_CHECK 1
#define TAKT_CONFIG_STACK_OVERFLOW_HOOK 0
#define TAKT_CONFIG_DEADLINE_MISS_HOOK 0
#define TAKT_CONFIG_TRACE 1
#define TAKT_CONFIG_TRACE_EVENTS 1024
#define TAKT_CONFIG_TRACE_DRAIN_HOOK 1
#define TAKT_CONFIG_ASSERTS 1
#define TAKT_CONFIG_ASSERT(cond) assert(cond)
/* Exact work reports the time asleep in the idle loop (not in the tickless
 * runner, which sets it to 0: apps/target/CMakeLists.txt). */
#ifndef TAKT_CONFIG_ARM_IDLE_ACCOUNTING
#define TAKT_CONFIG_ARM_IDLE_ACCOUNTING 1
#endif

/* Synchronisation: one notification slot; the timer task (made by the first
 * soft timer) at the highest application priority. */
#define TAKT_CONFIG_TASK_NOTIFICATIONS 1
#define TAKT_CONFIG_SOFT_TIMER_PRIORITY (TAKT_CONFIG_MAX_PRIORITIES - 1)
#define TAKT_CONFIG_SOFT_TIMER_STACK_SIZE 2048
#define TAKT_CONFIG_SOFT_TIMER_COMMANDS 8

#endif
