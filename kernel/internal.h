/*
 * Kernel-internal state and functions shared between kernel files.
 * Never included by applications or ports (ports use port/port.h).
 */
#ifndef TAKT_INTERNAL_H
#define TAKT_INTERNAL_H

#include <stddef.h>
#include <stdlib.h>
#include <assert.h>

#include "takt/takt.h"
#include "takt/attributes.h"
#include "port.h"
#include "sched/policy.h"

#if TAKT_CONFIG_ASSERTS
#define KASSERT(cond) TAKT_CONFIG_ASSERT(cond)
#else
#define KASSERT(cond) ((void)0)
#endif

/* One letter four times, as the objects' magics (services/sync/wait.h, none
 * of them K): a value Thumb-2's compare takes as an immediate, so the handle
 * check loads no constant. */
#define TAKT_TASK_MAGIC 0x4b4b4b4bu /* "KKKK" */
/* The idle task's priority: level 0, alone, or the lowest task level's
 * (TAKT_CONFIG_IDLE_SHARES_LEVEL). */
#define TAKT_IDLE_PRIORITY (TAKT_CONFIG_IDLE_SHARES_LEVEL ? 1u : 0u)

enum {
    TAKT_TASK_F_DYNAMIC = 1u << 0,  /* TCB and stack came from the heap */
    TAKT_TASK_F_PERIODIC = 1u << 1,
    TAKT_TASK_F_IDLE = 1u << 2,
    TAKT_TASK_F_NONPREEMPTIVE = 1u << 3, /* switches away only at preemption points */
    TAKT_TASK_F_SERVICE = 1u << 4, /* the kernel's own (the timer task): not deleted by the application */
    /* Suspended out of an object wait that its resume takes up again
     * (sync/wait.c: sync_wait_suspend); wait and wait_queue still name it,
     * wait_timed whether it has a timeout (its end: the wake timer's key). */
    TAKT_TASK_F_REJOIN = 1u << 5,
};

typedef struct {
    takt_task_t *current; /* the running task (it stays in the ready queue) */
#if !TAKT_CONFIG_POLICY_ONLY
    /* The runtime choice (takt_init). A bound build has none: storing the
     * bound table's address would keep an out-of-line copy of every
     * operation the core calls inline (sched/bound.h). */
    const takt_policy_t *policy;
#endif
    takt_tick_t ticks;
    takt_pq_t timers;
    /* What decides whether the running task may block, so that one load
     * tests it all (task_may_block_now): it may when the kernel has started
     * and neither count is above 0. */
    union {
        struct {
            uint8_t sched_lock;   /* takt_sched_lock nesting: no switch away from a running task */
            uint8_t app_critical; /* takt_critical_enter nesting (task level) */
            bool started;         /* takt_start ran and the run goes on */
            uint8_t block_unused;
        };
        uint32_t block_word;
    };
    /* What makes a switch point more than picking the head, so that one
     * word's test skips it all (takt_sched_switch_point): the requests, a
     * held scheduler lock, a non-preemptive task. */
    union {
        struct {
            /* What the next switch point must do besides picking the head;
             * the switch point tests them at once (switch_requests) and
             * clears them. A task sets yield_current without a critical
             * section, so it has a byte of its own: a byte store cannot lose
             * an interrupt's store to a neighbour. The others share a byte
             * (the whole of switch_special then fits a word, one load and
             * one test): each is set under the kernel lock, so the
             * read-modify-write of one cannot lose another. */
            union {
                struct {
                    bool rotate_current : 1;      /* round-robin slice expired: current goes behind its equals */
                    bool at_preemption_point : 1; /* the running task offered to be preempted */
                    bool demoted_current : 1;     /* its priority dropped: it goes behind its new equals */
                    bool yield_current;           /* it yielded: behind its equals, and a preemption point */
                };
                uint16_t switch_requests;
            };
            /* A task was made non-preemptive since takt_init (never
             * cleared): until then a wake needs no look at the running task
             * (make_ready), a switch point none at its flags, and the yield
             * hint stays 0. */
            bool nonpreemptive_seen;
            bool sched_locked; /* sched_lock != 0 (takt_sched_lock keeps both) */
        };
        uint32_t switch_special;
    };
    takt_preemption_t preemption;
    bool round_robin;
    uint16_t next_task_id;
    uint16_t live_tasks;
    port_critical_t app_critical_key; /* the outermost takt_critical_enter's */
    uint64_t ready_instant;        /* distinct instants at which tasks became ready */
    takt_stamp_t last_ready_stamp; /* the latest of them */
    uint32_t context_switches;
    takt_list_t all_tasks;
    takt_list_t reclaim; /* self-deleted dynamic tasks whose memory the idle task frees */
    takt_task_t *idle; /* its control block: the kernel's, or the application's */
    takt_server_t *soft_timer_server; /* hsf: where the timer task will live (takt/soft_timer.h) */
    /* A round-robin slice that ended while this task ran non-preemptively:
     * it goes behind its equals at its next preemption point. Meant for the
     * run it ended in, the one that context_switches counted when it was
     * set; a later run of the same task finds the count moved on, so nothing
     * clears it (sched/core.c). */
    const takt_task_t *rotate_at_point;
    uint32_t rotate_at_point_run;
#if TAKT_CONFIG_RUN_TIME_STATS
    takt_run_time_t run_time_switched_in; /* the counter when the running task was dispatched */
#endif
} takt_kernel_t;

