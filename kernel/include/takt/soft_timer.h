/*
 * Software timers: callbacks run by the timer task after a period, once
 * (one-shot) or every period (auto-reload). Calls from tasks and interrupts
 * post commands to the timer task's command queue (TAKT_CONFIG_SOFT_TIMER_COMMANDS
 * long); the timer task executes them in order, keeps the active timers sorted
 * by expiry and blocks on the command queue until the next expiry (so the
 * timeout comes from the kernel's timer queue).
 *
 * A command's reference time is the tick at which it was posted (as in
 * FreeRTOS): start/reset at tick t makes the timer expire at t + period even if
 * the timer task processes the command later. An auto-reload timer's next
 * expiry is its previous expiry + period (no drift); expiries missed while the
 * timer task could not run are caught up one callback each.
 *
 * The timer task (priority TAKT_CONFIG_SOFT_TIMER_PRIORITY, stack
 * TAKT_CONFIG_SOFT_TIMER_STACK_SIZE bytes of static memory, or its control
 * block and stack from the application's takt_soft_timer_memory with
 * TAKT_CONFIG_SOFT_TIMER_MEMORY_FROM_APP)
 * is created by the first
 * takt_soft_timer_create* or takt_soft_timer_pend_call*, so a program that uses
 * no soft timer has no timer task. Under EDF it has no deadline: it runs in the
 * background class (behind every job with a deadline).
 * Under the hsf scheduler every task lives in a server, the timer task too:
 * name its server with takt_soft_timer_set_server before the first soft timer
 * or pend call (its priority is then a local priority in that server, and
 * callbacks run on that server's budget). Until then takt_soft_timer_create*
 * and takt_soft_timer_pend_call return TAKT_ERR_STATE and change nothing.
 * Callbacks run in the timer task: they must not block (timeout 0 only).
 * Commands and pend calls from an interrupt return TAKT_ERR_STATE while the
 * timer task does not exist (an interrupt cannot create it), and so do the
 * calls that would create it before takt_init.
 *
 * `timeout` of the task-context calls: how long to wait for room in the command
 * queue (TAKT_ERR_TIMEOUT if it stayed full). Conventions: takt/sync.h.
 */
#ifndef TAKT_SOFT_TIMER_H
#define TAKT_SOFT_TIMER_H

#include "takt/server.h"
#include "takt/sync.h"

struct takt_soft_timer;
typedef void (*takt_soft_timer_callback_t)(struct takt_soft_timer *timer);

/* Fields belong to the kernel; applications allocate it for create_static. */
typedef struct takt_soft_timer {
    takt_list_node_t active_node; /* in the timer task's list of active timers */
    uint32_t magic;
    uint8_t flags;
    /* Commands on the timer posted or waiting for room and not yet executed:
     * its memory is released only when the last one is done with it. */
    uint16_t commands_in_flight;
    takt_tick_t period;
    union {
        struct { /* the live timer's */
            takt_tick_t expiry;
            takt_soft_timer_callback_t callback;
            void *id;
        };
        struct { /* deleted, until released: takt_soft_timer_delete_then_call's call */
            uint32_t then_arg2;
            void (*then_call)(void *arg1, uint32_t arg2);
            void *then_arg1;
        };
    };
    const char *name;
} takt_soft_timer_t;

typedef struct {
    const char *name;                   /* not copied; may be NULL */
    takt_tick_t period;                 /* 1 .. 2^31-1 ticks */
    bool auto_reload;
    takt_soft_timer_callback_t callback; /* not NULL */
    void *id;                           /* application data (takt_soft_timer_id) */
} takt_soft_timer_params_t;

/*
 * Hsf only: the server the timer task will be created in (by the first soft
 * timer or pend call). Context: task or before start. TAKT_ERR_STATE if the
 * kernel was not initialised with the hsf scheduler or the timer task exists
 * already (a task does not move between servers); TAKT_ERR_ARG for a bad
 * server handle; TAKT_ERR_CONTEXT from an interrupt. May be called again
 * before the timer task exists (the last call counts). takt_init forgets it.
 */
int takt_soft_timer_set_server(takt_server_t *server);

/* Creates a dormant timer. TAKT_ERR_ARG: null params/out/callback, period out of
 * range; TAKT_ERR_NOMEM; TAKT_ERR_CONTEXT from an interrupt; TAKT_ERR_STATE under
 * hsf before takt_soft_timer_set_server. Context: task or before start. */
int takt_soft_timer_create(const takt_soft_timer_params_t *params, takt_soft_timer_t **out);
/* In caller memory; TAKT_ERR_STATE if the memory holds a live object (takt/sync.h). */
int takt_soft_timer_create_static(const takt_soft_timer_params_t *params,
                                  takt_soft_timer_t *timer);

/* Commands. Return TAKT_OK once the command is queued (not yet executed);
 * TAKT_ERR_ARG for a bad or deleted handle (including a timer whose delete
 * command is queued), period out of range. */
