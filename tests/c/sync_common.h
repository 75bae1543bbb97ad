/*
 * What the synchronisation tests share: the policy and preemption mode a test
 * binary runs under (TEST_SCHED, TEST_PREEMPT, set per build variant in
 * CMakeLists.txt), tasks whose order is the same under every policy, and a
 * text log of what happened when.
 *
 * s_task(name, prio, ...) creates a plain task under fixed priority; under EDF
 * a periodic task (released at creation, one long job) whose relative
 * deadline shrinks as prio grows, so "higher priority" means "earlier
 * deadline" and every ordering assertion holds under both policies. Under hsf
 * every task lives in one deferrable server whose budget never runs out
 * within a test (Q = P = S_PERIOD), which also hosts the timer task: the local
 * level is fixed priority, so the fp expectations hold inside a server.
 */
#ifndef TAKT_TEST_SYNC_COMMON_H
#define TAKT_TEST_SYNC_COMMON_H

#include <stdarg.h>

#include "hsf_common.h"

#ifndef TEST_SCHED
#define TEST_SCHED TAKT_SCHED_FP
#endif
#ifndef TEST_PREEMPT
#define TEST_PREEMPT TAKT_PREEMPT_FULL
#endif
#define S_HSF (TEST_SCHED == TAKT_SCHED_HSF)
#define S_FP                                                                                  \
    (TEST_SCHED == TAKT_SCHED_FP || TEST_SCHED == TAKT_SCHED_FP_LIST || TEST_SCHED == TAKT_SCHED_FP_HWPQ)
#define S_EDF (!S_FP && !S_HSF)
#define S_DEFERRED (TEST_PREEMPT != TAKT_PREEMPT_FULL)

#define S_PERIOD 1000000u

static takt_server_t *s_host; /* hsf: the server of every task */

static inline void s_begin(takt_tick_t tick0, uint64_t end_ticks)
{
    takt_init_params_t init = {.scheduler = TEST_SCHED, .tick_start = tick0,
                               .round_robin = false, .preemption = TEST_PREEMPT};
    h_begin_params(&init, end_ticks);
    if (S_HSF) {
        s_host = hsf_server("host", 1, S_PERIOD, S_PERIOD, 0, TAKT_SERVER_DEFERRABLE);
        if (takt_soft_timer_set_server(s_host) != TAKT_OK) {
            fprintf(stderr, "sync_common: naming the timer task's server failed\n");
            exit(3);
        }
    }
}

static inline takt_task_t *s_task(const char *name, unsigned priority, void (*entry)(void *),
                                  void *arg)
{
    if (S_HSF) {
        return hsf_task(s_host, name, priority, entry, arg);
    }
    if (S_EDF) {
        return h_periodic(name, priority, entry, arg, S_PERIOD, S_PERIOD / 2u - priority * 1000u,
                          0);
    }
    return h_task(name, priority, entry, arg);
}

/* Where a task switch is allowed under deferred preemption; nothing otherwise. */
static inline void s_point(void)
{
    takt_preemption_point();
}

/* Inherited deadlines are absolute ticks in the trace, so under EDF runs of
 * a scenario that inherits differ there from one tick start to the next:
 * s_each_start runs each start without comparing their traces, and
 * s_both_inheriting does so under EDF and compares (h_both) otherwise. */
static inline void s_each_start(void (*scenario)(takt_tick_t tick0), const char *name)
{
    for (size_t s = 0; s < H_STARTS; s++) {
        unsigned long failed_before = check_failed_count;
        scenario(h_starts[s]);
        if (check_failed_count != failed_before) {
            fprintf(stderr, "  ^ in scenario %s, tick_start 0x%08x\n", name,
                    (unsigned)h_starts[s]);
        }
    }
}

static inline void s_both_inheriting(void (*scenario)(takt_tick_t tick0), const char *name)
{
    if (S_EDF) {
        s_each_start(scenario, name);
    } else {
        h_both(scenario, name);
    }
}

/* ---- the log: "what@tick what@tick ..." (ticks relative to tick_start) ---- */

static char s_log_buf[16384];
static size_t s_log_len;

static inline void s_log_reset(void)
{
    s_log_len = 0;
    s_log_buf[0] = '\0';
}

static inline void s_log(const char *fmt, ...)
{
    if (s_log_len + 128 >= sizeof(s_log_buf)) {
        return;
    }
    if (s_log_len > 0) {
        s_log_buf[s_log_len++] = ' ';
    }
    va_list ap;
    va_start(ap, fmt);
    s_log_len += (size_t)vsnprintf(s_log_buf + s_log_len, sizeof(s_log_buf) - s_log_len, fmt, ap);
    va_end(ap);
    s_log_len += (size_t)snprintf(s_log_buf + s_log_len, sizeof(s_log_buf) - s_log_len, "@%u",
                                  (unsigned)h_now_ticks());
}

#endif
