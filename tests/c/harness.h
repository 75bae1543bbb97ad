/*
 * Test harness for kernel tests, on the sim port and on the Cortex-M target
 * (the platform's part is harness_port.h). Include it in exactly one
 * file per test program (it defines the kernel's application hooks).
 *
 * A run: h_begin(tick_start, end_ticks, round_robin), create tasks, h_run().
 * h_run starts the kernel, returns when virtual time reaches the end, drains
 * the trace into h_log and tears the kernel down (ASan's leak checker then
 * sees every dynamic task freed). One tick is TICK_NS virtual nanoseconds;
 * user tasks get ids 1, 2, ... in creation order (the idle task is 0).
 *
 * h_both(scenario) runs a scenario with the tick counter starting at 0 and just
 * below the 32-bit wraparound, and checks that the two traces are identical.
 */
#ifndef TAKT_TEST_HARNESS_H
#define TAKT_TEST_HARNESS_H

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "internal.h" /* white box: the idle task's handle (takt_kernel.idle) */
#include "takt/takt.h"
#include "harness_port.h"

#define WRAP_START 0xFFFFFFF0u
#define H_STACK HP_STACK
#define H_LOG_MAX HP_LOG_MAX
#define H_MAX_RECORDS 256

static takt_tick_t h_tick0; /* tick_start of the current run */
static takt_trace_event_t h_log[H_LOG_MAX];
static size_t h_log_n;
static bool h_log_overflowed;

typedef struct {
    int task;     /* task id */
    uint32_t job;
    uint64_t at;  /* virtual ns */
    takt_tick_t tick; /* relative to h_tick0 */
} h_record_t;

static h_record_t h_misses[H_MAX_RECORDS];
static size_t h_miss_n;
static h_record_t h_overflows[H_MAX_RECORDS];
static size_t h_overflow_n;

static inline void h_drain(void)
{
    size_t n;
    do {
        size_t room = H_LOG_MAX - h_log_n;
        if (room == 0) {
            takt_trace_event_t scratch[16];
            n = takt_trace_read(scratch, 16);
            h_log_overflowed = h_log_overflowed || n > 0;
        } else {
            n = takt_trace_read(&h_log[h_log_n], room);
            h_log_n += n;
        }
    } while (n > 0);
}

void takt_trace_drain_hook(void)
{
    h_drain();
}

void takt_deadline_miss_hook(takt_task_t *task, uint32_t job)
{
    if (h_miss_n < H_MAX_RECORDS) {
        h_misses[h_miss_n++] = (h_record_t){takt_task_id(task), job, hp_now_ns(),
                                            takt_tick_count() - h_tick0};
    }
}

void takt_stack_overflow_hook(takt_task_t *task)
{
    if (h_overflow_n < H_MAX_RECORDS) {
        h_overflows[h_overflow_n++] = (h_record_t){takt_task_id(task), 0, hp_now_ns(),
                                                   takt_tick_count() - h_tick0};
    }
}

/* The idle and tick hooks (the test kernel has both on): counted, and the tick
 * hook also records the tick count it sees; a test may add a probe to each. */
static unsigned long h_idle_hook_calls, h_tick_hook_calls;
static takt_tick_t h_tick_hook_last;
static void (*h_tick_probe)(void);
static void (*h_idle_probe)(void);

void takt_idle_hook(void)
{
    h_idle_hook_calls++;
    if (h_idle_probe != NULL) {
        h_idle_probe();
    }
}

void takt_tick_hook(void)
{
    hp_tick();
    h_tick_hook_calls++;
    h_tick_hook_last = takt_tick_count();
    if (h_tick_probe != NULL) {
        h_tick_probe();
    }
}

#if TAKT_CONFIG_SLEEP_HOOKS
/* The tickless sleep's hooks (the tickless test kernel): every sleep is
 * counted, with the ticks it was planned for; each program built with
 * H_TICKLESS must have slept at least once, or the tick never stopped and
 * its traces prove nothing. A test may add a plan of its own. */
static unsigned long h_sleeps, h_sleep_enters, h_sleep_exits;
static takt_tick_t h_sleep_planned_last;
static takt_tick_t (*h_sleep_plan_probe)(takt_tick_t ticks);

takt_tick_t takt_sleep_plan(takt_tick_t ticks)
{
    h_sleeps++;
    h_sleep_planned_last = ticks;
    return h_sleep_plan_probe != NULL ? h_sleep_plan_probe(ticks) : ticks;
}

void takt_sleep_enter(takt_tick_t *ticks)
{
    CHECK(*ticks >= TAKT_CONFIG_TICKLESS_MIN_TICKS);
    h_sleep_enters++;
}

