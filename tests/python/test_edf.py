"""EDF on the kernel: the four ready queues (heap, EDF-L, red-black tree and the
hardware queue's model) agree, EDF picks the earliest
deadline, and the sim agrees with the processor-demand analysis (QPA).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import lcm

import pytest

from takt.analysis.edf import (
    analysis_bound,
    demand,
    edf_utilization,
    first_demand_overflow,
    processor_demand,
    utilization,
)
from takt.model import RunResult, Scenario, SystemConfig, Task, TimelineRow
from takt.scenario import parse_scenario
from takt.sim import run_scenario

QUEUES = ("heap", "mlist", "rbtree", "hwpq")
PERIODS = (4, 5, 6, 8, 10, 12, 15, 20)


def edf_scenario(tasks: list[Task], duration: int, queue: str = "heap") -> Scenario:
    return Scenario(
        system=SystemConfig(policy="edf", ready_queue=queue, duration=duration),
        tasks=tuple(tasks),
        source="generated",
    )


def random_tasks(rng: random.Random, constrained: bool, offsets: bool) -> list[Task]:
    n = rng.randint(1, 8)
    target = rng.choice([0.5, 0.8, 0.95, 1.0, 1.1, 1.4])
    tasks = []
    for i in range(n):
        period = rng.choice(PERIODS)
        wcet = max(1, min(period, round(period * target / n * rng.uniform(0.4, 1.6))))
        deadline = rng.randint(wcet, period) if constrained and rng.random() < 0.7 else period
        offset = rng.randint(0, period) if offsets and rng.random() < 0.5 else 0
        tasks.append(Task(f"t{i}", period, wcet, deadline, offset))
    return tasks


def per_tick(timeline: list[TimelineRow], duration: int) -> list[tuple[str, int | None]]:
    ticks: list[tuple[str, int | None]] = []
    for row in timeline:
        ticks.extend([(row.task, row.job)] * (row.end - row.start))
    assert len(ticks) == duration
    return ticks


@dataclass
class Job:
    task: Task
    index: int
    release: int
    deadline: int
    done: int = 0


def edf_violations(scenario: Scenario, result: RunResult) -> list[str]:
    """Per tick: the running job is a ready job with the earliest deadline, and
    the processor idles only when nothing is ready. Computed from the scenario
    and the timeline alone."""
    duration = scenario.system.duration
    jobs: dict[tuple[str, int], Job] = {}
    for task in scenario.tasks:
        k = 0
        while task.offset + k * task.period < duration:
            release = task.offset + k * task.period
            jobs[(task.name, k)] = Job(task, k, release, release + task.deadline)
            k += 1
    problems: list[str] = []
    for t, (name, index) in enumerate(per_tick(result.timeline, duration)):
        ready = []
        for task in scenario.tasks:
            # the oldest unfinished released job of each task is the ready one
            k = 0
            while (task.name, k) in jobs and jobs[(task.name, k)].done == task.wcet:
                k += 1
            job = jobs.get((task.name, k))
            if job is not None and job.release <= t:
                ready.append(job)
        if name == "idle":
            if ready:
                problems.append(f"t={t}: idle while {[j.task.name for j in ready]} ready")
            continue
        assert index is not None
        running = jobs[(name, index)]
        if running not in ready:
            problems.append(f"t={t}: {name}#{index} runs but is not ready")
        elif any(j.deadline < running.deadline for j in ready):
            problems.append(f"t={t}: {name}#{index} (d={running.deadline}) runs, earlier exists")
        running.done += 1
    return problems


@pytest.mark.parametrize("chunk", range(10))
def test_queues_give_identical_timelines(chunk: int) -> None:
    """1,000 random task sets (implicit and constrained deadlines, offsets, ties,
    overload): heap, mlist, rbtree and hwpq give the same timeline and job table, and
    the timeline is an EDF schedule."""
    for seed in range(chunk * 100, chunk * 100 + 100):
        rng = random.Random(seed)
        tasks = random_tasks(rng, constrained=seed % 2 == 0, offsets=seed % 3 == 0)
        duration = rng.randint(30, 150)
        results = {q: run_scenario(edf_scenario(tasks, duration, q)) for q in QUEUES}
        base = results["heap"]
        for queue in QUEUES[1:]:
            assert results[queue].timeline == base.timeline, f"seed {seed}: {queue} differs"
            assert results[queue].jobs == base.jobs, f"seed {seed}: {queue} jobs differ"
        problems = edf_violations(edf_scenario(tasks, duration), base)
        assert not problems, f"seed {seed}: {problems[:5]}"


@pytest.mark.parametrize("queue", QUEUES)
def test_deadlines_across_the_tick_wraparound(queue: str) -> None:
    rng = random.Random(7)
    for _ in range(20):
        tasks = random_tasks(rng, constrained=True, offsets=True)
        scenario = edf_scenario(tasks, 120, queue)
        plain = run_scenario(scenario)
        wrapped = run_scenario(scenario, tick_start=0xFFFFFFFF - 50)
        assert wrapped.timeline == plain.timeline
        assert wrapped.jobs == plain.jobs


def test_equal_deadline_never_preempts() -> None:
    # B's job, released at 1, has deadline 4 like the running A job: A keeps the processor.
    scenario = parse_scenario(
        """
        [system]
        policy = "edf"
        duration = 8
        [[task]]
        name = "A"
        period = 8
        wcet = 3
        deadline = 4
        [[task]]
        name = "B"
        period = 8
        wcet = 1
        deadline = 3
        offset = 1
        """
    )
    for queue in QUEUES:
        system = SystemConfig(policy="edf", ready_queue=queue, duration=8)
        result = run_scenario(Scenario(system, scenario.tasks))
        rows = [(r.start, r.end, r.task) for r in result.timeline]
        assert rows == [(0, 3, "A"), (3, 4, "B"), (4, 8, "idle")], queue


# ---- analysis ----


def brute_force_schedulable(tasks: list[Task]) -> bool:
    """h(t) <= t at every absolute deadline up to hyperperiod + max D (U <= 1)."""
    if utilization(tasks) > 1:
        return False
    horizon = lcm(*(t.period for t in tasks)) + max(t.deadline for t in tasks)
    return first_demand_overflow(tasks, horizon) is None


def test_qpa_matches_the_demand_scan() -> None:
    rng = random.Random(11)
    verdicts = {True: 0, False: 0}
    for _ in range(600):
        tasks = random_tasks(rng, constrained=True, offsets=False)
        result = processor_demand(tasks)
        expected = brute_force_schedulable(tasks)
        assert result.schedulable is expected, tasks
        verdicts[expected] += 1
    assert verdicts[True] > 50 and verdicts[False] > 50  # both outcomes exercised


def test_qpa_textbook_example() -> None:
    # C=(1,2,3)... h(t): t=4: 1 (a) ; t=5: 1+2 ; t=6: ...; computed by hand:
    # a=(T6,C2,D4) b=(T8,C3,D5) c=(T12,C2,D7): h(4)=2, h(5)=5, h(7)=7, h(10)=9, h(12)=9...
    tasks = [Task("a", 6, 2, 4), Task("b", 8, 3, 5), Task("c", 12, 2, 7)]
    assert [demand(tasks, t) for t in (4, 5, 7, 10)] == [2, 5, 7, 9]
    assert processor_demand(tasks).schedulable is True
    tighter = [Task("a", 6, 2, 4), Task("b", 8, 3, 5), Task("c", 12, 3, 7)]
    assert demand(tighter, 7) == 8  # 8 > 7: the deadline at 7 is missed
    assert processor_demand(tighter).schedulable is False
    assert first_demand_overflow(tighter, 50) == 7


def test_sim_misses_iff_analysis_says_unschedulable() -> None:
    """Synchronous sets: the sim shows a deadline miss within the analysis
    horizon iff QPA says unschedulable, and the first missed deadline is the
    first t with h(t) > t."""
    rng = random.Random(23)
    seen = {True: 0, False: 0}
    for i in range(400):
        tasks = random_tasks(rng, constrained=True, offsets=False)
        schedulable = processor_demand(tasks).schedulable
        assert schedulable is not None
        bound = analysis_bound(tasks)
        if bound is None:  # U > 1: some deadline within a few hyperperiods overflows
            bound = 4 * lcm(*(t.period for t in tasks)) + max(t.deadline for t in tasks)
        overflow = first_demand_overflow(tasks, bound)
        assert (overflow is None) == schedulable
        duration = bound + 2  # a miss at deadline <= bound is seen (deadline < duration)
        result = run_scenario(edf_scenario(tasks, duration, QUEUES[i % len(QUEUES)]))
        missed = [j.deadline for j in result.jobs if j.missed]
        if schedulable:
            assert not missed, (tasks, missed)
        else:
            assert missed and min(missed) == overflow, (tasks, missed, overflow)
        seen[schedulable] += 1
    assert seen[True] > 50 and seen[False] > 50


def test_utilization_test_boundaries() -> None:
    at_one = [Task("a", 4, 2, 4), Task("b", 6, 3, 6)]  # U = 1/2 + 1/2
    assert edf_utilization(at_one).schedulable is True
    above = [Task("a", 4, 2, 4), Task("b", 6, 4, 6)]
    assert edf_utilization(above).schedulable is False
    constrained = [Task("a", 4, 1, 3)]
    assert edf_utilization(constrained).applicable is False
