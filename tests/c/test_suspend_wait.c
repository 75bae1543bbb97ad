/*
 * A task suspended while it waits on a semaphore, mutex, queue, queue set or
 * to send to a stream takes its wait up again when resumed, as FreeRTOS's queue calls do (they
 * loop until their block time is over): served at once if the object has
 * what it waits for, waiting again until the end of its original timeout if
 * not, its wait ended in timeout if that end passed meanwhile. While
 * suspended it is no waiter: what the object gets goes to others or stays.
 * Also: the object deleted meanwhile, the task's priority changed meanwhile.
 */
#include "sync_common.h"

#define FOREVER_ARG ((void *)(uintptr_t)TAKT_WAIT_FOREVER)

static takt_sem_t *sem;
static takt_queue_t *queue;
static takt_mutex_t *mutex;
static takt_queue_set_t *set;
static takt_stream_t *stream;
static takt_task_t *waiter, *other, *holder;

static void sem_waiter(void *arg)
{
    s_log("w=%d", takt_sem_take(sem, (takt_tick_t)(uintptr_t)arg));
    h_park();
}

static void sem_waiter_named(void *arg)
{
    s_log("%s=%d", (const char *)arg, takt_sem_take(sem, TAKT_WAIT_FOREVER));
    h_park();
}

/* ---------------------------------------------------------------- semaphore */

static void served_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);             /* the waiter waits */
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK); /* and leaves the wait */
    CHECK_EQ(takt_sem_give(sem), TAKT_OK);        /* nobody waits: the count keeps it */
    CHECK_EQ(takt_sem_count(sem), 1);
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK); /* takes it at once */
    CHECK_EQ(takt_sem_count(sem), 0);
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_READY);
    s_log("resumed");
    h_park();
}

static void scenario_served_at_resume(takt_tick_t tick0)
{
    s_begin(tick0, 5);
    s_log_reset();
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    s_task("C", 5, served_controller, NULL);
    waiter = s_task("W", 3, sem_waiter, FOREVER_ARG);
    h_start();
    CHECK_STREQ(s_log_buf, "resumed@1 w=0@1");
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    h_end();
}

static void again_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK); /* nothing there: it waits again */
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_BLOCKED);
    s_log("resumed");
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_sem_give(sem), TAKT_OK); /* to the waiter, as before the suspend */
    CHECK_EQ(takt_sem_count(sem), 0);
    s_log("given");
    h_park();
}

static void scenario_waits_again(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    s_task("C", 5, again_controller, NULL);
    waiter = s_task("W", 3, sem_waiter, FOREVER_ARG);
    h_start();
    CHECK_STREQ(s_log_buf, "resumed@3 given@5 w=0@5");
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    h_end();
}

/* The waiter's timeout (its arg) against a suspend at 1 and a resume at
 * resume_at, a unit given meanwhile or not. */
static takt_tick_t resume_at;
static bool give_meanwhile;

static void timeout_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    if (give_meanwhile) {
        CHECK_EQ(takt_sem_give(sem), TAKT_OK);
    }
    CHECK_EQ(takt_delay(resume_at - 1), TAKT_OK);
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK);
    s_log("resumed");
    h_park();
}

static void timeout_case(takt_tick_t tick0, takt_tick_t timeout, takt_tick_t resume, bool give,
                         const char *expected)
{
    s_begin(tick0, 20);
    s_log_reset();
    resume_at = resume;
    give_meanwhile = give;
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    s_task("C", 5, timeout_controller, NULL);
    waiter = s_task("W", 3, sem_waiter, (void *)(uintptr_t)timeout);
    h_start();
    CHECK_STREQ(s_log_buf, expected);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    h_end();
}

static void scenario_timeouts(takt_tick_t tick0)
{
    /* Resumed before its end: it waits again, until the same end. */
    timeout_case(tick0, 10, 5, false, "resumed@5 w=-5@10");
    timeout_case(tick0, 4, 3, false, "resumed@3 w=-5@4");
    /* Resumed at or after its end: the wait ends at the resume. */
    timeout_case(tick0, 4, 4, false, "resumed@4 w=-5@4");
    timeout_case(tick0, 4, 7, false, "resumed@7 w=-5@7");
    /* ... unless the object has it: then it takes it (FreeRTOS looks first). */
    timeout_case(tick0, 4, 7, true, "resumed@7 w=0@7");
}

/* A waiter whose priority changes while it is suspended takes its new place
 * among the waiters when it rejoins. */
