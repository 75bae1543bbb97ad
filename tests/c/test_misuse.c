/*
 * Misuse that must give an error code and change nothing (the project's rule
 * for bad input): calls that would take the caller out of the running set
 * while the scheduler is locked or inside takt_critical_enter, the idle task
 * taking a mutex, the kernel's own timer task deleted, a queue reset or a
 * member removed while its handles wait in a queue set, a set too small for
 * its members, handles of one object type given to another's calls, a
 * static create over a live object of another type, takt_init, takt_start
 * and takt_teardown from a running task, delays
 * beyond the timer queue's half range, task-only calls from an interrupt, a
 * task created before takt_init. Each scenario also checks that the kernel
 * goes on working afterwards.
 */
#include "harness.h"

static volatile int g_done;
static volatile int g_other_ran;

static void parked(void *arg)
{
    (void)arg;
    h_park();
}

/* Runs once the first task stops running: the kernel must still switch. */
static void other_delays(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_sched_lock_depth(), 0u);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    g_other_ran = 1;
    h_park();
}

/* ---- taking oneself out while switches are held ---- */

typedef enum { HOLD_LOCK, HOLD_CRITICAL } hold_t;
typedef enum { OUT_SUSPEND, OUT_DELETE } out_t;

static hold_t g_hold;
static out_t g_out;

static void hold(void)
{
    if (g_hold == HOLD_LOCK) {
        CHECK_EQ(takt_sched_lock(), TAKT_OK);
    } else {
        takt_critical_enter();
    }
}

static void release(void)
{
    if (g_hold == HOLD_LOCK) {
        CHECK(takt_sched_unlock() >= 0);
    } else {
        takt_critical_exit();
    }
}

static void self_removal(void *arg)
{
    (void)arg;
    hold();
    int rc = g_out == OUT_SUSPEND ? takt_task_suspend(NULL) : takt_task_delete(NULL);
    CHECK_EQ(rc, TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_task_state(NULL), TAKT_TASK_RUNNING); /* nothing changed */
    release();
    g_done = 1;
    h_park();
}

static void scenario_self_removal_held(hold_t how, out_t out)
{
    h_begin(0, 20, false);
    g_hold = how;
    g_out = out;
    g_done = 0;
    g_other_ran = 0;
    h_task("self", 3, self_removal, NULL);
    h_task("other", 2, other_delays, NULL);
    h_run();
    CHECK_EQ(g_done, 1);
    CHECK_EQ(g_other_ran, 1);
}

/* takt_job_end may wait for the next release: refused while switches are held. */
static int g_jobs;
static void periodic_ends_held(void *arg)
{
    (void)arg;
    for (;;) {
        g_jobs++;
        if (g_jobs <= 2) {
            g_hold = g_jobs == 1 ? HOLD_CRITICAL : HOLD_LOCK;
            hold();
            CHECK_EQ(takt_job_end(), TAKT_ERR_CONTEXT);
            CHECK_EQ(takt_task_state(NULL), TAKT_TASK_RUNNING);
            release();
        }
        CHECK_EQ(takt_job_end(), TAKT_OK);
    }
}

static void scenario_job_end_held(void)
{
    h_begin(0, 40, false);
    g_jobs = 0;
    g_other_ran = 0;
    h_periodic("P", 3, periodic_ends_held, NULL, 10, 10, 0);
    h_task("other", 2, other_delays, NULL);
    h_run();
    CHECK_EQ(g_jobs, 4); /* released at 0, 10, 20, 30: every job ran */
    CHECK_EQ(g_other_ran, 1);
}

/* An exit with no section open is ignored, and later sections still work. */
static void unbalanced_exit(void *arg)
{
    (void)arg;
    takt_critical_exit();
    takt_critical_enter();
    takt_critical_exit();
    CHECK_EQ(takt_delay(1), TAKT_OK);
    g_done = 1;
    h_park();
}

static void scenario_unbalanced_critical_exit(void)
{
    h_begin(0, 10, false);
    g_done = 0;
    h_task("U", 2, unbalanced_exit, NULL);
    h_run();
    CHECK_EQ(g_done, 1);
}

/* ---- the idle task and mutexes ---- */

static takt_mutex_t *g_mutex;
static int g_idle_lock_result;
static bool g_idle_tried;

static void idle_tries_mutex(void)
{
    if (!g_idle_tried) {
        g_idle_tried = true;
        g_idle_lock_result = takt_mutex_lock(g_mutex, 0);
    }
}

