/*
 * Synchronisation inside servers (hsf scheduler) on the sim port:
 * - a task of a deferrable server that blocks on a semaphore, a queue or an
 *   event group makes its server ineligible and keeps the budget; lower
 *   servers run; a give from another server's task or from an interrupt makes
 *   the server eligible again and it preempts at once; a depletion while the
 *   woken task runs holds it until the replenishment;
 * - an idling server whose only task blocks burns its budget on its idle, and
 *   a task woken in a depleted server waits for the replenishment;
 * - a timeout that ends while the server has no budget: the task is ready but
 *   runs only after the replenishment;
 * - waiters of several servers are served by server rank, then local priority
 *   (the hsf policy's waits_before), not by local priority alone;
 * - priority inheritance between the tasks of one server.
 * Scenarios run with the tick counter at 0, below 2^32 and below 2^31 (h_both).
 */
#include "hsf_common.h"

typedef enum { KIND_SEM, KIND_QUEUE, KIND_EVENTS, KIND_COUNT } kind_t;

static const char *const kind_names[] = {"sem", "queue", "events"};

static kind_t kind;
static takt_sem_t *sem;
static takt_queue_t *queue;
static takt_event_group_t *events;

static char log_buf[1024];
static size_t log_len;

static void log_reset(void)
{
    log_len = 0;
    log_buf[0] = '\0';
}

static void log_add(const char *what, long value)
{
    if (log_len + 64 >= sizeof(log_buf)) {
        return;
    }
    log_len += (size_t)snprintf(log_buf + log_len, sizeof(log_buf) - log_len, "%s%s%ld@%u",
                                log_len ? " " : "", what, value, (unsigned)h_now_ticks());
}

static void objects_create(void)
{
    CHECK_EQ(takt_sem_create(8, 0, &sem), TAKT_OK);
    CHECK_EQ(takt_queue_create(4, sizeof(uint32_t), &queue), TAKT_OK);
    CHECK_EQ(takt_event_group_create(&events), TAKT_OK);
}

static void objects_delete(void)
{
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    CHECK_EQ(takt_event_group_delete(events), TAKT_OK);
}

/* Blocks on the object of the current kind; TAKT_OK once given. */
static int wait_for(takt_tick_t timeout)
{
    uint32_t item = 0;
    switch (kind) {
    case KIND_SEM:
        return takt_sem_take(sem, timeout);
    case KIND_QUEUE:
        return takt_queue_receive(queue, &item, sizeof(item), timeout);
    default:
        return takt_event_group_wait(events, 1u, TAKT_EVENT_CLEAR_ON_EXIT, NULL, timeout);
    }
}

static int give(void)
{
    uint32_t item = 7;
    switch (kind) {
    case KIND_SEM:
        return takt_sem_give(sem);
    case KIND_QUEUE:
        return takt_queue_send(queue, &item, sizeof(item), 0);
    default:
        return takt_event_group_set(events, 1u, NULL);
    }
}

static int isr_rc;
static bool isr_woken;

static void give_isr(void *arg)
{
    (void)arg;
    uint32_t item = 9;
    isr_woken = false;
    switch (kind) {
    case KIND_SEM:
        isr_rc = takt_sem_give_from_isr(sem, &isr_woken);
        break;
    case KIND_QUEUE:
        isr_rc = takt_queue_send_from_isr(queue, &item, sizeof(item), &isr_woken);
        break;
    default:
        isr_rc = takt_event_group_set_from_isr(events, 1u, &isr_woken);
        break;
    }
}

/* ------------------------------------------------- deferrable server blocks */

static takt_server_t *srv_h, *srv_l;

/* In H: each wake-up logs H's budget, then works 1, 1, then 3 ticks. */
static void deferrable_waiter(void *arg)
{
    (void)arg;
    static const uint64_t work[] = {1, 1, 3};
    for (unsigned i = 0; i < 3; i++) {
        CHECK_EQ(wait_for(TAKT_WAIT_FOREVER), TAKT_OK);
        log_add("A", takt_server_remaining_budget(NULL));
        h_work(work[i]);
    }
    log_add("Adone", takt_server_remaining_budget(srv_h));
    h_park();
}

