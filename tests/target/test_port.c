/*
 * The kernel on the Cortex-M port (QEMU mps2-an385/an386): context switches,
 * the tick, delays, periodic jobs with modelled work, interrupts that wake
 * tasks, BASEPRI critical sections that leave urgent interrupts unmasked, FPU
 * state kept across preemptions (Cortex-M4F), and runs that end and start
 * again. Trace stamps are SysTick counts; the checks round them to the
 * nearest tick (docs/ports.md: events land a few microseconds after the
 * boundary the sim would stamp them with).
 */
#include <stdio.h>
#include <string.h>

#include "armv7m_regs.h"
#include "board.h"
#include "check.h"
#include "port.h"
#include "takt/takt.h"
#include "takt_armv7m.h"
#include "takt_port_inline.h"

#define TICK_HZ 1000u
#define LOG_MAX 512u
#define STACK 2048u

static takt_trace_event_t log_events[LOG_MAX];
static size_t log_n;
static bool log_overflowed;

void takt_trace_drain_hook(void)
{
    size_t room = LOG_MAX - log_n;
    size_t n = takt_trace_read(&log_events[log_n], room);
    log_n += n;
    if (n == room) {
        takt_trace_event_t scratch[8];
        log_overflowed = log_overflowed || takt_trace_read(scratch, 8) > 0;
    }
}

static uint32_t misses;
void takt_deadline_miss_hook(takt_task_t *task, uint32_t job)
{
    (void)task;
    (void)job;
    misses++;
}

void takt_stack_overflow_hook(takt_task_t *task)
{
    (void)task;
    CHECK(!"stack overflow");
}

static uint32_t to_tick(uint64_t stamp)
{
    uint32_t tick = takt_arm_tick_counts();
    return (uint32_t)((stamp + tick / 2u) / tick);
}

static void begin(uint64_t end_ticks)
{
    log_n = 0;
    log_overflowed = false;
    misses = 0;
    takt_arm_params_t p = {.tick_hz = TICK_HZ, .end_ticks = end_ticks};
    CHECK_EQ(takt_arm_configure(&p), TAKT_OK);
    CHECK_EQ(takt_init(NULL), TAKT_OK);
}

static void run(void)
{
    takt_start();
    takt_trace_drain_hook();
    CHECK(!log_overflowed);
}

static takt_task_t *task(const char *name, unsigned prio, void (*entry)(void *), void *arg,
                         takt_tick_t period)
{
    takt_task_params_t p = {.name = name, .entry = entry, .arg = arg, .priority = prio,
                            .stack_size = STACK, .period = period};
    takt_task_t *t = NULL;
    CHECK_EQ(takt_task_create(&p, &t), TAKT_OK);
    return t;
}

/* "tick:task ..." for the events of one type, stamps rounded to ticks. */
static const char *events(takt_event_type_t type)
{
    static char buf[1024];
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < log_n && len + 24 < sizeof(buf); i++) {
        if (log_events[i].type == type) {
            len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%lu:%d", len ? " " : "",
                                    (unsigned long)to_tick(log_events[i].stamp),
                                    log_events[i].task == TAKT_TRACE_NO_TASK ? -1
                                                                             : (int)log_events[i].task);
        }
    }
    return buf;
}

/* ---- delays and preemption by the tick ---- */

static void delayer(void *arg)
{
    (void)arg;
    for (;;) {
        takt_arm_work_ticks(1);
        takt_delay(2);
    }
}

static void worker(void *arg)
{
    takt_arm_work_ticks((uint32_t)(uintptr_t)arg);
    takt_arm_stop();
}

static void test_delay_preemption(void)
{
    begin(10);
    task("H", 3, delayer, NULL, 0);
    task("L", 1, worker, (void *)100, 0);
    run();
    CHECK_STREQ(events(TAKT_EV_DISPATCH), "0:1 1:2 3:1 4:2 6:1 7:2 9:1");
    CHECK_EQ(takt_tick_count(), 9u);
    takt_teardown();
}

