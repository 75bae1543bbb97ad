/*
 * Cortex-M (ARMv7-M) port: PendSV context switch, SysTick tick, BASEPRI
 * critical sections, lazy FPU context on Cortex-M4F.
 *
 * Tasks run in thread mode on the process stack (PSP); handlers on the main
 * stack. A switch is always PendSV at the lowest priority, so it happens at
 * once in task context, at the end of a critical section (lowering BASEPRI
 * unmasks it) or when the last interrupt returns. The thread that called
 * takt_start becomes a pseudo-task on the process stack too: ending the run
 * is one more switch, back to it, and takt_start returns (tests and the
 * runner run the kernel several times in one program).
 */
#include <stddef.h>
#include <string.h>

#include "armv7m_regs.h"
#include "board.h"
#include "port.h"
#include "takt/takt.h"
#include "takt/attributes.h"
#include "takt_armv7m.h"

#define EXC_RETURN_THREAD_PSP 0xFFFFFFFDu /* basic frame, thread mode, process stack */
#define XPSR_THUMB (1u << 24)
#define HANDLER_STACK_BYTES 2048u

/* Optional, for programs that report where a run's time went (the scenario
 * runner): the time the idle loop spends asleep (takt_arm_idle_counts). */
#ifndef TAKT_CONFIG_ARM_IDLE_ACCOUNTING
#define TAKT_CONFIG_ARM_IDLE_ACCOUNTING 0
#endif

/* No switch during a run tests the state: PendSV's vector says it
 * (PendSV_Handler at the boundaries, run_pendsv during a run). */
typedef enum { RUN_RUNNING, RUN_IDLE, RUN_STARTING, RUN_ENDING } run_state_t;

static struct {
    takt_arm_params_t params;
    uint32_t tick_counts; /* SysTick counts per kernel tick */
    uint64_t ticks_at_start; /* shared.ticks when the run started */
#if TAKT_CONFIG_TICKLESS_IDLE
    uint64_t left_out_at_start; /* tickless.left_out then */
#endif
    uint64_t last_tick;      /* the run ends when this tick is due (UINT64_MAX: never) */
    volatile run_state_t state;
    takt_task_t *first;
    port_context_t boot; /* the thread that called takt_start */
} port = {.params = {.tick_hz = 1000, .end_ticks = 0}, .last_tick = UINT64_MAX, .state = RUN_IDLE};

/* What the inline critical sections and port_instant share (takt_port_inline.h). */
takt_arm_port_state_t takt_arm_port_state = {.at_tick.stopped = true,
                                             .tick_instant_key = UINT64_MAX};
#define shared takt_arm_port_state

static uint64_t handler_stack[HANDLER_STACK_BYTES / 8];

uint32_t takt_arm_core_hz(void)
{
    return TAKT_BOARD_CORE_HZ;
}

/* Sets the low word at which SysTick_Handler next has the port's own work:
 * the run's end when it comes before the next carry, else the carry (a run
 * at or past its last tick ends at the next tick). */
static void aim_port_tick(void)
{
    uint64_t next = shared.ticks; /* the count the next tick handles */
    if (next >= port.last_tick) {
        shared.port_tick_low = (uint32_t)next;
    } else if ((next >> 32) == (port.last_tick >> 32)) {
        shared.port_tick_low = (uint32_t)port.last_tick;
    } else {
        shared.port_tick_low = UINT32_MAX;
    }
}

TAKT_COLD int takt_arm_configure(const takt_arm_params_t *params)
{
    if (params == NULL || params->tick_hz == 0 || TAKT_BOARD_CORE_HZ % params->tick_hz != 0) {
        return TAKT_ERR_ARG;
    }
    uint32_t counts = TAKT_BOARD_CORE_HZ / params->tick_hz;
    if (counts < 2 || counts - 1u > SYST_RVR_MAX) {
        return TAKT_ERR_ARG;
    }
    port.params = *params;
    port.last_tick = params->end_ticks != 0 ? params->end_ticks - 1u : UINT64_MAX;
    shared.ticks = 0; /* events before the start are stamped 0, as on the sim */
    aim_port_tick();
    return TAKT_OK;
}

uint32_t takt_arm_tick_counts(void)
{
    return TAKT_BOARD_CORE_HZ / port.params.tick_hz;
}

#if TAKT_CONFIG_TICKLESS_IDLE
/* Ticks left out by tickless sleeps, the sleeps, and those an interrupt
 * other than the tick ended early (takt_arm_tickless_stats). */
