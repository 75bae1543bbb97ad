/*
 * Message queues: a ring of fixed-size items copied by value.
 *
 * Invariants: senders wait only while the queue is full and receivers only
 * while it is empty, so a send either hands its item to a waiting receiver or
 * stores it, and a receive that frees a slot fills it at once from the first
 * waiting sender (whose item is still in its blocked frame).
 */
#include <string.h>

#include "serve.h"
#include "queue_set_post.h"

/* How a sender stores its item (its wait_flags while blocked). */
enum { SEND_BACK, SEND_FRONT, SEND_OVERWRITE };
/* Receiver flag (wait_flags while blocked). */
enum { RECEIVE_PEEK = TAKT_QUEUE_WAIT_PEEK };

static bool queue_valid(const takt_queue_t *queue)
{
    return queue != NULL && queue->magic == SYNC_MAGIC_QUEUE;
}

static uint8_t *slot(const takt_queue_t *queue, uint32_t index)
{
    return queue->storage + (size_t)((queue->head + index) % queue->length) * queue->item_size;
}

/* size bytes from `from` to `to`. Items of one word (pointers, handles,
 * counters: most messages) copy with one load and one store; a memcpy call
 * costs about 18 instructions on a Cortex-M3 for them. */
static inline void copy_bytes(void *to, const void *from, size_t size)
{
    /* Expected: laid out as the fall-through, no branch back from it. */
    if (__builtin_expect(size == sizeof(uint32_t), 1)) {
        memcpy(to, from, sizeof(uint32_t)); /* a constant size: compiled inline */
    } else if (size > 0) { /* an empty item may have no buffer at all */
        memcpy(to, from, size);
    }
}

/* A short item (the native API allows one) into an item-size slot: its bytes,
 * then zeros. Out of line: the whole-item copy below is the usual one. */
static void copy_padded(uint8_t *to, const void *item, size_t size, size_t item_size)
{
    if (size > 0) {
        memcpy(to, item, size);
    }
    memset(to + size, 0, item_size - size);
}

/* An item of size bytes (at most item_size) into an item-size slot. */
static inline void copy_item(uint8_t *to, const void *item, size_t size, size_t item_size)
{
    if (size == item_size) {
        copy_bytes(to, item, size);
    } else {
        copy_padded(to, item, size, item_size);
    }
}

static void store(takt_queue_t *queue, const void *item, size_t size, unsigned how)
{
    uint32_t index = 0; /* an overwrite of a full queue: length 1, the one item */
    if (how == SEND_FRONT) {
        queue->head = (queue->head + queue->length - 1u) % queue->length;
        queue->count++;
    } else if (how == SEND_BACK || queue->count < queue->length) {
        index = queue->count++;
    }
    copy_item(slot(queue, index), item, size, queue->item_size);
}

/* Waiting peekers ahead of the first receiver get a copy; the first receiver
 * takes the item. True if a receiver took it. Inline in send_locked: a send
 * that wakes a receiver makes no other call. */
static inline bool hand_to_receivers(takt_queue_t *queue, const void *item, size_t size,
                                     bool *woken)
{
    takt_task_t *waiter;
    while ((waiter = waitq_first(&queue->receivers)) != NULL) {
        copy_item(waiter->wait_data, item, size, queue->item_size);
        bool peek = waiter->wait_flags & RECEIVE_PEEK;
        sync_wake_reporting(waiter, TAKT_OK, woken);
        if (!peek) {
            return true;
        }
    }
    return false;
}

/* The item into the ring (no receiver took it); its queue set hears of it. */
static void store_and_post(takt_queue_t *queue, const void *item, size_t size, unsigned how,
                           bool *woken)
{
    bool adds = queue->count < queue->length;
    store(queue, item, size, how);
    if (adds && member_set(queue) != NULL) {
        queue_set_post(member_set(queue), queue, woken);
    }
}

