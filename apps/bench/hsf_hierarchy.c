/* The hsf benchmarks' server hierarchy and tick classes (hsf_hierarchy.h). */
#include "hsf_hierarchy.h"

const char *const hsf_case_names[CASE_COUNT] = {"quiet", "deplete", "replenish"};

static unsigned n_servers;
static takt_tick_t period;
static takt_server_t *servers[HSF_MAX_SERVERS];
static takt_task_t *tasks[HSF_MAX_SERVERS];

takt_tick_t hsf_period(unsigned n)
{
    return 4u * n;
}

int hsf_hierarchy_create(unsigned n, void (*entry)(void *), size_t stack_size,
                         unsigned *failed_server)
{
    n_servers = 0;
    period = hsf_period(n);
    for (unsigned i = 0; i < n && i < HSF_MAX_SERVERS; i++) {
        bool idling = i % 2u == 0;
        takt_server_params_t sp = {.name = "S", .priority = 1u + i % 254u, .period = period,
                                   .budget = idling ? 3u : 2u, .offset = 4u * i,
                                   .type = idling ? TAKT_SERVER_IDLING : TAKT_SERVER_DEFERRABLE};
        takt_task_params_t tp = {.name = "T", .entry = entry, .priority = 1,
                                 .stack_size = stack_size, .period = period, .wcet = 1,
                                 .offset = 4u * i + 2u};
        int rc = takt_server_create(&sp, &servers[i]);
        if (rc == TAKT_OK) {
            rc = takt_server_task_create(servers[i], &tp, &tasks[i]);
        }
        if (rc != TAKT_OK) {
            *failed_server = i;
            return rc;
        }
        n_servers = i + 1u;
    }
    return TAKT_OK;
}

int hsf_classify_next_tick(void)
{
    takt_tick_t t = takt_tick_count() + 1u;
    if (t < period || t >= 3u * period) {
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

hsf_totals_t hsf_totals(void)
{
    hsf_totals_t t = {0, 0, 0, 0};
    for (unsigned i = 0; i < n_servers; i++) {
        takt_server_stats_t st;
        takt_server_stats(servers[i], &st);
        t.replenishments += st.replenishments;
        t.depletions += st.depletions;
        t.misses += st.deadline_misses;
        t.releases += takt_task_jobs_released(tasks[i]);
    }
    return t;
}

bool hsf_tick_matches_class(int c, const hsf_totals_t *before, const hsf_totals_t *after)
{
    return after->releases == before->releases && after->misses == before->misses &&
           after->replenishments - before->replenishments == (c == CASE_REPLENISH ? 1u : 0u) &&
           after->depletions - before->depletions == (c == CASE_DEPLETE ? 1u : 0u);
}
