/* The C tests' kernel (config/takt_config.h) with the timer queue a
 * sorted list instead of a red-black tree: the schedule tests run on every timer
 * queue a build can choose (the runner's is the heap). */
#ifndef TAKT_CONFIG_TIMER_LIST_H
#define TAKT_CONFIG_TIMER_LIST_H

#include "../config/takt_config.h"

#undef TAKT_CONFIG_TIMER_QUEUE
#define TAKT_CONFIG_TIMER_QUEUE TAKT_PQ_LIST

#endif
