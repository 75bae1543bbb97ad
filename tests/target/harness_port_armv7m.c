/*
 * The test port on the Cortex-M target (QEMU mps2-an385/an386): a kernel tick
 * is 1 ms of SysTick time and TICK_NS test ns. Work is the port's calibrated
 * whole-tick busy work. Injected interrupts: one due on a tick boundary is
 * pended by the tick hook (it then runs right after the tick, before the
 * switch the tick asked for, as on the sim); one due inside a tick fires from
 * the board's CMSDK timer 0 at the same fraction of the real tick. Timer 0 is
 * always set for the earliest injection still to come, not only for those in
 * the current tick: a tickless kernel leaves ticks out, and their hook with
 * them, so an injection in a sleep (or on a boundary the sleep left out: timer
 * 0 aims BOUNDARY_LAG after it, and finds the tick stepped over it) wakes the
 * idle task itself. Times are snapped back to the instant they belong to: the
 * latest tick boundary or injection instant, when at most SNAP_NS before them.
 */
#include <stdio.h>

#include "board.h"
#include "harness_port.h"
#include "mps2_timer0.h"
#include "port.h"
#include "takt/takt.h"
#include "takt_armv7m.h"

#define TICK_HZ 1000u
#define SNAP_NS (TICK_NS / 50u)
/* Where timer 0 aims for an injection on a boundary, in test ns after it:
 * well after that tick's own interrupt (which, when it runs, marks the
 * injection due for the spare interrupt), well inside SNAP_NS. */
#define BOUNDARY_LAG (TICK_NS / 200u)
#define MAX_INJECTED 64u /* tests/freertos/stream_buffers.c injects 54 in one run */


typedef struct {
    uint64_t at; /* test ns */
    unsigned irq;
    void (*handler)(void *arg);
    void *arg;
    bool due, fired;
} injected_t;

static injected_t injected[MAX_INJECTED];
static size_t injected_n;
static uint64_t injected_ran;

static uint64_t counts_to_test_ns(uint64_t counts)
{
    uint64_t tick = takt_arm_tick_counts();
    return counts / tick * TICK_NS + counts % tick * TICK_NS / tick;
}

static uint64_t test_ns_to_counts(uint64_t ns)
{
    uint64_t tick = takt_arm_tick_counts();
    return ns / TICK_NS * tick + ns % TICK_NS * tick / TICK_NS;
}

static void run_one(injected_t *in)
{
    in->fired = true;
    injected_ran++;
    takt_isr_enter(in->irq);
    in->handler(in->arg);
    takt_isr_exit(in->irq);
}

/* Pended by the tick hook: the injections due on that boundary, in order. */
static void boundary_isr(void)
{
    for (size_t i = 0; i < injected_n; i++) {
        if (injected[i].due && !injected[i].fired) {
            run_one(&injected[i]);
        }
    }
}

static void timer_stop(void)
{
    TIMER0_CTRL = 0;
    TIMER0_INTCLEAR = 1;
}

static bool on_boundary(const injected_t *in)
{
    return in->at % TICK_NS == 0;
}

/* Not run yet, and not left to the spare interrupt by its tick. */
static bool timer_owes(const injected_t *in)
{
    return !in->fired && !in->due;
}

static uint64_t timer_aim(const injected_t *in)
{
    return on_boundary(in) ? in->at + BOUNDARY_LAG : in->at;
}

/* Sets timer 0 for the earliest injection it owes (stopped if none). Under
 * -icount sleep=off the timer and SysTick disagree across a WFI (either may
 * run ahead): an early interrupt finds nothing due and sets the timer again,
 * and every tick sets it again too, so it can be off by part of a tick at
 * most. A tickless sleep's ticks are left out, so in a sleep the idle task
 * must not WFI (tests/freertos/rtos_port.h, rtos_spin_until_interrupt). */
static void timer_arm(void)
{
    const injected_t *next = NULL;
    for (size_t i = 0; i < injected_n; i++) {
        const injected_t *in = &injected[i];
        if (timer_owes(in) && (next == NULL || timer_aim(in) < timer_aim(next))) {
            next = in;
        }
    }
    if (next == NULL) {
        timer_stop();
        return;
    }
    uint64_t target = test_ns_to_counts(timer_aim(next));
    uint64_t now = takt_arm_now_counts();
    uint32_t wait = target > now ? (uint32_t)(target - now) : 1u;
    TIMER0_VALUE = wait;
    TIMER0_RELOAD = wait;
    TIMER0_CTRL = TIMER_ENABLE | TIMER_IRQ_ENABLE;
}

