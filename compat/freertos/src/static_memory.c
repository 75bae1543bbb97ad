/*
 * The idle and timer tasks' memory under configSUPPORT_STATIC_ALLOCATION, as
 * FreeRTOS takes it: control block and stack from the application's
 * vApplicationGetIdleTaskMemory and vApplicationGetTimerTaskMemory (the
 * kernel asks through takt_idle_memory and takt_soft_timer_memory, and holds
 * no control block of its own for either then). An application that gives
 * its idle task a larger stack than configMINIMAL_STACK_SIZE (for a heavy idle
 * hook) gets it, and xTaskGetIdleTaskHandle() is its StaticTask_t, as in
 * FreeRTOS.
 *
 * With configKERNEL_PROVIDED_STATIC_MEMORY 1 the layer defines both functions
 * over buffers of its own (FreeRTOS's sizes: configMINIMAL_STACK_SIZE and
 * configTIMER_TASK_STACK_DEPTH words), as FreeRTOS V11.1 does, and the
 * application must not; otherwise those definitions are weak, so that an
 * application that defines neither (FreeRTOS would not link it) runs as
 * before.
 */
#include "compat.h"
#include "task.h"
#if configUSE_TIMERS
#include "timers.h"
#endif

#if configSUPPORT_STATIC_ALLOCATION

typedef void (*task_memory_fn)(StaticTask_t **tcb, StackType_t **stack, configSTACK_DEPTH_TYPE *depth);

/* What the kernel asks for: the control block, the stack and its size in
 * bytes. */
static void memory_from(task_memory_fn get_memory, takt_task_t **tcb, void **stack, size_t *size)
{
    StaticTask_t *block = NULL;
    StackType_t *buffer = NULL;
    configSTACK_DEPTH_TYPE depth = 0;
    get_memory(&block, &buffer, &depth);
    *tcb = block;
    *stack = buffer;
    *size = compat_stack_bytes(depth);
}

#if configKERNEL_PROVIDED_STATIC_MEMORY
#define LAYER_DEFAULT
#else
#define LAYER_DEFAULT __attribute__((weak))
#endif

LAYER_DEFAULT void vApplicationGetIdleTaskMemory(StaticTask_t **ppxIdleTaskTCBBuffer,
                                                 StackType_t **ppxIdleTaskStackBuffer,
                                                 configSTACK_DEPTH_TYPE *puxIdleTaskStackSize)
{
    static StaticTask_t tcb;
    static StackType_t stack[configMINIMAL_STACK_SIZE] __attribute__((aligned(16)));
    *ppxIdleTaskTCBBuffer = &tcb;
    *ppxIdleTaskStackBuffer = stack;
    *puxIdleTaskStackSize = (configSTACK_DEPTH_TYPE)configMINIMAL_STACK_SIZE;
}

void takt_idle_memory(takt_task_t **tcb, void **stack, size_t *size)
{
    memory_from(vApplicationGetIdleTaskMemory, tcb, stack, size);
}

#if configUSE_TIMERS
LAYER_DEFAULT void vApplicationGetTimerTaskMemory(StaticTask_t **ppxTimerTaskTCBBuffer,
                                                  StackType_t **ppxTimerTaskStackBuffer,
                                                  configSTACK_DEPTH_TYPE *puxTimerTaskStackSize)
{
    static StaticTask_t tcb;
    static StackType_t stack[configTIMER_TASK_STACK_DEPTH] __attribute__((aligned(16)));
    *ppxTimerTaskTCBBuffer = &tcb;
    *ppxTimerTaskStackBuffer = stack;
    *puxTimerTaskStackSize = (configSTACK_DEPTH_TYPE)configTIMER_TASK_STACK_DEPTH;
}

void takt_soft_timer_memory(takt_task_t **tcb, void **stack, size_t *size)
{
    memory_from(vApplicationGetTimerTaskMemory, tcb, stack, size);
}
#endif

#endif
