/* Servers in FreeRTOS style (server.h) on Takt's servers (takt/server.h). */
#include "compat.h"
#include "server.h"

static BaseType_t result_of(int err)
{
    if (err == TAKT_OK) {
        return pdPASS;
    }
    return err == TAKT_ERR_NOMEM ? errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY : pdFAIL;
}

TAKT_COLD BaseType_t xServerCreate(TickType_t xPeriod, TickType_t xBudget, UBaseType_t uxPriority,
                         eServerType eType, const char *pcName, ServerHandle_t *pxCreatedServer)
{
    if (uxPriority >= (UBaseType_t)configMAX_PRIORITIES) {
        return pdFAIL; /* unlike a task's, a server's priority is not capped silently */
    }
    compat_kernel_ready();
    takt_server_params_t params = {.name = pcName, .priority = compat_takt_priority(uxPriority),
                                   .period = xPeriod, .budget = xBudget,
                                   .type = eType == eServerDeferrable ? TAKT_SERVER_DEFERRABLE
                                                                      : TAKT_SERVER_IDLING};
    if (eType != eServerIdling && eType != eServerDeferrable) {
        return pdFAIL;
    }
    takt_server_t *server = NULL;
    int err = takt_server_create(&params, &server);
    if (err == TAKT_OK && pxCreatedServer != NULL) {
        *pxCreatedServer = server;
    }
    return result_of(err);
}

static BaseType_t create_in(ServerHandle_t xServer, const takt_task_params_t *params,
                            TaskHandle_t *pxCreatedTask)
{
    if (takt_server_index(xServer) < 0) {
        return pdFAIL;
    }
    compat_kernel_ready();
    takt_task_t *task = NULL;
    int err = takt_server_task_create(xServer, params, &task);
    if (err == TAKT_OK && pxCreatedTask != NULL) {
        *pxCreatedTask = task;
    }
    return err == TAKT_OK ? pdPASS : errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY;
}

TAKT_COLD BaseType_t xServerTaskCreate(ServerHandle_t xServer, TaskFunction_t pxTaskCode, const char *pcName,
                             configSTACK_DEPTH_TYPE uxStackDepth, void *pvParameters,
                             UBaseType_t uxPriority, TaskHandle_t *pxCreatedTask)
{
    takt_task_params_t params = {.name = pcName, .entry = pxTaskCode, .arg = pvParameters,
                                 .priority = compat_takt_priority(uxPriority),
                                 .stack_size = compat_stack_bytes(uxStackDepth)};
    return create_in(xServer, &params, pxCreatedTask);
}

TAKT_COLD BaseType_t xServerTaskCreatePeriodic(ServerHandle_t xServer, TaskFunction_t pxTaskCode,
                                     const char *pcName, configSTACK_DEPTH_TYPE uxStackDepth,
                                     void *pvParameters, UBaseType_t uxPriority, TickType_t xPeriod,
                                     TickType_t xDeadline, TickType_t xOffset,
                                     TaskHandle_t *pxCreatedTask)
{
    if (xPeriod == 0) {
        return errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY; /* as xTaskCreatePeriodic */
    }
    takt_task_params_t params = {.name = pcName, .entry = pxTaskCode, .arg = pvParameters,
                                 .priority = compat_takt_priority(uxPriority),
                                 .stack_size = compat_stack_bytes(uxStackDepth),
                                 .period = xPeriod, .deadline = xDeadline, .offset = xOffset};
    return create_in(xServer, &params, pxCreatedTask);
}

TickType_t xServerGetRemainingBudget(ServerHandle_t xServer)
{
    int32_t budget = takt_server_remaining_budget(xServer);
    return budget > 0 ? (TickType_t)budget : 0u;
}

BaseType_t xServerGetStats(ServerHandle_t xServer, ServerStats_t *pxStats)
{
    takt_server_stats_t stats;
    if (pxStats == NULL || takt_server_stats(xServer, &stats) != TAKT_OK) {
        return pdFAIL;
    }
    pxStats->ullBudgetConsumed = stats.budget_consumed;
    pxStats->uxDepletions = stats.depletions;
    pxStats->uxOverrunTicks = stats.overrun_ticks;
    pxStats->uxReplenishments = stats.replenishments;
    pxStats->uxDeadlineMisses = stats.deadline_misses;
    return pdPASS;
}

ServerHandle_t xServerGetCurrentServerHandle(void)
{
    return takt_server_running();
}

const char *pcServerGetName(ServerHandle_t xServer)
{
    return takt_server_name(xServer);
}

BaseType_t xServerSetTimerServer(ServerHandle_t xServer)
{
    compat_kernel_ready();
    return takt_soft_timer_set_server(xServer) == TAKT_OK ? pdPASS : pdFAIL;
}
