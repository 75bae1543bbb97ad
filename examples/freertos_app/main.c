/*
 * A FreeRTOS application that knows nothing of Takt: a sensor task sends
 * readings through a queue to a logger task, a mutex guards the output, a
 * software timer counts heartbeats. It ends the scheduler after five readings
 * (on the sim port vTaskStartScheduler then returns).
 */
#include <stdio.h>
#include <stdlib.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#include "timers.h"

#define READINGS 5

static QueueHandle_t readings;
static SemaphoreHandle_t print_lock;
static volatile unsigned heartbeats;

static void say(const char *what, unsigned value)
{
    xSemaphoreTake(print_lock, portMAX_DELAY);
    printf("[%3lu ms] %s %u\n", (unsigned long)pdTICKS_TO_MS(xTaskGetTickCount()), what, value);
    xSemaphoreGive(print_lock);
}

static void sensor_task(void *arg)
{
    (void)arg;
    TickType_t wake = xTaskGetTickCount();
    for (unsigned reading = 1;; reading++) {
        xTaskDelayUntil(&wake, pdMS_TO_TICKS(20));
        xQueueSend(readings, &reading, portMAX_DELAY);
    }
}

static void logger_task(void *arg)
{
    (void)arg;
    for (unsigned n = 0; n < READINGS; n++) {
        unsigned reading;
        xQueueReceive(readings, &reading, portMAX_DELAY);
        say("reading", reading);
    }
    say("heartbeats", heartbeats);
    printf("freertos_app: %s\n", heartbeats == READINGS * 2 ? "OK" : "WRONG HEARTBEAT COUNT");
    vTaskEndScheduler();
    vTaskDelete(NULL);
}

static void heartbeat(TimerHandle_t timer)
{
    (void)timer;
    heartbeats++;
}

void app_assert_failed(const char *file, int line)
{
    printf("assertion failed at %s:%d\n", file, line);
    abort();
}

void vApplicationMallocFailedHook(void)
{
    printf("out of memory\n");
    abort();
}

void vApplicationStackOverflowHook(TaskHandle_t task, char *name)
{
    (void)task;
    printf("stack overflow in %s\n", name);
    abort();
}

int main(void)
{
    readings = xQueueCreate(4, sizeof(unsigned));
    print_lock = xSemaphoreCreateMutex();
    TimerHandle_t timer = xTimerCreate("beat", pdMS_TO_TICKS(10), pdTRUE, NULL, heartbeat);
    configASSERT(readings != NULL && print_lock != NULL && timer != NULL);
    xTimerStart(timer, 0);
    xTaskCreate(sensor_task, "sensor", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    xTaskCreate(logger_task, "logger", configMINIMAL_STACK_SIZE, NULL, 1, NULL);
    vTaskStartScheduler();
    return 0;
}
