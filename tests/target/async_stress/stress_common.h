/*
 * What the asynchronous-interrupt stress programs share (async_stress.c,
 * async_api.c): the MPS2's two CMSDK timers as interrupt sources at random
 * intervals, the unmasked interrupt's checks, random streams, busy work that
 * checks the float registers, task creation under each policy, the end of a
 * run. The includer defines STRESS_STREAMS (its random streams) first, and
 * its kernel-level handler sets in_kernel_irq while it runs.
 */
#ifndef STRESS_COMMON_H
#define STRESS_COMMON_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "FreeRTOS.h"
#include "armv7m_regs.h"
#include "board.h"
#include "check.h"
#include "takt_armv7m.h"
#include "task.h"
#include "xorshift.h"
#if configTAKT_POLICY == TAKT_POLICY_HSF
#include "server.h"
#endif

#ifndef STRESS_STREAMS
#error "define STRESS_STREAMS (the program's random streams) before stress_common.h"
#endif

/* CMSDK APB timers of the MPS2 boards: count the 25 MHz clock down, interrupt
 * at 0 and reload. */
#define TIMER_REG(base, offset) (*(volatile uint32_t *)((base) + (offset)))
#define TIMER_CTRL(base) TIMER_REG(base, 0x0u)
#define TIMER_VALUE(base) TIMER_REG(base, 0x4u)
#define TIMER_RELOAD(base) TIMER_REG(base, 0x8u)
#define TIMER_INTCLEAR(base) TIMER_REG(base, 0xCu)
#define TIMER_ENABLE 1u
#define TIMER_IRQ_ENABLE 8u
#define KERNEL_TIMER 0x40000000u
#define KERNEL_TIMER_IRQ 8u
#define HIGH_TIMER 0x40001000u
#define HIGH_TIMER_IRQ 9u
#define HIGH_IRQ_PRIORITY 0x00u /* above TAKT_ARM_BASEPRI: never masked */

/* Per-task random streams: a task's choices do not depend on another's. */
static uint32_t rng_state[STRESS_STREAMS];
static uint32_t high_rng_state; /* the unmasked interrupt's own */


static uint32_t rng(unsigned stream)
{
    return xorshift32(&rng_state[stream]);
}

/* The seed is the first program argument (QEMU: -semihosting-config arg=). */
static uint32_t stress_seed(int argc, char **argv)
{
    uint32_t seed = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 0x5EED0001u;
    for (unsigned s = 0; s < STRESS_STREAMS; s++) {
        rng_state[s] = (seed ^ (0x9E3779B9u * (s + 1u))) | 1u;
    }
    high_rng_state = (seed * 2654435761u) | 1u;
    return seed;
}

void vAssertCalled(const char *file, int line)
{
    taskDISABLE_INTERRUPTS();
    fprintf(stderr, "async stress: assertion failed at %s:%d\n", file, line);
    takt_arm_exit(70);
}

void vApplicationStackOverflowHook(TaskHandle_t xTask, char *pcTaskName)
{
    (void)xTask;
    fprintf(stderr, "async stress: stack overflow in %s\n", pcTaskName);
    takt_arm_exit(71);
}

/* A call that cannot fail in these programs, failing: the run stops there,
 * naming the caller's file and line. */
#define MUST(ok)                               \
    do {                                       \
        if (!(ok)) {                           \
            vAssertCalled(__FILE__, __LINE__); \
        }                                      \
    } while (0)

/* ---- float registers (Cortex-M4F) ---- */

static uint32_t float_failures;

#if defined(__ARM_FP)
/* s0-s15: a float sum the compiler keeps in them while the loop runs. */
static uint32_t float_sum_wrong(uint32_t n)
{
    float sum = 0.0f;
    for (uint32_t i = 0; i < n; i++) {
        sum += 1.0f;
    }
    return sum == (float)n ? 0u : 1u;
}

/* s16-s31, which only a switch saves: a pattern written to them, kept over
 * `spins` loop turns (interrupts and switches land there), then compared. */
#define FP_SET(r) "vmov " r ", %[p]\n\tadd %[p], %[p], #1\n\t"
#define FP_CHECK(r) "vmov %[t], " r "\n\teor %[t], %[t], %[p]\n\torr %[b], %[b], %[t]\n\tadd %[p], %[p], #1\n\t"
#define FP_BANK(op)                                                                               \
    op("s16") op("s17") op("s18") op("s19") op("s20") op("s21") op("s22") op("s23") op("s24")      \
        op("s25") op("s26") op("s27") op("s28") op("s29") op("s30") op("s31")

