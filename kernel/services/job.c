/*
 * The periodic job model (as in the EDF-on-FreeRTOS work): the kernel releases
 * job k of a periodic task at first_release + k*period, queues jobs released
 * while an earlier one is unfinished, and detects deadline misses exactly as
 * SCHEDULING.md "Jobs" says — once per job, at completion or at the first tick
 * after the deadline, whichever comes first.
 *
 * Each task has at most one deadline timer, watching its oldest job that has
 * no verdict yet, so miss detection never scans tasks.
 */
#include "../sched/bound.h"

static takt_tick_t release_of(const takt_task_t *task, uint32_t job)
{
    return task->first_release + job * task->period;
}

static takt_tick_t deadline_of(const takt_task_t *task, uint32_t job)
{
    return release_of(task, job) + task->rel_deadline;
}

/* The oldest released job still waiting for its deadline verdict. */
static uint32_t watched_job(const takt_task_t *task)
{
    return task->jobs_completed > task->jobs_miss_checked ? task->jobs_completed
                                                          : task->jobs_miss_checked;
}

static void arm_deadline_timer(takt_task_t *task)
{
    uint32_t job = watched_job(task);
    if (job < task->jobs_released) {
        timer_arm(&task->deadline_timer, deadline_of(task, job) + 1u);
    } else {
        timer_cancel(&task->deadline_timer);
    }
}

static void record_miss(takt_task_t *task, uint32_t job)
{
    task->deadline_misses++;
    if (task->server != NULL) {
        task->server->deadline_misses++;
    }
    trace_record(TAKT_EV_DEADLINE_MISS, task, job);
#if TAKT_CONFIG_DEADLINE_MISS_HOOK
    takt_deadline_miss_hook(task, job);
#endif
}

static void release_expired(takt_timer_t *timer)
{
    takt_task_t *task = TAKT_CONTAINER_OF(timer, takt_task_t, release_timer);
    uint32_t job = task->jobs_released++;
    trace_record(TAKT_EV_RELEASE, task, job);
    timer_arm(&task->release_timer, release_of(task, task->jobs_released));
    if (!takt_pq_node_queued(&task->deadline_timer.node)) {
        arm_deadline_timer(task);
    }
    if (task->state == TAKT_TASK_BLOCKED && task->wait == TAKT_WAIT_RELEASE) {
        task_wake(task, TAKT_WAIT_RELEASE);
    }
}

static void deadline_expired(takt_timer_t *timer)
{
    takt_task_t *task = TAKT_CONTAINER_OF(timer, takt_task_t, deadline_timer);
    uint32_t job = watched_job(task);
    KASSERT(job < task->jobs_released);
    record_miss(task, job);
    task->jobs_miss_checked = job + 1u;
    arm_deadline_timer(task);
}

TAKT_COLD void job_task_init(takt_task_t *task)
{
    timer_init(&task->release_timer, release_expired);
    timer_init(&task->deadline_timer, deadline_expired);
}

void job_model_start(takt_task_t *task, takt_tick_t offset)
{
    task->first_release = takt_kernel.ticks + offset;
    task->job_deadline = deadline_of(task, task->jobs_completed);
    task->state = TAKT_TASK_BLOCKED;
    task->wait = TAKT_WAIT_RELEASE;
    timer_arm(&task->release_timer, task->first_release);
    if (takt_kernel.started && offset == 0) {
        /* A release due now must not wait for the next tick. */
        timer_cancel(&task->release_timer);
        release_expired(&task->release_timer);
    }
}

void job_task_removed(takt_task_t *task)
{
    timer_cancel(&task->release_timer);
    timer_cancel(&task->deadline_timer);
}

bool job_pending(const takt_task_t *task)
{
    return task->jobs_released > task->jobs_completed;
}

int takt_job_end(void)
{
    if (!in_task_context()) {
        return TAKT_ERR_CONTEXT;
    }
    takt_task_t *self = takt_kernel.current;
    if (!(self->flags & TAKT_TASK_F_PERIODIC)) {
        return TAKT_ERR_STATE;
    }
    if (!current_may_block()) {
        return TAKT_ERR_CONTEXT; /* it may wait for its next release: not while switches are held */
    }
    port_critical_t key = port_critical_enter();
    uint32_t job = self->jobs_completed;
    if (job >= self->jobs_miss_checked) {
        if (takt_tick_before(self->job_deadline, takt_kernel.ticks)) {
            record_miss(self, job);
        }
        self->jobs_miss_checked = job + 1u;
    }
    trace_record(TAKT_EV_COMPLETE, self, job);
    self->jobs_completed++;
    self->job_deadline += self->period;
    arm_deadline_timer(self);
    if (job_pending(self)) {
        /* The next job was queued behind this one: it becomes ready now. */
        sched_make_unready(self);
        sched_make_ready(self);
        sched_reschedule();
    } else {
        sched_block_current(TAKT_WAIT_RELEASE);
    }
    port_critical_exit(key);
    return TAKT_OK;
}

uint32_t takt_task_jobs_released(const takt_task_t *task)
{
    return task_handle_valid(task) ? task->jobs_released : 0;
}

uint32_t takt_task_jobs_completed(const takt_task_t *task)
{
    return task_handle_valid(task) ? task->jobs_completed : 0;
}

uint32_t takt_task_deadline_misses(const takt_task_t *task)
{
    return task_handle_valid(task) ? task->deadline_misses : 0;
}
