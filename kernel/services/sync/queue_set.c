/*
 * Queue sets: a ring of member handles, one entry per item or unit that
 * entered a member. A select that finds the ring empty waits; a post that
 * meets a waiting selector hands it the handle directly.
 */
#include "queue_set_post.h"

#if TAKT_CONFIG_QUEUE_SETS

static bool set_valid(const takt_queue_set_t *set)
{
    return set != NULL && set->magic == SYNC_MAGIC_QUEUE_SET;
}

void queue_set_post(takt_queue_set_t *set, void *member, bool *woken)
{
    takt_task_t *selector = waitq_first(&set->selectors);
    if (selector != NULL) {
        *(void **)selector->wait_data = member;
        sync_wake_reporting(selector, TAKT_OK, woken);
        return;
    }
    /* Full only when members were read outside the set, leaving handles
     * behind (documented misuse): the handle is dropped rather than
     * overwriting one. */
    KASSERT(set->count < set->capacity);
    if (set->count < set->capacity) {
        set->slots[(set->head + set->count) % set->capacity] = member;
        set->count++;
    }
}

/* A selector's wait flag: the handle it was handed names a member that has
 * left the set or was reset since (queue_set_forget), so it has nothing to
 * give back. */
#define SELECTOR_HANDLE_STALE 1u

/* A selector handed member's handle that has not returned keeps it (its
 * select returns it), but must not give it back to the ring. O(tasks), as
 * the removal and the reset that call this are set-up calls. */
static void mark_handed_stale(takt_queue_set_t *set, const void *member)
{
    const takt_list_t *all = &takt_kernel.all_tasks;
    for (takt_list_node_t *node = kernel_tasks_first(); node != all; node = node->next) {
        takt_task_t *task = TAKT_CONTAINER_OF(node, takt_task_t, all_node);
        if (task->wait_queue == &set->selectors && sync_served_unreturned(task) &&
            *(void **)task->wait_data == member) {
            task->wait_flags |= SELECTOR_HANDLE_STALE;
        }
    }
}

void queue_set_forget(takt_queue_set_t *set, const void *member)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < set->count; i++) {
        void *handle = set->slots[(set->head + i) % set->capacity];
        if (handle != member) {
            /* kept <= i: the write never overtakes the read */
            set->slots[(set->head + kept) % set->capacity] = handle;
            kept++;
        }
    }
    set->count = kept;
    mark_handed_stale(set, member);
}

static bool rejoin(takt_waitq_t *queue, takt_task_t *task);

/* A selector deleted or suspended before its select returned: the handle
 * it was handed goes back, first in line again (to the next selector, or to
 * the ring's front), so the set still announces its member's item. Its
 * member's reservation keeps a slot for it; without one (handles left by
 * reads outside the set) it is kept. */
TAKT_COLD static bool selector_gives_back(takt_waitq_t *queue, takt_task_t *task)
{
    takt_queue_set_t *set = TAKT_CONTAINER_OF(queue, takt_queue_set_t, selectors);
    if (task->wait_flags & SELECTOR_HANDLE_STALE) {
        task->wait_flags = 0;
        return true;
    }
    void *member = *(void **)task->wait_data;
    if (!waitq_empty(&set->selectors)) {
        queue_set_post(set, member, NULL); /* the next selector's, as any post */
        return true;
    }
    if (set->count == set->capacity) {
        return false;
    }
    set->head = (set->head + set->capacity - 1u) % set->capacity;
    set->slots[set->head] = member;
    set->count++;
    return true;
}

static void setup(takt_queue_set_t *set, uint32_t capacity, void **slots, uint8_t memory)
{
    static const takt_waitq_ops_t selectors_ops = {.rejoin = rejoin,
                                                   .give_back = selector_gives_back,
                                                   .reason = TAKT_WAIT_QUEUE_SET};
    waitq_init(&set->selectors, &selectors_ops);
    set->slots = slots;
    set->capacity = capacity;
    set->count = 0;
    set->head = 0;
    set->reserved = 0;
    set->flags = memory;
    set->magic = SYNC_MAGIC_QUEUE_SET;
}

static int create_check(uint32_t capacity)
{
    if (capacity == 0 || capacity > (uint32_t)INT32_MAX) {
        return TAKT_ERR_ARG;
    }
    return port_in_isr() ? TAKT_ERR_CONTEXT : TAKT_OK;
}

TAKT_COLD int takt_queue_set_create(uint32_t capacity, takt_queue_set_t **out)
{
    if (out == NULL) {
        return TAKT_ERR_ARG;
    }
    int err = create_check(capacity);
    if (err != TAKT_OK) {
        return err;
    }
    /* capacity < 2^31 keeps the size within size_t on 32- and 64-bit targets
     * only up to the address space; the allocator refuses what does not fit. */
    uint64_t bytes = sizeof(takt_queue_set_t) + (uint64_t)capacity * sizeof(void *);
    if (bytes > SIZE_MAX) {
        return TAKT_ERR_NOMEM;
    }
    takt_queue_set_t *set = sync_alloc((size_t)bytes);
    if (set == NULL) {
        return TAKT_ERR_NOMEM;
    }
    port_critical_t key = cold_critical_enter();
    setup(set, capacity, (void **)(set + 1), SYNC_F_DYNAMIC);
    cold_critical_exit(key);
    *out = set;
    return TAKT_OK;
}

