/*
 * The operations of the policies whose code is out of line (EDF over each
 * ready queue, hsf), and their tables as initialisers. Each policy file
 * defines its runtime table from its initialiser; a build bound to one
 * policy (TAKT_CONFIG_POLICY_ONLY, sched/bound.h) makes its own copy, which
 * the compiler sees through: the core then calls the operations directly,
 * with no load from the table, no indirect call and no test for the entries
 * a policy leaves NULL. fp's operations are inline instead (policy_fp.h).
 */
#ifndef TAKT_SCHED_POLICY_OPS_H
#define TAKT_SCHED_POLICY_OPS_H

#include "edf.h"

void edf_heap_init(void);
void edf_heap_insert(takt_task_t *task, takt_ready_how_t how);
void edf_heap_remove(takt_task_t *task);
takt_task_t *edf_heap_peek(void);
void edf_heap_move_behind_equals(takt_task_t *running);

void edf_rbtree_init(void);
void edf_rbtree_insert(takt_task_t *task, takt_ready_how_t how);
void edf_rbtree_remove(takt_task_t *task);
takt_task_t *edf_rbtree_peek(void);
void edf_rbtree_move_behind_equals(takt_task_t *running);

void edf_mlist_init(void);
void edf_mlist_insert(takt_task_t *task, takt_ready_how_t how);
void edf_mlist_remove(takt_task_t *task);
takt_task_t *edf_mlist_peek(void);
void edf_mlist_move_behind_equals(takt_task_t *running);
void edf_mlist_task_added(takt_task_t *task);

/* A port with the hardware priority queue only (TAKT_PORT_HWPQ_UNITS). */
void edf_hwpq_init(void);
void edf_hwpq_insert(takt_task_t *task, takt_ready_how_t how);
void edf_hwpq_remove(takt_task_t *task);
takt_task_t *edf_hwpq_peek(void);
void edf_hwpq_move_behind_equals(takt_task_t *running);
/* Whether unit 0 is there and holds TAKT_CONFIG_MAX_TASKS entries. */
bool edf_hwpq_device_fits(void);

void hsf_init(void);
void hsf_insert(takt_task_t *task, takt_ready_how_t how);
void hsf_remove(takt_task_t *task);
takt_task_t *hsf_peek(void);
bool hsf_preempts(const takt_task_t *candidate, const takt_task_t *running);
bool hsf_has_equal(const takt_task_t *running);
void hsf_move_behind_equals(takt_task_t *running);
bool hsf_waits_before(const takt_task_t *a, const takt_task_t *b);
void hsf_tick(void);
void hsf_dispatching(takt_task_t *next);

/* EDF over a keyed queue or EDF-L's lists: Q is edf_heap, edf_rbtree,
 * edf_hwpq or edf_mlist, NAME its policy name. */
#define TAKT_POLICY_EDF_TABLE(Q, NAME, TASK_ADDED)                                             \
    {                                                                                         \
        .name = NAME, .orders_by_priority = false, .init = Q##_init, .insert = Q##_insert,    \
        .remove = Q##_remove, .peek = Q##_peek, .preempts = edf_preempts,                     \
        .has_equal = edf_has_equal, .move_behind_equals = Q##_move_behind_equals,             \
        .head_preempts = edf_head_preempts, .task_added = TASK_ADDED,                         \
        .waits_before = edf_waits_before, .tick = NULL, .dispatching = NULL,                  \
    }
#define TAKT_POLICY_EDF_HEAP_TABLE TAKT_POLICY_EDF_TABLE(edf_heap, "edf-heap", NULL)
#define TAKT_POLICY_EDF_RBTREE_TABLE TAKT_POLICY_EDF_TABLE(edf_rbtree, "edf-rbtree", NULL)
#define TAKT_POLICY_EDF_HWPQ_TABLE TAKT_POLICY_EDF_TABLE(edf_hwpq, "edf-hwpq", NULL)
#define TAKT_POLICY_EDF_MLIST_TABLE                                                            \
    TAKT_POLICY_EDF_TABLE(edf_mlist, "edf-mlist", edf_mlist_task_added)

#define TAKT_POLICY_HSF_TABLE                                                                  \
    {                                                                                         \
        .name = "hsf", .orders_by_priority = true, .init = hsf_init, .insert = hsf_insert,    \
        .remove = hsf_remove, .peek = hsf_peek, .preempts = hsf_preempts,                     \
        .has_equal = hsf_has_equal, .move_behind_equals = hsf_move_behind_equals,             \
        .head_preempts = NULL, .task_added = NULL, .waits_before = hsf_waits_before,          \
        .tick = hsf_tick, .dispatching = hsf_dispatching,                                     \
    }

#endif
