/*
 * The policy interface: a scheduling policy is a const table of operations
 * over its ready queue. The scheduler core (sched/core.c) never knows which
 * policy runs; adding a policy adds a file and a table.
 *
 * Contract: the running task stays in its place in the ready queue while it
 * runs, as in FreeRTOS, so that a preemption inserts and removes nothing and
 * the pick is the queue's head, the running task included; the core takes it
 * out when it stops running (blocks, is suspended or deleted) and moves it
 * when it yields or its priority (or inherited deadline) changes.
 * Insert puts a READY task in; how says where among its equals it goes
 * (SCHEDULING.md "Priorities and ties"): NEW behind every task that became
 * ready earlier, and behind tasks that became ready at the same instant with a
 * lower id, but never in front of a queued running task; PREEMPTED in front of
 * its equals; YIELD (a yield, an expired round-robin slice, a demotion) behind
 * every equal, whatever its id. A deadline-keyed queue orders jobs by their
 * key alone (deadline, then ready order), which is where a preempted job stays.
 * Assumptions for every operation: kernel lock held.
 *
 * waits_before orders the tasks waiting on one synchronisation object
 * (semaphore, mutex, queue, ...): true if a must be served before b, i.e. a's
 * current scheduling priority under this policy is strictly higher than b's
 * (fixed priority: effective priority, inheritance included; EDF: earlier
 * effective deadline, a deadline job before a task without one). It must be a
 * strict weak order (irreflexive, transitive; equals compare false both ways:
 * the kernel keeps equals first come, first served) and depend only on the
 * two tasks' own fields, whatever their states (waiters are BLOCKED; the
 * kernel re-sorts a waiter whenever its priority or inherited deadline
 * changes). Never called with the idle task.
 */
#ifndef TAKT_SCHED_POLICY_H
#define TAKT_SCHED_POLICY_H

#include "takt/task.h"

typedef enum {
    TAKT_READY_NEW,
    TAKT_READY_PREEMPTED,
    TAKT_READY_YIELD,
} takt_ready_how_t;

typedef struct takt_policy {
    const char *name;
    /* Tasks are ordered by their (effective) priority (fp, hsf), so a running
     * task whose priority drops goes behind its new equals (FreeRTOS). Under
     * EDF priorities order nothing: a priority change moves no task. */
    bool orders_by_priority;
    void (*init)(void);
    void (*insert)(takt_task_t *task, takt_ready_how_t how);
    void (*remove)(takt_task_t *task);
    /* The task the policy would run next; never NULL once the idle task exists. */
    takt_task_t *(*peek)(void);
    /* True if candidate should preempt running (strictly higher; never on a tie). */
    bool (*preempts)(const takt_task_t *candidate, const takt_task_t *running);
    /* True if another ready task shares running's level (round-robin needs a
     * rotation); running itself, queued, does not count. */
    bool (*has_equal)(const takt_task_t *running);
    /* The running task moves behind its equals in the queue (a yield, a slice's
     * end, a demotion; its ready order is already the new one, later than
     * every queued task's). Where no equal follows it, it keeps its place:
     * a keyed queue (EDF) then only takes the new order as its tie. */
    void (*move_behind_equals)(takt_task_t *running);
    /* Whether head, the queue's first task and not the running task, preempts
     * it. NULL when it always does, because the
     * running task is in front of all its equals (fp's lists). A keyed queue
     * can put an equal in front of it (a job of the same deadline that became
     * ready at the same instant with a lower id, or before it when its key
     * changed by inheritance): that one waits (SCHEDULING.md: never preempted
     * on a tie). */
    bool (*head_preempts)(const takt_task_t *head, const takt_task_t *running);
    /* A task was created (before it is first inserted); may be NULL. */
    void (*task_added)(takt_task_t *task);
    /* Order of waiters on a synchronisation object (see above). */
    bool (*waits_before)(const takt_task_t *a, const takt_task_t *b);
    /* The tick, before its timers expire (budget accounting); may be NULL. */
    void (*tick)(void);
    /* next runs from this switch point on (also when it already ran), called
     * before its DISPATCH event; may be NULL. */
    void (*dispatching)(takt_task_t *next);
} takt_policy_t;

extern const takt_policy_t takt_policy_fp;
extern const takt_policy_t takt_policy_edf_heap;
extern const takt_policy_t takt_policy_edf_rbtree;
extern const takt_policy_t takt_policy_edf_mlist;
extern const takt_policy_t takt_policy_hsf;
extern const takt_policy_t takt_policy_fp_list;
extern const takt_policy_t takt_policy_edf_hwpq; /* a port with TAKT_PORT_HWPQ_UNITS only */
extern const takt_policy_t takt_policy_fp_hwpq;  /* a port with TAKT_PORT_HWPQ_UNITS only */

#endif
