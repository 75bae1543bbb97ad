/*
 * Producer/consumer stress on the sim port: three producer tasks and an
 * interrupt producer feed one queue, two consumers drain it; a seeded PRNG
 * varies work lengths, delays, timeouts (a send that times out is retried
 * with the same sequence number) and interrupt arrival times. Consumers also
 * update a shared counter under a mutex (random work inside), so inheritance
 * runs under random interleavings. Producers now and then lock the scheduler
 * across ticks or catch up lost ticks (takt_tick_catch_up). STRESS_SERVERS
 * (under hsf) puts producers and consumers in two servers whose budgets run
 * out, so locks and caught-up ticks run past depletions (overruns).
 *
 * Checked: every message of every producer arrives exactly once (none lost,
 * none duplicated), each consumer sees each producer's messages in order,
 * the mutex-protected counter equals the messages received, and every task
 * ends at its base priority. STRESS_MESSAGES sets the total (CMakeLists.txt).
 */
#include "sync_common.h"
#include "xorshift.h"

#ifndef STRESS_MESSAGES
#define STRESS_MESSAGES 100000u
#endif
#ifndef STRESS_SEED
#define STRESS_SEED 0x5EED1234u
#endif

#define PRODUCERS 4u /* 3 tasks + the interrupt (index 3) */
#define ISR_PRODUCER 3u
#define CONSUMERS 2u
#define QUEUE_LENGTH 8u

typedef struct {
    uint32_t producer;
    uint32_t seq;
} message_t;

/* Static objects: when the run stops, tasks may still wait on them. */
static takt_queue_t queue_object;
static message_t queue_storage[QUEUE_LENGTH];
static takt_mutex_t lock_object;
static takt_queue_t *const queue = &queue_object;
static takt_mutex_t *const counter_lock = &lock_object;
static uint64_t shared_counter;
static uint32_t quota[PRODUCERS];     /* messages each producer sends */
static uint32_t next_seq[PRODUCERS];  /* next sequence number to send */
static uint8_t *seen[PRODUCERS];      /* one byte per message: received? */
static uint32_t last_seen[CONSUMERS][PRODUCERS]; /* seq+1 of the last message */
static uint64_t received;
static uint64_t duplicates, reorders, send_timeouts, isr_full;
static takt_task_t *tasks[PRODUCERS - 1u + CONSUMERS];
static unsigned base_priority[PRODUCERS - 1u + CONSUMERS];

static uint32_t rng_state;

static uint32_t rng(void)
{
    return xorshift32(&rng_state);
}

static void random_work(uint32_t max_ns)
{
    hp_work_ns(1u + rng() % max_ns);
}

static void producer(void *arg)
{
    uint32_t me = (uint32_t)(uintptr_t)arg;
    while (next_seq[me] < quota[me]) {
        message_t m = {me, next_seq[me]};
        random_work(800);
        takt_tick_t timeout = rng() % 4u == 0 ? 0 : rng() % 3u; /* 0, 1 or 2 ticks */
        if (takt_queue_send(queue, &m, sizeof(m), timeout) == TAKT_OK) {
            next_seq[me]++;
        } else {
            send_timeouts++;
        }
        if (rng() % 16u == 0) {
            CHECK_EQ(takt_delay(rng() % 3u), TAKT_OK);
        }
        uint32_t roll = rng() % 64u;
        if (roll == 0) {
            /* The scheduler locked across up to two ticks: under hsf the
             * server may run out meanwhile (an overrun until the unlock). */
            CHECK_EQ(takt_sched_lock(), TAKT_OK);
            random_work(2000);
            CHECK(takt_sched_unlock() >= 0);
        } else if (roll == 1) {
            CHECK_EQ(takt_tick_catch_up(rng() % 3u, NULL), TAKT_OK); /* ticks lost and caught up */
        }
        s_point();
    }
    h_park();
}

static void isr_producer(void *arg)
{
    (void)arg;
    uint32_t me = ISR_PRODUCER;
    if (next_seq[me] < quota[me]) {
        message_t m = {me, next_seq[me]};
        bool woken = false;
        if (takt_queue_send_from_isr(queue, &m, sizeof(m), &woken) == TAKT_OK) {
            next_seq[me]++;
        } else {
            isr_full++;
        }
        hp_inject_irq(hp_now_ns() + 200u + rng() % 3000u, 1, isr_producer, NULL);
    }
}

static void consumer(void *arg)
{
    uint32_t me = (uint32_t)(uintptr_t)arg;
    for (;;) {
        message_t m;
        int rc = takt_queue_receive(queue, &m, sizeof(m), 1u + rng() % 3u);
        if (rc == TAKT_OK) {
            if (m.producer >= PRODUCERS || m.seq >= quota[m.producer] || seen[m.producer][m.seq]) {
                duplicates++;
            } else {
                seen[m.producer][m.seq] = 1;
                if (m.seq + 1u <= last_seen[me][m.producer]) {
                    reorders++;
                }
                last_seen[me][m.producer] = m.seq + 1u;
                received++;
            }
            CHECK_EQ(takt_mutex_lock(counter_lock, TAKT_WAIT_FOREVER), TAKT_OK);
            random_work(300);
            shared_counter++;
            CHECK_EQ(takt_mutex_unlock(counter_lock), TAKT_OK);
            if (received == STRESS_MESSAGES) {
                hp_stop();
            }
        }
        random_work(700);
        s_point();
    }
}