TAKT_COLD int takt_queue_set_create_static(takt_queue_set_t *set, uint32_t capacity, void **slots)
{
    if (set == NULL || slots == NULL) {
        return TAKT_ERR_ARG;
    }
    int err = create_check(capacity);
    if (err != TAKT_OK) {
        return err;
    }
    port_critical_t key = cold_critical_enter();
    if (sync_memory_in_use(set, sizeof(*set))) {
        cold_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    setup(set, capacity, slots, 0);
    cold_critical_exit(key);
    return TAKT_OK;
}

TAKT_COLD int takt_queue_set_delete(takt_queue_set_t *set)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = cold_critical_enter();
    if (!set_valid(set)) {
        cold_critical_exit(key);
        return TAKT_ERR_ARG;
    }
    if (!waitq_empty(&set->selectors) || set->reserved != 0) { /* members left */
        cold_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    set->magic = 0;
    sync_forget_waitqs(&set->selectors, NULL);
    bool dynamic = set->flags & SYNC_F_DYNAMIC;
    cold_critical_exit(key);
    if (dynamic) {
        sync_free(set);
    }
    return TAKT_OK;
}

/* Membership changes: the member's set pointer, checked and set under the
 * lock. A member reserves room for its length in the ring, so that a post
 * always finds a slot while members are read through the set; a member that
 * leaves takes any handle of its still pending (its items were read outside
 * the set) with it, so the ring never names an object that left. */
typedef struct {
    takt_queue_set_t **set_field; /* NULL: not a valid member object */
    void *handle;
    bool empty;
    uint32_t length; /* a queue's length, a semaphore's max */
} member_t;

static int change_membership(takt_queue_set_t *set, const member_t *member, bool add)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    if (!set_valid(set) || member->set_field == NULL) {
        return TAKT_ERR_ARG;
    }
    if (!member->empty || *member->set_field != (add ? NULL : set)) {
        return TAKT_ERR_STATE;
    }
    if (add) {
        if (member->length > set->capacity - set->reserved) {
            return TAKT_ERR_STATE;
        }
        set->reserved += member->length;
        *member->set_field = set;
    } else {
        queue_set_forget(set, member->handle);
        set->reserved -= member->length;
        *member->set_field = NULL;
    }
    return TAKT_OK;
}

static member_t queue_member(takt_queue_t *queue)
{
    if (queue == NULL || queue->magic != SYNC_MAGIC_QUEUE) {
        return (member_t){.set_field = NULL};
    }
    return (member_t){.set_field = &queue->set, .handle = queue, .empty = queue->count == 0,
                      .length = queue->length};
}

static member_t sem_member(takt_sem_t *sem)
{
    if (sem == NULL || sem->magic != SYNC_MAGIC_SEM) {
        return (member_t){.set_field = NULL};
    }
    return (member_t){.set_field = &sem->set, .handle = sem, .empty = sem->count == 0,
                      .length = sem->max};
}

int takt_queue_set_add_queue(takt_queue_set_t *set, takt_queue_t *queue)
{
    port_critical_t key = port_critical_enter();
    member_t member = queue_member(queue);
    int result = change_membership(set, &member, true);
    port_critical_exit(key);
    return result;
}

int takt_queue_set_add_sem(takt_queue_set_t *set, takt_sem_t *sem)
{
    port_critical_t key = port_critical_enter();
    member_t member = sem_member(sem);
    int result = change_membership(set, &member, true);
    port_critical_exit(key);
    return result;
}

int takt_queue_set_remove_queue(takt_queue_set_t *set, takt_queue_t *queue)
{
    port_critical_t key = port_critical_enter();
    member_t member = queue_member(queue);
    int result = change_membership(set, &member, false);
    port_critical_exit(key);
    return result;
}

int takt_queue_set_remove_sem(takt_queue_set_t *set, takt_sem_t *sem)
{
    port_critical_t key = port_critical_enter();
    member_t member = sem_member(sem);
    int result = change_membership(set, &member, false);
    port_critical_exit(key);
    return result;
}

static int select_locked(takt_queue_set_t *set, void **member)
{
    if (set->count == 0) {
        return TAKT_ERR_TIMEOUT;
    }
    *member = set->slots[set->head];
    set->head = (set->head + 1u) % set->capacity;
    set->count--;
    return TAKT_OK;
}

/* A selector resumed after a suspend: the first member posted, if any. */
TAKT_COLD static bool rejoin(takt_waitq_t *queue, takt_task_t *task)
{
    takt_queue_set_t *set = TAKT_CONTAINER_OF(queue, takt_queue_set_t, selectors);
    return select_locked(set, task->wait_data) == TAKT_OK;
}

int takt_queue_set_select(takt_queue_set_t *set, void **member, takt_tick_t timeout)
{
    int result = sync_task_call_check(timeout);
    if (result != TAKT_OK) {
        return result;
    }
    if (member == NULL) {
        return TAKT_ERR_ARG;
    }
    port_critical_t key = port_critical_enter();
    result = set_valid(set) ? select_locked(set, member) : TAKT_ERR_ARG;
    if (result == TAKT_ERR_TIMEOUT) {
        result = sync_may_block(timeout);
        if (result == TAKT_OK) {
            takt_task_t *self = takt_kernel.current;
            self->wait_data = member;
            self->wait_flags = 0;
            return sync_block(&set->selectors, TAKT_WAIT_QUEUE_SET, timeout, key);
        }
    }
    port_critical_exit(key);
    return result;
}

int takt_queue_set_select_from_isr(takt_queue_set_t *set, void **member)
{
    if (!port_in_isr()) {
        return takt_queue_set_select(set, member, 0); /* takt/sync.h: a task's call */
    }
    if (member == NULL) {
        return TAKT_ERR_ARG;
    }
    port_critical_t key = port_critical_enter();
    int result = set_valid(set) ? select_locked(set, member) : TAKT_ERR_ARG;
    port_critical_exit(key);
    return result;
}

#else
/* Built without queue sets (TAKT_CONFIG_QUEUE_SETS 0): nothing here. ISO C
 * wants a declaration in every translation unit. */
typedef int takt_queue_sets_not_built;
#endif