/* ---- the port's 64-bit tick count across its low word's carry ---- */

/* SysTick_Handler counts in the low word and looks at the high word only at
 * the carry or the run's end (port_tick): a run that starts 4 ticks before
 * the carry and must end 6 ticks after it handles exactly its 10 ticks. */
static void test_tick_count_carry(void)
{
    begin(0x100000006ull);
    takt_arm_port_state.ticks = 0xFFFFFFFCull; /* as if 2^32 - 4 ticks were handled */
    task("H", 3, delayer, NULL, 0);
    task("L", 1, worker, (void *)100, 0);
    run();
    CHECK_EQ(takt_arm_ticks_handled(), 0x100000006ull);
    CHECK_EQ(takt_arm_interrupts(), 10u);
    CHECK_EQ(takt_tick_count(), 9u);
    CHECK(events(TAKT_EV_DISPATCH)[0] != '\0'); /* the tasks ran */
    takt_teardown();
}

/* ---- periodic jobs: the runner's synthetic job loop ---- */

static void job_loop(void *arg)
{
    for (;;) {
        takt_arm_work_ticks((uint32_t)(uintptr_t)arg);
        takt_job_end();
    }
}

static void test_periodic(void)
{
    begin(12);
    task("T1", 2, job_loop, (void *)1, 4);
    task("T2", 1, job_loop, (void *)3, 6);
    run();
    CHECK_STREQ(events(TAKT_EV_DISPATCH), "0:1 1:2 4:1 5:0 6:2 8:1 9:2 10:0");
    CHECK_STREQ(events(TAKT_EV_COMPLETE), "1:1 4:2 5:1 9:1 10:2");
    CHECK_STREQ(events(TAKT_EV_RELEASE), "0:1 0:2 4:1 6:2 8:1");
    CHECK_STREQ(events(TAKT_EV_PREEMPT), "6:0 8:2"); /* idle too, as on the sim */
    CHECK_EQ(misses, 0u);
    takt_teardown();
}

/* An overloaded pair: T2's job 0 misses its deadline (tick 4), recorded once. */
static void test_deadline_miss(void)
{
    begin(8);
    task("T1", 2, job_loop, (void *)2, 4);
    task("T2", 1, job_loop, (void *)3, 4);
    run();
    CHECK_EQ(misses, 1u);
    CHECK_STREQ(events(TAKT_EV_DEADLINE_MISS), "5:2");
    takt_teardown();
}

/* ---- interrupts: a kernel-level interrupt resumes a higher-priority task ---- */

static takt_task_t *isr_target;
static char order[16];
static size_t order_n;

static void resume_isr(void)
{
    takt_isr_enter(TAKT_BOARD_SPARE_IRQ);
    order[order_n++] = 'I';
    takt_task_resume_from_isr(isr_target);
    takt_isr_exit(TAKT_BOARD_SPARE_IRQ);
}

static void sleeper(void *arg)
{
    (void)arg;
    for (;;) {
        takt_task_suspend(NULL);
        order[order_n++] = 'H';
    }
}

static void raiser(void *arg)
{
    (void)arg;
    takt_arm_irq_pend(TAKT_BOARD_SPARE_IRQ);
    order[order_n++] = 'L';
    takt_arm_stop();
}

static void test_interrupt_wakes_task(void)
{
    order_n = 0;
    memset(order, 0, sizeof(order));
    CHECK_EQ(takt_arm_irq_attach(TAKT_BOARD_SPARE_IRQ, resume_isr, TAKT_ARM_KERNEL_IRQ_PRIORITY),
             TAKT_OK);
    begin(0);
    isr_target = task("H", 3, sleeper, NULL, 0);
    task("L", 1, raiser, NULL, 0);
    run();
    CHECK_STREQ(order, "IHL"); /* the switch to H happened at the interrupt's exit */
    takt_teardown();
}

/* ---- BASEPRI: urgent interrupts run inside critical sections ---- */

