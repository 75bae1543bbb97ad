/*
 * The formatted task lists (configUSE_STATS_FORMATTING_FUNCTIONS):
 * vTaskListTasks and the run-time table, one line per task in FreeRTOS's
 * documented layout, written straight from the kernel's walk over the tasks.
 * A line goes in whole or not at all, so the output never ends in a cut line
 * and never passes the buffer's length.
 */
#include <stdio.h>
#include <string.h>

#include "compat.h"
#include "task.h"
#include "task_info.h"

#if configUSE_STATS_FORMATTING_FUNCTIONS && configUSE_TRACE_FACILITY

/* Longest line: the padded name, four numbers of up to 20 digits, tabs, "\r\n". */
#define LINE_MAX (configMAX_TASK_NAME_LEN + 4 * 21 + 8)

typedef struct {
    char *out;
    size_t room; /* bytes left, the terminating NUL's included */
    bool full;   /* a line did not fit: the rest are left out too */
} writer_t;

static writer_t writer_start(char *buffer, size_t length)
{
    writer_t w = {buffer, length, length == 0};
    if (length > 0) {
        buffer[0] = '\0';
    }
    return w;
}

static void writer_put_line(writer_t *w, const char *line, int length)
{
    if (w->full || length < 0 || (size_t)length >= w->room) {
        w->full = true;
        return;
    }
    memcpy(w->out, line, (size_t)length + 1u);
    w->out += length;
    w->room -= (size_t)length;
}

/* The name padded with spaces to configMAX_TASK_NAME_LEN - 1 characters, as
 * FreeRTOS lays out its tables; returns the characters written. */
static int padded_name(char *line, const char *name)
{
    int width = configMAX_TASK_NAME_LEN - 1;
    return snprintf(line, LINE_MAX, "%-*s", width > 0 ? width : 0, name);
}

static char state_letter(eTaskState state)
{
    switch (state) {
    case eRunning:
        return 'X';
    case eReady:
        return 'R';
    case eBlocked:
        return 'B';
    case eSuspended:
        return 'S';
    case eDeleted:
    case eInvalid:
    default:
        return 'D';
    }
}

static void list_line(const takt_task_info_t *info, void *ctx)
{
    TaskStatus_t status;
    compat_task_status(info, &status);
    char line[LINE_MAX];
    int n = padded_name(line, status.pcTaskName);
    n += snprintf(line + n, sizeof(line) - (size_t)n, "\t%c\t%lu\t%lu\t%lu\r\n",
                  state_letter(status.eCurrentState), (unsigned long)status.uxCurrentPriority,
                  (unsigned long)status.usStackHighWaterMark, (unsigned long)status.xTaskNumber);
    writer_put_line(ctx, line, n);
}

void vTaskListTasks(char *pcWriteBuffer, size_t uxBufferLength)
{
    configASSERT(pcWriteBuffer != NULL && !takt_in_isr());
    if (pcWriteBuffer == NULL) {
        return;
    }
    writer_t w = writer_start(pcWriteBuffer, uxBufferLength);
    compat_kernel_ready();
    (void)takt_task_info_each(list_line, &w, true);
}

void vTaskList(char *pcWriteBuffer)
{
    vTaskListTasks(pcWriteBuffer, configSTATS_BUFFER_MAX_LENGTH);
}

#if configGENERATE_RUN_TIME_STATS
typedef struct {
    writer_t w;
    configRUN_TIME_COUNTER_TYPE total;
} run_time_table_t;

static void run_time_line(const takt_task_info_t *info, void *ctx)
{
    run_time_table_t *table = ctx;
    char line[LINE_MAX];
    int n = padded_name(line, info->name);
    configRUN_TIME_COUNTER_TYPE percent = compat_run_time_percent(info->run_time, table->total);
    if (percent > 0u) {
        n += snprintf(line + n, sizeof(line) - (size_t)n, "\t%llu\t\t%llu%%\r\n",
                      (unsigned long long)info->run_time, (unsigned long long)percent);
    } else {
        n += snprintf(line + n, sizeof(line) - (size_t)n, "\t%llu\t\t<1%%\r\n",
                      (unsigned long long)info->run_time);
    }
    writer_put_line(&table->w, line, n);
}

void vTaskGetRunTimeStatistics(char *pcWriteBuffer, size_t uxBufferLength)
{
    configASSERT(pcWriteBuffer != NULL && !takt_in_isr());
    if (pcWriteBuffer == NULL) {
        return;
    }
    run_time_table_t table = {writer_start(pcWriteBuffer, uxBufferLength), 0};
    compat_kernel_ready();
    /* The total read under the walk's lock, so that the running task's share
     * (counted up to now) is of the same instant. */
    (void)takt_sched_lock();
    table.total = TAKT_CONFIG_RUN_TIME_COUNTER();
    (void)takt_task_info_each(run_time_line, &table, false);
    (void)takt_sched_unlock();
}

void vTaskGetRunTimeStats(char *pcWriteBuffer)
{
    vTaskGetRunTimeStatistics(pcWriteBuffer, configSTATS_BUFFER_MAX_LENGTH);
}
#endif

#endif
