/*
 * The Cortex-M port's hot contract functions, inline (port.h includes this
 * file): a kernel call opens one or more critical sections, checks whether
 * it runs in an interrupt and stamps the tasks it makes ready, and as calls
 * these cost more than their own few instructions (docs/benchmarks.md).
 */
#ifndef TAKT_PORT_INLINE_H
#define TAKT_PORT_INLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "armv7m_regs.h"
#include "takt_armv7m.h"
#include "takt_port_types.h"

#define TAKT_PORT_INLINE_CRITICAL 1

/* The port's state the inline functions share with port_armv7m.c. */
typedef struct {
    /* Outermost critical sections opened so far, in steps of
     * TAKT_ARM_EPOCH_STEP: each one's instant. The section counts in the low
     * word (one more test than a 32-bit count; a 64-bit add costs three) and
     * carries into the high word. */
    union {
        uint64_t epoch;
        struct {
            uint32_t epoch_low;
            uint32_t epoch_high;
        };
    };
    /* Why events now share the tick's instant (port_instant); `any` reads the
     * three flags at once (the fourth byte stays 0). */
    union {
        struct {
            volatile bool switch_held; /* modelled work holds PendSV back */
            uint8_t in_tick; /* 0, or the tick's events run: TAKT_ARM_IN_TICK(_INSTANT) */
            bool stopped;    /* no run in progress (before the start, after the end) */
        };
        volatile uint32_t any;
    } at_tick;
    /* SysTick interrupts handled since the start. The handler counts in the
     * low word and looks at the rest only when the low word reaches
     * port_tick_low (the carry into the high word, or the run's end). */
    union {
        volatile uint64_t ticks;
        struct {
            volatile uint32_t ticks_low;
            volatile uint32_t ticks_high;
        };
    };
    uint32_t port_tick_low;
    /* The instant the tick's events, a held switch and a stopped run share
     * (takt_arm_tick_instant), and the tick count it belongs to (UINT64_MAX:
     * none, take a fresh one). Inside the tick's events, in_tick says whether
     * they took it (port_tick_events_begin_instant, takt_arm_tick_instant). */
    uint64_t tick_instant;
    uint64_t tick_instant_key;
} takt_arm_port_state_t;

extern takt_arm_port_state_t takt_arm_port_state;

/* at_tick.in_tick: the tick's events run, and have not or have taken the
 * tick's instant. */
#define TAKT_ARM_IN_TICK 1u
#define TAKT_ARM_IN_TICK_INSTANT 2u

/* Instants leave the low 16 bits clear: the kernel puts the task id there
 * (the ready order, port.h), so it needs no shift. */
#define TAKT_ARM_EPOCH_STEP 0x10000u

/* The next epoch: a new instant. */
static inline void takt_arm_next_epoch(takt_arm_port_state_t *s)
{
    s->epoch_low += TAKT_ARM_EPOCH_STEP;
    if (s->epoch_low == 0) {
        s->epoch_high++;
    }
}

#ifdef TAKT_ARM_MASK_METER
/* The meter's sequences (takt_armv7m.h), over C operands. */
static inline void takt_arm_meter_read_and_raise(uint32_t level)
{
    uint32_t t, b;
    __asm volatile(TAKT_ARM_METER_RAISE_ASM("%0", "%1", "%2")
                   : "=&r"(t), "=&r"(b) : "r"(level) : "memory");
}

static inline void takt_arm_meter_log_and_lower(uint32_t level)
{
    uint32_t t, b, s, i, a;
    __asm volatile(TAKT_ARM_METER_LOWER_ASM("%0", "%1", "%2", "%3", "%4", "%5", "%6")
                   : "=&r"(t), "=&r"(b), "=&r"(s), "=&r"(i), "=&r"(a)
                   : "r"(level), "i"(TAKT_ARM_MASK_METER_ENTRIES - 1u)
                   : "memory");
}
#endif