static volatile int urgent_ran, kernel_level_ran;

static void urgent_isr(void)
{
    urgent_ran = 1;
}

static void kernel_level_isr(void)
{
    kernel_level_ran = 1;
}

static void test_basepri_masking(void)
{
    CHECK_EQ(takt_arm_irq_attach(TAKT_BOARD_SPARE_IRQ, kernel_level_isr,
                                 TAKT_ARM_KERNEL_IRQ_PRIORITY), TAKT_OK);
    CHECK_EQ(takt_arm_irq_attach(TAKT_BOARD_SPARE_IRQ2, urgent_isr, 0x00), TAKT_OK);
    urgent_ran = kernel_level_ran = 0;
    CHECK(!takt_arm_in_critical());
    port_critical_t outer = port_critical_enter();
    port_critical_t inner = port_critical_enter(); /* nests */
    CHECK_EQ(outer, 0u);                           /* the key is the BASEPRI found */
    CHECK_EQ(inner, TAKT_ARM_BASEPRI);
    CHECK(takt_arm_in_critical());
    takt_arm_irq_pend(TAKT_BOARD_SPARE_IRQ);
    takt_arm_irq_pend(TAKT_BOARD_SPARE_IRQ2);
    CHECK_EQ(urgent_ran, 1);
    CHECK_EQ(kernel_level_ran, 0);
    CHECK_EQ(arm_basepri(), TAKT_ARM_BASEPRI);
    port_critical_exit(inner);
    CHECK_EQ(kernel_level_ran, 0);
    CHECK_EQ(arm_basepri(), TAKT_ARM_BASEPRI);
    port_critical_exit(outer);
    CHECK_EQ(kernel_level_ran, 1);
    CHECK_EQ(arm_basepri(), 0u);
    CHECK(!takt_arm_in_critical());
}

/* One instant per outermost section (port_instant): a nested section finds
 * the kernel's level and moves nothing, and a section in a task whose
 * modelled work held the switch back (BASEPRI at PendSV's level) is
 * outermost, and its end releases the hold. Between runs: no tick comes. */
static void test_critical_keys_and_instants(void)
{
    uint64_t epoch = takt_arm_port_state.epoch;
    port_critical_t outer = port_critical_enter();
    CHECK_EQ(takt_arm_port_state.epoch, epoch + TAKT_ARM_EPOCH_STEP);
    port_critical_t inner = port_critical_enter();
    CHECK_EQ(takt_arm_port_state.epoch, epoch + TAKT_ARM_EPOCH_STEP);
    port_critical_exit(inner);
    port_critical_exit(outer);
    CHECK_EQ(takt_arm_port_state.epoch, epoch + TAKT_ARM_EPOCH_STEP);

    takt_arm_hold_switch();
    CHECK(!takt_arm_in_critical()); /* the hold masks PendSV only */
    port_critical_t held = port_critical_enter();
    CHECK_EQ(held, TAKT_ARM_PENDSV_PRIORITY);
    CHECK_EQ(takt_arm_port_state.epoch, epoch + 2u * TAKT_ARM_EPOCH_STEP);
    inner = port_critical_enter();
    CHECK_EQ(inner, TAKT_ARM_BASEPRI);
    port_critical_exit(inner);
    CHECK_EQ(arm_basepri(), TAKT_ARM_BASEPRI); /* a nested end keeps the hold */
    CHECK(takt_arm_port_state.at_tick.switch_held);
    port_critical_exit(held);
    CHECK_EQ(arm_basepri(), 0u); /* the held switch point was this section */
    CHECK(!takt_arm_port_state.at_tick.switch_held);
    CHECK_EQ(takt_arm_port_state.epoch, epoch + 2u * TAKT_ARM_EPOCH_STEP);

    /* An application's own BASEPRI (above the kernel's level): a kernel call
     * in it is an operation of its own and restores that mask, also while a
     * switch is held (only the hold's level ends the hold). */
    takt_arm_hold_switch();
    arm_set_basepri(0x20u);
    CHECK(takt_arm_in_critical());
    port_critical_t app = port_critical_enter();
    CHECK_EQ(app, 0x20u);
    CHECK_EQ(takt_arm_port_state.epoch, epoch + 3u * TAKT_ARM_EPOCH_STEP);
    port_critical_exit(app);
    CHECK_EQ(arm_basepri(), 0x20u);
    CHECK(takt_arm_port_state.at_tick.switch_held);
    takt_arm_release_switch();
    arm_set_basepri(0);
    CHECK(!takt_arm_port_state.at_tick.switch_held);
}

