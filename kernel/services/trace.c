/*
 * The trace ring buffer. Writers are the kernel (under its lock); the reader
 * is the application or the port draining it. A full ring never loses an event
 * silently: lost events are counted and reported by an OVERFLOW event. With
 * TAKT_CONFIG_TRACE_HOOK every event also goes to the application's hook.
 */
#include "../internal.h"

#if TAKT_CONFIG_TRACE

static struct {
    takt_trace_event_t ring[TAKT_CONFIG_TRACE_EVENTS];
    uint32_t written; /* events ever written (index of the next write, mod size) */
    uint32_t read;    /* events ever read */
    uint32_t lost_total;
    uint32_t lost_unreported;
} trace;

void trace_reset(void)
{
    trace.written = 0;
    trace.read = 0;
    trace.lost_total = 0;
    trace.lost_unreported = 0;
}

static bool ring_full(void)
{
    return trace.written - trace.read == TAKT_CONFIG_TRACE_EVENTS;
}

static bool put(takt_event_type_t type, uint16_t task, uint32_t arg)
{
#if TAKT_CONFIG_TRACE_DRAIN_HOOK
    if (ring_full()) {
        takt_trace_drain_hook();
    }
#endif
    if (ring_full()) {
        return false;
    }
    takt_trace_event_t *ev = &trace.ring[trace.written % TAKT_CONFIG_TRACE_EVENTS];
    ev->stamp = port_timestamp();
    ev->type = (uint16_t)type;
    ev->task = task;
    ev->arg = arg;
    trace.written++;
    return true;
}

static void ring_record(takt_event_type_t type, uint16_t id, uint32_t arg)
{
    port_critical_t key = port_critical_enter();
    bool reported = trace.lost_unreported == 0 ||
                    put(TAKT_EV_OVERFLOW, TAKT_TRACE_NO_TASK, trace.lost_unreported);
    if (reported) {
        trace.lost_unreported = 0;
    }
    if (!reported || !put(type, id, arg)) {
        trace.lost_total++;
        trace.lost_unreported++;
    }
    port_critical_exit(key);
}

size_t takt_trace_read(takt_trace_event_t *out, size_t max)
{
    if (out == NULL) {
        return 0; /* nothing read: the events stay for a call that can take them */
    }
    port_critical_t key = port_critical_enter();
    size_t n = 0;
    while (n < max && trace.read != trace.written) {
        out[n++] = trace.ring[trace.read % TAKT_CONFIG_TRACE_EVENTS];
        trace.read++;
    }
    port_critical_exit(key);
    return n;
}

uint32_t takt_trace_lost(void)
{
    return trace.lost_total;
}

#else

static inline void ring_record(takt_event_type_t type, uint16_t id, uint32_t arg)
{
    (void)type;
    (void)id;
    (void)arg;
}

void trace_reset(void)
{
}

size_t takt_trace_read(takt_trace_event_t *out, size_t max)
{
    (void)out;
    (void)max;
    return 0;
}

uint32_t takt_trace_lost(void)
{
    return 0;
}

#endif

#if TAKT_CONFIG_TRACE || TAKT_CONFIG_TRACE_HOOK
/* The application's hook first: it sees the event before the ring drains. */
void trace_record(takt_event_type_t type, const takt_task_t *task, uint32_t arg)
{
    uint16_t id = task != NULL ? task->id : TAKT_TRACE_NO_TASK;
#if TAKT_CONFIG_TRACE_HOOK
    takt_trace_hook(type, (takt_task_t *)task, id, arg);
#endif
    ring_record(type, id, arg);
}

void trace_record_id(takt_event_type_t type, uint16_t id, uint32_t arg)
{
#if TAKT_CONFIG_TRACE_HOOK
    takt_trace_hook(type, NULL, id, arg);
#endif
    ring_record(type, id, arg);
}
#endif