/* A send that finds no room: it stores nothing (an overwrite always finds room). */
static inline bool send_finds_full(const takt_queue_t *queue, unsigned how)
{
    return queue->count == queue->length && how != SEND_OVERWRITE;
}

/* Assumptions: lock held, handle and size valid. TAKT_ERR_TIMEOUT if full.
 * Inline: the task-context send (woken NULL) and the interrupt one differ. */
static inline int send_locked(takt_queue_t *queue, const void *item, size_t size, unsigned how,
                              bool *woken)
{
    if (send_finds_full(queue, how)) {
        return TAKT_ERR_TIMEOUT;
    }
    if (queue->count != 0 || !hand_to_receivers(queue, item, size, woken)) {
        store_and_post(queue, item, size, how, woken);
    }
    return TAKT_OK;
}

/* Room appeared: the first waiting sender's item goes in. */
static void refill_from_sender(takt_queue_t *queue, bool *woken)
{
    takt_task_t *sender = waitq_first(&queue->senders);
    if (sender == NULL) {
        return;
    }
    store(queue, sender->wait_data, sender->wait_size, sender->wait_flags);
    if (member_set(queue) != NULL) {
        queue_set_post(member_set(queue), queue, woken);
    }
    sync_wake_reporting(sender, TAKT_OK, woken);
}

/* The first item leaves: its slot, still holding it. */
static inline const uint8_t *pop_front(takt_queue_t *queue)
{
    const uint8_t *item = queue->storage + (size_t)queue->head * queue->item_size;
    queue->head = queue->head + 1u == queue->length ? 0u : queue->head + 1u;
    queue->count--;
    return item;
}

/* The first item out into buffer. The queue's fields change before the copy:
 * the compiler cannot tell that the caller's buffer is none of them, and would
 * load them again after it. */
static inline void take_front(takt_queue_t *queue, void *buffer)
{
    const uint8_t *item = pop_front(queue);
    copy_bytes(buffer, item, queue->item_size);
}

/* Assumptions: lock held, handle and size valid. TAKT_ERR_TIMEOUT if empty. */
static int receive_locked(takt_queue_t *queue, void *buffer, bool peek, bool *woken)
{
    if (queue->count == 0) {
        return TAKT_ERR_TIMEOUT;
    }
    if (peek) {
        copy_bytes(buffer, slot(queue, 0), queue->item_size);
    } else {
        take_front(queue, buffer);
        refill_from_sender(queue, woken);
    }
    return TAKT_OK;
}

/* A receiver or sender resumed after a suspend: what its receive or send
 * would do now, with what it blocked with. */
TAKT_COLD static bool receiver_rejoins(takt_waitq_t *list, takt_task_t *task)
{
    takt_queue_t *queue = TAKT_CONTAINER_OF(list, takt_queue_t, receivers);
    return receive_locked(queue, task->wait_data, task->wait_flags & RECEIVE_PEEK, NULL) == TAKT_OK;
}

TAKT_COLD static bool sender_rejoins(takt_waitq_t *list, takt_task_t *task)
{
    takt_queue_t *queue = TAKT_CONTAINER_OF(list, takt_queue_t, senders);
    return send_locked(queue, task->wait_data, task->wait_size, task->wait_flags, NULL) == TAKT_OK;
}

/* A receiver deleted or suspended before its receive returned: the item it
 * was handed, still in its buffer, goes back to the front (or to the next
 * receiver), the oldest again. A peeker's was a copy. No room: the queue
 * filled up since the hand-off. */
TAKT_COLD static bool receiver_gives_back(takt_waitq_t *list, takt_task_t *task)
{
    takt_queue_t *queue = TAKT_CONTAINER_OF(list, takt_queue_t, receivers);
    if (task->wait_flags & RECEIVE_PEEK) {
        return true;
    }
    return send_locked(queue, task->wait_data, queue->item_size, SEND_FRONT, NULL) == TAKT_OK;
}

/* ---- creation ---- */