/* ---- instants: the ready order the kernel takes from the port ---- */

static takt_stamp_t instant_in_section(void)
{
    port_critical_t key = port_critical_enter();
    takt_stamp_t instant = port_instant();
    port_critical_exit(key);
    return instant;
}

static takt_stamp_t instants_seen[8];

static void instant_checker(void *arg)
{
    (void)arg;
    takt_stamp_t *seen = instants_seen;
    seen[0] = instant_in_section();
    port_critical_t outer = port_critical_enter();
    seen[1] = port_instant();
    port_critical_t inner = port_critical_enter(); /* nested: the same operation, the same instant */
    CHECK_EQ(port_instant(), seen[1]);
    port_critical_exit(inner);
    CHECK_EQ(port_instant(), seen[1]);
    port_critical_exit(outer);
    /* A held switch shares one instant, later than every section before it. */
    takt_arm_hold_switch();
    seen[2] = port_instant();
    seen[3] = instant_in_section();
    takt_arm_release_switch();
    seen[4] = instant_in_section();
    takt_delay(1); /* woken by the tick: a later instant again */
    seen[5] = instant_in_section();
    /* The switch's section takes no instant of its own; a switch that
     * stamps a task takes one (port_switch_instant), later than the last
     * section's, and a yield's stamp is later than every section before. */
    port_critical_t key = port_critical_enter();
    takt_stamp_t section = port_instant();
    takt_stamp_t switch_instant = port_switch_instant();
    CHECK(switch_instant > section);
    CHECK_EQ(port_instant(), switch_instant);
    port_critical_exit(key);
    /* Nor does a section reopened after a wait (it stamps no task); the next
     * section's instant is still later than every one before. */
    port_critical_t reopened = port_critical_enter_unmasked();
    CHECK_EQ(reopened, 0u);
    CHECK_EQ(port_instant(), switch_instant);
    port_critical_exit(reopened);
    CHECK(instant_in_section() > switch_instant);
    takt_yield();
    seen[6] = takt_task_self()->ready_order & ~(takt_stamp_t)0xFFFFu;
    seen[7] = instant_in_section();
    takt_arm_stop();
}

static void test_instants(void)
{
    begin(0);
    /* Outside a run every operation shares one instant (tasks created before
     * the start became ready together, as on the sim). */
    takt_stamp_t before_start = instant_in_section();
    CHECK_EQ(instant_in_section(), before_start);
    task("I", 2, instant_checker, NULL, 0);
    run();
    CHECK(instants_seen[0] > before_start);
    CHECK(instants_seen[1] > instants_seen[0]);
    CHECK(instants_seen[2] > instants_seen[1]);
    CHECK_EQ(instants_seen[3], instants_seen[2]);
    CHECK(instants_seen[4] > instants_seen[3]);
    CHECK(instants_seen[5] > instants_seen[4]);
    CHECK(instants_seen[6] > instants_seen[5]);
    CHECK(instants_seen[7] > instants_seen[6]);
    takt_stamp_t after_end = instant_in_section();
    CHECK(after_end > instants_seen[7]);
    CHECK_EQ(instant_in_section(), after_end);
    takt_teardown();
}

/* ---- FPU registers survive preemption (Cortex-M4F: lazy stacking) ---- */

#define FP_LANES 20
static float fp_result[2][FP_LANES];

