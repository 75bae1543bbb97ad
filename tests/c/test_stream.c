/*
 * Streams and message buffers (takt/stream.h) on the kernel: partial writes,
 * the ring's wraparound at every offset, trigger levels, blocked readers and
 * writers served by the call that makes room or data (and in priority
 * order), timeouts and aborts that return what is there, deletion and reset
 * refused while a task waits, waiters served in order (one behind a writer
 * that does not fit waits; it is served once that one leaves), bad input,
 * the interrupt variants, message framing, batching streams, wakes
 * deferred to the completion calls, and random send/receive runs checked
 * against a model.
 */
#include "sync_common.h"

static takt_stream_t *st, *st2;

/* Byte i of a test's data. */
static uint8_t pattern(size_t i)
{
    return (uint8_t)(i * 7u + 3u);
}

static bool matches(const uint8_t *bytes, size_t from, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (bytes[i] != pattern(from + i)) {
            return false;
        }
    }
    return true;
}

static uint8_t data[64];

static void data_init(void)
{
    for (size_t i = 0; i < sizeof data; i++) {
        data[i] = pattern(i);
    }
}

/* ---------------------------------------------------------------- basics */

static takt_stream_t static_st;
static uint8_t static_storage[16];
static bool isr_woken[8];
static int isr_rc[8];