int takt_soft_timer_start(takt_soft_timer_t *timer, takt_tick_t timeout);
/* As start (FreeRTOS xTimerReset): restarts the period from now. */
int takt_soft_timer_reset(takt_soft_timer_t *timer, takt_tick_t timeout);
int takt_soft_timer_stop(takt_soft_timer_t *timer, takt_tick_t timeout);
/* Sets the period and starts the timer (from now). */
int takt_soft_timer_change_period(takt_soft_timer_t *timer, takt_tick_t period,
                                  takt_tick_t timeout);
/* Stops it and releases it (frees a dynamic one) in the timer task. Once the
 * delete is posted (and while it waits for room), further commands on the
 * timer are refused (TAKT_ERR_ARG); afterwards a static timer's handle still
 * is, but a dynamic timer's memory is freed and its handle must not be used
 * again (takt/sync.h). A command another task posted before the delete but
 * that got into the queue only behind it (it waited for room) is carried out
 * as nothing, and the memory is released after it: in the timer task, or in
 * that command's caller if its wait for room ends in TAKT_ERR_TIMEOUT after
 * the delete was carried out. Until then a static timer's memory counts as
 * live (create_static refuses it). */
int takt_soft_timer_delete(takt_soft_timer_t *timer, takt_tick_t timeout);
/* takt_soft_timer_delete, and when the timer is released, fn(arg1, arg2)
 * there (fn may be NULL): for a timer inside memory the caller frees then, as
 * the FreeRTOS layer's xTimerDelete does. Both happen, or neither: when the
 * delete is refused or its timeout ends first, fn is never called. */
int takt_soft_timer_delete_then_call(takt_soft_timer_t *timer, takt_tick_t timeout,
                                     void (*fn)(void *arg1, uint32_t arg2), void *arg1,
                                     uint32_t arg2);

int takt_soft_timer_start_from_isr(takt_soft_timer_t *timer, bool *woken);
int takt_soft_timer_reset_from_isr(takt_soft_timer_t *timer, bool *woken);
int takt_soft_timer_stop_from_isr(takt_soft_timer_t *timer, bool *woken);
int takt_soft_timer_change_period_from_isr(takt_soft_timer_t *timer, takt_tick_t period,
                                           bool *woken);

/* Runs fn(arg1, arg2) in the timer task (FreeRTOS xTimerPendFunctionCall). */
int takt_soft_timer_pend_call(void (*fn)(void *arg1, uint32_t arg2), void *arg1, uint32_t arg2,
                              takt_tick_t timeout);
int takt_soft_timer_pend_call_from_isr(void (*fn)(void *arg1, uint32_t arg2), void *arg1,
                                       uint32_t arg2, bool *woken);

/* Queries, any context. As seen by the timer task (commands still queued are
 * not reflected: a timer whose delete is queued answers, and takes the setters
 * below, until the delete is carried out). False / NULL / 0 for a bad handle. */
bool takt_soft_timer_active(const takt_soft_timer_t *timer);
void *takt_soft_timer_id(const takt_soft_timer_t *timer);
takt_tick_t takt_soft_timer_period(const takt_soft_timer_t *timer);
takt_tick_t takt_soft_timer_expiry(const takt_soft_timer_t *timer);
const char *takt_soft_timer_name(const takt_soft_timer_t *timer);
bool takt_soft_timer_auto_reload(const takt_soft_timer_t *timer);
/* Setters take effect at once (kernel lock); TAKT_ERR_ARG on a bad handle. */
int takt_soft_timer_set_id(takt_soft_timer_t *timer, void *id);
int takt_soft_timer_set_auto_reload(takt_soft_timer_t *timer, bool auto_reload);

/* The timer task, or NULL before it exists. */
takt_task_t *takt_soft_timer_task(void);

/* Creates the timer task now if it does not exist yet (otherwise the first
 * timer or pended call creates it). TAKT_ERR_STATE under hsf before
 * takt_soft_timer_set_server; TAKT_ERR_CONTEXT from an interrupt. Context:
 * task or before start. */
int takt_soft_timer_task_create(void);

#if TAKT_CONFIG_SOFT_TIMER_STARTUP_HOOK
/* Supplied by the application: called once, in the timer task, when it first
 * runs, before it executes any command or expires any timer. May block. */
void takt_soft_timer_startup_hook(void);
#endif

#if TAKT_CONFIG_SOFT_TIMER_MEMORY_FROM_APP
/* Supplied by the application with TAKT_CONFIG_SOFT_TIMER_MEMORY_FROM_APP:
 * the timer task's control block and stack, asked for when the task is
 * created; a NULL control block, a NULL or too small stack, the two
 * overlapping, or a control block that holds a live object fails that
 * creation (TAKT_ERR_ARG, TAKT_ERR_STATE for the live object) and changes
 * nothing. */
void takt_soft_timer_memory(takt_task_t **tcb, void **stack, size_t *size);
#endif

#endif
