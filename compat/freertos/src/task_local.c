/*
 * Per-task values the application keeps: the application task tag
 * (configUSE_APPLICATION_TASK_TAG) and thread-local storage pointers
 * (configNUM_THREAD_LOCAL_STORAGE_POINTERS), in the task's kernel words
 * (TAKT_CONFIG_TASK_USER_WORDS; takt_freertos_config.h lays them out). One
 * word is read or written whole, so no critical section is needed.
 */
#include "compat.h"
#include "port.h" /* takt_sched_running: the task an interrupt interrupted */
#include "task.h"

#if configUSE_APPLICATION_TASK_TAG || configNUM_THREAD_LOCAL_STORAGE_POINTERS > 0
/* The task's words (NULL: the caller's); NULL, after configASSERT, for a bad
 * handle or a NULL handle outside a task. */
static uintptr_t *words_of(TaskHandle_t xTask)
{
    uintptr_t *words = takt_task_user_words(xTask);
    configASSERT(words != NULL);
    return words;
}
#endif

#if configUSE_APPLICATION_TASK_TAG
void vTaskSetApplicationTaskTag(TaskHandle_t xTask, TaskHookFunction_t pxHookFunction)
{
    uintptr_t *words = words_of(xTask);
    if (words != NULL) {
        words[TAKT_FREERTOS_WORD_TAG] = (uintptr_t)pxHookFunction;
    }
}

TaskHookFunction_t xTaskGetApplicationTaskTag(TaskHandle_t xTask)
{
    uintptr_t *words = words_of(xTask);
    return words != NULL ? (TaskHookFunction_t)words[TAKT_FREERTOS_WORD_TAG] : NULL;
}

TaskHookFunction_t xTaskGetApplicationTaskTagFromISR(TaskHandle_t xTask)
{
    /* NULL from an interrupt is the interrupted task, as in FreeRTOS. */
    if (xTask == NULL) {
        xTask = takt_sched_running();
    }
    return xTaskGetApplicationTaskTag(xTask);
}

BaseType_t xTaskCallApplicationTaskHook(TaskHandle_t xTask, void *pvParameter)
{
    if (xTask == NULL && takt_in_isr()) {
        xTask = takt_sched_running();
    }
    TaskHookFunction_t hook = xTaskGetApplicationTaskTag(xTask);
    return hook != NULL ? hook(pvParameter) : pdFAIL;
}
#endif

#if configNUM_THREAD_LOCAL_STORAGE_POINTERS > 0
static bool index_valid(BaseType_t xIndex)
{
    bool valid = xIndex >= 0 && xIndex < (BaseType_t)configNUM_THREAD_LOCAL_STORAGE_POINTERS;
    configASSERT(valid);
    return valid;
}

void vTaskSetThreadLocalStoragePointer(TaskHandle_t xTaskToSet, BaseType_t xIndex, void *pvValue)
{
    uintptr_t *words = index_valid(xIndex) ? words_of(xTaskToSet) : NULL;
    if (words != NULL) {
        words[TAKT_FREERTOS_WORD_TLS + xIndex] = (uintptr_t)pvValue;
    }
}

void *pvTaskGetThreadLocalStoragePointer(TaskHandle_t xTaskToQuery, BaseType_t xIndex)
{
    uintptr_t *words = index_valid(xIndex) ? words_of(xTaskToQuery) : NULL;
    return words != NULL ? (void *)words[TAKT_FREERTOS_WORD_TLS + xIndex] : NULL;
}
#endif
