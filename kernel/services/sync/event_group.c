/*
 * Event groups. A waiter keeps what it asks for in its TCB (wait_bits,
 * wait_flags); a set walks the waiters once, serving every satisfied one with
 * the bits as set, and applies the clear-on-exit bits after the walk so every
 * waiter sees the same bits.
 */
#include "wait.h"

static bool group_valid(const takt_event_group_t *group)
{
    return group != NULL && group->magic == SYNC_MAGIC_EVENTS;
}

static bool satisfied(takt_event_bits_t bits, takt_event_bits_t want, unsigned flags)
{
    return (flags & TAKT_EVENT_WAIT_ALL) ? (bits & want) == want : (bits & want) != 0;
}

static void setup(takt_event_group_t *group, uint8_t memory)
{
    waitq_init(&group->waiters, NULL); /* bits are state: nothing to give back */
    group->bits = 0;
#if TAKT_CONFIG_EVENT_GROUP_USER_WORD
    group->user_word = 0;
#endif
    group->flags = memory;
    group->magic = SYNC_MAGIC_EVENTS;
}

TAKT_COLD int takt_event_group_create(takt_event_group_t **out)
{
    if (out == NULL) {
        return TAKT_ERR_ARG;
    }
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    takt_event_group_t *group = sync_alloc(sizeof(*group));
    if (group == NULL) {
        return TAKT_ERR_NOMEM;
    }
    port_critical_t key = cold_critical_enter();
    setup(group, SYNC_F_DYNAMIC);
    cold_critical_exit(key);
    *out = group;
    return TAKT_OK;
}

