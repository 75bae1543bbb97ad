/*
 * Byte streams and message buffers (takt/stream.h): a ring of bytes.
 *
 * Invariants: receivers wait only while the buffer cannot serve the first of
 * them (a stream below its trigger level, a batching stream at or below it, a
 * message buffer empty) or while the stream's options defer their wake,
 * senders likewise while the first one's data does not fit. Every change that adds bytes
 * or room ends in settle(), which serves first waiters while it can, so a
 * served waiter finds its transfer done when it runs (the count in its
 * wait_size) and one that was not served takes what the buffer allows then.
 * A file of its own: only programs that use streams link it.
 */
#include <string.h>

#include "wait.h"

/* The widest length word (a size_t on 64-bit hosts). */
#define LENGTH_BYTES_MAX 8u

static bool stream_valid(const takt_stream_t *stream)
{
    return stream != NULL && stream->magic == SYNC_MAGIC_STREAM;
}

static bool is_message_buffer(const takt_stream_t *stream)
{
    return stream->length_bytes != 0;
}

static bool is_batching(const takt_stream_t *stream)
{
    return (stream->options & TAKT_STREAM_BATCHING) != 0;
}

static size_t space(const takt_stream_t *stream)
{
    return stream->size - stream->count;
}

/* ---- the ring ---- */

/* n bytes (at least 1) from `from` into the ring from index `at` on, in at
 * most two pieces; the count and head are the caller's. */
static void ring_put(takt_stream_t *stream, size_t at, const uint8_t *from, size_t n)
{
    size_t first = stream->size - at < n ? stream->size - at : n;
    memcpy(stream->storage + at, from, first);
    if (n > first) {
        memcpy(stream->storage, from + first, n - first);
    }
}

/* n bytes from `from` at the ring's end. */
static void ring_write(takt_stream_t *stream, const uint8_t *from, size_t n)
{
    if (n == 0) {
        return; /* an empty stream send may have no data at all */
    }
    size_t tail = stream->head + stream->count;
    if (tail >= stream->size) {
        tail -= stream->size;
    }
    ring_put(stream, tail, from, n);
    stream->count += n;
}

/* n bytes from `offset` bytes past the oldest into `to`, nothing removed. */
static void ring_copy(const takt_stream_t *stream, size_t offset, uint8_t *to, size_t n)
{
    if (n == 0) {
        return;
    }
    size_t from = stream->head + offset;
    if (from >= stream->size) {
        from -= stream->size;
    }
    size_t first = stream->size - from < n ? stream->size - from : n;
    memcpy(to, stream->storage + from, first);
    if (n > first) {
        memcpy(to + first, stream->storage, n - first);
    }
}

/* n bytes (at least 1) from `from` before the oldest, which they become
 * (room checked). */
static void ring_prepend(takt_stream_t *stream, const uint8_t *from, size_t n)
{
    size_t head = stream->head >= n ? stream->head - n : stream->head + stream->size - n;
    ring_put(stream, head, from, n);
    stream->head = head;
    stream->count += n;
}

/* The oldest n bytes leave. */
static void ring_drop(takt_stream_t *stream, size_t n)
{
    stream->head += n;
    if (stream->head >= stream->size) {
        stream->head -= stream->size;
    }
    stream->count -= n;
    if (stream->count == 0) {
        stream->head = 0; /* an empty ring starts over: fewer wrapped copies */
    }
}

/* A message's length word: least significant byte first, whatever the host. */
static void encode_length(const takt_stream_t *stream, size_t length,
                          uint8_t word[LENGTH_BYTES_MAX])
{
    for (unsigned i = 0; i < stream->length_bytes; i++) {
        word[i] = (uint8_t)(length >> (8u * i));
    }
}

static void write_length(takt_stream_t *stream, size_t length)
{
    uint8_t word[LENGTH_BYTES_MAX];
    encode_length(stream, length, word);
    ring_write(stream, word, stream->length_bytes);
}

