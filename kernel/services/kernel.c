/* Kernel state, start-up, the idle task, and the interrupt bracket. */
#include <string.h>

#include "../internal.h"
#include "../sched/bound.h"
#include "../sched/policy_fp_hwpq.h" /* fp_hwpq_device_fits */
#include "../sched/policy_ops.h"     /* edf_hwpq_device_fits */

#if (TAKT_CONFIG_POLICY == TAKT_POLICY_EDF_HWPQ || TAKT_CONFIG_POLICY == TAKT_POLICY_FP_HWPQ) && \
    !defined(TAKT_PORT_HWPQ_UNITS)
#error "takt_config.h: TAKT_POLICY_EDF_HWPQ and _FP_HWPQ need a port with the hardware priority queue (the sim)"
#endif

takt_kernel_t takt_kernel;

#if !TAKT_CONFIG_IDLE_MEMORY_FROM_APP
static takt_task_t idle_tcb;
static uint8_t idle_stack[TAKT_CONFIG_IDLE_STACK_SIZE] __attribute__((aligned(16)));
#endif

/* The idle task's control block and stack: the kernel's, or the
 * application's. NULL *tcb: none given. */
TAKT_COLD static void idle_memory_of(takt_task_t **tcb, void **stack, size_t *size)
{
#if !TAKT_CONFIG_IDLE_MEMORY_FROM_APP
    *tcb = &idle_tcb;
    *stack = idle_stack;
    *size = sizeof(idle_stack);
#else
    *tcb = NULL;
    *stack = NULL;
    *size = 0;
    takt_idle_memory(tcb, stack, size);
#endif
}

bool takt_idle_gives_way(void)
{
#if TAKT_CONFIG_IDLE_SHARES_LEVEL && TAKT_CONFIG_IDLE_YIELDS
    /* The idle task runs, so it is queued: its neighbours say (fp). */
    return sched_policy()->has_equal(takt_kernel.idle);
#else
    return false;
#endif
}

static void idle_main(void *arg)
{
    (void)arg;
    for (;;) {
        task_reclaim_deleted();
#if TAKT_CONFIG_IDLE_HOOK
        takt_idle_hook();
#endif
        if (takt_idle_gives_way()) {
            takt_yield(); /* behind the tasks of its level; back after them */
        } else {
            port_idle();
        }
    }
}

