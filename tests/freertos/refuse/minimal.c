/* Compiles as is; each refusal test adds one unsupported thing (an option or a call). */
#include "FreeRTOS.h"
#include "task.h"
#ifdef USE_STREAM_BUFFER
#include "stream_buffer.h"
#endif

void use(TaskHandle_t task);

void use(TaskHandle_t task)
{
#ifdef CALL_ABORT_DELAY
    (void)xTaskAbortDelay(task);
#endif
#ifdef CALL_TASK_LIST
    char buffer[256];
    vTaskList(buffer);
#endif
    vTaskSuspend(task);
}
