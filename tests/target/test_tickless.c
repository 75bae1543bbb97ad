/*
 * Tickless idle on the Cortex-M port (QEMU mps2-an385/an386), against the
 * board's own clock: the MPS2 FPGA's free-running counter, which QEMU
 * computes from its virtual time. Under -icount sleep=off QEMU's clocks
 * disagree across a WFI (the FPGA counter and the CMSDK timers count the
 * skipped time differently from SysTick: a 20-tick delay measured 40 ticks
 * on the FPGA counter with the tick running, 21 tickless), so here the
 * processor never executes WFI: the tickless build's sleep hook skips it
 * and spins until an interrupt is pending, and the reference build (the
 * tick running) spins in its idle hook. Virtual time is then the
 * instruction count, which every clock of the board agrees on. (The idle
 * hook of the tickless build spins too where the tick may not stop.) The same
 * checks in both builds:
 * - a task that delays for 2 to 40 ticks, 300 times, wakes each time the
 *   same few counts after its tick's boundary on the board's clock: the
 *   sleeps do not drift (the lateness's range is printed, and bounded);
 * - an interrupt in the middle of a sleep (CMSDK timer 0, 12.5 ticks after
 *   it began) sees the tick count of the board's clock, and the task it
 *   wakes, delaying again, wakes as late after a boundary as before: the
 *   tick was set back in step; the same for an interrupt before the
 *   sleep's first boundary, after which the task stays busy across two
 *   boundaries and the ticks keep coming;
 * - the tick's 64-bit count carries across a sleep over its low word's wrap;
 * - a run's end stops a sleep, at the same tick count;
 * - tickless: one tick interrupt per sleep, not one per tick; ticking: one
 *   per tick.
 */
#include <stdio.h>

#include "board.h"
#include "check.h"
#include "mps2_timer0.h"
#include "spin_until_interrupt.h"
#include "takt/takt.h"
#include "takt_armv7m.h"
#include "takt_port_inline.h"

#define TICK_HZ 10000u /* 100 us: fewer instructions to spin through */
#define STACK 2048u

/* The MPS2 FPGA I/O block's COUNTER: counts the 25 MHz clock up. */
#define FPGAIO_COUNTER (*(volatile uint32_t *)0x40028018u)

/* How late after its boundary a delayed task may run, in counts, against
 * the first task at the start (both a few hundred instructions of kernel
 * work late, more when the trace drains), and how far the least lateness
 * may move from the run's first wakes to its last (a count lost per sleep
 * would move it by about 300). */
#define LATE_MAX 200u
#define DRIFT_MAX 4u

void takt_stack_overflow_hook(takt_task_t *task)
{
    (void)task;
    CHECK(!"stack overflow");
}

#ifdef TEST_TICKLESS
takt_tick_t takt_sleep_plan(takt_tick_t ticks)
{
    return ticks;
}

void takt_sleep_enter(takt_tick_t *ticks)
{
    *ticks = 0; /* no WFI: spin, so that virtual time is instructions */
    spin_until_interrupt();
}

void takt_sleep_exit(takt_tick_t ticks)
{
    CHECK_EQ(ticks, 0u);
}

/* Where the tick may not stop (a timer one tick away), the idle task would
 * WFI: it spins instead until it may. */
void takt_idle_hook(void)
{
    while (takt_tickless_idle_ticks() == 0) {
    }
}
#else
void takt_idle_hook(void)
{
    for (;;) {
        /* the tasks preempt it; no WFI (see above) */
    }
}
#endif

void takt_deadline_miss_hook(takt_task_t *task, uint32_t job)
{
    (void)task;
    (void)job;
    CHECK(!"no task here has a deadline");
}

void takt_trace_drain_hook(void)
{
    takt_trace_event_t scratch[32];
    while (takt_trace_read(scratch, 32) == 32) {
        /* the trace is not checked here */
    }
}

static uint32_t per_tick;
static uint32_t origin; /* FPGAIO_COUNTER at the boundary of tick 0 */

/* Counts since the boundary of the current tick (the tick count's), on
 * the board's clock. */
static int32_t into_tick(void)
{
    uint32_t since = FPGAIO_COUNTER - origin;
    return (int32_t)(since - takt_tick_count() * per_tick);
}

static void begin(uint64_t end_ticks)
{
    takt_arm_params_t p = {.tick_hz = TICK_HZ, .end_ticks = end_ticks};
    CHECK_EQ(takt_arm_configure(&p), TAKT_OK);
    per_tick = takt_arm_tick_counts();
    CHECK_EQ(takt_init(NULL), TAKT_OK);
}

