/*
 * The suite's platform file for Takt on the Cortex-M port under QEMU: every
 * Takt-specific thing the suite needs is here, so suite.c compiles against
 * FreeRTOS unchanged (a FreeRTOS build supplies its own bench_platform.h with
 * the same functions; see README.md).
 *
 *   bench_clock()            raw clock reading: SysTick's current value
 *   bench_instructions(a, b) guest instructions from reading a to reading b
 *   bench_tick_trigger()     pends the tick interrupt (SysTick) by software
 *   bench_irq_attach/trigger the benchmark interrupt (a spare NVIC line)
 *   bench_task_create()      a task "at priority p" for the policy in use
 *   bench_masked_*()         instructions executed with interrupts masked
 *   bench_check_clock()      refuses to run unless the clock converts exactly
 *   bench_exit()             ends the program (QEMU's exit status); under hsf
 *                            first reports the server's depletions
 *
 * Time: QEMU runs with -icount shift=7, so every guest instruction is 128 ns
 * of virtual time; SysTick counts the 25 MHz processor clock (40 ns), 3.2
 * counts per instruction. A reading is floor or ceil of the exact count, so a
 * difference of d counts is 3.2 m +- <1 for m instructions, and
 * m = (5 d + 8) / 16 (d / 3.2 rounded) is exact. Exception entry and exit
 * execute no guest instructions. Results output is printf (semihosting).
 */
#ifndef BENCH_PLATFORM_H
#define BENCH_PLATFORM_H

#include <stdint.h>
#include <stdio.h>

#include "FreeRTOS.h"
#include "armv7m_regs.h"
#include "board.h"
#include "takt_armv7m.h"
#include "task.h"

/* The policy the program was built for, reported with the platform's name
 * (the check refuses a program of another policy). */
#if configTAKT_POLICY == TAKT_POLICY_FP
#define BENCH_POLICY_NAME "fp"
#elif configTAKT_POLICY == TAKT_POLICY_EDF_HEAP
#define BENCH_POLICY_NAME "edf-heap"
#elif configTAKT_POLICY == TAKT_POLICY_EDF_MLIST
#define BENCH_POLICY_NAME "edf-mlist"
#elif configTAKT_POLICY == TAKT_POLICY_EDF_RBTREE
#define BENCH_POLICY_NAME "edf-rbtree"
#elif configTAKT_POLICY == TAKT_POLICY_HSF
#define BENCH_POLICY_NAME "hsf"
#else
#error "bench_platform.h: unknown configTAKT_POLICY"
#endif

#define BENCH_PLATFORM_NAME "takt-" TAKT_BOARD_NAME "/" BENCH_POLICY_NAME

/* The kernel's timer queue, reported at exit (the suite runs fp with each). */
#if configTAKT_TIMER_QUEUE == 1
#define BENCH_TIMER_QUEUE_NAME "list"
#elif configTAKT_TIMER_QUEUE == 2
#define BENCH_TIMER_QUEUE_NAME "heap"
#else
#define BENCH_TIMER_QUEUE_NAME "rbtree"
#endif
#define BENCH_ICOUNT_SHIFT 7u

typedef uint32_t bench_clock_t;

static inline bench_clock_t bench_clock(void)
{
    return SYST_CVR;
}

/* SysTick counts down and reloads from SYST_RVR; at most one reload apart. */
static inline uint32_t bench_instructions(bench_clock_t from, bench_clock_t to)
{
    uint32_t counts = from >= to ? from - to : from + (SYST_RVR + 1u) - to;
    return (counts * 5u + 8u) / 16u;
}

/* The tick: SysTick pended by software runs the same handler a timer reload
 * runs (the kernel's tick count runs ahead of SysTick's; nothing here cares). */
static inline void bench_tick_trigger(void)
{
    SCB_ICSR = SCB_ICSR_PENDSTSET;
}

#define BENCH_IRQ TAKT_BOARD_SPARE_IRQ

static inline void bench_irq_attach(void (*handler)(void))
{
    (void)takt_arm_irq_attach(BENCH_IRQ, handler, TAKT_ARM_KERNEL_IRQ_PRIORITY);
}

static inline void bench_irq_trigger(void)
{
    NVIC_ISPR(BENCH_IRQ / 32u) = 1u << (BENCH_IRQ % 32u);
}

