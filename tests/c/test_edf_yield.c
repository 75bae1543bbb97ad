/*
 * A yield under EDF (SCHEDULING.md: the job becomes ready again, now, so it
 * goes behind every queued job of its deadline and stays in front of every
 * later one). Each ready queue moves the yielding job in its own way
 * (takt_pq_*_moved_later; EDF-L compares it with the job after it), and
 * keeps it in place when no equal deadline follows it.
 *
 * Checked: a hand-made case with the expected h_order, under the heap, EDF-L
 * and the red-black tree, across the tick wraparound; and many random task
 * sets with yields between slices of work (deadlines drawn from few values,
 * so ties are common; background tasks too), whose traces must be the same
 * event for event under the three queues, which order jobs alike.
 */
#include "harness.h"
#include "edf_queues.h"
#include "xorshift.h"

static takt_scheduler_t scheduler;

/* ---------------------------------------------------------------- by hand */

/* Each task notes, yields, notes again, and once more for B. */
static void yielder(void *arg)
{
    const char *name = arg;
    char text[8];
    snprintf(text, sizeof(text), "%s1", name);
    h_note(text);
    takt_yield();
    snprintf(text, sizeof(text), "%s2", name);
    h_note(text);
    if (name[0] == 'b') {
        takt_yield(); /* A has finished: no equal left, B goes on */
        h_note("b3");
    }
    h_park();
}

/* All released at 0. D (deadline 5) yields with nothing of its deadline
 * queued: it stays in front. A and B (deadline 10) take turns. C (15) comes
 * last and, alone, goes on after its yield too. */
static void scenario_by_hand(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = scheduler, .tick_start = tick0};
    h_begin_params(&init, 3);
    h_periodic("A", 2, yielder, "a", 20, 10, 0);
    h_periodic("B", 2, yielder, "b", 20, 10, 0);
    h_periodic("C", 2, yielder, "c", 20, 15, 0);
    h_periodic("D", 2, yielder, "d", 20, 5, 0);
    h_run();
    CHECK_STREQ(h_order, "d1 d2 a1 b1 a2 b2 b3 c1 c2");
    CHECK_STREQ(h_dispatches(), "0:4 0:1 0:2 0:1 0:2 0:3 0:0");
    CHECK_EQ(h_count(TAKT_EV_YIELD, -1), 5);
}

/* ---------------------------------------------------------------- random */

#define MAX_TASKS 7

typedef struct {
    uint32_t seed;     /* the task's own stream of slice lengths and yields */
    bool periodic;
} plan_t;

static plan_t plans[MAX_TASKS];


/* A job (or, without a period, a round of work) is one to three slices of
 * a quarter to a whole tick (a whole tick where the harness models only
 * whole ticks: the boards, HP_SUBTICK_WORK 0); after most slices it yields. */
static void random_body(void *arg)
{
    plan_t *plan = arg;
    uint32_t state = plan->seed;
    for (;;) {
        unsigned slices = 1u + xorshift32(&state) % 3u;
        for (unsigned s = 0; s < slices; s++) {
            uint32_t quarters = 1u + xorshift32(&state) % 4u;
#if HP_SUBTICK_WORK
            hp_work_ns(T(1) / 4u * quarters);
#else
            (void)quarters;
            hp_work_ns(T(1));
#endif
            if (xorshift32(&state) % 4u != 0) {
                takt_yield();
            }
        }
        if (plan->periodic) {
            CHECK_EQ(takt_job_end(), TAKT_OK);
        } else if (xorshift32(&state) % 2u == 0) {
            CHECK_EQ(takt_delay(1u + xorshift32(&state) % 3u), TAKT_OK);
        }
    }
}

static uint32_t set_state;

static void scenario_random(takt_tick_t tick0)
{
    static const takt_tick_t periods[] = {4, 5, 6, 8, 10, 12};
    uint32_t state = set_state;
    takt_init_params_t init = {.scheduler = scheduler, .tick_start = tick0};
    h_begin_params(&init, 60);
    unsigned tasks = 2u + xorshift32(&state) % (MAX_TASKS - 1u);
    for (unsigned i = 0; i < tasks; i++) {
        plans[i].seed = xorshift32(&state) | 1u;
        plans[i].periodic = xorshift32(&state) % 5u != 0;
        static const char *const names[MAX_TASKS] = {"T0", "T1", "T2", "T3", "T4", "T5", "T6"};
        const char *name = names[i];
        unsigned priority = 1u + xorshift32(&state) % 3u;
        if (plans[i].periodic) {
            takt_tick_t period = periods[xorshift32(&state) % 6u];
            /* few deadline values: equal deadlines are the case to test */
            takt_tick_t deadline = xorshift32(&state) % 2u == 0 ? period : period / 2u;
            h_periodic(name, priority, random_body, &plans[i], period, deadline,
                       xorshift32(&state) % 3u);
        } else {
            h_task(name, priority, random_body, &plans[i]);
        }
    }
    h_run();
}

/* On the boards the modelled work is real instructions (about a second of
 * QEMU for a set's three runs), so they run the first few sets. */
#if HP_SUBTICK_WORK
#define RANDOM_SETS 1000u
#else
#define RANDOM_SETS 16u
#endif

/* The task set's run under one queue (edf_compare_queues runs it under
 * each); the set yields. */
static void run_set(takt_scheduler_t queue, uint32_t set)
{
    scheduler = queue;
    set_state = set * 2654435761u + 1u;
    scenario_random(set % 2u == 0 ? 0u : WRAP_START);
    CHECK(h_count(TAKT_EV_YIELD, -1) > 0);
}

int main(void)
{
    for (size_t q = 0; q < EDF_QUEUES; q++) {
        char name[64];
        snprintf(name, sizeof(name), "by_hand/%s", edf_queues[q].name);
        scheduler = edf_queues[q].scheduler;
        h_both(scenario_by_hand, name);
    }
    for (uint32_t set = 0; set < RANDOM_SETS; set++) {
        edf_compare_queues(set, run_set);
    }
    return CHECK_SUMMARY();
}
