/* The target harness kernel (config_harness/takt_config.h) with the fp policy
 * bound at compile time, as the FreeRTOS layer and the benchmarks build it
 * (the sim's tests/c/config_bound, with fp, is the same for the sim kernel). */
#ifndef TAKT_CONFIG_HARNESS_FP_BOUND_H
#define TAKT_CONFIG_HARNESS_FP_BOUND_H

#include "../config_harness/takt_config.h"

#define TAKT_CONFIG_POLICY_ONLY 1

#endif
