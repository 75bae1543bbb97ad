/*
 * Servers for tests that run under the hsf scheduler (test_hsf.c,
 * test_hsf_sync.c and the sync tests' hsf variant through sync_common.h):
 * creation helpers that stop the test when the kernel refuses.
 */
#ifndef TAKT_TEST_HSF_COMMON_H
#define TAKT_TEST_HSF_COMMON_H

#include "harness.h"

static inline takt_server_t *hsf_server(const char *name, unsigned priority, takt_tick_t period,
                                        takt_tick_t budget, takt_tick_t offset,
                                        takt_server_type_t type)
{
    takt_server_params_t p = {.name = name, .priority = priority, .period = period,
                              .budget = budget, .offset = offset, .type = type};
    takt_server_t *s = NULL;
    int rc = takt_server_create(&p, &s);
    if (rc != TAKT_OK) {
        fprintf(stderr, "creating server %s failed (%d)\n", name, rc);
        exit(3);
    }
    return s;
}

static inline takt_task_t *hsf_task_full(takt_server_t *s, const char *name, unsigned priority,
                                         void (*entry)(void *), void *arg, takt_tick_t period,
                                         takt_tick_t deadline, takt_tick_t offset)
{
    takt_task_params_t p = {.name = name, .entry = entry, .arg = arg, .priority = priority,
                            .stack_size = H_STACK, .period = period, .deadline = deadline,
                            .offset = offset};
    takt_task_t *t = NULL;
    int rc = takt_server_task_create(s, &p, &t);
    if (rc != TAKT_OK) {
        fprintf(stderr, "creating task %s failed (%d)\n", name, rc);
        exit(3);
    }
    return t;
}

static inline takt_task_t *hsf_task(takt_server_t *s, const char *name, unsigned priority,
                                    void (*entry)(void *), void *arg)
{
    return hsf_task_full(s, name, priority, entry, arg, 0, 0, 0);
}

#endif