void takt_sleep_exit(takt_tick_t ticks)
{
    CHECK(ticks >= TAKT_CONFIG_TICKLESS_MIN_TICKS);
    h_sleep_exits++;
}

#ifdef H_TICKLESS
#include <unistd.h>

__attribute__((destructor)) static void h_tickless_slept(void)
{
    if (h_sleep_enters == 0 || h_sleep_enters != h_sleep_exits) {
        fprintf(stderr, "harness: tickless sleeps entered %lu, left %lu: 1 failed\n",
                h_sleep_enters, h_sleep_exits);
        _exit(1);
    }
}
#endif
#endif

/* What the tasks of a scenario note, in order ("a1 b1 a2 ..."), for the
 * scenarios that check who ran when in words; h_begin clears it. */
static char h_order[512];

static inline void h_note(const char *what)
{
    size_t len = strlen(h_order);
    snprintf(h_order + len, sizeof(h_order) - len, "%s%s", len ? " " : "", what);
}

/* Whether a scheduler is fixed priority (over any of its ready queues). */
static inline bool h_fixed_priority(takt_scheduler_t scheduler)
{
    return scheduler == TAKT_SCHED_FP || scheduler == TAKT_SCHED_FP_LIST ||
           scheduler == TAKT_SCHED_FP_HWPQ;
}

static inline void h_begin_params(const takt_init_params_t *init, uint64_t end_ticks)
{
    h_tick0 = init->tick_start;
    h_order[0] = '\0';
    h_log_n = 0;
    h_log_overflowed = false;
    h_miss_n = 0;
    h_overflow_n = 0;
    h_idle_hook_calls = 0;
    h_tick_hook_calls = 0;
    h_tick_probe = NULL;
    h_idle_probe = NULL;
    if (hp_configure(end_ticks) != TAKT_OK || takt_init(init) != TAKT_OK) {
        fprintf(stderr, "harness: kernel initialisation failed\n");
        exit(3);
    }
}

/* The scheduler of h_begin's runs: fixed priority, over the bitmap of lists
 * unless the test is built for another ready queue (tests/c/CMakeLists.txt). */
#ifndef H_DEFAULT_SCHED
#define H_DEFAULT_SCHED TAKT_SCHED_FP
#endif

static inline void h_begin(takt_tick_t tick_start, uint64_t end_ticks, bool round_robin)
{
    takt_init_params_t init = {.scheduler = H_DEFAULT_SCHED, .tick_start = tick_start,
                               .round_robin = round_robin,
                               .preemption = TAKT_PREEMPT_FULL};
    h_begin_params(&init, end_ticks);
}

/* h_run = h_start (returns at the end of virtual time; handles still valid)
 * then h_end (drains the trace, frees every task). */
static inline void h_start(void)
{
    CHECK(takt_start() == TAKT_OK);
    h_drain();
    CHECK(!h_log_overflowed);
    for (size_t i = 0; i < h_log_n; i++) {
        h_log[i].stamp = hp_stamp_ns(h_log[i].stamp);
    }
}

static inline void h_end(void)
{
    CHECK(takt_teardown() == TAKT_OK);
}

static inline void h_run(void)
{
    h_start();
    h_end();
}

/* Creates a dynamic task; the test stops if the kernel refuses. */
static inline takt_task_t *h_task_full(const char *name, unsigned priority, void (*entry)(void *),
                                       void *arg, takt_tick_t period, takt_tick_t deadline,
                                       takt_tick_t offset)
{
    takt_task_params_t p = {.name = name, .entry = entry, .arg = arg, .priority = priority,
                            .stack_size = H_STACK, .period = period, .deadline = deadline,
                            .offset = offset};
    takt_task_t *task = NULL;
    int rc = takt_task_create(&p, &task);
    if (rc != TAKT_OK) {
        fprintf(stderr, "harness: creating task %s failed (%d)\n", name, rc);
        exit(3);
    }
    return task;
}

static inline takt_task_t *h_task(const char *name, unsigned priority, void (*entry)(void *),
                                  void *arg)
{
    return h_task_full(name, priority, entry, arg, 0, 0, 0);
}

static inline takt_task_t *h_periodic(const char *name, unsigned priority, void (*entry)(void *),
                                      void *arg, takt_tick_t period, takt_tick_t deadline,
                                      takt_tick_t offset)
{
    return h_task_full(name, priority, entry, arg, period, deadline, offset);
}

/* Modelled execution, in ticks (may be fractional through h_work_ns). */
static inline void h_work(uint64_t ticks)
{
    hp_work_ns(T(ticks));
}

/* Blocks the caller for good (the simulation's end reclaims it). */
static inline void h_park(void)
{
    for (;;) {
        takt_task_suspend(NULL);
    }
}

/* Current tick, relative to the run's tick_start. */
static inline takt_tick_t h_now_ticks(void)
{
    return takt_tick_count() - h_tick0;
}

