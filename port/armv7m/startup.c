/*
 * Start-up of any program on these boards, whatever kernel it runs: the
 * vector table, the reset handler (data, bss, FPU, C library constructors,
 * main, exit), faults, and external interrupts attached at run time. The
 * kernel's own start-up step is takt_arm_boot (Takt's: boot.c); the handlers
 * it names are the kernel's (Takt's port defines PendSV_Handler and
 * SysTick_Handler; FreeRTOS's port is configured to name its own so, and
 * SVC_Handler, for the suite's FreeRTOS build: apps/bench/freertos_suite).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "armv7m_regs.h"
#include "board.h"
#include "takt/types.h"
#include "takt_armv7m.h"

extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern uint32_t __stack_top[];
extern void __libc_init_array(void);
extern int main(int argc, char **argv);
int takt_arm_cmdline(char *buf, int size);

void Reset_Handler(void);
static void fault_handler(void);
/* A kernel that uses them defines them. */
void SVC_Handler(void) __attribute__((weak, alias("fault_handler")));
void PendSV_Handler(void) __attribute__((weak, alias("fault_handler")));
void SysTick_Handler(void) __attribute__((weak, alias("fault_handler")));

/* The board's interrupt lines under their CMSIS handler names (board.h): an
 * application's definition of one goes into the vector table. */
#ifdef TAKT_BOARD_IRQ_HANDLERS
#define DECLARE_IRQ_HANDLER(irq, name) void name(void) __attribute__((weak, alias("fault_handler")));
TAKT_BOARD_IRQ_HANDLERS(DECLARE_IRQ_HANDLER)
#define IRQ_VECTOR(irq, name) [16u + (irq)] = name,
#else
#define TAKT_BOARD_IRQ_HANDLERS(X)
#endif

/* The kernel's step before any C library constructor, with the vectors in
 * place; a kernel that needs none leaves it out. */
void takt_arm_boot(void) __attribute__((weak));
void takt_arm_boot(void)
{
}

#define VECTOR_COUNT (16u + TAKT_BOARD_IRQ_COUNT)

/* The table the processor boots with: an interrupt line nobody attached or
 * defined a handler for is a fault. The named lines override the range's
 * default, as designated initialisers may. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
__attribute__((section(".vectors"), used)) static void (*const vectors[VECTOR_COUNT])(void) = {
    [0] = (void (*)(void))(uintptr_t)__stack_top,
    [1] = Reset_Handler,
    [2] = fault_handler,  /* NMI */
    [3] = fault_handler,  /* HardFault */
    [4] = fault_handler,  /* MemManage */
    [5] = fault_handler,  /* BusFault */
    [6] = fault_handler,  /* UsageFault */
    [11] = SVC_Handler,
    [12] = fault_handler, /* DebugMonitor */
    [14] = PendSV_Handler,
    [15] = SysTick_Handler,
    [16 ... 16 + TAKT_BOARD_IRQ_COUNT - 1] = fault_handler,
    TAKT_BOARD_IRQ_HANDLERS(IRQ_VECTOR)
};
#pragma GCC diagnostic pop

/* The table it runs with, a copy in RAM: attaching a handler writes it into
 * its line's vector, so an interrupt enters the handler itself, with no
 * dispatch of ours in between (9 instructions on every interrupt). VTOR wants
 * the table aligned to its size rounded up to a power of two. */
#define VECTOR_ALIGN (VECTOR_COUNT <= 32u ? 128 : VECTOR_COUNT <= 64u ? 256 : VECTOR_COUNT <= 128u ? 512 : 1024)
_Static_assert(VECTOR_COUNT <= 256u, "VECTOR_ALIGN covers up to 256 vectors");
static void (*ram_vectors[VECTOR_COUNT])(void) __attribute__((aligned(VECTOR_ALIGN)));

#define MAX_ARGS 16

/* argv from the host's command line (QEMU: -semihosting-config arg=...),
 * split at spaces. */
static int split_cmdline(char **argv)
{
    static char line[512];
    int argc = 0;
    if (takt_arm_cmdline(line, (int)sizeof(line) - 1) < 0) {
        return 0;
    }
    line[sizeof(line) - 1] = '\0';
    for (char *p = line; *p != '\0' && argc < MAX_ARGS;) {
        while (*p == ' ') {
            *p++ = '\0';
        }
        if (*p == '\0') {
            break;
        }
        argv[argc++] = p;
        while (*p != '\0' && *p != ' ') {
            p++;
        }
    }
    argv[argc] = NULL;
    return argc;
}

void Reset_Handler(void)
{
    for (uint32_t *src = __data_load, *dst = __data_start; dst < __data_end;) {
        *dst++ = *src++;
    }
    for (uint32_t *dst = __bss_start; dst < __bss_end;) {
        *dst++ = 0;
    }
    for (uint32_t v = 0; v < VECTOR_COUNT; v++) {
        ram_vectors[v] = vectors[v];
    }
    SCB_VTOR = (uint32_t)(uintptr_t)ram_vectors;
    arm_barrier();
    takt_arm_boot();
#if defined(__ARM_FP)
    SCB_CPACR |= 0xFu << 20;                      /* CP10, CP11: full access */
    FPU_FPCCR |= FPU_FPCCR_ASPEN | FPU_FPCCR_LSPEN; /* lazy stacking (reset default) */
    arm_barrier();
#endif
    __libc_init_array();
    static char *argv[MAX_ARGS + 1];
    exit(main(split_cmdline(argv), argv));
}

/* __libc_init_array calls these (crti/crtn are not linked: -nostartfiles). */
void _init(void);
void _init(void)
{
}

void _fini(void);
void _fini(void)
{
}

static void fault_handler(void)
{
    uint32_t ipsr = arm_ipsr();
    fprintf(stderr, "takt armv7m: fault, exception %u\n", (unsigned)(ipsr & 0x1FFu));
    takt_arm_exit(71);
}

void takt_arm_set_pendsv(void (*handler)(void))
{
    ram_vectors[14] = handler;
    arm_barrier(); /* the next PendSV enters it */
}

int takt_arm_irq_attach(unsigned irq, void (*handler)(void), uint8_t priority)
{
    if (irq >= TAKT_BOARD_IRQ_COUNT || handler == NULL) {
        return TAKT_ERR_ARG;
    }
    ram_vectors[16u + irq] = handler;
    arm_barrier(); /* the vector is in place before the line can fire */
    NVIC_IPR_BYTE(irq) = priority;
    NVIC_ICPR(irq / 32u) = 1u << (irq % 32u);
    NVIC_ISER(irq / 32u) = 1u << (irq % 32u);
    return TAKT_OK;
}

void takt_arm_irq_pend(unsigned irq)
{
    if (irq < TAKT_BOARD_IRQ_COUNT) {
        NVIC_ISPR(irq / 32u) = 1u << (irq % 32u);
        arm_barrier();
    }
}