TAKT_COLD int takt_init(const takt_init_params_t *params)
{
    takt_init_params_t defaults = {.scheduler = TAKT_CONFIG_POLICY - TAKT_POLICY_FP, .tick_start = 0,
                                   .round_robin = false, .preemption = TAKT_PREEMPT_FULL};
    if (params == NULL) {
        params = &defaults;
    }
    if (takt_kernel.started) {
        return TAKT_ERR_STATE; /* it would wipe the tasks running it */
    }
#if TAKT_CONFIG_POLICY_ONLY
    /* Bound at compile time: the other policies are not in the program. */
    if ((unsigned)params->preemption > TAKT_PREEMPT_DEFERRED ||
        params->scheduler != (takt_scheduler_t)(TAKT_CONFIG_POLICY - TAKT_POLICY_FP)) {
        return TAKT_ERR_ARG;
    }
#else
    static const takt_policy_t *const policies[] = {
        [TAKT_SCHED_FP] = &takt_policy_fp,
        [TAKT_SCHED_EDF_HEAP] = &takt_policy_edf_heap,
        [TAKT_SCHED_EDF_MLIST] = &takt_policy_edf_mlist,
        [TAKT_SCHED_EDF_RBTREE] = &takt_policy_edf_rbtree,
        [TAKT_SCHED_HSF] = &takt_policy_hsf,
        [TAKT_SCHED_FP_LIST] = &takt_policy_fp_list,
#ifdef TAKT_PORT_HWPQ_UNITS
        [TAKT_SCHED_EDF_HWPQ] = &takt_policy_edf_hwpq,
        [TAKT_SCHED_FP_HWPQ] = &takt_policy_fp_hwpq,
#endif
    };
    if ((unsigned)params->preemption > TAKT_PREEMPT_DEFERRED ||
        (unsigned)params->scheduler >= sizeof(policies) / sizeof(policies[0]) ||
        policies[params->scheduler] == NULL) {
        return TAKT_ERR_ARG;
    }
#endif
#ifdef TAKT_PORT_HWPQ_UNITS
    /* The device would refuse a ready job, or a non-empty level. */
    if ((params->scheduler == TAKT_SCHED_EDF_HWPQ && !edf_hwpq_device_fits()) ||
        (params->scheduler == TAKT_SCHED_FP_HWPQ && !fp_hwpq_device_fits())) {
        return TAKT_ERR_ARG;
    }
#endif
#if TAKT_CONFIG_TIMER_QUEUE == TAKT_PQ_HW
    if (!timers_fit()) {
        return TAKT_ERR_ARG; /* the timer queue's device would refuse a timer */
    }
#endif
    if (params->scheduler == TAKT_SCHED_HSF && params->preemption != TAKT_PREEMPT_FULL) {
        return TAKT_ERR_ARG; /* budget enforcement preempts at any tick */
    }
    takt_task_t *idle;
    void *stack;
    size_t stack_size;
    idle_memory_of(&idle, &stack, &stack_size);
    if (idle == NULL || stack == NULL || task_memory_overlaps(idle, stack, stack_size) ||
        task_stack_usable(stack, stack_size) < port_min_stack_size()) {
        return TAKT_ERR_ARG;
    }
#if !TAKT_CONFIG_ROUND_ROBIN
    if (params->round_robin) {
        return TAKT_ERR_ARG;
    }
#endif
    if (task_handle_valid(takt_kernel.idle)) {
        /* Initialised, and not torn down since: the new kernel would not know
         * the old one's tasks, whose handles stay valid (a delete of one would
         * unlink it from the new task list). */
        return TAKT_ERR_STATE;
    }
    takt_kernel_t *k = &takt_kernel;
    memset(k, 0, sizeof(*k));
    takt_yield_hint = 0;
#if !TAKT_CONFIG_POLICY_ONLY
    k->policy = policies[params->scheduler];
#endif
    k->ticks = params->tick_start;
    k->round_robin = params->round_robin;
    k->preemption = params->preemption;
    takt_list_init(&k->all_tasks);
    takt_list_init(&k->reclaim);
    timers_init();
    /* A bound build answers from a constant (internal.h): the table's. */
    KASSERT(sched_orders_by_priority() == sched_policy()->orders_by_priority);
    sched_policy()->init();
    trace_reset();

    /* The idle task: priority 0, always ready, never blocks. */
    k->idle = idle;
    task_create_idle(idle, idle_main, stack, stack_size);
    return TAKT_OK;
}

TAKT_COLD int takt_start(void)
{
    takt_kernel_t *k = &takt_kernel;
    if (k->started || !task_handle_valid(k->idle)) {
        return TAKT_ERR_STATE; /* running already, or no takt_init (or torn down) since */
    }
    port_critical_t key = cold_critical_enter();
    timers_expire_due(); /* releases due at the start instant; the pick below sees them */
    takt_task_t *first = sched_policy()->peek(); /* it stays queued while it runs */
    first->state = TAKT_TASK_RUNNING;
    if (sched_policy()->dispatching != NULL) {
        sched_policy()->dispatching(first);
    }
    k->current = first;
#if TAKT_CONFIG_RUN_TIME_STATS
    sched_charge_run_time(NULL); /* the first task runs from now */
#endif
    trace_record(TAKT_EV_DISPATCH, first, task_current_job(first));
    k->started = true;
    cold_critical_exit(key);
    port_start(first);
    k->started = false;
    return TAKT_OK;
}

void takt_isr_enter(unsigned irq)
{
    trace_record(TAKT_EV_ISR_ENTER, NULL, irq);
}

void takt_isr_exit(unsigned irq)
{
    trace_record(TAKT_EV_ISR_EXIT, NULL, irq);
}

TAKT_COLD int takt_teardown(void)
{
    if (takt_kernel.started) {
        return TAKT_ERR_STATE; /* it would free the stack it runs on */
    }
    takt_list_node_t *node;
    while ((node = takt_list_first(&takt_kernel.all_tasks)) != NULL) {
        takt_task_t *task = TAKT_CONTAINER_OF(node, takt_task_t, all_node);
        takt_list_remove(node);
        sync_task_torn_down(task); /* static objects outlive the run */
        task->magic = 0;
        task_free_memory(task);
    }
    task_reclaim_deleted();
#if !TAKT_CONFIG_POLICY_ONLY || TAKT_CONFIG_POLICY == TAKT_POLICY_HSF
    server_teardown(); /* bound to another policy, no server can exist (takt_server_create) */
#endif
    return TAKT_OK;
}