static void priority_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK); /* w1 (3) then w2 (2) wait */
    CHECK_EQ(takt_task_suspend(other), TAKT_OK);
    CHECK_EQ(takt_task_set_priority(other, 4), TAKT_OK);
    CHECK_EQ(takt_task_resume(other), TAKT_OK);
    CHECK_EQ(takt_sem_give(sem), TAKT_OK); /* to w2, now first */
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_BLOCKED);
    CHECK_EQ(takt_task_state(other), TAKT_TASK_READY);
    s_log("given");
    CHECK_EQ(takt_sem_give(sem), TAKT_OK); /* then to w1 */
    h_park();
}

static void scenario_priority_changed(takt_tick_t tick0)
{
    if (S_EDF) {
        return; /* waiters go by deadline there: a priority says nothing */
    }
    s_begin(tick0, 5);
    s_log_reset();
    CHECK_EQ(takt_sem_create(2, 0, &sem), TAKT_OK);
    s_task("C", 5, priority_controller, NULL);
    waiter = s_task("W1", 3, sem_waiter_named, "w1");
    other = s_task("W2", 2, sem_waiter_named, "w2");
    h_start();
    CHECK_STREQ(s_log_buf, "given@1 w2=0@1 w1=0@1");
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- queue */

/* Receives (arg NULL) or peeks (arg non-NULL) once, waiting forever. */
static void queue_taker(void *arg)
{
    bool peek = arg != NULL;
    uint32_t value = 0;
    int rc = peek ? takt_queue_peek(queue, &value, sizeof value, TAKT_WAIT_FOREVER)
                  : takt_queue_receive(queue, &value, sizeof value, TAKT_WAIT_FOREVER);
    s_log("%s=%d:%u", peek ? "p" : "r", rc, (unsigned)value);
    h_park();
}

static void receive_controller(void *arg)
{
    (void)arg;
    uint32_t item = 7;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK_EQ(takt_task_suspend(other), TAKT_OK);
    CHECK_EQ(takt_queue_send(queue, &item, sizeof item, 0), TAKT_OK); /* nobody waits: kept */
    CHECK_EQ(takt_task_resume(other), TAKT_OK);  /* the peeker gets a copy */
    CHECK_EQ(takt_queue_count(queue), 1);
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK); /* the receiver takes it */
    CHECK_EQ(takt_queue_count(queue), 0);
    s_log("resumed");
    h_park();
}

static void scenario_queue_receive(takt_tick_t tick0)
{
    s_begin(tick0, 5);
    s_log_reset();
    CHECK_EQ(takt_queue_create(2, sizeof(uint32_t), &queue), TAKT_OK);
    s_task("C", 5, receive_controller, NULL);
    waiter = s_task("R", 3, queue_taker, NULL);
    other = s_task("P", 2, queue_taker, "peek");
    h_start();
    CHECK_STREQ(s_log_buf, "resumed@1 r=0:7@1 p=0:7@1");
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    h_end();
}

static void queue_sender(void *arg)
{
    (void)arg;
    uint32_t item = 2;
    s_log("s=%d", takt_queue_send(queue, &item, sizeof item, TAKT_WAIT_FOREVER));
    h_park();
}

static void send_controller(void *arg)
{
    (void)arg;
    uint32_t value = 0;
    CHECK_EQ(takt_delay(1), TAKT_OK); /* the sender waits: the queue is full */
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK_EQ(takt_queue_receive(queue, &value, sizeof value, 0), TAKT_OK);
    CHECK_EQ(value, 1u);
    CHECK_EQ(takt_queue_count(queue), 0); /* nobody waited to fill it */
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK); /* its item goes in now */
    CHECK_EQ(takt_queue_count(queue), 1);
    CHECK_EQ(takt_queue_receive(queue, &value, sizeof value, 0), TAKT_OK);
    CHECK_EQ(value, 2u);
    s_log("resumed");
    h_park();
}

