/* SysTick instruction meter of the target benchmarks (icount_meter.h). */
#include "icount_meter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "takt_armv7m.h"

unsigned meter_shift = 7;
uint32_t meter_read_cost;

void meter_begin(int argc, char **argv, unsigned tick_hz)
{
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--shift") == 0) {
            meter_shift = (unsigned)atoi(argv[i + 1]);
        }
    }
    printf("board,%s\nshift,%u\n", TAKT_BOARD_NAME, meter_shift);
    takt_arm_params_t p = {.tick_hz = tick_hz, .end_ticks = 0};
    takt_arm_configure(&p);
    SYST_CSR = 0;
    SYST_RVR = takt_arm_tick_counts() - 1u;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_ENABLE; /* counting, no interrupt */
    uint32_t a = cvr();
    uint32_t b = cvr();
    meter_read_cost = counts_between(a, b);
}

void meter_stop(void)
{
    SYST_CSR = 0;
}

void meter_report_masked(const char *key, const stats_t *s)
{
    if (!METER_MASKED) {
        return;
    }
    printf("masked,%s,%lu,%lu,%lu,%lu,%lu\n", key, (unsigned long)s->masked_n,
           (unsigned long)s->masked_min, (unsigned long)s->masked_max,
           (unsigned long)(s->masked_n ? s->masked_sum * 100u / s->masked_n : 0),
           (unsigned long)s->unmeasured);
}
