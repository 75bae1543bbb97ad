/*
 * Software timers, serviced by the timer task (takt/soft_timer.h).
 *
 * Only the timer task touches the list of active timers and a timer's expiry
 * and active flag (under the kernel lock, so queries from other contexts see
 * a consistent state); everyone else posts commands to its queue. The timer
 * task sleeps on that queue with a timeout up to the next expiry, so waiting
 * for a timer costs nothing but one wake timer in the kernel's timer queue.
 */
#include "../../sched/hsf.h"
#include "wait.h"

enum {
    TIMER_F_AUTO_RELOAD = 1u << 1,
    TIMER_F_ACTIVE = 1u << 2,
    TIMER_F_DELETE_QUEUED = 1u << 3, /* no command may follow the delete */
};

typedef enum { CMD_START, CMD_STOP, CMD_CHANGE_PERIOD, CMD_DELETE, CMD_CALL } command_op_t;

typedef struct {
    uint8_t op;       /* command_op_t */
    takt_tick_t at;   /* tick at which the command was posted */
    takt_tick_t period;
    takt_soft_timer_t *timer;
    void (*fn)(void *arg1, uint32_t arg2);
    void *arg1;
    uint32_t arg2;
} command_t;

static struct {
    takt_task_t *task; /* its control block: own_task, or the application's */
#if !TAKT_CONFIG_SOFT_TIMER_MEMORY_FROM_APP
    takt_task_t own_task;
    uint8_t stack[TAKT_CONFIG_SOFT_TIMER_STACK_SIZE] __attribute__((aligned(16)));
#endif
    takt_queue_t commands;
    command_t command_storage[TAKT_CONFIG_SOFT_TIMER_COMMANDS];
    takt_list_t active; /* by expiry */
} daemon;

static bool timer_valid(const takt_soft_timer_t *timer)
{
    return timer != NULL && timer->magic == SYNC_MAGIC_SOFT_TIMER;
}

static bool period_valid(takt_tick_t period)
{
    return period >= 1u && period <= (takt_tick_t)INT32_MAX;
}

/* ---- the timer task (every function below runs in it) ---- */

static void activate(takt_soft_timer_t *timer, takt_tick_t expiry)
{
    port_critical_t key = port_critical_enter();
    if (timer->flags & TIMER_F_ACTIVE) {
        takt_list_remove(&timer->active_node);
    }
    timer->expiry = expiry;
    timer->flags |= TIMER_F_ACTIVE;
    /* Behind every timer expiring at or before it: equal expiries in start order. */
    takt_list_node_t *pos = &daemon.active;
    while (pos->prev != &daemon.active) {
        const takt_soft_timer_t *before =
            TAKT_CONTAINER_OF(pos->prev, takt_soft_timer_t, active_node);
        if (!takt_tick_before(expiry, before->expiry)) {
            break;
        }
        pos = pos->prev;
    }
    takt_list_insert_before(pos, &timer->active_node);
    port_critical_exit(key);
}

static void deactivate(takt_soft_timer_t *timer)
{
    port_critical_t key = port_critical_enter();
    if (timer->flags & TIMER_F_ACTIVE) {
        takt_list_remove(&timer->active_node);
        timer->flags &= (uint8_t)~TIMER_F_ACTIVE;
    }
    port_critical_exit(key);
}

static takt_soft_timer_t *first_active(void)
{
    takt_list_node_t *node = takt_list_first(&daemon.active);
    return node == NULL ? NULL : TAKT_CONTAINER_OF(node, takt_soft_timer_t, active_node);
}

/* Runs every callback that is due, one per expiry (a late auto-reload timer
 * catches up one period at a time). */
static void expire_due(void)
{
    takt_soft_timer_t *timer;
    while ((timer = first_active()) != NULL &&
           !takt_tick_before(takt_tick_count(), timer->expiry)) {
        if (timer->flags & TIMER_F_AUTO_RELOAD) {
            activate(timer, timer->expiry + timer->period);
        } else {
            deactivate(timer);
        }
        timer->callback(timer);
    }
}

/* What releasing a deleted timer leaves to do once the lock is dropped. */
typedef struct {
    takt_soft_timer_t *free; /* dynamic memory to give back, or NULL */
    void (*call)(void *arg1, uint32_t arg2);
    void *arg1;
    uint32_t arg2;
} release_t;

/* One command is done with the timer (executed, or its post failed). The
 * last one on a deleted timer releases it: the memory stops counting as live
 * here, and *release says what the caller does after the lock. Under the lock. */
