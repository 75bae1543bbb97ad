/* The C tests' kernel (config/takt_config.h) with the timer queue on the
 * hardware priority queue (the sim's model of hw/, unit 1): the schedule
 * tests run on it as on every software timer queue, and with the EDF ready
 * queue on unit 0 both of the HWDS study's queues are the device's. */
#ifndef TAKT_CONFIG_TIMER_HW_H
#define TAKT_CONFIG_TIMER_HW_H

#include "../config/takt_config.h"

#undef TAKT_CONFIG_TIMER_QUEUE
#define TAKT_CONFIG_TIMER_QUEUE TAKT_PQ_HW

#endif