/* port.h: a switch asked for when no run goes on (before takt_start, after
 * its end) is a PendSV that finds no run and returns (run_boundary), so the
 * kernel asks without testing that it started. */
#define TAKT_PORT_SWITCH_REQUEST_ANY_TIME 1

static inline void port_request_switch(void)
{
    SCB_ICSR = SCB_ICSR_PENDSVSET; /* PendSV: the switch point */
    arm_barrier();
}

/*
 * port.h: the request under the kernel lock, without the isb. The ARMv7-M
 * ARM (DDI 0403E, "Synchronization requirements for System Control Space
 * updates") makes the write's side effect (PendSV pending) certain once the
 * write completes, which the dsb waits for, and guarantees that instructions
 * see it once they are fetched after that: after an isb, an exception entry
 * or an exception return. Under the lock, PendSV is masked (BASEPRI at the
 * kernel's level, or a handler's priority, both above PendSV's) until the
 * lock's end, and every end is one of those: the lowering msr basepri is
 * followed by an isb (arm_set_basepri, the meter's sequence), a handler ends
 * with an exception return. So PendSV is pending before the lowering and
 * taken right after the isb that follows it: the same instruction as with
 * an isb here. Nothing before the lock's end can take it anyway, since it is
 * masked.
 */
#define TAKT_PORT_REQUEST_SWITCH_LOCKED 1

static inline void port_request_switch_locked(void)
{
    SCB_ICSR = SCB_ICSR_PENDSVSET;
    __asm volatile("dsb" : : : "memory");
}

static inline bool port_in_isr(void)
{
    return (arm_ipsr() << 23) != 0; /* the exception number, bits 0-8; one shift, no mask */
}

/*
 * Critical sections are keyed (port.h): the key is the BASEPRI found on
 * entry, so nesting needs no counter. A nested section finds the kernel's
 * level and restores it; the outermost one finds another level (0, a held
 * switch's, PendSV's level, or one an application set itself) and restores
 * that. One compare: a level the kernel never sets (an application's own
 * BASEPRI) makes the kernel call in it an operation of its own, which it is.
 */
static inline bool takt_arm_key_outermost(port_critical_t key)
{
    return key != TAKT_ARM_BASEPRI;
}

/* True while BASEPRI masks kernel interrupts (a kernel section, or an
 * application's own mask at or above the kernel's level). */
static inline bool takt_arm_in_critical(void)
{
    uint32_t level = arm_basepri();
    return level != 0 && level <= TAKT_ARM_BASEPRI;
}

static inline port_critical_t port_critical_enter(void)
{
    takt_arm_port_state_t *s = &takt_arm_port_state;
    port_critical_t key = arm_basepri();
    bool outermost = takt_arm_key_outermost(key);
#ifdef TAKT_ARM_MASK_METER
    if (outermost) {
        takt_arm_meter_read_and_raise(TAKT_ARM_BASEPRI);
    } else {
        arm_set_basepri(TAKT_ARM_BASEPRI);
    }
#else
    arm_set_basepri(TAKT_ARM_BASEPRI);
#endif
    if (outermost) {
        takt_arm_next_epoch(s);
    }
    return key;
}

/* Raises BASEPRI from 0 to the kernel's level, for a section known to be
 * outermost and to find nothing masked (the meter build logs it as
 * port_critical_enter does). */
static inline void takt_arm_raise_from_unmasked(void)
{
#ifdef TAKT_ARM_MASK_METER
    takt_arm_meter_read_and_raise(TAKT_ARM_BASEPRI);
#else
    arm_set_basepri(TAKT_ARM_BASEPRI);
#endif
}

/* port.h: a task back from a wait runs at BASEPRI 0 (PendSV returns to it
 * with 0, and its own section's end ended any hold), so the key is 0 and
 * the section outermost. It stamps no task, so it takes no epoch: as for
 * PendSV's section, the next section that stamps one takes its own, later
 * than every section before it. */
static inline port_critical_t port_critical_enter_unmasked(void)
{
    takt_arm_raise_from_unmasked();
    return 0;
}

