/*
 * A waiter that was served (handed a semaphore's unit, a queue's item, a
 * stream's bytes, a mutex) and is deleted before its call returned gives back
 * what it was handed, as FreeRTOS leaves it in the object until the woken
 * task takes it: to the front (the oldest again), or to the next waiter.
 * Where sends filled the object since, there is no room, and the delete is
 * refused with nothing changed. A waiter whose call returned, or that timed
 * out, or that only peeked, gives back nothing; an object deleted in between
 * is not touched again (AddressSanitizer would say).
 * Suspended instead of deleted, a semaphore taker, mutex locker or queue
 * receiver gives back too and waits again as if suspended before the serve
 * (test_suspend_wait.c): at its resume it takes what is there, or waits
 * until the end of its original timeout. A stream receiver keeps its bytes.
 * A queue set's selector gives back the member handle it was handed.
 */
#include "sync_common.h"

#define FOREVER_ARG ((void *)(uintptr_t)TAKT_WAIT_FOREVER)

static takt_queue_t *queue;
static takt_sem_t *sem;
static takt_stream_t *stream;
static takt_mutex_t *mutex;
static takt_queue_set_t *set;
static takt_event_group_t *group;
static takt_task_t *waiter, *second;

static void queue_receiver(void *arg)
{
    uint32_t v = 0;
    int r = takt_queue_receive(queue, &v, sizeof(v), (takt_tick_t)(uintptr_t)arg);
    s_log("%s=%d:%u", takt_task_name(takt_task_self()), r, (unsigned)v);
    h_park();
}

static void queue_peeker(void *arg)
{
    (void)arg;
    uint32_t v = 0;
    int r = takt_queue_peek(queue, &v, sizeof(v), TAKT_WAIT_FOREVER);
    s_log("peek=%d:%u", r, (unsigned)v);
    h_park();
}

static uint32_t receive_now(void)
{
    uint32_t v = 0;
    CHECK_EQ(takt_queue_receive(queue, &v, sizeof(v), 0), TAKT_OK);
    return v;
}

static void send_now(uint32_t v)
{
    CHECK_EQ(takt_queue_send(queue, &v, sizeof(v), 0), TAKT_OK);
}

/* Runs controller at priority 5 over the waiter W (3) and, if second_entry,
 * a second one R (2), against a queue of length items; checks the log. */
static void queue_case(takt_tick_t tick0, uint32_t length, void (*controller)(void *),
                       void (*entry)(void *), void *arg, void (*second_entry)(void *),
                       const char *expected)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_queue_create(length, sizeof(uint32_t), &queue), TAKT_OK);
    s_task("C", 5, controller, NULL);
    waiter = s_task("w", 3, entry, arg);
    second = second_entry != NULL ? s_task("r", 2, second_entry, arg) : NULL;
    h_start();
    CHECK_STREQ(s_log_buf, expected);
    if (queue != NULL) {
        CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    }
    h_end();
}

/* ---------------------------------------------------------------- queues */

static void to_front_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK); /* the waiter waits */
    send_now(7);                      /* handed to it: it is ready, has not run */
    CHECK_EQ(takt_queue_count(queue), 0);
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_READY);
    send_now(8);
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    CHECK_EQ(takt_queue_count(queue), 2); /* 7 back in front of 8 */
    CHECK_EQ(receive_now(), 7);
    CHECK_EQ(receive_now(), 8);
    s_log("done");
    h_park();
}

static void scenario_queue_to_front(takt_tick_t tick0)
{
    queue_case(tick0, 3, to_front_controller, queue_receiver, FOREVER_ARG, NULL, "done@1");
}

/* The queue filled up since the hand-off: no room for the item, the delete
 * is refused and changes nothing; the waiter then runs with its item. Once
 * there is room, the delete goes through. */