static bool command_done(takt_soft_timer_t *timer, release_t *release)
{
    KASSERT(timer->commands_in_flight > 0);
    timer->commands_in_flight--;
    if (timer->commands_in_flight != 0 || timer->magic != SYNC_MAGIC_SOFT_TIMER_DELETED) {
        return false;
    }
    *release = (release_t){.free = (timer->flags & SYNC_F_DYNAMIC) ? timer : NULL,
                           .call = timer->then_call,
                           .arg1 = timer->then_arg1,
                           .arg2 = timer->then_arg2};
    timer->magic = 0; /* a static timer's memory may be created again from here */
    return true;
}

static void finish_release(const release_t *release)
{
    if (release->free != NULL) {
        sync_free(release->free);
    }
    if (release->call != NULL) {
        release->call(release->arg1, release->arg2); /* takt_soft_timer_delete_then_call */
    }
}

static void execute(const command_t *cmd)
{
    if (cmd->op == CMD_CALL) {
        cmd->fn(cmd->arg1, cmd->arg2);
        return;
    }
    /* The command holds the timer's memory until command_done below; a
     * delete queued ahead of it (while it waited for room) makes it nothing. */
    takt_soft_timer_t *timer = cmd->timer;
    if (timer->magic == SYNC_MAGIC_SOFT_TIMER) {
        switch ((command_op_t)cmd->op) {
        case CMD_START:
            activate(timer, cmd->at + timer->period);
            break;
        case CMD_CHANGE_PERIOD:
            timer->period = cmd->period;
            activate(timer, cmd->at + timer->period);
            break;
        case CMD_STOP:
            deactivate(timer);
            break;
        case CMD_DELETE: {
            deactivate(timer); /* before the union's other half overwrites the expiry */
            port_critical_t key = port_critical_enter();
            timer->magic = SYNC_MAGIC_SOFT_TIMER_DELETED;
            timer->then_call = cmd->fn;
            timer->then_arg1 = cmd->arg1;
            timer->then_arg2 = cmd->arg2;
            port_critical_exit(key);
            break;
        }
        case CMD_CALL:
            break;
        }
    }
    release_t release;
    port_critical_t key = port_critical_enter();
    bool last = command_done(timer, &release);
    port_critical_exit(key);
    if (last) {
        finish_release(&release);
    }
}

static void daemon_main(void *arg)
{
    (void)arg;
#if TAKT_CONFIG_SOFT_TIMER_STARTUP_HOOK
    takt_soft_timer_startup_hook();
#endif
    for (;;) {
        expire_due();
        takt_tick_t timeout = TAKT_WAIT_FOREVER;
        port_critical_t key = port_critical_enter();
        const takt_soft_timer_t *next = first_active();
        if (next != NULL) {
            takt_tick_t now = takt_tick_count();
            timeout = takt_tick_before(now, next->expiry) ? next->expiry - now : 0;
        }
        port_critical_exit(key);
        command_t cmd;
        if (takt_queue_receive(&daemon.commands, &cmd, sizeof(cmd), timeout) == TAKT_OK) {
            execute(&cmd);
        }
    }
}

/* ---- creating the timer task ---- */

/* The timer task exists after this (TAKT_OK) unless its creation failed.
 * Context: task or before start. */
static int daemon_ensure(void)
{
    if (task_handle_valid(daemon.task)) {
        return TAKT_OK;
    }
    if (sched_is_hsf() && takt_kernel.soft_timer_server == NULL) {
        return TAKT_ERR_STATE; /* under hsf a task needs a server: takt_soft_timer_set_server */
    }
    /* A previous kernel run in this process (takt_teardown) left them stale. */
    daemon.commands.magic = 0;
    takt_list_init(&daemon.active);
    int err = takt_queue_create_static(&daemon.commands, TAKT_CONFIG_SOFT_TIMER_COMMANDS,
                                       sizeof(command_t), daemon.command_storage);
    if (err != TAKT_OK) {
        return err;
    }
    takt_task_params_t params = {.name = TAKT_CONFIG_TIMER_TASK_NAME, .entry = daemon_main,
                                 .priority = TAKT_CONFIG_SOFT_TIMER_PRIORITY};
#if !TAKT_CONFIG_SOFT_TIMER_MEMORY_FROM_APP
    takt_task_t *tcb = &daemon.own_task;
    void *stack = daemon.stack;
    size_t stack_size = sizeof(daemon.stack);
#else
    takt_task_t *tcb = NULL;
    void *stack = NULL;
    size_t stack_size = 0;
    /* NULL, too small, overlapping or live: the create refuses */
    takt_soft_timer_memory(&tcb, &stack, &stack_size);
#endif
    /* The scheduler locked: a timer task of higher priority runs only once
     * it is known as such (daemon.task, and no application delete). */
    int locked = takt_sched_lock();
    /* Without hsf the server is NULL and this is takt_task_create_static. */
    err = task_create_static_in(takt_kernel.soft_timer_server, &params, tcb, stack, stack_size);
    if (err == TAKT_OK) {
        daemon.task = tcb;
        /* Deleting it would lose the active timers with their list. */
        port_critical_t key = port_critical_enter();
        tcb->flags |= TAKT_TASK_F_SERVICE;
        port_critical_exit(key);
    } else {
        daemon.commands.magic = 0;
    }
    if (locked == TAKT_OK) {
        (void)takt_sched_unlock();
    }
    return err;
}