static size_t next_length(const takt_stream_t *stream)
{
    if (!is_message_buffer(stream) || stream->count == 0) {
        return 0;
    }
    uint8_t word[LENGTH_BYTES_MAX];
    ring_copy(stream, 0, word, stream->length_bytes);
    size_t length = 0;
    for (unsigned i = stream->length_bytes; i-- > 0;) {
        length = (length << 8) | word[i];
    }
    return length;
}

/* ---- transfers (lock held, arguments valid) ---- */

/* What a send of length bytes needs free before it writes without waiting. */
static size_t room_needed(const takt_stream_t *stream, size_t length)
{
    if (is_message_buffer(stream)) {
        return length + stream->length_bytes;
    }
    return length < stream->size ? length : stream->size;
}

/* Writes what the buffer takes now: a stream as many bytes as fit, a
 * message buffer the whole message or nothing. Returns the bytes written. */
static size_t put_now(takt_stream_t *stream, const uint8_t *data, size_t length)
{
    if (is_message_buffer(stream)) {
        if (space(stream) < length + stream->length_bytes) {
            return 0;
        }
        write_length(stream, length);
    } else if (length > space(stream)) {
        length = space(stream);
    }
    ring_write(stream, data, length);
    return length;
}

/* Reads what the buffer gives now into a buffer of length bytes: a stream
 * as many bytes as are there, a message buffer the next message if it fits. */
static size_t take_now(takt_stream_t *stream, uint8_t *buffer, size_t length)
{
    if (is_message_buffer(stream)) {
        size_t message = next_length(stream);
        if (stream->count == 0 || message > length) {
            return 0; /* a message too long for the buffer stays */
        }
        ring_drop(stream, stream->length_bytes);
        length = message;
    } else if (length > stream->count) {
        length = stream->count;
    }
    ring_copy(stream, 0, buffer, length);
    ring_drop(stream, length);
    return length;
}

/* Whether a task's receive finds what it takes without waiting: a batching
 * stream must hold more than its trigger level, any other buffer a byte. */
static bool receivable(const takt_stream_t *stream)
{
    return is_batching(stream) ? stream->count > stream->trigger : stream->count != 0;
}

/* Whether the first waiting receiver can be served now. */
static bool receiver_servable(const takt_stream_t *stream)
{
    if (is_message_buffer(stream)) {
        return stream->count != 0;
    }
    return is_batching(stream) ? stream->count > stream->trigger
                               : stream->count >= stream->trigger;
}

/* take_now() for a task's receive: a batching stream gives nothing until
 * it holds more than its trigger level. */
static size_t take_task(takt_stream_t *stream, uint8_t *buffer, size_t length)
{
    return receivable(stream) || !is_batching(stream) ? take_now(stream, buffer, length) : 0u;
}

/* The options that keep waiters of a side unserved by a call from this
 * context (woken is non-NULL exactly in interrupts). */
static unsigned deferred_here(const takt_stream_t *stream, const bool *woken)
{
    unsigned mask = woken != NULL ? TAKT_STREAM_DEFER_RECEIVERS_ISR | TAKT_STREAM_DEFER_SENDERS_ISR
                                  : TAKT_STREAM_DEFER_RECEIVERS_TASK | TAKT_STREAM_DEFER_SENDERS_TASK;
    return stream->options & mask;
}

/* Serves first waiters while the buffer lets it, except the sides whose
 * wake `deferred` leaves to the application: each transfer may make the
 * other side's first waiter servable. Every round ends one wait, so it
 * ends. Returns how many it served. */
