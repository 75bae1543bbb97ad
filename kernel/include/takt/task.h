/*
 * Tasks and the periodic job model.
 *
 * A task is a thread of control with a fixed base priority. A task created
 * with a period is periodic: the kernel releases its job k at
 * offset + k*period; the task runs its job and calls takt_job_end(), which
 * blocks it until its next job is released (or returns at once if that job is
 * already waiting: jobs of one task run in order, never concurrently).
 * Deadline misses are detected by the kernel (see ../shared/spec/SCHEDULING.md
 * "Jobs"): trace event, per-task counter, optional hook.
 */
#ifndef TAKT_TASK_H
#define TAKT_TASK_H

#include "takt/config_check.h"
#include "takt/types.h"
#include "takt_port_types.h"

#include "ds/list.h"
#include "ds/pq.h"

typedef enum {
    TAKT_TASK_RUNNING,
    TAKT_TASK_READY,
    TAKT_TASK_BLOCKED, /* delayed, or waiting for its next job release */
    TAKT_TASK_SUSPENDED,
    TAKT_TASK_DELETED,
} takt_task_state_t;

/* Why a blocked task waits. */
typedef enum {
    TAKT_WAIT_NONE,
    TAKT_WAIT_DELAY,
    TAKT_WAIT_RELEASE,
    /* waiting on a synchronisation object (takt/sync.h) */
    TAKT_WAIT_SEM,
    TAKT_WAIT_MUTEX,
    TAKT_WAIT_QUEUE_SEND,    /* for room in a queue */
    TAKT_WAIT_QUEUE_RECEIVE, /* for an item (receive or peek) */
    TAKT_WAIT_QUEUE_SET,
    TAKT_WAIT_EVENT_GROUP,
    TAKT_WAIT_NOTIFY,
    TAKT_WAIT_STREAM_SEND,    /* for room in a stream or message buffer */
    TAKT_WAIT_STREAM_RECEIVE, /* for bytes or a message */
} takt_wait_t;

struct takt_server; /* takt/server.h */

#if TAKT_CONFIG_RUN_TIME_STATS
/* A reading of the application's run-time counter (TAKT_CONFIG_RUN_TIME_COUNTER). */
typedef TAKT_CONFIG_RUN_TIME_TYPE takt_run_time_t;
#endif

/* A kernel timer: a node in the timer queue and what to do when it expires. */
typedef struct takt_timer {
    takt_pq_node_t node;
    void (*expire)(struct takt_timer *timer);
    /* A task's wake timer: when it is the first due, the tick ends that
     * wait in line, not through expire; a byte's test tells it (it sits in
     * the padding after expire). */
    bool ends_wait;
} takt_timer_t;

/*
 * Task control block. Its fields belong to the kernel: applications only
 * allocate it (for takt_task_create_static) and pass pointers to it.
 */
