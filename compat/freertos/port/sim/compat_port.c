/*
 * The FreeRTOS layer on the sim port: one tick is 1/configTICK_RATE_HZ of
 * virtual time; the run ends at vTaskEndScheduler or after configTAKT_SIM_END_MS
 * of virtual time. Code between blocking calls takes no virtual time on the
 * sim: a task that must look busy calls takt_sim_work (takt_sim.h).
 */
#include "compat.h"
#include "takt_sim.h"

void compat_port_prepare(void)
{
    takt_sim_params_t params = {
        .tick_period_ns = 1000000000ull / (uint64_t)configTICK_RATE_HZ,
        .end_ns = configTAKT_SIM_END_MS > 0 ? (uint64_t)configTAKT_SIM_END_MS * 1000000ull : UINT64_MAX,
    };
    int err = takt_sim_configure(&params);
    configASSERT(err == TAKT_OK);
    (void)err;
}

void compat_port_end_scheduler(void)
{
    takt_sim_stop();
}