static void setup(takt_queue_t *queue, uint32_t length, size_t item_size, void *storage,
                  uint8_t memory)
{
    static const takt_waitq_ops_t senders_ops = {.rejoin = sender_rejoins,
                                                 .reason = TAKT_WAIT_QUEUE_SEND};
    static const takt_waitq_ops_t receivers_ops = {.rejoin = receiver_rejoins,
                                                   .give_back = receiver_gives_back,
                                                   .reason = TAKT_WAIT_QUEUE_RECEIVE};
    waitq_init(&queue->senders, &senders_ops);
    waitq_init(&queue->receivers, &receivers_ops);
    queue->storage = storage;
    queue->item_size = item_size;
    queue->length = length;
    queue->count = 0;
    queue->head = 0;
    queue->flags = memory;
    queue->set = NULL;
    queue->magic = SYNC_MAGIC_QUEUE;
}

static int create_check(uint32_t length, size_t item_size)
{
    if (length == 0 || length > (uint32_t)INT32_MAX ||
        (item_size != 0 && (size_t)length > SIZE_MAX / item_size)) {
        return TAKT_ERR_ARG;
    }
    return port_in_isr() ? TAKT_ERR_CONTEXT : TAKT_OK;
}

TAKT_COLD int takt_queue_create(uint32_t length, size_t item_size, takt_queue_t **out)
{
    if (out == NULL) {
        return TAKT_ERR_ARG;
    }
    int err = create_check(length, item_size);
    if (err != TAKT_OK) {
        return err;
    }
    size_t bytes = TAKT_QUEUE_STORAGE_SIZE(length, item_size);
    if (bytes > SIZE_MAX - sizeof(takt_queue_t)) {
        return TAKT_ERR_ARG;
    }
    takt_queue_t *queue = sync_alloc(sizeof(takt_queue_t) + bytes);
    if (queue == NULL) {
        return TAKT_ERR_NOMEM;
    }
    port_critical_t key = cold_critical_enter();
    setup(queue, length, item_size, (uint8_t *)(queue + 1), SYNC_F_DYNAMIC);
    cold_critical_exit(key);
    *out = queue;
    return TAKT_OK;
}