typedef struct takt_task {
    union {
        takt_list_node_t list; /* FIFO lists (fp), EDF-L lists (edf mlist) */
        takt_pq_node_t pq;     /* deadline-keyed queues (edf heap, rbtree) */
    } ready;                   /* in the policy's ready queue while READY */
    takt_timer_t wake_timer;     /* end of a delay */
    takt_timer_t release_timer;  /* next job release (periodic tasks) */
    takt_timer_t deadline_timer; /* first tick after the deadline of the oldest open job */
    port_context_t context;
    /* When the task last became ready, as a total order: the instant (counted by
     * the kernel) in the high bits, the id below, so tasks ready at one instant
     * are ordered by id (SCHEDULING.md "Order of events"). FIFO among equals. */
    uint64_t ready_order;
    takt_tick_t ready_deadline; /* EDF: absolute deadline it was queued with */
    uint16_t list_index;        /* EDF-L: rank of its relative deadline (its own list) */
    uint16_t list_index_now;    /* EDF-L: the list it is queued in */
    struct takt_server *server; /* HSF: the server it belongs to (NULL otherwise) */
    uint32_t magic;           /* TAKT_TASK_MAGIC while the handle is valid */
    uint16_t id;              /* creation order: ties at one instant go to the lower id */
    uint16_t priority;
    uint16_t base_priority;
    uint8_t state;  /* takt_task_state_t */
    uint8_t wait;   /* takt_wait_t while BLOCKED */
    uint8_t flags;  /* TAKT_TASK_F_* (kernel-internal) */
    /* The fixed-priority ready queue's bit for its priority (1 << (priority -
     * 1); 0 for the idle task), kept with priority so that queuing a task
     * sets or clears it without computing it. */
    uint32_t ready_bit;
    void (*entry)(void *arg);
    void *arg;
    uint8_t *stack;       /* aligned usable region */
    size_t stack_size;
    void *stack_memory;   /* as given or allocated */
    /* Periodic job model; period == 0 for an ordinary task. */
    takt_tick_t period;
    takt_tick_t rel_deadline;
    takt_tick_t wcet;
    takt_tick_t first_release;
    uint32_t jobs_released;
    uint32_t jobs_completed;
    /* Absolute deadline of job jobs_completed (the one it runs or runs next),
     * kept with the count so that EDF reads it instead of computing it. */
    takt_tick_t job_deadline;
    uint32_t jobs_miss_checked; /* jobs below this index have had their deadline verdict */
    uint32_t deadline_misses;
    takt_list_node_t all_node;     /* in the kernel's list of live tasks */
    takt_list_node_t reclaim_node; /* on the reclaim list after a self-delete */
    /* Synchronisation (services/sync): what the task waits on, what it holds. */
    takt_list_node_t wait_node;    /* in an object's waiter list while waiting on it */
    /* That list, or NULL. A wait keeps it until the blocking call returns
     * in the task (sync_block_finish), so that a delete in between can give
     * back what the task was handed (services/task.c), and a call that reads
     * its object again after a timeout knows whether the object's delete
     * came first (sync_block_relock). */
    struct takt_waitq *wait_queue;
    void *wait_data;               /* the caller's item or buffer while waiting */
    size_t wait_size;
    uint32_t wait_bits;            /* event bits asked for / seen; notification slot */
    int8_t wait_result;            /* TAKT_OK or the error the wait ended with */
    /* The last object wait had a timeout (the wake timer's key is its end):
     * what a suspend keeps for the resume that takes the wait up again, also
     * after a serve that the suspend gives back (sync/wait.c). Beside
     * wait_result, so that blocking stores both with one halfword. */
    bool wait_timed;
    uint8_t wait_flags;            /* per-object detail (queue: front/peek; event: all/clear) */
    bool deadline_inherited;       /* EDF: runs by inherited_deadline (if earlier) */
    takt_tick_t inherited_deadline; /* earliest deadline among waiters of its mutexes */
    takt_list_t mutexes_held;
#if TAKT_CONFIG_TASK_NOTIFICATIONS > 0
    uint32_t notify_value[TAKT_CONFIG_TASK_NOTIFICATIONS];
    uint8_t notify_pending[TAKT_CONFIG_TASK_NOTIFICATIONS];
#endif
    char name[TAKT_CONFIG_MAX_NAME_LEN];
    /* Last, so that the options move no other field. */
#if TAKT_CONFIG_RUN_TIME_STATS
    takt_run_time_t run_time; /* counter ticks it ran, up to its last switch away */
#endif
#if TAKT_CONFIG_TASK_USER_WORDS > 0
    uintptr_t user_words[TAKT_CONFIG_TASK_USER_WORDS];
#endif
} takt_task_t;

