/*
 * vSemaphoreCreateBinary, FreeRTOS's old form: the semaphore comes given,
 * so the first take succeeds at once and the second waits, where
 * xSemaphoreCreateBinary's starts empty.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include "rtos_check.h"
#include "semphr.h"

static void control_task(void *arg)
{
    (void)arg;
    SemaphoreHandle_t old_style = NULL;
    vSemaphoreCreateBinary(old_style);
    SemaphoreHandle_t new_style = xSemaphoreCreateBinary();
    CHECK(old_style != NULL && new_style != NULL, "both created");
    CHECK(uxSemaphoreGetCount(old_style) == 1 && uxSemaphoreGetCount(new_style) == 0,
          "the old form is given, the new one empty");
    CHECK(xSemaphoreTake(old_style, 0) == pdTRUE, "the first take succeeds at once");
    TickType_t t0 = xTaskGetTickCount();
    CHECK(xSemaphoreTake(old_style, 3) == pdFALSE && xTaskGetTickCount() == t0 + 3,
          "the second waits out its block time");
    CHECK(xSemaphoreGive(old_style) == pdTRUE && xSemaphoreGive(old_style) == pdFALSE,
          "it is binary: one give fits, the next fails");
    vSemaphoreDelete(old_style);
    vSemaphoreDelete(new_style);
    vTaskEndScheduler();
}

int main(void)
{
    xTaskCreate(control_task, "ctl", configMINIMAL_STACK_SIZE, NULL, 2, NULL);
    vTaskStartScheduler();
    return rtos_check_summary();
}
