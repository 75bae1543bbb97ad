/*
 * Test tasks under every policy. Under hsf every task lives in a server, so a
 * program that runs under hsf too creates its tasks in rtos_server (it
 * creates that server first: one deferrable server with a full budget gives
 * the tasks fp's schedule); under the other policies they are plain tasks.
 */
#ifndef RTOS_TASKS_H
#define RTOS_TASKS_H

#include "FreeRTOS.h"
#include "task.h"

#if configTAKT_POLICY == TAKT_POLICY_HSF
#include "server.h"

static ServerHandle_t rtos_server;
#define RTOS_TASK_CREATE(code, name, prio, out) \
    xServerTaskCreate(rtos_server, (code), (name), configMINIMAL_STACK_SIZE, NULL, (prio), (out))
#else
#define RTOS_TASK_CREATE(code, name, prio, out) \
    xTaskCreate((code), (name), configMINIMAL_STACK_SIZE, NULL, (prio), (out))
#endif

#endif
