/*
 * Trace ring overflow, on a kernel built with a 16-event ring and no drain
 * hook (config_small): lost events are counted (takt_trace_lost) and reported
 * by a TAKT_EV_OVERFLOW event carrying the count as soon as there is room.
 * A yield with no equal task records exactly one event (TAKT_EV_YIELD) and
 * takes no modelled time, so the test controls the ring precisely. It runs
 * on the test port (harness_port.h) without the harness, whose log would
 * drain the ring.
 */
#include <stdlib.h>

#include "check.h"
#include "harness_port.h"
#include "takt/takt.h"

#define RING TAKT_CONFIG_TRACE_EVENTS

static takt_trace_event_t ev[64];
static int id;
static int done;

static void yields(int n)
{
    for (int i = 0; i < n; i++) {
        takt_yield();
    }
}

static size_t drain(void)
{
    return takt_trace_read(ev, 64);
}

static bool all_yields(size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        if (ev[i].type != TAKT_EV_YIELD || ev[i].task != id) {
            return false;
        }
    }
    return true;
}

static void body(void *arg)
{
    (void)arg;
    id = takt_task_id(NULL);
    hp_work_ns(T(1));
    CHECK(drain() > 0); /* creation, dispatch */
    CHECK_EQ(drain(), 0);
    CHECK_EQ(takt_trace_lost(), 0);

    /* 20 events into a 16-event ring: the 4 newest are lost */
    yields(RING + 4);
    CHECK_EQ(takt_trace_lost(), 4);
    size_t n = drain();
    CHECK_EQ(n, RING);
    CHECK(all_yields(0, n));

    /* room again: the next event is preceded by OVERFLOW(4) */
    yields(1);
    n = drain();
    CHECK_EQ(n, 2);
    CHECK_EQ(ev[0].type, TAKT_EV_OVERFLOW);
    CHECK_EQ(ev[0].task, TAKT_TRACE_NO_TASK);
    CHECK_EQ(ev[0].arg, 4);
    CHECK_EQ(hp_stamp_ns(ev[0].stamp), T(1));
    CHECK(all_yields(1, 2));
    CHECK_EQ(takt_trace_lost(), 4);

    /* a second overflow reports only what was lost since the first report */
    yields(RING + 1);
    CHECK_EQ(takt_trace_lost(), 5);
    CHECK_EQ(takt_trace_read(NULL, 3), 0); /* no buffer: nothing taken */
    CHECK_EQ(takt_trace_read(ev, 3), 3); /* three slots free */
    yields(1);                           /* OVERFLOW(1) + YIELD */
    n = drain();
    CHECK_EQ(n, RING - 3 + 2);
    CHECK(all_yields(0, n - 2));
    CHECK_EQ(ev[n - 2].type, TAKT_EV_OVERFLOW);
    CHECK_EQ(ev[n - 2].arg, 1);
    CHECK(all_yields(n - 1, n));

    /* exactly one free slot: the OVERFLOW event fits, the event itself is lost */
    yields(RING + 2); /* 16 stored, 2 lost */
    CHECK_EQ(takt_trace_lost(), 7);
    CHECK_EQ(takt_trace_read(ev, 1), 1);
    yields(1); /* OVERFLOW(2) takes the slot; this yield is lost */
    CHECK_EQ(takt_trace_lost(), 8);
    n = drain();
    CHECK_EQ(n, RING);
    CHECK(all_yields(0, n - 1));
    CHECK_EQ(ev[n - 1].type, TAKT_EV_OVERFLOW);
    CHECK_EQ(ev[n - 1].arg, 2);
    yields(1); /* OVERFLOW(1) for the yield lost above, then this one */
    n = drain();
    CHECK_EQ(n, 2);
    CHECK_EQ(ev[0].type, TAKT_EV_OVERFLOW);
    CHECK_EQ(ev[0].arg, 1);
    CHECK(all_yields(1, 2));
    CHECK_EQ(takt_trace_lost(), 8);
    done = 1;
    for (;;) {
        takt_task_suspend(NULL);
    }
}

int main(void)
{
    for (int run = 0; run < 2; run++) { /* twice: takt_init resets the ring and counts */
        takt_init_params_t init = {.tick_start = run ? 0xFFFFFFF0u : 0u};
        done = 0;
        if (hp_configure(5) != TAKT_OK || takt_init(&init) != TAKT_OK) {
            return 3;
        }
        takt_task_params_t p = {.name = "y", .entry = body, .priority = 1,
                                .stack_size = HP_STACK};
        takt_task_t *t;
        CHECK_EQ(takt_task_create(&p, &t), TAKT_OK);
        takt_start();
        CHECK_EQ(done, 1);
        takt_teardown();
    }
    return CHECK_SUMMARY();
}
