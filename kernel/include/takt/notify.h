/*
 * Direct-to-task notifications: every task has TAKT_CONFIG_TASK_NOTIFICATIONS
 * slots (index 0.. count-1), each a 32-bit value and a pending flag. A
 * notification updates the value and marks the slot pending; a task waits on
 * its own slot. Cheaper than a semaphore or queue when exactly one task
 * receives. Conventions (timeouts, results, *_from_isr): takt/sync.h.
 * Bad index (>= TAKT_CONFIG_TASK_NOTIFICATIONS): TAKT_ERR_ARG.
 */
#ifndef TAKT_NOTIFY_H
#define TAKT_NOTIFY_H

#include "takt/sync.h"

typedef enum {
    TAKT_NOTIFY_NO_ACTION,    /* value unchanged; just pending */
    TAKT_NOTIFY_SET_BITS,     /* value |= arg */
    TAKT_NOTIFY_INCREMENT,    /* value += 1 (arg ignored) */
    TAKT_NOTIFY_OVERWRITE,    /* value = arg */
    TAKT_NOTIFY_NO_OVERWRITE, /* value = arg unless a notification is pending:
                                 then TAKT_ERR_STATE and nothing changes */
} takt_notify_action_t;

/*
 * Notifies task (NULL: invalid here, TAKT_ERR_ARG) in slot index. *previous
 * (may be NULL) receives the value before the update. Wakes the task if it
 * waits on that slot. TAKT_ERR_ARG: bad handle, index or action.
 * Context: task. May reschedule.
 */
int takt_notify(takt_task_t *task, unsigned index, uint32_t arg, takt_notify_action_t action,
                uint32_t *previous);
int takt_notify_from_isr(takt_task_t *task, unsigned index, uint32_t arg,
                         takt_notify_action_t action, uint32_t *previous, bool *woken);
/* takt_notify_from_isr with TAKT_NOTIFY_INCREMENT and no previous value,
 * compiled for that case alone: the interrupt-to-task path. */
int takt_notify_give_from_isr(takt_task_t *task, unsigned index, bool *woken);
/* takt_notify_give_from_isr with the flag a long, as FreeRTOS keeps it (its
 * BaseType_t in Takt's layer): *woken (may be NULL) is set to 1 where the
 * bool would be set to true, and left as it is otherwise, so the FreeRTOS
 * layer's vTaskNotifyGiveFromISR is this call alone. */
int takt_notify_give_from_isr_flag(takt_task_t *task, unsigned index, long *woken);

/*
 * Waits (FreeRTOS xTaskNotifyWait) up to timeout for slot index to be pending.
 * Clears clear_on_entry bits of the value first if nothing is pending; when a
 * notification is (or becomes) pending, *value (may be NULL) receives the
 * value, then clear_on_exit bits are cleared and the slot is no longer pending.
 * TAKT_ERR_TIMEOUT if none came. Context: task. May reschedule.
 */
int takt_notify_wait(unsigned index, uint32_t clear_on_entry, uint32_t clear_on_exit,
                     uint32_t *value, takt_tick_t timeout);

/*
 * Counting-semaphore use (FreeRTOS ulTaskNotifyTake): waits up to timeout for
 * the value of slot index to be non-zero, then *value (may be NULL) gets it
 * and it becomes 0 (clear) or value-1. TAKT_ERR_TIMEOUT (and *value = 0) if
 * it stayed 0. Context: task. May reschedule.
 */
int takt_notify_take(unsigned index, bool clear, uint32_t *value, takt_tick_t timeout);

/* Clears the pending flag (NULL: the caller); returns 1 if it was pending, 0
 * if not, TAKT_ERR_ARG. Any context. */
int takt_notify_clear_state(takt_task_t *task, unsigned index);
/* Clears bits of the value (NULL: the caller); *previous (may be NULL) the value before. */
int takt_notify_clear_bits(takt_task_t *task, unsigned index, uint32_t bits, uint32_t *previous);

#endif