static struct {
    uint64_t left_out;
    uint32_t sleeps;
    uint32_t woken_early;
} tickless;
#endif

uint64_t takt_arm_interrupts(void)
{
    /* the tick is the port's only interrupt; tickless sleeps left some out */
#if TAKT_CONFIG_TICKLESS_IDLE
    return shared.ticks - port.ticks_at_start - (tickless.left_out - port.left_out_at_start);
#else
    return shared.ticks - port.ticks_at_start;
#endif
}

uint64_t takt_arm_counts_to_ns(uint64_t counts)
{
    /* Split so that counts * 1e9 cannot overflow for any run length. */
    uint64_t hz = TAKT_BOARD_CORE_HZ;
    return counts / hz * 1000000000ull + counts % hz * 1000000000ull / hz;
}

/* ---- critical sections: BASEPRI ---- */

#ifdef TAKT_ARM_MASK_METER
takt_arm_mask_meter_t takt_arm_mask_meter;
#endif

uint32_t takt_arm_critical_exit_held(port_critical_t key)
{
    if (key != TAKT_ARM_PENDSV_PRIORITY || !shared.at_tick.switch_held || port_in_isr()) {
        /* a nested section, the caller's own mask, or an interrupt's section:
         * the task's call is still to come (only the hold's own level ends it) */
        return key;
    }
    shared.at_tick.switch_held = false; /* the task's kernel call was the held switch point */
    return 0;
}

/* The next shared instant is a fresh one (takt_arm_tick_instant). */
static void new_tick_instant(void)
{
    shared.tick_instant_key = UINT64_MAX;
}

void takt_arm_hold_switch(void)
{
    /* Sections ran since the last tick's instant: an interrupt before the
     * boundary tick must not reuse it. */
    new_tick_instant();
    shared.at_tick.switch_held = true;
    arm_set_basepri(TAKT_ARM_PENDSV_PRIORITY);
}

void takt_arm_release_switch(void)
{
    if (shared.at_tick.switch_held) {
        shared.at_tick.switch_held = false;
        arm_set_basepri(0);
    }
}

uint64_t takt_arm_ticks_handled(void)
{
    return shared.ticks;
}

bool takt_arm_run_ending(void);
bool takt_arm_run_ending(void)
{
    return port.state == RUN_ENDING;
}

/* ---- time ---- */

/* The instant of the tick last handled, for a held switch and a stopped
 * run: one per tick count, a fresh epoch the first time it is asked for, so
 * it is later than every section before it and earlier than every section
 * after it (they take larger epochs). */
__attribute__((noinline)) static takt_stamp_t instant_by_tick_count(void)
{
    uint64_t key = shared.ticks;
    if (shared.tick_instant_key != key) {
        takt_arm_next_epoch(&shared);
        shared.tick_instant = shared.epoch;
        shared.tick_instant_key = key;
    }
    return shared.tick_instant;
}

/* The instant shared with the tick: inside the tick's events theirs, taken
 * the first time (as port_tick_events_begin_instant takes it, no tick count
 * to compare), else by the count. The keyed case out of line, and the
 * tick's take written in an order that needs no saved registers: the
 * tick's own path saves none. */
takt_stamp_t takt_arm_tick_instant(void)
{
    if (shared.at_tick.in_tick == 0) {
        return instant_by_tick_count();
    }
    if (shared.at_tick.in_tick != TAKT_ARM_IN_TICK_INSTANT) {
        takt_arm_next_epoch(&shared);
        shared.tick_instant_key = shared.ticks;
        shared.tick_instant = shared.epoch;
        shared.at_tick.in_tick = TAKT_ARM_IN_TICK_INSTANT;
    }
    return shared.tick_instant;
}

/* Counts since start: handled ticks, plus one if the counter already
 * wrapped but its interrupt is masked or not taken yet, plus the counts into
 * the current period. Retried if the wrap falls between the reads, and while
 * the running counter reads 0: QEMU holds it there up to a count before the
 * reload, and may not have pended the wrap's interrupt yet, so which period
 * that 0 ends is known only after the reload (read as 0 of the period the
 * ticks count, it put a trace drain a tick back: takt bench hwds). */
