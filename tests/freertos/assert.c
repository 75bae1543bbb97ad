/*
 * configASSERT catches API misuse: the program commits the misuse named by its
 * argument; its configASSERT handler prints where it fired and exits. ctest
 * expects the message from the layer's source (and fails if the misuse passed).
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert_hooks.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"

static void task(void *arg)
{
    (void)arg;
    vTaskDelete(NULL);
}

int main(int argc, char **argv)
{
    const char *misuse = argc > 1 ? argv[1] : "";
    if (strcmp(misuse, "priority") == 0) {
        xTaskCreate(task, "t", configMINIMAL_STACK_SIZE, NULL, configMAX_PRIORITIES, NULL);
    } else if (strcmp(misuse, "kind") == 0) {
        SemaphoreHandle_t sem = xSemaphoreCreateBinary();
        uint32_t item = 1;
        xQueueSend(sem, &item, 0); /* a semaphore is not a queue of items */
    } else if (strcmp(misuse, "counting") == 0) {
        (void)xSemaphoreCreateCounting(2, 3); /* initial count above the maximum */
    }
    printf("no assertion for '%s'\n", misuse);
    return 1;
}
