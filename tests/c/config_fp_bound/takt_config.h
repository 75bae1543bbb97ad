/* The C tests' kernel (config/takt_config.h) with the fp policy bound at
 * compile time, as the FreeRTOS layer builds it: the policy's operations are
 * inline there, and some paths have a copy of their own for it (a mutex's
 * unlock that hands over and disinherits), which the tests built against
 * this kernel run. */
#ifndef TAKT_CONFIG_FP_BOUND_H
#define TAKT_CONFIG_FP_BOUND_H

#include "../config/takt_config.h"

#define TAKT_CONFIG_POLICY_ONLY 1

#endif
