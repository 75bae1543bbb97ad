/*
 * Priority and deadline inheritance against a model, over many random runs:
 * tasks of random base priorities (some with a deadline) lock nested mutexes
 * with random timeouts, unlock them in any order, change their base priority,
 * work and sleep. Whenever a task runs, every task's effective priority and
 * inherited deadline must be what the wait-for graph gives: its base priority
 * raised by the waiters of the mutexes it holds, each waiter counting with its
 * own effective priority and deadline (so transitively). This covers each
 * shortcut in mutex.c: a new waiter raising the holder chain without a walk, a
 * hand-off with waiters left behind, an unlock with other mutexes still held
 * or none, an unlock of a mutex nobody waited on.
 */
#include <string.h>

#include "sync_common.h"

#ifdef TAKT_TEST_TARGET
#define R_RUNS 8 /* about 2 s each under QEMU */
#else
#define R_RUNS 40
#endif
#define R_TASKS 6
#define R_MUTEXES 3
#define R_ACTIONS 80
#define R_END_TICKS 600u
#define R_MAX_PRIORITY 7u

typedef struct {
    takt_task_t *task;
    uint32_t rng;
    int wanting; /* the mutex it is locking (blocked there if BLOCKED), or -1 */
    bool holds[R_MUTEXES];
    bool has_deadline; /* periodic with one long job: a fixed absolute deadline */
    takt_tick_t deadline;
} r_task_t;

static r_task_t r_tasks[R_TASKS];
static takt_mutex_t r_mutexes[R_MUTEXES];
static uint32_t r_seed;

/* What the runs went through, so that a run of trivial cases cannot pass. */
static unsigned long r_checks, r_raised, r_deadline_passed, r_chains, r_handoff_left_waiters,
    r_handoff_still_holding, r_timeouts;

