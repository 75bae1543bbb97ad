/* The sim's hardware priority queues: the C model of hw/, at its registers. */
#include "port.h"
#include "takt/types.h"
#include "takt_sim.h"

/* A unit nobody configured is built at the largest depth on first use. */
static hwpq_model_unit_t units[TAKT_PORT_HWPQ_UNITS];

static hwpq_model_t *unit_model(unsigned unit)
{
    return hwpq_model_unit(&units[unit]);
}

int takt_sim_hwpq_configure(unsigned unit, uint32_t depth)
{
    if (unit >= TAKT_PORT_HWPQ_UNITS || !hwpq_model_init(&units[unit].model, depth)) {
        return TAKT_ERR_ARG;
    }
    units[unit].built = true;
    return TAKT_OK;
}

int takt_sim_hwpq_counts(unsigned unit, hwpq_model_counts_t *counts)
{
    if (unit >= TAKT_PORT_HWPQ_UNITS || counts == NULL) {
        return TAKT_ERR_ARG;
    }
    *counts = unit_model(unit)->counts;
    return TAKT_OK;
}

/* A unit the platform does not have reads 0 (no ID: the driver refuses it)
 * and ignores writes, as an undecoded bus address would. */
uint32_t port_hwpq_read(unsigned unit, uint32_t offset)
{
    return unit < TAKT_PORT_HWPQ_UNITS ? hwpq_model_read(unit_model(unit), offset) : 0;
}

void port_hwpq_write(unsigned unit, uint32_t offset, uint32_t value)
{
    if (unit < TAKT_PORT_HWPQ_UNITS) {
        hwpq_model_write(unit_model(unit), offset, value);
    }
}
