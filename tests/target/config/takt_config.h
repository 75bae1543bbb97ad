/* Configuration of the kernel the target tests run on (Cortex-M under QEMU):
 * the host tests' configuration with RAM-sized stacks. */
#ifndef TAKT_CONFIG_H
#define TAKT_CONFIG_H

#include <assert.h>
#include <stdlib.h>

#define TAKT_CONFIG_POLICY TAKT_POLICY_FP
#define TAKT_CONFIG_MAX_PRIORITIES 32
#define TAKT_CONFIG_MAX_TASKS 64
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
#define TAKT_CONFIG_TRACE 1
#define TAKT_CONFIG_TRACE_EVENTS 256
#define TAKT_CONFIG_TRACE_DRAIN_HOOK 1
#define TAKT_CONFIG_ASSERTS 1
#define TAKT_CONFIG_ASSERT(cond) assert(cond)

/* Synchronisation: one notification slot; the timer task (made by the first
 * soft timer) at the highest application priority. */
#define TAKT_CONFIG_TASK_NOTIFICATIONS 1
#define TAKT_CONFIG_SOFT_TIMER_PRIORITY (TAKT_CONFIG_MAX_PRIORITIES - 1)
#define TAKT_CONFIG_SOFT_TIMER_STACK_SIZE 2048
#define TAKT_CONFIG_SOFT_TIMER_COMMANDS 8

#endif