static unsigned settle_except(takt_stream_t *stream, bool *woken, unsigned deferred)
{
    bool receivers = (deferred & (TAKT_STREAM_DEFER_RECEIVERS_TASK | TAKT_STREAM_DEFER_RECEIVERS_ISR)) == 0;
    bool senders = (deferred & (TAKT_STREAM_DEFER_SENDERS_TASK | TAKT_STREAM_DEFER_SENDERS_ISR)) == 0;
    unsigned served = 0;
    for (;; served++) {
        takt_task_t *receiver = receivers ? waitq_first(&stream->receivers) : NULL;
        if (receiver != NULL && receiver_servable(stream)) {
            receiver->wait_size = take_now(stream, receiver->wait_data, receiver->wait_size);
            sync_wake_reporting(receiver, TAKT_OK, woken);
            continue;
        }
        takt_task_t *sender = senders ? waitq_first(&stream->senders) : NULL;
        if (sender != NULL && space(stream) >= room_needed(stream, sender->wait_size)) {
            sender->wait_size = put_now(stream, sender->wait_data, sender->wait_size);
            sync_wake_reporting(sender, TAKT_OK, woken);
            continue;
        }
        return served;
    }
}

/* Lock held: woken non-NULL from an interrupt, NULL from a task. */
static void settle(takt_stream_t *stream, bool *woken)
{
    (void)settle_except(stream, woken, deferred_here(stream, woken));
}

/* settle() from any context: a task-context call leaves the switch to its
 * lock's exit, an interrupt reports nothing to anyone. */
static void settle_here(takt_stream_t *stream)
{
    bool ignored = false;
    settle(stream, port_in_isr() ? &ignored : NULL);
}

/* The first sender left without being served (timeout, abort, suspend,
 * delete): the one behind it may fit. */
static void sender_left(takt_waitq_t *senders)
{
    settle_here(TAKT_CONTAINER_OF(senders, takt_stream_t, senders));
}

/* A sender resumed after a suspend is not served ahead of the senders: it
 * waits again among them and sender_left's settling serves it in its turn
 * (at once, if it is first and fits). Its timeout over, its call writes
 * what fits, as at a timeout. */
TAKT_COLD static bool sender_rejoins(takt_waitq_t *senders, takt_task_t *task)
{
    (void)senders;
    (void)task;
    return false;
}

/* A receiver deleted before its receive returned: the bytes (the message)
 * it was handed, still in its buffer, go back in front of the others, and
 * the waiters they let go on are served. No room: sends filled the buffer
 * since, and the delete is refused. */
TAKT_COLD static bool receiver_gives_back(takt_waitq_t *receivers, takt_task_t *task)
{
    takt_stream_t *stream = TAKT_CONTAINER_OF(receivers, takt_stream_t, receivers);
    size_t length = task->wait_size; /* 0: a message too long for its buffer stayed */
    if (length == 0) {
        return true;
    }
    if (space(stream) < length + stream->length_bytes) {
        return false;
    }
    ring_prepend(stream, task->wait_data, length);
    if (is_message_buffer(stream)) {
        uint8_t word[LENGTH_BYTES_MAX];
        encode_length(stream, length, word);
        ring_prepend(stream, word, stream->length_bytes);
    }
    settle(stream, NULL);
    return true;
}

/* ---- creation ---- */

static int create_check(size_t size, size_t trigger, unsigned length_bytes)
{
    bool width_ok = length_bytes == 0 || length_bytes == 1 || length_bytes == 2 ||
                    length_bytes == 4 || length_bytes == LENGTH_BYTES_MAX;
    if (size == 0 || size > TAKT_STREAM_MAX_SIZE || trigger > size || !width_ok ||
        (length_bytes != 0 && size <= length_bytes)) {
        return TAKT_ERR_ARG;
    }
    return port_in_isr() ? TAKT_ERR_CONTEXT : TAKT_OK;
}

static void setup(takt_stream_t *stream, size_t size, size_t trigger, unsigned length_bytes,
                  void *storage, uint8_t memory)
{
    static const takt_waitq_ops_t senders_ops = {
        .waiter_left = sender_left, .rejoin = sender_rejoins, .reason = TAKT_WAIT_STREAM_SEND};
    /* No rejoin: a receive wait ends at a suspend (FreeRTOS's returns), and a
     * served receiver suspended keeps its bytes. */
    static const takt_waitq_ops_t receivers_ops = {.give_back = receiver_gives_back,
                                                   .reason = TAKT_WAIT_STREAM_RECEIVE};
    waitq_init(&stream->senders, &senders_ops);
    waitq_init(&stream->receivers, &receivers_ops);
    stream->flags = memory;
    stream->length_bytes = (uint8_t)length_bytes;
    stream->options = 0;
    stream->storage = storage;
    stream->size = size;
    stream->count = 0;
    stream->head = 0;
    stream->trigger = trigger == 0 || length_bytes != 0 ? 1u : trigger;
    stream->magic = SYNC_MAGIC_STREAM;
}

