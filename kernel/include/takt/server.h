/*
 * Servers: two-level hierarchical scheduling (SCHEDULING.md "Two-level
 * hierarchical scheduling"). Needs the kernel initialised with the hsf
 * scheduler (takt_init_params_t.scheduler = TAKT_SCHED_HSF).
 *
 * A server has a period P, a budget Q (0 < Q <= P), a priority and a type.
 * Its budget is set to Q at offset + k*P (not accumulated) and drops by one
 * per tick the server runs. The global level runs the highest-priority
 * eligible server (ties: the server created first); the local level runs the
 * server's highest-priority ready task (fixed priority, full preemption, ties
 * first come first served). With no eligible server the idle server runs the
 * idle task.
 *   idling:     eligible while it has budget; with no ready task its budget is
 *               burnt by the idle task running on its behalf.
 *   deferrable: eligible while it has budget and a ready (or running) task;
 *               otherwise it keeps its budget and lets lower servers run.
 * Trace: SERVER_REPLENISH, SERVER_DEPLETE, SERVER_SWITCH (takt/trace.h) carry
 * the server index (creation order, from 0).
 */
#ifndef TAKT_SERVER_H
#define TAKT_SERVER_H

#include "takt/config_check.h"
#include "takt/task.h"
#include "takt/types.h"

typedef enum {
    TAKT_SERVER_IDLING,
    TAKT_SERVER_DEFERRABLE,
} takt_server_type_t;

/*
 * Server control block. Its fields belong to the kernel: applications only
 * allocate it (for takt_server_create_static) and pass pointers to it.
 */
typedef struct takt_server {
    takt_timer_t replenish_timer; /* next offset + k*P */
    uint32_t magic;               /* valid handle while it holds the server magic */
    uint16_t index;               /* creation order: the id in trace events */
    uint16_t rank;                /* place in the global order (higher runs first) */
    uint16_t priority;
    uint8_t type;                 /* takt_server_type_t */
    uint8_t dynamic;              /* control block from the heap */
    takt_tick_t period;
    takt_tick_t budget;           /* Q */
    takt_tick_t remaining;        /* budget left in this period */
    takt_tick_t first_replenish;
    uint32_t replenishments;      /* also the k of the next replenishment */
    uint32_t depletions;
    uint32_t deadline_misses;     /* of its tasks' jobs */
    uint64_t budget_consumed;     /* ticks charged, since creation */
    uint32_t overrun_ticks;       /* ticks run depleted (takt_server_stats_t) */
    char name[TAKT_CONFIG_MAX_NAME_LEN];
} takt_server_t;

typedef struct {
    const char *name;        /* copied; may be NULL */
    unsigned priority;       /* 1 .. TAKT_CONFIG_MAX_PRIORITIES-1, larger runs first */
    takt_tick_t period;      /* P > 0 */
    takt_tick_t budget;      /* Q, 0 < Q <= P */
    takt_tick_t offset;      /* first replenishment, ticks after start (or after creation once started) */
    takt_server_type_t type;
} takt_server_params_t;

typedef struct {
    uint64_t budget_consumed; /* ticks of budget charged (its tasks' and its idle's) */
    uint32_t depletions;      /* times the budget reached 0 */
    uint32_t replenishments;  /* the first one (at the offset) included */
    uint32_t deadline_misses; /* deadline misses of its tasks' jobs */
    /* Ticks its task ran on with the budget spent: it held the scheduler
     * lock past the depletion (the switch waits for the unlock), or lost
     * ticks were caught up (takt_tick_catch_up). Not in budget_consumed. */
    uint32_t overrun_ticks;
} takt_server_stats_t;

/*
 * Creates a server with its control block from the configured heap.
 * Context: task or before start; not from an interrupt. May reschedule.
 * Returns TAKT_OK and the handle in *out; TAKT_ERR_ARG for a null params/out,
 * a period of 0, a budget of 0 or above the period, a priority out of
 * 1..MAX-1, an unknown type, a period or offset above 2^31-1;
 * TAKT_ERR_STATE if the kernel was not initialised with the hsf scheduler;
 * TAKT_ERR_CONTEXT from an interrupt; TAKT_ERR_NOMEM with
 * TAKT_CONFIG_MAX_SERVERS servers already, or if allocation fails.
 * On error nothing changes.
 */
int takt_server_create(const takt_server_params_t *params, takt_server_t **out);

/* As takt_server_create, with a caller-provided control block;
 * TAKT_ERR_ARG for a null server, TAKT_ERR_STATE if its memory holds a live
 * object of any kind, a server, task or stack among them (takt/sync.h). */
int takt_server_create_static(const takt_server_params_t *params, takt_server_t *server);

/*
 * Creates a task inside server (as takt_task_create otherwise: same parameters,
 * same errors). The task's priority is its local priority within the server.
 * TAKT_ERR_ARG for a bad server handle; TAKT_ERR_STATE if the kernel was not
 * initialised with the hsf scheduler.
 */
int takt_server_task_create(takt_server_t *server, const takt_task_params_t *params,
                            takt_task_t **out);

/* As takt_server_task_create, with caller-provided control block and stack. */
int takt_server_task_create_static(takt_server_t *server, const takt_task_params_t *params,
                                   takt_task_t *tcb, void *stack, size_t stack_size);

/*
 * Budget left in the current period, in ticks (>= 0). NULL: the running
 * server (0 while the idle server runs: it has no budget). TAKT_ERR_ARG for a
 * bad handle, TAKT_ERR_STATE if the kernel was not initialised with the hsf
 * scheduler. Any context.
 */
int32_t takt_server_remaining_budget(const takt_server_t *server);

/* Copies the server's counters to *stats. TAKT_ERR_ARG for a bad handle or a
 * null stats. Any context. */
int takt_server_stats(const takt_server_t *server, takt_server_stats_t *stats);

/* The running server; NULL while the idle server runs (or without hsf). Any context. */
takt_server_t *takt_server_running(void);

/* The index trace events carry for this server (creation order, from 0); -1 on a bad handle. */
int takt_server_index(const takt_server_t *server);

const char *takt_server_name(const takt_server_t *server);

#endif
