/*
 * Bad input to the native API (the headers in kernel/include/takt), call by
 * call: the project's rule is an error code naming the problem and nothing
 * changed. Every public call gets the arguments a careless caller could
 * pass: NULL handles and out-pointers, sizes of 0 and sizes that overflow,
 * periods, deadlines, offsets, budgets and timeouts at and past their
 * limits (0, 2^31 - 1, 2^31, UINT32_MAX), priorities at
 * TAKT_CONFIG_MAX_PRIORITIES and above, handles of deleted static objects
 * and of another type, calls from an interrupt, with the scheduler locked,
 * before takt_init, after takt_teardown and after a second takt_init. Each
 * refusal is checked for its exact code and for the state it must leave
 * alone (counts, bits, bytes, priorities, the task list), and each scenario
 * ends with the kernel still scheduling. Runs under each policy TEST_SCHED
 * names (CMakeLists.txt): tasks are s_task's (sync_common.h), so under hsf
 * they live in a server. Soft timers are test_soft_timer.c's.
 */
#include "sync_common.h"

#if defined(__SANITIZE_ADDRESS__)
/* The allocations of absurd sizes asked for below must fail as a target's
 * allocator does (NULL, so TAKT_ERR_NOMEM), not stop the program. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}
#endif

#define NOTIFY_SLOTS TAKT_CONFIG_TASK_NOTIFICATIONS
#define TOO_LONG 0x80000000u       /* 2^31: past every timeout, period and offset */
#define HALF_MAX 0x7FFFFFFFu       /* 2^31 - 1 */
#define STACK_MIN (port_min_stack_size() + 32u) /* the port's minimum plus the guard */

static volatile int g_done;

static void parked(void *arg)
{
    (void)arg;
    h_park();
}

static void visit_count(const takt_task_info_t *info, void *ctx)
{
    (void)info;
    (*(unsigned *)ctx)++;
}

/* The task parameters of a plain task (no period). */
static takt_task_params_t plain_params(const char *name, unsigned priority)
{
    return (takt_task_params_t){.name = name, .entry = parked, .priority = priority,
                                .stack_size = H_STACK};
}

/* takt_task_create, or under hsf its server form in the host server. */
static int create_task(const takt_task_params_t *params, takt_task_t **out)
{
    return S_HSF ? takt_server_task_create(s_host, params, out) : takt_task_create(params, out);
}

static int create_task_static(const takt_task_params_t *params, takt_task_t *tcb, void *stack,
                              size_t size)
{
    return S_HSF ? takt_server_task_create_static(s_host, params, tcb, stack, size)
                 : takt_task_create_static(params, tcb, stack, size);
}

/* The stack bytes the task got once its memory was aligned. */
static size_t usable_stack(const takt_task_t *task)
{
    takt_task_info_t info;
    return takt_task_info(task, &info, false) == TAKT_OK ? info.stack_size : 0u;
}

static unsigned tasks_visited(void)
{
    unsigned n = 0;
    (void)takt_task_info_each(visit_count, &n, false);
    return n;
}

/* ---- before takt_init ---- */

/* No kernel yet (nothing has called takt_init in this process): the
 * queries answer "none", the calls that need a kernel refuse, the objects
 * that need none work, and walking the (never initialised) task list is
 * an empty walk. Runs first. */
