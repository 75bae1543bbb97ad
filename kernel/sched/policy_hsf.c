/*
 * Hierarchical scheduling (hsf): fixed priority over servers, fixed priority
 * over each server's tasks. Each server owns an fp ready queue (fp_queue.h);
 * the global level is a bitmap over the servers' ranks — their places in the
 * order (priority, then creation) — holding the servers with budget and,
 * for a deferrable server, a ready task. The pick is the highest rank, then
 * the head of that server's queue: two bitmap lookups whatever the number of
 * servers. The running task stays in its server's queue (sched/policy.h), so
 * a deferrable server whose task runs is eligible through its queue,
 * and a preemption, by a task of the same server or of a server above, moves
 * nothing between queues.
 *
 * Budget: the tick charges the running server (one pointer, hsf.running) and
 * clears its bit when the budget reaches 0; replenishments are timers in the
 * kernel's timer queue (services/server.c). Neither scans the servers.
 */
#include "../internal.h"
#include "hsf.h"
#include "policy_ops.h"

#if TAKT_CONFIG_MAX_SERVERS > TAKT_CONFIG_MAX_PRIORITIES
#define TAKT_BITMAP_LEVELS TAKT_CONFIG_MAX_SERVERS
#else
#define TAKT_BITMAP_LEVELS TAKT_CONFIG_MAX_PRIORITIES
#endif
#include "ds/bitmap.h"
#include "fp_queue.h"

static struct {
    takt_bitmap_t eligible; /* by rank */
    takt_server_t *by_rank[TAKT_CONFIG_MAX_SERVERS];
    unsigned count;
    takt_server_t *running; /* NULL: the idle server */
    takt_task_t *idle;      /* the idle task while it is ready (not running) */
} hsf;

static fp_queue_t queues[TAKT_CONFIG_MAX_SERVERS]; /* by server index */

static fp_queue_t *queue_of(const takt_server_t *server)
{
    return &queues[server->index];
}

/* Eligible: budget left, and for a deferrable server a task in its queue (the
 * running one included). */
static bool listed(const takt_server_t *server)
{
    return server->remaining > 0 &&
           (server->type == TAKT_SERVER_IDLING || !fp_queue_empty(queue_of(server)));
}

static void update_listing(const takt_server_t *server)
{
    if (listed(server)) {
        takt_bitmap_set(&hsf.eligible, server->rank);
    } else {
        takt_bitmap_clear(&hsf.eligible, server->rank);
    }
}

/* The highest eligible server, or NULL (the idle server runs). */
static takt_server_t *top_server(void)
{
    return takt_bitmap_empty(&hsf.eligible) ? NULL
                                            : hsf.by_rank[takt_bitmap_highest(&hsf.eligible)];
}

void hsf_init(void)
{
    takt_bitmap_init(&hsf.eligible);
    hsf.count = 0;
    hsf.running = NULL;
    hsf.idle = NULL;
}

void hsf_insert(takt_task_t *task, takt_ready_how_t how)
{
    if (task->flags & TAKT_TASK_F_IDLE) {
        hsf.idle = task;
        return;
    }
    takt_server_t *server = task->server;
    fp_queue_insert(queue_of(server), task, how);
    if (server->remaining > 0) {
        takt_bitmap_set(&hsf.eligible, server->rank);
    }
}

void hsf_remove(takt_task_t *task)
{
    if (task->flags & TAKT_TASK_F_IDLE) {
        hsf.idle = NULL;
        return;
    }
    takt_server_t *server = task->server;
    fp_queue_remove(queue_of(server), task);
    if (server->type == TAKT_SERVER_DEFERRABLE && fp_queue_empty(queue_of(server))) {
        takt_bitmap_clear(&hsf.eligible, server->rank);
    }
}

/* The top server's first task; its idle (the idle task) when it has none. */
takt_task_t *hsf_peek(void)
{
    takt_server_t *top = top_server();
    if (top != NULL) {
        takt_task_t *head = fp_queue_peek(queue_of(top));
        if (head != NULL) {
            return head;
        }
    }
    return hsf.idle;
}