extern takt_kernel_t takt_kernel;
_Static_assert(offsetof(takt_kernel_t, current) == 0,
               "port.h: the running task is the first word of takt_kernel");
#if TAKT_CONFIG_POLICY_ONLY && UINTPTR_MAX == 0xFFFFFFFFu
/* A bound 32-bit build reaches every flag byte in a 16-bit Thumb ldrb/strb
 * (offset 31 at most): a wider timer queue before them cost 60 bytes of text
 * (kernel/ds/pq.h). */
_Static_assert(offsetof(takt_kernel_t, switch_special) + sizeof(uint32_t) <= 32,
               "takt_kernel_t: the switch flags within a byte access's short offset");
#endif

/* True while the hsf scheduler runs; a constant when the build binds another
 * (TAKT_CONFIG_POLICY_ONLY), so the hsf policy is not linked. */
static inline bool sched_is_hsf(void)
{
#if TAKT_CONFIG_POLICY_ONLY
    return TAKT_CONFIG_POLICY == TAKT_POLICY_HSF;
#else
    return takt_kernel.policy == &takt_policy_hsf;
#endif
}

/* Whether the policy orders tasks by priority (sched/policy.h); a constant
 * when the build binds one policy. */
static inline bool sched_orders_by_priority(void)
{
#if TAKT_CONFIG_POLICY_ONLY
    return TAKT_CONFIG_POLICY == TAKT_POLICY_FP || TAKT_CONFIG_POLICY == TAKT_POLICY_HSF ||
           TAKT_CONFIG_POLICY == TAKT_POLICY_FP_LIST || TAKT_CONFIG_POLICY == TAKT_POLICY_FP_HWPQ;
#else
    return takt_kernel.policy->orders_by_priority;
#endif
}

/* ---- scheduler core (sched/core.c) ---- */
/* Task became ready now: queued behind the tasks that became ready before it. */
void sched_make_ready(takt_task_t *task);
/* A blocked task's wait ended (wait: why it waited): it becomes ready and may run. */
void task_wake(takt_task_t *task, takt_wait_t wait);
/* Takes a READY task, or the running task, out of the ready queue (check
 * with sched_in_ready_queue). */
void sched_make_unready(takt_task_t *task);
/* Puts the queued running task back after sched_make_unready (a priority
 * change), still RUNNING: in front of its new equals, or behind them when it
 * was demoted (demoted_current) and may be preempted. */
void sched_requeue_running(takt_task_t *task);
/* Puts a READY task back after sched_make_unready when its key changed but it
 * did not become ready anew (an inherited deadline under EDF): by its old
 * ready order. */
void sched_requeue_ready(takt_task_t *task);
/* Whether task is in the ready queue: READY, or RUNNING (it stays queued). */
static inline bool sched_in_ready_queue(const takt_task_t *task)
{
    return task->state == TAKT_TASK_READY || task->state == TAKT_TASK_RUNNING;
}
#if TAKT_CONFIG_RUN_TIME_STATS
/* The running task leaves (or runs from now on, at the start): it is charged
 * the counter ticks since it was dispatched. Assumptions: kernel lock held. */