int main(void)
{
    rng_state = STRESS_SEED;
    uint32_t per = STRESS_MESSAGES / PRODUCERS;
    for (uint32_t p = 0; p < PRODUCERS; p++) {
        quota[p] = p + 1u < PRODUCERS ? per : STRESS_MESSAGES - per * (PRODUCERS - 1u);
        seen[p] = calloc(quota[p], 1);
    }
    s_begin(WRAP_START - 1000u, (uint64_t)STRESS_MESSAGES * 100u);
    CHECK_EQ(takt_queue_create_static(queue, QUEUE_LENGTH, sizeof(message_t), queue_storage),
             TAKT_OK);
    CHECK_EQ(takt_mutex_create_static(counter_lock, 0), TAKT_OK);
    static const unsigned prio[] = {2, 4, 6, 3, 5}; /* producers, then consumers */
    static const char *names[] = {"P0", "P1", "P2", "C0", "C1"};
#ifdef STRESS_SERVERS
    /* Budgets that run out: the producers in an idling server, the consumers
     * in a deferrable one, each with about half of every period. */
    takt_server_t *producers = hsf_server("prod", 2, 20, 9, 0, TAKT_SERVER_IDLING);
    takt_server_t *consumers = hsf_server("cons", 1, 20, 10, 3, TAKT_SERVER_DEFERRABLE);
#endif
    for (uint32_t i = 0; i < PRODUCERS - 1u + CONSUMERS; i++) {
        bool is_producer = i < PRODUCERS - 1u;
        void (*entry)(void *) = is_producer ? producer : consumer;
        void *arg = (void *)(uintptr_t)(is_producer ? i : i - (PRODUCERS - 1u));
#ifdef STRESS_SERVERS
        tasks[i] = hsf_task(is_producer ? producers : consumers, names[i], prio[i], entry, arg);
#else
        tasks[i] = s_task(names[i], prio[i], entry, arg);
#endif
        base_priority[i] = prio[i];
    }
    hp_inject_irq(500, 1, isr_producer, NULL);
    takt_start();
    /* the trace ring is drained by the hook into h_log, which keeps the first
     * 64 Ki events; the rest is counted as overflow there: not checked here */
    CHECK_EQ(received, STRESS_MESSAGES);
    CHECK_EQ(duplicates, 0);
    CHECK_EQ(reorders, 0);
    CHECK_EQ(shared_counter, STRESS_MESSAGES);
    uint64_t missing = 0;
    for (uint32_t p = 0; p < PRODUCERS; p++) {
        /* the last sender may not have run since its item was handed over */
        CHECK(next_seq[p] == quota[p] || next_seq[p] + 1u == quota[p]);
        for (uint32_t s = 0; s < quota[p]; s++) {
            missing += seen[p][s] == 0;
        }
    }
    CHECK_EQ(missing, 0);
#ifdef STRESS_SERVERS
    /* The variant does what it is for: budgets ran out, and scheduler locks
     * or caught-up ticks ran past a depletion. */
    takt_server_stats_t prod_stats, cons_stats;
    CHECK_EQ(takt_server_stats(producers, &prod_stats), TAKT_OK);
    CHECK_EQ(takt_server_stats(consumers, &cons_stats), TAKT_OK);
    CHECK(prod_stats.depletions > 0 && cons_stats.depletions > 0);
    CHECK(prod_stats.overrun_ticks > 0);
    printf("stress: servers: prod %u depletions, %u overrun ticks; cons %u depletions, %u overrun ticks\n",
           (unsigned)prod_stats.depletions, (unsigned)prod_stats.overrun_ticks, (unsigned)cons_stats.depletions,
           (unsigned)cons_stats.overrun_ticks);
#endif
    for (uint32_t i = 0; i < PRODUCERS - 1u + CONSUMERS; i++) {
        CHECK_EQ(takt_task_get_priority(tasks[i]), base_priority[i]);
    }
    printf("stress: %u messages (%u from the interrupt), %llu send timeouts, %llu interrupt "
           "sends refused (full), %u context switches, virtual time %.3f s\n",
           (unsigned)STRESS_MESSAGES, (unsigned)quota[ISR_PRODUCER],
           (unsigned long long)send_timeouts, (unsigned long long)isr_full,
           (unsigned)takt_context_switches(), (double)hp_now_ns() / 1e9);
    takt_teardown();
    for (uint32_t p = 0; p < PRODUCERS; p++) {
        free(seen[p]);
    }
    return CHECK_SUMMARY();
}
