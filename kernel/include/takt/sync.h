/*
 * Synchronisation: what every primitive shares, the scheduler lock and
 * critical sections for applications.
 *
 * Conventions of every blocking call (sem, mutex, queue, queue set, event
 * group, notification, soft-timer command):
 * - timeout is in ticks: 0 never blocks, TAKT_WAIT_FOREVER blocks until the
 *   object is ready, anything else must be < 2^31 (the timer queue's half
 *   range; TAKT_ERR_ARG otherwise). The timeout runs out at the tick
 *   now + timeout (a timeout of 1 may end at the very next tick).
 * - Results: TAKT_OK; TAKT_ERR_TIMEOUT if the object did not become ready in
 *   time (at once for timeout 0); TAKT_ERR_ARG for a null handle, a handle
 *   whose object was deleted (detected for static objects; a dynamic object's
 *   memory is freed, so its old handle must not be used), or a bad argument;
 *   TAKT_ERR_CONTEXT if the caller may not block: called from an interrupt
 *   (use the *_from_isr variant), from the idle task, with the scheduler
 *   locked or inside takt_critical_enter — for the last three only when the
 *   call would actually block (a call that can complete at once succeeds).
 *   Before takt_start every call behaves as with timeout 0, except the calls
 *   that act for the calling task (mutex lock/unlock, notification waits):
 *   they return TAKT_ERR_CONTEXT since no task runs yet.
 *   On an error nothing changed.
 * - Waiters are served in the order of the running policy (fixed priority:
 *   higher priority first; EDF: earlier absolute deadline first, deadline
 *   jobs before background tasks), first come first served among equals.
 *   A waiter whose priority changes (inheritance, takt_task_set_priority)
 *   moves to its new place.
 * - Hand-off: when a give/send meets a waiter, the waiter gets the unit, item
 *   or ownership directly (it does not compete again when it runs), so a
 *   waiter cannot be overtaken by a task that arrives after it was served.
 * - A waiting task that is suspended or deleted leaves the wait: what the
 *   object gets meanwhile goes to the other waiters or stays in it. Once
 *   resumed, a task suspended in a semaphore, mutex, queue, queue-set or
 *   stream-send wait takes it up again, as FreeRTOS's queue calls and
 *   stream-buffer sends do: served at once if the object has what it waits
 *   for (a stream sender: in its turn among the senders), else waiting again
 *   until the end of its original timeout; if that end passed while it was
 *   suspended, the call returns TAKT_ERR_TIMEOUT (a stream send writes what
 *   fits, as at its timeout). A notification, event-group or stream-receive
 *   wait ends (TAKT_ERR_TIMEOUT, or what a stream receive does at its
 *   timeout), as those FreeRTOS calls return. An object deleted while its waiter is
 *   suspended ends that wait in TAKT_ERR_TIMEOUT at the resume.
 * - An object deleted after a wait on it ended unserved (timeout, abort,
 *   suspend) but before the waiter's call returned is not read again by
 *   that call: an event-group wait returns TAKT_ERR_TIMEOUT with no bits, a
 *   stream transfer moves nothing (0).
 * - Deleting an object with waiters (or a held mutex) is refused with
 *   TAKT_ERR_STATE; nothing changes.
 * - A create_static over memory that holds a live object, of its own type or
 *   any other (semaphore, mutex, queue, queue set, event group, stream, soft
 *   timer at the same address; a task's control block or the stack it runs
 *   on, or a server's control block, anywhere in the object's bytes), is
 *   refused with TAKT_ERR_STATE; the live object is untouched. Delete it
 *   first. (Uninitialised memory, a stack buffer, may by chance hold an old
 *   object's magic there: zero such memory before its first create.) A task's
 *   and a server's static create follow the same rule (takt/task.h).
 *
 * Every *_from_isr call never blocks and takes an optional `bool *woken`:
 * if the call made ready a task that should preempt the task the interrupt
 * interrupted, *woken is set to true; it is never set to false (initialise it,
 * as FreeRTOS's pxHigherPriorityTaskWoken). The switch itself happens at
 * interrupt exit without further action; woken is for callers that want to know.
 * The task-context calls return TAKT_ERR_CONTEXT inside an interrupt. A
 * *_from_isr call made from a task (as FreeRTOS's ports allow, for code that
 * serves both contexts) is the task-context call with no wait: a task it
 * makes ready that should preempt the caller runs before it returns (at the
 * end of the caller's critical section or scheduler lock, if it holds one),
 * and *woken is left as it was, since that switch has already happened.
 */