/* The end of a section whose key is not 0: a nested one, or one in the task
 * whose modelled work held PendSV back. Returns the level to restore. */
uint32_t takt_arm_critical_exit_held(port_critical_t key);

static inline void port_critical_exit(port_critical_t key)
{
    /* A held switch masked PendSV before the section, so its key is not 0:
     * one test of the value we restore anyway. */
    if (key != 0) {
        key = takt_arm_critical_exit_held(key);
    }
#ifdef TAKT_ARM_MASK_METER
    if (takt_arm_key_outermost(key)) {
        takt_arm_meter_log_and_lower(key); /* a pended PendSV runs right here */
    } else {
        arm_set_basepri(key);
    }
#else
    arm_set_basepri(key); /* a pended PendSV runs right here */
#endif
}

/* port.h: in a handler the hold needs no look (takt_arm_critical_exit_held
 * keeps an interrupt's key: the task's own call ends the hold). */
#define TAKT_PORT_CRITICAL_EXIT_FROM_ISR 1

static inline void port_critical_exit_from_isr(port_critical_t key)
{
#ifdef TAKT_ARM_MASK_METER
    if (takt_arm_key_outermost(key)) {
        takt_arm_meter_log_and_lower(key);
    } else {
        arm_set_basepri(key);
    }
#else
    arm_set_basepri(key);
#endif
}

/* The tick's events (port.h): only a tick that does more than count sets
 * the flag, so the common tick pays no store. */
#define TAKT_PORT_INLINE_TICK 1

static inline void port_tick_events_begin(void)
{
    takt_arm_port_state.at_tick.in_tick = TAKT_ARM_IN_TICK;
}

static inline void port_tick_events_end(void)
{
    takt_arm_port_state.at_tick.in_tick = 0;
}

/*
 * Instants (port.h): each outermost critical section is one instant (the
 * kernel does one operation in it, as the sim does in zero time); and, as on
 * the sim, everything the tick interrupt does, what a task does between
 * modelled work that ended on a tick and its next kernel call, and what
 * happens outside a run share the tick's instant. The values are ordered
 * (TAKT_PORT_ORDERED_INSTANTS): a section's is its epoch, and the shared one
 * is a fresh epoch taken when first asked for, so a later instant is always
 * larger and the kernel uses the value itself as the ready order. The bound
 * that puts on a run is 2^48 kernel operations: nine years at a million a
 * second.
 */
#define TAKT_PORT_ORDERED_INSTANTS 1

takt_stamp_t takt_arm_tick_instant(void);

/*
 * port.h: the events begin with the tick's instant taken, a fresh epoch (one
 * store of in_tick says both). No tick count to compare, as a held switch or
 * a stopped run must (takt_arm_tick_instant): nothing takes an instant for
 * this tick before its events begin (the handler counted it just before; a
 * count the stopped run's instant may still carry after takt_arm_configure
 * reset the counts is forgotten at the start). The count is still stored,
 * for a held switch after the tick, which shares the instant
 * (takt_arm_tick_instant finds it by the count).
 */
static inline takt_stamp_t port_tick_events_begin_instant(void)
{
    takt_arm_port_state_t *s = &takt_arm_port_state;
    takt_arm_next_epoch(s);
    s->tick_instant = s->epoch;
    s->tick_instant_key = s->ticks;
    s->at_tick.in_tick = TAKT_ARM_IN_TICK_INSTANT;
    return s->tick_instant;
}

static inline takt_stamp_t port_instant(void)
{
    const takt_arm_port_state_t *s = &takt_arm_port_state;
    if (s->at_tick.any != 0) {
        return takt_arm_tick_instant();
    }
    return s->epoch;
}

/* The switch's section (run_pendsv) takes no epoch: most switches
 * stamp nothing. One that does takes its epoch here, so its instant is
 * still later than every section before it. */
static inline takt_stamp_t port_switch_instant(void)
{
    takt_arm_next_epoch(&takt_arm_port_state);
    return port_instant();
}

#endif
