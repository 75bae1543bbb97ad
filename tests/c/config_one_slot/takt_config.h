/* The C tests' kernel with fp bound (config_bound) and one notification
 * slot, as the FreeRTOS layer builds it by default: a slot index that passed
 * its check is then 0, which the notification paths use (a wait's slot needs
 * no compare). */
#ifndef TAKT_CONFIG_ONE_SLOT_H
#define TAKT_CONFIG_ONE_SLOT_H

#define TAKT_TEST_BOUND_POLICY TAKT_POLICY_FP
#include "../config_bound/takt_config.h"

#undef TAKT_CONFIG_TASK_NOTIFICATIONS
#define TAKT_CONFIG_TASK_NOTIFICATIONS 1

#endif