static uint32_t float_bank_wrong(uint32_t pattern, uint32_t spins)
{
    uint32_t bad = 0, scratch;
    __asm volatile(FP_BANK(FP_SET) "1:\n\tsubs %[n], %[n], #1\n\tbne 1b\n\t"
                                   "sub %[p], %[p], #16\n\t" FP_BANK(FP_CHECK)
                   : [p] "+r"(pattern), [n] "+r"(spins), [b] "+r"(bad), [t] "=&r"(scratch)
                   :
                   : "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26",
                     "s27", "s28", "s29", "s30", "s31", "cc");
    return bad != 0u ? 1u : 0u;
}
#endif

/* Busy work of a random length; with an FPU it checks the float registers
 * across it. Called by tasks only (float_failures is theirs; a lost update
 * of it could only hide a failure that another one also counts). */
static void busy(unsigned stream, uint32_t max_spins)
{
    uint32_t spins = 1u + rng(stream) % max_spins;
#if defined(__ARM_FP)
    uint32_t wrong = float_bank_wrong(rng(stream), spins) + float_sum_wrong(spins / 4u + 1u);
    if (wrong != 0u) {
        float_failures++;
    }
#else
    takt_arm_spin(spins);
#endif
    /* Under deferred preemption, where a waiting switch is taken. */
    taskPREEMPTION_POINT();
}

/* ---- the end of a run: workers park, the checker counts them ---- */

static volatile uint32_t parked;

static void park(void)
{
    taskENTER_CRITICAL();
    parked++;
    taskEXIT_CRITICAL();
    vTaskSuspend(NULL);
}

/* Waits (up to a second) until `workers` tasks parked; whether they did. */
static bool wait_parked(uint32_t workers)
{
    for (uint32_t waited = 0; parked < workers && waited < 1000u; waited++) {
        vTaskDelay(1);
    }
    return parked == workers;
}

/* The checker's last act: the run ends and vTaskStartScheduler returns to
 * main, which prints the summary. */
static void end_run(void)
{
    vTaskEndScheduler();
    for (;;) {
        vTaskDelay(1000);
    }
}

/* ---- the interrupts ---- */

static volatile uint32_t high_irqs, high_in_section, high_nested;
static volatile bool in_kernel_irq;

static void timer_start(uint32_t base, uint32_t counts)
{
    TIMER_CTRL(base) = 0;
    TIMER_INTCLEAR(base) = 1;
    TIMER_VALUE(base) = counts;
    TIMER_RELOAD(base) = counts;
    TIMER_CTRL(base) = TIMER_ENABLE | TIMER_IRQ_ENABLE;
}

static void timer_stop(uint32_t base, unsigned irq)
{
    TIMER_CTRL(base) = 0;
    TIMER_INTCLEAR(base) = 1;
    NVIC_ICPR(irq / 32u) = 1u << (irq % 32u);
}

#if configUSE_TICKLESS_IDLE
/* Tickless: now and then (one interval in 16) a pause of 1 to 6 ticks (a
 * tick is 25,000 counts), so that the idle task's sleeps reach their first
 * boundary and their long period before an interrupt ends them. */
static uint32_t tickless_pause(uint32_t random)
{
    return random % 16u == 0u ? (1u + (random >> 4) % 6u) * (TAKT_BOARD_CORE_HZ / configTICK_RATE_HZ) : 0u;
}
#else
#define tickless_pause(random) 0u
#endif

/* The kernel-level timer's next interval, 40..2599 counts: at -icount
 * shift=5 (32 ns an instruction, 40 ns a count) 50..3248 instructions, about
 * ten interrupts a tick. Much more often, and the takers they wake leave the
 * producers no time on the Cortex-M4, whose busy work also checks the float
 * registers. Tickless, plus the pauses above. */
static uint32_t kernel_interval(unsigned stream)
{
    uint32_t random = rng(stream);
    return 40u + random % 2560u + tickless_pause(random >> 12);
}

/* Above the kernel's level: calls nothing of it; counts where it lands. */
static void high_irq(void)
{
    TIMER_INTCLEAR(HIGH_TIMER) = 1;
    high_irqs++;
    if (arm_basepri() != 0u) {
        high_in_section++;
    }
    if (in_kernel_irq) {
        high_nested++;
    }
#if defined(__ARM_FP)
    if (float_sum_wrong(8u) != 0u) {
        takt_arm_exit(72); /* an interrupt's own float state: no task to blame */
    }
#endif
    uint32_t random = xorshift32(&high_rng_state);
    TIMER_VALUE(HIGH_TIMER) = 30u + random % 1024u + tickless_pause(random >> 10);
}

