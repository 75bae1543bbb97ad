/* The test port on the sim: virtual time is the sim's own, in ns. */
#include "harness_port.h"

#include "takt_sim.h"

int hp_configure(uint64_t end_ticks)
{
    takt_sim_params_t sim = {.tick_period_ns = TICK_NS, .end_ns = T(end_ticks)};
    return takt_sim_configure(&sim);
}

void hp_work_ns(uint64_t ns)
{
    takt_sim_work(ns);
}

uint64_t hp_now_ns(void)
{
    return takt_sim_now();
}

int hp_inject_irq(uint64_t at_ns, unsigned irq, void (*handler)(void *arg), void *arg)
{
    return takt_sim_inject_irq(at_ns, irq, handler, arg);
}

void hp_stop(void)
{
    takt_sim_stop();
}

uint64_t hp_interrupts(void)
{
    return takt_sim_interrupts();
}

uint64_t hp_stamp_ns(takt_stamp_t stamp)
{
    return stamp;
}

void hp_tick(void)
{
}