static void basics_body(void *arg)
{
    (void)arg;
    uint8_t buf[32];
    CHECK_EQ(takt_stream_send(st, data, 5, 0), 5);
    CHECK_EQ(takt_stream_spaces(st), 3);
    CHECK_EQ(takt_stream_bytes(st), 5);
    CHECK_EQ(takt_stream_send(st, data + 5, 5, 0), 3); /* as many as fit */
    CHECK_EQ(takt_stream_spaces(st), 0);
    CHECK_EQ(takt_stream_send(st, data, 1, 0), 0);
    CHECK_EQ(takt_stream_receive(st, buf, 4, 0), 4);
    CHECK(matches(buf, 0, 4));
    CHECK_EQ(takt_stream_receive(st, buf, sizeof buf, 0), 4);
    CHECK(matches(buf, 4, 4));
    CHECK_EQ(takt_stream_receive(st, buf, sizeof buf, 0), 0);
    CHECK_EQ(takt_stream_receive(st, buf, sizeof buf, 2), 0); /* waits, finds nothing */
    CHECK_EQ(h_now_ticks(), 2);
    CHECK_EQ(takt_stream_next_length(st), 0); /* a byte stream has no messages */
    CHECK_EQ(takt_stream_send(st, NULL, 0, 0), 0);
    /* bad input: nothing changes */
    takt_stream_t *out = NULL;
    CHECK_EQ(takt_stream_create(0, 0, 0, &out), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_create(8, 9, 0, &out), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_create(8, 0, 3, &out), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_create(4, 0, 4, &out), TAKT_ERR_ARG); /* no room beside the word */
    CHECK_EQ(takt_stream_create(TAKT_STREAM_MAX_SIZE + 1u, 0, 0, &out), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_create(8, 0, 0, NULL), TAKT_ERR_ARG);
    CHECK(out == NULL);
    CHECK_EQ(takt_stream_send(NULL, data, 1, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_receive(NULL, buf, 1, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_bytes(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_spaces(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_next_length(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_reset(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_set_trigger(NULL, 1), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_delete(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_send(st, NULL, 3, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_receive(st, NULL, 3, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_receive(st, buf, 0, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_send(st, data, 1, 0x90000000u), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_set_trigger(st, 9), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_send_from_isr(st, NULL, 1, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_receive_from_isr(st, buf, 0, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_reset_from_isr(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_bytes(st), 0);
    /* reset empties it */
    CHECK_EQ(takt_stream_send(st, data, 3, 0), 3);
    CHECK_EQ(takt_stream_reset(st), TAKT_OK);
    CHECK_EQ(takt_stream_bytes(st), 0);
    CHECK_EQ(takt_stream_spaces(st), 8);
    /* static: live, then deleted */
    CHECK_EQ(takt_stream_create_static(&static_st, 16, 1, 0, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_create_static(&static_st, 16, 1, 0, static_storage), TAKT_OK);
    CHECK_EQ(takt_stream_create_static(&static_st, 16, 1, 0, static_storage), TAKT_ERR_STATE);
    CHECK_EQ(takt_stream_send(&static_st, data, 16, 0), 16);
    CHECK_EQ(takt_stream_receive(&static_st, buf, sizeof buf, 0), 16);
    CHECK(matches(buf, 0, 16));
    CHECK_EQ(takt_stream_set_trigger(&static_st, 16), TAKT_OK);
    CHECK_EQ(takt_stream_delete(&static_st), TAKT_OK);
    CHECK_EQ(takt_stream_send(&static_st, data, 1, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_bytes(&static_st), TAKT_ERR_ARG);
    /* a message buffer refuses a trigger level */
    CHECK_EQ(takt_stream_create(16, 0, 4, &out), TAKT_OK);
    CHECK_EQ(takt_stream_set_trigger(out, 1), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_delete(out), TAKT_OK);
    s_log("done");
    h_park();
}

static void scenario_basics(takt_tick_t tick0)
{
    s_begin(tick0, 4);
    s_log_reset();
    CHECK_EQ(takt_stream_create(8, 0, 0, &st), TAKT_OK);
    s_task("A", 2, basics_body, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "done@2");
    CHECK_EQ(takt_stream_delete(st), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- wraparound */

/* A byte stream of `size`: for every place of the oldest byte, sends of
 * every length (some longer than the room: partial), read back whole and in
 * two pieces split at every point. Before start: every call is immediate. */
static void wrap_stream(size_t size)
{
    takt_stream_t *s = NULL;
    CHECK_EQ(takt_stream_create(size, 1, 0, &s), TAKT_OK);
    uint8_t buf[64];
    for (size_t head = 0; head < size; head++) {
        for (size_t length = 1; length <= size + 2; length++) {
            for (size_t split = 0; split <= length; split++) {
                /* the oldest byte at `head`, one byte held */
                CHECK_EQ(takt_stream_send(s, data, head + 1, 0), (int)(head + 1));
                if (head > 0) {
                    CHECK_EQ(takt_stream_receive(s, buf, head, 0), (int)head);
                    CHECK(matches(buf, 0, head));
                }
                size_t fits = length < size - 1 ? length : size - 1;
                CHECK_EQ(takt_stream_send(s, data + head + 1, length, 0), (int)fits);
                size_t first = split < fits + 1 ? split : fits + 1;
                int got = first == 0 ? 0 : takt_stream_receive(s, buf, first, 0);
                CHECK_EQ(got, (int)first);
                CHECK_EQ(takt_stream_receive(s, buf + first, sizeof buf - first, 0),
                         (int)(fits + 1 - first));
                CHECK(matches(buf, head, fits + 1));
                CHECK_EQ(takt_stream_bytes(s), 0);
            }
        }
    }
    /* the whole buffer at once */
    CHECK_EQ(takt_stream_send(s, data, size, 0), (int)size);
    CHECK_EQ(takt_stream_receive(s, buf, sizeof buf, 0), (int)size);
    CHECK(matches(buf, 0, size));
    CHECK_EQ(takt_stream_delete(s), TAKT_OK);
}

/* A message buffer with length words of `width` bytes: one message keeps
 * the oldest byte at every place while others of every length go round. */
static void wrap_messages(size_t size, unsigned width)
{
    takt_stream_t *s = NULL;
    CHECK_EQ(takt_stream_create(size, 0, width, &s), TAKT_OK);
    uint8_t buf[64];
    for (size_t first = 1; first + 2 * width + 1 <= size; first++) {
        for (size_t kept = 1; first + kept + 2 * width <= size; kept++) {
            CHECK_EQ(takt_stream_send(s, data, first, 0), (int)first);
            CHECK_EQ(takt_stream_send(s, data + 1, kept, 0), (int)kept);
            CHECK_EQ(takt_stream_receive(s, buf, sizeof buf, 0), (int)first);
            /* the oldest byte now at first + width */
            size_t room = size - kept - width;
            size_t longest = room - width;
            CHECK_EQ(takt_stream_send(s, data + 2, longest + 1, 0), 0); /* all or nothing */
            CHECK_EQ(takt_stream_send(s, data + 2, longest, 0), (int)longest);
            CHECK_EQ(takt_stream_spaces(s), 0);
            CHECK_EQ(takt_stream_next_length(s), (int)kept);
            CHECK_EQ(takt_stream_receive(s, buf, sizeof buf, 0), (int)kept);
            CHECK(matches(buf, 1, kept));
            CHECK_EQ(takt_stream_next_length(s), (int)longest);
            CHECK_EQ(takt_stream_receive(s, buf, longest, 0), (int)longest);
            CHECK(matches(buf, 2, longest));
            CHECK_EQ(takt_stream_bytes(s), 0);
        }
    }
    CHECK_EQ(takt_stream_delete(s), TAKT_OK);
}

static void scenario_wrap(takt_tick_t tick0)
{
    s_begin(tick0, 1);
    for (size_t size = 1; size <= 9; size++) {
        wrap_stream(size);
    }
    wrap_messages(20, 1);
    wrap_messages(21, 2);
    wrap_messages(23, 4);
    wrap_messages(33, 8);
    h_run();
}

/* ---------------------------------------------------------------- trigger level */

static void trigger_reader(void *arg)
{
    (void)arg;
    uint8_t buf[16];
    s_log("r=%d", takt_stream_receive(st, buf, sizeof buf, TAKT_WAIT_FOREVER));
    s_log("r=%d", takt_stream_receive(st, buf, sizeof buf, 3));
    s_log("r=%d", takt_stream_receive(st, buf, sizeof buf, TAKT_WAIT_FOREVER));
    s_log("r=%d", takt_stream_receive(st, buf, sizeof buf, TAKT_WAIT_FOREVER));
    CHECK_EQ(takt_delay(10 - h_now_ticks()), TAKT_OK);
    /* not empty: a receive takes what is there at once, below the level too */
    s_log("r=%d", takt_stream_receive(st, buf, sizeof buf, TAKT_WAIT_FOREVER));
    h_park();
}

static void trigger_writer(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_send(st, data, 2, 0), 2); /* below the level: the reader waits on */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_send(st, data, 2, 0), 2); /* reaches it */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_send(st, data, 1, 0), 1); /* the timed receive ends with it */
    CHECK_EQ(takt_delay(3), TAKT_OK);
    CHECK_EQ(takt_stream_send(st, data, 2, 0), 2);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_set_trigger(st, 2), TAKT_OK); /* serves the waiting reader */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_set_trigger(st, 0), TAKT_OK); /* 0 counts as 1 */
    CHECK_EQ(takt_stream_send(st, data, 1, 0), 1);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_set_trigger(st, 4), TAKT_OK);
    CHECK_EQ(takt_stream_send(st, data, 1, 0), 1);
    h_park();
}

static void scenario_trigger(takt_tick_t tick0)
{
    s_begin(tick0, 12);
    s_log_reset();
    CHECK_EQ(takt_stream_create(16, 4, 0, &st), TAKT_OK);
    s_task("R", 3, trigger_reader, NULL);
    s_task("W", 2, trigger_writer, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "r=4@2 r=1@5 r=2@7 r=1@8 r=1@10");
    CHECK_EQ(takt_stream_delete(st), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- blocked writer */

static size_t written, read_total;

static int write_next(size_t length, takt_tick_t timeout)
{
    int n = takt_stream_send(st, data + written, length, timeout);
    if (n > 0) {
        written += (size_t)n;
    }
    return n;
}

static void writer_body(void *arg)
{
    (void)arg;
    s_log("w=%d", write_next(6, 0));
    s_log("w=%d", write_next(4, TAKT_WAIT_FOREVER)); /* room for 2: waits for 4 */
    s_log("w=%d", write_next(4, 2));                 /* room for 1: times out, writes it */
    s_log("w=%d", write_next(12, TAKT_WAIT_FOREVER)); /* longer than the buffer: waits for
                                                         an empty one, writes 8 */
    h_park();
}

static void reader_body(void *arg)
{
    (void)arg;
    uint8_t buf[16];
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_stream_receive(st, buf, 3, 0), 3);
    CHECK(matches(buf, read_total, 3));
    read_total += 3;
    CHECK_EQ(takt_delay(3), TAKT_OK);
    CHECK_EQ(takt_stream_receive(st, buf, sizeof buf, 0), 8);
    CHECK(matches(buf, read_total, 8));
    read_total += 8;
    CHECK_EQ(takt_stream_receive(st, buf, sizeof buf, 0), 8); /* the long send's */
    CHECK(matches(buf, read_total, 8));
    read_total += 8;
    h_park();
}

static void scenario_writer(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    written = read_total = 0;
    CHECK_EQ(takt_stream_create(8, 1, 0, &st), TAKT_OK);
    s_task("W", 3, writer_body, NULL);
    s_task("R", 2, reader_body, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "w=6@0 w=4@2 w=1@4 w=8@5");
    CHECK_EQ(written, read_total);
    CHECK_EQ(takt_stream_delete(st), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- abort, delete, reset */

static takt_task_t *aborted_reader, *aborted_writer;

static void abort_reader(void *arg)
{
    (void)arg;
    uint8_t buf[8];
    s_log("r=%d", takt_stream_receive(st, buf, sizeof buf, TAKT_WAIT_FOREVER));
    h_park();
}

static void abort_writer(void *arg)
{
    (void)arg;
    s_log("w=%d", takt_stream_send(st2, data, 3, TAKT_WAIT_FOREVER));
    h_park();
}

static void abort_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_delete(st), TAKT_ERR_STATE);
    CHECK_EQ(takt_stream_delete(st2), TAKT_ERR_STATE);
    CHECK_EQ(takt_stream_reset(st), TAKT_ERR_STATE);
    CHECK_EQ(takt_stream_reset(st2), TAKT_ERR_STATE);
    CHECK_EQ(takt_stream_bytes(st2), 3);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_task_abort_delay(aborted_reader), TAKT_OK); /* returns what is there: 0 */
    CHECK_EQ(takt_task_abort_delay(aborted_writer), TAKT_OK); /* writes what fits: 1 */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_bytes(st2), 4);
    CHECK_EQ(takt_stream_reset(st2), TAKT_OK);
    CHECK_EQ(takt_stream_bytes(st2), 0);
    s_log("done");
    h_park();
}

static void scenario_abort(takt_tick_t tick0)
{
    s_begin(tick0, 5);
    s_log_reset();
    CHECK_EQ(takt_stream_create(8, 1, 0, &st), TAKT_OK);
    CHECK_EQ(takt_stream_create(4, 1, 0, &st2), TAKT_OK);
    CHECK_EQ(takt_stream_send(st2, data, 3, 0), 3);
    aborted_reader = s_task("R", 4, abort_reader, NULL);
    aborted_writer = s_task("W", 3, abort_writer, NULL);
    s_task("A", 2, abort_body, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "r=0@2 w=1@2 done@3");
    CHECK_EQ(takt_stream_delete(st), TAKT_OK);
    CHECK_EQ(takt_stream_delete(st2), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- head of the line */

static takt_task_t *big_writer;

static void big_writer_body(void *arg)
{
    (void)arg;
    s_log("w1=%d", takt_stream_send(st, data, 5, TAKT_WAIT_FOREVER)); /* room for 1 */
    h_park();
}

static void small_writer_body(void *arg)
{
    (void)arg;
    s_log("w2=%d", takt_stream_send(st, data, 2, TAKT_WAIT_FOREVER)); /* waits, behind w1 */
    h_park();
}

static void line_body(void *arg)
{
    (void)arg;
    uint8_t byte;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_receive(st, &byte, 1, 0), 1); /* room for 2: not for w1 */
    CHECK_EQ(takt_stream_bytes(st), 6); /* w2's bytes would fit; it waits behind w1 */
    CHECK_EQ(takt_task_suspend(big_writer), TAKT_OK); /* w1 leaves: w2 is served */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_bytes(st), 8);
    CHECK_EQ(takt_task_resume(big_writer), TAKT_OK); /* w1 waits again: no room */
    CHECK_EQ(takt_task_state(big_writer), TAKT_TASK_BLOCKED);
    uint8_t drained[5];
    CHECK_EQ(takt_stream_receive(st, drained, 5, 0), 5); /* room for w1's 5 */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    s_log("done");
    h_park();
}

static void scenario_line(takt_tick_t tick0)
{
    s_begin(tick0, 5);
    s_log_reset();
    CHECK_EQ(takt_stream_create(8, 1, 0, &st), TAKT_OK);
    CHECK_EQ(takt_stream_send(st, data, 7, 0), 7);
    big_writer = s_task("W1", 4, big_writer_body, NULL);
    s_task("W2", 3, small_writer_body, NULL);
    s_task("A", 2, line_body, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "w2=2@1 w1=5@2 done@3");
    CHECK_EQ(takt_stream_delete(st), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- interrupts */

static void isr_send(void *arg)
{
    int i = (int)(intptr_t)arg;
    isr_woken[i] = false;
    isr_rc[i] = takt_stream_send_from_isr(st, data, 2, &isr_woken[i]);
}

static void isr_receive(void *arg)
{
    int i = (int)(intptr_t)arg;
    uint8_t buf[8];
    isr_woken[i] = false;
    isr_rc[i] = takt_stream_receive_from_isr(st, buf, i == 2 ? 1u : 4u, &isr_woken[i]);
}

static void isr_misuse(void *arg)
{
    (void)arg;
    uint8_t buf[4];
    isr_rc[4] = takt_stream_send(st, data, 1, 0);
    isr_rc[5] = takt_stream_receive(st, buf, 1, 0);
    isr_rc[6] = takt_stream_reset(st);
    isr_rc[7] = takt_stream_reset_from_isr(st);
}

static void isr_task(void *arg)
{
    (void)arg;
    uint8_t buf[8];
    s_log("r=%d", takt_stream_receive(st, buf, sizeof buf, TAKT_WAIT_FOREVER));
    CHECK_EQ(takt_stream_send(st, data, 8, TAKT_WAIT_FOREVER), 8);
    s_log("w=%d", takt_stream_send(st, data, 2, TAKT_WAIT_FOREVER));
    h_park();
}

static void scenario_isr(takt_tick_t tick0)
{
    s_begin(tick0, 7);
    s_log_reset();
    CHECK_EQ(takt_stream_create(8, 3, 0, &st), TAKT_OK);
    s_task("T", 3, isr_task, NULL);
    hp_inject_irq(T(1) + 5, 1, isr_send, (void *)0);    /* 2 < 3: T waits on */
    hp_inject_irq(T(2) + 5, 1, isr_send, (void *)1);    /* 4: T served */
    hp_inject_irq(T(3) + 5, 1, isr_receive, (void *)2); /* room for 1: T waits on */
    hp_inject_irq(T(4) + 5, 1, isr_receive, (void *)3); /* room for 5: T's 2 go in */
    hp_inject_irq(T(5) + 5, 1, isr_misuse, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "r=4@2 w=2@4");
    CHECK_EQ(isr_rc[0], 2);
    CHECK(!isr_woken[0]);
    CHECK_EQ(isr_rc[1], 2);
    CHECK(isr_woken[1]);
    CHECK_EQ(isr_rc[2], 1);
    CHECK(!isr_woken[2]);
    CHECK_EQ(isr_rc[3], 4);
    CHECK(isr_woken[3]);
    CHECK_EQ(isr_rc[4], TAKT_ERR_CONTEXT);
    CHECK_EQ(isr_rc[5], TAKT_ERR_CONTEXT);
    CHECK_EQ(isr_rc[6], TAKT_ERR_CONTEXT);
    CHECK_EQ(isr_rc[7], TAKT_OK); /* nobody waits: emptied */
    CHECK_EQ(takt_stream_bytes(st), 0);
    CHECK_EQ(takt_stream_delete(st), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- batching */

static void batch_reader(void *arg)
{
    (void)arg;
    uint8_t buf[16];
    CHECK_EQ(takt_stream_receive(st, buf, sizeof buf, 0), 0); /* 3, not above 4 */
    s_log("r=%d", takt_stream_receive(st, buf, sizeof buf, TAKT_WAIT_FOREVER));
    CHECK(matches(buf, 0, 5));
    s_log("r=%d", takt_stream_receive(st, buf, sizeof buf, 2)); /* ends with 2: gets 0 */
    CHECK_EQ(takt_stream_bytes(st), 2);                         /* they stay */
    s_log("r=%d", takt_stream_receive(st, buf, sizeof buf, TAKT_WAIT_FOREVER));
    s_log("r=%d", takt_stream_receive(st, buf, 3, TAKT_WAIT_FOREVER)); /* above: at once */
    h_park();
}

static void batch_writer(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_stream_configure(st, TAKT_STREAM_BATCHING), TAKT_ERR_STATE); /* R waits */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_send(st, data + 3, 1, 0), 1); /* 4: at the level, not above */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_send(st, data + 4, 1, 0), 1); /* 5: R served with all 5 */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_send(st, data, 2, 0), 2);
    CHECK_EQ(takt_delay(3), TAKT_OK);
    CHECK_EQ(takt_stream_set_trigger(st, 1), TAKT_OK); /* 2 > 1: serves R */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_send(st, data, 5, 0), 5);
    h_park();
}

static void batch_isr_receive(void *arg)
{
    (void)arg;
    uint8_t buf[8];
    isr_rc[0] = takt_stream_receive_from_isr(st2, buf, sizeof buf, NULL); /* what is there */
}

static void scenario_batching(takt_tick_t tick0)
{
    s_begin(tick0, 12);
    s_log_reset();
    CHECK_EQ(takt_stream_create(16, 4, 0, &st), TAKT_OK);
    CHECK_EQ(takt_stream_configure(st, TAKT_STREAM_BATCHING), TAKT_OK);
    CHECK_EQ(takt_stream_send(st, data, 3, 0), 3);
    CHECK_EQ(takt_stream_create(8, 4, 0, &st2), TAKT_OK);
    CHECK_EQ(takt_stream_configure(st2, TAKT_STREAM_BATCHING), TAKT_OK);
    CHECK_EQ(takt_stream_send(st2, data, 2, 0), 2);
    /* bad options */
    takt_stream_t *msg = NULL;
    CHECK_EQ(takt_stream_create(16, 0, 4, &msg), TAKT_OK);
    CHECK_EQ(takt_stream_configure(msg, TAKT_STREAM_BATCHING), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_configure(msg, TAKT_STREAM_DEFER_RECEIVERS_TASK), TAKT_OK);
    CHECK_EQ(takt_stream_configure(msg, 0x20u), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_configure(NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_send_completed(NULL, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_receive_completed(NULL, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_delete(msg), TAKT_OK);
    isr_rc[0] = -100;
    s_task("R", 3, batch_reader, NULL);
    s_task("W", 2, batch_writer, NULL);
    hp_inject_irq(T(1) + 5, 1, batch_isr_receive, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "r=5@2 r=0@4 r=2@6 r=3@7");
    CHECK_EQ(takt_stream_bytes(st), 2);
    CHECK_EQ(isr_rc[0], 2);
    CHECK_EQ(takt_stream_delete(st), TAKT_OK);
    CHECK_EQ(takt_stream_delete(st2), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- deferred wakes */

static int completed_rc[4];
static bool completed_woken;

static void deferred_reader(void *arg)
{
    (void)arg;
    uint8_t buf[8];
    s_log("r=%d", takt_stream_receive(st, buf, sizeof buf, TAKT_WAIT_FOREVER));
    s_log("r=%d", takt_stream_receive(st, buf, sizeof buf, TAKT_WAIT_FOREVER));
    h_park();
}

static void deferred_writer(void *arg)
{
    (void)arg;
    s_log("w=%d", takt_stream_send(st2, data, 3, TAKT_WAIT_FOREVER));
    h_park();
}

/* The interrupt a completion hook would raise. */
static void send_completed_isr(void *arg)
{
    (void)arg;
    completed_woken = false;
    completed_rc[0] = takt_stream_send_completed(st, &completed_woken);
}

static bool sending_isr_woken;

static void sending_isr(void *arg)
{
    (void)arg;
    sending_isr_woken = false;
    CHECK_EQ(takt_stream_send_from_isr(st, data, 2, &sending_isr_woken), 2);
}

static void deferred_body(void *arg)
{
    (void)arg;
    uint8_t buf[8];
    CHECK_EQ(takt_stream_send(st, data, 2, 0), 2); /* R waits on: its wake is deferred */
    CHECK_EQ(takt_stream_bytes(st), 2);
    CHECK_EQ(takt_delay(2), TAKT_OK); /* the interrupt at 1 served R */
    CHECK_EQ(takt_stream_bytes(st), 0);
    CHECK_EQ(takt_delay(2), TAKT_OK); /* the send from an interrupt at 3 served R at once */
    /* writers: a receive does not serve W; receive_completed does */
    CHECK_EQ(takt_stream_receive(st2, buf, 2, 0), 2); /* room for 3 */
    CHECK_EQ(takt_stream_bytes(st2), 1);
    completed_rc[1] = takt_stream_send_completed(st2, NULL); /* no reader: nothing */
    completed_rc[2] = takt_stream_receive_completed(st2, NULL);
    CHECK_EQ(takt_stream_bytes(st2), 4);
    completed_rc[3] = takt_stream_receive_completed(st2, NULL); /* nobody left */
    s_log("done");
    h_park();
}

static void scenario_deferred(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_stream_create(8, 1, 0, &st), TAKT_OK);
    CHECK_EQ(takt_stream_configure(st, TAKT_STREAM_DEFER_RECEIVERS_TASK), TAKT_OK);
    CHECK_EQ(takt_stream_create(4, 1, 0, &st2), TAKT_OK);
    CHECK_EQ(takt_stream_configure(st2, TAKT_STREAM_DEFER_SENDERS_TASK), TAKT_OK);
    CHECK_EQ(takt_stream_send(st2, data, 3, 0), 3);
    s_task("R", 4, deferred_reader, NULL);
    s_task("W", 3, deferred_writer, NULL);
    s_task("A", 2, deferred_body, NULL);
    hp_inject_irq(T(1) + 5, 1, send_completed_isr, NULL);
    hp_inject_irq(T(3) + 5, 1, sending_isr, NULL); /* only task sends are deferred */
    h_start();
    /* W runs at once, or (deferred preemption) when A parks */
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "r=2@1 r=2@3 done@4 w=3@4" : "r=2@1 r=2@3 w=3@4 done@4");
    CHECK_EQ(completed_rc[0], 1);
    CHECK(completed_woken);
    CHECK(sending_isr_woken);
    CHECK_EQ(completed_rc[1], 0);
    CHECK_EQ(completed_rc[2], 1);
    CHECK_EQ(completed_rc[3], 0);
    CHECK_EQ(takt_stream_delete(st), TAKT_OK);
    CHECK_EQ(takt_stream_delete(st2), TAKT_OK);
    h_end();
}

static void single_reader(void *arg)
{
    (void)arg;
    uint8_t buf[8];
    s_log("r=%d", takt_stream_receive(st, buf, sizeof buf, TAKT_WAIT_FOREVER));
    h_park();
}

/* Deferred from interrupts: a send from an interrupt leaves the reader
 * waiting; the task's completion call serves it. */
static void deferred_isr_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_stream_bytes(st), 2); /* the interrupt at 1 sent; R still waits */
    completed_rc[0] = takt_stream_send_completed(st, NULL); /* R preempts here */
    s_log("done");
    h_park();
}

static void scenario_deferred_isr(takt_tick_t tick0)
{
    s_begin(tick0, 6);
    s_log_reset();
    CHECK_EQ(takt_stream_create(8, 1, 0, &st), TAKT_OK);
    CHECK_EQ(takt_stream_configure(st, TAKT_STREAM_DEFER_RECEIVERS_ISR), TAKT_OK);
    s_task("R", 4, single_reader, NULL);
    s_task("A", 2, deferred_isr_body, NULL);
    hp_inject_irq(T(1) + 5, 1, sending_isr, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "done@2 r=2@2" : "r=2@2 done@2");
    CHECK_EQ(completed_rc[0], 1);
    CHECK(!sending_isr_woken); /* it served nobody */
    CHECK_EQ(takt_stream_bytes(st), 0);
    CHECK_EQ(takt_stream_delete(st), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- messages */

static void message_checks(void)
{
    uint8_t buf[32];
    takt_stream_t *m = NULL;
    CHECK_EQ(takt_stream_create(20, 0, 4, &m), TAKT_OK);
    CHECK_EQ(takt_stream_send(m, data, 16, 0), 16); /* 16 + 4: exactly full */
    CHECK_EQ(takt_stream_spaces(m), 0);
    CHECK_EQ(takt_stream_bytes(m), 20);
    CHECK_EQ(takt_stream_send(m, data, 1, 0), 0);
    CHECK_EQ(takt_stream_next_length(m), 16);
    CHECK_EQ(takt_stream_receive(m, buf, 15, 0), 0); /* too small: the message stays */
    CHECK_EQ(takt_stream_bytes(m), 20);
    CHECK_EQ(takt_stream_receive(m, buf, 16, 0), 16);
    CHECK(matches(buf, 0, 16));
    CHECK_EQ(takt_stream_receive(m, buf, sizeof buf, 0), 0);
    CHECK_EQ(takt_stream_send(m, data, 17, 0), TAKT_ERR_ARG);                 /* never fits */
    CHECK_EQ(takt_stream_send(m, data, 17, TAKT_WAIT_FOREVER), TAKT_ERR_ARG); /* at once */
    CHECK_EQ(takt_stream_send(m, data, 0, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_bytes(m), 0);
    CHECK_EQ(takt_stream_delete(m), TAKT_OK);
    /* a one-byte length word counts to 255 */
    CHECK_EQ(takt_stream_create(300, 0, 1, &m), TAKT_OK);
    static uint8_t big[256];
    CHECK_EQ(takt_stream_send(m, big, 256, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_send(m, big, 255, 0), 255);
    CHECK_EQ(takt_stream_next_length(m), 255);
    CHECK_EQ(takt_stream_delete(m), TAKT_OK);
}

static void msg_high(void *arg)
{
    (void)arg;
    uint8_t buf[16];
    s_log("h=%d", takt_stream_receive(st, buf, sizeof buf, TAKT_WAIT_FOREVER));
    s_log("h=%d", takt_stream_receive(st, buf, 4, TAKT_WAIT_FOREVER)); /* too small */
    h_park();
}

static void msg_low(void *arg)
{
    (void)arg;
    uint8_t buf[16];
    s_log("l=%d", takt_stream_receive(st, buf, sizeof buf, TAKT_WAIT_FOREVER));
    CHECK(matches(buf, 0, 9));
    h_park();
}

static void msg_writer(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_send(st, data, 5, 0), 5);   /* to the higher priority waiter */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_send(st, data, 9, 0), 9);   /* the high one: too small, woken with 0 */
    CHECK_EQ(takt_stream_send(st, data, 10, 0), 10); /* stays: 14 of 20 bytes */
    h_park();
}

static void msg_blocked_writer(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(3), TAKT_OK);
    /* 14 held (10 + 4): a message of 4 needs 8 */
    s_log("w=%d", takt_stream_send(st, data, 4, TAKT_WAIT_FOREVER));
    h_park();
}

static void msg_drain(void *arg)
{
    (void)arg;
    uint8_t buf[16];
    CHECK_EQ(takt_delay(4), TAKT_OK);
    CHECK_EQ(takt_stream_receive(st, buf, sizeof buf, 0), 10);
    h_park();
}

static void scenario_messages(takt_tick_t tick0)
{
    s_begin(tick0, 6);
    s_log_reset();
    message_checks();
    CHECK_EQ(takt_stream_create(20, 0, 4, &st), TAKT_OK);
    s_task("H", 5, msg_high, NULL);
    s_task("L", 4, msg_low, NULL);
    s_task("W", 2, msg_writer, NULL);
    s_task("B", 3, msg_blocked_writer, NULL);
    s_task("D", 1, msg_drain, NULL);
    h_start();
    /* H takes the first message; at 2 H (buffer 4) is woken with 0 and L takes
     * the 9-byte one; the 10-byte one stays until D takes it at 4, which
     * lets B's message in. */
    CHECK_STREQ(s_log_buf, "h=5@1 h=0@2 l=9@2 w=4@4");
    CHECK_EQ(takt_stream_next_length(st), 4);
    CHECK_EQ(takt_stream_delete(st), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- random runs */

/* Producers stop at R_STOP; the consumer then drains the buffer (serving
 * any producer still waiting) and notes that it is empty, so every byte and
 * message is accounted for by the tasks themselves when the run ends. */
#define R_TICKS 400u
#define R_STOP 320u
#ifndef R_RUNS
#define R_RUNS (40u / HP_CASES_DIVISOR)
#endif

static takt_stream_t r_stream;
static uint8_t r_storage[64];
static uint32_t r_rng;
static size_t r_size;
static unsigned r_width;
static size_t r_sent, r_received;            /* bytes (stream) */
static uint32_t r_next_seq[3], r_got_seq[3]; /* messages per producer (2: the interrupt) */
static bool r_stopped[2], r_drained;
static takt_task_t *r_consumer_task;

static uint32_t r_next(uint32_t bound)
{
    r_rng = r_rng * 1103515245u + 12345u;
    return (r_rng >> 8) % bound;
}

static takt_tick_t r_timeout(void)
{
    uint32_t pick = r_next(5);
    return pick == 4 ? TAKT_WAIT_FOREVER : pick;
}

/* A message: producer, sequence number, then bytes that depend on both. */
static void r_message(uint8_t *out, unsigned producer, uint32_t seq, size_t length)
{
    out[0] = (uint8_t)producer;
    out[1] = (uint8_t)seq;
    out[2] = (uint8_t)(seq >> 8);
    for (size_t i = 3; i < length; i++) {
        out[i] = (uint8_t)(seq * 31u + i * 5u + producer);
    }
}

static void r_check_message(const uint8_t *got, size_t length)
{
    unsigned producer = got[0];
    if (!CHECK(producer < 3 && length >= 3)) {
        return;
    }
    uint32_t seq = r_got_seq[producer]++;
    uint8_t expected[64];
    r_message(expected, producer, seq, length);
    CHECK(memcmp(got, expected, length) == 0);
}

static size_t r_message_length(void)
{
    return 3 + r_next((uint32_t)(r_size - r_width - 2u)); /* at most the longest that fits */
}

static void r_send_bytes(void)
{
    uint8_t msg[64];
    takt_tick_t timeout = r_timeout();
    takt_tick_t before = h_now_ticks();
    size_t length = 1 + r_next((uint32_t)r_size + 4u);
    for (size_t i = 0; i < length; i++) {
        msg[i] = pattern(r_sent + i);
    }
    int n = takt_stream_send(&r_stream, msg, length, timeout);
    CHECK(n >= 0 && (size_t)n <= length);
    if (n > 0) {
        r_sent += (size_t)n;
    }
    size_t wanted = length < r_size ? length : r_size;
    /* short only when it could wait no longer */
    CHECK((size_t)n == wanted || timeout != TAKT_WAIT_FOREVER);
    CHECK((size_t)n == wanted || timeout == 0 || h_now_ticks() - before >= timeout);
}

static void r_send_message(unsigned producer)
{
    uint8_t msg[64];
    takt_tick_t timeout = r_timeout();
    size_t length = r_message_length();
    r_message(msg, producer, r_next_seq[producer], length);
    int n = takt_stream_send(&r_stream, msg, length, timeout);
    CHECK(n == 0 || (size_t)n == length); /* all or nothing */
    CHECK((size_t)n == length || timeout != TAKT_WAIT_FOREVER);
    if ((size_t)n == length) {
        r_next_seq[producer]++;
    }
}

static void r_pause(void)
{
    takt_tick_t pause = r_next(3);
    if (pause > 0) {
        CHECK_EQ(takt_delay(pause), TAKT_OK);
    }
}

static void r_producer(void *arg)
{
    unsigned producer = (unsigned)(uintptr_t)arg;
    while (h_now_ticks() < R_STOP) {
        if (r_width == 0) {
            r_send_bytes();
        } else {
            r_send_message(producer);
        }
        r_pause();
    }
    r_stopped[producer] = true;
    /* The consumer may wait for a trigger level, or forever on an empty
     * buffer, that nothing will reach now: its wait ends here. */
    if (r_width == 0) {
        CHECK_EQ(takt_stream_set_trigger(&r_stream, 1), TAKT_OK);
    }
    (void)takt_task_abort_delay(r_consumer_task);
    h_park();
}

static void r_consumer(void *arg)
{
    (void)arg;
    uint8_t buf[64];
    for (;;) {
        bool draining = h_now_ticks() >= R_STOP;
        if (draining && r_stopped[0] && r_stopped[1] && takt_stream_bytes(&r_stream) == 0) {
            r_drained = true;
            h_park();
        }
        takt_tick_t timeout = draining ? 1u : r_timeout();
        if (timeout == TAKT_WAIT_FOREVER && r_stream.trigger > 1) {
            /* A reader waiting for a level and a writer waiting for room for
             * all its bytes can wait on each other for good (as in FreeRTOS):
             * the reader's wait ends in time. */
            timeout = 8;
        }
        size_t length = 1 + r_next(r_width == 0 ? (uint32_t)r_size + 4u : (uint32_t)r_size);
        int next = takt_stream_next_length(&r_stream);
        int n = takt_stream_receive(&r_stream, buf, length, timeout);
        CHECK(n >= 0 && (size_t)n <= length);
        if (r_width == 0 && n > 0) {
            CHECK(matches(buf, r_received, (size_t)n));
            r_received += (size_t)n;
        } else if (n > 0) {
            r_check_message(buf, (size_t)n);
        } else if (r_width != 0 && next > 0) {
            CHECK((size_t)next > length); /* a message was there: too long for the buffer */
        }
        r_pause();
    }
}

static void r_isr_producer(void *arg)
{
    (void)arg;
    uint8_t msg[64];
    size_t length = r_message_length();
    r_message(msg, 2, r_next_seq[2], length);
    bool woken = false;
    int n = takt_stream_send_from_isr(&r_stream, msg, length, &woken);
    CHECK(n == 0 || (size_t)n == length);
    if ((size_t)n == length) {
        r_next_seq[2]++;
    }
}

static void r_run(uint32_t seed, unsigned width)
{
    r_rng = seed * 2654435761u + width;
    r_width = width;
    r_size = (width == 0 ? 1u : 2u * width + 4u) + r_next(24);
    r_sent = r_received = 0;
    memset(r_next_seq, 0, sizeof r_next_seq);
    memset(r_got_seq, 0, sizeof r_got_seq);
    r_stopped[0] = false;
    r_stopped[1] = width == 0; /* one producer for a byte stream */
    r_drained = false;
    s_begin(0, R_TICKS);
    memset(&r_stream, 0, sizeof r_stream);
    CHECK_EQ(takt_stream_create_static(&r_stream, r_size, r_next((uint32_t)r_size + 1u), width,
                                       r_storage),
             TAKT_OK);
    r_consumer_task = s_task("C", 2u + r_next(3), r_consumer, NULL);
    s_task("P", 1u + r_next(4), r_producer, (void *)(uintptr_t)0);
    if (width != 0) {
        s_task("Q", 1u + r_next(4), r_producer, (void *)(uintptr_t)1);
        for (unsigned i = 0; i < 12; i++) {
            hp_inject_irq(T(1u + i * 25u + r_next(25)) + 7u, 1, r_isr_producer, NULL);
        }
    }
    unsigned long failed_before = check_failed_count;
    h_start();
    CHECK(r_drained);
    if (width == 0) {
        CHECK_EQ(r_sent, r_received);
        CHECK(r_sent > r_size); /* the run went round the ring */
    } else {
        for (int p = 0; p < 3; p++) {
            CHECK_EQ(r_next_seq[p], r_got_seq[p]);
        }
        CHECK(r_got_seq[0] + r_got_seq[1] > 2);
    }
    if (check_failed_count != failed_before) {
        fprintf(stderr, "  random run: seed %u, width %u, size %u (held %u, trigger %u, stopped %d %d)\n",
                (unsigned)seed, width, (unsigned)r_size, (unsigned)r_stream.count,
                (unsigned)r_stream.trigger, r_stopped[0], r_stopped[1]);
    }
    h_end();
}

int main(void)
{
    data_init();
    h_both(scenario_basics, "basics");
    h_both(scenario_wrap, "wrap");
    h_both(scenario_trigger, "trigger");
    h_both(scenario_writer, "writer");
    h_both(scenario_abort, "abort");
    h_both(scenario_line, "line");
    h_both(scenario_isr, "isr");
    h_both(scenario_messages, "messages");
    h_both(scenario_batching, "batching");
    h_both(scenario_deferred, "deferred");
    h_both(scenario_deferred_isr, "deferred_isr");
    for (uint32_t seed = 1; seed <= R_RUNS; seed++) {
        r_run(seed, 0);
        r_run(seed, seed % 2 ? 4u : 1u);
    }
    return CHECK_SUMMARY();
}