/* From the first task that runs: both timers on. */
static void start_interrupts(void (*kernel_handler)(void), unsigned kernel_stream)
{
    MUST(takt_arm_irq_attach(KERNEL_TIMER_IRQ, kernel_handler, TAKT_ARM_KERNEL_IRQ_PRIORITY) == 0 &&
             takt_arm_irq_attach(HIGH_TIMER_IRQ, high_irq, HIGH_IRQ_PRIORITY) == 0);
    timer_start(KERNEL_TIMER, kernel_interval(kernel_stream));
    timer_start(HIGH_TIMER, 500u);
}

static void stop_interrupts(void)
{
    taskENTER_CRITICAL();
    timer_stop(KERNEL_TIMER, KERNEL_TIMER_IRQ);
    taskEXIT_CRITICAL();
    timer_stop(HIGH_TIMER, HIGH_TIMER_IRQ);
}

/* What every run must have shown: the unmasked interrupt landed inside
 * kernel sections and inside the kernel-level handler; no float register
 * changed under a task. */
static void check_interrupts_and_floats(uint32_t kernel_irqs)
{
    printf("async stress: interrupts: kernel level %" PRIu32 ", unmasked %" PRIu32 " (%" PRIu32
           " inside kernel sections, %" PRIu32 " nested in the kernel-level handler); %" PRIu32
           " context switches, %" PRIu32 " ticks; float register failures %" PRIu32 "\n",
           kernel_irqs, high_irqs, high_in_section, high_nested, takt_context_switches(),
           (uint32_t)xTaskGetTickCount(), float_failures);
    CHECK_EQ(float_failures, 0);
    CHECK(high_in_section > 0u);
    CHECK(high_nested > 0u);
#if configUSE_TICKLESS_IDLE
    /* The stress must have reached the sleep, and ended sleeps with its
     * interrupts: otherwise the tickless program tests nothing of it. */
    uint64_t left_out;
    uint32_t sleeps, woken_early;
    takt_arm_tickless_stats(&left_out, &sleeps, &woken_early);
    printf("async stress: tickless: %" PRIu32 " sleeps (%" PRIu32 " ended early by an interrupt), %" PRIu32
           " ticks left out\n",
           sleeps, woken_early, (uint32_t)left_out);
    CHECK(sleeps > 0u);
    CHECK(woken_early > 0u);
    CHECK(left_out > 0u);
#endif
}

/* ---- creation under each policy ---- */

#if configTAKT_POLICY == TAKT_POLICY_HSF
/* Two servers that run out of budget while the tasks work, with the
 * programs' objects shared across them; the tick replenishes them. */
static ServerHandle_t server_a, server_b;
#endif

static void create_servers(void)
{
#if configTAKT_POLICY == TAKT_POLICY_HSF
    MUST(xServerCreate(8, 3, 2, eServerIdling, "SA", &server_a) == pdPASS &&
             xServerCreate(6, 2, 3, eServerDeferrable, "SB", &server_b) == pdPASS);
#endif
}

/* A task "of priority p" (in server 0 or 1 under hsf). */
static void create_task(TaskFunction_t code, const char *name, uint16_t stack_words, void *arg,
                        UBaseType_t priority, unsigned server_index, TaskHandle_t *handle)
{
    BaseType_t rc;
#if configTAKT_POLICY == TAKT_POLICY_FP || configTAKT_POLICY == TAKT_POLICY_FP_LIST
    (void)server_index;
    rc = xTaskCreate(code, name, stack_words, arg, priority, handle);
#elif configTAKT_POLICY == TAKT_POLICY_HSF
    rc = xServerTaskCreate(server_index == 0u ? server_a : server_b, code, name, stack_words, arg,
                           priority, handle);
#else
    /* EDF: one job that never ends; a larger priority is an earlier deadline
     * and equal priorities are equal deadlines. */
    (void)server_index;
    TickType_t deadline = (TickType_t)(1u << 28) - (TickType_t)priority * (1u << 16);
    rc = xTaskCreatePeriodic(code, name, stack_words, arg, priority, (TickType_t)1 << 30, deadline, 0,
                             handle);
#endif
    if (rc != pdPASS) {
        fprintf(stderr, "async stress: task %s not created\n", name);
        takt_arm_exit(1);
    }
}

#endif