static inline uint64_t clock_counts(void)
{
    uint32_t reload = port.tick_counts - 1u;
    for (;;) {
        uint32_t pending_before = SCB_ICSR & SCB_ICSR_PENDSTSET;
        uint64_t ticks = shared.ticks;
        uint32_t value = SYST_CVR;
        uint32_t pending_after = SCB_ICSR & SCB_ICSR_PENDSTSET;
        if (pending_before != pending_after || ticks != shared.ticks) {
            continue;
        }
        if (value == 0 && (SYST_CSR & SYST_CSR_ENABLE) != 0) {
            continue;
        }
        uint32_t into = value == 0 ? 0 : reload + 1u - value;
        if (pending_after) {
            ticks++;
        }
        return ticks * port.tick_counts + into;
    }
}

takt_stamp_t port_timestamp(void)
{
    /* One instant for everything the tick interrupt does (releases and wakes
     * at one tick are simultaneous, ordered by task id, as on the sim), and
     * for what a task does between modelled work that ended on a tick and its
     * next kernel call (on the sim that code takes no time). Also before the
     * start and after the end. */
    if (shared.at_tick.any != 0) {
        return shared.ticks * port.tick_counts;
    }
    return clock_counts();
}

uint64_t takt_arm_now_counts(void)
{
    return port_timestamp();
}

uint64_t takt_arm_clock_counts(void)
{
    return clock_counts();
}

uint32_t takt_arm_clock_pause(void)
{
    return systick_stop();
}

void takt_arm_clock_resume(uint32_t paused)
{
    systick_start(paused);
}

/* ---- the idle task's sleep, and where the run's time went
 * (TAKT_CONFIG_ARM_IDLE_ACCOUNTING) ---- */

/* Asked with interrupts held off (PRIMASK): a task an interrupt readied after
 * the idle loop asked is seen here, and one readied after this WFI wakes
 * from, as it wakes on a pending interrupt even while they are held off. */
static inline bool idle_gives_way_now(void)
{
#if TAKT_CONFIG_IDLE_SHARES_LEVEL && TAKT_CONFIG_IDLE_YIELDS
    return takt_idle_gives_way();
#else
    return false;
#endif
}

#if TAKT_CONFIG_TICKLESS_IDLE
#if TAKT_CONFIG_ARM_IDLE_ACCOUNTING
#error "takt_config.h: TAKT_CONFIG_ARM_IDLE_ACCOUNTING reads SysTick as a clock of whole ticks; it does not work with TAKT_CONFIG_TICKLESS_IDLE"
#endif

/* The SysTick counts that pass between reading SYST_CVR and the counter
 * starting again from the value written after it (systick_realign): 0 under
 * QEMU, where a count is 40 instructions at -icount shift=0. A board whose
 * SysTick counts the processor clock sets the cycles of that sequence. */
#ifndef TAKT_ARM_TICKLESS_REALIGN_COUNTS
#define TAKT_ARM_TICKLESS_REALIGN_COUNTS 0u
#endif
/* A sleep begins only this many counts or more before the next boundary:
 * the reload value written for it must reach SysTick before that boundary's
 * reload. */
#define TICKLESS_GUARD_COUNTS 64u

void takt_arm_tickless_stats(uint64_t *left_out, uint32_t *sleeps, uint32_t *woken_early)
{
    *left_out = tickless.left_out;
    *sleeps = tickless.sleeps;
    *woken_early = tickless.woken_early;
}

/* Restarts SysTick to reach 0 in `counts` counts from the read of SYST_CVR
 * that they were computed from, then go on with whole ticks: writing
 * SYST_CVR loads SYST_RVR at the next count, and a SYST_RVR written after
 * that load only takes effect at the next reload. Only after an interrupt
 * ended a sleep early: the write loses what was left of the count it
 * interrupted (on QEMU, up to one count). */
static void systick_realign(uint32_t counts)
{
    uint32_t floor = TAKT_ARM_TICKLESS_REALIGN_COUNTS + 2u;
    counts = counts < floor ? floor : counts; /* a count late rather than lost */
    SYST_RVR = counts - TAKT_ARM_TICKLESS_REALIGN_COUNTS - 1u;
    SYST_CVR = 0;
    while (SYST_CVR == 0) {
        /* the load comes at the next count */
    }
    SYST_RVR = port.tick_counts - 1u;
}

/* The processor waits for an interrupt (interrupts held off: WFI returns
 * with it pending), inside the application's hooks. */