/* In L above B: gives at 7 (H preempts it at once), logs H's kept budget first. */
static void other_server_giver(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(7), TAKT_OK);
    log_add("H", takt_server_remaining_budget(srv_h));
    CHECK(takt_server_running() == srv_l);
    CHECK_EQ(give(), TAKT_OK);
    log_add("G", takt_server_remaining_budget(NULL));
    h_park();
}

static void busy(void *arg)
{
    (void)arg;
    h_work(1000);
    h_park();
}

/*
 * H (priority 2, P 20, Q 4, deferrable): A blocks at 0. L (priority 1, P 20,
 * Q 20, deferrable): G (delay 7, give), B (busy). Interrupt gives at 3 and 10.
 *   0 A blocks: H keeps its 4, L runs (B)
 *   3 interrupt gives: A preempts B with H's 4, works 1, blocks at 4 (H: 3)
 *   7 G gives: A preempts G (H still 3: no budget burnt while blocked)
 *  10 interrupt gives: A (H: 2) works 3, H depletes at 12, B runs
 *  20 replenishment: A finishes at 21 with 3 left.
 */
static void scenario_deferrable_blocks(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = TAKT_SCHED_HSF, .tick_start = tick0};
    h_begin_params(&init, 25);
    log_reset();
    objects_create();
    srv_h = hsf_server("H", 2, 20, 4, 0, TAKT_SERVER_DEFERRABLE);
    srv_l = hsf_server("L", 1, 20, 20, 0, TAKT_SERVER_DEFERRABLE);
    hsf_task(srv_h, "A", 1, deferrable_waiter, NULL);
    hsf_task(srv_l, "G", 2, other_server_giver, NULL);
    hsf_task(srv_l, "B", 1, busy, NULL);
    hp_inject_irq(T(3), 1, give_isr, NULL);
    hp_inject_irq(T(10), 1, give_isr, NULL);
    h_start();
    CHECK_STREQ(log_buf, "A4@3 H3@7 A3@7 G14@8 A2@10 Adone3@21");
    CHECK_EQ(isr_rc, TAKT_OK);
    CHECK(isr_woken);
    /* A=1 G=2 B=3; idle 0 */
    CHECK_STREQ(h_dispatches(), "0:1 0:2 0:3 3:1 4:3 7:2 7:1 8:2 8:3 10:1 12:3 20:1 21:3");
    CHECK_STREQ(h_events(TAKT_EV_SERVER_DEPLETE, false), "12:0");
    CHECK_STREQ(h_events(TAKT_EV_SERVER_SWITCH, true),
                "0:0/4 0:1/20 3:0/4 4:1/17 7:0/3 8:1/14 10:0/2 12:1/12 20:0/4 21:1/20");
    takt_server_stats_t st;
    CHECK_EQ(takt_server_stats(srv_h, &st), TAKT_OK);
    CHECK_EQ(st.budget_consumed, 5u);
    CHECK_EQ(st.depletions, 1u);
    CHECK_EQ(takt_server_stats(srv_l, &st), TAKT_OK);
    CHECK_EQ(st.depletions, 0u);
    CHECK_EQ(st.budget_consumed, 19u); /* 16 before 20, then 21..24 (the run ends at 25) */
    objects_delete();
    h_end();
}

/* --------------------------------------------------- idling server blocks */

static void idling_waiter(void *arg)
{
    (void)arg;
    CHECK_EQ(wait_for(TAKT_WAIT_FOREVER), TAKT_OK);
    log_add("A", takt_server_remaining_budget(NULL));
    h_park();
}

/*
 * H idling (priority 2, P 20, Q 4): its only task A blocks at 0, so the idle
 * task runs for H and burns its budget (depletion at 4); then L runs. The
 * interrupt at 10 wakes A in a depleted server: A waits for the
 * replenishment at 20.
 */
static void scenario_idling_blocks(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = TAKT_SCHED_HSF, .tick_start = tick0};
    h_begin_params(&init, 25);
    log_reset();
    objects_create();
    srv_h = hsf_server("H", 2, 20, 4, 0, TAKT_SERVER_IDLING);
    srv_l = hsf_server("L", 1, 20, 20, 0, TAKT_SERVER_DEFERRABLE);
    hsf_task(srv_h, "A", 1, idling_waiter, NULL);
    hsf_task(srv_l, "B", 1, busy, NULL);
    hp_inject_irq(T(10), 1, give_isr, NULL);
    h_start();
    CHECK_STREQ(log_buf, "A4@20");
    CHECK_STREQ(h_dispatches(), "0:1 0:0 4:2 20:1 20:0 24:2");
    CHECK_STREQ(h_events(TAKT_EV_SERVER_DEPLETE, false), "4:0 24:0");
    CHECK(isr_woken == false); /* no task can run before the replenishment */
    objects_delete();
    h_end();
}

