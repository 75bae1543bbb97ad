/* The tests' random numbers: Marsaglia's 32-bit xorshift (13, 17, 5). Each
 * caller keeps its own state (never 0), so a test's stream, and the runs it
 * drives, are the same on every host and board. */
#ifndef TAKT_TEST_XORSHIFT_H
#define TAKT_TEST_XORSHIFT_H

#include <stdint.h>

static inline uint32_t xorshift32(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

#endif