/* candidate is the top server's (hsf_peek). The running task keeps the
 * processor while its server is the top one and the candidate is not of a
 * higher local priority; the idle task runs for hsf.running. */
bool hsf_preempts(const takt_task_t *candidate, const takt_task_t *running)
{
    const takt_server_t *own = running->server != NULL ? running->server : hsf.running;
    return top_server() != own || candidate->priority > running->priority;
}

/* Waiters in the global order: a task of a higher-ranked server first, then
 * by (effective) priority within one server. Inheritance raises a holder's
 * priority inside its own server only: it does not lend budget across servers. */
bool hsf_waits_before(const takt_task_t *a, const takt_task_t *b)
{
    if (a->server != b->server) {
        return a->server->rank > b->server->rank;
    }
    return a->priority > b->priority;
}

/* The running task is in its level's list of its server's queue: another
 * task there is one of its neighbours, so its own links tell. */
bool hsf_has_equal(const takt_task_t *running)
{
    if (running->server == NULL) {
        return false; /* the idle task */
    }
    return !fp_queue_alone(running);
}

void hsf_move_behind_equals(takt_task_t *running)
{
    if (running->server != NULL) { /* the idle task has no equals */
        fp_queue_move_to_back(queue_of(running->server), running);
    }
}

/* Step 1 of an instant: the server that ran during the tick pays for it. */
void hsf_tick(void)
{
    takt_server_t *server = hsf.running;
    if (server == NULL) {
        return;
    }
    if (__builtin_expect(server->remaining == 0, 0)) {
        /* Depleted, yet its task still runs: it holds the scheduler lock
         * (its switch waits for the unlock), or these are lost ticks caught
         * up at once (takt_tick_catch_up). An overrun, not budget: the
         * budget stays spent, and the switch comes when the task allows. */
        server->overrun_ticks++;
        return;
    }
    server->budget_consumed++;
    server->remaining--;
    if (server->remaining == 0) {
        server->depletions++;
        trace_record_id(TAKT_EV_SERVER_DEPLETE, server->index, 0);
        takt_bitmap_clear(&hsf.eligible, server->rank);
        sched_reschedule(); /* its task (or its idle) must stop */
    }
}

/* The server next runs for: its own, or for the idle task the top server
 * (an idling server with no ready task) or none. */
void hsf_dispatching(takt_task_t *next)
{
    takt_server_t *now = next->server != NULL ? next->server : top_server();
    if (now != hsf.running) {
        hsf.running = now;
        trace_record_id(TAKT_EV_SERVER_SWITCH, now != NULL ? now->index : TAKT_TRACE_NO_TASK,
                        now != NULL ? now->remaining : 0u);
    }
}

const takt_policy_t takt_policy_hsf = TAKT_POLICY_HSF_TABLE;

unsigned hsf_server_count(void)
{
    return hsf.count;
}

takt_server_t *hsf_server_by_rank(unsigned rank)
{
    return hsf.by_rank[rank];
}

void hsf_server_added(takt_server_t *server)
{
    KASSERT(hsf.count < TAKT_CONFIG_MAX_SERVERS);
    fp_queue_init(queue_of(server));
    /* Below every server of its priority (they were created before it), above
     * every lower priority; the ranks above move up by one. */
    unsigned rank = 0;
    while (rank < hsf.count && hsf.by_rank[rank]->priority < server->priority) {
        rank++;
    }
    for (unsigned r = hsf.count; r > rank; r--) {
        hsf.by_rank[r] = hsf.by_rank[r - 1];
        hsf.by_rank[r]->rank = (uint16_t)r;
    }
    hsf.by_rank[rank] = server;
    server->rank = (uint16_t)rank;
    hsf.count++;
    takt_bitmap_init(&hsf.eligible);
    for (unsigned r = 0; r < hsf.count; r++) {
        update_listing(hsf.by_rank[r]);
    }
}

void hsf_budget_changed(takt_server_t *server)
{
    update_listing(server);
}

takt_server_t *hsf_running(void)
{
    return hsf.running;
}

void hsf_forget_servers(void)
{
    hsf_init();
}