/* ------------------------------------------------- timeout while depleted */

static void timeout_waiter(void *arg)
{
    (void)arg;
    h_work(3);
    CHECK_EQ(wait_for(10), TAKT_ERR_TIMEOUT); /* from 3: the timeout ends at 13 */
    log_add("timeout", takt_server_remaining_budget(NULL));
    h_park();
}

static void timeout_burner(void *arg)
{
    (void)arg;
    h_work(4); /* 3..4 depletes H; the rest after 20 */
    log_add("burner", takt_server_remaining_budget(NULL));
    h_park();
}

/*
 * H deferrable (P 20, Q 4): A works 3 and waits with timeout 10; C (lower in
 * H) burns the last tick: H depleted at 4. A's timeout at 13 makes it ready
 * in a depleted server: L keeps running until 20, then A (higher in H).
 */
static void scenario_timeout_depleted(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = TAKT_SCHED_HSF, .tick_start = tick0};
    h_begin_params(&init, 30);
    log_reset();
    objects_create();
    srv_h = hsf_server("H", 2, 20, 4, 0, TAKT_SERVER_DEFERRABLE);
    srv_l = hsf_server("L", 1, 20, 20, 0, TAKT_SERVER_DEFERRABLE);
    hsf_task(srv_h, "A", 2, timeout_waiter, NULL);
    hsf_task(srv_h, "C", 1, timeout_burner, NULL);
    hsf_task(srv_l, "B", 1, busy, NULL);
    h_start();
    CHECK_STREQ(log_buf, "timeout4@20 burner1@23");
    CHECK_STREQ(h_dispatches(), "0:1 3:2 4:3 20:1 20:2 23:3");
    CHECK_EQ(h_count(TAKT_EV_WAIT_TIMEOUT, 1), 1u);
    long timeout_at = h_find(TAKT_EV_WAIT_TIMEOUT, 1, 0);
    CHECK(timeout_at >= 0 && h_log[timeout_at].stamp == T(13));
    objects_delete();
    h_end();
}

/* ------------------------------------------------- waiters across servers */

static void order_waiter(void *arg)
{
    CHECK_EQ(wait_for(TAKT_WAIT_FOREVER), TAKT_OK);
    log_add((const char *)arg, 0);
    h_park();
}

static void order_giver(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(5), TAKT_OK);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(give(), TAKT_OK);
        h_work(1);
    }
    h_park();
}

/*
 * Servers LO (priority 1), MID (2, first budget at 1), HI (3, first budget at
 * 2): the waiters block in the order lo(local 5) at 0, mid(local 1) at 1,
 * hi_b(local 2) then hi_a(local 1) at 2. The giver (in LO, local 1) gives
 * four times from 5: the waiters are served by server rank, then local
 * priority — hi_b, hi_a, mid, lo — although lo has the highest local priority.
 * (Event groups serve every satisfied waiter at once, so the order is checked
 * for the semaphore and the queue.)
 */
static void scenario_waiter_order(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = TAKT_SCHED_HSF, .tick_start = tick0};
    h_begin_params(&init, 12);
    log_reset();
    objects_create();
    takt_server_t *lo = hsf_server("LO", 1, 100, 100, 0, TAKT_SERVER_DEFERRABLE);
    takt_server_t *mid = hsf_server("MID", 2, 100, 50, 1, TAKT_SERVER_DEFERRABLE);
    takt_server_t *hi = hsf_server("HI", 3, 100, 50, 2, TAKT_SERVER_DEFERRABLE);
    hsf_task(lo, "lo", 5, order_waiter, "lo");
    hsf_task(lo, "giver", 1, order_giver, NULL);
    hsf_task(mid, "mid", 1, order_waiter, "mid");
    hsf_task(hi, "hi_a", 1, order_waiter, "hi_a");
    hsf_task(hi, "hi_b", 2, order_waiter, "hi_b");
    h_start();
    CHECK_STREQ(log_buf, "hi_b0@5 hi_a0@6 mid0@7 lo0@8");
    /* blocking order: lo at 0 (and the giver's delay), mid at 1, hi_b and hi_a at 2 */
    CHECK_STREQ(h_events(TAKT_EV_BLOCK, false), "0:1 0:2 1:3 2:5 2:4");
    objects_delete();
    h_end();
}

