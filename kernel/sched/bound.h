/*
 * The policy the scheduler core calls: the runtime choice (takt_init), or,
 * with TAKT_CONFIG_POLICY_ONLY, the one TAKT_CONFIG_POLICY names, bound at
 * compile time. Bound, the calls are direct (for fp, inlined: its operations
 * are in policy_fp.h), and the other policies are not linked. Only for files
 * that call the policy; internal.h stays policy-neutral (each policy file
 * sizes its own bitmaps).
 */
#ifndef TAKT_SCHED_BOUND_H
#define TAKT_SCHED_BOUND_H

#include "../internal.h"

#if TAKT_CONFIG_POLICY_ONLY && TAKT_CONFIG_POLICY == TAKT_POLICY_FP
#include "policy_fp.h"
/* The same table as takt_policy_fp, visible here so the compiler sees through it. */
static const takt_policy_t sched_bound_fp = TAKT_POLICY_FP_TABLE;
static inline const takt_policy_t *sched_policy(void)
{
    return &sched_bound_fp;
}
#elif TAKT_CONFIG_POLICY_ONLY
#include "policy_ops.h"
/* The bound policy's table, visible here: direct calls (policy_ops.h). */
#if TAKT_CONFIG_POLICY == TAKT_POLICY_EDF_HEAP
static const takt_policy_t sched_bound_table = TAKT_POLICY_EDF_HEAP_TABLE;
#elif TAKT_CONFIG_POLICY == TAKT_POLICY_EDF_MLIST
static const takt_policy_t sched_bound_table = TAKT_POLICY_EDF_MLIST_TABLE;
#elif TAKT_CONFIG_POLICY == TAKT_POLICY_EDF_RBTREE
static const takt_policy_t sched_bound_table = TAKT_POLICY_EDF_RBTREE_TABLE;
#else
static const takt_policy_t sched_bound_table = TAKT_POLICY_HSF_TABLE;
#endif
static inline const takt_policy_t *sched_policy(void)
{
    return &sched_bound_table;
}
#else
static inline const takt_policy_t *sched_policy(void)
{
    return takt_kernel.policy;
}
#endif

/* Blocks the running task (state, wait reason) and reschedules. Context: task.
 * Inline, with the policy's remove: every blocking call ends here. */
static inline void sched_block_current(takt_wait_t wait)
{
    takt_task_t *self = takt_kernel.current;
    KASSERT(sched_in_ready_queue(self));
    sched_policy()->remove(self);
    self->state = TAKT_TASK_BLOCKED;
    self->wait = (uint8_t)wait;
    trace_record(TAKT_EV_BLOCK, self, wait);
    /* Only a running task blocks, so the kernel has started: no test. */
    KASSERT(takt_kernel.started);
    port_request_switch();
}

#endif
