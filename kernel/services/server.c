/*
 * Servers: creation, tasks inside servers, replenishment timers, budget and
 * statistics queries. The scheduling itself (eligibility, the global and
 * local picks, budget accounting in the tick) is the hsf policy's
 * (sched/policy_hsf.c).
 */
#include <string.h>

#include "../internal.h"
#include "../sched/hsf.h"

static bool server_valid(const takt_server_t *server)
{
    return server != NULL && server->magic == TAKT_SERVER_MAGIC;
}

static bool hsf_active(void)
{
    return sched_is_hsf();
}

TAKT_COLD static int check_params(const takt_server_params_t *params)
{
    if (params == NULL || params->period == 0 || params->budget == 0 ||
        params->budget > params->period || params->priority < 1u ||
        params->priority >= TAKT_CONFIG_MAX_PRIORITIES ||
        (unsigned)params->type > TAKT_SERVER_DEFERRABLE) {
        return TAKT_ERR_ARG;
    }
    if (params->period > INT32_MAX || params->offset > INT32_MAX) {
        return TAKT_ERR_ARG; /* keys must stay within the half-range of the timer queue */
    }
    if (!hsf_active()) {
        return TAKT_ERR_STATE;
    }
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    if (hsf_server_count() == TAKT_CONFIG_MAX_SERVERS) {
        return TAKT_ERR_NOMEM;
    }
    return TAKT_OK;
}

static takt_tick_t replenish_time(const takt_server_t *server, uint32_t k)
{
    return server->first_replenish + k * server->period;
}

/* Step 4 of an instant: the budget is set to Q (not accumulated). */
static void replenish_expired(takt_timer_t *timer)
{
    takt_server_t *server = TAKT_CONTAINER_OF(timer, takt_server_t, replenish_timer);
    server->remaining = server->budget;
    server->replenishments++;
    trace_record_id(TAKT_EV_SERVER_REPLENISH, server->index, server->budget);
    timer_arm(&server->replenish_timer, replenish_time(server, server->replenishments));
    hsf_budget_changed(server);
    sched_reschedule();
}

/* Assumptions: kernel lock held, check_params passed. */
static void server_setup(takt_server_t *server, const takt_server_params_t *params, bool dynamic)
{
    memset(server, 0, sizeof(*server));
    server->index = (uint16_t)hsf_server_count();
    timer_init_early(&server->replenish_timer, replenish_expired, server->index);
    server->magic = TAKT_SERVER_MAGIC;
    server->priority = (uint16_t)params->priority;
    server->type = (uint8_t)params->type;
    server->dynamic = dynamic ? 1u : 0u;
    server->period = params->period;
    server->budget = params->budget;
    if (params->name != NULL) {
        strncpy(server->name, params->name, sizeof(server->name) - 1u);
    }
    hsf_server_added(server);
    server->first_replenish = takt_kernel.ticks + params->offset;
    timer_arm(&server->replenish_timer, server->first_replenish);
    if (takt_kernel.started && params->offset == 0) {
        /* A replenishment due now must not wait for the next tick. */
        timer_cancel(&server->replenish_timer);
        replenish_expired(&server->replenish_timer);
    }
}

TAKT_COLD int takt_server_create_static(const takt_server_params_t *params, takt_server_t *server)
{
    if (server == NULL) {
        return TAKT_ERR_ARG;
    }
    int err = check_params(params);
    if (err != TAKT_OK) {
        return err;
    }
    port_critical_t key = cold_critical_enter();
    if (sync_memory_in_use(server, sizeof(*server))) {
        cold_critical_exit(key);
        return TAKT_ERR_STATE; /* a live server's, task's or object's memory */
    }
    server_setup(server, params, false);
    cold_critical_exit(key);
    return TAKT_OK;
}

TAKT_COLD int takt_server_create(const takt_server_params_t *params, takt_server_t **out)
{
    if (out == NULL) {
        return TAKT_ERR_ARG;
    }
    int err = check_params(params);
    if (err != TAKT_OK) {
        return err;
    }
#if TAKT_CONFIG_DYNAMIC_ALLOCATION
    takt_server_t *server = TAKT_CONFIG_MALLOC(sizeof(takt_server_t));
    if (server == NULL) {
        return TAKT_ERR_NOMEM;
    }
    port_critical_t key = cold_critical_enter();
    server_setup(server, params, true);
    cold_critical_exit(key);
    *out = server;
    return TAKT_OK;
#else
    return TAKT_ERR_NOMEM;
#endif
}

TAKT_COLD int takt_server_task_create(takt_server_t *server, const takt_task_params_t *params,
                            takt_task_t **out)
{
    if (!server_valid(server)) {
        return TAKT_ERR_ARG;
    }
    return task_create_in(server, params, out);
}

TAKT_COLD int takt_server_task_create_static(takt_server_t *server, const takt_task_params_t *params,
                                   takt_task_t *tcb, void *stack, size_t stack_size)
{
    if (!server_valid(server)) {
        return TAKT_ERR_ARG;
    }
    return task_create_static_in(server, params, tcb, stack, stack_size);
}

int32_t takt_server_remaining_budget(const takt_server_t *server)
{
    if (!hsf_active()) {
        return TAKT_ERR_STATE;
    }
    port_critical_t key = port_critical_enter();
    const takt_server_t *target = server != NULL ? server : hsf_running();
    int32_t result = TAKT_ERR_ARG;
    if (target == NULL) {
        result = 0; /* the idle server has no budget */
    } else if (server_valid(target)) {
        result = (int32_t)target->remaining;
    }
    port_critical_exit(key);
    return result;
}

int takt_server_stats(const takt_server_t *server, takt_server_stats_t *stats)
{
    if (!server_valid(server) || stats == NULL) {
        return TAKT_ERR_ARG;
    }
    port_critical_t key = port_critical_enter();
    stats->budget_consumed = server->budget_consumed;
    stats->depletions = server->depletions;
    stats->overrun_ticks = server->overrun_ticks;
    stats->replenishments = server->replenishments;
    stats->deadline_misses = server->deadline_misses;
    port_critical_exit(key);
    return TAKT_OK;
}

takt_server_t *takt_server_running(void)
{
    return hsf_active() ? hsf_running() : NULL;
}

int takt_server_index(const takt_server_t *server)
{
    return server_valid(server) ? (int)server->index : -1;
}

const char *takt_server_name(const takt_server_t *server)
{
    return server_valid(server) ? server->name : NULL;
}

TAKT_COLD bool server_memory_in_use(const void *memory, size_t size)
{
    for (unsigned r = 0; r < hsf_server_count(); r++) {
        if (memory_ranges_overlap(memory, size, hsf_server_by_rank(r), sizeof(takt_server_t))) {
            return true;
        }
    }
    return false;
}

void server_teardown(void)
{
    for (unsigned r = 0; r < hsf_server_count(); r++) {
        takt_server_t *server = hsf_server_by_rank(r);
        server->magic = 0;
#if TAKT_CONFIG_DYNAMIC_ALLOCATION
        if (server->dynamic) {
            TAKT_CONFIG_FREE(server);
        }
#endif
    }
    hsf_forget_servers();
}
