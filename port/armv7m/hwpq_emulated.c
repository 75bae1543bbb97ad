/*
 * The hardware priority queue (hw/) on the MPS2 boards, which have none and
 * which QEMU cannot be given: a program built with TAKT_ARM_HWPQ_EMULATED
 * gets two units whose registers are hw/'s C model, the reference the RTL is
 * tested against, run with SysTick stopped. The kernel's clock (its ticks,
 * and every instruction count the benchmarks read off SysTick) then sees only
 * the instructions around each register access, as a bus access to a device
 * would take a few cycles and no more; the model's own instructions are not
 * the device's cost (the RTL does each command in one clock). What an access
 * costs in this emulation is measured, not assumed: kernel_costs.c's
 * hwpq_access calibration (docs/benchmarks.md).
 *
 * Stopping SysTick loses the fraction of a count in progress (at most one
 * 25 MHz count, 40 ns, per access); at -icount shift 10 that is 0.04
 * instructions, so a window's rounding to instructions stays exact for up
 * to a dozen accesses. Reading SYST_CSR clears COUNTFLAG, which only the
 * work calibration (work.c) reads, never with the device in use. Every access
 * comes from the kernel's driver inside a critical section, and nothing above
 * the kernel's level touches SysTick.
 */
#include "armv7m_regs.h"
#include "hwpq_model.h"
#include "port.h"

#ifndef TAKT_PORT_HWPQ_UNITS
#error "hwpq_emulated.c: build with TAKT_ARM_HWPQ_EMULATED (takt_port_types.h)"
#endif

/* Built at the largest depth on first use, as the sim's units. */
static hwpq_model_unit_t units[TAKT_PORT_HWPQ_UNITS];

static hwpq_model_t *unit_model(unsigned unit)
{
    return hwpq_model_unit(&units[unit]);
}

/* The device's counters (commands, register accesses), for the benchmarks. */
const hwpq_model_counts_t *takt_arm_hwpq_counts(unsigned unit)
{
    return unit < TAKT_PORT_HWPQ_UNITS ? &unit_model(unit)->counts : NULL;
}

/* A unit the board does not have reads 0 and ignores writes (no ID: the
 * driver refuses it), as on the sim. SysTick stops first and starts last,
 * so that what the clock sees of an access is the call and the two stores,
 * whatever the compiler does with the rest. */
uint32_t port_hwpq_read(unsigned unit, uint32_t offset)
{
    uint32_t csr = systick_stop();
    uint32_t value = unit < TAKT_PORT_HWPQ_UNITS ? hwpq_model_read(unit_model(unit), offset) : 0;
    systick_start(csr);
    return value;
}

void port_hwpq_write(unsigned unit, uint32_t offset, uint32_t value)
{
    uint32_t csr = systick_stop();
    if (unit < TAKT_PORT_HWPQ_UNITS) {
        hwpq_model_write(unit_model(unit), offset, value);
    }
    systick_start(csr);
}