/* FP: an ordinary task at priority p. EDF: a periodic task whose one job
 * never ends (period 2^30 ticks) with a relative deadline that shrinks as p
 * grows, released at tick 0, so a larger p is an earlier absolute deadline
 * and equal p are equal deadlines (FIFO among them, as equal FP priorities).
 * HSF: a task of local priority p in the one server that holds every task of
 * the suite (the driver included), so p keeps its FP meaning and no window
 * holds a server switch. The server is idling (the idle task runs for it, so
 * the processor never leaves it) with budget = period = 2^30 ticks: its
 * budget never runs out and it is never replenished after the start within a
 * run (bench_exit reports both counts; the check demands 0 depletions). What
 * hsf adds to a window is then the two-level pick and the per-tick charge. */
#if configTAKT_POLICY == TAKT_POLICY_HSF
#include "server.h"
#define BENCH_SERVER_PERIOD ((TickType_t)1 << 30)
static ServerHandle_t bench_server;
#endif

static inline BaseType_t bench_task_create(TaskFunction_t code, const char *name, uint16_t stack_words,
                                           void *arg, UBaseType_t priority, TaskHandle_t *handle)
{
#if configTAKT_POLICY == TAKT_POLICY_FP
    return xTaskCreate(code, name, stack_words, arg, priority, handle);
#elif configTAKT_POLICY == TAKT_POLICY_HSF
    if (bench_server == NULL &&
        xServerCreate(BENCH_SERVER_PERIOD, BENCH_SERVER_PERIOD, configMAX_PRIORITIES - 1, eServerIdling, "bench",
                      &bench_server) != pdPASS) {
        return pdFAIL;
    }
    return xServerTaskCreate(bench_server, code, name, stack_words, arg, priority, handle);
#else
    TickType_t deadline = (TickType_t)(1u << 28) - (TickType_t)priority * (1u << 16);
    return xTaskCreatePeriodic(code, name, stack_words, arg, priority, (TickType_t)1 << 30, deadline, 0,
                               handle);
#endif
}

/* ---- interrupts masked (the port's meter; builds with TAKT_ARM_MASK_METER) ---- */
#ifdef TAKT_ARM_MASK_METER
#include "takt_arm_mask_meter.h"

#define BENCH_MASKED 1
typedef uint32_t bench_masked_mark_t;

static inline bench_masked_mark_t bench_masked_mark(void)
{
    return takt_arm_mask_meter_mark();
}

/* Masked instructions of the sections logged since mark; UINT32_MAX when
 * more sections were logged than the log holds. */
static inline uint32_t bench_masked_since(bench_masked_mark_t mark)
{
    return takt_arm_masked_since(mark, bench_instructions);
}
#else
#define BENCH_MASKED 0
typedef uint32_t bench_masked_mark_t;
static inline bench_masked_mark_t bench_masked_mark(void)
{
    return 0;
}
static inline uint32_t bench_masked_since(bench_masked_mark_t mark)
{
    (void)mark;
    return 0;
}
#endif

/* The clock must count instructions exactly: a loop of known length
 * (takt_arm_spin(n): the call, 2n loop instructions and the return) measured
 * for a few n. Nonzero when QEMU runs at another -icount shift or clock. */
static inline int bench_check_clock(void)
{
    SYST_CSR = 0;
    SYST_RVR = SYST_RVR_MAX;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_ENABLE; /* counting, no interrupt */
    bench_clock_t r0 = bench_clock();
    bench_clock_t r1 = bench_clock();
    uint32_t read_overhead = bench_instructions(r0, r1);
    int bad = 0;
    uint32_t base = 0;
    for (uint32_t n = 10; n <= 14; n++) {
        bench_clock_t a = bench_clock();
        takt_arm_spin(n);
        bench_clock_t b = bench_clock();
        uint32_t insns = bench_instructions(a, b) - read_overhead;
        if (n == 10) {
            base = insns - 20u;
        } else if (insns != base + 2u * n) {
            bad = 1;
        }
    }
    SYST_CSR = 0;
    return bad;
}

static inline void bench_exit(int status)
{
#if configTAKT_POLICY == TAKT_POLICY_HSF
    /* Evidence that the server never ran out of budget in any window. */
    ServerStats_t server_stats;
    if (bench_server != NULL && xServerGetStats(bench_server, &server_stats) == pdPASS) {
        printf("info,server_depletions,%lu\n", (unsigned long)server_stats.uxDepletions);
        printf("info,server_replenishments,%lu\n", (unsigned long)server_stats.uxReplenishments);
    }
#endif
    printf("info,timer_queue,%s\n", BENCH_TIMER_QUEUE_NAME);
    fflush(stdout);
    takt_arm_exit(status);
}

#endif
