/* The target harness kernel with fp bound (config_harness_fp_bound) and one
 * notification slot, as the FreeRTOS layer builds it by default (the sim's
 * tests/c/config_one_slot is the same for the sim kernel). */
#ifndef TAKT_CONFIG_HARNESS_ONE_SLOT_H
#define TAKT_CONFIG_HARNESS_ONE_SLOT_H

#include "../config_harness_fp_bound/takt_config.h"

#undef TAKT_CONFIG_TASK_NOTIFICATIONS
#define TAKT_CONFIG_TASK_NOTIFICATIONS 1

#endif
