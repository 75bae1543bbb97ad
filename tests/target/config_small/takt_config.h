/* The sim's small-ring kernel (tests/c/config_small: a 16-event trace ring,
 * no drain hook, hooks off) with RAM-sized stacks, for test_trace_overflow. */
#ifndef TAKT_CONFIG_TARGET_SMALL_H
#define TAKT_CONFIG_TARGET_SMALL_H

#include "../../c/config_small/takt_config.h"

#undef TAKT_CONFIG_IDLE_STACK_SIZE
#define TAKT_CONFIG_IDLE_STACK_SIZE 2048
#undef TAKT_CONFIG_SOFT_TIMER_STACK_SIZE
#define TAKT_CONFIG_SOFT_TIMER_STACK_SIZE 2048

#endif