int takt_soft_timer_set_server(takt_server_t *server)
{
    if (port_in_isr()) {
        return TAKT_ERR_CONTEXT;
    }
    if (!sched_is_hsf()) {
        return TAKT_ERR_STATE;
    }
    if (server == NULL || server->magic != TAKT_SERVER_MAGIC) {
        return TAKT_ERR_ARG;
    }
    int result = TAKT_OK;
    port_critical_t key = port_critical_enter();
    if (task_handle_valid(daemon.task)) {
        result = TAKT_ERR_STATE; /* a task does not move between servers */
    } else {
        takt_kernel.soft_timer_server = server;
    }
    port_critical_exit(key);
    return result;
}

TAKT_COLD int takt_soft_timer_task_create(void)
{
    return port_in_isr() ? TAKT_ERR_CONTEXT : daemon_ensure();
}

takt_task_t *takt_soft_timer_task(void)
{
    return task_handle_valid(daemon.task) ? daemon.task : NULL;
}

/* ---- creation ---- */

static int params_check(const takt_soft_timer_params_t *params)
{
    if (params == NULL || params->callback == NULL || !period_valid(params->period)) {
        return TAKT_ERR_ARG;
    }
    return port_in_isr() ? TAKT_ERR_CONTEXT : TAKT_OK;
}

static void setup(takt_soft_timer_t *timer, const takt_soft_timer_params_t *params,
                  uint8_t memory)
{
    takt_list_node_init(&timer->active_node);
    timer->commands_in_flight = 0;
    timer->flags = (uint8_t)(memory | (params->auto_reload ? TIMER_F_AUTO_RELOAD : 0u));
    timer->period = params->period;
    timer->expiry = 0;
    timer->callback = params->callback;
    timer->id = params->id;
    timer->name = params->name;
    timer->magic = SYNC_MAGIC_SOFT_TIMER;
}

TAKT_COLD int takt_soft_timer_create(const takt_soft_timer_params_t *params, takt_soft_timer_t **out)
{
    int err = out == NULL ? TAKT_ERR_ARG : params_check(params);
    if (err == TAKT_OK) {
        err = daemon_ensure();
    }
    if (err != TAKT_OK) {
        return err;
    }
    takt_soft_timer_t *timer = sync_alloc(sizeof(*timer));
    if (timer == NULL) {
        return TAKT_ERR_NOMEM;
    }
    port_critical_t key = cold_critical_enter();
    setup(timer, params, SYNC_F_DYNAMIC);
    cold_critical_exit(key);
    *out = timer;
    return TAKT_OK;
}

TAKT_COLD int takt_soft_timer_create_static(const takt_soft_timer_params_t *params,
                                  takt_soft_timer_t *timer)
{
    int err = timer == NULL ? TAKT_ERR_ARG : params_check(params);
    if (err != TAKT_OK) {
        return err;
    }
    port_critical_t key = cold_critical_enter();
    bool live = sync_memory_in_use(timer, sizeof(*timer));
    cold_critical_exit(key);
    if (live) {
        return TAKT_ERR_STATE;
    }
    err = daemon_ensure();
    if (err != TAKT_OK) {
        return err;
    }
    key = cold_critical_enter();
    setup(timer, params, 0);
    cold_critical_exit(key);
    return TAKT_OK;
}

/* ---- commands ---- */

/* Checks and posts a command; the lock is taken here. Out of line: every
 * command call is this with other constants, and inlined into each of them
 * (at -O3) it cost 2.5 KB. */
