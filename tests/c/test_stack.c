/*
 * Stack accounting: the high-water mark, and overflow detection at the switch
 * (hook, trace event, the task suspended). The overflowing task's declared
 * stack is the upper part of a larger buffer this test owns, so running past
 * the declared region writes into the test's own memory, never elsewhere.
 */
#include <alloca.h>

#include "harness.h"

/* Sized by the platform's test stack (64 KiB on the sim, 4 KiB on the
 * boards): the declared region, the test's memory below it, how far past the
 * bottom the overflowing task writes, and what the heavy task uses beyond
 * its first frame. */
#define DECLARED H_STACK
#define BELOW (H_STACK / 2u)
#define OVERRUN (BELOW / 8u)
#define HEAVY_USE (H_STACK / 4u)

/* One buffer per run: a task that overflowed never returns, so the sanitizer's
 * bookkeeping of its frames stays on the buffer. */
static uint8_t overflow_buf[3][BELOW + DECLARED] __attribute__((aligned(16)));
static int run_index;
static takt_task_t ov_tcb;

static __attribute__((noinline)) void use_stack(size_t bytes)
{
    volatile uint8_t *p = alloca(bytes);
    memset((void *)p, 0x11, bytes);
    /* The buffer is dead after this function, so an optimising build would
     * drop the memset; the barrier says the memory is used. */
    __asm__ volatile("" : : "r"(p) : "memory");
    p[0] = 1;
}

static size_t hwm_seen[2];

static void light_body(void *arg)
{
    (void)arg;
    hwm_seen[0] = takt_task_stack_high_water(NULL);
    h_park();
}

static void heavy_body(void *arg)
{
    (void)arg;
    /* The first frame's words are used again once the task runs, so the
     * mark falls by HEAVY_USE below the fresh one only past them. */
    use_stack(HEAVY_USE + HP_STACK_FIRST_FRAME);
    hwm_seen[1] = takt_task_stack_high_water(NULL);
    h_park();
}

static void scenario_high_water(takt_tick_t tick0)
{
    h_begin(tick0, 3, false);
    takt_task_t *light = h_task("light", 2, light_body, NULL);
    takt_task_t *heavy = h_task("heavy", 2, heavy_body, NULL);
    size_t fresh = takt_task_stack_high_water(light);
    CHECK(fresh > H_STACK - HP_STACK_FIRST_FRAME && fresh <= H_STACK); /* nothing used yet */
    h_start();
    size_t l = takt_task_stack_high_water(light), h = takt_task_stack_high_water(heavy);
    CHECK(hwm_seen[0] >= l); /* the mark only goes down */
    CHECK(hwm_seen[1] >= h);
    CHECK(l < fresh);                  /* running used some */
    CHECK(h + HEAVY_USE <= fresh);      /* the heavy one used at least HEAVY_USE more */
    CHECK(h < l);
    CHECK(h > 0);
    CHECK_EQ(h_overflow_n, 0);
    h_end();
}

static int ov_after, bystander_runs;

static void overflow_body(void *arg)
{
    (void)arg;
    /* from near the top of the declared region to OVERRUN below its bottom */
    use_stack(DECLARED + OVERRUN);
    takt_delay(1); /* the switch away finds the guard overwritten */
    ov_after = 1;
    h_park();
}

static void bystander(void *arg)
{
    (void)arg;
    for (;;) {
        bystander_runs++;
        takt_delay(1);
    }
}

static void scenario_overflow(takt_tick_t tick0)
{
    h_begin(tick0, 5, false);
    ov_after = bystander_runs = 0;
    takt_task_params_t p = {.name = "deep", .entry = overflow_body, .priority = 3};
    CHECK_EQ(takt_task_create_static(&p, &ov_tcb, overflow_buf[run_index] + BELOW, DECLARED),
             TAKT_OK);
    h_task("other", 1, bystander, NULL);
    h_start();
    CHECK_EQ(h_overflow_n, 1);
    CHECK_EQ(h_overflows[0].task, 1);
    CHECK_EQ(h_overflows[0].at, 0);
    CHECK_EQ(ov_after, 0);
    CHECK_EQ(takt_task_state(&ov_tcb), TAKT_TASK_SUSPENDED);
    CHECK_STREQ(h_events(TAKT_EV_STACK_OVERFLOW, false), "0:1");
    CHECK_EQ(h_count(TAKT_EV_DISPATCH, 1), 1);
    CHECK_EQ(bystander_runs, 5); /* the rest of the system goes on: 0..4 */
    CHECK_EQ(takt_task_stack_high_water(&ov_tcb), 0);
    h_end();
    run_index++;
}

/* The idle task's guard overwritten: reported at every switch away from it,
 * and it stays ready, since nothing else could run when every task waits. */
static int idle_waker_runs;

static void idle_waker(void *arg)
{
    (void)arg;
    takt_kernel.idle->stack[0] = 0; /* the guard's lowest byte: idle never reaches it */
    for (;;) {
        idle_waker_runs++;
        takt_delay(1);
    }
}

static void scenario_idle_overflow(takt_tick_t tick0)
{
    h_begin(tick0, 4, false);
    idle_waker_runs = 0;
    h_task("waker", 2, idle_waker, NULL);
    h_start();
    CHECK_EQ(idle_waker_runs, 4); /* ticks 0..3: idle ran between them each time */
    CHECK_EQ(h_overflow_n, 3);    /* the switches away from idle at ticks 1..3 */
    for (size_t i = 0; i < h_overflow_n; i++) {
        CHECK_EQ(h_overflows[i].task, takt_task_id(takt_kernel.idle));
    }
    CHECK(takt_task_state(takt_kernel.idle) != TAKT_TASK_SUSPENDED);
    h_end();
}

int main(void)
{
    h_both(scenario_high_water, "high_water");
    h_both(scenario_overflow, "overflow");
    h_both(scenario_idle_overflow, "idle_overflow");
    return CHECK_SUMMARY();
}
