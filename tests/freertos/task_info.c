/*
 * Task introspection and the small options around it, through the FreeRTOS
 * API (sim port, 1 tick = 1 ms, run-time counter in virtual microseconds, so
 * every run time is exact): vTaskGetInfo, uxTaskGetSystemState, task and
 * queue numbers, queue types, vTaskListTasks / vTaskList and
 * vTaskGetRunTimeStatistics line by line and cut short, the run-time
 * counters and percentages, application task tags (from an interrupt too),
 * thread-local storage pointers and the queue registry. Built with every
 * option on (tests/freertos/CMakeLists.txt), under fp and, with the tasks in
 * a server, hsf.
 */
#include "FreeRTOS.h" /* first, as in every FreeRTOS program */

#include <string.h>

#include "event_groups.h"
#include "queue.h"
#include "rtos_check.h"
#include "rtos_port.h"
#include "semphr.h"
#include "rtos_tasks.h"

static bool counter_configured;

void vTestConfigureRunTimeCounter(void)
{
    counter_configured = true;
    rtos_run_time_start();
}

uint32_t ulTestRunTimeCounter(void)
{
    return rtos_run_time_us();
}

#define WORK_MS(ms) rtos_work_ns((uint64_t)(ms) * 1000000u)

#if RTOS_EXACT_TIME
/* The sim: code between blocking calls takes no time, every run time is exact. */
#define ABOUT_US(got, us) ((got) == (us))
#else
/*
 * The board: the counter is SysTick time in us (rtos_port_armv7m.c), and the
 * kernel's and the tasks' own code takes time too (ctl's checks and their
 * semihosted printing about 0.9 ms before check_run_time, so ctl's count and
 * every percentage differ from the sim's and get their own checks). Modelled
 * work and idle stretches still come out within RUN_TIME_SLACK_US of their
 * length: they end on tick boundaries, and what sits in them besides is a
 * tick's or a switch's kernel work (microseconds at QEMU's one instruction
 * per ns; 3 us seen).
 */
#define RUN_TIME_SLACK_US 50u
#define ABOUT_US(got, us) about_us((got), (us))
static bool about_us(configRUN_TIME_COUNTER_TYPE got, configRUN_TIME_COUNTER_TYPE us)
{
    return got + RUN_TIME_SLACK_US >= us && got <= us + RUN_TIME_SLACK_US;
}
/* The total is read after uxTaskGetSystemState's walk, which scans the four
 * 4 KiB stacks: up to this much later than the running task's share. */
#define WALK_SLACK_US 100u
#endif

static TaskHandle_t ctl, worker, sleeper;

static BaseType_t ctl_hook(void *arg)
{
    *(int *)arg += 1;
    return 11;
}

static BaseType_t worker_hook(void *arg)
{
    *(int *)arg += 10;
    return 22;
}

static TaskHookFunction_t isr_tag_running = (TaskHookFunction_t)1, isr_tag_ctl = (TaskHookFunction_t)1;
static BaseType_t isr_hook_result = 99;
static int isr_hook_arg;

static void tag_probe_isr(void *arg)
{
    (void)arg;
    isr_tag_running = xTaskGetApplicationTaskTagFromISR(NULL); /* the interrupted task: worker */
    isr_tag_ctl = xTaskGetApplicationTaskTagFromISR(ctl);
    isr_hook_result = xTaskCallApplicationTaskHook(NULL, &isr_hook_arg);
}

static int worker_local;

static void worker_task(void *arg)
{
    (void)arg;
    vTaskSetApplicationTaskTag(NULL, worker_hook);
    vTaskSetThreadLocalStoragePointer(NULL, 0, &worker_local);
    WORK_MS(2); /* 0 .. 2 ms; the interrupt at 1 ms finds it running */
    CHECK(pvTaskGetThreadLocalStoragePointer(NULL, 0) == &worker_local &&
              pvTaskGetThreadLocalStoragePointer(NULL, 1) == NULL,
          "thread-local storage: the worker's own slot 0, slot 1 still NULL");
    (void)ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
}

static void sleeper_task(void *arg)
{
    (void)arg;
    vTaskSuspend(NULL);
}

/* Returns the line-th line (from 0) of text in out (without "\r\n"). */
static bool line_of(const char *text, int line, char *out, size_t size)
{
    for (; line > 0; line--) {
        text = strstr(text, "\r\n");
        if (text == NULL) {
            return false;
        }
        text += 2;
    }
    const char *end = strstr(text, "\r\n");
    if (end == NULL || (size_t)(end - text) >= size) {
        return false;
    }
    memcpy(out, text, (size_t)(end - text));
    out[end - text] = '\0';
    return true;
}