static void no_room_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7); /* handed */
    send_now(8); /* fills the queue of one */
    CHECK_EQ(takt_task_delete(waiter), TAKT_ERR_STATE);
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_READY);
    CHECK_EQ(takt_queue_count(queue), 1);
    CHECK_EQ(takt_delay(1), TAKT_OK); /* the waiter returns with 7 */
    CHECK_EQ(receive_now(), 8);
    s_log("done");
    h_park();
}

static void scenario_queue_no_room(takt_tick_t tick0)
{
    queue_case(tick0, 1, no_room_controller, queue_receiver, FOREVER_ARG, NULL,
               "w=0:7@1 done@2");
}

static void room_again_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7);
    send_now(8);
    CHECK_EQ(takt_task_delete(waiter), TAKT_ERR_STATE);
    CHECK_EQ(receive_now(), 8);
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    CHECK_EQ(receive_now(), 7);
    s_log("done");
    h_park();
}

static void scenario_queue_room_again(takt_tick_t tick0)
{
    queue_case(tick0, 1, room_again_controller, queue_receiver, FOREVER_ARG, NULL, "done@1");
}

/* Given back to an empty queue with a receiver waiting: that one gets it. */
static void next_receiver_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK); /* both wait, w first */
    send_now(7);
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    CHECK_EQ(takt_queue_count(queue), 0);
    CHECK_EQ(takt_task_state(second), TAKT_TASK_READY);
    s_log("deleted");
    CHECK_EQ(takt_delay(1), TAKT_OK);
    h_park();
}

static void scenario_queue_next_receiver(takt_tick_t tick0)
{
    queue_case(tick0, 2, next_receiver_controller, queue_receiver, FOREVER_ARG, queue_receiver,
               "deleted@1 r=0:7@1");
}

/* Nothing comes back from a receiver whose call returned (the item is its
 * own), one suspended before it returned does give it back. */
static void returned_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7);
    CHECK_EQ(takt_delay(1), TAKT_OK); /* w returns with 7 and parks */
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    CHECK_EQ(takt_queue_count(queue), 0);
    send_now(9); /* to r, which then is suspended before it runs */
    CHECK_EQ(takt_task_suspend(second), TAKT_OK);
    CHECK_EQ(takt_task_delete(second), TAKT_OK);
    CHECK_EQ(takt_queue_count(queue), 1);
    CHECK_EQ(receive_now(), 9);
    s_log("done");
    h_park();
}

static void late_receiver(void *arg)
{
    CHECK_EQ(takt_delay(1), TAKT_OK); /* waits after w has been served */
    queue_receiver(arg);
}

static void scenario_queue_returned(takt_tick_t tick0)
{
    queue_case(tick0, 2, returned_controller, queue_receiver, FOREVER_ARG, late_receiver,
               "w=0:7@1 done@2");
}

/* A receiver whose wait timed out has nothing; a peeker had a copy. */
static void timed_out_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK); /* w's timeout ends at this tick too */
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_READY);
    send_now(7); /* nobody waits: stored */
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    CHECK_EQ(takt_queue_count(queue), 1);
    s_log("done");
    h_park();
}

static void scenario_queue_timed_out(takt_tick_t tick0)
{
    queue_case(tick0, 2, timed_out_controller, queue_receiver, (void *)(uintptr_t)1, NULL,
               "done@1");
}

static void peeker_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7); /* a copy to the peeker, the item stays */
    CHECK_EQ(takt_queue_count(queue), 1);
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    CHECK_EQ(takt_queue_count(queue), 1);
    s_log("done");
    h_park();
}

static void scenario_queue_peeker(takt_tick_t tick0)
{
    queue_case(tick0, 2, peeker_controller, queue_peeker, NULL, NULL, "done@1");
}

/* The queue deleted between the hand-off and the task's delete. */
static void queue_gone_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7);
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK); /* no waiters: w was served */
    queue = NULL;
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    s_log("done");
    h_park();
}

static void scenario_queue_gone(takt_tick_t tick0)
{
    queue_case(tick0, 2, queue_gone_controller, queue_receiver, FOREVER_ARG, NULL, "done@1");
}

