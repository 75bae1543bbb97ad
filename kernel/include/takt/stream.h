/*
 * Byte streams and message buffers: a ring of bytes with a blocking writer
 * side and a blocking reader side (the FreeRTOS layer's stream_buffer.h and
 * message_buffer.h). Conventions (timeouts, waiter order, *_from_isr):
 * takt/sync.h, except that sends and receives return a byte count.
 *
 * Two kinds, chosen at creation:
 * - A byte stream (length_bytes 0): a send copies as many bytes as fit, a
 *   receive as many as are there (up to its buffer). Bytes come out in the
 *   order they went in; writers that send at once interleave by call.
 * - A message buffer (length_bytes 1, 2, 4 or 8): each send stores one whole
 *   message preceded by its length in length_bytes bytes, or nothing; each
 *   receive takes one whole message, or nothing. The length words count in
 *   the buffer's size, its bytes and its spaces.
 *
 * Blocking:
 * - A send waits (up to its timeout) while its data does not all fit: the
 *   whole message and its length word; for a stream min(length, size) bytes,
 *   so a send longer than the buffer waits for an empty buffer and then
 *   writes what fits. When the wait ends unserved (timeout, abort; a
 *   suspend only if the timeout ended before the resume: takt/sync.h) the
 *   send writes what fits then (a stream) and returns that count; a message
 *   is written only whole.
 * - A receive waits only on an empty buffer (it takes what is there at
 *   once otherwise, fewer bytes than the trigger level included). A waiting
 *   stream receiver is served once the buffer holds trigger bytes, a waiting
 *   message receiver by the next whole message. When the wait ends unserved
 *   the receive takes what is there then (possibly nothing).
 * - Waiters are served in the policy's order, first come first served among
 *   equals, each with the whole of what it waits for, copied by the call
 *   that made it possible (hand-off: it is not overtaken once served); the
 *   first waiter is served first, a waiter behind it waits even if its own
 *   data would fit. A call that can complete at once does so without
 *   waiting behind waiters (as in FreeRTOS, where only one task may wait on
 *   each side).
 * - A message receiver whose buffer is too small for the next message gets
 *   0 bytes and the message stays (a waiting one is woken with 0 too).
 *
 * Options (takt_stream_configure) change two things for one stream:
 * - Batching (byte streams): a task's receive gets bytes only once the
 *   stream holds more than its trigger level, and waits while it does not.
 * - Deferred wakes: the application wakes one side's waiters itself, e.g.
 *   from an interrupt that its completion hook raises. A send (receive) then
 *   serves no waiting receiver (sender) until takt_stream_send_completed
 *   (takt_stream_receive_completed) is called.
 */
#ifndef TAKT_STREAM_H
#define TAKT_STREAM_H

#include "takt/sync.h"

/* Fields belong to the kernel; applications allocate it for create_static. */
typedef struct takt_stream {
    takt_waitq_t senders;
    uint32_t magic; /* where every waitable object has it (takt/sync.h) */
    takt_waitq_t receivers;
    uint8_t flags;
    uint8_t length_bytes; /* 0: a byte stream; else a message's length word */
    uint8_t options;      /* TAKT_STREAM_BATCHING, TAKT_STREAM_DEFER_* */
    uint8_t *storage;
    size_t size;    /* capacity in bytes */
    size_t count;   /* bytes held, length words included */
    size_t head;    /* index of the oldest byte */
    size_t trigger; /* stream: bytes that end a receiver's wait (at least 1) */
} takt_stream_t;

/* The largest buffer: every count fits a non-negative int. */
#define TAKT_STREAM_MAX_SIZE ((size_t)INT32_MAX)

/*
 * Creates a stream (length_bytes 0) or message buffer (length_bytes 1, 2, 4
 * or 8) of size bytes in one allocation. trigger: a stream's bytes that end a
 * receiver's wait (0 counts as 1; ignored for a message buffer).
 * TAKT_ERR_ARG: out null, size 0 or above TAKT_STREAM_MAX_SIZE, trigger above
 * size, another length_bytes, a message buffer of no more than length_bytes
 * bytes; TAKT_ERR_NOMEM; TAKT_ERR_CONTEXT from an interrupt.
 * Context: task or before start.
 */
int takt_stream_create(size_t size, size_t trigger, unsigned length_bytes, takt_stream_t **out);
/* In caller memory: storage holds at least size bytes. TAKT_ERR_ARG also for
 * storage NULL; TAKT_ERR_STATE if the memory holds a live object (takt/sync.h). */
int takt_stream_create_static(takt_stream_t *stream, size_t size, size_t trigger,
                              unsigned length_bytes, void *storage);