#if !RTOS_EXACT_TIME
static int count_lines(const char *text)
{
    int lines = 0;
    for (const char *end = strstr(text, "\r\n"); end != NULL; end = strstr(end + 2, "\r\n")) {
        lines++;
    }
    return lines;
}
#endif

/* One vTaskListTasks line, parsed: name (trailing spaces cut), state, priority, stack, number. */
typedef struct {
    char name[configMAX_TASK_NAME_LEN];
    char state;
    unsigned long priority, stack, number;
} list_line_t;

static bool parse_list_line(const char *line, list_line_t *out)
{
    const char *tab = strchr(line, '\t');
    if (tab == NULL || tab - line != configMAX_TASK_NAME_LEN - 1) {
        return false; /* the name is padded to configMAX_TASK_NAME_LEN - 1 */
    }
    size_t n = (size_t)(tab - line);
    memcpy(out->name, line, n);
    out->name[n] = '\0';
    while (n > 0 && out->name[n - 1] == ' ') {
        out->name[--n] = '\0';
    }
    int used = 0;
    return sscanf(tab, "\t%c\t%lu\t%lu\t%lu%n", &out->state, &out->priority, &out->stack, &out->number, &used) ==
               4 && tab[used] == '\0';
}

static void check_list(void)
{
    char text[512];
    vTaskListTasks(text, sizeof(text));
    static const struct {
        const char *name;
        char state;
        unsigned long priority, number;
        TaskHandle_t *task;
    } expect[] = {
        {"IDLE", 'R', 0, 0, NULL}, {"ctl", 'X', 3, 1, &ctl}, {"worker", 'B', 2, 2, &worker}, {"sleeper", 'S', 1, 3, &sleeper},
    };
    for (int i = 0; i < 4; i++) {
        char line[128];
        list_line_t got;
        bool ok = line_of(text, i, line, sizeof(line)) && parse_list_line(line, &got);
        /* The stack high-water mark of a task that is not running stays put:
         * it must be what uxTaskGetStackHighWaterMark says. */
        TaskHandle_t task = expect[i].task != NULL ? *expect[i].task : xTaskGetIdleTaskHandle();
        unsigned long stack = uxTaskGetStackHighWaterMark(task);
        CHECK(ok && strcmp(got.name, expect[i].name) == 0 && got.state == expect[i].state &&
                  got.priority == expect[i].priority && got.number == expect[i].number &&
                  got.stack > 0 && (expect[i].state == 'X' ? got.stack <= configMINIMAL_STACK_SIZE : got.stack == stack),
              "vTaskListTasks line %d: %s %c %lu %lu (stack %lu)", i, expect[i].name, expect[i].state,
              expect[i].priority, expect[i].number, ok ? got.stack : 0ul);
    }
    char rest[8];
    CHECK(!line_of(text, 4, rest, sizeof(rest)) && strlen(text) > 0 && strcmp(text + strlen(text) - 2, "\r\n") == 0,
          "vTaskListTasks: four lines, each ending \\r\\n");

    /* Cut short: whole lines only, never past the length (ASan watches the
     * exact-size buffers). */
    size_t two = (size_t)(strstr(strstr(text, "\r\n") + 2, "\r\n") + 2 - text);
    char *exact = malloc(two + 1);
    vTaskListTasks(exact, two + 1);
#if RTOS_EXACT_TIME
    CHECK(strlen(exact) == two && strncmp(exact, text, two) == 0, "room for two lines and the NUL: two lines");
#else
    /* The board: line 1 is the running ctl, whose high-water mark malloc
     * (newlib's, on this stack) may have moved since: idle's line, and two. */
    size_t first_line = (size_t)(strstr(text, "\r\n") + 2 - text);
    CHECK(strlen(exact) <= two && strncmp(exact, text, first_line) == 0 && count_lines(exact) == 2,
          "room for two lines and the NUL: two lines");
#endif
    free(exact);
    exact = malloc(two);
    vTaskListTasks(exact, two);
    CHECK(strlen(exact) == (size_t)(strstr(text, "\r\n") + 2 - text), "one byte less: one line");
    free(exact);
    char one[1] = {'x'};
    vTaskListTasks(one, 1);
    CHECK(one[0] == '\0', "a length of 1: the empty string");
    char untouched = 'x';
    vTaskListTasks(&untouched, 0);
    CHECK(untouched == 'x', "a length of 0: nothing written");
    char old_form[512];
    vTaskList(old_form);
    CHECK(strlen(old_form) == strlen(text), "vTaskList: the same table");
}