static void mutex_user(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(2), TAKT_OK); /* the idle task runs meanwhile */
    CHECK_EQ(takt_mutex_lock(g_mutex, 10), TAKT_OK);
    CHECK_EQ(takt_mutex_unlock(g_mutex), TAKT_OK);
    g_done = 1;
    h_park();
}

static void scenario_idle_mutex(void)
{
    h_begin(0, 20, false);
    g_done = 0;
    g_idle_tried = false;
    g_idle_lock_result = 1;
    CHECK_EQ(takt_mutex_create(0, &g_mutex), TAKT_OK);
    h_idle_probe = idle_tries_mutex;
    h_task("M", 3, mutex_user, NULL);
    h_start();
    CHECK(g_idle_tried);
    CHECK_EQ(g_idle_lock_result, TAKT_ERR_CONTEXT);
    CHECK_EQ(g_done, 1);
    CHECK(takt_mutex_holder(g_mutex) == NULL);
    CHECK_EQ(takt_mutex_delete(g_mutex), TAKT_OK);
    h_end();
}

/* Before takt_start no task holds a mutex: unlock says so as lock does. */
static void scenario_mutex_before_start(void)
{
    h_begin(0, 5, false);
    takt_mutex_t *m = NULL;
    CHECK_EQ(takt_mutex_create(0, &m), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(m, 0), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_mutex_unlock(m), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_mutex_delete(m), TAKT_OK);
    h_run();
}

/* ---- the timer task ---- */

static int g_fired[2];

static void count_fire(takt_soft_timer_t *timer)
{
    g_fired[(uintptr_t)takt_soft_timer_id(timer)]++;
}

static void timer_task_deleter(void *arg)
{
    (void)arg;
    takt_task_t *daemon = takt_soft_timer_task();
    CHECK(daemon != NULL);
    CHECK_EQ(takt_task_delete(daemon), TAKT_ERR_ARG);
    CHECK(takt_soft_timer_task() == daemon);
    h_park();
}

static void scenario_timer_task_kept(void)
{
    h_begin(0, 20, false);
    g_fired[0] = g_fired[1] = 0;
    takt_soft_timer_t *timers[2];
    for (uintptr_t i = 0; i < 2; i++) {
        takt_soft_timer_params_t p = {.name = "t", .period = 3, .auto_reload = true,
                                      .callback = count_fire, .id = (void *)i};
        CHECK_EQ(takt_soft_timer_create(&p, &timers[i]), TAKT_OK);
        CHECK_EQ(takt_soft_timer_start(timers[i], 0), TAKT_OK);
    }
    h_task("D", 2, timer_task_deleter, NULL);
    h_run();
    /* Started at 0 with period 3: 3, 6, ..., 18 within 20 ticks. */
    CHECK_EQ(g_fired[0], 6);
    CHECK_EQ(g_fired[1], 6);
}

/* ---- queue sets ---- */

static takt_queue_t *g_queue;
static takt_queue_set_t *g_set;

