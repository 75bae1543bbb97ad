/*
 * The meter build of FreeRTOS itself (freertos-bench-suite-masked): the
 * meter's log, and PendSV's section. FreeRTOS's PendSV handler is assembly
 * that raises BASEPRI, calls vTaskSwitchContext and lowers it again; the
 * program links with --wrap=vTaskSwitchContext, so that call comes here,
 * and this logs the section around the real one. Its entry must count what
 * FreeRTOS's plain build masks there: ARM_CM3, bl, vTaskSwitchContext,
 * mov r0, #0 and the lowering msr; ARM_CM4F, dsb and isb before the bl too.
 * The stretch between the two readings holds the first reading, its store,
 * the call and vTaskSwitchContext, and the second reading's four moves:
 * vTaskSwitchContext + 7, less TAKT_ARM_MASK_METER_SELF (6). The nops make
 * up the difference (2 on ARM_CM3, 4 on ARM_CM4F; test_bench_suite.py
 * holds them to that sum). The ctest freertos_suite_meter_on_freertos_against_trace
 * checks the counts against a QEMU instruction trace of the plain program.
 */
#include "takt_armv7m.h"

takt_arm_mask_meter_t takt_arm_mask_meter;

#if defined(__ARM_FP)
#define PENDSV_METER_PAD "nop\n\tnop\n\tnop\n\tnop\n\t"
#else
#define PENDSV_METER_PAD "nop\n\tnop\n\t"
#endif

void __wrap_vTaskSwitchContext(void);

__attribute__((naked)) void __wrap_vTaskSwitchContext(void)
{
    __asm volatile("push {r4, lr}\n\t" TAKT_ARM_METER_READ_ASM("r0", "r1") "str r0, [r1]\n\t" PENDSV_METER_PAD
                   "bl __real_vTaskSwitchContext\n\t" TAKT_ARM_METER_READ_ASM("r0", "r1")
                       TAKT_ARM_METER_LOG_ASM("r0", "r1", "r2", "r3", "r12", "%[mask]") "pop {r4, pc}\n"
                   :
                   : [mask] "i"(TAKT_ARM_MASK_METER_ENTRIES - 1u));
}
