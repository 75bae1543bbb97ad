/*
 * The idle and timer tasks' control blocks and stacks from the application
 * (TAKT_CONFIG_IDLE_MEMORY_FROM_APP, TAKT_CONFIG_SOFT_TIMER_MEMORY_FROM_APP:
 * the FreeRTOS layer's static allocation). takt_init asks takt_idle_memory
 * and refuses a NULL control block, a NULL or too small stack (its 16-byte
 * aligned part is what counts), or the two
 * overlapping, changing nothing; the timer task's creation asks
 * takt_soft_timer_memory and fails the same way (and on a live task's control
 * block), so that no timer exists. With good memory both tasks run in it: the
 * handles are the application's blocks, and takt_task_static_memory reports
 * them with their stacks.
 */
#include "harness.h"

static uint8_t idle_stack_memory[64u * 1024u] __attribute__((aligned(16)));
static uint8_t timer_stack_memory[64u * 1024u] __attribute__((aligned(16)));
static takt_task_t idle_block, timer_block;
static takt_task_t *idle_tcb_given, *timer_tcb_given;
static void *idle_given, *timer_given;
static size_t idle_given_size, timer_given_size;
static unsigned idle_asked, timer_asked;

void takt_idle_memory(takt_task_t **tcb, void **stack, size_t *size)
{
    idle_asked++;
    *tcb = idle_tcb_given;
    *stack = idle_given;
    *size = idle_given_size;
}

void takt_soft_timer_memory(takt_task_t **tcb, void **stack, size_t *size)
{
    timer_asked++;
    *tcb = timer_tcb_given;
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
    takt_task_t *self = takt_task_self();
    takt_soft_timer_params_t p = {.name = "t", .period = 2, .callback = on_expiry};
    takt_soft_timer_t *timer = NULL;
    timer_tcb_given = &timer_block;
    timer_given = NULL;
    timer_given_size = sizeof(timer_stack_memory);
    CHECK_EQ(takt_soft_timer_create(&p, &timer), TAKT_ERR_ARG); /* no stack: no timer task */
    CHECK(timer == NULL);
    timer_given = timer_stack_memory;
    timer_given_size = 16; /* below any port's minimum */
    CHECK_EQ(takt_soft_timer_create(&p, &timer), TAKT_ERR_ARG);
    timer_given_size = sizeof(timer_stack_memory);
    timer_tcb_given = NULL;
    CHECK_EQ(takt_soft_timer_create(&p, &timer), TAKT_ERR_ARG); /* no control block */
    /* A control block inside its own stack: the stack would overwrite it. */
    timer_tcb_given = (takt_task_t *)(void *)(timer_stack_memory + 1024u);
    CHECK_EQ(takt_soft_timer_create(&p, &timer), TAKT_ERR_ARG);
    timer_tcb_given = self; /* a live task's */
    CHECK_EQ(takt_soft_timer_create(&p, &timer), TAKT_ERR_STATE);
    CHECK(takt_soft_timer_task() == NULL && timer == NULL);
    timer_tcb_given = &timer_block;
    CHECK_EQ(takt_soft_timer_create(&p, &timer), TAKT_OK);
    CHECK_EQ(takt_soft_timer_start(timer, 0), TAKT_OK);
    CHECK_EQ(timer_asked, 6u);
    CHECK(takt_soft_timer_task() == &timer_block);
    CHECK(timer_block.stack >= timer_stack_memory &&
          timer_block.stack < timer_stack_memory + sizeof(timer_stack_memory));
    takt_task_t *tcb = NULL;
    void *stack = NULL;
    CHECK_EQ(takt_task_static_memory(&timer_block, &tcb, &stack), TAKT_OK);
    CHECK(tcb == &timer_block && stack == timer_stack_memory);
    CHECK_EQ(takt_task_static_memory(takt_task_idle(), &tcb, &stack), TAKT_OK);
    CHECK(tcb == &idle_block && stack == idle_stack_memory);
    CHECK_EQ(takt_task_static_memory(NULL, &tcb, &stack), TAKT_ERR_STATE); /* the caller: dynamic */
    CHECK_EQ(takt_task_delete(&timer_block), TAKT_ERR_ARG);
    h_work(4);
    h_park();
}

int main(void)
{
    takt_init_params_t init = {.scheduler = TAKT_SCHED_FP, .preemption = TAKT_PREEMPT_FULL};
    CHECK_EQ(hp_configure(20), TAKT_OK);
    idle_tcb_given = &idle_block;
    idle_given = NULL;
    idle_given_size = sizeof(idle_stack_memory);
    CHECK_EQ(takt_init(&init), TAKT_ERR_ARG);
    idle_given = idle_stack_memory;
    idle_given_size = 16;
    CHECK_EQ(takt_init(&init), TAKT_ERR_ARG);
    idle_given_size = sizeof(idle_stack_memory);
    idle_tcb_given = NULL;
    CHECK_EQ(takt_init(&init), TAKT_ERR_ARG);
    /* The block's last byte on the stack's first: still an overlap. */
    idle_tcb_given = (takt_task_t *)(void *)(idle_stack_memory + 1 - sizeof(takt_task_t));
    CHECK_EQ(takt_init(&init), TAKT_ERR_ARG);
    /* Enough bytes, but off the 16-byte boundaries: the aligned part is short. */
    idle_tcb_given = &idle_block;
    idle_given = idle_stack_memory + 8;
    idle_given_size = port_min_stack_size() + 7u;
    CHECK_EQ(takt_init(&init), TAKT_ERR_ARG);
    idle_given = idle_stack_memory;
    idle_given_size = sizeof(idle_stack_memory);
    CHECK_EQ(idle_asked, 5u);
    CHECK(takt_task_idle() == NULL); /* nothing changed: no kernel yet */

    idle_tcb_given = &idle_block;
    h_begin_params(&init, 20);
    CHECK_EQ(idle_asked, 6u);
    takt_task_t *idle = takt_task_idle();
    CHECK(idle == &idle_block);
    CHECK(idle->stack >= idle_stack_memory && idle->stack < idle_stack_memory + sizeof(idle_stack_memory));
    h_task("starter", 2, starter, NULL);
    h_run();
    CHECK_STREQ(h_order, "fired");
    return CHECK_SUMMARY();
}