static void sleep_wait(takt_tick_t ticks)
{
#if TAKT_CONFIG_SLEEP_HOOKS
    takt_sleep_enter(&ticks);
    if (ticks != 0) {
        __asm volatile("dsb\n wfi\n isb" ::: "memory");
    }
    takt_sleep_exit(ticks);
#else
    (void)ticks;
    __asm volatile("dsb\n wfi\n isb" ::: "memory");
#endif
}

static inline bool systick_pending(void)
{
    return (SCB_ICSR & SCB_ICSR_PENDSTSET) != 0;
}

/*
 * The tickless sleep, with interrupts held off (PRIMASK), of `ticks` ticks:
 * up to boundary `ticks` from now, the tick that reaches the next timer (or
 * the run's end), whose interrupt runs as usual. SysTick is never stopped
 * or written on the way, so the ticks stay on their grid: its reload
 * register is set to the rest of the sleep (ticks - 1 whole ticks) before
 * the current tick's boundary, which wakes the processor once, here, where
 * its interrupt is cleared and the reload set back to a tick for after the
 * long period. The ticks before the last are counted on waking
 * (takt_tick_step). An interrupt that ends the sleep early finds the
 * boundaries passed counted, and SysTick set again for the next one.
 */
static bool idle_tickless(void)
{
    uint32_t per_tick = port.tick_counts;
    /* The rest of the sleep must fit SysTick's 24 bits, and the run's end is
     * a tick interrupt of its own. */
    uint64_t most = (SYST_RVR_MAX + 1u) / per_tick + 1u;
    if (port.last_tick != UINT64_MAX) {
        uint64_t to_end = port.last_tick >= shared.ticks ? port.last_tick - shared.ticks + 1u : 0u;
        most = to_end < most ? to_end : most;
    }
    takt_tick_t ticks = takt_tickless_sleep_ticks((takt_tick_t)most);
    if (ticks == 0) {
        return false;
    }
    uint32_t rest = (ticks - 1u) * per_tick; /* boundary 1 to boundary `ticks` */
    /* A tick already due, or about to be, runs first: the caller's WFI
     * returns at once, or soon. */
    if (systick_pending() || SYST_CVR < TICKLESS_GUARD_COUNTS) {
        return false;
    }
    SYST_RVR = rest - 1u; /* loaded at boundary 1 */
    sleep_wait(ticks);
    if (!systick_pending()) {
        /* Woken before boundary 1: the long period must not be loaded. */
        SYST_RVR = per_tick - 1u;
        if (!systick_pending()) {
            tickless.woken_early++;
            tickless.sleeps++;
            return true;
        }
        /* boundary 1 passed meanwhile: as below, but woken early */
    }
    /* Boundary 1: left out; the long period runs, and a tick after it. */
    SCB_ICSR = SCB_ICSR_PENDSTCLR;
    SYST_RVR = per_tick - 1u;
    uint32_t left_out = 1;
    if (ticks > 2u) {
        sleep_wait(ticks - 1u);
        if (systick_pending()) {
            left_out = ticks - 1u; /* the last boundary: its interrupt is pending */
        } else {
            /* Woken inside the long period: the boundaries passed are
             * counted, and SysTick is set for the next one. */
            uint32_t value = SYST_CVR;
            uint32_t into = value == 0 ? 0 : rest - value; /* counts since boundary 1 */
            uint32_t passed = into / per_tick;
            if (passed > ticks - 2u) {
                passed = ticks - 2u; /* the last boundary's own interrupt is on its way */
            }
            left_out = 1u + passed;
            systick_realign(per_tick - into % per_tick);
            tickless.woken_early++;
        }
    }
    if (takt_tick_step(left_out) != TAKT_OK) {
        takt_arm_exit(72); /* a step over the next timer's tick: the sleep was set wrong */
    }
    shared.ticks = shared.ticks + left_out;
    aim_port_tick();
    tickless.left_out += left_out;
    tickless.sleeps++;
    return true;
}
#endif

#if TAKT_CONFIG_ARM_IDLE_ACCOUNTING
static uint64_t idle_counts;