TAKT_COLD int takt_queue_create_static(takt_queue_t *queue, uint32_t length, size_t item_size,
                             void *storage)
{
    if (queue == NULL) {
        return TAKT_ERR_ARG;
    }
    int err = create_check(length, item_size);
    if (err != TAKT_OK) {
        return err;
    }
    if (storage == NULL && item_size != 0) {
        return TAKT_ERR_ARG;
    }
    port_critical_t key = cold_critical_enter();
    if (sync_memory_in_use(queue, sizeof(*queue))) {
        cold_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    setup(queue, length, item_size, storage, 0);
    cold_critical_exit(key);
    return TAKT_OK;
}

TAKT_COLD int takt_queue_delete(takt_queue_t *queue)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = cold_critical_enter();
    if (!queue_valid(queue)) {
        cold_critical_exit(key);
        return TAKT_ERR_ARG;
    }
    if (!waitq_empty(&queue->senders) || !waitq_empty(&queue->receivers) || member_set(queue) != NULL) {
        cold_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    queue->magic = 0;
    sync_forget_waitqs(&queue->senders, &queue->receivers);
    bool dynamic = queue->flags & SYNC_F_DYNAMIC;
    cold_critical_exit(key);
    if (dynamic) {
        sync_free(queue);
    }
    return TAKT_OK;
}

/* ---- sending and receiving ---- */

/* Argument checks needing the lock (the handle's fields). */
static int send_args(const takt_queue_t *queue, const void *item, size_t size, unsigned how)
{
    if (!queue_valid(queue) || size > queue->item_size || (item == NULL && size != 0) ||
        (how == SEND_OVERWRITE && queue->length != 1u)) {
        return TAKT_ERR_ARG;
    }
    return TAKT_OK;
}

static int receive_args(const takt_queue_t *queue, const void *buffer, size_t size)
{
    if (!queue_valid(queue) || size < queue->item_size ||
        (buffer == NULL && queue->item_size != 0)) {
        return TAKT_ERR_ARG;
    }
    return TAKT_OK;
}

/*
 * Each direction's usual call is checked and done inline. A whole-item call
 * (a valid handle, an item or buffer of the queue's item size that is there:
 * every FreeRTOS-API call) needs no other argument check; the rest (short
 * items, empty items, bad arguments) go through send_args / receive_args.
 * `whole` marks the *_item entries, whose size is the queue's item size
 * (read under the lock, once the handle is known to be valid).
 * The plain case is then done at once: a whole item to the back of a queue
 * with room and nobody waiting to receive (no receiver waits unless the queue
 * is empty), or from the front of a queue with nobody waiting to send (no
 * sender waits unless it is full), outside a queue set; and a send to an
 * empty queue whose first waiter receives hands the item over at once.
 * Everything else goes the general way, out of line, with its arguments
 * checked. Lock held.
 */
static inline bool send_is_whole(const takt_queue_t *queue, const void *item, size_t size,
                                 unsigned how, bool whole)
{
    return queue_valid(queue) && (whole || size == queue->item_size) && item != NULL &&
           (how != SEND_OVERWRITE || queue->length == 1u);
}

/* The plain send (above) to a queue that holds items already: no receiver
 * waits unless the queue is empty, so room is all it needs, outside a set. */
static inline bool send_appends(const takt_queue_t *queue, unsigned how)
{
    return how == SEND_BACK && queue->count < queue->length && member_set(queue) == NULL;
}

/* As take_front, the fields change before the copy. */
static inline void append(takt_queue_t *queue, const void *item)
{
    uint32_t index = queue->head + queue->count;
    if (index >= queue->length) {
        index -= queue->length;
    }
    queue->count++;
    copy_bytes(queue->storage + (size_t)index * queue->item_size, item, queue->item_size);
}

/* The plain send to an empty queue (nobody waiting to receive, not in a
 * set): the item goes into the head's slot, no wrap to compute. */
static inline void store_first(takt_queue_t *queue, const void *item)
{
    queue->count = 1;
    copy_bytes(queue->storage + (size_t)queue->head * queue->item_size, item, queue->item_size);
}

/* The other usual send: a whole item to an empty queue whose first waiting
 * receiver takes it (not a peeker, which only gets a copy and lets the item
 * go on to the next waiter): it goes straight into that receiver's buffer,
 * as hand_to_receivers would put it, and no queue set hears of it; the
 * receiver is served inline (sync/serve.h), so the send makes no call. */
static inline bool send_hands_over(takt_queue_t *queue, const void *item)
{
    takt_task_t *receiver = waitq_head(&queue->receivers);
    if (receiver->wait_flags & RECEIVE_PEEK) {
        return false;
    }
    copy_bytes(receiver->wait_data, item, queue->item_size);
    sync_serve_listed(receiver);
    return true;
}

static inline bool receive_is_whole(const takt_queue_t *queue, const void *buffer, size_t size,
                                    bool whole)
{
    return queue_valid(queue) && (whole || size >= queue->item_size) && buffer != NULL;
}

/* The size an argument check sees: a *_item call's is the item size, or 0 for
 * a handle that is not a queue's (rejected whatever the size). */
static inline size_t checked_size(const takt_queue_t *queue, size_t size, bool whole)
{
    if (!whole) {
        return size;
    }
    return queue_valid(queue) ? queue->item_size : 0u;
}

static inline bool receive_is_plain(const takt_queue_t *queue, bool peek)
{
    return !peek && queue->count != 0 &&
           (waitq_empty(&queue->senders) || queue->count < queue->length);
}

/* The general rest of a task-context send (lock held, arguments valid). A
 * full queue goes straight to blocking. One copy, out of line: the entries
 * below only pass their arguments on (at -O3 GCC inlined a copy into each). */
__attribute__((noinline)) static int send_task_general(takt_queue_t *queue, const void *item,
                                                       size_t size, takt_tick_t timeout,
                                                       unsigned how, port_critical_t key)
{
    int result = send_locked(queue, item, size, how, NULL);
    if (result == TAKT_ERR_TIMEOUT) {
        result = sync_may_block(timeout);
        if (result == TAKT_OK) {
            takt_task_t *self = takt_kernel.current;
            self->wait_data = (void *)(uintptr_t)item; /* only read, while we are blocked */
            self->wait_size = size;
            self->wait_flags = (uint8_t)how;
            return sync_block(&queue->senders, TAKT_WAIT_QUEUE_SEND, timeout, key);
        }
    }
    port_critical_exit(key);
    return result;
}

/* takt_queue_send's general path: out of line, so that the plain case pays for
 * none of its registers. The whole-item one has four arguments, all in
 * registers (a fifth goes on the stack and would cost every send that
 * reaches the call a frame); the other, for a checked size, is only
 * takt_queue_send's. */
__attribute__((noinline)) static int send_whole_general(takt_queue_t *queue, const void *item,
                                                        takt_tick_t timeout, port_critical_t key)
{
    return send_task_general(queue, item, queue->item_size, timeout, SEND_BACK, key);
}

__attribute__((noinline)) static int send_back_general(takt_queue_t *queue, const void *item,
                                                       size_t size, takt_tick_t timeout,
                                                       port_critical_t key)
{
    return send_task_general(queue, item, size, timeout, SEND_BACK, key);
}

/* Inline in each entry: whole and how are constants there. */
__attribute__((always_inline)) static inline int send_task(takt_queue_t *queue, const void *item,
                                                          size_t size, takt_tick_t timeout,
                                                          unsigned how, bool whole)
{
    int result = sync_task_call_check(timeout);
    if (result != TAKT_OK) {
        return result;
    }
    port_critical_t key = port_critical_enter();
    if (send_is_whole(queue, item, size, how, whole)) {
        /* An empty queue (the usual one) first: receivers wait only there. */
        bool done = false;
        if (how == SEND_BACK && queue->count == 0) {
            if (!waitq_empty(&queue->receivers)) {
                done = send_hands_over(queue, item);
            } else if (member_set(queue) == NULL) {
                store_first(queue, item);
                done = true;
            }
        } else if (send_appends(queue, how)) {
            append(queue, item);
            done = true;
        }
        if (done) {
            port_critical_exit(key);
            return TAKT_OK;
        }
        size = queue->item_size;
    } else {
        size = checked_size(queue, size, whole);
        result = send_args(queue, item, size, how);
        if (result != TAKT_OK) {
            port_critical_exit(key);
            return result;
        }
    }
    if (how != SEND_BACK) {
        return send_task_general(queue, item, size, timeout, how, key);
    }
    /* A *_item call's size is the item size (checked_size). */
    return whole ? send_whole_general(queue, item, timeout, key)
                 : send_back_general(queue, item, size, timeout, key);
}

/* As send_back_general (a receiver's size is not kept: it takes whole items);
 * an empty queue goes straight to blocking. */
static inline int receive_task_general(takt_queue_t *queue, void *buffer, takt_tick_t timeout,
                                       bool peek, port_critical_t key)
{
    int result = queue->count == 0 ? TAKT_ERR_TIMEOUT
                                   : receive_locked(queue, buffer, peek, NULL);
    if (result == TAKT_ERR_TIMEOUT) {
        result = sync_may_block(timeout);
        if (result == TAKT_OK) {
            takt_task_t *self = takt_kernel.current;
            self->wait_data = buffer;
            self->wait_flags = peek ? RECEIVE_PEEK : 0u;
            return sync_block(&queue->receivers, TAKT_WAIT_QUEUE_RECEIVE, timeout, key);
        }
    }
    port_critical_exit(key);
    return result;
}

/* The general path out of line, one copy for receives and one for peeks:
 * four arguments each, all in registers (a fifth would cost the plain case
 * a stack frame). */
__attribute__((noinline)) static int receive_general(takt_queue_t *queue, void *buffer,
                                                     takt_tick_t timeout, port_critical_t key)
{
    return receive_task_general(queue, buffer, timeout, false, key);
}

__attribute__((noinline)) static int peek_general(takt_queue_t *queue, void *buffer,
                                                  takt_tick_t timeout, port_critical_t key)
{
    return receive_task_general(queue, buffer, timeout, true, key);
}

static inline int receive_task(takt_queue_t *queue, void *buffer, size_t size,
                               takt_tick_t timeout, bool peek, bool whole)
{
    int result = sync_task_call_check(timeout);
    if (result != TAKT_OK) {
        return result;
    }
    port_critical_t key = port_critical_enter();
    /* Expected: GCC then lays the plain one-word receive out without a branch
     * taken (2 instructions on Cortex-M3; no such gain for the send). */
    if (__builtin_expect(receive_is_whole(queue, buffer, size, whole), 1)) {
        if (__builtin_expect(receive_is_plain(queue, peek) && queue->item_size == sizeof(uint32_t),
                             1)) {
            /* A one-word item leaves the ring in a register and reaches the
             * caller's buffer after the lock: no store to memory the compiler
             * cannot tell from the lock's state happens inside it. */
            uint32_t word;
            memcpy(&word, pop_front(queue), sizeof word);
            port_critical_exit(key);
            memcpy(buffer, &word, sizeof word);
            return TAKT_OK;
        }
        if (receive_is_plain(queue, peek)) {
            take_front(queue, buffer);
            port_critical_exit(key);
            return TAKT_OK;
        }
    } else {
        result = receive_args(queue, buffer, checked_size(queue, size, whole));
        if (result != TAKT_OK) {
            port_critical_exit(key);
            return result;
        }
    }
    return peek ? peek_general(queue, buffer, timeout, key)
                : receive_general(queue, buffer, timeout, key);
}

int takt_queue_send(takt_queue_t *queue, const void *item, size_t size, takt_tick_t timeout)
{
    return send_task(queue, item, size, timeout, SEND_BACK, false);
}

int takt_queue_send_item(takt_queue_t *queue, const void *item, takt_tick_t timeout)
{
    return send_task(queue, item, 0, timeout, SEND_BACK, true);
}

/* The rarer sends share one copy of the inline path (kernel text). */
__attribute__((noinline)) static int send_task_other(takt_queue_t *queue, const void *item,
                                                     size_t size, takt_tick_t timeout,
                                                     unsigned how)
{
    return send_task(queue, item, size, timeout, how, false);
}

int takt_queue_send_front(takt_queue_t *queue, const void *item, size_t size,
                          takt_tick_t timeout)
{
    return send_task_other(queue, item, size, timeout, SEND_FRONT);
}

int takt_queue_overwrite(takt_queue_t *queue, const void *item, size_t size)
{
    return send_task_other(queue, item, size, 0, SEND_OVERWRITE);
}

int takt_queue_receive(takt_queue_t *queue, void *buffer, size_t size, takt_tick_t timeout)
{
    return receive_task(queue, buffer, size, timeout, false, false);
}

int takt_queue_receive_item(takt_queue_t *queue, void *buffer, takt_tick_t timeout)
{
    return receive_task(queue, buffer, 0, timeout, false, true);
}

int takt_queue_peek(takt_queue_t *queue, void *buffer, size_t size, takt_tick_t timeout)
{
    return receive_task(queue, buffer, size, timeout, true, false);
}

int takt_queue_reset(takt_queue_t *queue)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = port_critical_enter();
    if (!queue_valid(queue)) {
        port_critical_exit(key);
        return TAKT_ERR_ARG;
    }
    queue->count = 0;
    queue->head = 0;
    if (member_set(queue) != NULL) {
        queue_set_forget(member_set(queue), queue); /* its items are gone */
    }
    while (queue->count < queue->length && !waitq_empty(&queue->senders)) {
        refill_from_sender(queue, NULL);
    }
    port_critical_exit(key);
    return TAKT_OK;
}

