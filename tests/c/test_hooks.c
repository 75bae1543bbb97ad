/*
 * The idle and tick hooks (TAKT_CONFIG_IDLE_HOOK, TAKT_CONFIG_TICK_HOOK: on in
 * the test kernel, off in the small one, whose programs do not define them):
 * the tick hook runs once per tick, after the tick count advanced and after
 * the tick's wake-ups; the idle hook runs only while the idle task runs.
 */
#include "harness.h"

static takt_task_t *worker;
static char tick_seen[512];
static size_t tick_seen_len;
static takt_tick_t idle_ticks[64];
static size_t idle_n;

/* At each tick: the tick count (relative) and whether the worker is ready. */
static void probe(void)
{
    if (tick_seen_len + 16 < sizeof(tick_seen)) {
        tick_seen_len += (size_t)snprintf(tick_seen + tick_seen_len,
                                          sizeof(tick_seen) - tick_seen_len, "%s%u%s",
                                          tick_seen_len ? " " : "", (unsigned)h_now_ticks(),
                                          takt_task_state(worker) == TAKT_TASK_READY ? "r" : "");
    }
}

static void idle_probe(void)
{
    if (idle_n < sizeof(idle_ticks) / sizeof(idle_ticks[0])) {
        idle_ticks[idle_n++] = h_now_ticks();
    }
}

static void work_then_sleep(void *arg)
{
    (void)arg;
    h_work(3);
    CHECK_EQ(takt_delay(4), TAKT_OK); /* 3 .. 7 */
    h_work(2);                        /* 7 .. 9 */
    h_park();
}

static void scenario_hooks(takt_tick_t tick0)
{
    h_begin(tick0, 12, false);
    tick_seen_len = 0;
    tick_seen[0] = '\0';
    idle_n = 0;
    worker = h_task("W", 1, work_then_sleep, NULL);
    h_tick_probe = probe;
    h_idle_probe = idle_probe;
    h_start();
    /* 11 ticks in a 12-tick run (the run ends at tick 12, before its tick);
     * at 7 the delay has ended by the time the hook runs (the worker is ready,
     * not yet running: the switch comes after the interrupt) */
    CHECK_EQ(h_tick_hook_calls, 11u);
    CHECK_EQ(h_tick_hook_last - tick0, 11u);
    CHECK_STREQ(tick_seen, "1 2 3 4 5 6 7r 8 9 10 11");
    CHECK(h_idle_hook_calls > 0);
    for (size_t i = 0; i < idle_n; i++) {
        takt_tick_t t = idle_ticks[i];
        CHECK((t >= 3 && t < 7) || t >= 9);
    }
    CHECK_EQ(idle_n, h_idle_hook_calls);
    h_end();
}

int main(void)
{
    h_both(scenario_hooks, "hooks");
    return CHECK_SUMMARY();
}