/* ---------------------------------------------------------------- semaphores */

static void sem_taker(void *arg)
{
    (void)arg;
    s_log("%s=%d", takt_task_name(takt_task_self()), takt_sem_take(sem, TAKT_WAIT_FOREVER));
    h_park();
}

static void sem_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_sem_give(sem), TAKT_OK); /* handed to w */
    CHECK_EQ(takt_sem_count(sem), 0);
    if (second != NULL) {
        CHECK_EQ(takt_task_delete(waiter), TAKT_OK); /* the unit goes on to r */
        CHECK_EQ(takt_sem_count(sem), 0);
        CHECK_EQ(takt_delay(1), TAKT_OK);
    } else if (takt_sem_give(sem) == TAKT_OK) { /* a second unit into the count */
        CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
        CHECK_EQ(takt_sem_count(sem), 2); /* counting: both */
    } else {
        CHECK(false);
    }
    s_log("done");
    h_park();
}

static void sem_case(takt_tick_t tick0, uint32_t max, void (*controller)(void *), bool two,
                     const char *expected)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_sem_create(max, 0, &sem), TAKT_OK);
    s_task("C", 5, controller, NULL);
    waiter = s_task("w", 3, sem_taker, NULL);
    second = two ? s_task("r", 2, sem_taker, NULL) : NULL;
    h_start();
    CHECK_STREQ(s_log_buf, expected);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
    h_end();
}

static void scenario_sem_counting(takt_tick_t tick0)
{
    sem_case(tick0, 3, sem_controller, false, "done@1");
}

static void scenario_sem_next_taker(takt_tick_t tick0)
{
    sem_case(tick0, 1, sem_controller, true, "r=0@1 done@2");
}

/* A binary semaphore given again while its unit was w's: the count is at
 * its maximum and stays there, as FreeRTOS's would be. */
static void binary_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_sem_give(sem), TAKT_OK);
    CHECK_EQ(takt_sem_give(sem), TAKT_OK);
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    CHECK_EQ(takt_sem_count(sem), 1);
    s_log("done");
    h_park();
}

static void scenario_sem_binary(takt_tick_t tick0)
{
    sem_case(tick0, 1, binary_controller, false, "done@1");
}

/* ---------------------------------------------------------------- streams */

static void stream_receiver(void *arg)
{
    (void)arg;
    char text[16] = {0};
    int n = takt_stream_receive(stream, text, sizeof(text) - 1, TAKT_WAIT_FOREVER);
    s_log("w=%d:%s", n, text);
    h_park();
}

static int stream_text(char *text, size_t size)
{
    memset(text, 0, size);
    return takt_stream_receive(stream, text, size - 1, 0);
}

static void bytes_controller(void *arg)
{
    (void)arg;
    char text[16];
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_send(stream, "abc", 3, 0), 3); /* handed to w */
    CHECK_EQ(takt_stream_send(stream, "de", 2, 0), 2);
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    CHECK_EQ(stream_text(text, sizeof(text)), 5);
    CHECK_STREQ(text, "abcde");
    s_log("done");
    h_park();
}

static void messages_controller(void *arg)
{
    (void)arg;
    char text[16];
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_send(stream, "hello", 5, 0), 5); /* handed to w */
    CHECK_EQ(takt_stream_send(stream, "xy", 2, 0), 2);
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    CHECK_EQ(stream_text(text, sizeof(text)), 5);
    CHECK_STREQ(text, "hello");
    CHECK_EQ(stream_text(text, sizeof(text)), 2);
    CHECK_STREQ(text, "xy");
    s_log("done");
    h_park();
}

/* Sends filled the stream since: refused, nothing changed, w then runs with
 * its bytes. */