TAKT_COLD int takt_stream_create(size_t size, size_t trigger, unsigned length_bytes,
                                 takt_stream_t **out)
{
    if (out == NULL) {
        return TAKT_ERR_ARG;
    }
    int err = create_check(size, trigger, length_bytes);
    if (err != TAKT_OK) {
        return err;
    }
    takt_stream_t *stream = sync_alloc(sizeof(takt_stream_t) + size);
    if (stream == NULL) {
        return TAKT_ERR_NOMEM;
    }
    port_critical_t key = cold_critical_enter();
    setup(stream, size, trigger, length_bytes, (uint8_t *)(stream + 1), SYNC_F_DYNAMIC);
    cold_critical_exit(key);
    *out = stream;
    return TAKT_OK;
}

TAKT_COLD int takt_stream_create_static(takt_stream_t *stream, size_t size, size_t trigger,
                                        unsigned length_bytes, void *storage)
{
    if (stream == NULL || storage == NULL) {
        return TAKT_ERR_ARG;
    }
    int err = create_check(size, trigger, length_bytes);
    if (err != TAKT_OK) {
        return err;
    }
    port_critical_t key = cold_critical_enter();
    if (sync_memory_in_use(stream, sizeof(*stream))) {
        cold_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    setup(stream, size, trigger, length_bytes, storage, 0);
    cold_critical_exit(key);
    return TAKT_OK;
}

TAKT_COLD int takt_stream_delete(takt_stream_t *stream)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    port_critical_t key = cold_critical_enter();
    if (!stream_valid(stream)) {
        cold_critical_exit(key);
        return TAKT_ERR_ARG;
    }
    if (!waitq_empty(&stream->senders) || !waitq_empty(&stream->receivers)) {
        cold_critical_exit(key);
        return TAKT_ERR_STATE;
    }
    stream->magic = 0;
    sync_forget_waitqs(&stream->senders, &stream->receivers);
    bool dynamic = stream->flags & SYNC_F_DYNAMIC;
    cold_critical_exit(key);
    if (dynamic) {
        sync_free(stream);
    }
    return TAKT_OK;
}

/* ---- sending and receiving ---- */

/* The longest message a length word of `bytes` bytes counts. */
static size_t word_max(unsigned bytes)
{
    return bytes >= sizeof(size_t) ? SIZE_MAX : ((size_t)1 << (8u * bytes)) - 1u;
}

/* Lock held (the handle's fields). */
static int send_args(const takt_stream_t *stream, const void *data, size_t length)
{
    if (!stream_valid(stream) || (data == NULL && length != 0)) {
        return TAKT_ERR_ARG;
    }
    if (is_message_buffer(stream) &&
        (length == 0 || length > stream->size - stream->length_bytes ||
         length > word_max(stream->length_bytes))) {
        return TAKT_ERR_ARG;
    }
    return TAKT_OK;
}

static int receive_args(const takt_stream_t *stream, const void *buffer, size_t length)
{
    return stream_valid(stream) && buffer != NULL && length != 0 ? TAKT_OK : TAKT_ERR_ARG;
}

/* A task's transfer of what the buffer allows now, then the waiters it lets
 * go on; leaves the caller's section (key). */
static int transfer_now(takt_stream_t *stream, void *data, size_t length, bool send,
                        port_critical_t key)
{
    size_t moved = send ? put_now(stream, data, length) : take_task(stream, data, length);
    settle(stream, NULL);
    port_critical_exit(key);
    return (int)moved;
}