/* vTaskGetRunTimeStatistics into exact-size heap buffers (ASan sees any
 * overflow): room for the first line (first bytes) and its NUL gives that
 * line, one byte less gives nothing. */
static void check_statistics_cut(const char *text, size_t first)
{
    char *exact = malloc(first + 1);
    vTaskGetRunTimeStatistics(exact, first + 1);
    CHECK(strlen(exact) == first && strncmp(exact, text, first) == 0, "room for one line: the idle line");
    free(exact);
    exact = malloc(first);
    vTaskGetRunTimeStatistics(exact, first);
    CHECK(exact[0] == '\0', "one byte less: nothing");
    free(exact);
}

static void check_run_time(void)
{
    /* 0 .. 2 ms the worker, 2 .. 5 ms the idle task; ctl and the sleeper ran in no time. */
    CHECK(counter_configured, "portCONFIGURE_TIMER_FOR_RUN_TIME_STATS was called by vTaskStartScheduler");
#if RTOS_EXACT_TIME
    CHECK(ulTaskGetRunTimeCounter(worker) == 2000 && ulTaskGetRunTimeCounter(NULL) == 0 &&
              ulTaskGetRunTimeCounter(sleeper) == 0,
          "ulTaskGetRunTimeCounter: worker 2000 us, ctl and sleeper 0");
    CHECK(ulTaskGetIdleRunTimeCounter() == 3000 && ulTaskGetIdleRunTimePercent() == 60,
          "idle: 3000 us, 60%% (%lu, %lu)", (unsigned long)ulTaskGetIdleRunTimeCounter(),
          (unsigned long)ulTaskGetIdleRunTimePercent());
    CHECK(ulTaskGetRunTimePercent(worker) == 40 && ulTaskGetRunTimePercent(ctl) == 0, "worker 40%%, ctl 0%%");

    char text[256];
    vTaskGetRunTimeStatistics(text, sizeof(text));
    static const char *const expect[] = {
        "IDLE           \t3000\t\t60%",
        "ctl            \t0\t\t<1%",
        "worker         \t2000\t\t40%",
        "sleeper        \t0\t\t<1%",
    };
    for (int i = 0; i < 4; i++) {
        char line[128];
        CHECK(line_of(text, i, line, sizeof(line)) && strcmp(line, expect[i]) == 0,
              "vTaskGetRunTimeStatistics line %d: \"%s\"", i, expect[i]);
    }
    size_t whole = strlen(text);
    CHECK(whole == strlen(expect[0]) + strlen(expect[1]) + strlen(expect[2]) + strlen(expect[3]) + 8,
          "four lines and nothing else");
    size_t first = strlen(expect[0]) + 2;
    check_statistics_cut(text, first);
    char old_form[256];
    vTaskGetRunTimeStats(old_form);
    CHECK(strcmp(old_form, text) == 0, "vTaskGetRunTimeStats: the same table");

    WORK_MS(1); /* ctl's own run counts while it runs */
    CHECK(ulTaskGetRunTimeCounter(NULL) == 1000, "the running task's count includes its run so far");
#else
    /* The board: idle and worker as on the sim within the slack; ctl ran its
     * checks meanwhile, so the percentages are checked against the counters. */
    configRUN_TIME_COUNTER_TYPE idle_run = ulTaskGetIdleRunTimeCounter(), worker_run = ulTaskGetRunTimeCounter(worker);
    configRUN_TIME_COUNTER_TYPE sleeper_run = ulTaskGetRunTimeCounter(sleeper);
    CHECK(ABOUT_US(worker_run, 2000) && ABOUT_US(sleeper_run, 0) && ulTaskGetRunTimeCounter(NULL) > 0,
          "ulTaskGetRunTimeCounter: worker 2000 us, sleeper 0 (%lu, %lu); ctl's checks took time",
          (unsigned long)worker_run, (unsigned long)sleeper_run);
    CHECK(ABOUT_US(idle_run, 3000), "idle: 3000 us (%lu)", (unsigned long)idle_run);
    /* Each percentage is run / (total / 100) with the total read inside the
     * call: between the totals read just before and just after. */
    configRUN_TIME_COUNTER_TYPE before = rtos_run_time_us();
    configRUN_TIME_COUNTER_TYPE idle_pct = ulTaskGetIdleRunTimePercent(), worker_pct = ulTaskGetRunTimePercent(worker);
    configRUN_TIME_COUNTER_TYPE after = rtos_run_time_us();
    CHECK(idle_pct <= idle_run / (before / 100u) && idle_pct >= idle_run / (after / 100u) &&
              worker_pct <= worker_run / (before / 100u) && worker_pct >= worker_run / (after / 100u) &&
              idle_pct > worker_pct && worker_pct > ulTaskGetRunTimePercent(sleeper),
          "percentages: idle %lu%%, worker %lu%%, in the order of the run times", (unsigned long)idle_pct,
          (unsigned long)worker_pct);

    /* The table: every line a task's name, its count and percentage; the
     * tasks that are not running have the counts read above. */
    char text[256];
    vTaskGetRunTimeStatistics(text, sizeof(text));
    static const char *const names[] = {"IDLE", "ctl", "worker", "sleeper"};
    const configRUN_TIME_COUNTER_TYPE runs[] = {idle_run, 0, worker_run, sleeper_run};
    for (int i = 0; i < 4; i++) {
        char line[128], name[configMAX_TASK_NAME_LEN], percent[8];
        unsigned long run = 0;
        bool ok = line_of(text, i, line, sizeof(line)) &&
                  sscanf(line, "%15s \t%lu\t\t%7s", name, &run, percent) == 3 && strcmp(name, names[i]) == 0 &&
                  (i == 1 || run == runs[i]) && percent[strlen(percent) - 1] == '%';
        CHECK(ok, "vTaskGetRunTimeStatistics line %d: %s, its count and percentage", i, names[i]);
    }
    CHECK(count_lines(text) == 4 && strcmp(text + strlen(text) - 2, "\r\n") == 0, "four lines and nothing else");
    size_t first = (size_t)(strstr(text, "\r\n") + 2 - text);
    check_statistics_cut(text, first);
    char old_form[256];
    vTaskGetRunTimeStats(old_form);
    CHECK(strncmp(old_form, text, first) == 0 && count_lines(old_form) == 4,
          "vTaskGetRunTimeStats: the same table (idle's line; ctl's count moves)");

    configRUN_TIME_COUNTER_TYPE ctl_before = ulTaskGetRunTimeCounter(NULL);
    WORK_MS(1); /* ctl's own run counts while it runs */
    CHECK(ABOUT_US(ulTaskGetRunTimeCounter(NULL) - ctl_before, 1000), "the running task's count includes its run so far");
#endif
}