static void reset_member(void *arg)
{
    (void)arg;
    uint32_t v = 7;
    void *member = NULL;
    CHECK_EQ(takt_queue_send(g_queue, &v, 4, 0), TAKT_OK);
    CHECK_EQ(takt_queue_send(g_queue, &v, 4, 0), TAKT_OK);
    CHECK_EQ(takt_queue_reset(g_queue), TAKT_OK);
    /* The items went with the reset, their handles with them. */
    CHECK_EQ(takt_queue_set_select(g_set, &member, 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(takt_queue_send(g_queue, &v, 4, 0), TAKT_OK);
    CHECK_EQ(takt_queue_send(g_queue, &v, 4, 0), TAKT_OK);
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(takt_queue_set_select(g_set, &member, 0), TAKT_OK);
        CHECK(member == g_queue);
        CHECK_EQ(takt_queue_receive(g_queue, &v, 4, 0), TAKT_OK);
    }
    CHECK_EQ(takt_queue_set_select(g_set, &member, 0), TAKT_ERR_TIMEOUT);
    g_done = 1;
    h_park();
}

static void scenario_queue_reset_in_set(void)
{
    h_begin(0, 10, false);
    g_done = 0;
    CHECK_EQ(takt_queue_create(2, 4, &g_queue), TAKT_OK);
    CHECK_EQ(takt_queue_set_create(2, &g_set), TAKT_OK); /* the member's length */
    CHECK_EQ(takt_queue_set_add_queue(g_set, g_queue), TAKT_OK);
    h_task("R", 2, reset_member, NULL);
    h_start();
    CHECK_EQ(g_done, 1);
    CHECK_EQ(takt_queue_set_remove_queue(g_set, g_queue), TAKT_OK);
    CHECK_EQ(takt_queue_delete(g_queue), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(g_set), TAKT_OK);
    h_end();
}

/* A member read outside the set leaves its handle pending; removing the
 * member takes it along, so select never hands out a departed object. */
static void scenario_removed_member_leaves_no_handle(void)
{
    h_begin(0, 5, false);
    takt_queue_t *a = NULL, *b = NULL;
    takt_queue_set_t *set = NULL;
    uint32_t v = 1;
    void *member = NULL;
    CHECK_EQ(takt_queue_create(1, 4, &a), TAKT_OK);
    CHECK_EQ(takt_queue_create(1, 4, &b), TAKT_OK);
    CHECK_EQ(takt_queue_set_create(2, &set), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(set, a), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(set, b), TAKT_OK);
    CHECK_EQ(takt_queue_send(a, &v, 4, 0), TAKT_OK);
    CHECK_EQ(takt_queue_send(b, &v, 4, 0), TAKT_OK);
    CHECK_EQ(takt_queue_receive(a, &v, 4, 0), TAKT_OK); /* outside the set */
    CHECK_EQ(takt_queue_set_remove_queue(set, a), TAKT_OK);
    CHECK_EQ(takt_queue_delete(a), TAKT_OK);
    CHECK_EQ(takt_queue_set_select(set, &member, 0), TAKT_OK);
    CHECK(member == b); /* a's stale handle went with it */
    CHECK_EQ(takt_queue_set_select(set, &member, 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(takt_queue_receive(b, &v, 4, 0), TAKT_OK);
    CHECK_EQ(takt_queue_set_remove_queue(set, b), TAKT_OK);
    CHECK_EQ(takt_queue_delete(b), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(set), TAKT_OK);
    h_run();
}

/* The members' lengths must fit the set: a member that does not is refused,
 * and one that leaves gives its room back. */
static void scenario_set_capacity(void)
{
    h_begin(0, 5, false);
    takt_queue_t *q3 = NULL;
    takt_sem_t *binary = NULL, *counting = NULL;
    takt_queue_set_t *set = NULL;
    CHECK_EQ(takt_queue_create(3, 4, &q3), TAKT_OK);
    CHECK_EQ(takt_sem_create(1, 0, &binary), TAKT_OK);
    CHECK_EQ(takt_sem_create(2, 0, &counting), TAKT_OK);
    CHECK_EQ(takt_queue_set_create(4, &set), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(set, q3), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_sem(set, counting), TAKT_ERR_STATE); /* 3 + 2 > 4 */
    CHECK(counting->set == NULL);
    CHECK_EQ(takt_queue_set_add_sem(set, binary), TAKT_OK); /* 3 + 1 */
    CHECK_EQ(takt_queue_set_remove_queue(set, q3), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_sem(set, counting), TAKT_OK); /* 1 + 2 */
    CHECK_EQ(takt_queue_set_remove_sem(set, counting), TAKT_OK);
    CHECK_EQ(takt_queue_set_remove_sem(set, binary), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(set), TAKT_OK);
    CHECK_EQ(takt_queue_delete(q3), TAKT_OK);
    CHECK_EQ(takt_sem_delete(binary), TAKT_OK);
    CHECK_EQ(takt_sem_delete(counting), TAKT_OK);
    h_run();
}

/* ---- handles of the wrong type ---- */

/* Every waitable object keeps its magic at one offset, so a handle of another
 * type is refused without reading past it (ASan watches the smaller ones). */
static void scenario_wrong_type_handles(void)
{
    h_begin(0, 5, false);
    takt_sem_t *sem = NULL;
    takt_event_group_t *group = NULL;
    takt_queue_t *queue = NULL;
    takt_mutex_t *mutex = NULL;
    takt_queue_set_t *set = NULL;
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    CHECK_EQ(takt_event_group_create(&group), TAKT_OK);
    CHECK_EQ(takt_queue_create(1, 4, &queue), TAKT_OK);
    CHECK_EQ(takt_mutex_create(0, &mutex), TAKT_OK);
    CHECK_EQ(takt_queue_set_create(4, &set), TAKT_OK);
    void *others[] = {sem, group, mutex, set};
    uint32_t v = 0;
    for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
        CHECK_EQ(takt_queue_send(others[i], &v, 4, 0), TAKT_ERR_ARG);
        CHECK_EQ(takt_queue_receive(others[i], &v, 4, 0), TAKT_ERR_ARG);
        CHECK_EQ(takt_queue_receive_item(others[i], &v, 0), TAKT_ERR_ARG);
        CHECK_EQ(takt_queue_reset(others[i]), TAKT_ERR_ARG);
        CHECK_EQ(takt_queue_set_add_queue(set, others[i]), TAKT_ERR_ARG);
    }
    CHECK_EQ(takt_sem_give((takt_sem_t *)(void *)queue), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_set((takt_event_group_t *)(void *)queue, 1, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_add_sem(set, (takt_sem_t *)(void *)group), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_count(sem), 0);
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    CHECK_EQ(takt_event_group_delete(group), TAKT_OK);
    CHECK_EQ(takt_mutex_delete(mutex), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(set), TAKT_OK);
    h_run();
}

/* ---- static creates over a live object of another type ---- */

static void no_fire(takt_soft_timer_t *timer)
{
    (void)timer;
}

/* Each create_static refuses memory holding a live object of any type (one
 * buffer may serve several, as the FreeRTOS layer's StaticQueue_t does), and
 * the object stays intact; deleted, the memory is taken again. */
static void scenario_static_create_over_other_type(void)
{
    static union {
        takt_sem_t sem;
        takt_mutex_t mutex;
        takt_queue_t queue;
        takt_queue_set_t set;
        takt_event_group_t group;
        takt_stream_t stream;
        takt_soft_timer_t timer;
    } memory;
    static uint32_t storage[4];
    static void *slots[2];
    static uint8_t bytes[16];
    const takt_soft_timer_params_t timer_params = {.name = "t", .period = 5, .callback = no_fire};
    h_begin(0, 5, false);
    uint32_t v = 7;
    CHECK_EQ(takt_queue_create_static(&memory.queue, 2, sizeof(v), storage), TAKT_OK);
    CHECK_EQ(takt_queue_send(&memory.queue, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(takt_sem_create_static(&memory.sem, 1, 1), TAKT_ERR_STATE);
    CHECK_EQ(takt_mutex_create_static(&memory.mutex, 0), TAKT_ERR_STATE);
    CHECK_EQ(takt_queue_set_create_static(&memory.set, 2, slots), TAKT_ERR_STATE);
    CHECK_EQ(takt_event_group_create_static(&memory.group), TAKT_ERR_STATE);
    CHECK_EQ(takt_stream_create_static(&memory.stream, sizeof(bytes), 1, 0, bytes), TAKT_ERR_STATE);
    CHECK_EQ(takt_soft_timer_create_static(&timer_params, &memory.timer), TAKT_ERR_STATE);
    CHECK_EQ(takt_queue_count(&memory.queue), 1);
    v = 0;
    CHECK_EQ(takt_queue_receive(&memory.queue, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(v, 7u);
    CHECK_EQ(takt_queue_delete(&memory.queue), TAKT_OK);
    /* a live timer (its magic elsewhere) is kept from the other types too */
    CHECK_EQ(takt_soft_timer_create_static(&timer_params, &memory.timer), TAKT_OK);
    CHECK_EQ(takt_sem_create_static(&memory.sem, 1, 1), TAKT_ERR_STATE);
    CHECK_EQ(takt_queue_create_static(&memory.queue, 2, sizeof(v), storage), TAKT_ERR_STATE);
    CHECK_EQ(takt_soft_timer_period(&memory.timer), 5u);
    CHECK_EQ(takt_soft_timer_delete(&memory.timer, 0), TAKT_OK);
    h_run(); /* the timer task carries out the delete */
    CHECK_EQ(takt_sem_create_static(&memory.sem, 1, 1), TAKT_OK);
    CHECK_EQ(takt_sem_delete(&memory.sem), TAKT_OK);
}

/* ---- delays beyond the half range ---- */

static void long_delays(void *arg)
{
    (void)arg;
    takt_tick_t wake = takt_tick_count();
    CHECK_EQ(takt_delay(0xFFFFFFFFu), TAKT_ERR_ARG);
    CHECK_EQ(takt_delay(0x80000000u), TAKT_ERR_ARG);
    CHECK_EQ(takt_delay_until(&wake, 0x80000000u), TAKT_ERR_ARG);
    CHECK_EQ(wake, takt_tick_count()); /* not advanced */
    CHECK_EQ(takt_delay_until(&wake, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_tick_count() - h_tick0, 2u);
    g_done = 1;
    h_park();
}

static void scenario_long_delays(void)
{
    h_begin(0, 10, false);
    g_done = 0;
    h_task("L", 2, long_delays, NULL);
    h_run();
    CHECK_EQ(g_done, 1);
}

/* ---- task-only calls from an interrupt ---- */

static takt_task_t *g_target;
static int g_isr_results[4];

static void isr_calls(void *arg)
{
    (void)arg;
    g_isr_results[0] = takt_task_delete(NULL);
    g_isr_results[1] = takt_task_suspend(NULL);
    g_isr_results[2] = takt_task_set_priority(g_target, 4);
    g_isr_results[3] = takt_task_set_preemptive(g_target, false);
}

static void works(void *arg)
{
    (void)arg;
    for (;;) {
        h_work(1);
    }
}

static void scenario_task_calls_from_isr(void)
{
    h_begin(0, 10, false);
    g_target = h_task("T", 2, works, NULL);
    CHECK_EQ(hp_inject_irq(3 * TICK_NS, 1, isr_calls, NULL), 0);
    h_start();
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(g_isr_results[i], TAKT_ERR_CONTEXT);
    }
    CHECK_EQ(takt_task_get_priority(g_target), 2);
    CHECK_EQ(takt_task_state(g_target), TAKT_TASK_RUNNING); /* neither deleted nor suspended */
    CHECK(!(g_target->flags & TAKT_TASK_F_NONPREEMPTIVE));
    h_end();
}

/* ---- before takt_init ---- */

static void scenario_create_before_init(void)
{
    takt_task_params_t p = {.name = "early", .entry = parked, .priority = 1,
                            .stack_size = H_STACK};
    takt_task_t *task = NULL;
    CHECK_EQ(takt_task_create(&p, &task), TAKT_ERR_STATE);
    CHECK(task == NULL);
    CHECK_EQ(takt_start(), TAKT_ERR_STATE); /* nothing to start: no idle task, no policy */
}

/* ---- the kernel's life-cycle calls from a running task ---- */

static void restarts_kernel(void *arg)
{
    (void)arg;
    takt_tick_t before = takt_tick_count();
    CHECK_EQ(takt_init(NULL), TAKT_ERR_STATE);
    CHECK_EQ(takt_start(), TAKT_ERR_STATE);
    CHECK_EQ(takt_teardown(), TAKT_ERR_STATE);
    CHECK_EQ(takt_delay(2), TAKT_OK); /* the kernel goes on: the same tasks, the same time */
    CHECK_EQ(takt_tick_count() - before, 2u);
    g_done = 1;
    h_park();
}

static void scenario_life_cycle_from_task(void)
{
    h_begin(0, 5, false);
    g_done = 0;
    g_other_ran = 0;
    h_task("R", 2, restarts_kernel, NULL);
    h_task("O", 1, other_delays, NULL);
    h_run();
    CHECK_EQ(g_done, 1);
    CHECK_EQ(g_other_ran, 1);
    CHECK_EQ(takt_start(), TAKT_ERR_STATE); /* torn down: takt_init first */
}

int main(void)
{
    scenario_create_before_init(); /* first: no takt_init has run in this process */
    scenario_self_removal_held(HOLD_LOCK, OUT_SUSPEND);
    scenario_self_removal_held(HOLD_LOCK, OUT_DELETE);
    scenario_self_removal_held(HOLD_CRITICAL, OUT_SUSPEND);
    scenario_self_removal_held(HOLD_CRITICAL, OUT_DELETE);
    scenario_job_end_held();
    scenario_unbalanced_critical_exit();
    scenario_idle_mutex();
    scenario_mutex_before_start();
    scenario_timer_task_kept();
    scenario_queue_reset_in_set();
    scenario_removed_member_leaves_no_handle();
    scenario_set_capacity();
    scenario_wrong_type_handles();
    scenario_static_create_over_other_type();
    scenario_life_cycle_from_task();
    scenario_long_delays();
    scenario_task_calls_from_isr();
    return CHECK_SUMMARY();
}