static inline void sched_charge_run_time(takt_task_t *leaving)
{
    takt_run_time_t now = TAKT_CONFIG_RUN_TIME_COUNTER();
    if (leaving != NULL) {
        leaving->run_time += (takt_run_time_t)(now - takt_kernel.run_time_switched_in);
    }
    takt_kernel.run_time_switched_in = now;
}
#endif
/* sched_block_current: sched/bound.h, where the policy's remove inlines. */
/* Whether the port may be asked for a switch now: not before the run starts
 * (the port must not switch then), unless it takes requests at any time. */
static inline bool sched_switch_allowed(void)
{
#ifdef TAKT_PORT_SWITCH_REQUEST_ANY_TIME
    return true;
#else
    return takt_kernel.started;
#endif
}
/* Something changed that may change who runs: decide now (task context) or at
 * the next switch point (interrupt, critical section). Inline: on every path
 * that readies or blocks a task. */
static inline void sched_reschedule(void)
{
    if (sched_switch_allowed()) {
        port_request_switch();
    }
}
/* sched_reschedule with the kernel lock held (port_request_switch_locked). */
static inline void sched_reschedule_locked(void)
{
    if (sched_switch_allowed()) {
        port_request_switch_locked();
    }
}

/* ---- time (time.c) ---- */
/* Empties the timer queue (takt_init). */
void timers_init(void);
/* Whether the timer queue can hold every timer there can be: false only
 * for a hardware queue (TAKT_PQ_HW) that is missing or too shallow; asked
 * only with TAKT_PQ_HW. */
bool timers_fit(void);
void timer_init(takt_timer_t *timer, void (*expire)(takt_timer_t *timer));
/* As timer_init, for a timer that expires before the ordinary timers due at
 * the same tick, early timers among themselves by order (server
 * replenishments, by server index, come before releases: SCHEDULING.md
 * "Order of events", step 4 before step 5). */
void timer_init_early(takt_timer_t *timer, void (*expire)(takt_timer_t *timer), uint32_t order);
/* Arms (or re-arms) timer to expire at the first tick >= when. */
void timer_arm(takt_timer_t *timer, takt_tick_t when);
/* A queued timer leaves the timer queue. */
void timer_dequeue(takt_timer_t *timer);
/* Inline: most waits end with no timeout armed, so a wake pays one test. */
static inline void timer_cancel(takt_timer_t *timer)
{
    if (takt_pq_node_queued(&timer->node)) {
        timer_dequeue(timer);
    }
}
void timers_expire_due(void);
/* Sets up a new task's delay timer. */
void time_task_init(takt_task_t *task);

/* ---- jobs (job.c) ---- */
/* Sets up a new task's job timers. */
void job_task_init(takt_task_t *task);
/* Stops a deleted task's job timers. */
void job_task_removed(takt_task_t *task);
/* Sets a new periodic task waiting for its first release. */
void job_model_start(takt_task_t *task, takt_tick_t offset);
/* What a suspended periodic task does when resumed: run, or wait for a release. */
bool job_pending(const takt_task_t *task);

/* A task's EDF scheduling deadline: periodic tasks have their job's; a task
 * holding a mutex a deadline job waits for inherits that job's (if earlier). */
static inline bool task_has_deadline(const takt_task_t *task)
{
    return (task->flags & TAKT_TASK_F_PERIODIC) || task->deadline_inherited;
}

static inline takt_tick_t task_deadline(const takt_task_t *task)
{
    if (!(task->flags & TAKT_TASK_F_PERIODIC)) {
        return task->inherited_deadline;
    }
    takt_tick_t own = task->job_deadline; /* of the job it runs or runs next */
    if (task->deadline_inherited && takt_tick_before(task->inherited_deadline, own)) {
        return task->inherited_deadline;
    }
    return own;
}

/* ---- synchronisation (services/sync) ---- */
/* A blocked task's timeout expired while it waited on an object: it leaves
 * the object's waiter list (the caller then wakes it). */
void sync_wait_timed_out(takt_task_t *task);
/* A task being deleted stops waiting (its wait ends in timeout). */
void sync_wait_detach(takt_task_t *task);
/* A task being suspended stops waiting, before its timeout is cancelled. A
 * wait on a semaphore, mutex, queue, queue set or to send to a stream is kept
 * (TAKT_TASK_F_REJOIN, its wait reason kept) for sync_wait_resume; any other
 * ends in timeout, and the task's wait is TAKT_WAIT_NONE after. A task served
 * by a semaphore, mutex or queue receive whose call has not returned gives
 * back what it was handed and is kept as waiting again, as if suspended
 * before the serve. */
