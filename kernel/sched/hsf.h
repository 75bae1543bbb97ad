/*
 * Between the hsf policy (sched/policy_hsf.c: ready queues, eligibility, the
 * global pick, budget accounting) and the server services (services/server.c:
 * the API, replenishment timers). Assumptions: kernel lock held.
 */
#ifndef TAKT_SCHED_HSF_H
#define TAKT_SCHED_HSF_H

#include "../internal.h"

#define TAKT_SERVER_MAGIC 0x53525652u /* "SRVR" */

/* Servers created since takt_init. */
unsigned hsf_server_count(void);

/* The server of rank r (0 = lowest in the global order), r < hsf_server_count(). */
takt_server_t *hsf_server_by_rank(unsigned rank);

/* A new server (index = hsf_server_count() before the call, no budget yet)
 * joins the global order below the servers of its priority: O(servers). */
void hsf_server_added(takt_server_t *server);

/* The server's budget changed (replenishment): it may have become eligible. */
void hsf_budget_changed(takt_server_t *server);

/* The running server; NULL for the idle server. */
takt_server_t *hsf_running(void);

/* Forgets every server (takt_teardown, after their memory is released). */
void hsf_forget_servers(void);

#endif
