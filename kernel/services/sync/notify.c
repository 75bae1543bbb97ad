/*
 * Direct-to-task notifications: the value and pending flag live in the TCB;
 * the only possible waiter is the task itself, so a wait needs no list.
 */
#include "serve.h"

#if TAKT_CONFIG_TASK_NOTIFICATIONS > 0

/* A slot index already checked: with one slot it is 0, which the compiler
 * cannot know in a function the check does not reach. */
static inline unsigned checked_slot(unsigned index)
{
    return TAKT_CONFIG_TASK_NOTIFICATIONS == 1 ? 0u : index;
}

/* With one slot, a notification wait is on slot 0. */
static bool waits_on(const takt_task_t *task, unsigned index)
{
    return task->state == TAKT_TASK_BLOCKED && task->wait == TAKT_WAIT_NOTIFY &&
           (TAKT_CONFIG_TASK_NOTIFICATIONS == 1 || task->wait_bits == index);
}

/* Assumptions: lock held, handle and index valid. Inline into each entry
 * below: with the action and previous known, it folds to the few lines the
 * action needs. */
__attribute__((always_inline)) static inline int notify_locked(takt_task_t *task, unsigned index,
                                                                uint32_t arg,
                                                                takt_notify_action_t action,
                                                                uint32_t *previous, bool *woken)
{
    uint32_t *value = &task->notify_value[index];
    if (action == TAKT_NOTIFY_NO_OVERWRITE && task->notify_pending[index]) {
        return TAKT_ERR_STATE;
    }
    if (previous != NULL) {
        *previous = *value;
    }
    switch (action) {
    case TAKT_NOTIFY_SET_BITS:
        *value |= arg;
        break;
    case TAKT_NOTIFY_INCREMENT:
        (*value)++;
        break;
    case TAKT_NOTIFY_OVERWRITE:
    case TAKT_NOTIFY_NO_OVERWRITE:
        *value = arg;
        break;
    case TAKT_NOTIFY_NO_ACTION:
        break;
    }
    task->notify_pending[index] = 1;
    if (waits_on(task, index)) {
        sync_wake_reporting(task, TAKT_OK, woken);
    }
    return TAKT_OK;
}

__attribute__((always_inline)) static inline int notify_from(takt_task_t *task, unsigned index,
                                                              uint32_t arg,
                                                              takt_notify_action_t action,
                                                              uint32_t *previous, bool *woken,
                                                              bool from_isr)
{
    bool as_isr;
    if (sync_call_form(from_isr, &as_isr) != TAKT_OK) {
        return TAKT_ERR_CONTEXT;
    }
    if (!as_isr) {
        woken = NULL; /* the task's form reports no preemption: its switch comes at once */
    }
    if (index >= TAKT_CONFIG_TASK_NOTIFICATIONS || (unsigned)action > TAKT_NOTIFY_NO_OVERWRITE) {
        return TAKT_ERR_ARG;
    }
    port_critical_t key = port_critical_enter();
    int result = task_handle_valid(task)
                     ? notify_locked(task, index, arg, action, previous, woken)
                     : TAKT_ERR_ARG;
    port_critical_exit(key);
    return result;
}

/* The one generic copy, for any action from either context. */
__attribute__((noinline)) static int notify_any(takt_task_t *task, unsigned index, uint32_t arg,
                                                takt_notify_action_t action, uint32_t *previous,
                                                bool *woken, bool from_isr)
{
    return notify_from(task, index, arg, action, previous, woken, from_isr);
}

int takt_notify(takt_task_t *task, unsigned index, uint32_t arg, takt_notify_action_t action,
                uint32_t *previous)
{
    return notify_any(task, index, arg, action, previous, NULL, false);
}

int takt_notify_from_isr(takt_task_t *task, unsigned index, uint32_t arg,
                         takt_notify_action_t action, uint32_t *previous, bool *woken)
{
    return notify_any(task, index, arg, action, previous, woken, true);
}

/* takt_notify_give_from_isr_flag called from a task (takt/sync.h): the
 * task's give. Out of line, with the two arguments the interrupt's call
 * already holds, so the interrupt-to-task path below keeps no frame. */
TAKT_COLD __attribute__((noinline)) static int notify_give_from_task(takt_task_t *task,
                                                                     unsigned index)
{
    return notify_any(task, index, 0, TAKT_NOTIFY_INCREMENT, NULL, NULL, false);
}