typedef struct {
    const char *name;        /* copied; may be NULL */
    void (*entry)(void *arg); /* must not return; a periodic task loops over takt_job_end() */
    void *arg;
    unsigned priority;       /* 1 .. TAKT_CONFIG_MAX_PRIORITIES-1 */
    size_t stack_size;       /* bytes; used by takt_task_create only */
    takt_tick_t period;      /* 0: not periodic */
    takt_tick_t deadline;    /* relative deadline; 0 means equal to the period */
    takt_tick_t wcet;        /* declared worst-case execution time (informative) */
    takt_tick_t offset;      /* first release, ticks after start (or after creation once started) */
} takt_task_params_t;

/*
 * Creates a task with its control block and stack from the configured heap.
 * Context: task or before start; not from an interrupt. May reschedule.
 * Returns TAKT_OK and the handle in *out; TAKT_ERR_ARG for a null params/entry/out,
 * a priority out of 1..MAX-1, a stack smaller than the port minimum plus the
 * 32-byte guard (the task uses stack_size rounded down to 16 bytes, allocated
 * 15 bytes larger so that it can start on a 16-byte boundary), a deadline or offset without a period, a period, deadline or
 * offset of 2^31 ticks or more, a relative deadline (without one: the period)
 * of 2^31 - 1 (its miss is checked a tick later, which must stay within the
 * timer queue's half range); TAKT_ERR_NOMEM if allocation fails;
 * TAKT_ERR_CONTEXT from an interrupt; TAKT_ERR_STATE before takt_init, and
 * under the hsf scheduler (tasks live in servers there: takt_server_task_create).
 */
int takt_task_create(const takt_task_params_t *params, takt_task_t **out);

/* As takt_task_create, with caller-provided control block and stack
 * (stack_size here overrides params->stack_size). The task uses the stack's
 * 16-byte aligned part, and the minimum is checked on that part: memory that
 * starts or ends off a 16-byte boundary loses up to 15 bytes at each end.
 * Also TAKT_ERR_ARG for a NULL tcb or stack, the two overlapping, or a
 * stack_size that runs past the end of the address space; TAKT_ERR_STATE,
 * nothing changed, if tcb's memory holds a live object of any kind
 * (takt/sync.h), or the stack shares a byte with a live task's control block
 * or stack or a live server's control block. */
int takt_task_create_static(const takt_task_params_t *params, takt_task_t *tcb, void *stack,
                            size_t stack_size);

/* The memory a task (NULL: the caller) was created in, when it was not taken
 * from the heap: its control block (the handle) in *tcb and its stack as
 * given in *stack (both may be NULL). The idle and timer tasks count as
 * static: theirs is the kernel's or, with TAKT_CONFIG_*_MEMORY_FROM_APP, the
 * application's. TAKT_ERR_STATE (nothing written) for a task from
 * takt_task_create; TAKT_ERR_ARG for a bad handle, or NULL outside a task.
 * Any context. */
int takt_task_static_memory(takt_task_t *task, takt_task_t **tcb, void **stack);

/* Deletes a task (NULL: the caller). A task deleting itself does not return;
 * its memory (if dynamic) is freed by the idle task. The idle task and the
 * timer task (takt/soft_timer.h) cannot be deleted (TAKT_ERR_ARG). Context:
 * task (TAKT_ERR_CONTEXT from an interrupt, and for the caller itself with the
 * scheduler locked or inside takt_critical_enter). May reschedule.
 * A task whose wait was served (a semaphore's unit, a queue's item, a
 * stream's bytes handed to it) and that is deleted before that call returned
 * in it gives them back to the object first, as if it had never taken them;
 * if sends filled the queue or stream since, there is no room for them and
 * the delete is refused (TAKT_ERR_STATE, nothing changed): receive from it,
 * then delete again. */
int takt_task_delete(takt_task_t *task);

/* Suspends a task (NULL: the caller) until takt_task_resume. Its periodic
 * releases go on (released jobs wait); a delay in progress is cancelled; a
 * wait on an object is left, and some are taken up again at the resume
 * (takt/sync.h). TAKT_ERR_ARG for a bad handle, NULL outside a task, or the
 * idle task. Context: task (TAKT_ERR_CONTEXT as for takt_task_delete). May
 * reschedule. */
