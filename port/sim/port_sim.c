/*
 * Sim port: the kernel's port contract on a host process.
 *
 * Tasks are ucontext contexts on kernel-allocated stacks. Interrupts are
 * not asynchronous: they are due at virtual instants and fire when the
 * running task's modelled work (or idle) reaches that instant. A switch the
 * kernel asks for from an interrupt or a critical section stays pending and
 * is taken at the next point where the task would let time pass or leaves
 * the critical section — since code between those points takes no virtual
 * time, that is the same instant the switch was asked for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "port.h"
#include "takt/takt.h"
#include "takt_sim.h"

#define MAX_PENDING_IRQS 4096u

typedef struct {
    uint64_t at;
    uint64_t seq; /* injection order: ties at one instant */
    unsigned irq;
    void (*handler)(void *arg);
    void *arg;
} pending_irq_t;

static struct {
    takt_sim_params_t params;
    uint64_t now;
    uint64_t next_tick;
    uint64_t next_progress;
    uint64_t interrupts;
    port_critical_t critical_nesting;
    unsigned isr_nesting;
    bool switch_pending;
    bool running;
    takt_task_t *live; /* whose context is on the processor */
    ucontext_t host;   /* the context that called takt_start */
    pending_irq_t irqs[MAX_PENDING_IRQS]; /* binary min-heap on (at, seq) */
    uint32_t irq_count;
    uint64_t irq_seq;
} sim;

static void fatal(const char *what)
{
    fprintf(stderr, "takt sim: %s\n", what);
    abort();
}

int takt_sim_configure(const takt_sim_params_t *params)
{
    if (params == NULL || params->tick_period_ns == 0 || params->end_ns == 0) {
        return TAKT_ERR_ARG;
    }
    memset(&sim, 0, sizeof(sim));
    sim.params = *params;
    sim.next_tick = params->tick_period_ns;
    sim.next_progress = params->progress_every_ns;
    return TAKT_OK;
}

uint64_t takt_sim_now(void)
{
    return sim.now;
}

uint64_t takt_sim_interrupts(void)
{
    return sim.interrupts;
}

/* ---- injected interrupts: a small binary heap ---- */