static void scenario_queue_send(takt_tick_t tick0)
{
    s_begin(tick0, 5);
    s_log_reset();
    uint32_t item = 1;
    CHECK_EQ(takt_queue_create(1, sizeof(uint32_t), &queue), TAKT_OK);
    CHECK_EQ(takt_queue_send(queue, &item, sizeof item, 0), TAKT_OK);
    s_task("C", 5, send_controller, NULL);
    waiter = s_task("S", 3, queue_sender, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "resumed@1 s=0@1");
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- mutex */

/* Locks at 0 and holds it for work_ticks, a preemption point every tick. */
static unsigned hold_ticks;

static void mutex_holder(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(mutex, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("locked");
    for (unsigned i = 0; i < hold_ticks; i++) {
        h_work(1);
        s_point();
    }
    s_log("unlock");
    CHECK_EQ(takt_mutex_unlock(mutex), TAKT_OK);
    h_park();
}

static void mutex_waiter(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    int rc = takt_mutex_lock(mutex, TAKT_WAIT_FOREVER);
    s_log("w=%d", rc);
    if (rc == TAKT_OK) {
        CHECK_EQ(takt_mutex_unlock(mutex), TAKT_OK);
    }
    h_park();
}

static void check_priority(const takt_task_t *task, int priority)
{
    if (!S_EDF) { /* under EDF the holder inherits a deadline, not a priority */
        CHECK_EQ(takt_task_get_priority(task), priority);
    }
}

/* A mutex case: controller C (5), the waiter W (4: mutex_waiter), the
 * holder H (2) running holder_body; at the end nobody holds the mutex and
 * the holder is back at its own priority. */
static void mutex_case(takt_tick_t tick0, void (*controller)(void *), void (*holder_body)(void *),
                       const char *expected)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &mutex), TAKT_OK);
    s_task("C", 5, controller, NULL);
    waiter = s_task("W", 4, mutex_waiter, NULL);
    holder = s_task("H", 2, holder_body, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, expected);
    CHECK(takt_mutex_holder(mutex) == NULL);
    check_priority(holder, 2);
    CHECK_EQ(takt_mutex_delete(mutex), TAKT_OK);
    h_end();
}

static void inherit_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(2), TAKT_OK); /* the holder holds, the waiter waits since 1 */
    check_priority(holder, 4);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    check_priority(holder, 2); /* it lost what it had from the waiter */
    if (!S_EDF) {
        CHECK_EQ(takt_task_set_priority(waiter, 3), TAKT_OK); /* not a waiter now */
        check_priority(holder, 2);
    }
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK); /* it waits again */
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_BLOCKED);
    check_priority(holder, 3);
    s_log("resumed");
    h_park();
}

static void scenario_mutex_inherits_again(takt_tick_t tick0)
{
    hold_ticks = 4;
    mutex_case(tick0, inherit_controller, mutex_holder, "locked@0 resumed@2 unlock@4 w=0@4");
}

static void free_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(2), TAKT_OK);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK_EQ(takt_delay(2), TAKT_OK); /* the holder lets go at 3: nobody waits */
    CHECK(takt_mutex_holder(mutex) == NULL);
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK); /* takes it at once */
    CHECK(takt_mutex_holder(mutex) == waiter);
    s_log("resumed");
    h_park();
}

static void scenario_mutex_free_at_resume(takt_tick_t tick0)
{
    hold_ticks = 3;
    mutex_case(tick0, free_controller, mutex_holder, "locked@0 unlock@3 resumed@4 w=0@4");
}

/* The holder itself resumes the waiter: it inherits while it runs. */
static void resuming_holder(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(mutex, TAKT_WAIT_FOREVER), TAKT_OK);
    s_log("locked");
    for (int i = 0; i < 3; i++) {
        h_work(1);
        s_point();
    }
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK);
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_BLOCKED);
    check_priority(holder, 4);
    s_log("resumed");
    CHECK_EQ(takt_mutex_unlock(mutex), TAKT_OK);
    check_priority(holder, 2);
    h_park();
}

static void suspending_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(2), TAKT_OK);
    check_priority(holder, 4);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    check_priority(holder, 2);
    h_park();
}

static void scenario_mutex_holder_resumes(takt_tick_t tick0)
{
    mutex_case(tick0, suspending_controller, resuming_holder, "locked@0 resumed@3 w=0@3");
}

/* ---------------------------------------------------------------- queue set */

static void selector(void *arg)
{
    (void)arg;
    void *member = NULL;
    int rc = takt_queue_set_select(set, &member, TAKT_WAIT_FOREVER);
    s_log("sel=%d:%s", rc, member == (void *)queue ? "queue" : "?");
    h_park();
}

static void select_controller(void *arg)
{
    (void)arg;
    uint32_t item = 5;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK_EQ(takt_queue_send(queue, &item, sizeof item, 0), TAKT_OK); /* the set keeps the post */
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK);
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_READY);
    s_log("resumed");
    h_park();
}

