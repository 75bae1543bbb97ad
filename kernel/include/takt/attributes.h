/*
 * Compiler attributes shared by the kernel, its ports and the FreeRTOS layer.
 */
#ifndef TAKT_ATTRIBUTES_H
#define TAKT_ATTRIBUTES_H

/* Set-up and tear-down: creating and deleting objects, initialising and
 * starting the kernel. No timed path runs them, so they are compiled for size
 * (GCC's cold: optimised for size, placed apart from the hot text) and the
 * kernel's flash footprint is mostly its hot paths. */
#define TAKT_COLD __attribute__((cold))

#endif