static void check_status(void)
{
    TaskStatus_t status[5], pattern;
    memset(status, 0xa5, sizeof(status));
    memset(&pattern, 0xa5, sizeof(pattern));
    configRUN_TIME_COUNTER_TYPE total = 1;
    CHECK(uxTaskGetSystemState(status, 3, &total) == 0 && memcmp(&status[0], &pattern, sizeof(pattern)) == 0,
          "uxTaskGetSystemState with room for 3 of 4: 0, nothing written");
#if RTOS_EXACT_TIME
    CHECK(uxTaskGetSystemState(status, 5, &total) == 4 && total == 5000, "4 tasks; total run time 5000 us");
#else
    CHECK(uxTaskGetSystemState(status, 5, &total) == 4 && total >= 5000, "4 tasks; total run time at least 5000 us");
    configRUN_TIME_COUNTER_TYPE sum = 0;
    for (int i = 0; i < 4; i++) {
        sum += status[i].ulRunTimeCounter;
    }
    CHECK(sum <= total && total - sum <= WALK_SLACK_US, "the tasks' run times add up to the total (%lu of %lu)",
          (unsigned long)sum, (unsigned long)total);
#endif
    CHECK(status[0].xHandle == xTaskGetIdleTaskHandle() && status[1].xHandle == ctl && status[2].xHandle == worker &&
              status[3].xHandle == sleeper,
          "creation order, the idle task first");
    CHECK(status[1].eCurrentState == eRunning && status[2].eCurrentState == eBlocked &&
              status[3].eCurrentState == eSuspended && status[0].eCurrentState == eReady,
          "states: running, blocked, suspended, ready");
    CHECK(status[2].xTaskNumber == 2 && status[2].uxCurrentPriority == 2 && status[2].uxBasePriority == 2 &&
              strcmp(status[2].pcTaskName, "worker") == 0 && ABOUT_US(status[2].ulRunTimeCounter, 2000) &&
              status[2].usStackHighWaterMark == uxTaskGetStackHighWaterMark(worker) && status[2].pxStackBase != NULL,
          "the worker's entry: number, priorities, name, run time, stack");
    CHECK(uxTaskGetSystemState(status, 5, NULL) == 4, "a NULL total is allowed");

    TaskStatus_t info;
    vTaskGetInfo(NULL, &info, pdTRUE, eInvalid);
    CHECK(info.xHandle == ctl && info.eCurrentState == eRunning && info.uxCurrentPriority == 3 && info.xTaskNumber == 1 &&
              info.usStackHighWaterMark > 0,
          "vTaskGetInfo(NULL): the caller, running, its stack measured");
    vTaskGetInfo(worker, &info, pdFALSE, eSuspended);
    CHECK(info.xHandle == worker && info.eCurrentState == eSuspended && info.usStackHighWaterMark == 0 &&
              ABOUT_US(info.ulRunTimeCounter, 2000),
          "vTaskGetInfo with a state given: that state; no stack scan when not asked");

    CHECK(uxTaskGetTaskNumber(worker) == 0, "task numbers start at 0");
    vTaskSetTaskNumber(worker, 42);
    vTaskSetTaskNumber(NULL, 7); /* FreeRTOS: a NULL handle is ignored */
    CHECK(uxTaskGetTaskNumber(worker) == 42 && uxTaskGetTaskNumber(ctl) == 0 && uxTaskGetTaskNumber(NULL) == 0,
          "vTaskSetTaskNumber: per task; NULL ignored");
}