TAKT_COLD int takt_event_group_create_static(takt_event_group_t *group)
{
    if (group == NULL) {
        return TAKT_ERR_ARG;
    }
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = cold_critical_enter();
    if (sync_memory_in_use(group, sizeof(*group))) {
        cold_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    setup(group, 0);
    cold_critical_exit(key);
    return TAKT_OK;
}

TAKT_COLD int takt_event_group_delete(takt_event_group_t *group)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = cold_critical_enter();
    if (!group_valid(group)) {
        cold_critical_exit(key);
        return TAKT_ERR_ARG;
    }
    if (!waitq_empty(&group->waiters)) {
        cold_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    group->magic = 0;
    sync_forget_waitqs(&group->waiters, NULL);
    bool dynamic = group->flags & SYNC_F_DYNAMIC;
    cold_critical_exit(key);
    if (dynamic) {
        sync_free(group);
    }
    return TAKT_OK;
}

#if TAKT_CONFIG_EVENT_GROUP_USER_WORD
uintptr_t *takt_event_group_user_word(takt_event_group_t *group)
{
    return group_valid(group) ? &group->user_word : NULL;
}
#endif

TAKT_COLD int takt_event_group_static_memory(const takt_event_group_t *group)
{
    if (!group_valid(group)) {
        return TAKT_ERR_ARG;
    }
    return (group->flags & SYNC_F_DYNAMIC) ? TAKT_ERR_STATE : TAKT_OK;
}

/* Assumptions: lock held, handle valid. */
static void set_locked(takt_event_group_t *group, takt_event_bits_t bits, bool *woken)
{
    group->bits |= bits;
    takt_event_bits_t clear = 0;
    takt_list_t *waiters = &group->waiters.tasks;
    takt_list_node_t *node = waiters->next;
    while (node != waiters) {
        takt_task_t *waiter = TAKT_CONTAINER_OF(node, takt_task_t, wait_node);
        node = node->next; /* serving unlinks the waiter */
        if (satisfied(group->bits, waiter->wait_bits, waiter->wait_flags)) {
            if (waiter->wait_flags & TAKT_EVENT_CLEAR_ON_EXIT) {
                clear |= waiter->wait_bits;
            }
            waiter->wait_bits = group->bits; /* what it saw */
            sync_wake_reporting(waiter, TAKT_OK, woken);
        }
    }
    group->bits &= ~clear;
}

/* A wait already satisfied, or the caller blocks; either way it leaves the
 * caller's section (key). */
static int wait_locked(takt_event_group_t *group, takt_event_bits_t want, unsigned flags,
                       takt_event_bits_t *result, takt_tick_t timeout, port_critical_t key)
{
    if (satisfied(group->bits, want, flags)) {
        if (result != NULL) {
            *result = group->bits;
        }
        if (flags & TAKT_EVENT_CLEAR_ON_EXIT) {
            group->bits &= ~want;
        }
        port_critical_exit(key);
        return TAKT_OK;
    }
    int err = sync_may_block(timeout);
    if (err != TAKT_OK) {
        if (result != NULL) {
            *result = group->bits;
        }
        port_critical_exit(key);
        return err;
    }
    takt_task_t *self = takt_kernel.current;
    self->wait_bits = want;
    self->wait_flags = (uint8_t)flags;
    bool deleted;
    int served = sync_block_relock(&group->waiters, TAKT_WAIT_EVENT_GROUP, timeout, &key,
                                   &deleted);
    if (served == TAKT_OK) {
        port_critical_exit(key);
        if (result != NULL) {
            *result = self->wait_bits;
        }
        return TAKT_OK;
    }
    /* Not served: the bits now, unless another task deleted the group since
     * the wait ended (a dynamic one's memory is freed then). Bits set after
     * the timeout ended the wait but before this task ran again satisfy it
     * after all, and it takes them (clear on exit), as FreeRTOS's wait does:
     * else it would report them with its timeout and leave them set for the
     * next wait to report again. */
    takt_event_bits_t now = deleted ? 0 : group->bits;
    if (served == TAKT_ERR_TIMEOUT && satisfied(now, want, flags)) {
        if (flags & TAKT_EVENT_CLEAR_ON_EXIT) {
            group->bits &= ~want;
        }
        served = TAKT_OK;
    }
    port_critical_exit(key);
    if (result != NULL) {
        *result = now;
    }
    return served;
}

int takt_event_group_wait(takt_event_group_t *group, takt_event_bits_t bits, unsigned flags,
                          takt_event_bits_t *result, takt_tick_t timeout)
{
    int err = sync_task_call_check(timeout);
    if (err != TAKT_OK) {
        return err;
    }
    if (bits == 0 || (flags & ~(unsigned)(TAKT_EVENT_WAIT_ALL | TAKT_EVENT_CLEAR_ON_EXIT)) != 0) {
        return TAKT_ERR_ARG;
    }
    port_critical_t key = port_critical_enter();
    if (!group_valid(group)) {
        port_critical_exit(key);
        return TAKT_ERR_ARG;
    }
    return wait_locked(group, bits, flags, result, timeout, key);
}

int takt_event_group_sync(takt_event_group_t *group, takt_event_bits_t set_bits,
                          takt_event_bits_t wait_bits, takt_event_bits_t *result,
                          takt_tick_t timeout)
{
    int err = sync_task_call_check(timeout);
    if (err != TAKT_OK) {
        return err;
    }
    if (wait_bits == 0) {
        return TAKT_ERR_ARG;
    }
    port_critical_t key = port_critical_enter();
    if (!group_valid(group)) {
        port_critical_exit(key);
        return TAKT_ERR_ARG;
    }
    /* The bits this task sets count for its own wait before anyone clears them. */
    takt_event_bits_t seen = group->bits | set_bits;
    if ((seen & wait_bits) != wait_bits && sync_may_block(timeout) == TAKT_ERR_CONTEXT) {
        port_critical_exit(key);
        return TAKT_ERR_CONTEXT; /* it would have to wait where it may not: nothing set */
    }
    set_locked(group, set_bits, NULL);
    if ((seen & wait_bits) == wait_bits) {
        if (result != NULL) {
            *result = seen;
        }
        group->bits &= ~wait_bits;
        port_critical_exit(key);
        return TAKT_OK;
    }
    return wait_locked(group, wait_bits, TAKT_EVENT_WAIT_ALL | TAKT_EVENT_CLEAR_ON_EXIT, result,
                       timeout, key);
}

static int set_from(takt_event_group_t *group, takt_event_bits_t bits, takt_event_bits_t *result,
                    bool *woken, bool from_isr)
{
    bool as_isr;
    if (sync_call_form(from_isr, &as_isr) != TAKT_OK) {
        return TAKT_ERR_CONTEXT;
    }
    if (!as_isr) {
        woken = NULL; /* the task's form reports no preemption: its switch comes at once */
    }
    port_critical_t key = port_critical_enter();
    if (!group_valid(group)) {
        port_critical_exit(key);
        return TAKT_ERR_ARG;
    }
    set_locked(group, bits, woken);
    if (result != NULL) {
        *result = group->bits;
    }
    port_critical_exit(key);
    return TAKT_OK;
}

int takt_event_group_set(takt_event_group_t *group, takt_event_bits_t bits,
                         takt_event_bits_t *result)
{
    return set_from(group, bits, result, NULL, false);
}

int takt_event_group_set_from_isr(takt_event_group_t *group, takt_event_bits_t bits,
                                  bool *woken)
{
    return set_from(group, bits, NULL, woken, true);
}

int takt_event_group_clear(takt_event_group_t *group, takt_event_bits_t bits,
                           takt_event_bits_t *previous)
{
    port_critical_t key = port_critical_enter();
    if (!group_valid(group)) {
        port_critical_exit(key);
        return TAKT_ERR_ARG;
    }
    if (previous != NULL) {
        *previous = group->bits;
    }
    group->bits &= ~bits;
    port_critical_exit(key);
    return TAKT_OK;
}

int takt_event_group_clear_from_isr(takt_event_group_t *group, takt_event_bits_t bits,
                                    takt_event_bits_t *previous)
{
    return takt_event_group_clear(group, bits, previous);
}

int takt_event_group_get(const takt_event_group_t *group, takt_event_bits_t *bits)
{
    if (bits == NULL) {
        return TAKT_ERR_ARG;
    }
    port_critical_t key = port_critical_enter();
    int result = TAKT_ERR_ARG;
    if (group_valid(group)) {
        *bits = group->bits;
        result = TAKT_OK;
    }
    port_critical_exit(key);
    return result;
}