/* An injection timer 0 runs now: its instant has come, and one on a boundary
 * only once the kernel counted that tick (a tick left out by a sleep is
 * counted when the sleep ends, before this interrupt runs; a tick that runs
 * marks it due first). */
static bool timer_runs_now(const injected_t *in, uint64_t now)
{
    if (!timer_owes(in) || test_ns_to_counts(in->at) > now) {
        return false;
    }
    return !on_boundary(in) || takt_arm_ticks_handled() >= in->at / TICK_NS;
}

/* The injections owed whose instant has come, earliest first. */
static void timer_isr(void)
{
    timer_stop();
    uint64_t now = takt_arm_now_counts();
    for (;;) {
        injected_t *next = NULL;
        for (size_t i = 0; i < injected_n; i++) {
            injected_t *in = &injected[i];
            if (timer_runs_now(in, now) && (next == NULL || in->at < next->at)) {
                next = in;
            }
        }
        if (next == NULL) {
            break;
        }
        run_one(next);
    }
    timer_arm();
}

void hp_tick(void)
{
    uint64_t now = hp_now_ns();
    uint64_t boundary = now / TICK_NS * TICK_NS;
    bool pend = false;
    for (size_t i = 0; i < injected_n; i++) {
        if (!injected[i].fired && injected[i].at == boundary) {
            injected[i].due = true;
            pend = true;
        }
    }
    if (pend) {
        takt_arm_irq_pend(TAKT_BOARD_SPARE_IRQ);
    }
    /* Set again at every tick: an aim across ticks of WFI would drift (see
     * timer_arm); and not for the injections now due. */
    timer_arm();
}

int hp_configure(uint64_t end_ticks)
{
    timer_stop();
    injected_n = 0;
    injected_ran = 0;
    takt_arm_params_t p = {.tick_hz = TICK_HZ, .end_ticks = end_ticks};
    int rc = takt_arm_configure(&p);
    if (rc == TAKT_OK) {
        rc = takt_arm_irq_attach(TAKT_BOARD_SPARE_IRQ, boundary_isr, TAKT_ARM_KERNEL_IRQ_PRIORITY);
    }
    if (rc == TAKT_OK) {
        rc = takt_arm_irq_attach(TIMER0_IRQ, timer_isr, TAKT_ARM_KERNEL_IRQ_PRIORITY);
    }
    return rc;
}

void hp_work_ns(uint64_t ns)
{
    if (ns % TICK_NS != 0) {
        fprintf(stderr, "harness: work of %llu test ns is not whole ticks: not modelled here\n",
                (unsigned long long)ns);
        takt_arm_exit(5);
    }
    takt_arm_work_ticks((uint32_t)(ns / TICK_NS));
}

uint64_t hp_stamp_ns(takt_stamp_t stamp)
{
    uint64_t ns = counts_to_test_ns(stamp);
    uint64_t instant = ns / TICK_NS * TICK_NS;
    for (size_t i = 0; i < injected_n; i++) {
        if (injected[i].at <= ns && injected[i].at > instant) {
            instant = injected[i].at;
        }
    }
    return ns - instant <= SNAP_NS ? instant : ns;
}

uint64_t hp_now_ns(void)
{
    return hp_stamp_ns(takt_arm_now_counts());
}

int hp_inject_irq(uint64_t at_ns, unsigned irq, void (*handler)(void *arg), void *arg)
{
    if (handler == NULL || irq == 0 || at_ns < TICK_NS) {
        return TAKT_ERR_ARG;
    }
    int rc = TAKT_OK;
    port_critical_t key = port_critical_enter();
    if (at_ns < hp_now_ns()) {
        rc = TAKT_ERR_ARG;
    } else if (injected_n == MAX_INJECTED) {
        rc = TAKT_ERR_NOMEM;
    } else {
        injected[injected_n++] = (injected_t){.at = at_ns, .irq = irq, .handler = handler,
                                              .arg = arg};
        timer_arm();
    }
    port_critical_exit(key);
    return rc;
}

void hp_stop(void)
{
    takt_arm_stop();
}

uint64_t hp_interrupts(void)
{
    return takt_arm_interrupts() + injected_ran;
}
