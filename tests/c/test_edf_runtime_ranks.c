/*
 * Periodic tasks created and deleted while jobs are queued, under EDF. EDF-L
 * ranks its lists by relative deadline and opens a new task's rank in place,
 * the tasks above it moving one rank up with their jobs left where they are
 * (policy_edf_mlist.c open_rank), or ranks everything anew when the new
 * rank's list still holds a deleted task's jobs or the ranks run out. The
 * heap and the red-black tree order jobs by deadline alone, so each random
 * set's trace must be the same event for event under the three queues.
 * EDF-L's insertion finds a job's place whatever its rank (the ranks make
 * the usual cases O(1)), so its ranks are checked too: in the order of the
 * tasks' relative deadlines at every creator job (a wrong rank, an
 * off-by-one or a missed move up each fails thousands of these).
 *
 * A creator job (deadline 1, so it runs first when the load allows) creates
 * a task every few ticks, with a relative deadline from a few values (ties
 * are the case to test), and sometimes deletes the oldest it created; the
 * workers run one to three slices of work per job, an overload at times.
 * Every tenth set (host only) creates over a hundred light tasks, 40 alive at
 * a time, with deadlines of 2 to 31: the ranks run past EDF-L's 64 lists
 * and are ranked anew.
 */
#include "harness.h"
#include "edf_queues.h"
#include "xorshift.h"

static takt_scheduler_t scheduler;

#define MAX_WORKERS 160
#define LIVE_MAX 10
#define LONG_LIVE_MAX 40

typedef struct {
    uint32_t seed;
    takt_task_t *task;
} worker_t;

static worker_t workers[MAX_WORKERS];
/* A long set creates over a hundred tasks, 40 alive at a time, with
 * deadlines of 2 to 31: EDF-L's ranks run past its lists and are ranked anew. */
static bool long_set;
static unsigned created, live;
static uint32_t creator_state;
static unsigned long deletes;

static void worker_body(void *arg)
{
    worker_t *w = arg;
    uint32_t state = w->seed;
    for (;;) {
        unsigned slices = long_set ? 1u : 1u + xorshift32(&state) % 3u; /* a long set's load stays light */
        for (unsigned s = 0; s < slices; s++) {
#if HP_SUBTICK_WORK
            hp_work_ns(T(1) / 4u * (1u + xorshift32(&state) % 4u));
#else
            hp_work_ns(T(1));
#endif
        }
        CHECK_EQ(takt_job_end(), TAKT_OK);
    }
}

/* EDF-L's ranks (list_index, which the EDF order does not depend on: its
 * insertion finds a job's place whatever the rank, but the O(1) cases need
 * the ranks): every live periodic task's below the lists' count, and a
 * longer relative deadline (or an equal one and a later creation) ranks
 * lower. Read at the start of the creator's job, once its release has been
 * queued (a rebuild, if one was due, is done then). */
static unsigned long rank_checks;

static bool ranks_ordered(void)
{
    takt_task_t *periodic[MAX_WORKERS + 1];
    unsigned n = 0;
    for (unsigned i = 0; i < created; i++) {
        if (workers[i].task != NULL) {
            periodic[n++] = workers[i].task;
        }
    }
    periodic[n++] = takt_task_self();
    for (unsigned i = 0; i < n; i++) {
        if (periodic[i]->list_index >= TAKT_CONFIG_MAX_TASKS) {
            return false;
        }
        for (unsigned j = 0; j < n; j++) {
            const takt_task_t *a = periodic[i], *b = periodic[j];
            bool a_lower = a->rel_deadline > b->rel_deadline ||
                           (a->rel_deadline == b->rel_deadline && a->id > b->id);
            if (a_lower && a->list_index >= b->list_index) {
                return false;
            }
        }
    }
    rank_checks++;
    return true;
}

static void creator_body(void *arg)
{
    (void)arg;
    static const takt_tick_t periods[] = {4, 5, 6, 8, 10};
    static char names[MAX_WORKERS][8];
    for (;;) {
        if (scheduler == TAKT_SCHED_EDF_MLIST && !CHECK(ranks_ordered())) {
            fprintf(stderr, "  EDF-L ranks out of order at tick %u\n", (unsigned)h_now_ticks());
        }
        uint32_t r = xorshift32(&creator_state);
        bool full = live == (long_set ? LONG_LIVE_MAX : LIVE_MAX);
        if (live > 0 && (full || (!long_set && r % 4u == 0))) {
            /* the oldest live worker goes */
            for (unsigned i = 0; i < created; i++) {
                if (workers[i].task != NULL) {
                    CHECK_EQ(takt_task_delete(workers[i].task), TAKT_OK);
                    workers[i].task = NULL;
                    live--;
                    deletes++;
                    break;
                }
            }
        } else if (created < MAX_WORKERS) {
            worker_t *w = &workers[created];
            w->seed = xorshift32(&creator_state) | 1u;
            takt_tick_t period = periods[xorshift32(&creator_state) % 5u] * (long_set ? 8u : 1u);
            /* few deadline values: equal ranks are common */
            static const takt_tick_t deadlines[] = {2, 3, 4, 6, 9};
            takt_tick_t deadline = long_set ? 2u + xorshift32(&creator_state) % 30u
                                            : deadlines[xorshift32(&creator_state) % 5u];
            snprintf(names[created], sizeof(names[created]), "W%u", created);
            w->task = h_periodic(names[created], 1, worker_body, w, period, deadline, 0);
            created++;
            live++;
        }
        CHECK_EQ(takt_job_end(), TAKT_OK);
    }
}

static uint32_t set_state;

static void scenario_random(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = scheduler, .tick_start = tick0};
    h_begin_params(&init, long_set ? 300 : 90);
    created = 0;
    live = 0;
    creator_state = set_state | 1u;
    memset(workers, 0, sizeof(workers));
    h_periodic("creator", 1, creator_body, NULL, long_set ? 2u : 2u + set_state % 3u, 1, 0);
    h_run();
}

#if HP_SUBTICK_WORK
#define RANDOM_SETS 300u
#else
#define RANDOM_SETS 6u
#endif

/* The set's run under one queue (edf_compare_queues runs it under each). */
static void run_set(takt_scheduler_t queue, uint32_t set)
{
    scheduler = queue;
    set_state = set * 2654435761u + 7u;
    scenario_random(set % 2u == 0 ? 0u : WRAP_START);
}

int main(void)
{
    unsigned long creations = 0;
    for (uint32_t set = 0; set < RANDOM_SETS; set++) {
        long_set = HP_SUBTICK_WORK && set % 10u == 9u;
        edf_compare_queues(set, run_set);
        creations += created;
    }
    /* The runs went through what they are for. */
    CHECK(creations > RANDOM_SETS * 10u);
    CHECK(deletes > RANDOM_SETS);
    CHECK(rank_checks > RANDOM_SETS * 10u);
    fprintf(stderr, "%u sets: %lu tasks created, %lu deleted (per queue)\n", (unsigned)RANDOM_SETS,
            creations, deletes / 3u);
    return CHECK_SUMMARY();
}