/* ---- trace queries ---- */

/* Number of events of a type (task < 0: any task). */
static inline size_t h_count(takt_event_type_t type, int task)
{
    size_t n = 0;
    for (size_t i = 0; i < h_log_n; i++) {
        if (h_log[i].type == type && (task < 0 || h_log[i].task == (uint16_t)task)) {
            n++;
        }
    }
    return n;
}

/* Index of the nth (0-based) event of a type for a task (task < 0: any), or -1. */
static inline long h_find(takt_event_type_t type, int task, size_t nth)
{
    for (size_t i = 0; i < h_log_n; i++) {
        if (h_log[i].type == type && (task < 0 || h_log[i].task == (uint16_t)task)) {
            if (nth-- == 0) {
                return (long)i;
            }
        }
    }
    return -1;
}

/*
 * The events of one type as text, "time:task[/arg] ..." with times in ticks
 * (or ns when not a whole tick), e.g. the dispatch timeline "0:2 1:1 3:0".
 * with_arg appends "/arg". Static buffer: use the result before the next call.
 */
static inline const char *h_events(takt_event_type_t type, bool with_arg)
{
    static char buf[8192];
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < h_log_n && len + 64 < sizeof(buf); i++) {
        const takt_trace_event_t *e = &h_log[i];
        if (e->type != type) {
            continue;
        }
        char when[32];
        if (e->stamp % TICK_NS == 0) {
            snprintf(when, sizeof(when), "%llu", (unsigned long long)(e->stamp / TICK_NS));
        } else {
            snprintf(when, sizeof(when), "%lluns", (unsigned long long)e->stamp);
        }
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s:%d", len ? " " : "", when,
                                e->task == TAKT_TRACE_NO_TASK ? -1 : (int)e->task);
        if (with_arg) {
            len += (size_t)snprintf(buf + len, sizeof(buf) - len, "/%u", (unsigned)e->arg);
        }
    }
    return buf;
}

static inline const char *h_dispatches(void)
{
    return h_events(TAKT_EV_DISPATCH, false);
}

/* The hook records as "tick:task/job ...". */
static inline const char *h_records(const h_record_t *r, size_t n)
{
    static char buf[4096];
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len + 64 < sizeof(buf); i++) {
        if (r[i].at != T(r[i].tick)) {
            len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s(at %lluns, tick %u)",
                                    len ? " " : "", (unsigned long long)r[i].at,
                                    (unsigned)r[i].tick);
            continue;
        }
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%u:%d/%u", len ? " " : "",
                                (unsigned)r[i].tick, r[i].task, (unsigned)r[i].job);
    }
    return buf;
}

/* ---- the same scenario across the wraparound ---- */

static takt_trace_event_t h_saved[H_LOG_MAX];

/* The tick starts every scenario runs from: 0, just before the wraparound,
 * and just before the half-range point of the signed compares. */
static const takt_tick_t h_starts[] = {0u, WRAP_START, 0x7FFFFFF8u};
#define H_STARTS (sizeof(h_starts) / sizeof(h_starts[0]))

static inline void h_both(void (*scenario)(takt_tick_t tick0), const char *name)
{
    const takt_tick_t *starts = h_starts;
    size_t saved_n = 0;
    for (size_t s = 0; s < H_STARTS; s++) {
        unsigned long failed_before = check_failed_count;
        scenario(starts[s]);
        if (check_failed_count != failed_before) {
            fprintf(stderr, "  ^ in scenario %s, tick_start 0x%08x\n", name, (unsigned)starts[s]);
        }
        if (s == 0) {
            memcpy(h_saved, h_log, h_log_n * sizeof(h_log[0]));
            saved_n = h_log_n;
            continue;
        }
        if (!CHECK_EQ(h_log_n, saved_n)) {
            fprintf(stderr, "  scenario %s: trace length differs at tick_start 0x%08x\n", name,
                    (unsigned)starts[s]);
        }
        for (size_t i = 0; i < h_log_n && i < saved_n; i++) {
            const takt_trace_event_t *a = &h_saved[i], *b = &h_log[i];
            if (a->stamp != b->stamp || a->type != b->type || a->task != b->task ||
                a->arg != b->arg) {
                CHECK(!"trace differs from the run with tick_start 0");
                fprintf(stderr,
                        "  scenario %s, tick_start 0x%08x, event %zu: "
                        "(%llu type %u task %u arg %u) vs (%llu type %u task %u arg %u)\n",
                        name, (unsigned)starts[s], i, (unsigned long long)a->stamp, a->type,
                        a->task, (unsigned)a->arg, (unsigned long long)b->stamp, b->type, b->task,
                        (unsigned)b->arg);
                break;
            }
        }
    }
}

#endif