/* notify_from's increment from an interrupt, with the wake inline (the
 * interrupt-to-task path); takt_notify_give_from_isr's bool is taken from
 * the flag. */
int takt_notify_give_from_isr_flag(takt_task_t *task, unsigned index, long *woken)
{
    if (!port_in_isr()) {
        return notify_give_from_task(task, index);
    }
    if (index >= TAKT_CONFIG_TASK_NOTIFICATIONS) {
        return TAKT_ERR_ARG;
    }
    port_critical_t key = port_critical_enter();
    if (!task_handle_valid(task)) {
        port_critical_exit_from_isr(key);
        return TAKT_ERR_ARG;
    }
    index = checked_slot(index);
    task->notify_value[index]++;
    task->notify_pending[index] = 1;
    if (waits_on(task, index) && sync_serve_unlisted_preempts(task) && woken != NULL) {
        *woken = 1;
    }
    port_critical_exit_from_isr(key);
    return TAKT_OK;
}

int takt_notify_give_from_isr(takt_task_t *task, unsigned index, bool *woken)
{
    long flag = 0;
    int result = takt_notify_give_from_isr_flag(task, index, &flag);
    if (flag != 0 && woken != NULL) {
        *woken = true;
    }
    return result;
}

/* Blocks the caller until slot index is pending or the timeout, as
 * sync_may_block allowed (TAKT_OK); lock held on entry and on return. The
 * wait leaves the caller's section and opens another, whose key replaces
 * *key. TAKT_OK if pending now. */
static int await_pending(takt_task_t *self, unsigned index, takt_tick_t timeout,
                         port_critical_t *key)
{
    self->wait_bits = index;
    sync_block(NULL, TAKT_WAIT_NOTIFY, timeout, *key);
    *key = port_critical_enter_unmasked();
    return self->notify_pending[index] ? TAKT_OK : TAKT_ERR_TIMEOUT;
}

static int wait_check(unsigned index, takt_tick_t timeout)
{
    int result = sync_task_call_check(timeout);
    if (result != TAKT_OK) {
        return result;
    }
    if (index >= TAKT_CONFIG_TASK_NOTIFICATIONS) {
        return TAKT_ERR_ARG;
    }
    return takt_kernel.started ? TAKT_OK : TAKT_ERR_CONTEXT; /* the caller is a task */
}

int takt_notify_wait(unsigned index, uint32_t clear_on_entry, uint32_t clear_on_exit,
                     uint32_t *value, takt_tick_t timeout)
{
    int result = wait_check(index, timeout);
    if (result != TAKT_OK) {
        return result;
    }
    port_critical_t key = port_critical_enter();
    takt_task_t *self = takt_kernel.current;
    if (!self->notify_pending[index]) {
        result = sync_may_block(timeout);
        if (result == TAKT_ERR_CONTEXT) {
            port_critical_exit(key); /* it would wait where it may not: nothing cleared */
            return result;
        }
        self->notify_value[index] &= ~clear_on_entry;
        if (result == TAKT_OK) {
            result = await_pending(self, index, timeout, &key);
        }
    }
    if (value != NULL) {
        *value = self->notify_value[index];
    }
    if (result == TAKT_OK) {
        self->notify_value[index] &= ~clear_on_exit;
        self->notify_pending[index] = 0;
    }
    port_critical_exit(key);
    return result;
}

/* What a take leaves of the value, as a mask of taken - 1: nothing when it
 * clears. */
static inline uint32_t take_keeps(bool clear)
{
    return clear ? 0u : UINT32_MAX;
}

/* The take of a value that may be 0 (a timeout's end), and the end of the
 * section key opened. */
__attribute__((always_inline)) static inline int take_and_exit(takt_task_t *self, unsigned index,
                                                               uint32_t keeps, uint32_t *value,
                                                               port_critical_t key)
{
    uint32_t taken = self->notify_value[index];
    if (value != NULL) {
        *value = taken;
    }
    if (taken != 0) {
        self->notify_value[index] = (taken - 1u) & keeps;
    }
    self->notify_pending[index] = 0;
    port_critical_exit(key);
    return taken != 0 ? TAKT_OK : TAKT_ERR_TIMEOUT;
}

/* The end of the take that waits: the caller has blocked (the switch comes
 * at this section's end, key its key), and once the task runs again it takes
 * what the value holds then, notifications that came after the one that
 * woke it included. A function of its own, so that the task comes back into
 * a straight path whose section is known to be outermost; four arguments,
 * so that the caller's call is a tail call. */