static void fp_compute(float seed, float out[FP_LANES], uint32_t rounds)
{
    float a[FP_LANES];
    for (int i = 0; i < FP_LANES; i++) {
        a[i] = seed + (float)i;
    }
    for (uint32_t r = 0; r < rounds; r++) {
        for (int i = 0; i < FP_LANES; i++) {
            a[i] = a[i] * 0.999f + (float)(i + 1) * 0.5f;
        }
    }
    memcpy(out, a, sizeof(a));
}

#define FP_ROUNDS 20000u

static void fp_low(void *arg)
{
    (void)arg;
    fp_compute(1.0f, fp_result[0], FP_ROUNDS);
    takt_arm_stop();
}

static void fp_high(void *arg)
{
    (void)arg;
    for (;;) {
        float scratch[FP_LANES];
        fp_compute(-7.0f, scratch, 50);
        fp_result[1][0] += scratch[0];
        takt_delay(1);
    }
}

static void test_fpu_context(void)
{
    float expected[FP_LANES];
    fp_compute(1.0f, expected, FP_ROUNDS);
    begin(0);
    task("FH", 3, fp_high, NULL, 0);
    task("FL", 1, fp_low, NULL, 0);
    run();
    CHECK(takt_context_switches() > 4u); /* the computation was preempted */
    CHECK(memcmp(expected, fp_result[0], sizeof(expected)) == 0);
    takt_teardown();
}

/* Outside a run the kernel asks for switches without testing that it started
 * (TAKT_PORT_SWITCH_REQUEST_ANY_TIME): the PendSV finds no run and returns to
 * the thread with every callee-saved register (and FP register) as it was. */
static void test_switch_request_outside_run(const char *when)
{
    uint32_t seen[9];
    register uint32_t *out __asm("r2") = seen;
    __asm volatile("push {r4-r11}\n\t"
#if defined(__ARM_FP)
                   "vpush {s16}\n\t"
                   "vmov s16, %1\n\t"
#endif
                   "mov r4, #4\n\tmov r5, #5\n\tmov r6, #6\n\tmov r7, #7\n\t"
                   "mov r8, #8\n\tmov r9, #9\n\tmov r10, #10\n\tmov r11, #11\n\t"
                   "str %2, [%3]\n\t" /* ICSR.PENDSVSET */
                   "dsb\n\tisb\n\t"
                   "stmia %0, {r4-r11}\n\t"
#if defined(__ARM_FP)
                   "vmov r3, s16\n\t"
                   "str r3, [%0, #32]\n\t"
                   "vpop {s16}\n\t"
#else
                   "str %1, [%0, #32]\n\t"
#endif
                   "pop {r4-r11}"
                   :
                   : "r"(out), "r"(0x5EEDu), "r"(SCB_ICSR_PENDSVSET), "r"(&SCB_ICSR)
                   : "r3", "memory");
    bool ok = true;
    for (uint32_t r = 0; r < 8; r++) {
        ok = CHECK_EQ(seen[r], r + 4u) && ok;
    }
    ok = CHECK_EQ(seen[8], 0x5EEDu) && ok;
    ok = CHECK((SCB_ICSR & SCB_ICSR_PENDSVSET) == 0) && ok; /* it ran */
    ok = CHECK_EQ(arm_basepri(), 0u) && ok;
    if (!ok) {
        fprintf(stderr, "  switch request outside a run, %s\n", when);
    }
}

int main(void)
{
    printf("target tests on %s\n", TAKT_BOARD_NAME);
    test_switch_request_outside_run("before the first run");
    test_delay_preemption();
    test_switch_request_outside_run("after a run");
    test_periodic();
    test_deadline_miss();
    test_interrupt_wakes_task();
    test_basepri_masking();
    test_critical_keys_and_instants();
    test_fpu_context();
    test_instants();
    test_tick_count_carry();
    test_delay_preemption(); /* the kernel starts again after all of the above */
    return CHECK_SUMMARY();
}