static void stream_full_controller(void *arg)
{
    (void)arg;
    char text[16];
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_send(stream, "abc", 3, 0), 3);
    CHECK_EQ(takt_stream_send(stream, "wxyz", 4, 0), 4);
    CHECK_EQ(takt_task_delete(waiter), TAKT_ERR_STATE);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(stream_text(text, sizeof(text)), 4);
    CHECK_STREQ(text, "wxyz");
    s_log("done");
    h_park();
}

static void stream_case(takt_tick_t tick0, size_t size, unsigned length_bytes,
                        void (*controller)(void *), const char *expected)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_stream_create(size, 1, length_bytes, &stream), TAKT_OK);
    s_task("C", 5, controller, NULL);
    waiter = s_task("w", 3, stream_receiver, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, expected);
    CHECK_EQ(takt_stream_delete(stream), TAKT_OK);
    h_end();
}

static void scenario_stream_bytes(takt_tick_t tick0)
{
    stream_case(tick0, 8, 0, bytes_controller, "done@1");
}

static void scenario_stream_messages(takt_tick_t tick0)
{
    stream_case(tick0, 16, 2, messages_controller, "done@1");
}

static void scenario_stream_full(takt_tick_t tick0)
{
    stream_case(tick0, 4, 0, stream_full_controller, "w=3:abc@1 done@2");
}

/* ---------------------------------------------------------------- the rest */

/* A mutex handed to w goes on at its delete (w held it): free here. */
static void mutex_locker(void *arg)
{
    (void)arg;
    s_log("w=%d", takt_mutex_lock(mutex, TAKT_WAIT_FOREVER));
    h_park();
}

static void mutex_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(mutex, 0), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK); /* w waits for it */
    CHECK_EQ(takt_mutex_unlock(mutex), TAKT_OK);
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    CHECK_EQ(takt_mutex_lock(mutex, 0), TAKT_OK);
    CHECK_EQ(takt_mutex_unlock(mutex), TAKT_OK);
    s_log("done");
    h_park();
}

static void scenario_mutex(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &mutex), TAKT_OK);
    s_task("C", 5, mutex_controller, NULL);
    waiter = s_task("w", 3, mutex_locker, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "done@1");
    CHECK_EQ(takt_mutex_delete(mutex), TAKT_OK);
    h_end();
}

/* A queue set's selector gives back the member handle it was handed: to the
 * ring's front, where the next select finds it, or to the next selector.
 * Once its member left the set or was reset, the handle names nothing the
 * set announces: nothing goes back, and the member may be freed by then
 * (AddressSanitizer would say). An event group served its bits, and is deleted before the waiter. */
static void selector(void *arg)
{
    (void)arg;
    void *member = NULL;
    int r = takt_queue_set_select(set, &member, TAKT_WAIT_FOREVER);
    s_log("%s=%d:%s", takt_task_name(takt_task_self()), r, member == queue ? "q" : "?");
    h_park();
}

/* Whether the set announces the queue now (taking the announcement). */
static bool set_announces_queue(void)
{
    void *member = NULL;
    return takt_queue_set_select(set, &member, 0) == TAKT_OK && member == queue;
}

static void set_case(takt_tick_t tick0, void (*controller)(void *), bool with_second,
                     const char *expected)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_queue_set_create(2, &set), TAKT_OK);
    CHECK_EQ(takt_queue_create(2, sizeof(uint32_t), &queue), TAKT_OK);
    CHECK_EQ(takt_queue_set_add_queue(set, queue), TAKT_OK);
    s_task("C", 5, controller, NULL);
    waiter = s_task("w", 3, selector, NULL);
    second = with_second ? s_task("r", 2, selector, NULL) : NULL;
    h_start();
    CHECK_STREQ(s_log_buf, expected);
    if (queue != NULL) {
        CHECK_EQ(takt_queue_set_remove_queue(set, queue), TAKT_OK);
        CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    }
    CHECK_EQ(takt_queue_set_delete(set), TAKT_OK);
    h_end();
}

