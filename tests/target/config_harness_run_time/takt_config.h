/* The target harness kernel (config_harness) with run-time accounting and two
 * application words per task, for test_task_info.c (the sim's
 * tests/c/config_run_time is the same for the sim kernel). The counter is the
 * harness's test time, snapped to the instant it belongs to. */
#ifndef TAKT_CONFIG_HARNESS_RUN_TIME_H
#define TAKT_CONFIG_HARNESS_RUN_TIME_H

#include <stdint.h>

#include "../config_harness/takt_config.h"

uint32_t test_run_time_counter(void); /* test_task_info.c: test ns */
#define TAKT_CONFIG_RUN_TIME_STATS 1
#define TAKT_CONFIG_RUN_TIME_COUNTER() test_run_time_counter()
#define TAKT_CONFIG_TASK_USER_WORDS 2

#endif