/* Lock held, arguments valid: waits on `waiters` (for reason) when `must_wait`
 * and allowed; otherwise the transfer the buffer allows now. */
static int transfer_task(takt_stream_t *stream, void *data, size_t length, takt_tick_t timeout,
                         bool send, bool must_wait, port_critical_t key)
{
    if (must_wait) {
        int result = sync_may_block(timeout);
        if (result == TAKT_OK) {
            takt_task_t *self = takt_kernel.current;
            self->wait_data = data;
            self->wait_size = length;
            bool deleted;
            result = sync_block_relock(send ? &stream->senders : &stream->receivers,
                                       send ? TAKT_WAIT_STREAM_SEND : TAKT_WAIT_STREAM_RECEIVE,
                                       timeout, &key, &deleted);
            if (result == TAKT_OK || deleted) {
                /* served: the count the server moved; the stream deleted
                 * since the wait ended (its memory may be freed): nothing */
                port_critical_exit(key);
                return result == TAKT_OK ? (int)self->wait_size : 0;
            }
            /* ended unserved: the transfer the buffer allows now */
            return transfer_now(stream, data, length, send, key);
        }
        if (result != TAKT_ERR_TIMEOUT) {
            port_critical_exit(key);
            return result;
        }
    }
    return transfer_now(stream, data, length, send, key);
}

int takt_stream_send(takt_stream_t *stream, const void *data, size_t length,
                     takt_tick_t timeout)
{
    int result = sync_task_call_check(timeout);
    if (result != TAKT_OK) {
        return result;
    }
    port_critical_t key = port_critical_enter();
    result = send_args(stream, data, length);
    if (result != TAKT_OK || length == 0) {
        port_critical_exit(key);
        return result;
    }
    bool must_wait = space(stream) < room_needed(stream, length);
    /* Only read, while the caller waits. */
    return transfer_task(stream, (void *)(uintptr_t)data, length, timeout, true, must_wait, key);
}

int takt_stream_receive(takt_stream_t *stream, void *buffer, size_t length, takt_tick_t timeout)
{
    int result = sync_task_call_check(timeout);
    if (result != TAKT_OK) {
        return result;
    }
    port_critical_t key = port_critical_enter();
    result = receive_args(stream, buffer, length);
    if (result != TAKT_OK) {
        port_critical_exit(key);
        return result;
    }
    return transfer_task(stream, buffer, length, timeout, false, !receivable(stream), key);
}

/* ---- interrupt variants ---- */

int takt_stream_send_from_isr(takt_stream_t *stream, const void *data, size_t length,
                              bool *woken)
{
    if (!port_in_isr()) {
        return takt_stream_send(stream, data, length, 0); /* takt/sync.h: a task's call */
    }
    bool ignored = false;
    port_critical_t key = port_critical_enter();
    int result = send_args(stream, data, length);
    if (result == TAKT_OK) {
        result = (int)put_now(stream, data, length);
        settle(stream, woken != NULL ? woken : &ignored);
    }
    port_critical_exit(key);
    return result;
}

int takt_stream_receive_from_isr(takt_stream_t *stream, void *buffer, size_t length,
                                 bool *woken)
{
    if (!port_in_isr()) {
        return takt_stream_receive(stream, buffer, length, 0); /* takt/sync.h: a task's call */
    }
    bool ignored = false;
    port_critical_t key = port_critical_enter();
    int result = receive_args(stream, buffer, length);
    if (result == TAKT_OK) {
        result = (int)take_now(stream, buffer, length);
        settle(stream, woken != NULL ? woken : &ignored);
    }
    port_critical_exit(key);
    return result;
}

/* ---- reset, trigger level, queries ---- */

static int reset(takt_stream_t *stream)
{
    port_critical_t key = port_critical_enter();
    int result = TAKT_ERR_ARG;
    if (stream_valid(stream)) {
        result = TAKT_ERR_STATE;
        if (waitq_empty(&stream->senders) && waitq_empty(&stream->receivers)) {
            stream->count = 0;
            stream->head = 0;
            result = TAKT_OK;
        }
    }
    port_critical_exit(key);
    return result;
}

