/*
 * The server hierarchy both hsf tick benchmarks measure (the sim's callgrind
 * program apps/bench/hsf_tick_bench.c and the Cortex-M program
 * apps/bench/target/hsf_costs.c), and the class of each tick in it.
 *
 * N servers, server i with priority 1 + i % 254, period 4N, offset 4i,
 * idling (budget 3) for even i, deferrable (budget 2) for odd i, each with one
 * periodic task (period 4N, offset 4i + 2, one tick of work). So tick t brings
 * exactly one replenishment when t % 4 == 0, the releases when t % 4 == 2, and
 * no timer at all otherwise; an idling server depletes at 4i + 3. Ticks of the
 * second and third period are measured; the kernel starts at tick 0.
 */
#ifndef TAKT_BENCH_HSF_HIERARCHY_H
#define TAKT_BENCH_HSF_HIERARCHY_H

#include <stdbool.h>
#include <stddef.h>

#include "takt/takt.h"

#define HSF_MAX_SERVERS 256u

enum { CASE_QUIET, CASE_DEPLETE, CASE_REPLENISH, CASE_COUNT, CASE_NONE = -1 };
extern const char *const hsf_case_names[CASE_COUNT];

/* The period of every server and task for n servers; the measured ticks run
 * up to 3 periods. */
takt_tick_t hsf_period(unsigned n);

/* Creates the n servers and their tasks (entry: the tasks' job loop). Returns
 * TAKT_OK, or the failing call's status with *failed_server set. */
int hsf_hierarchy_create(unsigned n, void (*entry)(void *), size_t stack_size,
                         unsigned *failed_server);

/* The hierarchy hsf_hierarchy_create made (read by the inline functions below). */
extern unsigned hsf_n_servers;
extern takt_tick_t hsf_period_ticks;
extern takt_server_t *hsf_servers[HSF_MAX_SERVERS];
extern takt_task_t *hsf_tasks[HSF_MAX_SERVERS];

/* The rest is inline, as it was in each program: it runs in the wrapped tick
 * handler around the measured window, so the code the compiler arranges
 * around the window stays as it was measured. */

/* The class of the coming tick (tick count + 1), or CASE_NONE (not measured). */
static inline int hsf_classify_next_tick(void)
{
    takt_tick_t t = takt_tick_count() + 1u;
    if (t < hsf_period_ticks || t >= 3u * hsf_period_ticks) {
        return CASE_NONE;
    }
    switch (t % 4u) {
    case 0:
        return CASE_REPLENISH;
    case 2:
        return CASE_NONE;
    default:
        return takt_server_remaining_budget(NULL) == 1 ? CASE_DEPLETE : CASE_QUIET;
    }
}

/* What the servers and tasks have done so far; O(servers), so taken outside
 * the measured functions. */
typedef struct {
    uint64_t replenishments, depletions, releases, misses;
} hsf_totals_t;

static inline hsf_totals_t hsf_totals(void)
{
    hsf_totals_t t = {0, 0, 0, 0};
    for (unsigned i = 0; i < hsf_n_servers; i++) {
        takt_server_stats_t st;
        takt_server_stats(hsf_servers[i], &st);
        t.replenishments += st.replenishments;
        t.depletions += st.depletions;
        t.misses += st.deadline_misses;
        t.releases += takt_task_jobs_released(hsf_tasks[i]);
    }
    return t;
}

/* True if a tick of class c did exactly its class's work between before and after. */
static inline bool hsf_tick_matches_class(int c, hsf_totals_t before, hsf_totals_t after)
{
    return after.releases == before.releases && after.misses == before.misses &&
           after.replenishments - before.replenishments == (c == CASE_REPLENISH ? 1u : 0u) &&
           after.depletions - before.depletions == (c == CASE_DEPLETE ? 1u : 0u);
}

#endif