/* ------------------------------------------------- inheritance in a server */

static takt_mutex_t *mtx;

static void inh_low(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(mtx, 0), TAKT_OK);
    h_work(3);
    log_add("L", takt_task_get_priority(NULL));
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    log_add("L", takt_task_get_priority(NULL));
    h_park();
}

static void inh_mid(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    h_work(2);
    log_add("M", 0);
    h_park();
}

static void inh_high(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(mtx, TAKT_WAIT_FOREVER), TAKT_OK);
    log_add("H", 0);
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    h_park();
}

/*
 * One server S (local priorities L 1, M 2, H 3) above another server O with a
 * busy task: L locks at 0; at 1 H blocks on the mutex and L inherits 3, so M
 * (ready at 1) waits; L unlocks at 3, H runs, then M, then L. O runs only
 * when S has nothing ready (deferrable S).
 */
static void scenario_inheritance(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = TAKT_SCHED_HSF, .tick_start = tick0};
    h_begin_params(&init, 10);
    log_reset();
    CHECK_EQ(takt_mutex_create(0, &mtx), TAKT_OK);
    takt_server_t *s = hsf_server("S", 2, 50, 20, 0, TAKT_SERVER_DEFERRABLE);
    takt_server_t *o = hsf_server("O", 1, 50, 50, 0, TAKT_SERVER_DEFERRABLE);
    hsf_task(s, "L", 1, inh_low, NULL);
    hsf_task(s, "M", 2, inh_mid, NULL);
    hsf_task(s, "H", 3, inh_high, NULL);
    hsf_task(o, "O", 1, busy, NULL);
    h_start();
    CHECK_STREQ(log_buf, "L3@3 H0@3 M0@5 L1@5");
    CHECK_STREQ(h_events(TAKT_EV_PRIORITY, true), "1:1/3 3:1/1");
    CHECK_STREQ(h_dispatches(), "0:3 0:2 0:1 1:3 1:1 3:3 3:2 5:1 5:4");
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_OK);
    h_end();
}

/* ------------------------------------------------- soft timers */

static takt_soft_timer_t tick_timer;
static takt_server_t *srv_t;

static void on_timer(takt_soft_timer_t *timer)
{
    (void)timer;
    CHECK(takt_task_self() == takt_soft_timer_task());
    CHECK(takt_server_running() == srv_t);
    log_add("cb", takt_server_remaining_budget(NULL));
    h_work(2);
}

static void pended_call(void *arg1, uint32_t arg2)
{
    (void)arg1;
    log_add("call", (long)arg2);
}

/*
 * Under hsf the timer task needs a server: soft timers and pend calls are
 * refused (TAKT_ERR_STATE, nothing created) until takt_soft_timer_set_server
 * names one, which is refused once the timer task exists.
 */
