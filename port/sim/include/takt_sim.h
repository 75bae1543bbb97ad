/*
 * The sim port's own API: virtual time, modelled work, injected interrupts.
 *
 * The real kernel runs in one host process; tasks are user-level contexts.
 * Virtual time (nanoseconds) moves only through modelled work
 * (takt_sim_work) and idle, so the same program gives the same trace every
 * time. The tick and injected interrupts fire at their virtual instants and
 * run the kernel's interrupt paths; an interrupt due exactly when a piece of
 * work ends runs first, and the task continues at that same instant.
 */
#ifndef TAKT_SIM_H
#define TAKT_SIM_H

#include <stdint.h>

#include "hwpq_model.h"

#define TAKT_SIM_IRQ_TICK 0u

typedef struct {
    uint64_t tick_period_ns; /* virtual nanoseconds between ticks */
    uint64_t end_ns;         /* the simulation stops when virtual time reaches this */
    /* Called (from the tick) about every progress_every_ns of virtual time; may be NULL. */
    void (*progress)(uint64_t now_ns, uint64_t end_ns);
    uint64_t progress_every_ns;
} takt_sim_params_t;

/* Configures (and resets) the simulation; call before takt_init. 0 or a negative error. */
int takt_sim_configure(const takt_sim_params_t *params);

/* Models ns nanoseconds of execution by the calling task. Context: task,
 * outside critical sections. */
void takt_sim_work(uint64_t ns);

/* Virtual time now, in nanoseconds. */
uint64_t takt_sim_now(void);

/*
 * Schedules an external interrupt: at virtual time at_ns (not in the past),
 * handler(arg) runs in interrupt context, bracketed by takt_isr_enter/exit(irq).
 * Interrupts due at one instant run in order: tick first, then by injection order.
 * Returns 0, or TAKT_ERR_ARG (null handler, past time, irq 0 is the tick),
 * TAKT_ERR_NOMEM (too many pending).
 */
int takt_sim_inject_irq(uint64_t at_ns, unsigned irq, void (*handler)(void *arg), void *arg);

/* Ends the simulation now (from a task); takt_start returns. */
void takt_sim_stop(void);

/* Interrupts handled so far (tick included). */
uint64_t takt_sim_interrupts(void);

/* The simulated hardware priority queues (hw/model, TAKT_PORT_HWPQ_UNITS):
 * the depth a unit is built with (1..HWPQ_MODEL_MAX_DEPTH; default
 * HWPQ_MODEL_MAX_DEPTH), as after a reset; 0 or TAKT_ERR_ARG. Set it before
 * the kernel's driver reads it (takt_init for the ready queue). */
int takt_sim_hwpq_configure(unsigned unit, uint32_t depth);

/* What a unit did since it was configured (commands, register accesses);
 * 0 or TAKT_ERR_ARG for no such unit. */
int takt_sim_hwpq_counts(unsigned unit, hwpq_model_counts_t *counts);

#endif
