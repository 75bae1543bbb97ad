/*
 * The busy loop of known length: the clock checks (a loop of n iterations is
 * the call, 2n loop instructions and the return) and the work model's chunks
 * use it. No kernel in it, so a program on another kernel links it too.
 */
#include "takt_armv7m.h"

__attribute__((naked, noinline)) void takt_arm_spin(uint32_t iterations)
{
    (void)iterations;
    __asm volatile(
        "cbz r0, 2f\n"
        "1: subs r0, r0, #1\n"
        "bne 1b\n"
        "2: bx lr\n");
}
