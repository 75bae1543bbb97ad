/*
 * The suite's platform file for Takt on the Cortex-M port under QEMU: every
 * Takt-specific thing the suite needs is here, so suite.c compiles against
 * FreeRTOS unchanged (FreeRTOS's own is ../freertos_armv7m/bench_platform.h).
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
 * The clock, the tick and interrupt triggers and the clock check are the
 * Cortex-M platforms' shared ones (../armv7m/bench_armv7m.h). Results output
 * is printf (semihosting).
 */
#ifndef BENCH_PLATFORM_H
#define BENCH_PLATFORM_H

#include <stdint.h>
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"

#define BENCH_IRQ_PRIORITY TAKT_ARM_KERNEL_IRQ_PRIORITY
#include "bench_armv7m.h"

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

/* Interrupts masked: the port's meter, in a build with TAKT_ARM_MASK_METER. */
#include "bench_meter.h"

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
