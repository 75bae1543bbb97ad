/*
 * takt_task_abort_delay (a delay ends early; an object wait — semaphore,
 * full queue, mutex with inheritance, notification — returns
 * TAKT_ERR_TIMEOUT and leaves the object's waiters; from an interrupt too;
 * what is refused changes nothing), and the task queries takt_task_count,
 * takt_task_find and takt_task_idle.
 */
#include "harness.h"

static char log_buf[512];

static void note(const char *fmt, int value)
{
    size_t len = strlen(log_buf);
    snprintf(log_buf + len, sizeof(log_buf) - len, "%s", len ? " " : "");
    len = strlen(log_buf);
    snprintf(log_buf + len, sizeof(log_buf) - len, fmt, value);
    len = strlen(log_buf);
    snprintf(log_buf + len, sizeof(log_buf) - len, "@%u", (unsigned)h_now_ticks());
}

static takt_sem_t *sem;
static takt_queue_t *queue;
static takt_mutex_t *mtx;
static takt_task_t *sleeper, *sem_waiter, *sender, *locker, *holder, *notified, *periodic;

static void sleeper_body(void *arg)
{
    (void)arg;
    note("delay%d", takt_delay(100)); /* aborted at 2 */
    h_park();
}

static void sem_body(void *arg)
{
    (void)arg;
    note("sem%d", takt_sem_take(sem, TAKT_WAIT_FOREVER)); /* aborted at 3 */
    h_park();
}

static void sender_body(void *arg)
{
    (void)arg;
    uint32_t item = 1;
    CHECK_EQ(takt_queue_send(queue, &item, sizeof(item), 0), TAKT_OK); /* full now */
    note("send%d", takt_queue_send(queue, &item, sizeof(item), 50)); /* aborted at 4 */
    h_park();
}

static void holder_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(mtx, 0), TAKT_OK);
    h_work(6); /* 0 .. 6: every other task only blocks, in no time */
    CHECK_EQ(takt_mutex_unlock(mtx), TAKT_OK);
    h_park();
}

static void locker_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK); /* the holder locks at 0 */
    note("lock%d", takt_mutex_lock(mtx, TAKT_WAIT_FOREVER)); /* aborted at 5 */
    note("holder%d", takt_task_get_priority(holder));
    h_park();
}

static void notified_body(void *arg)
{
    (void)arg;
    uint32_t value = 0;
    note("notify%d", takt_notify_wait(0, 0, 0, &value, TAKT_WAIT_FOREVER)); /* aborted by the ISR at 6 */
    h_park();
}

static void periodic_body(void *arg)
{
    (void)arg;
    for (;;) {
        takt_job_end();
    }
}

static int isr_rc;

static void abort_isr(void *arg)
{
    (void)arg;
    isr_rc = takt_task_abort_delay(notified);
}

/* The controller (highest priority) aborts one wait per tick from 2. */
static void controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_task_abort_delay(sleeper), TAKT_ERR_STATE); /* ready: not delaying yet */
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_task_abort_delay(sleeper), TAKT_OK);
    CHECK_EQ(takt_task_abort_delay(sleeper), TAKT_ERR_STATE); /* ready now */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_task_abort_delay(sem_waiter), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_task_abort_delay(sender), TAKT_OK);
    CHECK_EQ(takt_queue_count(queue), 1); /* the blocked sender's item never went in */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_task_get_priority(holder), 4); /* inherited from the locker */
    CHECK_EQ(takt_task_abort_delay(locker), TAKT_OK);
    CHECK_EQ(takt_delay(2), TAKT_OK);
    /* 7: refusals */
    CHECK_EQ(takt_task_abort_delay(NULL), TAKT_ERR_ARG);
    CHECK_EQ(takt_task_abort_delay(takt_task_self()), TAKT_ERR_STATE); /* running */
    CHECK_EQ(takt_task_abort_delay(periodic), TAKT_ERR_STATE);        /* waits for its release */
    CHECK_EQ(takt_task_suspend(sleeper), TAKT_OK);
    CHECK_EQ(takt_task_abort_delay(sleeper), TAKT_ERR_STATE);         /* suspended */
    CHECK_EQ(takt_task_state(sleeper), TAKT_TASK_SUSPENDED);
    note("done%d", 0);
    h_park();
}

