/*
 * Servers in FreeRTOS style: a Takt extension (not FreeRTOS API) for
 * configTAKT_POLICY TAKT_POLICY_HSF, two-level hierarchical scheduling
 * (kernel/include/takt/server.h, docs/freertos.md "Servers"). Include after
 * FreeRTOS.h.
 *
 * A server has a period and a budget in ticks, a priority (FreeRTOS numbering:
 * 0 .. configMAX_PRIORITIES-1, higher runs first; ties: the server created
 * first) and a type. Its budget is set to the full budget at every period;
 * it drops by one per tick the server runs.
 *   eServerIdling:     runs whenever it is the highest server with budget;
 *                      with no ready task its budget is burnt idling.
 *   eServerDeferrable: runs only while it has budget and a ready task; a
 *                      server whose tasks all block keeps its budget and lets
 *                      lower servers run.
 * Every task lives in a server: under hsf, xTaskCreate and xTaskCreateStatic
 * do not compile (use xServerTaskCreate), and the timer service task needs
 * xServerSetTimerServer before the first timer.
 */
#ifndef TAKT_FREERTOS_SERVER_H
#define TAKT_FREERTOS_SERVER_H

#include "FreeRTOS.h"
#include "task.h"

typedef struct takt_server *ServerHandle_t;

typedef enum {
    eServerIdling = 0,
    eServerDeferrable = 1,
} eServerType;

typedef struct {
    uint64_t ullBudgetConsumed;     /* ticks charged since creation (its tasks' and its idle's) */
    UBaseType_t uxDepletions;       /* times the budget reached 0 */
    UBaseType_t uxReplenishments;   /* the first one (at creation or start) included */
    UBaseType_t uxDeadlineMisses;   /* of its periodic tasks' jobs */
    UBaseType_t uxOverrunTicks;     /* ticks its task ran on with the budget spent, inside
                                       vTaskSuspendAll (or caught up): not in ullBudgetConsumed */
} ServerStats_t;

/*
 * Creates a server whose first budget comes at the start of the scheduler (or
 * at once when created while it runs). Returns pdPASS and the handle in
 * *pxCreatedServer (may be NULL); errCOULD_NOT_ALLOCATE_REQUIRED_MEMORY when
 * out of memory or configTAKT_MAX_SERVERS servers exist; pdFAIL for a period
 * of 0, a budget of 0 or above the period, a priority of configMAX_PRIORITIES
 * or more, an unknown type, or without TAKT_POLICY_HSF. Nothing changes on
 * failure. Not from an interrupt.
 */
BaseType_t xServerCreate(TickType_t xPeriod, TickType_t xBudget, UBaseType_t uxPriority,
                         eServerType eType, const char *pcName, ServerHandle_t *pxCreatedServer);

/* As xTaskCreate, inside xServer; uxPriority is the task's priority within the
 * server. pdFAIL for a bad server handle. */
BaseType_t xServerTaskCreate(ServerHandle_t xServer, TaskFunction_t pxTaskCode, const char *pcName,
                             configSTACK_DEPTH_TYPE uxStackDepth, void *pvParameters,
                             UBaseType_t uxPriority, TaskHandle_t *pxCreatedTask);

/* As xTaskCreatePeriodic (task.h), inside xServer. */
BaseType_t xServerTaskCreatePeriodic(ServerHandle_t xServer, TaskFunction_t pxTaskCode,
                                     const char *pcName, configSTACK_DEPTH_TYPE uxStackDepth,
                                     void *pvParameters, UBaseType_t uxPriority, TickType_t xPeriod,
                                     TickType_t xDeadline, TickType_t xOffset,
                                     TaskHandle_t *pxCreatedTask);

/* Budget left in the current period, in ticks. NULL: the running server (0
 * while no server runs). 0 for a bad handle. Any context. */
TickType_t xServerGetRemainingBudget(ServerHandle_t xServer);

/* Copies the server's counters. pdFAIL for a bad handle or a NULL pxStats. Any context. */
BaseType_t xServerGetStats(ServerHandle_t xServer, ServerStats_t *pxStats);

/* The running server; NULL while no server runs (the idle server). Any context. */
ServerHandle_t xServerGetCurrentServerHandle(void);

/* The server's name; NULL for a bad handle. */
const char *pcServerGetName(ServerHandle_t xServer);

/* The server the timer service task will live in; call before the first
 * xTimerCreate / xTimerPendFunctionCall (until then they fail: NULL / pdFAIL).
 * pdFAIL for a bad handle, once the timer task exists, or without hsf. */
BaseType_t xServerSetTimerServer(ServerHandle_t xServer);

#endif