void sync_wait_suspend(takt_task_t *task);
/* A resumed task with TAKT_TASK_F_REJOIN takes its wait up again: served at
 * once if the object has what it waits for, waiting again until the end of
 * its timeout if not, its wait ended in timeout if that end has passed. */
void sync_wait_resume(takt_task_t *task);
/* A task about to be deleted that was served (handed a unit, item or bytes)
 * and whose blocking call has not returned gives back what it was handed,
 * to its object (takt_waitq_ops_t.give_back). False, and nothing changed,
 * if the object has no room for it; true otherwise (also with nothing to
 * give back). */
bool sync_task_gives_back(takt_task_t *task);
/* Whether memory given to a create_static (size: the object's) holds a live
 * object of any type: not only its own (the caller's TAKT_ERR_STATE), since
 * one buffer may serve several types (the FreeRTOS layer's StaticQueue_t is a
 * queue, semaphore or mutex) and re-creating a live queue as a semaphore
 * would strand its waiters. A waitable object or timer is found by its magic
 * at memory (nothing lists them; the read stays where every object, task and
 * server is at least as large); a task's control block or stack, or a
 * server's control block, anywhere in the range. The caller holds the kernel
 * lock, so that nothing creates in between. */
bool sync_memory_in_use(const void *memory, size_t size);
/* A task being deleted releases the mutexes it holds. */
void sync_task_deleted(takt_task_t *task);
/* A task takt_teardown frees leaves the waiters it is among and frees its
 * mutexes, serving nobody (the other tasks go too). */
void sync_task_torn_down(takt_task_t *task);
/* Recomputes a task's effective priority (and inherited deadline) from its base
 * priority and the waiters of the mutexes it holds, and re-queues it. */
void sync_priority_update(takt_task_t *task);

/* ---- tasks (task.c) ---- */
/* The task's current (effective) priority, and with it its ready-queue bit
 * (ready_bit: level p is bit p-1, as in sched/fp_queue.h; only a one-word
 * bitmap uses it). Never while the task is in a ready queue; never the idle
 * task at level 0 (level 0 has no bit: task_setup gives it 0). */
static inline void task_set_priority_level(takt_task_t *task, unsigned priority)
{
    KASSERT(priority >= 1u);
    task->priority = (uint16_t)priority;
#if TAKT_CONFIG_MAX_PRIORITIES - 1 <= 32
    task->ready_bit = 1u << (priority - 1u);
#endif
}

static inline bool task_handle_valid(const takt_task_t *task)
{
    return task != NULL && task->magic == TAKT_TASK_MAGIC;
}
/* Whether a control block and a stack the application gave share bytes: the
 * stack would overwrite the task's fields as it grows. A size that runs past
 * the end of the address space (a negative size cast, say) is no stack's:
 * the range would wrap round onto every address, the control block's too. */
static inline bool memory_ranges_overlap(const void *a, size_t a_size, const void *b, size_t b_size)
{
    return (uintptr_t)a < (uintptr_t)b + b_size && (uintptr_t)b < (uintptr_t)a + a_size;
}
static inline bool task_memory_overlaps(const takt_task_t *tcb, const void *stack, size_t stack_size)
{
    return stack_size > UINTPTR_MAX - (uintptr_t)stack ||
           memory_ranges_overlap(tcb, sizeof(*tcb), stack, stack_size);
}
/* Stacks grow down on every supported port and start 16-byte aligned (AAPCS
 * asks 8; 16 suits every port): a task's stack is the aligned part of the
 * memory given, which is what the minimum is checked against. */
#define TAKT_STACK_ALIGN 16u
static inline uintptr_t task_stack_low(const void *stack)
{
    return ((uintptr_t)stack + TAKT_STACK_ALIGN - 1u) & ~(uintptr_t)(TAKT_STACK_ALIGN - 1u);
}
/* Assumptions: the memory does not wrap (!task_memory_overlaps). */
static inline size_t task_stack_usable(const void *stack, size_t stack_size)
{
    uintptr_t low = task_stack_low(stack);
    uintptr_t high = ((uintptr_t)stack + stack_size) & ~(uintptr_t)(TAKT_STACK_ALIGN - 1u);
    return high > low ? (size_t)(high - low) : 0u;
}
/* The first node of a walk over the live tasks (`node != &takt_kernel.all_tasks`
 * ends it). Before the first takt_init the list was never initialised (its
 * links are the zeros of static memory): there are no tasks, and the walk
 * starts at its end. For the walks of calls an application may make before
 * takt_init (queries, an object's delete or a member's removal). */