static void check_tags_and_locals(void)
{
    int calls = 0;
    CHECK(isr_tag_running == worker_hook && isr_tag_ctl == ctl_hook && isr_hook_result == 22 && isr_hook_arg == 10,
          "from the interrupt: NULL is the interrupted task (worker), ctl's tag by handle, its hook called");
    CHECK(xTaskGetApplicationTaskTag(NULL) == ctl_hook && xTaskGetApplicationTaskTag(worker) == worker_hook &&
              xTaskGetApplicationTaskTag(sleeper) == NULL,
          "xTaskGetApplicationTaskTag: per task, NULL until set");
    CHECK(xTaskCallApplicationTaskHook(NULL, &calls) == 11 && calls == 1, "the caller's hook, with its argument");
    CHECK(xTaskCallApplicationTaskHook(worker, &calls) == 22 && calls == 11, "another task's hook");
    CHECK(xTaskCallApplicationTaskHook(sleeper, &calls) == pdFAIL && calls == 11, "no tag: the hook call fails");

    static int a, b;
    vTaskSetThreadLocalStoragePointer(NULL, 0, &a);
    vTaskSetThreadLocalStoragePointer(ctl, 2, &b);
    CHECK(pvTaskGetThreadLocalStoragePointer(NULL, 0) == &a && pvTaskGetThreadLocalStoragePointer(ctl, 2) == &b &&
              pvTaskGetThreadLocalStoragePointer(NULL, 1) == NULL,
          "thread-local storage: the caller's slots 0 and 2, slot 1 NULL");
    CHECK(pvTaskGetThreadLocalStoragePointer(worker, 0) == &worker_local &&
              pvTaskGetThreadLocalStoragePointer(sleeper, 0) == NULL,
          "other tasks keep their own");
}