#ifndef TAKT_SYNC_H
#define TAKT_SYNC_H

#include "takt/task.h"

/* Block until the object is ready, however long. */
#define TAKT_WAIT_FOREVER 0xFFFFFFFFu

struct takt_waitq;

/* How an object's waiter list treats the waiters that leave it other than by
 * being served and returning. Every member is optional (NULL). Each is
 * called with the kernel lock held. */
typedef struct takt_waitq_ops {
    /* A waiter left without being served (timeout, suspend, delete),
     * changed place, or joined again after a suspend. */
    void (*waiter_left)(struct takt_waitq *queue);
    /* At the resume of a task suspended while it waited here: serves it if
     * the object has what it waits for (true); else (false) the wait goes
     * on (services/sync/wait.c: sync_wait_resume). NULL where a suspend
     * ends the wait. */
    bool (*rejoin)(struct takt_waitq *queue, takt_task_t *task);
    /* A waiter that was served (handed a unit, item, bytes or the mutex) is
     * deleted or suspended before its call returned: what it was handed goes
     * back into the object, as if it had never left (true; also when there
     * is nothing to give back). False: the object has no room for it any
     * more; the delete is refused (services/task.c), the suspended task
     * keeps it. */
    bool (*give_back)(struct takt_waitq *queue, takt_task_t *task);
    /* Why its waiters wait (takt_wait_t): what a served task suspended
     * before it returned waits for again once it gave back (with rejoin). */
    uint8_t reason;
} takt_waitq_ops_t;

/* Tasks waiting on an object, in service order. Fields belong to the kernel. */
typedef struct takt_waitq {
    takt_list_t tasks;
    const takt_waitq_ops_t *ops; /* NULL: none of them */
} takt_waitq_t;

/*
 * Scheduler lock (FreeRTOS vTaskSuspendAll / xTaskResumeAll). While locked,
 * interrupts run and tasks still become ready (ticks, gives from interrupts),
 * but the running task keeps the processor; the switch the lock held back
 * happens at the unlock that ends it. Nests (counted). A call that would block
 * while locked returns TAKT_ERR_CONTEXT. Context: task (or before start).
 * takt_sched_lock: TAKT_OK; TAKT_ERR_CONTEXT from an interrupt; TAKT_ERR_STATE
 * past 255 nested locks.
 * takt_sched_unlock: 1 if this unlock ended the lock and another task ran
 * before it returned (xTaskResumeAll's "a yield happened"), 0 if not;
 * TAKT_ERR_STATE if not locked; TAKT_ERR_CONTEXT from an interrupt.
 */
int takt_sched_lock(void);
int takt_sched_unlock(void);
/* Current nesting depth of the scheduler lock (0: not locked). Any context. */
unsigned takt_sched_lock_depth(void);

/*
 * Critical sections for applications: interrupts that may call the kernel are
 * masked, no switch happens. Nest. Keep them short; do not block inside one
 * (blocking calls return TAKT_ERR_CONTEXT). An exit with no section open is
 * ignored (it must not end a section the kernel holds). Context: task.
 */
void takt_critical_enter(void);
void takt_critical_exit(void);
/* The same from an interrupt handler: the returned state goes to the matching exit. */
uint32_t takt_critical_enter_from_isr(void);
void takt_critical_exit_from_isr(uint32_t state);

/* True while an interrupt handler runs. Any context. */
bool takt_in_isr(void);

#endif