static takt_task_t *task(const char *name, unsigned prio, void (*entry)(void *))
{
    takt_task_params_t p = {.name = name, .entry = entry, .priority = prio, .stack_size = STACK};
    takt_task_t *t = NULL;
    CHECK_EQ(takt_task_create(&p, &t), TAKT_OK);
    return t;
}

/* The first task to run takes the origin: it runs at tick 0 just after the
 * start, a few counts past the boundary, as every wake is; the checks below
 * compare lateness, not absolute time. */
static void take_origin(void)
{
    origin = FPGAIO_COUNTER;
}

/* ---- delays: lateness after the boundary, over 300 sleeps ---- */

static uint32_t seed = 12345u;
static uint32_t next_random(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    return seed;
}

#define DELAYS 300
#define EDGE 20 /* wakes compared at each end of the run */
static int32_t late[DELAYS];
static int32_t late_min = INT32_MAX, late_max = INT32_MIN;
static uint32_t delays_done;
static uint64_t delayed_ticks;

static void delayer(void *arg)
{
    (void)arg;
    take_origin();
    for (int i = 0; i < DELAYS; i++) {
        takt_tick_t ticks = 2u + next_random() % 39u;
        takt_tick_t before = takt_tick_count();
        CHECK_EQ(takt_delay(ticks), TAKT_OK);
        late[i] = into_tick();
        CHECK_EQ(takt_tick_count(), before + ticks);
        delays_done++;
        delayed_ticks += ticks;
    }
    takt_arm_stop();
}

/* The least lateness among `n` wakes from `first`: a wake that found kernel
 * work in its way (the trace drained) runs later, the others agree. */
static int32_t least_late(int first, int n)
{
    int32_t least = INT32_MAX;
    for (int i = first; i < first + n; i++) {
        least = late[i] < least ? late[i] : least;
    }
    return least;
}

static void test_delays(void)
{
    begin(0);
    task("d", 1, delayer);
    takt_start();
    uint64_t interrupts = takt_arm_interrupts(); /* in the run */
    CHECK_EQ(delays_done, (uint32_t)DELAYS);
    for (int i = 0; i < DELAYS; i++) {
        late_min = late[i] < late_min ? late[i] : late_min;
        late_max = late[i] > late_max ? late[i] : late_max;
    }
    int32_t drift = least_late(DELAYS - EDGE, EDGE) - least_late(0, EDGE);
    printf("delays: %lu ticks, %lu tick interrupts; woken %ld..%ld counts after the boundary, "
           "drift %ld counts\n",
           (unsigned long)delayed_ticks, (unsigned long)interrupts, (long)late_min, (long)late_max,
           (long)drift);
    CHECK(late_min >= -(int32_t)LATE_MAX && late_max <= (int32_t)LATE_MAX);
    CHECK(drift >= -(int32_t)DRIFT_MAX && drift <= (int32_t)DRIFT_MAX);
#ifdef TEST_TICKLESS
    CHECK_EQ(interrupts, (uint64_t)DELAYS); /* each delay's own tick */
#else
    CHECK_EQ(interrupts, delayed_ticks);
#endif
    CHECK_EQ(takt_teardown(), TAKT_OK);
}

/* ---- an interrupt in the middle of a sleep ---- */

static takt_sem_t *sem;
static int32_t isr_into = -1;
static takt_tick_t isr_tick;

static void timer0_isr(void)
{
    takt_isr_enter(TIMER0_IRQ);
    TIMER0_CTRL = 0;
    TIMER0_INTCLEAR = 1;
    isr_into = into_tick();
    isr_tick = takt_tick_count();
    bool woken = false;
    CHECK_EQ(takt_sem_give_from_isr(sem, &woken), TAKT_OK);
    takt_isr_exit(TIMER0_IRQ);
}

static int32_t woke_late[3];