static void check_queues(void)
{
    QueueHandle_t q = xQueueCreate(2, 4), sem = xSemaphoreCreateBinary(), count = xSemaphoreCreateCounting(5, 0);
    SemaphoreHandle_t mutex = xSemaphoreCreateMutex(), recursive = xSemaphoreCreateRecursiveMutex();
    CHECK(ucQueueGetQueueType(q) == queueQUEUE_TYPE_BASE && ucQueueGetQueueType(sem) == queueQUEUE_TYPE_BINARY_SEMAPHORE &&
              ucQueueGetQueueType(count) == queueQUEUE_TYPE_COUNTING_SEMAPHORE &&
              ucQueueGetQueueType(mutex) == queueQUEUE_TYPE_MUTEX &&
              ucQueueGetQueueType(recursive) == queueQUEUE_TYPE_RECURSIVE_MUTEX,
          "ucQueueGetQueueType: queue, binary, counting, mutex, recursive mutex");
    vQueueSetQueueNumber(q, 5);
    CHECK(uxQueueGetQueueNumber(q) == 5 && uxQueueGetQueueNumber(sem) == 0, "queue numbers: set, and 0 until set");
    static StaticEventGroup_t group_buffer;
    EventGroupHandle_t group = xEventGroupCreate(), fixed_group = xEventGroupCreateStatic(&group_buffer);
    CHECK(uxEventGroupGetNumber(group) == 0 && uxEventGroupGetNumber(fixed_group) == 0 &&
              uxEventGroupGetNumber(NULL) == 0,
          "event group numbers: 0 until set, and for NULL");
    vEventGroupSetNumber(group, 7);
    vEventGroupSetNumber(fixed_group, 9);
    (void)xEventGroupSetBits(group, 0x3u);
    CHECK(uxEventGroupGetNumber(group) == 7 && uxEventGroupGetNumber(fixed_group) == 9 &&
              xEventGroupGetBits(group) == 0x3u && xEventGroupGetBits(fixed_group) == 0,
          "vEventGroupSetNumber: each group its own, its bits untouched");
    vEventGroupDelete(group);
    vEventGroupDelete(fixed_group);
    fixed_group = xEventGroupCreateStatic(&group_buffer);
    CHECK(uxEventGroupGetNumber(fixed_group) == 0, "a group created again in the same buffer starts at 0");
    vEventGroupDelete(fixed_group);

    CHECK(pcQueueGetName(q) == NULL, "not registered: NULL");
    vQueueAddToRegistry(q, "q");
    vQueueAddToRegistry(sem, "sem");
    vQueueAddToRegistry(count, "count");
    vQueueAddToRegistry(mutex, "mutex");
    vQueueAddToRegistry(recursive, "recursive"); /* the registry holds 4 */
    CHECK(strcmp(pcQueueGetName(q), "q") == 0 && strcmp(pcQueueGetName(sem), "sem") == 0 &&
              strcmp(pcQueueGetName(mutex), "mutex") == 0 && pcQueueGetName(recursive) == NULL,
          "registered names; a fifth does not fit in 4 entries");
    vQueueAddToRegistry(q, "renamed");
    CHECK(strcmp(pcQueueGetName(q), "renamed") == 0, "adding again renames");
    vQueueUnregisterQueue(sem);
    CHECK(pcQueueGetName(sem) == NULL, "unregistered: NULL");
    vQueueAddToRegistry(recursive, "recursive");
    CHECK(strcmp(pcQueueGetName(recursive), "recursive") == 0, "the freed entry is reused");
    vQueueDelete(q);
    vQueueDelete(count);
    QueueHandle_t again = xQueueCreate(2, 4);
    CHECK(pcQueueGetName(again) == NULL, "vQueueDelete unregisters (a new queue has no name)");
    vQueueDelete(again);
    vQueueDelete(sem);
    vQueueDelete(mutex);
    vQueueDelete(recursive);
}

static void control_task(void *arg)
{
    (void)arg;
    vTaskSetApplicationTaskTag(NULL, ctl_hook);
    CHECK(rtos_inject_irq(1000000u, 5, tag_probe_isr, NULL) == 0, "an interrupt at 1 ms");
    vTaskDelay(5);
    check_status();
    check_list();
    check_tags_and_locals();
    check_queues();
    check_run_time();
    vTaskEndScheduler();
}

int main(void)
{
#if configTAKT_POLICY == TAKT_POLICY_HSF
    CHECK(xServerCreate(100, 100, 1, eServerDeferrable, "S", &rtos_server) == pdPASS, "a server for the tasks");
#endif
    CHECK(RTOS_TASK_CREATE(control_task, "ctl", 3, &ctl) == pdPASS && RTOS_TASK_CREATE(worker_task, "worker", 2, &worker) == pdPASS &&
              RTOS_TASK_CREATE(sleeper_task, "sleeper", 1, &sleeper) == pdPASS,
          "three tasks");
    TaskStatus_t status[4];
    CHECK(uxTaskGetSystemState(status, 4, NULL) == 4 && status[1].eCurrentState == eReady &&
              status[1].ulRunTimeCounter == 0,
          "before the start: four tasks, ready, no run time");
    vTaskStartScheduler();
    return rtos_check_summary();
}