void port_idle(void)
{
    /* Asleep with interrupts held off: WFI still wakes on the pending
     * interrupt, and the time asleep is read before that interrupt runs, so
     * none of its handling counts as idle. */
    __asm volatile("cpsid i" ::: "memory");
    if (!idle_gives_way_now()) {
        uint64_t asleep = clock_counts();
        __asm volatile("wfi" ::: "memory");
        idle_counts += clock_counts() - asleep;
    }
    __asm volatile("cpsie i" ::: "memory");
}
#elif TAKT_CONFIG_TICKLESS_IDLE
void port_idle(void)
{
    __asm volatile("cpsid i" ::: "memory");
    if (!idle_gives_way_now() && !idle_tickless()) {
        __asm volatile("wfi" ::: "memory");
    }
    __asm volatile("cpsie i" ::: "memory");
}
#elif TAKT_CONFIG_IDLE_SHARES_LEVEL && TAKT_CONFIG_IDLE_YIELDS
void port_idle(void)
{
    __asm volatile("cpsid i" ::: "memory");
    if (!idle_gives_way_now()) {
        __asm volatile("wfi" ::: "memory");
    }
    __asm volatile("cpsie i" ::: "memory");
}
#else
void port_idle(void)
{
    __asm volatile("wfi" ::: "memory");
}
#endif

uint64_t takt_arm_idle_counts(void)
{
#if TAKT_CONFIG_ARM_IDLE_ACCOUNTING
    return idle_counts;
#else
    return 0;
#endif
}

/* ---- tasks ---- */

size_t port_min_stack_size(void)
{
    return 256;
}

void port_stack_claim(void *stack, size_t size)
{
    (void)stack;
    (void)size;
}

static void task_returned_past_trampoline(void)
{
    takt_arm_exit(70);
}

void port_task_init(takt_task_t *task)
{
    /* An exception frame as if the task had been switched out just before
     * its first instruction: hardware part, then r4-r11 and EXC_RETURN. */
    uint32_t *sp = (uint32_t *)(((uintptr_t)task->stack + task->stack_size) & ~(uintptr_t)7u);
    *--sp = XPSR_THUMB;
    *--sp = (uint32_t)(uintptr_t)takt_task_trampoline; /* pc */
    *--sp = (uint32_t)(uintptr_t)task_returned_past_trampoline; /* lr */
    for (int r = 0; r < 5; r++) {
        *--sp = 0; /* r12, r3, r2, r1, r0 */
    }
    *--sp = EXC_RETURN_THREAD_PSP;
    for (int r = 0; r < 8; r++) {
        *--sp = 0; /* r11 .. r4 */
    }
    task->context.sp = sp;
}

/* The switch's own critical section. PendSV runs only when BASEPRI is 0: a
 * kernel section (0x40) and a held switch (PendSV's level) both mask it. So
 * no section is open here, and the end restores 0; a lean copy of the
 * outermost case of port_critical_enter/exit (the meter build logs it as
 * they do). run_pendsv writes the same out in assembly (SWITCH_RAISE_ASM,
 * SWITCH_LOWER_ASM). */
static inline void switch_section_enter(void)
{
    /* No epoch: a switch that stamps a task takes one (port_switch_instant). */
    takt_arm_raise_from_unmasked(); /* finds 0 (see above) */
}

static inline void switch_section_exit(void)
{
#ifdef TAKT_ARM_MASK_METER
    takt_arm_meter_log_and_lower(0);
#else
    /* No isb: interrupts that came meanwhile run at the latest when PendSV
     * returns (an exception return synchronises), before the next task's
     * first instruction either way. */
    __asm volatile("msr basepri, %0" : : "r"(0) : "memory");
#endif
}

/* Where PendSV saves and restores the thread's callee-saved registers when no
 * run goes on: the thread runs on the main stack then, and the process stack
 * pointer is parked here (takt_arm_park_process_stack), so a switch asked for
 * outside a run touches no live stack. Room for r4-r11, EXC_RETURN and s16-s31. */
static uint64_t parked_process_stack[13];

void takt_arm_park_process_stack(void)
{
    __asm volatile("msr psp, %0" : : "r"(&parked_process_stack[13]) : "memory");
}

/* The switch at a run's start (to its first task) or end (back to the thread
 * that called takt_start), or one asked for when no run goes on (the kernel
 * asks without testing: TAKT_PORT_SWITCH_REQUEST_ANY_TIME), which resumes
 * what it interrupted. sp is the context PendSV saved: the boot thread's at
 * the start, the running task's at the end. */
static void run_pendsv(void);