static void set_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7); /* the handle goes to w */
    send_now(8); /* and this one into the ring */
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    CHECK(set_announces_queue()); /* w's, first again */
    CHECK_EQ(receive_now(), 7);
    CHECK(set_announces_queue());
    CHECK_EQ(receive_now(), 8);
    CHECK(!set_announces_queue());
    s_log("done");
    h_park();
}

static void scenario_queue_set(takt_tick_t tick0)
{
    set_case(tick0, set_controller, false, "done@1");
}

static void set_next_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7);
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    CHECK_EQ(takt_task_state(second), TAKT_TASK_READY);
    CHECK(!set_announces_queue()); /* r holds it */
    s_log("done");
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(receive_now(), 7);
    h_park();
}

static void scenario_queue_set_next(takt_tick_t tick0)
{
    set_case(tick0, set_next_controller, true, "done@1 r=0:q@1");
}

/* The item read outside the set, the queue removed from it and deleted:
 * the selector's handle is stale, and its delete gives nothing back. */
static void set_member_gone_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7);
    CHECK_EQ(receive_now(), 7);
    CHECK_EQ(takt_queue_set_remove_queue(set, queue), TAKT_OK);
    CHECK_EQ(takt_queue_delete(queue), TAKT_OK);
    queue = NULL;
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    void *member = NULL;
    CHECK_EQ(takt_queue_set_select(set, &member, 0), TAKT_ERR_TIMEOUT);
    s_log("done");
    h_park();
}

static void scenario_queue_set_member_gone(takt_tick_t tick0)
{
    set_case(tick0, set_member_gone_controller, false, "done@1");
}

/* A reset empties the member: nothing to announce, nothing goes back. */
static void set_reset_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7);
    CHECK_EQ(takt_queue_reset(queue), TAKT_OK);
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    CHECK(!set_announces_queue());
    send_now(8); /* announced as any item */
    CHECK(set_announces_queue());
    CHECK_EQ(receive_now(), 8);
    s_log("done");
    h_park();
}

static void scenario_queue_set_reset(takt_tick_t tick0)
{
    set_case(tick0, set_reset_controller, false, "done@1");
}

/* Suspended, the selector gives the handle back and selects again at its
 * resume: it takes what the set announces then. */
static void set_suspend_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK(set_announces_queue()); /* given back; C takes the announcement */
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK);
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_BLOCKED); /* nothing announced */
    send_now(8);
    s_log("sent");
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(receive_now(), 7);
    CHECK_EQ(receive_now(), 8);
    h_park();
}

static void scenario_queue_set_suspend(takt_tick_t tick0)
{
    set_case(tick0, set_suspend_controller, false, "sent@1 w=0:q@1");
}

static void bits_waiter(void *arg)
{
    (void)arg;
    takt_event_bits_t seen = 0;
    s_log("w=%d", takt_event_group_wait(group, 1u, 0, &seen, TAKT_WAIT_FOREVER));
    h_park();
}

static void group_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_event_group_set(group, 1u, NULL), TAKT_OK);
    CHECK_EQ(takt_event_group_delete(group), TAKT_OK);
    group = NULL;
    CHECK_EQ(takt_task_delete(waiter), TAKT_OK);
    s_log("done");
    h_park();
}

static void scenario_event_group_gone(takt_tick_t tick0)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_event_group_create(&group), TAKT_OK);
    s_task("C", 5, group_controller, NULL);
    waiter = s_task("w", 3, bits_waiter, NULL);
    h_start();
    CHECK_STREQ(s_log_buf, "done@1");
    h_end();
}


/* ---------------------------------------------------------------- suspended */

/* w is handed 7, suspended before it runs: 7 is the queue's again (C takes
 * it); resumed, w waits again and gets the next item. */
static void suspend_queue_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK_EQ(takt_queue_count(queue), 1);
    CHECK_EQ(receive_now(), 7);
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK);
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_BLOCKED); /* nothing there: waits again */
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(8);
    s_log("sent");
    CHECK_EQ(takt_delay(1), TAKT_OK);
    h_park();
}

