/*
 * The idle and timer tasks' stacks from the application
 * (TAKT_CONFIG_IDLE_STACK_FROM_APP, TAKT_CONFIG_SOFT_TIMER_STACK_FROM_APP: the
 * FreeRTOS layer's static allocation): takt_init asks takt_idle_stack and
 * refuses a NULL or too small stack, changing nothing; the timer task's
 * creation asks takt_soft_timer_stack and fails the same way, so that no
 * timer exists; with good stacks both tasks run on them.
 */
#include "harness.h"

static uint8_t idle_stack_memory[64u * 1024u] __attribute__((aligned(16)));
static uint8_t timer_stack_memory[64u * 1024u] __attribute__((aligned(16)));
static void *idle_given, *timer_given;
static size_t idle_given_size, timer_given_size;
static unsigned idle_asked, timer_asked;

void takt_idle_stack(void **stack, size_t *size)
{
    idle_asked++;
    *stack = idle_given;
    *size = idle_given_size;
}

void takt_soft_timer_stack(void **stack, size_t *size)
{
    timer_asked++;
    *stack = timer_given;
    *size = timer_given_size;
}

static void on_expiry(takt_soft_timer_t *timer)
{
    (void)timer;
    h_note("fired");
}

static void starter(void *arg)
{
    (void)arg;
    takt_soft_timer_params_t p = {.name = "t", .period = 2, .callback = on_expiry};
    takt_soft_timer_t *timer = NULL;
    timer_given = NULL;
    timer_given_size = sizeof(timer_stack_memory);
    CHECK_EQ(takt_soft_timer_create(&p, &timer), TAKT_ERR_ARG); /* no stack: no timer task */
    CHECK(timer == NULL);
    timer_given = timer_stack_memory;
    timer_given_size = 16; /* below any port's minimum */
    CHECK_EQ(takt_soft_timer_create(&p, &timer), TAKT_ERR_ARG);
    timer_given_size = sizeof(timer_stack_memory);
    CHECK_EQ(takt_soft_timer_create(&p, &timer), TAKT_OK);
    CHECK_EQ(takt_soft_timer_start(timer, 0), TAKT_OK);
    CHECK_EQ(timer_asked, 3u);
    h_work(4);
    h_park();
}

int main(void)
{
    takt_init_params_t init = {.scheduler = TAKT_SCHED_FP, .preemption = TAKT_PREEMPT_FULL};
    CHECK_EQ(hp_configure(20), TAKT_OK);
    idle_given = NULL;
    idle_given_size = sizeof(idle_stack_memory);
    CHECK_EQ(takt_init(&init), TAKT_ERR_ARG);
    idle_given = idle_stack_memory;
    idle_given_size = 16;
    CHECK_EQ(takt_init(&init), TAKT_ERR_ARG);
    CHECK_EQ(idle_asked, 2u);

    idle_given_size = sizeof(idle_stack_memory);
    h_begin_params(&init, 20);
    CHECK_EQ(idle_asked, 3u);
    takt_task_t *idle = takt_task_idle();
    CHECK(idle != NULL && idle->stack >= idle_stack_memory &&
          idle->stack < idle_stack_memory + sizeof(idle_stack_memory));
    h_task("starter", 2, starter, NULL);
    h_run();
    CHECK_STREQ(h_order, "fired");
    return CHECK_SUMMARY();
}