__attribute__((noinline)) static uint32_t *run_boundary(uint32_t *sp)
{
    uint32_t *next = sp;
    if (port.state == RUN_STARTING) {
        port.boot.sp = sp;
        port.state = RUN_RUNNING;
        takt_arm_set_pendsv(run_pendsv);
        next = port.first->context.sp;
    } else if (port.state == RUN_ENDING) {
        takt_sched_running()->context.sp = sp;
        port.state = RUN_IDLE;
        shared.at_tick.stopped = true;
        new_tick_instant();
        next = port.boot.sp;
    }
    switch_section_exit();
    return next;
}

/* PendSV's context save and restore around a C function that takes the
 * saved stack and returns the one to resume; one copy per vector. No isb
 * after reading PSP: the handler was entered by an exception entry, which
 * guarantees, as an isb does, that the instructions after it are fetched
 * anew (ARMv7-M ARM, DDI 0403E, "Synchronization requirements for System
 * Control Space updates"), and nothing between the entry and the read alters
 * any context (the mrs only reads PSP, which the entry's stacking left
 * final). The isb after writing PSP stays, before the exception return. */
#if defined(__ARM_FP)
#define PENDSV_SAVE_FP "tst lr, #0x10\n" /* EXC_RETURN bit 4 clear: the frame holds FP state */ \
                       "it eq\n"                                                            \
                       "vstmdbeq r0!, {s16-s31}\n"
#define PENDSV_RESTORE_FP "tst lr, #0x10\n" \
                          "it eq\n"         \
                          "vldmiaeq r0!, {s16-s31}\n"
#else
#define PENDSV_SAVE_FP ""
#define PENDSV_RESTORE_FP ""
#endif
#define PENDSV_AROUND(function)              \
    __asm volatile("mrs r0, psp\n" PENDSV_SAVE_FP \
                   "stmdb r0!, {r4-r11, lr}\n" \
                   "bl " #function "\n"      \
                   "ldmia r0!, {r4-r11, lr}\n" PENDSV_RESTORE_FP \
                   "msr psp, r0\n"           \
                   "isb\n"                   \
                   "bx lr\n")

/* PendSV_Handler's: a run's start or end, or no run at all. */
uint32_t *port_boundary_stack(uint32_t *sp);
uint32_t *port_boundary_stack(uint32_t *sp)
{
    switch_section_enter();
    return run_boundary(sp);
}

/* The switch's section in run_pendsv's assembly: switch_section_enter and
 * switch_section_exit, the meter build's sequences included. Scratch: r1-r3
 * (r0 holds the stack), and after the call r1-r3, r12 and r5-r6 (r0 holds
 * the next task; r4-r11 are the next task's once restored). */
#ifdef TAKT_ARM_MASK_METER
#define SWITCH_RAISE_ASM "movs r3, %[level]\n" TAKT_ARM_METER_RAISE_ASM("r1", "r2", "r3")
#define SWITCH_LOWER_ASM \
    "movs r6, #0\n" TAKT_ARM_METER_LOWER_ASM("r1", "r2", "r3", "r12", "r5", "r6", "%[mask]")
#define METER_MASK TAKT_ARM_MASK_METER_ENTRIES - 1u
#else
#define SWITCH_RAISE_ASM "movs r1, %[level]\nmsr basepri, r1\nisb\n"
#define SWITCH_LOWER_ASM "movs r1, #0\nmsr basepri, r1\n"
#define METER_MASK 0u
#endif

/* PendSV during a run (run_boundary installs it at the start, end_run takes
 * it out), in PENDSV_AROUND's frame: the switch's section, the save through
 * the kernel's running task (port.h, TAKT_PORT_RUNNING_SYMBOL: the outgoing
 * task until the switch point returns) and the call of the switch point are
 * written out here, so the common switch makes one call (a C function around
 * the switch point cost a second call, its frame and a reload of port's
 * address) and stores one pointer (a copy of the running task of the port's
 * own cost a second). The boot thread's registers are switched only at a
 * run's boundaries. A tick that ends the run while this one is under way,
 * before its section, lets it finish the switch the run asked for; the end's
 * own PendSV follows at once. */
__attribute__((naked)) static void run_pendsv(void)
{
    __asm volatile("mrs r0, psp\n" PENDSV_SAVE_FP
                   "stmdb r0!, {r4-r11, lr}\n" SWITCH_RAISE_ASM
                   "ldr r1, =" TAKT_PORT_RUNNING_SYMBOL "\n"
                   "ldr r1, [r1]\n"
                   "str r0, [r1, %[sp]]\n"
                   "bl takt_sched_switch_point\n" SWITCH_LOWER_ASM
                   "ldr r0, [r0, %[sp]]\n"
                   "ldmia r0!, {r4-r11, lr}\n" PENDSV_RESTORE_FP
                   "msr psp, r0\n"
                   "isb\n"
                   "bx lr\n"
                   :
                   : [sp] "i"(offsetof(takt_task_t, context.sp)), [level] "i"(TAKT_ARM_BASEPRI),
                     [mask] "i"(METER_MASK));
}