int takt_task_suspend(takt_task_t *task);

/* Resumes a suspended task; TAKT_ERR_STATE if it is not suspended,
 * TAKT_ERR_ARG for a bad handle (NULL too). Context: task (TAKT_ERR_CONTEXT
 * from an interrupt). May reschedule. */
int takt_task_resume(takt_task_t *task);

/* As takt_task_resume, from an interrupt; the switch happens at interrupt
 * exit. From a task it is takt_task_resume (takt/sync.h). */
int takt_task_resume_from_isr(takt_task_t *task);

/* Blocks the caller for ticks ticks (0: yields); at most INT32_MAX ticks
 * (TAKT_ERR_ARG), as a timeout. Context: task (TAKT_ERR_CONTEXT from the idle
 * task, with the scheduler locked, inside takt_critical_enter). */
int takt_delay(takt_tick_t ticks);

/*
 * Blocks the caller until *previous_wake + increment and advances
 * *previous_wake by increment. Returns 1 if the caller was delayed, 0 if that
 * time had already come (no delay: the caller is late), negative on error
 * (TAKT_ERR_ARG: previous_wake NULL, increment 0 or above INT32_MAX).
 */
int takt_delay_until(takt_tick_t *previous_wake, takt_tick_t increment);

/*
 * Ends a blocked task's delay or wait on an object now (FreeRTOS
 * xTaskAbortDelay): a wait returns TAKT_ERR_TIMEOUT as if its timeout had
 * passed (traced as WAIT_TIMEOUT), also an indefinite one; a delay returns as
 * if it had ended. TAKT_ERR_ARG for a bad handle; TAKT_ERR_STATE if the task
 * is not blocked in a delay or an object wait (ready, running, suspended, or
 * a periodic task waiting for its next release). Any context. May reschedule.
 */
int takt_task_abort_delay(takt_task_t *task);

/* Live tasks, the idle task (and the timer task, once it exists) included; a
 * deleted task no longer counts. Any context. */
unsigned takt_task_count(void);

/* The first-created live task named name (the whole name: a name truncated to
 * TAKT_CONFIG_MAX_NAME_LEN - 1 at creation matches only its truncated form);
 * NULL if none or name is NULL. O(tasks) with interrupts masked. Context: task
 * or before start. */
takt_task_t *takt_task_find(const char *name);

/* The idle task; NULL before takt_init. Any context. */
takt_task_t *takt_task_idle(void);

/* Lets equal-priority ready tasks run first. Context: task. */
void takt_yield(void);

/* Current (possibly inherited) priority; negative on a bad handle. NULL: the caller. */
int takt_task_get_priority(const takt_task_t *task);
/* The priority it was given (what a mutex's inheritance falls back to);
 * negative on a bad handle. NULL: the caller. Any context. */
int takt_task_get_base_priority(const takt_task_t *task);

/* Sets the base priority (1..MAX-1). NULL: the caller. TAKT_ERR_ARG for a
 * bad handle, the idle task or a priority out of range. Context: task or
 * before start (TAKT_ERR_CONTEXT from an interrupt). May reschedule. */
int takt_task_set_priority(takt_task_t *task, unsigned priority);

/* State of a task; TAKT_TASK_DELETED for an invalid handle. NULL: the caller. */
takt_task_state_t takt_task_state(const takt_task_t *task);

/* Smallest number of stack bytes that stayed unused since creation
 * (0 on a bad handle or with TAKT_CONFIG_STACK_CHECK off). */
size_t takt_task_stack_high_water(const takt_task_t *task);

/* The calling task (NULL before start and in interrupts outside a task). */
takt_task_t *takt_task_self(void);
/* The task the kernel runs: in an interrupt, the one it interrupted; in the
 * trace hook's DISPATCH (takt/trace.h), the one that stops running. NULL
 * before start. Any context. */
takt_task_t *takt_task_running(void);

const char *takt_task_name(const takt_task_t *task);