__attribute__((noinline)) static int post(command_t *cmd, takt_tick_t timeout, bool *woken,
                                          bool from_isr)
{
    if (sync_call_form(from_isr, &from_isr) != TAKT_OK) { /* from here: the form that runs */
        return TAKT_ERR_CONTEXT;
    }
    if (!from_isr && !sync_timeout_valid(timeout)) {
        return TAKT_ERR_ARG;
    }
    takt_soft_timer_t *timer = cmd->op == CMD_CALL ? NULL : cmd->timer;
    port_critical_t key = port_critical_enter();
    if (cmd->op != CMD_CALL && (!timer_valid(timer) || (timer->flags & TIMER_F_DELETE_QUEUED))) {
        port_critical_exit(key);
        return TAKT_ERR_ARG;
    }
    if (!task_handle_valid(daemon.task)) {
        port_critical_exit(key);
        return TAKT_ERR_STATE; /* no soft timer was created: no timer task */
    }
    if (timer != NULL) {
        if (timer->commands_in_flight == UINT16_MAX) {
            port_critical_exit(key);
            return TAKT_ERR_TIMEOUT; /* no room for one more command on this timer */
        }
        /* Held from here: a delete that overtakes this command while it waits
         * for room leaves the memory to the last command on the timer. */
        timer->commands_in_flight++;
        if (cmd->op == CMD_DELETE) {
            timer->flags |= TIMER_F_DELETE_QUEUED; /* refuses every later command, a delete too */
        }
    }
    cmd->at = takt_kernel.ticks;
    int result;
    if (from_isr) {
        result = takt_queue_send_from_isr(&daemon.commands, cmd, sizeof(*cmd), woken);
    } else {
        /* The lock is held across the send so no other command can slip in
         * between the checks and the post; the send nests it. A send that must
         * wait releases it only while blocked. */
        result = takt_queue_send(&daemon.commands, cmd, sizeof(*cmd), 0);
        if (result == TAKT_ERR_TIMEOUT && timeout != 0) {
            port_critical_exit(key);
            result = takt_queue_send(&daemon.commands, cmd, sizeof(*cmd), timeout);
            key = port_critical_enter();
        }
    }
    release_t release;
    bool last = false;
    if (result != TAKT_OK && timer != NULL) {
        if (cmd->op == CMD_DELETE) {
            timer->flags &= (uint8_t)~TIMER_F_DELETE_QUEUED;
        }
        last = command_done(timer, &release);
    }
    port_critical_exit(key);
    if (last) {
        finish_release(&release);
    }
    return result;
}

static int timer_command(takt_soft_timer_t *timer, command_op_t op, takt_tick_t period,
                         takt_tick_t timeout, bool *woken, bool from_isr)
{
    if (op == CMD_CHANGE_PERIOD && !period_valid(period)) {
        return TAKT_ERR_ARG;
    }
    command_t cmd = {.op = (uint8_t)op, .period = period, .timer = timer};
    return post(&cmd, timeout, woken, from_isr);
}

int takt_soft_timer_start(takt_soft_timer_t *timer, takt_tick_t timeout)
{
    return timer_command(timer, CMD_START, 0, timeout, NULL, false);
}

int takt_soft_timer_reset(takt_soft_timer_t *timer, takt_tick_t timeout)
{
    return timer_command(timer, CMD_START, 0, timeout, NULL, false);
}

int takt_soft_timer_stop(takt_soft_timer_t *timer, takt_tick_t timeout)
{
    return timer_command(timer, CMD_STOP, 0, timeout, NULL, false);
}

int takt_soft_timer_change_period(takt_soft_timer_t *timer, takt_tick_t period,
                                  takt_tick_t timeout)
{
    return timer_command(timer, CMD_CHANGE_PERIOD, period, timeout, NULL, false);
}

/* The call rides on the delete's command: a second command could find the
 * queue full after the delete got in, and leave the delete done without it. */
TAKT_COLD int takt_soft_timer_delete_then_call(takt_soft_timer_t *timer, takt_tick_t timeout,
                                               void (*fn)(void *arg1, uint32_t arg2), void *arg1,
                                               uint32_t arg2)
{
    command_t cmd = {.op = CMD_DELETE, .timer = timer, .fn = fn, .arg1 = arg1, .arg2 = arg2};
    return post(&cmd, timeout, NULL, false);
}

TAKT_COLD int takt_soft_timer_delete(takt_soft_timer_t *timer, takt_tick_t timeout)
{
    return takt_soft_timer_delete_then_call(timer, timeout, NULL, NULL, 0);
}