static void scenario_queue_set(takt_tick_t tick0)
{
    s_begin(tick0, 5);
    s_log_reset();
    CHECK_EQ(takt_queue_create(1, sizeof(uint32_t), &queue), TAKT_OK);
    CHECK_EQ(takt_queue_set_create(1, &set), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(set, queue), TAKT_OK);
    s_task("C", 5, select_controller, NULL);
    waiter = s_task("Sel", 3, selector, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "resumed@1 sel=0:queue@1");
    uint32_t value = 0;
    CHECK_EQ(takt_queue_receive(queue, &value, sizeof value, 0), TAKT_OK);
    CHECK_EQ(takt_queue_set_remove_queue(set, queue), TAKT_OK);
    CHECK_EQ(takt_queue_set_delete(set), TAKT_OK);
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- stream send */

static const uint8_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};

static void stream_sender(void *arg)
{
    (void)arg;
    for (int round = 0; round < 2; round++) {
        s_log("s=%d", takt_stream_send(stream, bytes, 4, TAKT_WAIT_FOREVER));
    }
    h_park();
}

static void stream_controller(void *arg)
{
    (void)arg;
    uint8_t sink[8];
    CHECK_EQ(takt_delay(1), TAKT_OK); /* the sender waits: the stream is full */
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK_EQ(takt_stream_receive(stream, sink, 2, 0), 2); /* room for 2: not its 4 */
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK);
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_BLOCKED);
    CHECK_EQ(takt_stream_receive(stream, sink, 4, 0), 4); /* room for 6: served here */
    CHECK_EQ(takt_stream_bytes(stream), 6);
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_READY);
    CHECK_EQ(takt_delay(1), TAKT_OK); /* its second send waits: room for 2 */
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK_EQ(takt_stream_receive(stream, sink, 8, 0), 6);
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK); /* fits at once */
    CHECK_EQ(takt_stream_bytes(stream), 4);
    s_log("resumed");
    h_park();
}

static void scenario_stream_send(takt_tick_t tick0)
{
    s_begin(tick0, 5);
    s_log_reset();
    CHECK_EQ(takt_stream_create(8, 1, 0, &stream), TAKT_OK);
    CHECK_EQ(takt_stream_send(stream, bytes, 8, 0), 8);
    s_task("C", 5, stream_controller, NULL);
    waiter = s_task("S", 3, stream_sender, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "s=4@1 resumed@2 s=4@2");
    CHECK_EQ(takt_stream_delete(stream), TAKT_OK);
    h_end();
}

/* ---------------------------------------------------------------- object deleted */

/* The object may be deleted while its waiter is suspended (it has no
 * waiters then): the resumed task's wait ends in timeout, and nothing
 * touches the freed object (AddressSanitizer would say). */
static void deleted_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK_EQ(takt_task_suspend(other), TAKT_OK);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    sem = NULL;
    queue = NULL;
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK);
    CHECK_EQ(takt_task_resume(other), TAKT_OK);
    s_log("resumed");
    h_park();
}

static void scenario_object_deleted(takt_tick_t tick0)
{
    s_begin(tick0, 5);
    s_log_reset();
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    CHECK_EQ(takt_queue_create(1, sizeof(uint32_t), &queue), TAKT_OK);
    s_task("C", 5, deleted_controller, NULL);
    waiter = s_task("W", 3, sem_waiter, FOREVER_ARG);
    other = s_task("R", 2, queue_taker, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "resumed@1 w=-5@1 r=-5:0@1");
    h_end();
}

int main(void)
{
    h_both(scenario_served_at_resume, "served_at_resume");
    h_both(scenario_waits_again, "waits_again");
    h_both(scenario_timeouts, "timeouts");
    h_both(scenario_priority_changed, "priority_changed");
    h_both(scenario_queue_receive, "queue_receive");
    h_both(scenario_queue_send, "queue_send");
    s_both_inheriting(scenario_mutex_inherits_again, "mutex_inherits_again");
    s_both_inheriting(scenario_mutex_free_at_resume, "mutex_free_at_resume");
    s_both_inheriting(scenario_mutex_holder_resumes, "mutex_holder_resumes");
    h_both(scenario_queue_set, "queue_set");
    h_both(scenario_stream_send, "stream_send");
    h_both(scenario_object_deleted, "object_deleted");
    return CHECK_SUMMARY();
}