int takt_stream_reset(takt_stream_t *stream)
{
    return port_in_isr() ? TAKT_ERR_CONTEXT : reset(stream);
}

/* From a task too (takt/sync.h): the same reset. */
int takt_stream_reset_from_isr(takt_stream_t *stream)
{
    return reset(stream);
}

int takt_stream_set_trigger(takt_stream_t *stream, size_t trigger)
{
    port_critical_t key = port_critical_enter();
    int result = TAKT_ERR_ARG;
    if (stream_valid(stream) && !is_message_buffer(stream) && trigger <= stream->size) {
        stream->trigger = trigger == 0 ? 1u : trigger;
        settle_here(stream); /* a lower level may serve the waiting receiver */
        result = TAKT_OK;
    }
    port_critical_exit(key);
    return result;
}

/* ---- options and deferred wakes ---- */

#define OPTIONS_ALL                                                                         \
    (TAKT_STREAM_BATCHING | TAKT_STREAM_DEFER_RECEIVERS_TASK | TAKT_STREAM_DEFER_RECEIVERS_ISR | \
     TAKT_STREAM_DEFER_SENDERS_TASK | TAKT_STREAM_DEFER_SENDERS_ISR)

int takt_stream_configure(takt_stream_t *stream, unsigned options)
{
    port_critical_t key = port_critical_enter();
    int result = TAKT_ERR_ARG;
    if (stream_valid(stream) && (options & ~(unsigned)OPTIONS_ALL) == 0 &&
        !(is_message_buffer(stream) && (options & TAKT_STREAM_BATCHING) != 0)) {
        result = TAKT_ERR_STATE;
        if (waitq_empty(&stream->senders) && waitq_empty(&stream->receivers)) {
            stream->options = (uint8_t)options;
            result = TAKT_OK;
        }
    }
    port_critical_exit(key);
    return result;
}

/* Serves what the stream can serve, `released` no longer deferred. */
static int completed(takt_stream_t *stream, bool *woken, unsigned released)
{
    bool ignored = false;
    bool *report = port_in_isr() ? (woken != NULL ? woken : &ignored) : NULL;
    port_critical_t key = port_critical_enter();
    int result = TAKT_ERR_ARG;
    if (stream_valid(stream)) {
        result = (int)settle_except(stream, report, deferred_here(stream, report) & ~released);
    }
    port_critical_exit(key);
    return result;
}

int takt_stream_send_completed(takt_stream_t *stream, bool *woken)
{
    return completed(stream, woken, TAKT_STREAM_DEFER_RECEIVERS_TASK | TAKT_STREAM_DEFER_RECEIVERS_ISR);
}

int takt_stream_receive_completed(takt_stream_t *stream, bool *woken)
{
    return completed(stream, woken, TAKT_STREAM_DEFER_SENDERS_TASK | TAKT_STREAM_DEFER_SENDERS_ISR);
}

int takt_stream_bytes(const takt_stream_t *stream)
{
    port_critical_t key = port_critical_enter();
    int result = stream_valid(stream) ? (int)stream->count : TAKT_ERR_ARG;
    port_critical_exit(key);
    return result;
}

int takt_stream_spaces(const takt_stream_t *stream)
{
    port_critical_t key = port_critical_enter();
    int result = stream_valid(stream) ? (int)space(stream) : TAKT_ERR_ARG;
    port_critical_exit(key);
    return result;
}

bool takt_stream_receiver_servable(const takt_stream_t *stream)
{
    port_critical_t key = port_critical_enter();
    bool servable = stream_valid(stream) && receiver_servable(stream);
    port_critical_exit(key);
    return servable;
}

int takt_stream_next_length(const takt_stream_t *stream)
{
    port_critical_t key = port_critical_enter();
    int result = stream_valid(stream) ? (int)next_length(stream) : TAKT_ERR_ARG;
    port_critical_exit(key);
    return result;
}
