/* The C tests' kernel (config/takt_config.h) with one policy bound at
 * compile time (TAKT_CONFIG_POLICY_ONLY), as the FreeRTOS layer and the
 * benchmarks build it: the policy's operations are called directly (fp's
 * inline), the others are not linked, and some paths have a copy of their
 * own for a bound fp (a mutex's unlock that hands over and disinherits).
 * The kernel's target names the policy (TAKT_TEST_BOUND_POLICY). */
#ifndef TAKT_CONFIG_BOUND_H
#define TAKT_CONFIG_BOUND_H

#include "../config/takt_config.h"

#ifndef TAKT_TEST_BOUND_POLICY
#error "config_bound: the kernel target defines TAKT_TEST_BOUND_POLICY"
#endif
#undef TAKT_CONFIG_POLICY
#define TAKT_CONFIG_POLICY TAKT_TEST_BOUND_POLICY
#define TAKT_CONFIG_POLICY_ONLY 1

#endif
