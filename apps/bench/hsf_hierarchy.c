/* The hsf benchmarks' server hierarchy and tick classes (hsf_hierarchy.h). */
#include "hsf_hierarchy.h"

const char *const hsf_case_names[CASE_COUNT] = {"quiet", "deplete", "replenish"};

unsigned hsf_n_servers;
takt_tick_t hsf_period_ticks;
takt_server_t *hsf_servers[HSF_MAX_SERVERS];
takt_task_t *hsf_tasks[HSF_MAX_SERVERS];

takt_tick_t hsf_period(unsigned n)
{
    return 4u * n;
}

int hsf_hierarchy_create(unsigned n, void (*entry)(void *), size_t stack_size,
                         unsigned *failed_server)
{
    hsf_n_servers = 0;
    hsf_period_ticks = hsf_period(n);
    for (unsigned i = 0; i < n && i < HSF_MAX_SERVERS; i++) {
        bool idling = i % 2u == 0;
        takt_server_params_t sp = {.name = "S", .priority = 1u + i % 254u,
                                   .period = hsf_period_ticks, .budget = idling ? 3u : 2u, .offset = 4u * i,
                                   .type = idling ? TAKT_SERVER_IDLING : TAKT_SERVER_DEFERRABLE};
        takt_task_params_t tp = {.name = "T", .entry = entry, .priority = 1,
                                 .stack_size = stack_size, .period = hsf_period_ticks, .wcet = 1,
                                 .offset = 4u * i + 2u};
        int rc = takt_server_create(&sp, &hsf_servers[i]);
        if (rc == TAKT_OK) {
            rc = takt_server_task_create(hsf_servers[i], &tp, &hsf_tasks[i]);
        }
        if (rc != TAKT_OK) {
            *failed_server = i;
            return rc;
        }
        hsf_n_servers = i + 1u;
    }
    return TAKT_OK;
}
