/* The few ARMv7-M system registers the port touches (System Control Space). */
#ifndef TAKT_ARMV7M_REGS_H
#define TAKT_ARMV7M_REGS_H

#include <stdint.h>

#define ARM_REG(addr) (*(volatile uint32_t *)(addr))

#define SCB_ICSR ARM_REG(0xE000ED04u)
#define SCB_ICSR_PENDSVSET (1u << 28)
#define SCB_ICSR_PENDSVCLR (1u << 27)
#define SCB_ICSR_PENDSTSET (1u << 26)
#define SCB_ICSR_PENDSTCLR (1u << 25)
#define SCB_VTOR ARM_REG(0xE000ED08u)
#define SCB_CCR ARM_REG(0xE000ED14u)
#define SCB_SHPR2 ARM_REG(0xE000ED1Cu) /* SVCall priority in bits 31:24 */
#define SCB_SHPR3 ARM_REG(0xE000ED20u) /* SysTick 31:24, PendSV 23:16 */
#define SCB_CPACR ARM_REG(0xE000ED88u)
#define FPU_FPCCR ARM_REG(0xE000EF34u)
#define FPU_FPCCR_ASPEN (1u << 31)
#define FPU_FPCCR_LSPEN (1u << 30)

#define SYST_CSR ARM_REG(0xE000E010u)
#define SYST_RVR ARM_REG(0xE000E014u)
#define SYST_CVR ARM_REG(0xE000E018u)
#define SYST_CSR_ENABLE (1u << 0)
#define SYST_CSR_TICKINT (1u << 1)
#define SYST_CSR_CLKSOURCE (1u << 2) /* processor clock */
#define SYST_RVR_MAX 0x00FFFFFFu
#define SYST_CSR_COUNTFLAG (1u << 16) /* wrapped since CSR was last read */

#define NVIC_ISER(n) ARM_REG(0xE000E100u + 4u * (n))
#define NVIC_ICER(n) ARM_REG(0xE000E180u + 4u * (n))
#define NVIC_ISPR(n) ARM_REG(0xE000E200u + 4u * (n))
#define NVIC_ICPR(n) ARM_REG(0xE000E280u + 4u * (n))
#define NVIC_IPR_BYTE(irq) (*(volatile uint8_t *)(0xE000E400u + (irq)))

static inline uint32_t arm_ipsr(void)
{
    uint32_t v;
    __asm volatile("mrs %0, ipsr" : "=r"(v));
    return v;
}

static inline uint32_t arm_basepri(void)
{
    uint32_t v;
    __asm volatile("mrs %0, basepri" : "=r"(v));
    return v;
}

static inline void arm_set_basepri(uint32_t v)
{
    __asm volatile("msr basepri, %0\n\tisb" : : "r"(v) : "memory");
}

/* SysTick stops counting at the store (what follows takes none of the
 * kernel's time) and counts on from where it stood at systick_start; the part
 * of a count in progress is lost. Returns the control word to start it with. */
__attribute__((always_inline)) static inline uint32_t systick_stop(void)
{
    uint32_t csr = SYST_CSR;
    SYST_CSR = csr & ~SYST_CSR_ENABLE;
    return csr;
}

__attribute__((always_inline)) static inline void systick_start(uint32_t stopped_csr)
{
    SYST_CSR = stopped_csr;
}

static inline void arm_barrier(void)
{
    __asm volatile("dsb\n\tisb" : : : "memory");
}

#endif
