/*
 * FreeRTOS's own portmacro.h (ARM_CM3 or ARM_CM4F), found next on the
 * include path, with its four masking macros logged by Takt's
 * masked-instruction meter (takt_armv7m.h): only in the suite's meter build
 * of FreeRTOS itself (freertos-bench-suite-masked), whose include path puts
 * this directory first. FreeRTOS's sources are not changed: every section of
 * its C code (vPortEnterCritical/vPortExitCritical, the tick handler, the
 * FromISR functions) masks through these macros, and PendSV's, which is
 * assembly, is logged around its call of vTaskSwitchContext
 * (../freertos_meter.c).
 *
 * Each sequence is FreeRTOS's own with the meter's fixed instructions added
 * where the port's meter puts them, so the entry's count is what FreeRTOS's
 * plain build masks: from the instruction after the raising msr (FreeRTOS's
 * isb and dsb) through the lowering msr, TAKT_ARM_MASK_METER_SELF off the
 * difference of the two readings. Only an outermost section is logged: a
 * raise that finds BASEPRI 0 (a nested vPortEnterCritical raises again, and
 * its exit lowers only at nesting 0), and a lowering to 0 while masked. The
 * decisions are outside the measured stretch: the raise's before its first
 * reading, the lowering's after its second.
 */
#ifndef BENCH_METER_PORTMACRO_H
#define BENCH_METER_PORTMACRO_H

#include_next "portmacro.h"

#include "takt_armv7m.h"

#ifndef TAKT_ARM_MASK_METER
#error "meter/portmacro.h belongs to the meter build (TAKT_ARM_MASK_METER)"
#endif

/* FreeRTOS's ulPortRaiseBASEPRI (mrs; mov; msr; isb; dsb), logged when it
 * finds nothing masked. */
__attribute__((always_inline)) static inline uint32_t bench_meter_raise(void)
{
    uint32_t found, level, t, b;
    __asm volatile("mrs %0, basepri\n\t"
                   "mov %1, %4\n\t"
                   "cmp %0, #0\n\t"
                   "bne 1f\n\t" TAKT_ARM_METER_READ_ASM("%2", "%3") "str %2, [%3]\n"
                   "1:\tmsr basepri, %1\n\t"
                   "isb\n\t"
                   "dsb\n\t"
                   : "=&r"(found), "=&r"(level), "=&r"(t), "=&r"(b)
                   : "i"(configMAX_SYSCALL_INTERRUPT_PRIORITY)
                   : "memory", "cc");
    return found;
}

/* FreeRTOS's vPortSetBASEPRI (msr), logged when it ends a section. The
 * log's slot register is level's own, 0 again after it: four scratch
 * registers, so that a leaf (vPortExitCritical) saves none inside the
 * measured stretch. */
__attribute__((always_inline)) static inline void bench_meter_set(uint32_t level)
{
    uint32_t t, b, s, i;
    __asm volatile(TAKT_ARM_METER_READ_ASM("%0", "%1") "cmp %4, #0\n\t"
                   "bne 1f\n\t"
                   "mrs %2, basepri\n\t"
                   "cmp %2, #0\n\t"
                   "beq 1f\n\t" TAKT_ARM_METER_LOG_ASM("%0", "%1", "%2", "%3", "%4", "%5") "mov %4, #0\n"
                   "1:\tmsr basepri, %4\n\t"
                   : "=&r"(t), "=&r"(b), "=&r"(s), "=&r"(i), "+r"(level)
                   : "i"(TAKT_ARM_MASK_METER_ENTRIES - 1u)
                   : "memory", "cc");
}

#undef portDISABLE_INTERRUPTS
#undef portENABLE_INTERRUPTS
#undef portSET_INTERRUPT_MASK_FROM_ISR
#undef portCLEAR_INTERRUPT_MASK_FROM_ISR
#define portDISABLE_INTERRUPTS() ((void)bench_meter_raise())
#define portENABLE_INTERRUPTS() bench_meter_set(0)
#define portSET_INTERRUPT_MASK_FROM_ISR() bench_meter_raise()
#define portCLEAR_INTERRUPT_MASK_FROM_ISR(x) bench_meter_set(x)

#endif