static void scenario_before_init(void)
{
    CHECK(takt_task_idle() == NULL);
    CHECK_EQ(takt_task_count(), 0u);
    CHECK(takt_task_find("idle") == NULL);
    CHECK_EQ(tasks_visited(), 0u);
    CHECK(takt_task_self() == NULL);
    CHECK(takt_task_running() == NULL);
    CHECK_EQ(takt_start(), TAKT_ERR_STATE);
    bool switched = true;
    CHECK_EQ(takt_tick_catch_up(1, &switched), TAKT_ERR_STATE);
    CHECK(!switched);
    CHECK_EQ(takt_delay(1), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_job_end(), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_notify_wait(0, 0, 0, NULL, 0), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_notify_take(0, true, NULL, 0), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_notify(NULL, 0, 1, TAKT_NOTIFY_SET_BITS, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_remaining_budget(NULL), TAKT_ERR_STATE);
    CHECK(takt_server_running() == NULL);
    takt_server_params_t sp = {.priority = 1, .period = 10, .budget = 5};
    takt_server_t *server = NULL;
    CHECK_EQ(takt_server_create(&sp, &server), TAKT_ERR_STATE);
    CHECK(server == NULL);
    takt_task_params_t tp = plain_params("early", 1);
    static takt_task_t tcb;
    static uint8_t stack[16384];
    CHECK_EQ(takt_task_create_static(&tp, &tcb, stack, sizeof(stack)), TAKT_ERR_STATE);
    CHECK(tcb.magic == 0);
    takt_trace_event_t ev;
    CHECK_EQ(takt_trace_read(NULL, 4), 0u);
    CHECK_EQ(takt_trace_read(&ev, 0), 0u);

    /* The objects need no kernel: created, used, deleted. */
    takt_sem_t *sem = NULL;
    CHECK_EQ(takt_sem_create(2, 1, &sem), TAKT_OK);
    CHECK_EQ(takt_sem_give(sem), TAKT_OK);
    CHECK_EQ(takt_sem_take(sem, 5), TAKT_OK); /* before start: as timeout 0 */
    CHECK_EQ(takt_sem_count(sem), 1);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    takt_mutex_t *mutex = NULL;
    CHECK_EQ(takt_mutex_create(0, &mutex), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(mutex, 0), TAKT_ERR_CONTEXT); /* no task to own it */
    CHECK_EQ(takt_mutex_delete(mutex), TAKT_OK);
    takt_queue_t *queue = NULL;
    takt_queue_set_t *set = NULL;
    uint32_t v = 3;
    CHECK_EQ(takt_queue_create(2, sizeof(v), &queue), TAKT_OK);
    CHECK_EQ(takt_queue_set_create(2, &set), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(set, queue), TAKT_OK);
    CHECK_EQ(takt_queue_send(queue, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(takt_queue_reset(queue), TAKT_OK); /* its handle leaves the set */
    CHECK_EQ(takt_queue_set_remove_queue(set, queue), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(set), TAKT_OK);
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    takt_event_group_t *group = NULL;
    CHECK_EQ(takt_event_group_create(&group), TAKT_OK);
    CHECK_EQ(takt_event_group_set(group, 5, NULL), TAKT_OK);
    CHECK_EQ(takt_event_group_delete(group), TAKT_OK);
    takt_stream_t *stream = NULL;
    char bytes[4] = "abc";
    CHECK_EQ(takt_stream_create(8, 1, 0, &stream), TAKT_OK);
    CHECK_EQ(takt_stream_send(stream, bytes, 3, 0), 3);
    CHECK_EQ(takt_stream_receive(stream, bytes, sizeof(bytes), 0), 3);
    CHECK_EQ(takt_stream_delete(stream), TAKT_OK);

    CHECK_EQ(takt_teardown(), TAKT_OK); /* nothing to free */
    CHECK_EQ(takt_task_count(), 0u);
}

/* ---- a second takt_init without takt_teardown ---- */

static takt_task_t g_first_tcb;
static uint8_t g_first_stack[16384] __attribute__((aligned(16)));
static volatile int g_first_ran;

static void first_run_task(void *arg)
{
    (void)arg;
    g_first_ran++;
    h_park();
}

/* The kernel's tasks would stay live (their handles valid) but unknown to
 * the new kernel: refused, and the kernel goes on as it was. */
static void scenario_init_twice(void)
{
    s_begin(0, 5);
    g_first_ran = 0;
    takt_task_params_t tp = plain_params("first", 2);
    tp.entry = first_run_task;
    CHECK_EQ(create_task_static(&tp, &g_first_tcb, g_first_stack, sizeof(g_first_stack)),
             TAKT_OK);
    unsigned tasks = takt_task_count();
    takt_init_params_t init = {.scheduler = TEST_SCHED, .preemption = TEST_PREEMPT};
    CHECK_EQ(takt_init(&init), TAKT_ERR_STATE);
    CHECK_EQ(takt_init(NULL), TAKT_ERR_STATE);
    /* A bad argument is named first, as without the kernel. */
    init.scheduler = (takt_scheduler_t)99;
    CHECK_EQ(takt_init(&init), TAKT_ERR_ARG);
    init.scheduler = TEST_SCHED;
    init.preemption = (takt_preemption_t)3;
    CHECK_EQ(takt_init(&init), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_count(), tasks);
    CHECK_EQ(tasks_visited(), tasks);
    CHECK(takt_task_find("first") == &g_first_tcb);
    CHECK_EQ(takt_task_state(&g_first_tcb), TAKT_TASK_READY);
    h_start();
    CHECK_EQ(g_first_ran, 1);
    CHECK_EQ(takt_init(NULL), TAKT_ERR_STATE); /* a run that ended: takt_teardown first */
    h_end();
    CHECK_EQ(takt_task_state(&g_first_tcb), TAKT_TASK_DELETED);
    CHECK(takt_task_idle() == NULL);
    /* Torn down: a new kernel, and the static task's memory is free again. */
    s_begin(0, 5);
    g_first_ran = 0;
    CHECK_EQ(create_task_static(&tp, &g_first_tcb, g_first_stack, sizeof(g_first_stack)),
             TAKT_OK);
    h_run();
    CHECK_EQ(g_first_ran, 1);
}

/* ---- task creation ---- */

/* One refused creation: the code, no handle written, no task added. */
static void refused(const takt_task_params_t *p, int expected, int line)
{
    takt_task_t *const sentinel = (takt_task_t *)(uintptr_t)0x10;
    takt_task_t *out = sentinel;
    unsigned before = takt_task_count();
    int rc = create_task(p, &out);
    if (!CHECK_EQ(rc, expected) || !CHECK(out == sentinel) ||
        !CHECK_EQ(takt_task_count(), before) || !CHECK_EQ(tasks_visited(), before)) {
        fprintf(stderr, "  (the creation at line %d)\n", line);
    }
}
#define REFUSED(p, code) refused(&(p), (code), __LINE__)

static volatile int g_extreme_jobs;
static volatile int g_plain_jobs;

static void extreme_job(void *arg)
{
    (void)arg;
    for (;;) {
        g_extreme_jobs++;
        CHECK_EQ(takt_job_end(), TAKT_OK);
    }
}

static void plain_job(void *arg)
{
    (void)arg;
    for (;;) {
        g_plain_jobs++;
        h_work(1);
        CHECK_EQ(takt_job_end(), TAKT_OK);
    }
}

static void scenario_task_create_limits(void)
{
    s_begin(0, 20);
    g_extreme_jobs = g_plain_jobs = 0;
    takt_task_params_t good = plain_params("g", 1), p;
    p = good, p.priority = 0;
    REFUSED(p, TAKT_ERR_ARG);
    p = good, p.priority = TAKT_CONFIG_MAX_PRIORITIES;
    REFUSED(p, TAKT_ERR_ARG);
    p = good, p.priority = TAKT_CONFIG_MAX_PRIORITIES + 1u;
    REFUSED(p, TAKT_ERR_ARG);
    p = good, p.priority = 0x10001u; /* its low 16 bits a valid priority */
    REFUSED(p, TAKT_ERR_ARG);
    p = good, p.priority = UINT32_MAX;
    REFUSED(p, TAKT_ERR_ARG);
    p = good, p.stack_size = STACK_MIN - 1u;
    REFUSED(p, TAKT_ERR_ARG);
    p = good, p.entry = NULL;
    REFUSED(p, TAKT_ERR_ARG);
    /* periods, deadlines and offsets: 2^31 and up, 2^31 - 1 as a deadline */
    const takt_tick_t too_long[] = {TOO_LONG, TOO_LONG + 1u, UINT32_MAX};
    for (size_t i = 0; i < sizeof(too_long) / sizeof(too_long[0]); i++) {
        p = good, p.period = too_long[i];
        REFUSED(p, TAKT_ERR_ARG);
        p = good, p.period = 10, p.deadline = too_long[i];
        REFUSED(p, TAKT_ERR_ARG);
        p = good, p.period = 10, p.offset = too_long[i];
        REFUSED(p, TAKT_ERR_ARG);
    }
    p = good, p.period = HALF_MAX;
    REFUSED(p, TAKT_ERR_ARG);
    p = good, p.period = 10, p.deadline = HALF_MAX;
    REFUSED(p, TAKT_ERR_ARG);
    p = good, p.offset = 1; /* without a period */
    REFUSED(p, TAKT_ERR_ARG);
    p = good, p.deadline = 1;
    REFUSED(p, TAKT_ERR_ARG);
    /* A stack too large for any allocator: the allocation fails. */
    p = good, p.stack_size = SIZE_MAX;
    REFUSED(p, TAKT_ERR_NOMEM);
    p = good, p.stack_size = SIZE_MAX / 2u;
    REFUSED(p, TAKT_ERR_NOMEM);
    CHECK_EQ(takt_task_create(&good, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_create(NULL, NULL), TAKT_ERR_ARG);
    takt_task_t *t = NULL;
    if (S_HSF) {
        CHECK_EQ(takt_server_task_create(s_host, NULL, &t), TAKT_ERR_ARG);
        CHECK_EQ(takt_server_task_create(s_host, &good, NULL), TAKT_ERR_ARG);
        CHECK_EQ(takt_task_create(&good, &t), TAKT_ERR_STATE); /* needs a server */
    } else {
        takt_server_t bogus;
        memset(&bogus, 0, sizeof(bogus));
        CHECK_EQ(takt_server_task_create(&bogus, &good, &t), TAKT_ERR_ARG);
        CHECK_EQ(takt_server_task_create(NULL, &good, &t), TAKT_ERR_ARG);
    }
    CHECK(t == NULL);
    /* Nothing was created: only the kernel's own tasks, and no id was used. */
    h_drain();
    CHECK_EQ(h_count(TAKT_EV_TASK_CREATE, -1), 1);

    /* At the limits, accepted: priority MAX - 1, the smallest stack, the
     * longest period, deadline and offset; they run beside an ordinary job. */
    p = good, p.priority = TAKT_CONFIG_MAX_PRIORITIES - 1u, p.stack_size = STACK_MIN;
    CHECK_EQ(create_task(&p, &t), TAKT_OK);
    CHECK_EQ(takt_task_id(t), 1);
    CHECK_EQ(takt_task_get_priority(t), (int)(TAKT_CONFIG_MAX_PRIORITIES - 1u));
    CHECK(usable_stack(t) >= STACK_MIN); /* wherever the heap put it (8-aligned on Cortex-M) */
    CHECK_EQ(takt_task_delete(t), TAKT_OK);
    /* Usable: at least the size rounded down to 16, wherever the heap puts
     * it. Sizes 8 apart, kept alive together, land the stacks at both
     * 8-byte phases of an 8-aligned heap (a target's). */
    takt_task_t *sized[6] = {NULL};
    for (unsigned k = 0; k < 6u; k++) {
        p = good, p.stack_size = STACK_MIN + 8u * k + (k == 5u ? 7u : 0u);
        CHECK_EQ(create_task(&p, &sized[k]), TAKT_OK);
        CHECK(usable_stack(sized[k]) >= (p.stack_size & ~(size_t)15u));
    }
    for (unsigned k = 0; k < 6u; k++) {
        CHECK_EQ(takt_task_delete(sized[k]), TAKT_OK);
    }
    p = good, p.entry = extreme_job, p.period = HALF_MAX, p.deadline = HALF_MAX - 1u;
    CHECK_EQ(create_task(&p, &t), TAKT_OK);
    p = good, p.entry = extreme_job, p.period = HALF_MAX - 1u; /* the deadline is the period */
    CHECK_EQ(create_task(&p, &t), TAKT_OK);
    p = good, p.entry = extreme_job, p.period = 5, p.deadline = HALF_MAX - 1u, p.offset = HALF_MAX;
    CHECK_EQ(create_task(&p, &t), TAKT_OK);
    CHECK_EQ(takt_task_state(t), TAKT_TASK_BLOCKED); /* waits for its release, 2^31 - 1 away */
    p = good, p.entry = plain_job, p.priority = 2, p.period = 4, p.deadline = 4;
    CHECK_EQ(create_task(&p, &t), TAKT_OK);
    h_start();
    CHECK_EQ(g_extreme_jobs, 2);  /* the two released at 0 */
    CHECK_EQ(g_plain_jobs, 5);    /* at 0, 4, 8, 12, 16 */
    CHECK_EQ(takt_task_deadline_misses(t), 0u);
    h_end();
}

/* Static creation: the memory arguments. */
static void scenario_task_create_static_memory(void)
{
    static takt_task_t tcb;
    static union {
        takt_task_t tcb;
        uint8_t bytes[32768];
    } shared __attribute__((aligned(16)));
    static uint8_t stack[16384] __attribute__((aligned(16)));
    s_begin(0, 5);
    takt_task_params_t good = plain_params("s", 1);
    unsigned tasks = takt_task_count();
    /* A size past the end of the address space (a negative size cast, say):
     * no stack is that long, and the range would wrap onto the control block. */
    CHECK_EQ(create_task_static(&good, &tcb, stack, SIZE_MAX), TAKT_ERR_ARG);
    CHECK_EQ(create_task_static(&good, &tcb, stack, UINTPTR_MAX - (uintptr_t)stack + 1u),
             TAKT_ERR_ARG);
    CHECK_EQ(create_task_static(&good, &tcb, stack, STACK_MIN - 1u), TAKT_ERR_ARG);
    /* The minimum holds for the aligned part: a misaligned start loses bytes. */
    CHECK_EQ(create_task_static(&good, &tcb, stack + 1, STACK_MIN), TAKT_ERR_ARG);
    CHECK_EQ(create_task_static(&good, &tcb, stack + 8, STACK_MIN + 7u), TAKT_ERR_ARG);
    CHECK_EQ(create_task_static(&good, &shared.tcb, shared.bytes, sizeof(shared)),
             TAKT_ERR_ARG); /* the control block inside its stack */
    CHECK_EQ(create_task_static(&good, NULL, stack, sizeof(stack)), TAKT_ERR_ARG);
    CHECK_EQ(create_task_static(&good, &tcb, NULL, sizeof(stack)), TAKT_ERR_ARG);
    CHECK_EQ(create_task_static(NULL, &tcb, stack, sizeof(stack)), TAKT_ERR_ARG);
    CHECK(tcb.magic == 0); /* untouched */
    /* The kernel's own control block (the idle task's) is a live task's. */
    CHECK_EQ(create_task_static(&good, takt_task_idle(), stack, sizeof(stack)), TAKT_ERR_STATE);
    CHECK_EQ(takt_task_count(), tasks);
    CHECK_EQ(takt_task_state(takt_task_idle()), TAKT_TASK_READY);
    CHECK_EQ(create_task_static(&good, &tcb, stack + 1, STACK_MIN + 15u), TAKT_OK);
    CHECK_EQ(usable_stack(&tcb), STACK_MIN);
    CHECK_EQ(create_task_static(&good, &tcb, stack, sizeof(stack)), TAKT_ERR_STATE); /* live */
    CHECK_EQ(takt_task_count(), tasks + 1u);
    h_run();
}

/* ---- task handles: deleted, the idle task's, NULL, bad values ---- */

static void scenario_task_handles(void)
{
    static takt_task_t tcb;
    static uint8_t stack[16384] __attribute__((aligned(16)));
    s_begin(0, 5);
    takt_task_params_t good = plain_params("d", 3);
    CHECK_EQ(create_task_static(&good, &tcb, stack, sizeof(stack)), TAKT_OK);
    takt_task_t *live = s_task("live", 2, parked, NULL);
    int live_priority = takt_task_get_priority(live);
    /* ready; under EDF it waits for its first release */
    takt_task_state_t live_state = takt_task_state(live);
    CHECK_EQ(takt_task_delete(&tcb), TAKT_OK);
    unsigned tasks = takt_task_count();
    takt_task_t *dead = &tcb;
    takt_task_info_t info;
    takt_task_t *out_tcb = NULL;
    void *out_stack = NULL;
    CHECK_EQ(takt_task_delete(dead), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_suspend(dead), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_resume(dead), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_resume_from_isr(dead), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_abort_delay(dead), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_set_priority(dead, 2), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_set_preemptive(dead, true), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_get_priority(dead), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_get_base_priority(dead), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_state(dead), TAKT_TASK_DELETED);
    CHECK_EQ(takt_task_id(dead), -1);
    CHECK(takt_task_name(dead) == NULL);
    CHECK_EQ(takt_task_stack_high_water(dead), 0u);
    CHECK_EQ(takt_task_info(dead, &info, false), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_static_memory(dead, &out_tcb, &out_stack), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_jobs_released(dead), 0u);
    CHECK_EQ(takt_task_jobs_completed(dead), 0u);
    CHECK_EQ(takt_task_deadline_misses(dead), 0u);
    CHECK_EQ(takt_notify(dead, 0, 1, TAKT_NOTIFY_SET_BITS, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify_give_from_isr(dead, 0, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify_clear_state(dead, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify_clear_bits(dead, 0, 1, NULL), TAKT_ERR_ARG);
    CHECK(takt_task_find("d") == NULL);
    CHECK_EQ(takt_task_count(), tasks);
    /* NULL outside a task: no caller to stand for. */
    CHECK_EQ(takt_task_delete(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_suspend(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_resume(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_abort_delay(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_set_priority(NULL, 2), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_set_preemptive(NULL, true), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_info(NULL, &info, false), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_static_memory(NULL, &out_tcb, &out_stack), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify(NULL, 0, 1, TAKT_NOTIFY_SET_BITS, NULL), TAKT_ERR_ARG);
    CHECK(out_tcb == NULL && out_stack == NULL);
    /* The idle task is the kernel's. */
    takt_task_t *idle = takt_task_idle();
    CHECK_EQ(takt_task_delete(idle), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_suspend(idle), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_set_priority(idle, 1), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_set_preemptive(idle, false), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_state(idle), TAKT_TASK_READY);
    /* Values out of range on a live task: nothing changes. */
    CHECK_EQ(takt_task_set_priority(live, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_set_priority(live, TAKT_CONFIG_MAX_PRIORITIES), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_set_priority(live, 0x10002u), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_set_priority(live, UINT32_MAX), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_get_priority(live), live_priority);
    CHECK_EQ(takt_task_resume(live), TAKT_ERR_STATE); /* not suspended */
    CHECK_EQ(takt_task_abort_delay(live), TAKT_ERR_STATE); /* in no delay or wait */
    CHECK_EQ(takt_task_info(live, NULL, false), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_info_each(NULL, NULL, false), 0u);
    CHECK_EQ(takt_task_static_memory(live, &out_tcb, &out_stack), TAKT_ERR_STATE); /* heap */
    CHECK(out_tcb == NULL && out_stack == NULL);
    CHECK(takt_task_find(NULL) == NULL);
    CHECK_EQ(takt_task_state(live), live_state);
    /* The deleted task's memory is free for a new one. */
    CHECK_EQ(create_task_static(&good, &tcb, stack, sizeof(stack)), TAKT_OK);
    CHECK_EQ(takt_task_static_memory(&tcb, &out_tcb, &out_stack), TAKT_OK);
    CHECK(out_tcb == &tcb && out_stack == stack);
    h_run();
}

/* ---- init parameters ---- */

static void scenario_init_params(void)
{
    takt_init_params_t bad = {.scheduler = TEST_SCHED, .preemption = TEST_PREEMPT};
    bad.scheduler = (takt_scheduler_t)-1;
    CHECK_EQ(takt_init(&bad), TAKT_ERR_ARG);
    bad.scheduler = (takt_scheduler_t)(TAKT_SCHED_FP_HWPQ + 1);
    CHECK_EQ(takt_init(&bad), TAKT_ERR_ARG);
    bad.scheduler = TEST_SCHED;
    bad.preemption = (takt_preemption_t)-1;
    CHECK_EQ(takt_init(&bad), TAKT_ERR_ARG);
    bad.preemption = (takt_preemption_t)(TAKT_PREEMPT_DEFERRED + 1);
    CHECK_EQ(takt_init(&bad), TAKT_ERR_ARG);
    CHECK(takt_task_idle() == NULL); /* no kernel came of them */
    CHECK_EQ(takt_start(), TAKT_ERR_STATE);
}

/* ---- in a running task: timeouts, the scheduler lock, notifications ---- */

static takt_sem_t *g_sem;
static takt_mutex_t *g_mutex, *g_recursive;
static takt_queue_t *g_queue;
static takt_queue_set_t *g_set;
static takt_event_group_t *g_group;
static takt_stream_t *g_stream;

/* Every blocking call with a timeout of 2^31 or more, 2^32 - 2 included:
 * refused before anything is done. */
static void bad_timeouts(void)
{
    const takt_tick_t bad[] = {TOO_LONG, TOO_LONG + 1u, 0xFFFFFFFEu};
    uint32_t v = 9;
    void *member = NULL;
    takt_event_bits_t bits = 0xDEAD;
    uint32_t value = 0xDEAD;
    char bytes[8] = "1234567";
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        takt_tick_t t = bad[i];
        CHECK_EQ(takt_delay(t), TAKT_ERR_ARG);
        CHECK_EQ(takt_sem_take(g_sem, t), TAKT_ERR_ARG);
        CHECK_EQ(takt_mutex_lock(g_mutex, t), TAKT_ERR_ARG);
        CHECK_EQ(takt_queue_send(g_queue, &v, sizeof(v), t), TAKT_ERR_ARG);
        CHECK_EQ(takt_queue_send_item(g_queue, &v, t), TAKT_ERR_ARG);
        CHECK_EQ(takt_queue_send_front(g_queue, &v, sizeof(v), t), TAKT_ERR_ARG);
        CHECK_EQ(takt_queue_receive(g_queue, &v, sizeof(v), t), TAKT_ERR_ARG);
        CHECK_EQ(takt_queue_receive_item(g_queue, &v, t), TAKT_ERR_ARG);
        CHECK_EQ(takt_queue_peek(g_queue, &v, sizeof(v), t), TAKT_ERR_ARG);
        CHECK_EQ(takt_queue_set_select(g_set, &member, t), TAKT_ERR_ARG);
        CHECK_EQ(takt_event_group_wait(g_group, 1, 0, &bits, t), TAKT_ERR_ARG);
        CHECK_EQ(takt_event_group_sync(g_group, 2, 1, &bits, t), TAKT_ERR_ARG);
        CHECK_EQ(takt_notify_wait(0, UINT32_MAX, UINT32_MAX, &value, t), TAKT_ERR_ARG);
        CHECK_EQ(takt_notify_take(0, true, &value, t), TAKT_ERR_ARG);
        CHECK_EQ(takt_stream_send(g_stream, bytes, 4, t), TAKT_ERR_ARG);
        CHECK_EQ(takt_stream_receive(g_stream, bytes, sizeof(bytes), t), TAKT_ERR_ARG);
    }
    CHECK(member == NULL);
    CHECK_EQ(bits, 0xDEADu);
    CHECK_EQ(value, 0xDEADu);
}

/* The objects as the scenario left them: 1 unit, 1 item, bits 0x10, 3 bytes,
 * the mutexes free, slot 0 pending with 0x0F. */
static void objects_unchanged(const char *when)
{
    takt_event_bits_t bits = 0;
    uint32_t value = 0;
    unsigned long failed = check_failed_count;
    CHECK_EQ(takt_sem_count(g_sem), 1);
    CHECK_EQ(takt_queue_count(g_queue), 1);
    CHECK_EQ(takt_event_group_get(g_group, &bits), TAKT_OK);
    CHECK_EQ(bits, 0x10u);
    CHECK_EQ(takt_stream_bytes(g_stream), 3);
    CHECK(takt_mutex_holder(g_mutex) == NULL);
    CHECK(takt_mutex_holder(g_recursive) == NULL);
    CHECK_EQ(takt_notify_clear_bits(NULL, 0, 0, &value), TAKT_OK);
    CHECK_EQ(value, 0x0Fu);
    if (check_failed_count != failed) {
        fprintf(stderr, "  (the objects %s)\n", when);
    }
}

static void notify_pending_state(unsigned index, uint32_t value, bool pending)
{
    /* Sets slot index to value, pending or not. */
    CHECK_EQ(takt_notify(takt_task_self(), index, value, TAKT_NOTIFY_OVERWRITE, NULL), TAKT_OK);
    if (!pending) {
        CHECK_EQ(takt_notify_clear_state(NULL, index), 1);
    }
}

static void in_task_calls(void *arg)
{
    (void)arg;
    uint32_t v = 0x77;
    char bytes[8] = "abc";
    CHECK_EQ(takt_sem_give(g_sem), TAKT_OK);
    CHECK_EQ(takt_queue_send(g_queue, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(takt_event_group_set(g_group, 0x10, NULL), TAKT_OK);
    CHECK_EQ(takt_stream_send(g_stream, bytes, 3, 0), 3);
    notify_pending_state(0, 0x0F, true);
    bad_timeouts();
    objects_unchanged("after the bad timeouts");

    /* delays */
    takt_tick_t wake = takt_tick_count();
    takt_tick_t now = wake;
    CHECK_EQ(takt_delay_until(NULL, 1), TAKT_ERR_ARG);
    CHECK_EQ(takt_delay_until(&wake, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_delay_until(&wake, TOO_LONG), TAKT_ERR_ARG);
    CHECK_EQ(takt_delay_until(&wake, UINT32_MAX), TAKT_ERR_ARG);
    CHECK_EQ(wake, now);
    bool switched = true;
    CHECK_EQ(takt_tick_catch_up(TOO_LONG, &switched), TAKT_ERR_ARG);
    CHECK(!switched);
    CHECK_EQ(takt_tick_catch_up(UINT32_MAX, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_tick_count(), now);
    if (!S_EDF) { /* s_task's tasks are periodic there */
        CHECK_EQ(takt_job_end(), TAKT_ERR_STATE); /* not periodic */
    }

    /* notifications: bad index and action, NO_OVERWRITE on a pending slot */
    takt_task_t *self = takt_task_self();
    uint32_t prev = 0xBEEF;
    CHECK_EQ(takt_notify(self, NOTIFY_SLOTS, 1, TAKT_NOTIFY_SET_BITS, &prev), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify(self, UINT32_MAX, 1, TAKT_NOTIFY_SET_BITS, &prev), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify(self, 0, 1, (takt_notify_action_t)(TAKT_NOTIFY_NO_OVERWRITE + 1), &prev),
             TAKT_ERR_ARG);
    CHECK_EQ(takt_notify(self, 0, 1, (takt_notify_action_t)-1, &prev), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify(self, 0, 1, TAKT_NOTIFY_NO_OVERWRITE, &prev), TAKT_ERR_STATE);
    CHECK_EQ(prev, 0xBEEFu);
    bool woken = false;
    CHECK_EQ(takt_notify_from_isr(self, NOTIFY_SLOTS, 1, TAKT_NOTIFY_INCREMENT, NULL, &woken),
             TAKT_ERR_ARG);
    CHECK_EQ(takt_notify_give_from_isr(self, NOTIFY_SLOTS, &woken), TAKT_ERR_ARG);
    CHECK(!woken);
    CHECK_EQ(takt_notify_wait(NOTIFY_SLOTS, UINT32_MAX, 0, NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify_take(NOTIFY_SLOTS, true, NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify_clear_state(self, NOTIFY_SLOTS), TAKT_ERR_ARG);
    CHECK_EQ(takt_notify_clear_bits(self, NOTIFY_SLOTS, UINT32_MAX, NULL), TAKT_ERR_ARG);
    objects_unchanged("after the bad notifications");

    /* The scheduler lock: 255 levels, then refused; unlocks must match. */
    for (int i = 0; i < 255; i++) {
        CHECK_EQ(takt_sched_lock(), TAKT_OK);
    }
    CHECK_EQ(takt_sched_lock(), TAKT_ERR_STATE);
    CHECK_EQ(takt_sched_lock_depth(), 255u);
    /* Locked: the calls that would wait are refused and change nothing. */
    notify_pending_state(1, 0xF0, false);
    uint32_t value = 0xDEAD;
    CHECK_EQ(takt_notify_wait(1, 0xFF, 0, &value, 5), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_notify_clear_bits(NULL, 1, 0, &prev), TAKT_OK);
    CHECK_EQ(prev, 0xF0u); /* clear_on_entry not applied */
    notify_pending_state(2, 0, true); /* pending, with a value of 0 */
    CHECK_EQ(takt_notify_take(2, true, &value, 5), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_notify_clear_state(NULL, 2), 1); /* still pending */
    takt_event_bits_t bits = 0;
    CHECK_EQ(takt_event_group_sync(g_group, 0x3, 0x100, &bits, 5), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_event_group_wait(g_group, 0x100, TAKT_EVENT_CLEAR_ON_EXIT, &bits, 5),
             TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_sem_take(g_sem, 0), TAKT_OK); /* one that can complete does */
    CHECK_EQ(takt_sem_take(g_sem, 5), TAKT_ERR_CONTEXT);
    CHECK_EQ(takt_sem_give(g_sem), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_ERR_CONTEXT);
    takt_tick_t w = takt_tick_count();
    CHECK_EQ(takt_delay_until(&w, 1), TAKT_ERR_CONTEXT);
    CHECK_EQ(w, takt_tick_count());
    objects_unchanged("after the calls under the lock");
    for (int i = 0; i < 255; i++) {
        CHECK(takt_sched_unlock() >= 0);
    }
    CHECK_EQ(takt_sched_unlock(), TAKT_ERR_STATE);
    CHECK_EQ(takt_sched_lock_depth(), 0u);

    /* mutexes: the holder's errors */
    CHECK_EQ(takt_mutex_unlock(g_mutex), TAKT_ERR_STATE); /* not held */
    CHECK_EQ(takt_mutex_lock(g_mutex, 0), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(g_mutex, 0), TAKT_ERR_STATE); /* not recursive */
    CHECK_EQ(takt_mutex_delete(g_mutex), TAKT_ERR_STATE);  /* held */
    CHECK_EQ(takt_mutex_unlock(g_mutex), TAKT_OK);
    CHECK_EQ(takt_mutex_unlock(g_mutex), TAKT_ERR_STATE);
    CHECK_EQ(takt_mutex_lock(g_recursive, 0), TAKT_OK);
    g_recursive->depth = UINT32_MAX; /* white box: 2^32 - 1 levels deep */
    CHECK_EQ(takt_mutex_lock(g_recursive, 0), TAKT_ERR_STATE);
    CHECK_EQ(g_recursive->depth, UINT32_MAX);
    g_recursive->depth = 1;
    CHECK_EQ(takt_mutex_unlock(g_recursive), TAKT_OK);
    objects_unchanged("at the end");
    CHECK_EQ(takt_delay(1), TAKT_OK); /* the kernel still switches */
    g_done = 1;
    h_park();
}

static void scenario_in_task(void)
{
    s_begin(0, 10);
    g_done = 0;
    CHECK_EQ(takt_sem_create(1, 0, &g_sem), TAKT_OK);
    CHECK_EQ(takt_mutex_create(0, &g_mutex), TAKT_OK);
    CHECK_EQ(takt_mutex_create(TAKT_MUTEX_RECURSIVE, &g_recursive), TAKT_OK);
    CHECK_EQ(takt_queue_create(2, sizeof(uint32_t), &g_queue), TAKT_OK);
    CHECK_EQ(takt_queue_set_create(2, &g_set), TAKT_OK);
    CHECK_EQ(takt_event_group_create(&g_group), TAKT_OK);
    CHECK_EQ(takt_stream_create(8, 1, 0, &g_stream), TAKT_OK);
    s_task("T", 2, in_task_calls, NULL);
    h_start();
    CHECK_EQ(g_done, 1);
    CHECK_EQ(takt_sem_delete(g_sem), TAKT_OK);
    CHECK_EQ(takt_mutex_delete(g_mutex), TAKT_OK);
    CHECK_EQ(takt_mutex_delete(g_recursive), TAKT_OK);
    CHECK_EQ(takt_queue_delete(g_queue), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(g_set), TAKT_OK);
    CHECK_EQ(takt_event_group_delete(g_group), TAKT_OK);
    CHECK_EQ(takt_stream_delete(g_stream), TAKT_OK);
    h_end();
}

/* ---- from an interrupt: the task-only calls ---- */

static takt_sem_t *g_isr_sem;
static takt_queue_t *g_isr_queue;
static takt_task_t *g_isr_target;
static int g_isr_results[40];
static size_t g_isr_n;
static unsigned g_isr_visited;

static void isr_record(int result)
{
    if (g_isr_n < sizeof(g_isr_results) / sizeof(g_isr_results[0])) {
        g_isr_results[g_isr_n] = result;
    }
    g_isr_n++;
}

static void isr_calls(void *arg)
{
    (void)arg;
    takt_task_params_t tp = plain_params("isr", 1);
    takt_task_t *task = NULL;
    takt_sem_t *sem = NULL;
    takt_mutex_t *mutex = NULL;
    takt_queue_t *queue = NULL;
    takt_queue_set_t *set = NULL;
    takt_event_group_t *group = NULL;
    takt_stream_t *stream = NULL;
    static takt_sem_t static_sem;
    uint32_t v = 1;
    takt_tick_t wake = 0;
    takt_task_info_t info;
    isr_record(create_task(&tp, &task));
    /* The plain create under hsf too: the context is checked before the policy. */
    isr_record(takt_task_create(&tp, &task));
    isr_record(takt_sem_create(1, 0, &sem));
    isr_record(takt_sem_create_static(&static_sem, 1, 0));
    isr_record(takt_mutex_create(0, &mutex));
    isr_record(takt_queue_create(1, 4, &queue));
    isr_record(takt_queue_set_create(1, &set));
    isr_record(takt_event_group_create(&group));
    isr_record(takt_stream_create(8, 1, 0, &stream));
    isr_record(takt_sem_delete(g_isr_sem));
    isr_record(takt_queue_delete(g_isr_queue));
    isr_record(takt_sem_take(g_isr_sem, 0));
    isr_record(takt_sem_give(g_isr_sem));
    isr_record(takt_queue_send(g_isr_queue, &v, sizeof(v), 0));
    isr_record(takt_queue_receive(g_isr_queue, &v, sizeof(v), 0));
    isr_record(takt_queue_reset(g_isr_queue));
    isr_record(takt_delay(1));
    isr_record(takt_delay_until(&wake, 1));
    isr_record(takt_job_end());
    isr_record(takt_notify(g_isr_target, 0, 1, TAKT_NOTIFY_SET_BITS, NULL));
    isr_record(takt_notify_wait(0, 0, 0, NULL, 0));
    isr_record(takt_notify_take(0, true, NULL, 0));
    isr_record(takt_sched_lock());
    isr_record(takt_sched_unlock());
    isr_record(takt_task_info(g_isr_target, &info, false));
    isr_record(takt_tick_catch_up(1, NULL));
    isr_record(takt_task_set_priority(g_isr_target, 3));
    isr_record(takt_task_resume(g_isr_target));
    isr_record(takt_task_suspend(g_isr_target));
    isr_record(takt_task_delete(g_isr_target));
    isr_record(takt_task_set_preemptive(g_isr_target, false));
    isr_record(takt_soft_timer_task_create());
    isr_record(takt_stream_reset((takt_stream_t *)NULL));
    unsigned visited = 0;
    g_isr_visited = takt_task_info_each(visit_count, &visited, false) + visited;
    CHECK(task == NULL && sem == NULL && mutex == NULL && queue == NULL && set == NULL &&
          group == NULL && stream == NULL);
}

static void isr_target(void *arg)
{
    (void)arg;
    for (;;) {
        h_work(1);
    }
}

static void scenario_isr_calls(void)
{
    s_begin(0, 10);
    g_isr_n = 0;
    g_isr_visited = 99;
    CHECK_EQ(takt_sem_create(1, 1, &g_isr_sem), TAKT_OK);
    CHECK_EQ(takt_queue_create(2, 4, &g_isr_queue), TAKT_OK);
    g_isr_target = s_task("target", 2, isr_target, NULL);
    unsigned tasks = takt_task_count();
    CHECK_EQ(hp_inject_irq(T(3) + TICK_NS / 2u, 5, isr_calls, NULL), 0);
    h_start();
    CHECK_EQ(g_isr_n, 33u);
    for (size_t i = 0; i < g_isr_n && i < sizeof(g_isr_results) / sizeof(g_isr_results[0]); i++) {
        if (!CHECK_EQ(g_isr_results[i], TAKT_ERR_CONTEXT)) {
            fprintf(stderr, "  (interrupt-context call %zu)\n", i);
        }
    }
    CHECK_EQ(g_isr_visited, 0u);
    CHECK_EQ(takt_task_count(), tasks);
    CHECK_EQ(takt_sem_count(g_isr_sem), 1);
    CHECK_EQ(takt_queue_count(g_isr_queue), 0);
    CHECK_EQ(takt_task_get_priority(g_isr_target), 2);
    CHECK_EQ(takt_task_state(g_isr_target), TAKT_TASK_RUNNING);
    CHECK_EQ(takt_notify_clear_state(g_isr_target, 0), 0); /* nothing was notified */
    CHECK_EQ(takt_sched_lock_depth(), 0u);
    CHECK_EQ(takt_sem_delete(g_isr_sem), TAKT_OK);
    CHECK_EQ(takt_queue_delete(g_isr_queue), TAKT_OK);
    h_end();
}

/* ---- objects: creation arguments ---- */

static void scenario_object_create_args(void)
{
    s_begin(0, 3);
    takt_sem_t *sem = NULL;
    static takt_sem_t static_sem;
    CHECK_EQ(takt_sem_create(0, 0, &sem), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_create(TOO_LONG, 0, &sem), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_create(UINT32_MAX, 0, &sem), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_create(2, 3, &sem), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_create(1, UINT32_MAX, &sem), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_create(1, 0, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_create_static(NULL, 1, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_create_static(&static_sem, 0, 0), TAKT_ERR_ARG);
    CHECK(sem == NULL);
    CHECK(static_sem.magic == 0);
    /* the largest: a count that still fits the int its calls return */
    CHECK_EQ(takt_sem_create(HALF_MAX, HALF_MAX, &sem), TAKT_OK);
    CHECK_EQ(takt_sem_count(sem), (int)HALF_MAX);
    CHECK_EQ(takt_sem_give(sem), TAKT_ERR_STATE);
    CHECK_EQ(takt_sem_give_from_isr(sem, NULL), TAKT_ERR_STATE);
    CHECK_EQ(takt_sem_count(sem), (int)HALF_MAX);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);

    takt_mutex_t *mutex = NULL;
    static takt_mutex_t static_mutex;
    CHECK_EQ(takt_mutex_create(2u, &mutex), TAKT_ERR_ARG);
    CHECK_EQ(takt_mutex_create(UINT32_MAX, &mutex), TAKT_ERR_ARG);
    CHECK_EQ(takt_mutex_create(0, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_mutex_create_static(NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_mutex_create_static(&static_mutex, TAKT_MUTEX_RECURSIVE | 4u), TAKT_ERR_ARG);
    CHECK(mutex == NULL);
    CHECK(static_mutex.magic == 0);

    takt_queue_t *queue = NULL;
    static takt_queue_t static_queue;
    static uint32_t storage[4];
    CHECK_EQ(takt_queue_create(0, 4, &queue), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_create(TOO_LONG, 1, &queue), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_create(UINT32_MAX, 0, &queue), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_create(2, SIZE_MAX / 2u + 1u, &queue), TAKT_ERR_ARG); /* the product */
    CHECK_EQ(takt_queue_create(3, SIZE_MAX / 3u + 1u, &queue), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_create(HALF_MAX, SIZE_MAX / HALF_MAX + 1u, &queue), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_create(1, SIZE_MAX, &queue), TAKT_ERR_ARG); /* with the header */
    CHECK_EQ(takt_queue_create(1, SIZE_MAX - sizeof(takt_queue_t), &queue), TAKT_ERR_NOMEM);
    CHECK_EQ(takt_queue_create(1, 4, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_create_static(NULL, 1, 4, storage), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_create_static(&static_queue, 4, 4, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_create_static(&static_queue, 0, 4, storage), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_create_static(&static_queue, 2, SIZE_MAX / 2u + 1u, storage),
             TAKT_ERR_ARG);
    CHECK(queue == NULL);
    CHECK(static_queue.magic == 0);
    /* items of 0 bytes: a queue that counts, with no storage */
    CHECK_EQ(takt_queue_create_static(&static_queue, 3, 0, NULL), TAKT_OK);
    CHECK_EQ(takt_queue_send(&static_queue, NULL, 0, 0), TAKT_OK);
    CHECK_EQ(takt_queue_send_item(&static_queue, NULL, 0), TAKT_OK);
    CHECK_EQ(takt_queue_count(&static_queue), 2);
    CHECK_EQ(takt_queue_receive(&static_queue, NULL, 0, 0), TAKT_OK);
    CHECK_EQ(takt_queue_receive_item(&static_queue, NULL, 0), TAKT_OK);
    CHECK_EQ(takt_queue_receive(&static_queue, NULL, 0, 0), TAKT_ERR_TIMEOUT);
    CHECK_EQ(takt_queue_delete(&static_queue), TAKT_OK);

    takt_queue_set_t *set = NULL;
    static takt_queue_set_t static_set;
    static void *slots[2];
    CHECK_EQ(takt_queue_set_create(0, &set), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_create(TOO_LONG, &set), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_create(UINT32_MAX, &set), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_create(1, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_create_static(NULL, 2, slots), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_create_static(&static_set, 2, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_create_static(&static_set, 0, slots), TAKT_ERR_ARG);
    CHECK(set == NULL);
    CHECK(static_set.magic == 0);

    CHECK_EQ(takt_event_group_create(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_create_static(NULL), TAKT_ERR_ARG);

    takt_stream_t *stream = NULL;
    static takt_stream_t static_stream;
    static uint8_t bytes[16];
    CHECK_EQ(takt_stream_create(0, 0, 0, &stream), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_create(TAKT_STREAM_MAX_SIZE + 1u, 0, 0, &stream), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_create(SIZE_MAX, 0, 0, &stream), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_create(8, 9, 0, &stream), TAKT_ERR_ARG); /* trigger above the size */
    CHECK_EQ(takt_stream_create(8, SIZE_MAX, 0, &stream), TAKT_ERR_ARG);
    const unsigned bad_widths[] = {3, 5, 6, 7, 9, 16, UINT32_MAX};
    for (size_t i = 0; i < sizeof(bad_widths) / sizeof(bad_widths[0]); i++) {
        CHECK_EQ(takt_stream_create(64, 0, bad_widths[i], &stream), TAKT_ERR_ARG);
    }
    const unsigned widths[] = {1, 2, 4, 8};
    for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
        /* no room for a message beside its length word */
        CHECK_EQ(takt_stream_create(widths[i], 0, widths[i], &stream), TAKT_ERR_ARG);
        CHECK_EQ(takt_stream_create_static(&static_stream, widths[i], 0, widths[i], bytes),
                 TAKT_ERR_ARG);
    }
    CHECK_EQ(takt_stream_create(8, 0, 0, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_create_static(NULL, sizeof(bytes), 0, 0, bytes), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_create_static(&static_stream, sizeof(bytes), 0, 0, NULL), TAKT_ERR_ARG);
    CHECK(stream == NULL);
    CHECK(static_stream.magic == 0);
    h_run();
}

/* ---- objects: bad arguments to the calls on a live one ---- */

static void scenario_object_call_args(void)
{
    s_begin(0, 3);
    /* a queue of 4-byte items holding one: 0x11223344 */
    takt_queue_t *queue = NULL, *pair = NULL;
    CHECK_EQ(takt_queue_create(1, 4, &queue), TAKT_OK);
    CHECK_EQ(takt_queue_create(2, 4, &pair), TAKT_OK);
    uint32_t item = 0x11223344u, big[2] = {1, 2};
    uint8_t small[3] = {0};
    bool woken = false;
    CHECK_EQ(takt_queue_send(queue, &item, 4, 0), TAKT_OK);
    CHECK_EQ(takt_queue_send(pair, big, sizeof(big), 0), TAKT_ERR_ARG); /* longer than an item */
    CHECK_EQ(takt_queue_send(pair, big, SIZE_MAX, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_send(pair, NULL, 4, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_send_item(pair, NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_send_front(pair, NULL, 4, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_send_from_isr(pair, big, sizeof(big), &woken), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_send_front_from_isr(pair, NULL, 1, &woken), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_overwrite(pair, &item, 4), TAKT_ERR_ARG); /* not a mailbox */
    CHECK_EQ(takt_queue_overwrite_from_isr(pair, &item, 4, &woken), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_overwrite(queue, NULL, 4), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_overwrite(queue, big, sizeof(big)), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_count(pair), 0);
    CHECK_EQ(takt_queue_receive(queue, small, sizeof(small), 0), TAKT_ERR_ARG); /* too small */
    CHECK_EQ(takt_queue_receive(queue, NULL, 4, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_receive_item(queue, NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_peek(queue, small, sizeof(small), 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_peek(queue, NULL, 4, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_receive_from_isr(queue, small, sizeof(small), &woken), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_peek_from_isr(queue, NULL, 4), TAKT_ERR_ARG);
    CHECK(!woken);
    CHECK_EQ(takt_queue_count(queue), 1);
    CHECK_EQ(takt_queue_spaces(queue), 0);
    uint32_t got = 0;
    CHECK_EQ(takt_queue_receive(queue, &got, sizeof(got), 0), TAKT_OK);
    CHECK_EQ(got, 0x11223344u); /* the item was not touched */
    /* a buffer larger than an item is fine */
    CHECK_EQ(takt_queue_receive(queue, &got, SIZE_MAX, 0), TAKT_ERR_TIMEOUT);

    /* queue sets: membership errors change no membership */
    takt_queue_set_t *set = NULL, *other = NULL;
    takt_sem_t *sem = NULL, *full_sem = NULL;
    void *member = (void *)(uintptr_t)0x10;
    CHECK_EQ(takt_queue_set_create(3, &set), TAKT_OK);
    CHECK_EQ(takt_queue_set_create(4, &other), TAKT_OK);
    CHECK_EQ(takt_sem_create(2, 0, &sem), TAKT_OK);
    CHECK_EQ(takt_sem_create(1, 1, &full_sem), TAKT_OK);
    CHECK_EQ(takt_queue_send(pair, &item, 4, 0), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(set, pair), TAKT_ERR_STATE); /* not empty */
    CHECK_EQ(takt_queue_set_add_sem(set, full_sem), TAKT_ERR_STATE); /* count > 0 */
    CHECK_EQ(takt_queue_receive(pair, &got, 4, 0), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(set, pair), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(set, pair), TAKT_ERR_STATE);   /* already in one */
    CHECK_EQ(takt_queue_set_add_queue(other, pair), TAKT_ERR_STATE); /* in another */
    CHECK_EQ(takt_queue_set_add_sem(set, sem), TAKT_ERR_STATE);      /* 2 + 2 > 3 */
    CHECK_EQ(takt_queue_set_remove_sem(set, sem), TAKT_ERR_STATE);   /* not a member */
    CHECK_EQ(takt_queue_set_remove_queue(other, pair), TAKT_ERR_STATE);
    CHECK_EQ(takt_queue_set_add_queue(NULL, pair), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_add_queue(set, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_add_sem(set, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_add_queue(set, (takt_queue_t *)(void *)other), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_add_queue(set, (takt_queue_t *)(void *)set), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_select(set, NULL, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_select_from_isr(set, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_select(NULL, &member, 0), TAKT_ERR_ARG);
    CHECK(member == (void *)(uintptr_t)0x10);
    CHECK_EQ(takt_queue_set_delete(set), TAKT_ERR_STATE); /* a member left */
    CHECK(pair->set == set && sem->set == NULL && full_sem->set == NULL);
    CHECK_EQ(takt_queue_send(pair, &item, 4, 0), TAKT_OK); /* still announced */
    CHECK_EQ(takt_queue_set_select(set, &member, 0), TAKT_OK);
    CHECK(member == pair);
    CHECK_EQ(takt_queue_receive(pair, &got, 4, 0), TAKT_OK);
    CHECK_EQ(takt_queue_set_remove_queue(set, pair), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(set), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(other), TAKT_OK);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    CHECK_EQ(takt_sem_delete(full_sem), TAKT_OK);
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    CHECK_EQ(takt_queue_delete(pair), TAKT_OK);

    /* event groups */
    takt_event_group_t *group = NULL;
    takt_event_bits_t bits = 0xDEAD;
    CHECK_EQ(takt_event_group_create(&group), TAKT_OK);
    CHECK_EQ(takt_event_group_set(group, 0x5, NULL), TAKT_OK);
    CHECK_EQ(takt_event_group_wait(group, 0, 0, &bits, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_wait(group, 0x1, 4u, &bits, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_wait(group, 0x1, UINT32_MAX, &bits, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_sync(group, 0xF0, 0, &bits, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_get(group, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_get(NULL, &bits), TAKT_ERR_ARG);
    CHECK_EQ(bits, 0xDEADu);
    CHECK_EQ(takt_event_group_get(group, &bits), TAKT_OK);
    CHECK_EQ(bits, 0x5u); /* nothing set, nothing cleared */
    CHECK_EQ(takt_event_group_delete(group), TAKT_OK);

    /* streams and message buffers */
    takt_stream_t *stream = NULL, *messages = NULL, *wide = NULL;
    static uint8_t data[300];
    uint8_t out[8] = {0};
    CHECK_EQ(takt_stream_create(8, 2, 0, &stream), TAKT_OK);
    CHECK_EQ(takt_stream_create(16, 0, 2, &messages), TAKT_OK);
    CHECK_EQ(takt_stream_create(300, 0, 1, &wide), TAKT_OK);
    CHECK_EQ(takt_stream_send(stream, "abc", 3, 0), 3);
    CHECK_EQ(takt_stream_send(messages, "xy", 2, 0), 2);
    CHECK_EQ(takt_stream_send(stream, NULL, 3, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_send(stream, NULL, 0, 0), 0); /* nothing to send */
    CHECK_EQ(takt_stream_send_from_isr(stream, NULL, 1, &woken), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_send(messages, "", 0, 0), TAKT_ERR_ARG);    /* an empty message */
    CHECK_EQ(takt_stream_send(messages, data, 15, 0), TAKT_ERR_ARG); /* 15 + 2 > 16 */
    CHECK_EQ(takt_stream_send(messages, data, SIZE_MAX, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_send(wide, data, 256, 0), TAKT_ERR_ARG); /* its byte counts 255 */
    CHECK_EQ(takt_stream_send(wide, data, 255, 0), 255);
    CHECK_EQ(takt_stream_receive(stream, NULL, 4, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_receive(stream, out, 0, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_receive_from_isr(stream, NULL, 4, &woken), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_receive(messages, out, 1, 0), 0); /* too small: the message stays */
    CHECK_EQ(takt_stream_set_trigger(stream, 9), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_set_trigger(stream, SIZE_MAX), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_set_trigger(messages, 1), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_configure(stream, 0x20u), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_configure(stream, UINT32_MAX), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_configure(messages, TAKT_STREAM_BATCHING), TAKT_ERR_ARG);
    CHECK(!woken);
    CHECK_EQ(takt_stream_bytes(stream), 3);
    CHECK_EQ(takt_stream_bytes(messages), 4);
    CHECK_EQ(takt_stream_next_length(messages), 2);
    CHECK(takt_stream_receiver_servable(stream)); /* the trigger is still 2 */
    CHECK_EQ(takt_stream_receive(stream, out, sizeof(out), 0), 3);
    CHECK(memcmp(out, "abc", 3) == 0);
    CHECK_EQ(takt_stream_receive(messages, out, sizeof(out), 0), 2);
    CHECK(memcmp(out, "xy", 2) == 0);
    CHECK_EQ(takt_stream_delete(stream), TAKT_OK);
    CHECK_EQ(takt_stream_delete(messages), TAKT_OK);
    CHECK_EQ(takt_stream_delete(wide), TAKT_OK);
    h_run();
}

/* ---- the handles of deleted static objects ---- */

static void scenario_deleted_static_objects(void)
{
    static takt_sem_t sem;
    static takt_mutex_t mutex;
    static takt_queue_t queue;
    static takt_queue_set_t set;
    static takt_event_group_t group;
    static takt_stream_t stream;
    static uint32_t storage[2];
    static void *slots[2];
    static uint8_t bytes[8];
    s_begin(0, 3);
    CHECK_EQ(takt_sem_create_static(&sem, 1, 1), TAKT_OK);
    CHECK_EQ(takt_mutex_create_static(&mutex, 0), TAKT_OK);
    CHECK_EQ(takt_queue_create_static(&queue, 2, 4, storage), TAKT_OK);
    CHECK_EQ(takt_queue_set_create_static(&set, 2, slots), TAKT_OK);
    CHECK_EQ(takt_event_group_create_static(&group), TAKT_OK);
    CHECK_EQ(takt_stream_create_static(&stream, sizeof(bytes), 1, 0, bytes), TAKT_OK);
    CHECK_EQ(takt_sem_delete(&sem), TAKT_OK);
    CHECK_EQ(takt_mutex_delete(&mutex), TAKT_OK);
    CHECK_EQ(takt_queue_delete(&queue), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(&set), TAKT_OK);
    CHECK_EQ(takt_event_group_delete(&group), TAKT_OK);
    CHECK_EQ(takt_stream_delete(&stream), TAKT_OK);
    uint32_t v = 5;
    bool woken = false;
    void *member = NULL;
    takt_event_bits_t bits = 0;
    CHECK_EQ(takt_sem_delete(&sem), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_give(&sem), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_take(&sem, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_give_from_isr(&sem, &woken), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_take_from_isr(&sem, &woken), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_count(&sem), TAKT_ERR_ARG);
    CHECK_EQ(takt_mutex_delete(&mutex), TAKT_ERR_ARG);
    CHECK_EQ(takt_mutex_unlock(&mutex), TAKT_ERR_ARG);
    CHECK(takt_mutex_holder(&mutex) == NULL);
    CHECK_EQ(takt_queue_delete(&queue), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_send(&queue, &v, 4, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_send_item(&queue, &v, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_receive(&queue, &v, 4, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_receive_item(&queue, &v, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_overwrite(&queue, &v, 4), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_reset(&queue), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_send_from_isr(&queue, &v, 4, &woken), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_count(&queue), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_spaces(&queue), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_delete(&set), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_select(&set, &member, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_select_from_isr(&set, &member), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_delete(&group), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_set(&group, 1, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_clear(&group, 1, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_get(&group, &bits), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_wait(&group, 1, 0, &bits, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_sync(&group, 1, 1, &bits, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_static_memory(&group), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_delete(&stream), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_send(&stream, "a", 1, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_receive(&stream, &v, 1, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_reset(&stream), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_set_trigger(&stream, 1), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_configure(&stream, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_send_completed(&stream, &woken), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_receive_completed(&stream, &woken), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_bytes(&stream), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_spaces(&stream), TAKT_ERR_ARG);
    CHECK_EQ(takt_stream_next_length(&stream), TAKT_ERR_ARG);
    CHECK(!takt_stream_receiver_servable(&stream));
    CHECK(!woken);
    CHECK_EQ(bits, 0u);
    CHECK(member == NULL);
    /* their memory is free again */
    CHECK_EQ(takt_sem_create_static(&sem, 1, 0), TAKT_OK);
    CHECK_EQ(takt_stream_create_static(&stream, sizeof(bytes), 1, 0, bytes), TAKT_OK);
    CHECK_EQ(takt_sem_delete(&sem), TAKT_OK);
    CHECK_EQ(takt_stream_delete(&stream), TAKT_OK);
    h_run();
}

/* ---- handles of another type: streams among the other objects ---- */

static void scenario_wrong_types(void)
{
    s_begin(0, 3);
    takt_stream_t *stream = NULL;
    takt_queue_t *queue = NULL;
    takt_sem_t *sem = NULL;
    takt_queue_set_t *set = NULL;
    CHECK_EQ(takt_stream_create(8, 1, 0, &stream), TAKT_OK);
    CHECK_EQ(takt_queue_create(2, 4, &queue), TAKT_OK);
    CHECK_EQ(takt_sem_create(2, 1, &sem), TAKT_OK);
    CHECK_EQ(takt_queue_set_create(4, &set), TAKT_OK);
    CHECK_EQ(takt_stream_send(stream, "ab", 2, 0), 2);
    uint32_t v = 1;
    void *as_stream = stream;
    CHECK_EQ(takt_queue_send(as_stream, &v, 4, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_receive(as_stream, &v, 4, 0), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_reset(as_stream), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_delete(as_stream), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_give(as_stream), TAKT_ERR_ARG);
    CHECK_EQ(takt_sem_delete(as_stream), TAKT_ERR_ARG);
    CHECK_EQ(takt_mutex_unlock(as_stream), TAKT_ERR_ARG);
    CHECK_EQ(takt_event_group_set(as_stream, 1, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_add_queue(set, as_stream), TAKT_ERR_ARG);
    CHECK_EQ(takt_queue_set_add_sem(set, as_stream), TAKT_ERR_ARG);
    void *others[] = {queue, sem, set};
    for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
        CHECK_EQ(takt_stream_send(others[i], "a", 1, 0), TAKT_ERR_ARG);
        CHECK_EQ(takt_stream_receive(others[i], &v, 1, 0), TAKT_ERR_ARG);
        CHECK_EQ(takt_stream_reset(others[i]), TAKT_ERR_ARG);
        CHECK_EQ(takt_stream_bytes(others[i]), TAKT_ERR_ARG);
        CHECK_EQ(takt_stream_delete(others[i]), TAKT_ERR_ARG);
    }
    CHECK_EQ(takt_stream_bytes(stream), 2);
    CHECK_EQ(takt_queue_count(queue), 0);
    CHECK_EQ(takt_sem_count(sem), 1);
    CHECK_EQ(takt_stream_delete(stream), TAKT_OK);
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(set), TAKT_OK);
    h_run();
}

/* ---- static memory that holds a live object of another kind ---- */

/* Memory any create_static may be handed. */
typedef union {
    takt_task_t task;
    takt_server_t server;
    takt_sem_t sem;
    takt_mutex_t mutex;
    takt_queue_t queue;
    takt_queue_set_t set;
    takt_event_group_t group;
    takt_stream_t stream;
    uint8_t bytes[1];
} any_block_t;

/* Every object create_static over memory: the number that returned code. */
static unsigned creates_giving(void *memory, int code)
{
    any_block_t *m = memory;
    static uint8_t ring[16];
    static uint8_t items[8];
    static void *set_storage[4];
    takt_server_params_t sp = {.name = "x", .priority = 1, .period = 10, .budget = 5,
                               .type = TAKT_SERVER_IDLING};
    unsigned n = 0;
    n += takt_sem_create_static(&m->sem, 1, 0) == code;
    n += takt_mutex_create_static(&m->mutex, 0) == code;
    n += takt_queue_create_static(&m->queue, 2, 4, items) == code;
    n += takt_queue_set_create_static(&m->set, 4, set_storage) == code;
    n += takt_event_group_create_static(&m->group) == code;
    n += takt_stream_create_static(&m->stream, sizeof(ring), 1, 0, ring) == code;
    if (S_HSF) {
        n += takt_server_create_static(&sp, &m->server) == code;
    }
    return n;
}

static void scenario_memory_of_other_kinds(void)
{
    static any_block_t tcb;
    static union {
        any_block_t block;
        uint8_t bytes[16384];
    } stack __attribute__((aligned(16)));
    static any_block_t sem_memory;
    s_begin(0, 3);
    unsigned kinds = S_HSF ? 7u : 6u;
    takt_task_params_t good = plain_params("m", 2);
    CHECK_EQ(create_task_static(&good, &tcb.task, stack.bytes, sizeof(stack)), TAKT_OK);
    CHECK_EQ(takt_sem_create_static(&sem_memory.sem, 2, 1), TAKT_OK);
    unsigned tasks = takt_task_count();
    /* Over a live task's control block, at its start or inside it, and over
     * the stack it runs on: every kind refused, nothing written. */
    CHECK_EQ(creates_giving(&tcb, TAKT_ERR_STATE), kinds);
    CHECK_EQ(creates_giving(tcb.bytes + 40, TAKT_ERR_STATE), kinds);
    CHECK_EQ(creates_giving(stack.bytes + 4096, TAKT_ERR_STATE), kinds);
    /* A task over a live semaphore, a live task's stack, or (hsf) a server;
     * a stack over a live task's control block or stack. */
    static any_block_t spare_tcb;
    static uint8_t spare_stack[16384] __attribute__((aligned(16)));
    CHECK_EQ(create_task_static(&good, &sem_memory.task, spare_stack, sizeof(spare_stack)),
             TAKT_ERR_STATE);
    CHECK_EQ(create_task_static(&good, (takt_task_t *)(void *)(stack.bytes + 1024), spare_stack,
                                sizeof(spare_stack)),
             TAKT_ERR_STATE);
    CHECK_EQ(create_task_static(&good, &spare_tcb.task, stack.bytes + 4096, 12288), TAKT_ERR_STATE);
    CHECK_EQ(create_task_static(&good, &spare_tcb.task, tcb.bytes, sizeof(tcb) + 8192),
             TAKT_ERR_STATE);
    if (S_HSF) {
        CHECK_EQ(create_task_static(&good, (takt_task_t *)(void *)s_host, spare_stack,
                                    sizeof(spare_stack)),
                 TAKT_ERR_STATE);
        CHECK_EQ(creates_giving(s_host, TAKT_ERR_STATE), kinds);
        CHECK_EQ(takt_server_index(s_host), 0);
    }
    CHECK_EQ(takt_task_count(), tasks);
    CHECK(tcb.task.magic != 0 && takt_task_state(&tcb.task) != TAKT_TASK_DELETED);
    CHECK_EQ(takt_sem_count(&sem_memory.sem), 1);
    CHECK_EQ(takt_sem_take(&sem_memory.sem, 0), TAKT_OK);
    CHECK_EQ(takt_sem_give(&sem_memory.sem), TAKT_OK);
    /* Once the task and the semaphore are gone, their memory takes anything. */
    CHECK_EQ(takt_task_delete(&tcb.task), TAKT_OK);
    CHECK_EQ(takt_sem_delete(&sem_memory.sem), TAKT_OK);
    CHECK_EQ(takt_sem_create_static(&tcb.sem, 1, 1), TAKT_OK);
    CHECK_EQ(takt_sem_delete(&tcb.sem), TAKT_OK);
    CHECK_EQ(create_task_static(&good, &sem_memory.task, stack.bytes, sizeof(stack)), TAKT_OK);
    CHECK_EQ(takt_task_delete(&sem_memory.task), TAKT_OK);
    h_run();
}

/* ---- servers ---- */

static void scenario_servers(void)
{
    s_begin(0, 3);
    takt_server_params_t good = {.name = "s", .priority = 1, .period = 10, .budget = 5,
                                 .type = TAKT_SERVER_IDLING};
    takt_server_params_t p;
    takt_server_t *server = NULL;
    static takt_server_t static_server;
    takt_server_t bogus;
    memset(&bogus, 0, sizeof(bogus));
    takt_server_stats_t stats;
    if (!S_HSF) {
        CHECK_EQ(takt_server_create(&good, &server), TAKT_ERR_STATE);
        CHECK_EQ(takt_server_create_static(&good, &static_server), TAKT_ERR_STATE);
        CHECK_EQ(takt_server_remaining_budget(NULL), TAKT_ERR_STATE);
        CHECK(takt_server_running() == NULL);
        CHECK_EQ(takt_soft_timer_set_server(&bogus), TAKT_ERR_STATE);
        CHECK(server == NULL && static_server.magic == 0);
        h_run();
        return;
    }
    struct {
        takt_tick_t period, budget, offset;
        unsigned priority;
        int type;
    } bad[] = {
        {0, 0, 0, 1, 0},                  /* period 0 */
        {10, 0, 0, 1, 0},                 /* budget 0 */
        {10, 11, 0, 1, 0},                /* budget above the period */
        {10, UINT32_MAX, 0, 1, 0},
        {TOO_LONG, 5, 0, 1, 0},           /* period 2^31 */
        {UINT32_MAX, 5, 0, 1, 0},
        {TOO_LONG, TOO_LONG, 0, 1, 0},
        {10, 5, TOO_LONG, 1, 0},          /* offset 2^31 */
        {10, 5, UINT32_MAX, 1, 0},
        {10, 5, 0, 0, 0},                 /* priority 0 */
        {10, 5, 0, TAKT_CONFIG_MAX_PRIORITIES, 0},
        {10, 5, 0, 0x10001u, 0},
        {10, 5, 0, UINT32_MAX, 0},
        {10, 5, 0, 1, TAKT_SERVER_DEFERRABLE + 1}, /* type */
        {10, 5, 0, 1, -1},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        p = good;
        p.period = bad[i].period, p.budget = bad[i].budget, p.offset = bad[i].offset;
        p.priority = bad[i].priority, p.type = (takt_server_type_t)bad[i].type;
        if (!CHECK_EQ(takt_server_create(&p, &server), TAKT_ERR_ARG) ||
            !CHECK_EQ(takt_server_create_static(&p, &static_server), TAKT_ERR_ARG)) {
            fprintf(stderr, "  (bad server parameters %zu)\n", i);
        }
    }
    CHECK_EQ(takt_server_create(NULL, &server), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_create(&good, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_create_static(NULL, &static_server), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_create_static(&good, NULL), TAKT_ERR_ARG);
    CHECK(server == NULL && static_server.magic == 0);
    /* At the limits, accepted: the next index is the host's + 1 (no refused
     * server took one). */
    p = good, p.period = HALF_MAX, p.budget = HALF_MAX, p.offset = HALF_MAX;
    p.priority = TAKT_CONFIG_MAX_PRIORITIES - 1u, p.type = TAKT_SERVER_DEFERRABLE;
    CHECK_EQ(takt_server_create(&p, &server), TAKT_OK);
    CHECK_EQ(takt_server_index(server), 1);
    CHECK_EQ(takt_server_remaining_budget(server), 0); /* its first budget is 2^31 - 1 away */
    p = good, p.budget = p.period;
    CHECK_EQ(takt_server_create_static(&p, &static_server), TAKT_OK);
    CHECK_EQ(takt_server_index(&static_server), 2);
    CHECK_EQ(takt_server_create_static(&p, &static_server), TAKT_ERR_STATE); /* live */
    CHECK_EQ(takt_server_index(&static_server), 2);
    /* bad handles */
    CHECK_EQ(takt_server_stats(&static_server, NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_stats(&bogus, &stats), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_stats(NULL, &stats), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_remaining_budget(&bogus), TAKT_ERR_ARG);
    CHECK_EQ(takt_server_index(&bogus), -1);
    CHECK_EQ(takt_server_index(NULL), -1);
    CHECK(takt_server_name(&bogus) == NULL);
    CHECK_EQ(takt_soft_timer_set_server(&bogus), TAKT_ERR_ARG);
    CHECK_EQ(takt_soft_timer_set_server(NULL), TAKT_ERR_ARG);
    takt_task_params_t tp = plain_params("t", 1);
    takt_task_t *task = NULL;
    CHECK_EQ(takt_server_task_create(&bogus, &tp, &task), TAKT_ERR_ARG);
    CHECK(task == NULL);
    /* under hsf every task is preemptive */
    task = s_task("t", 1, parked, NULL);
    CHECK_EQ(takt_task_set_preemptive(task, false), TAKT_ERR_STATE);
    CHECK(!(task->flags & TAKT_TASK_F_NONPREEMPTIVE));
    h_run();
    /* torn down: the static server's handle is no longer valid */
    CHECK_EQ(takt_server_index(&static_server), -1);
    CHECK_EQ(takt_server_stats(&static_server, &stats), TAKT_ERR_ARG);
}

/* ---- static objects across takt_teardown ---- */

static takt_sem_t g_kept_sem;
static takt_mutex_t g_kept_mutex;
static takt_queue_t g_kept_queue;
static uint32_t g_kept_storage[2];

static void waits_on_sem(void *arg)
{
    (void)arg;
    (void)takt_sem_take(&g_kept_sem, TAKT_WAIT_FOREVER);
    CHECK(!"served");
}

static void holds_mutex(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(&g_kept_mutex, 0), TAKT_OK);
    h_park();
}

static void waits_on_queue(void *arg)
{
    (void)arg;
    uint32_t v;
    (void)takt_queue_receive(&g_kept_queue, &v, sizeof(v), TAKT_WAIT_FOREVER);
    CHECK(!"served");
}

static volatile int g_second_run;

static void second_run(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(&g_kept_mutex, 0), TAKT_OK); /* free: its holder is gone */
    CHECK_EQ(takt_mutex_unlock(&g_kept_mutex), TAKT_OK);
    uint32_t v = 7;
    CHECK_EQ(takt_queue_send(&g_kept_queue, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(takt_queue_receive(&g_kept_queue, &v, sizeof(v), 0), TAKT_OK);
    CHECK_EQ(takt_sem_give(&g_kept_sem), TAKT_OK);
    CHECK_EQ(takt_sem_take(&g_kept_sem, 0), TAKT_OK);
    g_second_run = 1;
    h_park();
}

/* A run ends with tasks waiting on static objects and holding a mutex;
 * takt_teardown frees those tasks. The objects outlive the run, and must
 * not name the freed tasks in the next one. */
static void scenario_static_objects_across_teardown(void)
{
    s_begin(0, 3);
    CHECK_EQ(takt_sem_create_static(&g_kept_sem, 1, 0), TAKT_OK);
    CHECK_EQ(takt_mutex_create_static(&g_kept_mutex, 0), TAKT_OK);
    CHECK_EQ(takt_queue_create_static(&g_kept_queue, 2, 4, g_kept_storage), TAKT_OK);
    s_task("sem", 3, waits_on_sem, NULL);
    s_task("mutex", 2, holds_mutex, NULL);
    s_task("queue", 1, waits_on_queue, NULL);
    h_run();
    s_begin(0, 3);
    g_second_run = 0;
    CHECK(takt_mutex_holder(&g_kept_mutex) == NULL);
    CHECK_EQ(takt_sem_give(&g_kept_sem), TAKT_OK);
    CHECK_EQ(takt_sem_count(&g_kept_sem), 1);
    CHECK_EQ(takt_sem_take(&g_kept_sem, 0), TAKT_OK);
    s_task("second", 2, second_run, NULL);
    h_start();
    CHECK_EQ(g_second_run, 1);
    CHECK_EQ(takt_sem_delete(&g_kept_sem), TAKT_OK);
    CHECK_EQ(takt_mutex_delete(&g_kept_mutex), TAKT_OK);
    CHECK_EQ(takt_queue_delete(&g_kept_queue), TAKT_OK);
    h_end();
}

/* ---- an object deleted while a call whose wait ended is still on it ---- */

/* A wait that ended unserved (a timeout, a suspend) leaves the task ready
 * to return, and an event group's wait and a stream's transfer read the
 * object once more then. Another task may delete the object in between:
 * it has no waiters. The call must not read it (a dynamic one's memory is
 * freed): it ends as a timeout that found nothing. */
static takt_event_group_t *g_gone_group;
static takt_stream_t *g_gone_stream;
static takt_task_t *g_gone_waiter;
static int g_gone_results[3];
static takt_event_bits_t g_gone_bits;
static int g_gone_case;

static void gone_waiter(void *arg)
{
    (void)arg;
    uint8_t bytes[4] = {0};
    takt_tick_t timeout = g_gone_case == 3 ? TAKT_WAIT_FOREVER : 2;
    g_gone_bits = 0xDEAD;
    if (g_gone_case == 0 || g_gone_case == 3) {
        g_gone_results[0] = takt_event_group_wait(g_gone_group, 1, TAKT_EVENT_CLEAR_ON_EXIT,
                                                  &g_gone_bits, timeout);
    } else if (g_gone_case == 1) {
        g_gone_results[0] = takt_stream_receive(g_gone_stream, bytes, sizeof(bytes), timeout);
    } else {
        g_gone_results[0] = takt_stream_send(g_gone_stream, "abcd", 4, timeout); /* full */
    }
    g_done = 1;
    h_park();
}

static void gone_deleter(void *arg)
{
    (void)arg;
    if (g_gone_case == 3) {
        /* the waiter suspended: its wait ends, it is ready to return at its resume */
        CHECK_EQ(takt_delay(1), TAKT_OK);
        CHECK_EQ(takt_task_suspend(g_gone_waiter), TAKT_OK);
    } else {
        CHECK_EQ(takt_delay(2), TAKT_OK); /* wakes with the waiter's timeout, first */
        CHECK_EQ(takt_task_state(g_gone_waiter), TAKT_TASK_READY);
    }
    g_gone_results[1] = g_gone_group != NULL ? takt_event_group_delete(g_gone_group)
                                             : takt_stream_delete(g_gone_stream);
    if (g_gone_case == 3) {
        CHECK_EQ(takt_task_resume(g_gone_waiter), TAKT_OK);
    }
    g_gone_results[2] = takt_delay(1); /* the kernel goes on */
    h_park();
}

static void scenario_deleted_while_returning(int which)
{
    s_begin(0, 6);
    g_done = 0;
    g_gone_case = which;
    g_gone_group = NULL;
    g_gone_stream = NULL;
    memset(g_gone_results, 0x7F, sizeof(g_gone_results));
    if (which == 0 || which == 3) {
        CHECK_EQ(takt_event_group_create(&g_gone_group), TAKT_OK);
    } else {
        CHECK_EQ(takt_stream_create(4, 1, 0, &g_gone_stream), TAKT_OK);
        if (which == 2) {
            CHECK_EQ(takt_stream_send(g_gone_stream, "1234", 4, 0), 4);
        }
    }
    g_gone_waiter = s_task("W", 1, gone_waiter, NULL);
    s_task("D", 2, gone_deleter, NULL);
    h_run();
    if (!CHECK_EQ(g_done, 1) || !CHECK_EQ(g_gone_results[1], TAKT_OK) ||
        !CHECK_EQ(g_gone_results[2], TAKT_OK)) {
        fprintf(stderr, "  (deleted while returning, case %d)\n", which);
    }
    if (which == 0 || which == 3) {
        CHECK_EQ(g_gone_results[0], TAKT_ERR_TIMEOUT);
        CHECK_EQ(g_gone_bits, 0u);
    } else {
        CHECK_EQ(g_gone_results[0], 0); /* nothing moved */
    }
}

int main(void)
{
    scenario_before_init(); /* first: no takt_init has run in this process */
    scenario_init_params();
    scenario_init_twice();
    scenario_task_create_limits();
    scenario_task_create_static_memory();
    scenario_task_handles();
    scenario_in_task();
    scenario_isr_calls();
    scenario_object_create_args();
    scenario_object_call_args();
    scenario_deleted_static_objects();
    scenario_wrong_types();
    scenario_memory_of_other_kinds();
    scenario_servers();
    scenario_static_objects_across_teardown();
    for (int which = 0; which < 4; which++) {
        scenario_deleted_while_returning(which);
    }
    return CHECK_SUMMARY();
}