int takt_soft_timer_start_from_isr(takt_soft_timer_t *timer, bool *woken)
{
    return timer_command(timer, CMD_START, 0, 0, woken, true);
}

int takt_soft_timer_reset_from_isr(takt_soft_timer_t *timer, bool *woken)
{
    return timer_command(timer, CMD_START, 0, 0, woken, true);
}

int takt_soft_timer_stop_from_isr(takt_soft_timer_t *timer, bool *woken)
{
    return timer_command(timer, CMD_STOP, 0, 0, woken, true);
}

int takt_soft_timer_change_period_from_isr(takt_soft_timer_t *timer, takt_tick_t period,
                                           bool *woken)
{
    return timer_command(timer, CMD_CHANGE_PERIOD, period, 0, woken, true);
}

int takt_soft_timer_pend_call(void (*fn)(void *arg1, uint32_t arg2), void *arg1, uint32_t arg2,
                              takt_tick_t timeout)
{
    if (fn == NULL || (!port_in_isr() && !sync_timeout_valid(timeout))) {
        return TAKT_ERR_ARG; /* before the timer task is created: an error changes nothing */
    }
    if (!port_in_isr()) {
        int err = daemon_ensure();
        if (err != TAKT_OK) {
            return err;
        }
    }
    command_t cmd = {.op = CMD_CALL, .fn = fn, .arg1 = arg1, .arg2 = arg2};
    return post(&cmd, timeout, NULL, false);
}

int takt_soft_timer_pend_call_from_isr(void (*fn)(void *arg1, uint32_t arg2), void *arg1,
                                       uint32_t arg2, bool *woken)
{
    if (!port_in_isr()) {
        /* takt/sync.h: the task's call, which also starts the timer task */
        return takt_soft_timer_pend_call(fn, arg1, arg2, 0);
    }
    if (fn == NULL) {
        return TAKT_ERR_ARG;
    }
    command_t cmd = {.op = CMD_CALL, .fn = fn, .arg1 = arg1, .arg2 = arg2};
    return post(&cmd, 0, woken, true);
}

/* ---- queries ---- */

bool takt_soft_timer_active(const takt_soft_timer_t *timer)
{
    port_critical_t key = port_critical_enter();
    bool active = timer_valid(timer) && (timer->flags & TIMER_F_ACTIVE);
    port_critical_exit(key);
    return active;
}

void *takt_soft_timer_id(const takt_soft_timer_t *timer)
{
    port_critical_t key = port_critical_enter();
    void *id = timer_valid(timer) ? timer->id : NULL;
    port_critical_exit(key);
    return id;
}

takt_tick_t takt_soft_timer_period(const takt_soft_timer_t *timer)
{
    port_critical_t key = port_critical_enter();
    takt_tick_t period = timer_valid(timer) ? timer->period : 0;
    port_critical_exit(key);
    return period;
}

takt_tick_t takt_soft_timer_expiry(const takt_soft_timer_t *timer)
{
    port_critical_t key = port_critical_enter();
    takt_tick_t expiry = timer_valid(timer) ? timer->expiry : 0;
    port_critical_exit(key);
    return expiry;
}

const char *takt_soft_timer_name(const takt_soft_timer_t *timer)
{
    port_critical_t key = port_critical_enter();
    const char *name = timer_valid(timer) ? timer->name : NULL;
    port_critical_exit(key);
    return name;
}

bool takt_soft_timer_auto_reload(const takt_soft_timer_t *timer)
{
    port_critical_t key = port_critical_enter();
    bool reload = timer_valid(timer) && (timer->flags & TIMER_F_AUTO_RELOAD);
    port_critical_exit(key);
    return reload;
}

int takt_soft_timer_set_id(takt_soft_timer_t *timer, void *id)
{
    port_critical_t key = port_critical_enter();
    int result = TAKT_ERR_ARG;
    if (timer_valid(timer)) {
        timer->id = id;
        result = TAKT_OK;
    }
    port_critical_exit(key);
    return result;
}

int takt_soft_timer_set_auto_reload(takt_soft_timer_t *timer, bool auto_reload)
{
    port_critical_t key = port_critical_enter();
    int result = TAKT_ERR_ARG;
    if (timer_valid(timer)) {
        if (auto_reload) {
            timer->flags |= TIMER_F_AUTO_RELOAD;
        } else {
            timer->flags &= (uint8_t)~TIMER_F_AUTO_RELOAD;
        }
        result = TAKT_OK;
    }
    port_critical_exit(key);
    return result;
}
