/*
 * The fixed-priority policy over the hardware priority queue (policy_fp_hwpq.c):
 * its operations and its table as an initialiser, for policy_fp_hwpq.c's
 * runtime table and a build bound to it (sched/bound.h). The priority
 * comparisons are fp's. A port with TAKT_PORT_HWPQ_UNITS only.
 */
#ifndef TAKT_SCHED_POLICY_FP_HWPQ_H
#define TAKT_SCHED_POLICY_FP_HWPQ_H

#include "policy_fp.h"

void fp_hwpq_init(void);
void fp_hwpq_insert(takt_task_t *task, takt_ready_how_t how);
void fp_hwpq_remove(takt_task_t *task);
takt_task_t *fp_hwpq_peek(void);
void fp_hwpq_move_behind_equals(takt_task_t *running);
/* Whether unit 0 is there and holds an entry for every task level
 * (TAKT_CONFIG_MAX_PRIORITIES - 1). */
bool fp_hwpq_device_fits(void);

#define TAKT_POLICY_FP_HWPQ_TABLE                                                             \
    {                                                                                         \
        .name = "fp-hwpq", .orders_by_priority = true, .init = fp_hwpq_init,                 \
        .insert = fp_hwpq_insert, .remove = fp_hwpq_remove, .peek = fp_hwpq_peek,            \
        .preempts = fp_preempts, .has_equal = fp_has_equal,                                   \
        .move_behind_equals = fp_hwpq_move_behind_equals, .task_added = NULL,                 \
        .waits_before = fp_waits_before,                                                      \
    }

#endif
