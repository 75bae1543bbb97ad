/* Types and result codes shared by every part of the public API. */
#ifndef TAKT_TYPES_H
#define TAKT_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Kernel time in ticks. 32 bits, wraps; compare with takt_tick_before(). */
typedef uint32_t takt_tick_t;

/* Result codes: 0 is success, errors are negative. Every API call that can fail
 * returns one of these and leaves kernel state unchanged on error. */
typedef enum {
    TAKT_OK = 0,
    TAKT_ERR_ARG = -1,     /* an argument is invalid: null or deleted handle, out-of-range value */
    TAKT_ERR_NOMEM = -2,   /* dynamic allocation failed or is configured off */
    TAKT_ERR_STATE = -3,   /* the object is not in a state that allows the call */
    TAKT_ERR_CONTEXT = -4, /* not allowed from this context (interrupt, before start, idle task) */
    TAKT_ERR_TIMEOUT = -5, /* the object did not become ready within the timeout (takt/sync.h) */
} takt_result_t;

/* True if tick a is before tick b, across the wraparound (half-range rule). */
static inline bool takt_tick_before(takt_tick_t a, takt_tick_t b)
{
    return (int32_t)(a - b) < 0;
}

#endif
