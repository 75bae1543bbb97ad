/* Compiles as is; each refusal test adds one unsupported thing (an option or a call). */
#include "FreeRTOS.h"
#include "task.h"
#ifdef USE_STREAM_BUFFER
#include "message_buffer.h"
#include "stream_buffer.h"
#endif

void use(TaskHandle_t task);

#ifdef CALL_TASK_CREATE
static void body(void *arg)
{
    (void)arg;
}
#endif

void use(TaskHandle_t task)
{
#ifdef CALL_GET_INFO
    vTaskGetInfo(task, NULL, pdFALSE, eInvalid);
#endif
#ifdef CALL_TASK_CREATE
    (void)xTaskCreate(body, "t", configMINIMAL_STACK_SIZE, NULL, 1, NULL);
#endif
#ifdef CALL_BATCHING_BUFFER
    (void)xStreamBatchingBufferCreate(64, 1);
#endif
#ifdef CALL_SB_CALLBACK
    (void)xMessageBufferCreateWithCallback(64, NULL, NULL);
#endif
#ifdef CALL_TASK_LIST
    char buffer[256];
    vTaskList(buffer);
#endif
#ifdef CALL_THREAD_LOCAL
    vTaskSetThreadLocalStoragePointer(task, 0, NULL);
#endif
#ifdef CALL_CATCH_UP
    (void)xTaskCatchUpTicks(1);
#endif
#ifdef CALL_STEP_TICK
    vTaskStepTick(1);
#endif
#ifdef CALL_SLEEP_STATUS
    (void)eTaskConfirmSleepModeStatus();
#endif
#ifdef CALL_TASK_STATIC_BUFFERS
    StackType_t *stack = NULL;
    StaticTask_t *tcb = NULL;
    (void)xTaskGetStaticBuffers(task, &stack, &tcb);
#endif
    vTaskSuspend(task);
}
