/*
 * The FreeRTOS layer on a target port: the port needs nothing before
 * takt_init, and the scheduler never ends (vTaskEndScheduler has no effect,
 * as on most FreeRTOS ports).
 */
#include "compat.h"

void compat_port_prepare(void)
{
}

void compat_port_end_scheduler(void)
{
}