/* ---- interrupt variants ---- */

/* An interrupt's send or receive called from a task (takt/sync.h): the
 * task's call without a wait, through its general path (the fast paths
 * are cases of it). Cold and out of line, and not through the public
 * calls, whose inline paths GCC would otherwise lay out differently. */
TAKT_COLD __attribute__((noinline)) static int send_from_task(takt_queue_t *queue,
                                                              const void *item, size_t size,
                                                              unsigned how)
{
    port_critical_t key = port_critical_enter();
    int result = send_args(queue, item, size, how);
    if (result != TAKT_OK) {
        port_critical_exit(key);
        return result;
    }
    return send_task_general(queue, item, size, 0, how, key);
}

TAKT_COLD __attribute__((noinline)) static int receive_from_task(takt_queue_t *queue,
                                                                 void *buffer, size_t size,
                                                                 bool peek)
{
    port_critical_t key = port_critical_enter();
    int result = receive_args(queue, buffer, size);
    if (result != TAKT_OK) {
        port_critical_exit(key);
        return result;
    }
    return peek ? peek_general(queue, buffer, 0, key) : receive_general(queue, buffer, 0, key);
}

static int send_isr(takt_queue_t *queue, const void *item, size_t size, unsigned how,
                    bool *woken)
{
    if (!port_in_isr()) {
        return send_from_task(queue, item, size, how);
    }
    port_critical_t key = port_critical_enter();
    int result = send_args(queue, item, size, how);
    if (result == TAKT_OK) {
        result = send_locked(queue, item, size, how, woken);
    }
    port_critical_exit(key);
    return result;
}

