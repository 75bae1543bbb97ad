/* The C tests' kernel (config/takt_config.h) with run-time accounting and
 * two application words per task (test_task_info.c): the counter is the
 * harness's virtual time, so every run time is exact. */
#ifndef TAKT_CONFIG_RUN_TIME_H
#define TAKT_CONFIG_RUN_TIME_H

#include <stdint.h>

#include "../config/takt_config.h"

uint32_t test_run_time_counter(void); /* test_task_info.c: virtual test ns */
#define TAKT_CONFIG_RUN_TIME_STATS 1
#define TAKT_CONFIG_RUN_TIME_COUNTER() test_run_time_counter()
#define TAKT_CONFIG_TASK_USER_WORDS 2

#endif
