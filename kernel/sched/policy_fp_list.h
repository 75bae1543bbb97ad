/*
 * The fixed-priority policy over one list (policy_fp_list.c): its operations
 * and its table as an initialiser, for policy_fp_list.c's runtime table and a
 * build bound to it (sched/bound.h). The priority comparisons are fp's.
 */
#ifndef TAKT_SCHED_POLICY_FP_LIST_H
#define TAKT_SCHED_POLICY_FP_LIST_H

#include "policy_fp.h"

void fp_list_init(void);
void fp_list_insert(takt_task_t *task, takt_ready_how_t how);
void fp_list_remove(takt_task_t *task);
takt_task_t *fp_list_peek(void);
bool fp_list_has_equal(const takt_task_t *running);
void fp_list_move_behind_equals(takt_task_t *running);

#define TAKT_POLICY_FP_LIST_TABLE                                                             \
    {                                                                                         \
        .name = "fp-list", .orders_by_priority = true, .init = fp_list_init,                 \
        .insert = fp_list_insert, .remove = fp_list_remove, .peek = fp_list_peek,            \
        .preempts = fp_preempts, .has_equal = fp_list_has_equal,                              \
        .move_behind_equals = fp_list_move_behind_equals, .task_added = NULL,                 \
        .waits_before = fp_waits_before,                                                      \
    }

#endif