static int receive_isr(takt_queue_t *queue, void *buffer, size_t size, bool peek, bool *woken)
{
    if (!port_in_isr()) {
        return receive_from_task(queue, buffer, size, peek);
    }
    port_critical_t key = port_critical_enter();
    int result = receive_args(queue, buffer, size);
    if (result == TAKT_OK) {
        result = receive_locked(queue, buffer, peek, woken);
    }
    port_critical_exit(key);
    return result;
}

int takt_queue_send_from_isr(takt_queue_t *queue, const void *item, size_t size, bool *woken)
{
    return send_isr(queue, item, size, SEND_BACK, woken);
}

int takt_queue_send_front_from_isr(takt_queue_t *queue, const void *item, size_t size,
                                   bool *woken)
{
    return send_isr(queue, item, size, SEND_FRONT, woken);
}

int takt_queue_overwrite_from_isr(takt_queue_t *queue, const void *item, size_t size,
                                  bool *woken)
{
    return send_isr(queue, item, size, SEND_OVERWRITE, woken);
}

int takt_queue_receive_from_isr(takt_queue_t *queue, void *buffer, size_t size, bool *woken)
{
    return receive_isr(queue, buffer, size, false, woken);
}

int takt_queue_peek_from_isr(takt_queue_t *queue, void *buffer, size_t size)
{
    return receive_isr(queue, buffer, size, true, NULL);
}

int takt_queue_count(const takt_queue_t *queue)
{
    port_critical_t key = port_critical_enter();
    int result = queue_valid(queue) ? (int)queue->count : TAKT_ERR_ARG;
    port_critical_exit(key);
    return result;
}

int takt_queue_spaces(const takt_queue_t *queue)
{
    port_critical_t key = port_critical_enter();
    int result = queue_valid(queue) ? (int)(queue->length - queue->count) : TAKT_ERR_ARG;
    port_critical_exit(key);
    return result;
}