static void scenario_timer_server_api(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = TAKT_SCHED_HSF, .tick_start = tick0};
    h_begin_params(&init, 2);
    log_reset();
    takt_soft_timer_params_t p = {.name = "t", .period = 3, .callback = on_timer};
    takt_soft_timer_t *dyn = NULL;
    CHECK_EQ(takt_soft_timer_create(&p, &dyn), TAKT_ERR_STATE);
    CHECK(dyn == NULL);
    CHECK_EQ(takt_soft_timer_create_static(&p, &tick_timer), TAKT_ERR_STATE);
    CHECK(takt_soft_timer_name(&tick_timer) == NULL);
    CHECK_EQ(takt_soft_timer_pend_call(pended_call, NULL, 1, 0), TAKT_ERR_STATE);
    CHECK(takt_soft_timer_task() == NULL);
    CHECK_EQ(takt_soft_timer_set_server(NULL), TAKT_ERR_ARG);
    takt_server_t fake;
    memset(&fake, 0, sizeof(fake));
    CHECK_EQ(takt_soft_timer_set_server(&fake), TAKT_ERR_ARG);
    takt_server_t *a = hsf_server("A", 1, 10, 5, 0, TAKT_SERVER_DEFERRABLE);
    srv_t = hsf_server("T", 2, 10, 5, 0, TAKT_SERVER_DEFERRABLE);
    CHECK_EQ(takt_soft_timer_set_server(a), TAKT_OK);
    CHECK_EQ(takt_soft_timer_set_server(srv_t), TAKT_OK); /* the last one counts */
    CHECK_EQ(takt_soft_timer_create_static(&p, &tick_timer), TAKT_OK);
    takt_task_t *daemon = takt_soft_timer_task();
    CHECK(daemon != NULL && daemon->server == srv_t);
    CHECK_EQ(takt_task_get_priority(daemon), TAKT_CONFIG_SOFT_TIMER_PRIORITY);
    CHECK_EQ(takt_soft_timer_set_server(a), TAKT_ERR_STATE);
    CHECK(daemon->server == srv_t);
    CHECK_EQ(takt_soft_timer_delete(&tick_timer, 0), TAKT_OK);
    hsf_task(a, "B", 1, busy, NULL);
    h_run();
}

/*
 * The timer task in deferrable server T (priority 2, P 10, Q 3) above A
 * (priority 1, a busy task). An auto-reload timer of period 4 started at 0
 * fires at 4, 8, 12, ...; each callback works 2 ticks on T's budget: at 4 (T:
 * 3 -> 1), at 8 it has 1 tick, so T depletes at 9 and the callback ends after
 * the replenishment at 10 (10..11); at 12 T has 2 left (12..14: depleted at
 * 14). A pend call made at 1 runs at once (T has budget).
 */
static void starter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_soft_timer_start(&tick_timer, 0), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_soft_timer_pend_call(pended_call, NULL, 5, 0), TAKT_OK);
    h_park();
}

static void scenario_timer_in_server(takt_tick_t tick0)
{
    takt_init_params_t init = {.scheduler = TAKT_SCHED_HSF, .tick_start = tick0};
    h_begin_params(&init, 16);
    log_reset();
    srv_t = hsf_server("T", 2, 10, 3, 0, TAKT_SERVER_DEFERRABLE);
    takt_server_t *a = hsf_server("A", 1, 10, 10, 0, TAKT_SERVER_DEFERRABLE);
    CHECK_EQ(takt_soft_timer_set_server(srv_t), TAKT_OK);
    takt_soft_timer_params_t p = {.name = "t", .period = 4, .auto_reload = true,
                                  .callback = on_timer};
    CHECK_EQ(takt_soft_timer_create_static(&p, &tick_timer), TAKT_OK);
    hsf_task(a, "S", 2, starter, NULL);
    hsf_task(a, "B", 1, busy, NULL);
    h_start();
    CHECK_STREQ(log_buf, "call5@1 cb3@4 cb1@8 cb2@12");
    takt_server_stats_t st;
    CHECK_EQ(takt_server_stats(srv_t, &st), TAKT_OK);
    CHECK_EQ(st.depletions, 2u);
    CHECK_EQ(st.budget_consumed, 6u);
    h_end();
    memset(&tick_timer, 0, sizeof(tick_timer)); /* still active when the run ended */
}

static void each_kind(void (*scenario)(takt_tick_t), const char *name, unsigned kinds)
{
    for (kind = KIND_SEM; kind < (kind_t)kinds; kind++) {
        char full[64];
        snprintf(full, sizeof(full), "%s/%s", name, kind_names[kind]);
        h_both(scenario, full);
    }
}

int main(void)
{
    each_kind(scenario_deferrable_blocks, "deferrable_blocks", KIND_COUNT);
    each_kind(scenario_idling_blocks, "idling_blocks", KIND_COUNT);
    each_kind(scenario_timeout_depleted, "timeout_depleted", KIND_COUNT);
    each_kind(scenario_waiter_order, "waiter_order", KIND_EVENTS);
    h_both(scenario_inheritance, "inheritance");
    h_both(scenario_timer_server_api, "timer_server_api");
    h_both(scenario_timer_in_server, "timer_in_server");
    return CHECK_SUMMARY();
}