static uint32_t rnd(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

static bool r_before(takt_tick_t a, takt_tick_t b)
{
    return (int32_t)(a - b) < 0;
}

/* The model reads the kernel's fields directly: a call that enters a
 * critical section may take a pending switch at its exit, and the check must
 * see one instant. */
static bool r_blocked(int i)
{
    return r_tasks[i].task->state == TAKT_TASK_BLOCKED;
}

static bool r_waits_on(int i, int m)
{
    return r_tasks[i].wanting == m && r_blocked(i);
}

static int r_waiters(int m)
{
    int n = 0;
    for (int i = 0; i < R_TASKS; i++) {
        n += r_waits_on(i, m);
    }
    return n;
}

typedef struct {
    unsigned priority;
    bool has_deadline;   /* something it inherits has a deadline */
    takt_tick_t deadline; /* the earliest of those */
} r_expect_t;

/* The model: the base priority raised by every waiter of every mutex the task
 * holds, with the waiter's own expected values (the lock order rules out a
 * cycle, so the recursion ends). */
static r_expect_t r_expected(int i, int depth)
{
    r_expect_t e = {r_tasks[i].task->base_priority, false, 0};
    CHECK(depth <= R_TASKS);
    if (depth > R_TASKS) {
        return e;
    }
    for (int m = 0; m < R_MUTEXES; m++) {
        if (r_mutexes[m].holder != r_tasks[i].task) {
            continue;
        }
        for (int w = 0; w < R_TASKS; w++) {
            if (!r_waits_on(w, m)) {
                continue;
            }
            r_expect_t we = r_expected(w, depth + 1);
            if (we.priority > e.priority) {
                e.priority = we.priority;
            }
            /* the waiter's deadline: its own, or what it inherits if earlier */
            bool has = r_tasks[w].has_deadline || we.has_deadline;
            takt_tick_t d = r_tasks[w].deadline;
            if (!r_tasks[w].has_deadline ||
                (we.has_deadline && r_before(we.deadline, r_tasks[w].deadline))) {
                d = we.deadline;
            }
            if (has && (!e.has_deadline || r_before(d, e.deadline))) {
                e.has_deadline = true;
                e.deadline = d;
            }
        }
    }
    return e;
}

static void r_check_all(void)
{
    for (int i = 0; i < R_TASKS; i++) {
        const takt_task_t *t = r_tasks[i].task;
        r_expect_t e = r_expected(i, 0);
        r_checks++;
        r_raised += e.priority > t->base_priority;
        r_deadline_passed += e.has_deadline;
        int prio = t->priority;
        bool ok = prio == (int)e.priority && t->deadline_inherited == e.has_deadline &&
                  (!e.has_deadline || t->inherited_deadline == e.deadline);
        CHECK(ok);
        if (!ok) {
            fprintf(stderr, "  seed %u, task %d at %u: priority %d (expected %u), deadline %d/%u"
                            " (expected %d/%u)\n",
                    (unsigned)r_seed, i, (unsigned)h_now_ticks(), prio, e.priority,
                    t->deadline_inherited, (unsigned)t->inherited_deadline, e.has_deadline,
                    (unsigned)e.deadline);
        }
        /* a holder blocked on a mutex that inherits: the change went along a chain */
        if (r_tasks[i].wanting >= 0 && e.priority > t->base_priority && r_blocked(i)) {
            r_chains++;
        }
    }
}

static int r_highest_held(const r_task_t *me)
{
    int highest = -1;
    for (int m = 0; m < R_MUTEXES; m++) {
        if (me->holds[m]) {
            highest = m;
        }
    }
    return highest;
}

static void r_unlock(r_task_t *me, int m)
{
    int waiters = r_waiters(m);
    bool still_holding = false;
    for (int o = 0; o < R_MUTEXES; o++) {
        still_holding |= o != m && me->holds[o];
    }
    r_handoff_left_waiters += waiters >= 2;
    r_handoff_still_holding += waiters >= 1 && still_holding;
    CHECK_EQ(takt_mutex_unlock(&r_mutexes[m]), TAKT_OK);
    me->holds[m] = false;
}

/* Mutexes are locked in index order only (above every one held), so no
 * deadlock even when waiting forever; they are unlocked in any order. */
static void r_lock(r_task_t *me)
{
    int low = r_highest_held(me) + 1;
    if (low >= R_MUTEXES) {
        return;
    }
    int m = low + (int)(rnd(&me->rng) % (uint32_t)(R_MUTEXES - low));
    uint32_t pick = rnd(&me->rng) % 4u;
    takt_tick_t timeout = pick == 0 ? 0u : pick == 1 ? 1u + rnd(&me->rng) % 3u : TAKT_WAIT_FOREVER;
    me->wanting = m;
    int rc = takt_mutex_lock(&r_mutexes[m], timeout);
    me->wanting = -1;
    if (rc == TAKT_OK) {
        me->holds[m] = true;
    } else {
        CHECK_EQ(rc, TAKT_ERR_TIMEOUT);
        CHECK(timeout != TAKT_WAIT_FOREVER);
        r_timeouts++;
    }
}

static void r_body(void *arg)
{
    r_task_t *me = arg;
    for (int a = 0; a < R_ACTIONS; a++) {
        r_check_all();
        uint32_t pick = rnd(&me->rng) % 12u;
        if (pick < 5) {
            r_lock(me);
        } else if (pick < 8) {
            int held[R_MUTEXES], n = 0;
            for (int m = 0; m < R_MUTEXES; m++) {
                if (me->holds[m]) {
                    held[n++] = m;
                }
            }
            if (n > 0) {
                r_unlock(me, held[rnd(&me->rng) % (uint32_t)n]);
            }
        } else if (pick == 8) {
            CHECK_EQ(takt_task_set_priority(NULL, 1u + rnd(&me->rng) % R_MAX_PRIORITY), TAKT_OK);
        } else if (pick < 11) {
            h_work(1);
            s_point();
            hp_work_ns(0); /* full preemption: take a switch the tick asked for now */
        } else {
            CHECK_EQ(takt_delay(1u + rnd(&me->rng) % 2u), TAKT_OK);
        }
    }
    r_check_all();
    for (int m = R_MUTEXES - 1; m >= 0; m--) {
        if (me->holds[m]) {
            r_unlock(me, m);
        }
    }
    r_check_all();
    h_park();
}

static void r_run(uint32_t seed)
{
    r_seed = seed;
    uint32_t rng = seed * 2654435761u + 1u;
    s_begin(0, R_END_TICKS);
    for (int m = 0; m < R_MUTEXES; m++) {
        memset(&r_mutexes[m], 0, sizeof(r_mutexes[m]));
        CHECK_EQ(takt_mutex_create_static(&r_mutexes[m], 0), TAKT_OK);
    }
    for (int i = 0; i < R_TASKS; i++) {
        r_task_t *t = &r_tasks[i];
        *t = (r_task_t){.rng = rnd(&rng) | 1u, .wanting = -1};
        unsigned priority = 1u + rnd(&rng) % R_MAX_PRIORITY;
        t->has_deadline = rnd(&rng) % 2u == 0;
        /* one job that outlasts the run: its deadline stays put */
        takt_tick_t period = t->has_deadline ? 100000u : 0u;
        takt_tick_t deadline = t->has_deadline ? 1000u + rnd(&rng) % 5000u : 0u;
        t->deadline = deadline; /* released at tick 0 */
        char name[8];
        snprintf(name, sizeof(name), "R%d", i);
        t->task = S_HSF ? hsf_task_full(s_host, name, priority, r_body, t, period, deadline, 0)
                        : h_task_full(name, priority, r_body, t, period, deadline, 0);
    }
    h_start();
    h_end();
}

int main(void)
{
    for (uint32_t seed = 1; seed <= R_RUNS; seed++) {
        r_run(seed);
    }
    printf("mutex model: %lu checks; raised %lu, deadline passed %lu, along a chain %lu; "
           "hand-offs leaving waiters %lu, with other mutexes held %lu; timeouts %lu\n",
           r_checks, r_raised, r_deadline_passed, r_chains, r_handoff_left_waiters,
           r_handoff_still_holding, r_timeouts);
    CHECK(r_raised > 0 && r_deadline_passed > 0 && r_chains > 0);
    CHECK(r_handoff_left_waiters > 0 && r_handoff_still_holding > 0 && r_timeouts > 0);
    return CHECK_SUMMARY();
}
