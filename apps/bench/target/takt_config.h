/*
 * Configuration of the kernel-cost benchmarks on the Cortex-M target: what a
 * small product build would use — no trace, no assertions, no stack checking
 * at each switch, no round-robin. The timer queue backend comes from the
 * build (BENCH_TIMER_QUEUE), one program per backend.
 */
#ifndef TAKT_CONFIG_H
#define TAKT_CONFIG_H

#include <stdlib.h>

#define TAKT_CONFIG_POLICY TAKT_POLICY_FP
#define TAKT_CONFIG_MAX_PRIORITIES 32
#define TAKT_CONFIG_MAX_TASKS 80
#define TAKT_CONFIG_ROUND_ROBIN 0
#ifndef BENCH_TIMER_QUEUE
#define BENCH_TIMER_QUEUE TAKT_PQ_LIST
#endif
#define TAKT_CONFIG_TIMER_QUEUE BENCH_TIMER_QUEUE
#define TAKT_CONFIG_DYNAMIC_ALLOCATION 1
#define TAKT_CONFIG_MALLOC(size) malloc(size)
#define TAKT_CONFIG_FREE(ptr) free(ptr)
#define TAKT_CONFIG_IDLE_STACK_SIZE 1024
#define TAKT_CONFIG_MAX_NAME_LEN 8
#define TAKT_CONFIG_STACK_CHECK 0
#define TAKT_CONFIG_STACK_OVERFLOW_HOOK 0
#define TAKT_CONFIG_DEADLINE_MISS_HOOK 0
#define TAKT_CONFIG_TRACE 0
#define TAKT_CONFIG_TRACE_EVENTS 2
#define TAKT_CONFIG_TRACE_DRAIN_HOOK 0
#define TAKT_CONFIG_ASSERTS 0
#define TAKT_CONFIG_ASSERT(cond) ((void)0)

/* Synchronisation: one notification slot; the timer task (made by the first
 * soft timer) at the highest application priority. */
#define TAKT_CONFIG_TASK_NOTIFICATIONS 1
#define TAKT_CONFIG_SOFT_TIMER_PRIORITY (TAKT_CONFIG_MAX_PRIORITIES - 1)
#define TAKT_CONFIG_SOFT_TIMER_STACK_SIZE 2048
#define TAKT_CONFIG_SOFT_TIMER_COMMANDS 8

#endif
