/*
 * Deferred preemption on the kernel API directly: the surveillance system
 * that motivated FPDS (see examples/fpds_surveillance.toml for the scenario).
 *
 * The video task processes each frame in three steps that must not be
 * interrupted (think: a DMA transfer to the encoder that is expensive to
 * abandon). Between steps it offers a preemption point; before starting a
 * step it asks takt_should_yield() — an optional preemption point that costs
 * a flag test — and only then enters the kernel. The network task must send
 * every 10 ms; its response time is bounded by the longest video step. The
 * control task, between them in priority, runs every 20 ms from 10 ms: its
 * job at 10 arrives the instant video's second step ends, and the point
 * there lets it run first.
 *
 * The three tasks are examples/fpds_surveillance.toml's, run for 400 ms
 * instead of 40 (the schedule repeats every 40: `takt run` on the file gives
 * the same jobs, net's at 12 ending at 17 being the slowest); the bounds
 * checked are `takt analyze`'s worst-case response times for it (net 5,
 * ctrl 6).
 *
 * Runs on the sim port: 1 tick = 1 ms of virtual time.
 */
#include <stdio.h>

#include "takt/takt.h"
#include "takt_sim.h"

#define TICK_NS 1000000ull
#define FRAME_STEPS 3
#define STEP_TICKS 4

#define NET_OFFSET 2
#define NET_PERIOD 10
#define CTRL_OFFSET 10
#define CTRL_PERIOD 20

static takt_task_t video_tcb, net_tcb, ctrl_tcb;
static uint8_t video_stack[32768] __attribute__((aligned(16)));
static uint8_t net_stack[32768] __attribute__((aligned(16)));
static uint8_t ctrl_stack[32768] __attribute__((aligned(16)));
static unsigned yields_offered, steps_done;
static uint64_t net_worst_ns, ctrl_worst_ns;

/* Job k of a task is released at offset + k * period ticks (the run starts at 0). */
static void job_done(unsigned job, unsigned offset, unsigned period, uint64_t *worst_ns)
{
    uint64_t response = takt_sim_now() - ((uint64_t)offset + (uint64_t)job * period) * TICK_NS;
    if (response > *worst_ns) {
        *worst_ns = response;
    }
}

static void video_main(void *arg)
{
    (void)arg;
    for (;;) {
        for (int step = 0; step < FRAME_STEPS; step++) {
            if (takt_should_yield()) {
                yields_offered++; /* someone urgent waits: let it go before the transfer */
                takt_preemption_point();
            }
            takt_sim_work(STEP_TICKS * TICK_NS); /* one non-preemptive step */
            steps_done++;
        }
        takt_job_end();
    }
}

static void net_main(void *arg)
{
    (void)arg;
    for (unsigned job = 0;; job++) {
        takt_sim_work(2 * TICK_NS);
        job_done(job, NET_OFFSET, NET_PERIOD, &net_worst_ns);
        takt_job_end();
    }
}

static void ctrl_main(void *arg)
{
    (void)arg;
    for (unsigned job = 0;; job++) {
        takt_sim_work(1 * TICK_NS);
        job_done(job, CTRL_OFFSET, CTRL_PERIOD, &ctrl_worst_ns);
        takt_job_end();
    }
}

int main(void)
{
    takt_sim_params_t sim = {.tick_period_ns = TICK_NS, .end_ns = 400 * TICK_NS};
    takt_init_params_t init = {.scheduler = TAKT_SCHED_FP, .preemption = TAKT_PREEMPT_DEFERRED};
    if (takt_sim_configure(&sim) != TAKT_OK || takt_init(&init) != TAKT_OK) {
        fprintf(stderr, "kernel initialisation failed\n");
        return 1;
    }
    takt_task_params_t video = {.name = "video", .entry = video_main, .priority = 1,
                                .period = 40, .wcet = FRAME_STEPS * STEP_TICKS};
    takt_task_params_t net = {.name = "net", .entry = net_main, .priority = 3,
                              .period = NET_PERIOD, .wcet = 2, .offset = NET_OFFSET};
    takt_task_params_t ctrl = {.name = "ctrl", .entry = ctrl_main, .priority = 2,
                               .period = CTRL_PERIOD, .wcet = 1, .offset = CTRL_OFFSET};
    if (takt_task_create_static(&video, &video_tcb, video_stack, sizeof(video_stack)) != TAKT_OK ||
        takt_task_create_static(&net, &net_tcb, net_stack, sizeof(net_stack)) != TAKT_OK ||
        takt_task_create_static(&ctrl, &ctrl_tcb, ctrl_stack, sizeof(ctrl_stack)) != TAKT_OK) {
        fprintf(stderr, "task creation failed\n");
        return 1;
    }
    takt_start();
    printf("video: %u frames, %u steps, %u optional preemption points taken, %u misses\n",
           takt_task_jobs_completed(&video_tcb), steps_done, yields_offered,
           takt_task_deadline_misses(&video_tcb));
    printf("net: %u jobs, %u misses, worst response %llu ms (bound: longest video step - 1 + 2 = %d)\n",
           takt_task_jobs_completed(&net_tcb), takt_task_deadline_misses(&net_tcb),
           (unsigned long long)(net_worst_ns / TICK_NS), STEP_TICKS - 1 + 2);
    printf("ctrl: %u jobs, %u misses, worst response %llu ms (bound: longest video step - 1 + net's 2 + 1 = %d)\n",
           takt_task_jobs_completed(&ctrl_tcb), takt_task_deadline_misses(&ctrl_tcb),
           (unsigned long long)(ctrl_worst_ns / TICK_NS), STEP_TICKS - 1 + 2 + 1);
    bool ok = net_worst_ns / TICK_NS <= STEP_TICKS - 1 + 2 && ctrl_worst_ns / TICK_NS <= STEP_TICKS - 1 + 2 + 1 &&
              takt_task_deadline_misses(&net_tcb) == 0 && takt_task_deadline_misses(&ctrl_tcb) == 0 &&
              takt_task_deadline_misses(&video_tcb) == 0;
    printf("%s\n", ok ? "surveillance: OK" : "surveillance: FAILED");
    takt_teardown();
    return ok ? 0 : 1;
}