static void scenario_suspend_queue(takt_tick_t tick0)
{
    queue_case(tick0, 2, suspend_queue_controller, queue_receiver, FOREVER_ARG, NULL,
               "sent@2 w=0:8@2");
}

/* Resumed with the item still there: it takes it at once. */
static void suspend_resume_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    send_now(8);
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK); /* 7 again, the oldest */
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_READY);
    CHECK_EQ(takt_queue_count(queue), 1);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(receive_now(), 8);
    s_log("done");
    h_park();
}

static void scenario_suspend_resume_at_once(takt_tick_t tick0)
{
    queue_case(tick0, 2, suspend_resume_controller, queue_receiver, FOREVER_ARG, NULL,
               "w=0:7@1 done@2");
}

/* The original timeout still holds: w waited from 0 for 5 ticks; resumed at
 * 2 with nothing there, it times out at 5. (Its buffer still holds the copy
 * of 7 it gave back: a receive that fails says nothing of its buffer.) */
static void suspend_timed_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK_EQ(receive_now(), 7);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK);
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_BLOCKED);
    h_park();
}

static void scenario_suspend_timed(takt_tick_t tick0)
{
    queue_case(tick0, 2, suspend_timed_controller, queue_receiver, (void *)(uintptr_t)5, NULL,
               "w=-5:7@5");
}

/* No room to give back: the suspended receiver keeps its item and returns
 * with it when resumed. */
static void suspend_no_room_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    send_now(7);
    send_now(8);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK_EQ(takt_queue_count(queue), 1);
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(receive_now(), 8);
    s_log("done");
    h_park();
}

static void scenario_suspend_no_room(takt_tick_t tick0)
{
    queue_case(tick0, 1, suspend_no_room_controller, queue_receiver, FOREVER_ARG, NULL,
               "w=0:7@1 done@2");
}

/* A semaphore's unit goes back to the count, where C can take it. */
static void suspend_sem_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_sem_give(sem), TAKT_OK);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK_EQ(takt_sem_count(sem), 1);
    CHECK_EQ(takt_sem_take(sem, 0), TAKT_OK);
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK);
    CHECK_EQ(takt_task_state(waiter), TAKT_TASK_BLOCKED);
    CHECK_EQ(takt_sem_give(sem), TAKT_OK);
    s_log("given");
    CHECK_EQ(takt_delay(1), TAKT_OK);
    h_park();
}

static void scenario_suspend_sem(takt_tick_t tick0)
{
    sem_case(tick0, 1, suspend_sem_controller, false, "given@1 w=0@1");
}

/* The mutex handed to w is free again once w is suspended (a suspended task
 * no longer holds up every taker); resumed, w takes it at once. With another
 * locker r waiting behind w, the mutex goes on to r. */
static void suspend_mutex_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_mutex_lock(mutex, 0), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK); /* w (and r) wait for it */
    CHECK_EQ(takt_mutex_unlock(mutex), TAKT_OK);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    if (second == NULL) {
        CHECK_EQ(takt_mutex_lock(mutex, 0), TAKT_OK); /* free */
        CHECK_EQ(takt_mutex_unlock(mutex), TAKT_OK);
        CHECK_EQ(takt_task_resume(waiter), TAKT_OK); /* takes it at once */
        CHECK_EQ(takt_task_state(waiter), TAKT_TASK_READY);
    } else {
        CHECK_EQ(takt_task_state(second), TAKT_TASK_READY); /* r holds it */
        CHECK_EQ(takt_mutex_lock(mutex, 0), TAKT_ERR_TIMEOUT);
    }
    s_log("done");
    CHECK_EQ(takt_delay(1), TAKT_OK);
    h_park();
}