static void waiter(void *arg)
{
    (void)arg;
    take_origin();
    /* 12.5 ticks from now. */
    TIMER0_VALUE = per_tick * 12u + per_tick / 2u;
    TIMER0_RELOAD = TIMER0_VALUE;
    TIMER0_CTRL = TIMER_ENABLE | TIMER_IRQ_ENABLE;
    CHECK_EQ(takt_sem_take(sem, 100), TAKT_OK);
    /* The boundaries before the interrupt were counted: it came half-way
     * through tick 12 by the board's clock. */
    CHECK_EQ(isr_tick, 12u);
    CHECK(isr_into >= (int32_t)(per_tick / 2u) && isr_into < (int32_t)(per_tick / 2u + LATE_MAX));
    printf("mid-sleep interrupt at tick %lu + %ld counts\n", (unsigned long)isr_tick, (long)isr_into);
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(takt_delay(3), TAKT_OK);
        woke_late[i] = into_tick();
    }
    /* Again, before the sleep's first boundary: 0.3 ticks from now. */
    takt_tick_t before = takt_tick_count();
    TIMER0_VALUE = per_tick * 3u / 10u;
    TIMER0_RELOAD = TIMER0_VALUE;
    TIMER0_CTRL = TIMER_ENABLE | TIMER_IRQ_ENABLE;
    CHECK_EQ(takt_sem_take(sem, 100), TAKT_OK);
    CHECK_EQ(isr_tick, before);
    CHECK(isr_into >= (int32_t)(per_tick * 3u / 10u) &&
          isr_into < (int32_t)(per_tick * 3u / 10u + LATE_MAX));
    /* Busy across the next two boundaries without a kernel call, so that no
     * new sleep sets SysTick again: its ticks must keep coming (the sleep's
     * long period must not have been loaded at its first boundary). */
    uint32_t busy_from = FPGAIO_COUNTER;
    while (FPGAIO_COUNTER - busy_from < per_tick * 5u / 2u) {
    }
    int32_t into = into_tick();
    CHECK(into >= 0 && into < (int32_t)per_tick);
    CHECK_EQ(takt_tick_count(), before + 2u);
    CHECK_EQ(takt_delay(3), TAKT_OK);
    woke_late[2] = into_tick();
    takt_arm_stop();
}

static void test_mid_sleep(void)
{
    begin(0);
    CHECK_EQ(takt_sem_create(1, 0, &sem), TAKT_OK);
    CHECK_EQ(takt_arm_irq_attach(TIMER0_IRQ, timer0_isr, TAKT_ARM_KERNEL_IRQ_PRIORITY), TAKT_OK);
    task("w", 1, waiter);
    takt_start();
    /* Back in step: as late after the boundary as the delays above. */
    for (int i = 0; i < 3; i++) {
        CHECK(woke_late[i] >= late_min - (int32_t)DRIFT_MAX && woke_late[i] <= late_max);
    }
    printf("after it, delays woken %ld and %ld counts after the boundary; after one before the "
           "first boundary, %ld\n",
           (long)woke_late[0], (long)woke_late[1], (long)woke_late[2]);
#ifdef TEST_TICKLESS
    uint64_t left_out;
    uint32_t sleeps, early;
    takt_arm_tickless_stats(&left_out, &sleeps, &early);
    CHECK_EQ(early, 2u);
#endif
    CHECK_EQ(takt_teardown(), TAKT_OK);
    CHECK_EQ(takt_sem_delete(sem), TAKT_OK);
}

/* ---- a sleep across the carry into the tick count's high word ---- */

static void long_delayer(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_delay(10), TAKT_OK);
    CHECK_EQ(takt_delay(10), TAKT_OK);
    takt_arm_stop();
}

static void test_carry(void)
{
    begin(0);
    task("c", 1, long_delayer);
    takt_arm_port_state.ticks = 0xFFFFFFFCull; /* as if 2^32 - 4 ticks were handled */
    takt_start();
    CHECK_EQ(takt_arm_port_state.ticks, 0x100000000ull + 16u);
    CHECK_EQ(takt_tick_count(), 20u);
    CHECK_EQ(takt_teardown(), TAKT_OK);
}

/* ---- a run with an end: the sleep stops at it ---- */

static void parked(void *arg)
{
    (void)arg;
    CHECK_EQ(takt_task_suspend(NULL), TAKT_OK);
}

static void test_run_end(void)
{
    begin(50);
    task("p", 1, parked);
    takt_start();
    CHECK_EQ(takt_tick_count(), 49u); /* as ticking: the 50th tick ends the run */
#ifdef TEST_TICKLESS
    CHECK_EQ(takt_arm_interrupts(), 1u); /* the end's */
#else
    CHECK_EQ(takt_arm_interrupts(), 50u);
#endif
    CHECK_EQ(takt_teardown(), TAKT_OK);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    test_delays();
    test_mid_sleep();
    test_carry();
    test_run_end();
    return CHECK_SUMMARY();
}
