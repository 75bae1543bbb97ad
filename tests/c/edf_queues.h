/*
 * The EDF ready queues (heap, EDF-L, red-black tree, and the hardware
 * queue where the port has one), which order jobs alike,
 * and the check that one queue's run left the same trace as another's, event
 * for event: randomised tests run a set under each queue and compare.
 * Include after harness.h.
 */
#ifndef TEST_EDF_QUEUES_H
#define TEST_EDF_QUEUES_H

#include <string.h>

static const struct {
    takt_scheduler_t scheduler;
    const char *name;
} edf_queues[] = {{TAKT_SCHED_EDF_HEAP, "edf_heap"},
                  {TAKT_SCHED_EDF_MLIST, "edf_mlist"},
                  {TAKT_SCHED_EDF_RBTREE, "edf_rbtree"},
#ifdef TAKT_PORT_HWPQ_UNITS
                  {TAKT_SCHED_EDF_HWPQ, "edf_hwpq"}, /* the sim's model of hw/ */
#endif
};
#define EDF_QUEUES (sizeof(edf_queues) / sizeof(edf_queues[0]))

static takt_trace_event_t edf_first_log[H_LOG_MAX];
static size_t edf_first_n;

/* The trace of the run just ended (h_log) is the one the others must equal. */
static inline void edf_keep_trace(void)
{
    memcpy(edf_first_log, h_log, h_log_n * sizeof(h_log[0]));
    edf_first_n = h_log_n;
}

/* The run just ended under queue q left the kept trace; set names the case. */
static inline void edf_check_same_trace(uint32_t set, size_t q)
{
    bool same = CHECK_EQ(h_log_n, edf_first_n);
    for (size_t i = 0; same && i < h_log_n; i++) {
        const takt_trace_event_t *a = &edf_first_log[i], *b = &h_log[i];
        if (a->stamp != b->stamp || a->type != b->type || a->task != b->task || a->arg != b->arg) {
            same = CHECK(!"trace differs between the EDF queues");
            fprintf(stderr, "  set %u, %s against %s, event %zu: (%llu type %u task %u) vs "
                    "(%llu type %u task %u)\n",
                    (unsigned)set, edf_queues[q].name, edf_queues[0].name, i,
                    (unsigned long long)a->stamp, a->type, a->task, (unsigned long long)b->stamp,
                    b->type, b->task);
        }
    }
}

/* One randomised set under every queue: run(scheduler, set) runs it whole
 * (from h_begin to h_run), and each queue's trace must be the first's. */
static inline void edf_compare_queues(uint32_t set, void (*run)(takt_scheduler_t scheduler, uint32_t set))
{
    for (size_t q = 0; q < EDF_QUEUES; q++) {
        run(edf_queues[q].scheduler, set);
        if (q == 0) {
            edf_keep_trace();
        } else {
            edf_check_same_trace(set, q);
        }
    }
}

#endif