/* TAKT_ERR_STATE if tasks wait on it. Context: task or before start. */
int takt_stream_delete(takt_stream_t *stream);

/*
 * Sends length bytes of data, waiting up to timeout while they do not all fit
 * (above). Returns the bytes written (a message's length, without its word),
 * possibly 0, or an error: TAKT_ERR_ARG for a bad handle, data NULL with
 * length > 0, a message of length 0, longer than the buffer can hold
 * (size - length_bytes) or than its length word counts; TAKT_ERR_CONTEXT
 * (takt/sync.h: from an interrupt; from the idle task, locked or in a
 * critical section when it would wait). A stream send of 0 bytes returns 0.
 * Context: task. May reschedule.
 */
int takt_stream_send(takt_stream_t *stream, const void *data, size_t length,
                     takt_tick_t timeout);
/*
 * Receives up to length bytes into buffer (a message: the next whole
 * message, if it fits), waiting up to timeout while the buffer is empty.
 * Returns the bytes received, possibly 0, or TAKT_ERR_ARG (bad handle, buffer
 * NULL, length 0), TAKT_ERR_CONTEXT as the send. Context: task. May reschedule.
 */
int takt_stream_receive(takt_stream_t *stream, void *buffer, size_t length,
                        takt_tick_t timeout);

/* Interrupt variants: never wait; the same results otherwise. */
int takt_stream_send_from_isr(takt_stream_t *stream, const void *data, size_t length,
                              bool *woken);
int takt_stream_receive_from_isr(takt_stream_t *stream, void *buffer, size_t length,
                                 bool *woken);

/* Empties it: TAKT_ERR_STATE (nothing changes) while a task waits to send or
 * receive. The first: context task or before start; the second: interrupt
 * (or a task, takt/sync.h). */
int takt_stream_reset(takt_stream_t *stream);
int takt_stream_reset_from_isr(takt_stream_t *stream);

/* A stream's new trigger level (0 counts as 1); a waiting receiver that it
 * satisfies is served. TAKT_ERR_ARG above the size or for a message buffer.
 * Any context. */
int takt_stream_set_trigger(takt_stream_t *stream, size_t trigger);

/*
 * Options for takt_stream_configure.
 * TAKT_STREAM_BATCHING (byte streams only): a task's receive takes bytes
 * only while the stream holds more than its trigger level; otherwise it
 * waits (up to its timeout) for more, and gets 0 if its wait ends without
 * (the bytes stay). A waiting receiver is served by the call that takes the
 * stream above the level. An interrupt's receive takes what is there.
 * TAKT_STREAM_DEFER_RECEIVERS_TASK / _ISR: a call from a task / an interrupt
 * serves no waiting receiver; takt_stream_send_completed does.
 * TAKT_STREAM_DEFER_SENDERS_TASK / _ISR: likewise for waiting senders and
 * takt_stream_receive_completed. A wait's timeout ends in the tick
 * interrupt, so a sender behind a timed-out one follows the _ISR option.
 */
#define TAKT_STREAM_BATCHING 0x01u
#define TAKT_STREAM_DEFER_RECEIVERS_TASK 0x02u
#define TAKT_STREAM_DEFER_RECEIVERS_ISR 0x04u
#define TAKT_STREAM_DEFER_SENDERS_TASK 0x08u
#define TAKT_STREAM_DEFER_SENDERS_ISR 0x10u

/* Replaces the stream's options. TAKT_ERR_ARG: a bad handle, an unknown
 * option, batching on a message buffer; TAKT_ERR_STATE while a task waits on
 * it. Any context. */
int takt_stream_configure(takt_stream_t *stream, unsigned options);

/*
 * Serves the waiting receivers (senders) the stream can serve now, however
 * the stream's options defer them: the wake a completion hook hands to the
 * application. Returns how many it served, or TAKT_ERR_ARG on a bad handle.
 * woken (may be NULL): from an interrupt, set when a served task should
 * preempt the interrupted one. Any context. May reschedule.
 */
int takt_stream_send_completed(takt_stream_t *stream, bool *woken);
int takt_stream_receive_completed(takt_stream_t *stream, bool *woken);

/* Bytes held / free, length words included; the next message's length (0
 * when empty, and always for a byte stream). TAKT_ERR_ARG on a bad handle.
 * Any context. */
int takt_stream_bytes(const takt_stream_t *stream);
int takt_stream_spaces(const takt_stream_t *stream);
int takt_stream_next_length(const takt_stream_t *stream);

/* Whether the buffer holds what ends a waiting receiver's wait: a message, a
 * stream's trigger level (a batching stream's: more than it). false on a bad
 * handle. Any context. */
bool takt_stream_receiver_servable(const takt_stream_t *stream);

#endif