/* The id trace events carry for this task (creation order; the idle task is 0).
 * -1 on a bad handle. */
int takt_task_id(const takt_task_t *task);

/* What takt_task_info reports about one task: a snapshot, each task's fields
 * read together. */
typedef struct {
    takt_task_t *task;
    const char *name;         /* the task's own copy (valid while the task lives) */
    unsigned id;              /* takt_task_id */
    takt_task_state_t state;  /* TAKT_TASK_RUNNING for the caller */
    unsigned priority;        /* current (possibly inherited) */
    unsigned base_priority;
    void *stack_base;         /* lowest address of the usable stack */
    size_t stack_size;        /* bytes */
    size_t stack_high_water;  /* takt_task_stack_high_water, if asked; else 0 */
#if TAKT_CONFIG_RUN_TIME_STATS
    takt_run_time_t run_time; /* takt_task_run_time */
#endif
} takt_task_info_t;

/*
 * One task's snapshot in *info (NULL task: the caller). stack_high_water
 * scans the task's stack (O(stack bytes)) when asked. TAKT_ERR_ARG for a bad
 * handle or a NULL info; TAKT_ERR_CONTEXT from an interrupt. Context: task or
 * before start; interrupts are masked only while the task's fields are read.
 */
int takt_task_info(const takt_task_t *task, takt_task_info_t *info, bool stack_high_water);

/*
 * Calls visit(info, ctx) with a snapshot of each live task, in creation order
 * (the idle task first); returns how many tasks were visited. The scheduler
 * is locked for the walk, so the set of tasks cannot change under it (no
 * other task runs, and interrupts can neither create nor delete one): visit
 * runs with interrupts enabled and must not block. Interrupts are masked only
 * while one task's fields are read, so the longest masked stretch does not
 * grow with the number of tasks. The walk costs O(tasks), plus O(stack bytes)
 * per task with stack_high_water. Returns 0 (visits none) from an interrupt
 * or for a NULL visit. Context: task or before start.
 */
unsigned takt_task_info_each(void (*visit)(const takt_task_info_t *info, void *ctx), void *ctx,
                             bool stack_high_water);

#if TAKT_CONFIG_RUN_TIME_STATS
/* Counter ticks the task has run (NULL: the caller): up to now for the running
 * task, up to its last switch away for the others; 0 on a bad handle. Any
 * context. */
takt_run_time_t takt_task_run_time(const takt_task_t *task);
#endif

#if TAKT_CONFIG_TASK_USER_WORDS > 0
/* The task's TAKT_CONFIG_TASK_USER_WORDS words (NULL: the caller); NULL for a
 * bad handle. The kernel never reads them. Any context. */
uintptr_t *takt_task_user_words(takt_task_t *task);
#endif

/*
 * Ends the caller's current job. Returns when its next job has been released
 * (at once if already released). Context: a periodic task.
 * TAKT_ERR_STATE if the caller is not periodic; TAKT_ERR_CONTEXT from an
 * interrupt, with the scheduler locked or inside takt_critical_enter.
 */
int takt_job_end(void);

/* Jobs released so far, completed so far, and deadline misses recorded. */
uint32_t takt_task_jobs_released(const takt_task_t *task);
uint32_t takt_task_jobs_completed(const takt_task_t *task);
uint32_t takt_task_deadline_misses(const takt_task_t *task);

#if TAKT_CONFIG_DEADLINE_MISS_HOOK
/* Supplied by the application: called (in kernel context, at the tick or at
 * completion) once per missed job. Must not block. */
void takt_deadline_miss_hook(takt_task_t *task, uint32_t job);
#endif

#if TAKT_CONFIG_STACK_CHECK && TAKT_CONFIG_STACK_OVERFLOW_HOOK
/* Supplied by the application: called at the switch away from a task whose
 * stack guard was overwritten. The kernel suspends the task afterwards. */
void takt_stack_overflow_hook(takt_task_t *task);
#endif

#endif
