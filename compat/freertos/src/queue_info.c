/*
 * Queue introspection: the queue registry (configQUEUE_REGISTRY_SIZE) and
 * the trace facility's queue numbers and types (configUSE_TRACE_FACILITY).
 */
#include "compat.h"
#include "queue.h"

#if configQUEUE_REGISTRY_SIZE > 0
typedef struct {
    QueueHandle_t queue; /* NULL: a free entry */
    const char *name;
} registry_entry_t;

/* Named as FreeRTOS names it, so that debuggers that show the registry find it. */
registry_entry_t xQueueRegistry[configQUEUE_REGISTRY_SIZE];

void vQueueAddToRegistry(QueueHandle_t xQueue, const char *pcQueueName)
{
    configASSERT(xQueue != NULL);
    if (xQueue == NULL || pcQueueName == NULL) {
        return;
    }
    UBaseType_t key = portSET_INTERRUPT_MASK_FROM_ISR();
    registry_entry_t *free_entry = NULL;
    registry_entry_t *entry = NULL;
    for (unsigned i = 0; i < configQUEUE_REGISTRY_SIZE && entry == NULL; i++) {
        if (xQueueRegistry[i].queue == xQueue) {
            entry = &xQueueRegistry[i];
        } else if (free_entry == NULL && xQueueRegistry[i].queue == NULL) {
            free_entry = &xQueueRegistry[i];
        }
    }
    if (entry == NULL) {
        entry = free_entry;
    }
    if (entry != NULL) {
        entry->queue = xQueue;
        entry->name = pcQueueName;
        traceQUEUE_REGISTRY_ADD(xQueue, pcQueueName);
    }
    portCLEAR_INTERRUPT_MASK_FROM_ISR(key);
}

void vQueueUnregisterQueue(QueueHandle_t xQueue)
{
    configASSERT(xQueue != NULL);
    UBaseType_t key = portSET_INTERRUPT_MASK_FROM_ISR();
    for (unsigned i = 0; i < configQUEUE_REGISTRY_SIZE; i++) {
        if (xQueueRegistry[i].queue == xQueue) {
            xQueueRegistry[i] = (registry_entry_t){NULL, NULL};
        }
    }
    portCLEAR_INTERRUPT_MASK_FROM_ISR(key);
}

const char *pcQueueGetName(QueueHandle_t xQueue)
{
    const char *name = NULL;
    UBaseType_t key = portSET_INTERRUPT_MASK_FROM_ISR();
    for (unsigned i = 0; i < configQUEUE_REGISTRY_SIZE && name == NULL; i++) {
        if (xQueueRegistry[i].queue == xQueue && xQueue != NULL) {
            name = xQueueRegistry[i].name;
        }
    }
    portCLEAR_INTERRUPT_MASK_FROM_ISR(key);
    return name;
}
#endif

#if configUSE_TRACE_FACILITY
UBaseType_t uxQueueGetQueueNumber(QueueHandle_t xQueue)
{
    configASSERT(xQueue != NULL);
    return xQueue != NULL ? xQueue->number : 0u;
}

void vQueueSetQueueNumber(QueueHandle_t xQueue, UBaseType_t uxQueueNumber)
{
    configASSERT(xQueue != NULL);
    if (xQueue != NULL) {
        xQueue->number = uxQueueNumber;
    }
}

uint8_t ucQueueGetQueueType(QueueHandle_t xQueue)
{
    configASSERT(xQueue != NULL);
    return xQueue != NULL ? xQueue->type : queueQUEUE_TYPE_BASE;
}
#endif