__attribute__((noinline)) static int take_after_wait(unsigned index, uint32_t keeps,
                                                     uint32_t *value, port_critical_t key)
{
    takt_task_t *self = takt_kernel.current;
    /* The switch away happens here. The value says how the wait ended; a
     * wait with no list has nothing handed to give back (no wait_queue to
     * clear: sync_block_finish). */
    KASSERT(self->wait_queue == NULL);
    port_critical_exit(key);
    return take_and_exit(self, checked_slot(index), keeps, value, port_critical_enter_unmasked());
}

int takt_notify_take(unsigned index, bool clear, uint32_t *value, takt_tick_t timeout)
{
    int result = wait_check(index, timeout);
    if (result != TAKT_OK) {
        return result;
    }
    port_critical_t key = port_critical_enter();
    takt_task_t *self = takt_kernel.current;
    if (self->notify_value[index] == 0) {
        result = sync_may_block(timeout);
        if (result == TAKT_ERR_CONTEXT) {
            port_critical_exit(key); /* it would wait where it may not: still pending */
            return result;
        }
        self->notify_pending[index] = 0; /* wait for the next notification */
        if (result == TAKT_OK) {
            self->wait_bits = index;
            sync_block_prepare(NULL, TAKT_WAIT_NOTIFY, timeout);
            return take_after_wait(index, take_keeps(clear), value, key);
        }
    }
    return take_and_exit(self, index, take_keeps(clear), value, key);
}

int takt_notify_clear_state(takt_task_t *task, unsigned index)
{
    if (index >= TAKT_CONFIG_TASK_NOTIFICATIONS) {
        return TAKT_ERR_ARG;
    }
    port_critical_t key = port_critical_enter();
    takt_task_t *target = task_resolve(task);
    int result = TAKT_ERR_ARG;
    if (target != NULL) {
        result = target->notify_pending[index] ? 1 : 0;
        target->notify_pending[index] = 0;
    }
    port_critical_exit(key);
    return result;
}

int takt_notify_clear_bits(takt_task_t *task, unsigned index, uint32_t bits, uint32_t *previous)
{
    if (index >= TAKT_CONFIG_TASK_NOTIFICATIONS) {
        return TAKT_ERR_ARG;
    }
    port_critical_t key = port_critical_enter();
    takt_task_t *target = task_resolve(task);
    int result = TAKT_ERR_ARG;
    if (target != NULL) {
        if (previous != NULL) {
            *previous = target->notify_value[index];
        }
        target->notify_value[index] &= ~bits;
        result = TAKT_OK;
    }
    port_critical_exit(key);
    return result;
}

#else /* no notification slots: every call has a bad index */

int takt_notify(takt_task_t *task, unsigned index, uint32_t arg, takt_notify_action_t action,
                uint32_t *previous)
{
    (void)task, (void)index, (void)arg, (void)action, (void)previous;
    return TAKT_ERR_ARG;
}

int takt_notify_from_isr(takt_task_t *task, unsigned index, uint32_t arg,
                         takt_notify_action_t action, uint32_t *previous, bool *woken)
{
    (void)task, (void)index, (void)arg, (void)action, (void)previous, (void)woken;
    return TAKT_ERR_ARG;
}

int takt_notify_give_from_isr(takt_task_t *task, unsigned index, bool *woken)
{
    (void)task, (void)index, (void)woken;
    return TAKT_ERR_ARG;
}

int takt_notify_give_from_isr_flag(takt_task_t *task, unsigned index, long *woken)
{
    (void)task, (void)index, (void)woken;
    return TAKT_ERR_ARG;
}

int takt_notify_wait(unsigned index, uint32_t clear_on_entry, uint32_t clear_on_exit,
                     uint32_t *value, takt_tick_t timeout)
{
    (void)index, (void)clear_on_entry, (void)clear_on_exit, (void)value, (void)timeout;
    return TAKT_ERR_ARG;
}

int takt_notify_take(unsigned index, bool clear, uint32_t *value, takt_tick_t timeout)
{
    (void)index, (void)clear, (void)value, (void)timeout;
    return TAKT_ERR_ARG;
}

int takt_notify_clear_state(takt_task_t *task, unsigned index)
{
    (void)task, (void)index;
    return TAKT_ERR_ARG;
}

int takt_notify_clear_bits(takt_task_t *task, unsigned index, uint32_t bits, uint32_t *previous)
{
    (void)task, (void)index, (void)bits, (void)previous;
    return TAKT_ERR_ARG;
}

#endif