static void scenario_abort(takt_tick_t tick0)
{
    h_begin(tick0, 10, false);
    log_buf[0] = '\0';
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    CHECK_EQ(takt_queue_create(1, sizeof(uint32_t), &queue), TAKT_OK);
    CHECK_EQ(takt_mutex_create(0, &mtx), TAKT_OK);
    h_task("C", 9, controller, NULL);
    sleeper = h_task("D", 5, sleeper_body, NULL);
    sem_waiter = h_task("S", 5, sem_body, NULL);
    sender = h_task("Q", 5, sender_body, NULL);
    locker = h_task("L", 4, locker_body, NULL);
    notified = h_task("N", 5, notified_body, NULL);
    periodic = h_periodic("P", 6, periodic_body, NULL, 100, 0, 0);
    holder = h_task("H", 2, holder_body, NULL);
    hp_inject_irq(T(6) + 10, 1, abort_isr, NULL);
    h_start();
    CHECK_EQ(isr_rc, TAKT_OK);
    CHECK_STREQ(log_buf, "delay0@2 sem-5@3 send-5@4 lock-5@5 holder2@5 notify-5@6 done0@7");
    CHECK_EQ(takt_sem_give(sem), TAKT_OK); /* no waiter left: the unit stays */
    CHECK_EQ(takt_sem_count(sem), 1);
    CHECK_EQ(h_count(TAKT_EV_WAIT_TIMEOUT, -1), 4u);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    CHECK_EQ(takt_mutex_delete(mtx), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- queries */

static void work1_park(void *arg)
{
    (void)arg;
    h_work(1);
    h_park();
}

static void query_body(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_task_count(), 4u); /* idle, A, B, and the twin */
    CHECK(takt_task_find("B") != NULL);
    CHECK_EQ(takt_task_delete(takt_task_find("B")), TAKT_OK);
    CHECK(takt_task_find("B") == NULL);
    CHECK_EQ(takt_task_count(), 3u);
    h_park();
}

/* takt_task_static_memory: the kernel's own idle task is static, a task
 * from the heap is not (nothing written), a static one gives back what it
 * was given, a bad handle is refused, and so is NULL outside a task. */
static void static_memory_queries(takt_task_t *dynamic_task)
{
    takt_task_t *tcb = NULL;
    void *stack = NULL;
    CHECK_EQ(takt_task_static_memory(takt_task_idle(), &tcb, &stack), TAKT_OK);
    CHECK(tcb == takt_task_idle() && stack != NULL);
    tcb = NULL;
    stack = NULL;
    CHECK_EQ(takt_task_static_memory(dynamic_task, &tcb, &stack), TAKT_ERR_STATE);
    CHECK(tcb == NULL && stack == NULL);
    static takt_task_t block;
    static uint8_t stack_memory[H_STACK] __attribute__((aligned(16)));
    takt_task_params_t p = {.name = "S", .entry = work1_park, .priority = 1};
    CHECK_EQ(takt_task_create_static(&p, &block, stack_memory, sizeof(stack_memory)), TAKT_OK);
    CHECK_EQ(takt_task_static_memory(&block, &tcb, &stack), TAKT_OK);
    CHECK(tcb == &block && stack == stack_memory);
    CHECK_EQ(takt_task_static_memory(&block, NULL, NULL), TAKT_OK);
    CHECK_EQ(takt_task_delete(&block), TAKT_OK);
    CHECK_EQ(takt_task_static_memory(&block, &tcb, &stack), TAKT_ERR_ARG); /* deleted */
    CHECK_EQ(takt_task_static_memory(NULL, &tcb, &stack), TAKT_ERR_ARG);   /* not in a task */
    /* A control block inside the stack it is given. */
    takt_task_t *inside = (takt_task_t *)(void *)(stack_memory + sizeof(stack_memory) / 2u);
    CHECK_EQ(takt_task_create_static(&p, inside, stack_memory, sizeof(stack_memory)), TAKT_ERR_ARG);
}

static void scenario_queries(takt_tick_t tick0)
{
    CHECK(takt_task_idle() == NULL); /* the previous run was torn down; no kernel yet */
    h_begin(tick0, 3, false);
    CHECK_EQ(takt_task_count(), 1u); /* the idle task */
    CHECK(takt_task_idle() == takt_kernel.idle);
    CHECK_EQ(takt_task_id(takt_task_idle()), 0);
    CHECK(takt_task_find("idle") == takt_task_idle());
    takt_task_t *a = h_task("A", 2, query_body, NULL);
    takt_task_t *b = h_task("B", 1, work1_park, NULL);
    takt_task_t *twin = h_task("A", 1, work1_park, NULL);
    CHECK(takt_task_find("A") == a); /* the first created of that name */
    CHECK(takt_task_find("B") == b);
    CHECK(twin != a);
    CHECK(takt_task_find("nobody") == NULL);
    CHECK(takt_task_find("") == NULL);
    CHECK(takt_task_find(NULL) == NULL);
    /* names are kept to TAKT_CONFIG_MAX_NAME_LEN - 1 characters */
    takt_task_t *longer = h_task("a-very-long-task-name", 1, work1_park, NULL);
    CHECK(takt_task_find("a-very-long-task-name") == NULL);
    CHECK(takt_task_find(takt_task_name(longer)) == longer);
    CHECK_EQ(takt_task_count(), 5u);
    CHECK_EQ(takt_task_delete(longer), TAKT_OK);
    static_memory_queries(a);
    h_run();
    CHECK(takt_task_idle() == NULL); /* torn down */
}

int main(void)
{
    h_both(scenario_abort, "abort");
    h_both(scenario_queries, "queries");
    return CHECK_SUMMARY();
}
