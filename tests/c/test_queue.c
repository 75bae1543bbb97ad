/*
 * Queues and queue sets on the sim port: FIFO and front sends, peek,
 * overwrite, copy by value and zero padding, blocking senders and receivers
 * with timeouts (served by priority, hand-off), peekers, interrupt variants
 * and woken, reset, bad input (nothing changes), and sets of queues and a
 * semaphore fed from tasks and an interrupt.
 */
#include "sync_common.h"

static takt_queue_t *q;

/* ---------------------------------------------------------------- basics */

static void basics_body(void *arg)
{
    (void)arg;
    uint32_t v = 0;
    /* items sent before start are there, in order */
    CHECK_EQ(takt_queue_count(q), 2);
    CHECK_EQ(takt_queue_receive(q, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(v, 10);
    uint32_t item = 20;
    CHECK_EQ(takt_queue_send(q, &item, sizeof(item), 0), TAKT_OK);
    item = 99; /* copied by value: the queue keeps 20 */
    item = 5;
    CHECK_EQ(takt_queue_send_front(q, &item, sizeof(item), 0), TAKT_OK);
    CHECK_EQ(takt_queue_count(q), 3);
    CHECK_EQ(takt_queue_spaces(q), 0);
    CHECK_EQ(takt_queue_send(q, &item, sizeof(item), 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(takt_queue_peek(q, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(v, 5);
    uint32_t order[3];
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(takt_queue_receive(q, &order[i], sizeof(order[i]), 0), TAKT_OK);
    }
    CHECK_EQ(order[0], 5);
    CHECK_EQ(order[1], 11);
    CHECK_EQ(order[2], 20);
    CHECK_EQ(takt_queue_receive(q, &v, sizeof(v), 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(takt_queue_receive(q, &v, sizeof(v), 3), TAKT_ERR_TIMEOUT);
    CHECK_EQ(h_now_ticks(), 3);
    /* a shorter item is zero-padded */
    uint8_t one = 0xAB;
    CHECK_EQ(takt_queue_send(q, &one, 1, 0), TAKT_OK);
    v = 0xFFFFFFFFu;
    CHECK_EQ(takt_queue_receive(q, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(v, 0xAB);
    /* reset empties it */
    CHECK_EQ(takt_queue_send(q, &item, sizeof(item), 0), TAKT_OK);
    CHECK_EQ(takt_queue_reset(q), TAKT_OK);
    CHECK_EQ(takt_queue_count(q), 0);
    /* a mailbox: overwrite replaces, never blocks */
    takt_queue_t *box = NULL;
    CHECK_EQ(takt_queue_create(1, sizeof(uint32_t), &box), TAKT_OK);
    for (uint32_t i = 1; i <= 3; i++) {
        CHECK_EQ(takt_queue_overwrite(box, &i, sizeof(i)), TAKT_OK);
    }
    CHECK_EQ(takt_queue_count(box), 1);
    CHECK_EQ(takt_queue_receive(box, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(v, 3);
    CHECK_EQ(takt_queue_delete(box), TAKT_OK);
    /* item size 0: an event counter */
    takt_queue_t *events = NULL;
    CHECK_EQ(takt_queue_create(2, 0, &events), TAKT_OK);
    CHECK_EQ(takt_queue_send(events, NULL, 0, 0), TAKT_OK);
    CHECK_EQ(takt_queue_receive(events, NULL, 0, 0), TAKT_OK);
    CHECK_EQ(takt_queue_receive(events, NULL, 0, 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(takt_queue_delete(events), TAKT_OK);
    s_log("done");
    h_park();
}

static void scenario_basics(takt_tick_t tick0)
{
    s_begin(tick0, 6);
    s_log_reset();
    CHECK_EQ(takt_queue_create(3, sizeof(uint32_t), &q), TAKT_OK);
    uint32_t a = 10, b = 11;
    CHECK_EQ(takt_queue_send(q, &a, sizeof(a), 0), TAKT_OK);
    CHECK_EQ(takt_queue_send(q, &b, sizeof(b), 100), TAKT_OK); /* before start: no wait */
    s_task("A", 2, basics_body, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "done@3");
    CHECK_EQ(takt_queue_delete(q), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- blocking */

static void recv_body(void *arg)
{
    const char *name = arg;
    uint32_t v = 0;
    int rc = takt_queue_receive(q, &v, sizeof(v), 50);
    s_log("%s=%u%s", name, (unsigned)v, rc == TAKT_OK ? "" : "!");
    h_park();
}

static void peek_body(void *arg)
{
    const char *name = arg;
    uint32_t v = 0;
    int rc = takt_queue_peek(q, &v, sizeof(v), 50);
    s_log("%s=%u%s", name, (unsigned)v, rc == TAKT_OK ? "" : "!");
    h_park();
}

static void send_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK); /* every receiver waits by now */
    for (uint32_t i = 1; i <= 3; i++) {
        CHECK_EQ(takt_queue_send(q, &i, sizeof(i), 0), TAKT_OK);
        s_point();
    }
    CHECK_EQ(takt_queue_count(q), 0); /* all handed over */
    /* now fill it (length 2) and block on the third */
    for (uint32_t i = 4; i <= 5; i++) {
        CHECK_EQ(takt_queue_send(q, &i, sizeof(i), 0), TAKT_OK);
    }
    uint32_t six = 6;
    CHECK_EQ(takt_queue_send(q, &six, sizeof(six), 2), TAKT_ERR_TIMEOUT);
    s_log("send-timeout");
    CHECK_EQ(takt_queue_send(q, &six, sizeof(six), TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("sent6");
    h_park();
}

static void drain_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(6), TAKT_OK);
    uint32_t v[3] = {0};
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(takt_queue_receive(q, &v[i], sizeof(v[i]), 0), TAKT_OK);
        s_point();
    }
    s_log("drained=%u,%u,%u", (unsigned)v[0], (unsigned)v[1], (unsigned)v[2]);
    h_park();
}

static void scenario_blocking(takt_tick_t tick0)
{
    s_begin(tick0, 10);
    s_log_reset();
    CHECK_EQ(takt_queue_create(2, sizeof(uint32_t), &q), TAKT_OK);
    s_task("S", 1, send_body, NULL);
    s_task("R2", 2, recv_body, "r2");
    s_task("P5", 5, peek_body, "p5");
    s_task("R4", 4, recv_body, "r4");
    s_task("P3", 3, peek_body, "p3");
    s_task("R4b", 4, recv_body, "r4b");
    s_task("D", 6, drain_body, NULL);
    h_start();
    /* waiting order: p5 r4 r4b p3 r2. Item 1: p5 peeks, r4 takes it. Item 2:
     * r4b. Item 3: p3 peeks, r2 takes it. The sender then fills the queue,
     * times out once (1..3), blocks again; D drains 4, 5 and — handed in as
     * the first slot freed — 6. */
    CHECK_STREQ(s_log_buf, "p5=1@1 r4=1@1 r4b=2@1 p3=3@1 r2=3@1 send-timeout@3 "
                           "drained=4,5,6@6 sent6@6");
    CHECK_EQ(takt_queue_delete(q), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- interrupts */

static bool woken[4];
static int isr_rc[4];

static void isr_send(void *arg)
{
    int i = (int)(intptr_t)arg;
    uint32_t v = 100u + (uint32_t)i;
    woken[i] = false;
    isr_rc[i] = takt_queue_send_from_isr(q, &v, sizeof(v), &woken[i]);
}

static void isr_receive(void *arg)
{
    int i = (int)(intptr_t)arg;
    uint32_t v = 0;
    woken[i] = false;
    isr_rc[i] = takt_queue_receive_from_isr(q, &v, sizeof(v), &woken[i]);
}

static void isr_receiver(void *arg)
{
    (void)arg;
    uint32_t v = 0;
    CHECK_EQ(takt_queue_receive(q, &v, sizeof(v), TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("got%u", (unsigned)v);
    uint32_t x = 7;
    CHECK_EQ(takt_queue_send(q, &x, sizeof(x), 0), TAKT_OK);
    CHECK_EQ(takt_queue_send(q, &x, sizeof(x), TAKT_WAIT_FOREVER), TAKT_OK); /* full: waits */
    s_log("sent");
    h_park();
}

static void isr_spin(void *arg)
{
    (void)arg;
    for (;;) {
        s_point();
        h_work(1);
    }
}

static void scenario_isr(takt_tick_t tick0)
{
    s_begin(tick0, 10);
    s_log_reset();
    CHECK_EQ(takt_queue_create(1, sizeof(uint32_t), &q), TAKT_OK);
    s_task("R", 3, isr_receiver, NULL);
    s_task("S", 1, isr_spin, NULL);
    hp_inject_irq(T(2) + 5, 1, isr_send, (void *)0);    /* wakes R */
    hp_inject_irq(T(4) + 5, 1, isr_send, (void *)1);    /* full: refused */
    hp_inject_irq(T(5) + 5, 1, isr_receive, (void *)2); /* frees R's send */
    h_start();
    CHECK_STREQ(s_log_buf, S_DEFERRED ? "got100@3 sent@6" : "got100@2 sent@5");
    CHECK_EQ(isr_rc[0], TAKT_OK);
    CHECK(woken[0]);
    CHECK_EQ(isr_rc[1], TAKT_ERR_TIMEOUT);
    CHECK(!woken[1]);
    CHECK_EQ(isr_rc[2], TAKT_OK);
    CHECK(woken[2]);
    CHECK_EQ(takt_queue_count(q), 1);
    CHECK_EQ(takt_queue_delete(q), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- bad input */

static takt_queue_t static_q;
static uint32_t static_storage[4];
static int bad_isr_rc[6];

static void bad_isr(void *arg)
{
    (void)arg;
    uint32_t v = 1;
    bad_isr_rc[0] = takt_queue_send(q, &v, sizeof(v), 0);
    bad_isr_rc[1] = takt_queue_receive(q, &v, sizeof(v), 0);
    bad_isr_rc[2] = takt_queue_peek(q, &v, sizeof(v), 0);
    bad_isr_rc[3] = takt_queue_reset(q);
    bad_isr_rc[4] = takt_queue_delete(q);
    takt_queue_t *out = NULL;
    bad_isr_rc[5] = takt_queue_create(1, 4, &out);
}

static void bad_waiter(void *arg)
{
    (void)arg;
    uint32_t v;
    CHECK_EQ(takt_queue_receive(q, &v, sizeof(v), TAKT_WAIT_FOREVER), TAKT_OK);
    h_park();
}

static void bad_body(void *arg)
{
    (void)arg;
    takt_queue_t *out = NULL;
    uint32_t v = 1;
    uint64_t big = 2;
    CHECK_EQ(takt_queue_create(0, 4, &out), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_create(4, 4, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_create(0x80000000u, 4, &out), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_create(0x40000000u, SIZE_MAX / 2u, &out), TAKT_ERR_ARG);
    CHECK(out == NULL);
    CHECK_EQ(takt_queue_send(NULL, &v, sizeof(v), 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_receive(NULL, &v, sizeof(v), 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_count(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_spaces(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_reset(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_delete(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_send(q, &big, sizeof(big), 0), TAKT_ERR_ARG); /* larger than items */
    CHECK_EQ(takt_queue_send(q, NULL, sizeof(v), 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_count(q), 0);
    CHECK_EQ(takt_queue_send(q, &v, sizeof(v), 0), TAKT_OK);
    uint16_t small;
    CHECK_EQ(takt_queue_receive(q, &small, sizeof(small), 0), TAKT_ERR_ARG); /* buffer too small */
    CHECK_EQ(takt_queue_peek(q, &small, sizeof(small), 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_count(q), 1); /* nothing taken */
    CHECK_EQ(takt_queue_overwrite(q, &v, sizeof(v)), TAKT_ERR_ARG); /* length 2 */
    CHECK_EQ(takt_queue_send(q, &v, sizeof(v), 0x90000000u), TAKT_ERR_ARG);
    /* The interrupt's calls outside an interrupt are the task's without a
     * wait (takt/sync.h), with the task's checks. */
    CHECK_EQ(takt_queue_send_from_isr(q, &v, sizeof(v), NULL), TAKT_OK);
    CHECK_EQ(takt_queue_send_front_from_isr(q, &v, sizeof(v), NULL), TAKT_ERR_TIMEOUT); /* full */
    CHECK_EQ(takt_queue_overwrite_from_isr(q, &v, sizeof(v), NULL), TAKT_ERR_ARG); /* length 2 */
    CHECK_EQ(takt_queue_peek_from_isr(q, &small, sizeof(small)), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_peek_from_isr(q, &v, sizeof(v)), TAKT_OK);
    CHECK_EQ(takt_queue_receive_from_isr(q, &v, sizeof(v), NULL), TAKT_OK);
    CHECK_EQ(takt_queue_count(q), 1);
    CHECK_EQ(takt_queue_receive(q, &v, sizeof(v), 0), TAKT_OK);
    /* static queue: live, then deleted */
    CHECK_EQ(takt_queue_create_static(&static_q, 4, 4, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_create_static(&static_q, 4, 4, static_storage), TAKT_OK);
    CHECK_EQ(takt_queue_create_static(&static_q, 4, 4, static_storage), TAKT_ERR_STATE);
    CHECK_EQ(takt_queue_send(&static_q, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(takt_queue_delete(&static_q), TAKT_OK);
    CHECK_EQ(takt_queue_send(&static_q, &v, sizeof(v), 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_count(&static_q), TAKT_ERR_ARG);
    /* a queue with a waiter is not deleted */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_queue_delete(q), TAKT_ERR_STATE);
    CHECK_EQ(takt_queue_send(q, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_queue_delete(q), TAKT_OK);
    q = NULL;
    s_log("done");
    h_park();
}

static void scenario_bad(takt_tick_t tick0)
{
    s_begin(tick0, 6);
    s_log_reset();
    CHECK_EQ(takt_queue_create(2, sizeof(uint32_t), &q), TAKT_OK);
    s_task("A", 3, bad_body, NULL);
    s_task("W", 2, bad_waiter, NULL);
    hp_inject_irq(T(1) + 1, 1, bad_isr, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "done@2");
    for (int i = 0; i < 6; i++) {
        CHECK_EQ(bad_isr_rc[i], TAKT_ERR_CONTEXT);
    }
    h_end();
}

/* ---------------------------------------------------------------- queue sets */

static takt_queue_t *qa, *qb;
static takt_sem_t *ss;
static takt_queue_set_t *set;

static const char *member_name(void *member)
{
    return member == (void *)qa ? "qa" : member == (void *)qb ? "qb" : member == (void *)ss ? "sem" : "?";
}

static void set_reader(void *arg)
{
    (void)arg;
    for (int i = 0; i < 5; i++) {
        void *member = NULL;
        CHECK_EQ(takt_queue_set_select(set, &member, 10), TAKT_OK);
        uint32_t v = 0;
        if (member == (void *)ss) {
            CHECK_EQ(takt_sem_take(ss, 0), TAKT_OK);
        } else {
            CHECK_EQ(takt_queue_receive(member, &v, sizeof(v), 0), TAKT_OK);
        }
        s_log("%s:%u", member_name(member), (unsigned)v);
    }
    void *none = NULL;
    CHECK_EQ(takt_queue_set_select(set, &none, 2), TAKT_ERR_TIMEOUT);
    s_log("timeout");
    h_park();
}

static void set_writer(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    uint32_t v = 1;
    CHECK_EQ(takt_queue_send(qb, &v, sizeof(v), 0), TAKT_OK);
    v = 2;
    CHECK_EQ(takt_queue_send(qa, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(takt_sem_give(ss), TAKT_OK);
    v = 3;
    CHECK_EQ(takt_queue_send(qb, &v, sizeof(v), 0), TAKT_OK);
    h_park();
}

static void set_isr(void *arg)
{
    (void)arg;
    uint32_t v = 9;
    bool w = false;
    CHECK_EQ(takt_queue_send_from_isr(qa, &v, sizeof(v), &w), TAKT_OK);
    CHECK(w); /* the reader waits on the set */
}

static void scenario_sets(takt_tick_t tick0)
{
    s_begin(tick0, 20);
    s_log_reset();
    CHECK_EQ(takt_queue_create(2, sizeof(uint32_t), &qa), TAKT_OK);
    CHECK_EQ(takt_queue_create(2, sizeof(uint32_t), &qb), TAKT_OK);
    CHECK_EQ(takt_sem_create(1, 0, &ss), TAKT_OK);
    CHECK_EQ(takt_queue_set_create(0, &set), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_create(5, &set), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(set, qa), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(set, qa), TAKT_ERR_STATE); /* already a member */
    CHECK_EQ(takt_queue_set_add_queue(set, qb), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_sem(set, ss), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(NULL, qa), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_add_queue(set, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_delete(qa), TAKT_ERR_STATE);   /* in a set */
    CHECK_EQ(takt_sem_delete(ss), TAKT_ERR_STATE);
    CHECK_EQ(takt_queue_set_delete(set), TAKT_ERR_STATE); /* has members */
    void *member = NULL;
    CHECK_EQ(takt_queue_set_select_from_isr(set, &member), TAKT_ERR_TIMEOUT); /* the task's */
    CHECK(member == NULL);
    s_task("R", 3, set_reader, NULL);
    s_task("W", 2, set_writer, NULL);
    hp_inject_irq(T(4), 1, set_isr, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "qb:1@1 qa:2@1 sem:0@1 qb:3@1 qa:9@4 timeout@6");
    /* a non-empty member cannot leave; an empty one can */
    uint32_t v = 5;
    CHECK_EQ(takt_queue_send(qa, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(takt_queue_set_remove_queue(set, qa), TAKT_ERR_STATE);
    CHECK_EQ(takt_queue_receive(qa, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(takt_queue_set_remove_queue(set, qa), TAKT_OK);
    CHECK_EQ(takt_queue_set_remove_queue(set, qa), TAKT_ERR_STATE); /* not a member */
    CHECK_EQ(takt_queue_set_remove_queue(set, qb), TAKT_OK);
    CHECK_EQ(takt_queue_set_remove_sem(set, ss), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(set), TAKT_OK);
    CHECK_EQ(takt_queue_delete(qa), TAKT_OK);
    CHECK_EQ(takt_queue_delete(qb), TAKT_OK);
    CHECK_EQ(takt_sem_delete(ss), TAKT_OK);
    h_end();
}

/* A set with a waiter refuses deletion; a deleted static set is an invalid handle. */
static takt_queue_set_t static_set;
static void *static_slots[2];

static void set_waiter(void *arg)
{
    (void)arg;
    void *member = NULL;
    CHECK_EQ(takt_queue_set_select(&static_set, &member, 2), TAKT_ERR_TIMEOUT);
    s_log("w");
    h_park();
}

static void set_deleter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(&static_set), TAKT_ERR_STATE);
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(&static_set), TAKT_OK);
    void *member = NULL;
    CHECK_EQ(takt_queue_set_select(&static_set, &member, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_select(&static_set, NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_add_queue(&static_set, q), TAKT_ERR_ARG);
    s_log("d");
    h_park();
}

static void scenario_set_bad(takt_tick_t tick0)
{
    s_begin(tick0, 5);
    s_log_reset();
    CHECK_EQ(takt_queue_create(1, 4, &q), TAKT_OK);
    CHECK_EQ(takt_queue_set_create_static(&static_set, 2, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_create_static(&static_set, 2, static_slots), TAKT_OK);
    CHECK_EQ(takt_queue_set_create_static(&static_set, 2, static_slots), TAKT_ERR_STATE);
    s_task("W", 2, set_waiter, NULL);
    s_task("D", 3, set_deleter, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "w@2 d@3");
    CHECK_EQ(takt_queue_delete(q), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- whole items */

/* takt_queue_send_item / takt_queue_receive_item (the FreeRTOS layer's calls)
 * and the plain paths of every send and receive: each size the copies treat
 * differently (one word, not a multiple of 4, several words, large), buffers at
 * odd addresses, the ring's wrap-around, a full queue, a waiting receiver and
 * peeker, a waiting sender, a queue set member, front sends and overwrites,
 * bad input (nothing changes). */

static takt_queue_t *wq;
static uint8_t wbytes[2][1100]; /* +1: items and buffers at odd addresses */

static void fill(uint8_t *bytes, size_t size, unsigned seed)
{
    for (size_t i = 0; i < size; i++) {
        bytes[i] = (uint8_t)(seed * 31u + i * 7u + 1u);
    }
}

static bool holds(const uint8_t *bytes, size_t size, unsigned seed)
{
    for (size_t i = 0; i < size; i++) {
        if (bytes[i] != (uint8_t)(seed * 31u + i * 7u + 1u)) {
            return false;
        }
    }
    return true;
}

/* Every size through a queue of length 3, five rounds (the ring wraps), from
 * and into aligned and odd addresses, with the sized and the whole-item calls
 * mixed; bytes past the item in the buffer stay as they were. */
static void whole_sizes(void)
{
    static const size_t sizes[] = {1, 3, 4, 5, 7, 8, 12, 16, 20, 32, 33, 64, 1024};
    for (size_t n = 0; n < sizeof(sizes) / sizeof(sizes[0]); n++) {
        size_t size = sizes[n];
        takt_queue_t *queue = NULL;
        CHECK_EQ(takt_queue_create(3, size, &queue), TAKT_OK);
        unsigned sent = 0, taken = 0;
        for (int round = 0; round < 5; round++) {
            size_t shift = (size_t)round & 1u;
            uint8_t *item = wbytes[0] + shift;
            uint8_t *buffer = wbytes[1] + (shift ^ 1u);
            for (int k = 0; k < 2; k++) {
                fill(item, size, sent);
                int rc = (sent & 1u) ? takt_queue_send(queue, item, size, 0)
                                     : takt_queue_send_item(queue, item, 0);
                CHECK_EQ(rc, TAKT_OK);
                sent++;
            }
            fill(item, size, 999); /* copied by value */
            for (int k = 0; k < 2; k++) {
                memset(buffer, 0xEE, size + 1);
                int rc = (taken & 1u) ? takt_queue_receive(queue, buffer, size + 1, 0)
                                      : takt_queue_receive_item(queue, buffer, 0);
                CHECK_EQ(rc, TAKT_OK);
                CHECK(holds(buffer, size, taken));
                CHECK_EQ(buffer[size], 0xEE);
                taken++;
            }
        }
        CHECK_EQ(takt_queue_count(queue), 0);
        CHECK_EQ(takt_queue_receive_item(queue, wbytes[1], 0), TAKT_ERR_TIMEOUT);
        CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    }
}

/* Full, front, overwrite, a short item (zero-padded), empty items, bad input. */
static void whole_edges(void)
{
    uint32_t v = 0, w = 0;
    takt_queue_t *queue = NULL;
    CHECK_EQ(takt_queue_create(2, sizeof(uint32_t), &queue), TAKT_OK);
    v = 1;
    CHECK_EQ(takt_queue_send_item(queue, &v, 0), TAKT_OK);
    v = 2;
    CHECK_EQ(takt_queue_send_front(queue, &v, sizeof(v), 0), TAKT_OK);
    v = 3;
    CHECK_EQ(takt_queue_send_item(queue, &v, 0), TAKT_ERR_TIMEOUT); /* full */
    CHECK_EQ(takt_queue_send_item(queue, &v, 2), TAKT_ERR_TIMEOUT); /* full, waits 2 ticks */
    CHECK_EQ(takt_queue_count(queue), 2);
    CHECK_EQ(takt_queue_receive_item(queue, &w, 0), TAKT_OK);
    CHECK_EQ(w, 2); /* the front send first */
    uint8_t one = 0x5A;
    CHECK_EQ(takt_queue_send(queue, &one, 1, 0), TAKT_OK); /* short: padded */
    CHECK_EQ(takt_queue_receive_item(queue, &w, 0), TAKT_OK);
    CHECK_EQ(w, 1);
    w = 0xFFFFFFFFu;
    CHECK_EQ(takt_queue_receive_item(queue, &w, 0), TAKT_OK);
    CHECK_EQ(w, 0x5A);
    /* bad input: rejected, nothing changes */
    CHECK_EQ(takt_queue_send_item(queue, &v, 0), TAKT_OK);
    CHECK_EQ(takt_queue_send_item(NULL, &v, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_receive_item(NULL, &w, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_send_item(queue, NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_receive_item(queue, NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_send_item(queue, &v, 0x90000000u), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_receive_item(queue, &w, 0xFFFFFFFEu), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_send(queue, &v, sizeof(v) + 1, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_receive(queue, &w, sizeof(w) - 1, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_count(queue), 1);
    CHECK_EQ(takt_queue_receive_item(queue, &w, 0), TAKT_OK);
    CHECK_EQ(w, 3);
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    static takt_queue_t deleted;
    static uint32_t deleted_storage[2];
    CHECK_EQ(takt_queue_create_static(&deleted, 2, sizeof(uint32_t), deleted_storage), TAKT_OK);
    CHECK_EQ(takt_queue_delete(&deleted), TAKT_OK);
    CHECK_EQ(takt_queue_send_item(&deleted, &v, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_receive_item(&deleted, &w, 0), TAKT_ERR_ARG);
    /* a mailbox: overwrite, then whole-item calls on it */
    CHECK_EQ(takt_queue_create(1, sizeof(uint32_t), &queue), TAKT_OK);
    v = 4;
    CHECK_EQ(takt_queue_send_item(queue, &v, 0), TAKT_OK);
    v = 5;
    CHECK_EQ(takt_queue_overwrite(queue, &v, sizeof(v)), TAKT_OK);
    CHECK_EQ(takt_queue_send_item(queue, &v, 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(takt_queue_receive_item(queue, &w, 0), TAKT_OK);
    CHECK_EQ(w, 5);
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    /* item size 0: no buffers needed */
    CHECK_EQ(takt_queue_create(1, 0, &queue), TAKT_OK);
    CHECK_EQ(takt_queue_send_item(queue, NULL, 0), TAKT_OK);
    CHECK_EQ(takt_queue_send_item(queue, NULL, 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(takt_queue_receive_item(queue, NULL, 0), TAKT_OK);
    CHECK_EQ(takt_queue_receive_item(queue, NULL, 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
}

static void whole_receiver(void *arg)
{
    const char *name = arg;
    uint32_t v = 0;
    int rc = takt_queue_receive_item(wq, &v, TAKT_WAIT_FOREVER);
    s_log("%s=%u%s", name, (unsigned)v, rc == TAKT_OK ? "" : "!");
    h_park();
}

static void whole_peeker(void *arg)
{
    (void)arg;
    uint32_t v = 0;
    CHECK_EQ(takt_queue_peek(wq, &v, sizeof(v), TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("peek=%u", (unsigned)v);
    h_park();
}

static void whole_sender(void *arg)
{
    (void)arg;
    uint32_t v = 0;
    whole_sizes();
    whole_edges();
    CHECK_EQ(takt_delay(1), TAKT_OK); /* the receivers and the peeker wait by now */
    v = 7;
    CHECK_EQ(takt_queue_send_item(wq, &v, 0), TAKT_OK); /* peeker copies, r3 takes it */
    s_point();
    CHECK_EQ(takt_queue_count(wq), 0);
    v = 8;
    CHECK_EQ(takt_queue_send_item(wq, &v, 0), TAKT_OK); /* to r2 */
    s_point();
    v = 9;
    CHECK_EQ(takt_queue_send_item(wq, &v, 0), TAKT_OK); /* stored (length 1) */
    v = 10;
    CHECK_EQ(takt_queue_send_item(wq, &v, TAKT_WAIT_FOREVER), TAKT_OK); /* waits for D */
    s_log("sent10");
    h_park();
}

static void whole_drainer(void *arg)
{
    (void)arg;
    uint32_t v = 0;
    CHECK_EQ(takt_delay(4), TAKT_OK); /* after the sender's sends at 3 */
    CHECK_EQ(takt_queue_receive_item(wq, &v, 0), TAKT_OK); /* 9; the waiting sender's 10 moves in */
    s_log("d=%u", (unsigned)v);
    CHECK_EQ(takt_queue_count(wq), 1);
    CHECK_EQ(takt_queue_receive_item(wq, &v, 0), TAKT_OK);
    s_log("d=%u", (unsigned)v);
    h_park();
}

static void scenario_whole(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_queue_create(1, sizeof(uint32_t), &wq), TAKT_OK);
    s_task("S", 1, whole_sender, NULL);
    s_task("R2", 2, whole_receiver, "r2");
    s_task("R3", 3, whole_receiver, "r3");
    s_task("P4", 4, whole_peeker, NULL);
    s_task("D", 5, whole_drainer, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "peek=7@3 r3=7@3 r2=8@3 d=9@4 d=10@4 sent10@4");
    CHECK_EQ(takt_queue_delete(wq), TAKT_OK);
    h_end();
}

/* A queue set member sent to by send_item; whole-item calls from an interrupt. */
static int whole_isr_rc[2];

static void whole_isr(void *arg)
{
    (void)arg;
    uint32_t v = 1;
    whole_isr_rc[0] = takt_queue_send_item(wq, &v, 0);
    whole_isr_rc[1] = takt_queue_receive_item(wq, &v, 0);
}

static void whole_set_body(void *arg)
{
    takt_queue_set_t *members = arg;
    uint32_t v = 11;
    void *member = NULL;
    CHECK_EQ(takt_queue_send_item(wq, &v, 0), TAKT_OK);
    CHECK_EQ(takt_queue_set_select(members, &member, 0), TAKT_OK);
    CHECK(member == wq);
    v = 0;
    CHECK_EQ(takt_queue_receive_item(wq, &v, 0), TAKT_OK);
    CHECK_EQ(v, 11);
    CHECK_EQ(takt_queue_set_select(members, &member, 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(takt_delay(2), TAKT_OK); /* the interrupt at tick 1 */
    CHECK_EQ(takt_queue_count(wq), 0);
    s_log("set");
    h_park();
}

static void scenario_whole_set(takt_tick_t tick0)
{
    s_begin(tick0, 4);
    s_log_reset();
    takt_queue_set_t *members = NULL;
    CHECK_EQ(takt_queue_create(2, sizeof(uint32_t), &wq), TAKT_OK);
    CHECK_EQ(takt_queue_set_create(2, &members), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(members, wq), TAKT_OK);
    s_task("A", 2, whole_set_body, members);
    hp_inject_irq(T(1) + 1, 1, whole_isr, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "set@2");
    CHECK_EQ(whole_isr_rc[0], TAKT_ERR_CONTEXT);
    CHECK_EQ(whole_isr_rc[1], TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_queue_set_remove_queue(members, wq), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(members), TAKT_OK);
    CHECK_EQ(takt_queue_delete(wq), TAKT_OK);
    h_end();
}

/* The send's inline hand-over (an empty queue, its first waiter a receiver)
 * with what the one-word case does not meet: an item of several words, a
 * receiver waiting with a timeout (its timer must go), a queue in a set
 * (the set hears nothing: the item never was in the queue). */
static takt_queue_set_t *hand_set;
static uint8_t hand_in[12], hand_out[12];

static void hand_receiver(void *arg)
{
    (void)arg;
    int rc = takt_queue_receive_item(wq, hand_in, 10);
    s_log("r%s", rc == TAKT_OK && holds(hand_in, sizeof hand_in, 5) ? "" : "!");
    CHECK_EQ(takt_delay(12), TAKT_OK); /* its wake timer is free again */
    s_log("d");
    h_park();
}

static void hand_sender(void *arg)
{
    (void)arg;
    void *member = NULL;
    CHECK_EQ(takt_delay(1), TAKT_OK); /* the receiver waits by now */
    fill(hand_out, sizeof hand_out, 5);
    CHECK_EQ(takt_queue_send_item(wq, hand_out, 0), TAKT_OK);
    fill(hand_out, sizeof hand_out, 6); /* copied by value */
    CHECK_EQ(takt_queue_count(wq), 0);
    CHECK_EQ(takt_queue_set_select(hand_set, &member, 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(takt_delay(1), TAKT_OK); /* the receiver has run, whatever the preemption mode */
    s_log("sent");
    h_park();
}

static void scenario_hand_over(takt_tick_t tick0)
{
    s_begin(tick0, 16);
    s_log_reset();
    CHECK_EQ(takt_queue_create(2, sizeof hand_in, &wq), TAKT_OK);
    CHECK_EQ(takt_queue_set_create(2, &hand_set), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(hand_set, wq), TAKT_OK);
    s_task("S", 1, hand_sender, NULL);
    s_task("R", 2, hand_receiver, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "r@1 sent@2 d@13");
    CHECK_EQ(takt_queue_set_remove_queue(hand_set, wq), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(hand_set), TAKT_OK);
    CHECK_EQ(takt_queue_delete(wq), TAKT_OK);
    h_end();
}

int main(void)
{
    h_both(scenario_basics, "basics");
    h_both(scenario_blocking, "blocking");
    h_both(scenario_isr, "isr");
    h_both(scenario_bad, "bad");
    h_both(scenario_sets, "sets");
    h_both(scenario_set_bad, "set_bad");
    h_both(scenario_whole, "whole");
    h_both(scenario_whole_set, "whole_set");
    h_both(scenario_hand_over, "hand_over");
    return CHECK_SUMMARY();
}
