/*
 * configASSERT catches misuse of the optional calls (built with the task
 * introspection options: tags, thread-local storage): a thread-local storage
 * index out of range, a task tag for a handle that is no task, a stream
 * buffer notification index out of range, a completion call without a
 * buffer. Run as assert.c: the handler prints where it fired and exits;
 * ctest expects the layer's source file.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert_hooks.h"
#include "stream_buffer.h"
#include "task.h"

void vTestConfigureRunTimeCounter(void) {}
uint32_t ulTestRunTimeCounter(void)
{
    return 0;
}

static void task(void *arg)
{
    (void)arg;
    vTaskDelete(NULL);
}

static StaticTask_t never_created;

int main(int argc, char **argv)
{
    const char *misuse = argc > 1 ? argv[1] : "";
    TaskHandle_t created = NULL;
    if (xTaskCreate(task, "t", configMINIMAL_STACK_SIZE, NULL, 1, &created) != pdPASS) {
        printf("no task\n");
        return 1;
    }
    if (strcmp(misuse, "tls_set_index") == 0) {
        vTaskSetThreadLocalStoragePointer(created, configNUM_THREAD_LOCAL_STORAGE_POINTERS, NULL);
    } else if (strcmp(misuse, "tls_get_index") == 0) {
        (void)pvTaskGetThreadLocalStoragePointer(created, -1);
    } else if (strcmp(misuse, "tag_handle") == 0) {
        vTaskSetApplicationTaskTag((TaskHandle_t)&never_created, NULL); /* no task */
    } else if (strcmp(misuse, "sb_notification_index") == 0) {
        StreamBufferHandle_t buffer = xStreamBufferCreate(8, 1);
        vStreamBufferSetStreamBufferNotificationIndex(buffer, configTASK_NOTIFICATION_ARRAY_ENTRIES);
    } else if (strcmp(misuse, "sb_completed_null") == 0) {
        (void)xStreamBufferSendCompletedFromISR(NULL, NULL);
    }
    printf("no assertion for '%s'\n", misuse);
    return 1;
}