static bool irq_before(const pending_irq_t *a, const pending_irq_t *b)
{
    return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

static void irq_swap(uint32_t i, uint32_t j)
{
    pending_irq_t tmp = sim.irqs[i];
    sim.irqs[i] = sim.irqs[j];
    sim.irqs[j] = tmp;
}

int takt_sim_inject_irq(uint64_t at_ns, unsigned irq, void (*handler)(void *arg), void *arg)
{
    if (handler == NULL || irq == TAKT_SIM_IRQ_TICK || at_ns < sim.now) {
        return TAKT_ERR_ARG;
    }
    if (sim.irq_count == MAX_PENDING_IRQS) {
        return TAKT_ERR_NOMEM;
    }
    uint32_t i = sim.irq_count++;
    sim.irqs[i] = (pending_irq_t){at_ns, sim.irq_seq++, irq, handler, arg};
    while (i > 0 && irq_before(&sim.irqs[i], &sim.irqs[(i - 1) / 2])) {
        irq_swap(i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    return TAKT_OK;
}

static pending_irq_t irq_pop(void)
{
    pending_irq_t top = sim.irqs[0];
    sim.irqs[0] = sim.irqs[--sim.irq_count];
    uint32_t i = 0;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < sim.irq_count && irq_before(&sim.irqs[l], &sim.irqs[m])) {
            m = l;
        }
        if (r < sim.irq_count && irq_before(&sim.irqs[r], &sim.irqs[m])) {
            m = r;
        }
        if (m == i) {
            return top;
        }
        irq_swap(i, m);
        i = m;
    }
}

static uint64_t next_interrupt_at(void)
{
    uint64_t next = sim.next_tick;
    if (sim.irq_count > 0 && sim.irqs[0].at < next) {
        next = sim.irqs[0].at;
    }
    return next;
}

/* Runs every interrupt due at the current instant: the tick first. */
static void fire_due_interrupts(void)
{
    for (;;) {
        if (sim.next_tick <= sim.now) {
            sim.next_tick += sim.params.tick_period_ns;
            sim.interrupts++;
            sim.isr_nesting++;
            takt_tick_from_isr();
            sim.isr_nesting--;
            if (sim.params.progress != NULL && sim.next_progress != 0 &&
                sim.now >= sim.next_progress) {
                sim.next_progress += sim.params.progress_every_ns;
                sim.params.progress(sim.now, sim.params.end_ns);
            }
        } else if (sim.irq_count > 0 && sim.irqs[0].at <= sim.now) {
            pending_irq_t irq = irq_pop();
            sim.interrupts++;
            sim.isr_nesting++;
            takt_isr_enter(irq.irq);
            irq.handler(irq.arg);
            takt_isr_exit(irq.irq);
            sim.isr_nesting--;
        } else {
            return;
        }
    }
}

/* ---- switching ---- */

static void switch_now(void)
{
    sim.switch_pending = false;
    takt_task_t *prev = sim.live;
    takt_task_t *next = takt_sched_switch_point();
    if (next != prev) {
        sim.live = next;
        if (swapcontext(&prev->context.uc, &next->context.uc) != 0) {
            fatal("swapcontext failed");
        }
    }
}

static void take_pending_switch(void)
{
    if (sim.switch_pending && sim.critical_nesting == 0 && sim.isr_nesting == 0) {
        switch_now();
    }
}

void port_request_switch(void)
{
    if (sim.isr_nesting == 0 && sim.critical_nesting == 0) {
        switch_now();
    } else {
        sim.switch_pending = true;
    }
}

/* The key is the depth the section found; its exit must find one more, so
 * every sim run checks that the kernel's sections pair up. */
port_critical_t port_critical_enter(void)
{
    return sim.critical_nesting++;
}

port_critical_t port_critical_enter_unmasked(void)
{
    if (sim.critical_nesting != 0) {
        fatal("critical section entered as unmasked inside another");
    }
    return port_critical_enter();
}

void port_critical_exit(port_critical_t key)
{
    if (sim.critical_nesting == 0) {
        fatal("critical section exit without enter");
    }
    if (key != sim.critical_nesting - 1u) {
        fatal("critical section exit with another section's key");
    }
    sim.critical_nesting--;
    take_pending_switch();
}

bool port_in_isr(void)
{
    return sim.isr_nesting > 0;
}

takt_stamp_t port_timestamp(void)
{
    return sim.now;
}

takt_stamp_t port_instant(void)
{
    return sim.now; /* kernel code takes no time: one instant per virtual time */
}

takt_stamp_t port_switch_instant(void)
{
    return port_instant();
}

size_t port_min_stack_size(void)
{
    return 8192;
}

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

void port_stack_claim(void *stack, size_t size)
{
    /* A task that deleted itself never returned from its frames, so their
     * redzones are still poisoned in that memory. */
#if defined(__SANITIZE_ADDRESS__)
    __asan_unpoison_memory_region(stack, size);
#else
    (void)stack;
    (void)size;
#endif
}

static void task_entry_shim(void)
{
    takt_task_trampoline();
    fatal("a task returned past its trampoline");
}

void port_task_init(takt_task_t *task)
{
    if (getcontext(&task->context.uc) != 0) {
        fatal("getcontext failed");
    }
    task->context.uc.uc_stack.ss_sp = task->stack;
    task->context.uc.uc_stack.ss_size = task->stack_size;
    task->context.uc.uc_link = NULL;
    makecontext(&task->context.uc, task_entry_shim, 0);
}

static void end_simulation(void)
{
    sim.running = false;
    if (swapcontext(&sim.live->context.uc, &sim.host) != 0) {
        fatal("swapcontext to host failed");
    }
    fatal("a task was resumed after the simulation ended");
}

void port_start(takt_task_t *first)
{
    sim.live = first;
    sim.running = true;
    if (swapcontext(&sim.host, &first->context.uc) != 0) {
        fatal("swapcontext to first task failed");
    }
}

void takt_sim_stop(void)
{
    end_simulation();
}

/* Lets virtual time pass until `until` (work) or the next interrupt (idle). */
void takt_sim_work(uint64_t ns)
{
    if (sim.critical_nesting != 0 || sim.isr_nesting != 0) {
        fatal("takt_sim_work called inside a critical section or interrupt");
    }
    take_pending_switch();
    uint64_t remaining = ns;
    for (;;) {
        uint64_t next = next_interrupt_at();
        uint64_t finish = sim.now + remaining;
        if (finish < next && finish < sim.params.end_ns) {
            sim.now = finish;
            return;
        }
        if (sim.params.end_ns <= next && sim.params.end_ns <= finish) {
            sim.now = sim.params.end_ns;
            end_simulation();
        }
        remaining -= next - sim.now;
        sim.now = next;
        fire_due_interrupts();
        if (remaining == 0) {
            return;
        }
        take_pending_switch();
    }
}

#if TAKT_CONFIG_TICKLESS_IDLE
/* Tick boundaries from the next one up to and including `at`. */
static uint64_t tick_boundaries_until(uint64_t at)
{
    if (at < sim.next_tick) {
        return 0;
    }
    return (at - sim.next_tick) / sim.params.tick_period_ns + 1u;
}

/* The tickless sleep: virtual time goes to the tick that ends it (the one
 * that reaches the next timer), the next injected interrupt, or the run's
 * end, whichever comes first; the ticks before that are stepped over
 * without their interrupts, and the interrupt that ends the sleep runs as
 * usual. False when the tick may not stop. */
static bool idle_tickless(void)
{
    takt_tick_t ticks = takt_tickless_sleep_ticks(TAKT_IDLE_TICKS_UNBOUNDED);
    if (ticks == 0) {
        return false;
    }
    if (ticks > INT32_MAX) {
        ticks = INT32_MAX; /* no timer queued: the sleep's last tick comes that late */
    }
    uint64_t wake = sim.next_tick + (uint64_t)(ticks - 1u) * sim.params.tick_period_ns;
    if (wake > sim.params.end_ns) {
        wake = sim.params.end_ns;
    }
    if (sim.irq_count > 0 && sim.irqs[0].at < wake) {
        wake = sim.irqs[0].at;
    }
    takt_tick_t planned = ticks;
#if TAKT_CONFIG_SLEEP_HOOKS
    /* An application that sleeps by itself (*ticks set to 0) sleeps as
     * long on the sim: only the port's waiting lets virtual time pass. */
    takt_sleep_enter(&ticks);
#endif
    /* Neither a tick at the run's end (takt_sim_work runs none) nor the
     * sleep's last tick is left out: that one's interrupt runs. */
    bool ends_run = wake == sim.params.end_ns;
    uint64_t left_out = tick_boundaries_until(ends_run ? wake - 1u : wake);
    if (left_out >= planned) {
        left_out = planned - 1u;
    }
    if (takt_tick_step((takt_tick_t)left_out) != TAKT_OK) {
        fatal("a tickless sleep stepped over a timer");
    }
    sim.next_tick += left_out * sim.params.tick_period_ns;
    sim.now = wake;
#if TAKT_CONFIG_SLEEP_HOOKS
    takt_sleep_exit(ticks);
#endif
    if (ends_run) {
        end_simulation();
    }
    fire_due_interrupts();
    take_pending_switch();
    return true;
}
#endif

void port_idle(void)
{
    take_pending_switch();
#if TAKT_CONFIG_TICKLESS_IDLE
    if (idle_tickless()) {
        return;
    }
#endif
    uint64_t next = next_interrupt_at();
    if (sim.params.end_ns <= next) {
        sim.now = sim.params.end_ns;
        end_simulation();
    }
    sim.now = next;
    fire_due_interrupts();
    take_pending_switch();
}