/* PendSV outside a run (the reset vector; end_run puts it back). */
__attribute__((naked)) void PendSV_Handler(void)
{
    PENDSV_AROUND(port_boundary_stack);
}

static void end_run(void)
{
    port.state = RUN_ENDING;
    takt_arm_set_pendsv(PendSV_Handler);
    SYST_CSR = 0;
    SCB_ICSR = SCB_ICSR_PENDSTCLR;
    port_request_switch();
}

/* The tick whose low word is port_tick_low: carries into the high word and,
 * as on the sim, ends the run when the tick at end_ticks is due, before it is
 * processed; else it is an ordinary tick. */
__attribute__((noinline)) static void port_tick(uint32_t handled_low)
{
    uint64_t handled = ((uint64_t)shared.ticks_high << 32) | handled_low;
    if (handled_low == UINT32_MAX) {
        shared.ticks_high = shared.ticks_high + 1u;
    }
    if (handled >= port.last_tick) {
        end_run();
        return;
    }
    aim_port_tick();
    takt_tick_from_isr();
}

/* Both ways end in a tail call: the common tick saves no registers. */
void SysTick_Handler(void)
{
    uint32_t handled_low = shared.ticks_low;
    shared.ticks_low = handled_low + 1u;
    if (handled_low == shared.port_tick_low) {
        port_tick(handled_low);
        return;
    }
    takt_tick_from_isr(); /* it sets in_tick itself when the tick does anything */
}

void takt_arm_stop(void)
{
    port_critical_t key = port_critical_enter();
    end_run();
    port_critical_exit(key);
}

/* Thread mode moves to the process stack at the same address, handlers get
 * their own stack; and back. */
__attribute__((naked)) static void use_process_stack(uint32_t *handler_stack_top)
{
    (void)handler_stack_top;
    __asm volatile(
        "mrs r1, msp\n"
        "msr psp, r1\n"
        "mrs r1, control\n"
        "orr r1, r1, #2\n"
        "msr control, r1\n"
        "isb\n"
        "msr msp, r0\n"
        "bx lr\n");
}

__attribute__((naked)) static void use_main_stack(void)
{
    __asm volatile(
        "mrs r1, psp\n"
        "msr msp, r1\n"
        "mrs r1, control\n"
        "bic r1, r1, #2\n"
        "msr control, r1\n"
        "isb\n"
        "bx lr\n");
}

TAKT_COLD void port_start(takt_task_t *first)
{
    port.tick_counts = takt_arm_tick_counts();
    port.ticks_at_start = shared.ticks;
#if TAKT_CONFIG_TICKLESS_IDLE
    port.left_out_at_start = tickless.left_out;
#endif
#if TAKT_CONFIG_ARM_IDLE_ACCOUNTING
    idle_counts = 0;
#endif
    aim_port_tick();
    port.first = first;
    shared.at_tick.switch_held = false;
    shared.at_tick.stopped = false;
    /* The stopped run's instant belongs to a tick count that
     * takt_arm_configure may have reset since: no stamp of the run shares it. */
    new_tick_instant();
    /* Masked until the first switch: an interrupt that asks for a switch
     * (the kernel asks at any time) or a tick cannot come in half-way. */
    arm_set_basepri(TAKT_ARM_BASEPRI);
    port.state = RUN_STARTING;
    SCB_SHPR3 = (SCB_SHPR3 & 0x0000FFFFu) | (TAKT_ARM_KERNEL_IRQ_PRIORITY << 24) |
                (TAKT_ARM_PENDSV_PRIORITY << 16);
    use_process_stack((uint32_t *)&handler_stack[HANDLER_STACK_BYTES / 8]);
    SYST_CSR = 0;
    SYST_RVR = port.tick_counts - 1u;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_TICKINT | SYST_CSR_ENABLE;
    port_request_switch();
    arm_set_basepri(0); /* the first switch runs here */
    /* Back here when the run ended. */
    use_main_stack();
    takt_arm_park_process_stack();
}