static inline takt_list_node_t *kernel_tasks_first(void)
{
    takt_list_node_t *first = takt_kernel.all_tasks.next;
    return first != NULL ? first : &takt_kernel.all_tasks;
}
/* Whether memory shares a byte with a live task's control block or the stack
 * it runs on, or with a live server's control block (services/task_lookup.c).
 * O(tasks + servers). Assumptions: kernel lock held. */
bool listed_memory_in_use(const void *memory, size_t size);
/* A valid handle, or the calling task for NULL (task context); NULL otherwise. */
takt_task_t *task_resolve(const takt_task_t *task);
/* Frees a dynamic task's control block and stack; nothing for a static task. */
void task_free_memory(takt_task_t *task);
void task_stack_check(takt_task_t *task);
void task_reclaim_deleted(void);
/* Creates the idle task (priority 0, always ready). Assumptions: takt_init. */
void task_create_idle(takt_task_t *idle, void (*entry)(void *arg), void *stack, size_t stack_size);
/* takt_task_create(_static) for a task inside server (NULL: an ordinary task).
 * Under the hsf scheduler every application task needs a server, under the
 * others none may have one (TAKT_ERR_STATE). */
int task_create_in(takt_server_t *server, const takt_task_params_t *params, takt_task_t **out);
int task_create_static_in(takt_server_t *server, const takt_task_params_t *params,
                          takt_task_t *tcb, void *stack, size_t stack_size);

/* ---- servers (services/server.c) ---- */
/* Frees the dynamic servers (takt_teardown). */
void server_teardown(void);
/* Whether memory shares a byte with a live server's control block. O(servers).
 * Assumptions: kernel lock held. */
bool server_memory_in_use(const void *memory, size_t size);

/* ---- trace (trace.c) ---- */
void trace_reset(void);
#if TAKT_CONFIG_TRACE || TAKT_CONFIG_TRACE_HOOK
void trace_record(takt_event_type_t type, const takt_task_t *task, uint32_t arg);
/* An event whose task field is not a task (servers: the server index). */
void trace_record_id(takt_event_type_t type, uint16_t id, uint32_t arg);
#else
static inline void trace_record(takt_event_type_t type, const takt_task_t *task, uint32_t arg)
{
    (void)type;
    (void)task;
    (void)arg;
}
static inline void trace_record_id(takt_event_type_t type, uint16_t id, uint32_t arg)
{
    (void)type;
    (void)id;
    (void)arg;
}
#endif

/* The job a periodic task is running or will run next. */
static inline uint32_t task_current_job(const takt_task_t *task)
{
    return task->jobs_completed;
}

/* The section of set-up and tear-down (TAKT_COLD): one out-of-line copy, the
 * one the kernel exports anyway (takt_critical_enter_from_isr is
 * port_critical_enter itself, its exit port_critical_exit). Where a port's
 * section is inline (Cortex-M), GCC does not inline it into code compiled
 * for size, and would otherwise emit a copy in every file with such a
 * caller; the timed paths keep port_critical_enter/exit inline. */
static inline port_critical_t cold_critical_enter(void)
{
    return takt_critical_enter_from_isr();
}

static inline void cold_critical_exit(port_critical_t key)
{
    takt_critical_exit_from_isr(key);
}

static inline bool in_task_context(void)
{
    return takt_kernel.started && !port_in_isr();
}

/* Whether the running task may block now: not the idle task, the scheduler
 * not locked, not inside takt_critical_enter (no switch may happen there). */
static inline bool current_may_block(void)
{
    const takt_kernel_t *k = &takt_kernel;
    return !(k->current->flags & TAKT_TASK_F_IDLE) && k->sched_lock == 0 && k->app_critical == 0;
}

/* in_task_context() && current_may_block(), with one load for the started
 * flag and both counts (block_word; then current is a task). */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "block_word's value assumes little-endian");
#define TAKT_BLOCK_WORD_FREE                                                                    \
    ((uint32_t)1u << (8u * (offsetof(takt_kernel_t, started) - offsetof(takt_kernel_t, block_word))))
static inline bool task_may_block_now(void)
{
    const takt_kernel_t *k = &takt_kernel;
    return k->block_word == TAKT_BLOCK_WORD_FREE && !port_in_isr() &&
           !(k->current->flags & TAKT_TASK_F_IDLE);
}

#endif