static void mutex_locker_unlocks(void *arg)
{
    (void)arg;
    int r = takt_mutex_lock(mutex, TAKT_WAIT_FOREVER);
    s_log("%s=%d", takt_task_name(takt_task_self()), r);
    if (r == TAKT_OK) {
        CHECK_EQ(takt_mutex_unlock(mutex), TAKT_OK);
    }
    h_park();
}

static void suspend_mutex_case(takt_tick_t tick0, bool with_second, const char *expected)
{
    s_begin(tick0, 8);
    s_log_reset();
    CHECK_EQ(takt_mutex_create(0, &mutex), TAKT_OK);
    s_task("C", 5, suspend_mutex_controller, NULL);
    waiter = s_task("w", 3, mutex_locker_unlocks, NULL);
    second = with_second ? s_task("r", 2, mutex_locker_unlocks, NULL) : NULL;
    h_start();
    CHECK_STREQ(s_log_buf, expected);
    CHECK_EQ(takt_mutex_delete(mutex), TAKT_OK);
    h_end();
}

static void scenario_suspend_mutex(takt_tick_t tick0)
{
    suspend_mutex_case(tick0, false, "done@1 w=0@1");
}

static void scenario_suspend_mutex_next(takt_tick_t tick0)
{
    suspend_mutex_case(tick0, true, "done@1 r=0@1");
}

/* A stream receiver's wait ends at a suspend (FreeRTOS's receive returns):
 * served and suspended, it keeps its bytes and returns them when resumed. */
static void suspend_stream_controller(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(1), TAKT_OK);
    CHECK_EQ(takt_stream_send(stream, "abc", 3, 0), 3);
    CHECK_EQ(takt_task_suspend(waiter), TAKT_OK);
    CHECK_EQ(takt_task_resume(waiter), TAKT_OK);
    CHECK_EQ(takt_delay(1), TAKT_OK);
    s_log("done");
    h_park();
}

static void scenario_suspend_stream(takt_tick_t tick0)
{
    stream_case(tick0, 8, 0, suspend_stream_controller, "w=3:abc@1 done@2");
}

int main(void)
{
    h_both(scenario_queue_to_front, "queue_to_front");
    h_both(scenario_queue_no_room, "queue_no_room");
    h_both(scenario_queue_room_again, "queue_room_again");
    h_both(scenario_queue_next_receiver, "queue_next_receiver");
    h_both(scenario_queue_returned, "queue_returned");
    h_both(scenario_queue_timed_out, "queue_timed_out");
    h_both(scenario_queue_peeker, "queue_peeker");
    h_both(scenario_queue_gone, "queue_gone");
    h_both(scenario_sem_counting, "sem_counting");
    h_both(scenario_sem_next_taker, "sem_next_taker");
    h_both(scenario_sem_binary, "sem_binary");
    h_both(scenario_stream_bytes, "stream_bytes");
    h_both(scenario_stream_messages, "stream_messages");
    h_both(scenario_stream_full, "stream_full");
    s_both_inheriting(scenario_mutex, "mutex");
    h_both(scenario_queue_set, "queue_set");
    h_both(scenario_queue_set_next, "queue_set_next");
    h_both(scenario_queue_set_member_gone, "queue_set_member_gone");
    h_both(scenario_queue_set_reset, "queue_set_reset");
    h_both(scenario_queue_set_suspend, "queue_set_suspend");
    h_both(scenario_event_group_gone, "event_group_gone");
    h_both(scenario_suspend_queue, "suspend_queue");
    h_both(scenario_suspend_resume_at_once, "suspend_resume_at_once");
    h_both(scenario_suspend_timed, "suspend_timed");
    h_both(scenario_suspend_no_room, "suspend_no_room");
    h_both(scenario_suspend_sem, "suspend_sem");
    s_both_inheriting(scenario_suspend_mutex, "suspend_mutex");
    s_both_inheriting(scenario_suspend_mutex_next, "suspend_mutex_next");
    h_both(scenario_suspend_stream, "suspend_stream");
    return CHECK_SUMMARY();
}
