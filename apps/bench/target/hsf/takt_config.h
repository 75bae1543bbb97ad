/*
 * Configuration of the hierarchical-scheduling and deferred-preemption cost
 * benchmark on the Cortex-M target (apps/bench/target/hsf_costs.c): the
 * kernel-cost benchmarks' product build (no trace, no assertions) with up to
 * 256 servers and a task each.
 */
#ifndef TAKT_CONFIG_H
#define TAKT_CONFIG_H

#include <stdlib.h>

#define TAKT_CONFIG_POLICY TAKT_POLICY_FP
#define TAKT_CONFIG_MAX_SERVERS 256
#define TAKT_CONFIG_MAX_PRIORITIES 256
#define TAKT_CONFIG_MAX_TASKS 260
#define TAKT_CONFIG_ROUND_ROBIN 0
#ifndef BENCH_TIMER_QUEUE
#define BENCH_TIMER_QUEUE TAKT_PQ_RBTREE
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
