"""Exact worst-case response times for fixed priorities with deferred
preemption (FPDS) and without preemption (FPNS), after Bril, Lukkien and
Verhaegh ("Worst-case response time analysis of real-time tasks under
fixed-priority scheduling with deferred preemption", Real-Time Systems 2009).

A job of task i is a sequence of non-preemptive subjobs; F_i is the length of
its final subjob (FPNS: the whole job). The worst case is not always the first
job after the critical instant, so every job in the level-i active period is
analysed:

- blocking B_i: the longest subjob of a lower-priority task, minus one tick —
  time is integer and a job released at the instant a subjob would start is
  seen by that scheduling decision (SCHEDULING.md "Order of events"), so a
  lower subjob can start at most one tick before the critical instant;
- level-i active period: WL = B_i + sum over j of equal or higher priority of
  ceil(WL / T_j) C_j; it holds l_i = ceil(WL / T_i) jobs of task i;
- job k's final subjob starts at the smallest WS with
  WS = B_i + (k + 1) C_i - F_i + sum over higher-priority j of (floor(WS / T_j) + 1) C_j,
  it finishes at WS + F_i, and its response time is WS + F_i - k T_i.

Tasks of equal priority count as higher priority (a sound bound). Offsets
are ignored (the synchronous release is the worst case).

The bound is exact over release phasings, not for one periodic run: its
blocking needs a lower subjob that started one tick before the level's
synchronous release, and a set released together at 0 starts its first
level-i active period without one (no lower job can start while level-i work
waits). So a deadline the bound exceeds is a proved miss only when it is
exceeded without the blocking too, in that first active period, which the run
then repeats; otherwise the verdict is inconclusive.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from takt.analysis.budget import Steps
from takt.analysis.fp import level_utilizations
from takt.analysis.results import TaskResult, TestResult
from takt.model import Task


def segments_of(task: Task, preemption: str) -> tuple[int, ...]:
    """The subjobs a task's job is made of under this preemption mode."""
    if preemption == "none" or not task.segments:
        return (task.wcet,)
    return task.segments


def _prio(task: Task) -> int:
    assert task.priority is not None
    return task.priority


def blocking(task: Task, tasks: Sequence[Task], preemption: str) -> int:
    lower = [t for t in tasks if _prio(t) < _prio(task)]
    longest = max((max(segments_of(t, preemption)) for t in lower), default=0)
    return max(0, longest - 1)


def job_response_times(
    task: Task,
    tasks: Sequence[Task],
    preemption: str,
    steps: Steps | None = None,
    *,
    blocked: bool = True,
    level_load: Fraction | None = None,
) -> list[int] | None:
    """Response time of every job of `task` in its level-i active period (None: unbounded);
    without the blocking (`blocked` False): the active period a synchronous release starts.
    `level_load`, when given, is the utilisation of `task` and the tasks of its priority
    or higher (takt.analysis.fp.level_utilizations)."""
    budget = steps or Steps()
    others = [t for t in tasks if t is not task]
    higher = [t for t in others if _prio(t) >= _prio(task)]
    level = [task, *higher]
    b = blocking(task, tasks, preemption) if blocked else 0
    load = sum(Fraction(t.wcet, t.period) for t in level) if level_load is None else level_load
    if load > 1 or (load == 1 and b > 0):
        return None  # the level-i active period never ends
    final = segments_of(task, preemption)[-1]
    wl = b + sum(t.wcet for t in level)
    while True:
        budget.take(1 + len(level), f"{task.name}'s level-i active period")
        nxt = b + sum(-(-wl // t.period) * t.wcet for t in level)
        if nxt == wl:
            break
        wl = nxt
    jobs = -(-wl // task.period)
    budget.take(jobs, f"the {jobs:,} jobs of {task.name}'s active period")
    responses = []
    for k in range(jobs):
        base = b + (k + 1) * task.wcet - final
        ws = base + sum(t.wcet for t in higher)
        while True:
            budget.take(1 + len(higher), f"{task.name}'s response time")
            nxt = base + sum((ws // t.period + 1) * t.wcet for t in higher)
            if nxt == ws:
                break
            ws = nxt
        responses.append(ws + final - k * task.period)
    return responses


def _analysis(tasks: Sequence[Task], preemption: str) -> TestResult:
    name = "fpds_wcrt" if preemption == "deferred" else "fpns_wcrt"
    if any(t.priority is None for t in tasks):
        return TestResult(name, False, None, "tasks without a priority")
    per_task = []
    steps = Steps()
    levels = level_utilizations(tasks)
    for task in tasks:
        responses = job_response_times(
            task, tasks, preemption, steps, level_load=levels[_prio(task)]
        )
        worst = None if responses is None else max(responses)
        per_task.append(
            TaskResult(
                task.name, worst, task.deadline, worst is not None and worst <= task.deadline
            )
        )
    ok = all(r.schedulable for r in per_task)
    notes = []
    if any(t.offset for t in tasks):
        notes.append("offsets ignored (sufficient)")
    if len({_prio(t) for t in tasks}) != len(tasks):
        notes.append("equal priorities counted as higher (upper bound)")
    verdict: bool | None = True if ok else (None if notes else False)
    if verdict is False and not any(
        _misses_when_released_together(task, tasks, preemption, steps, levels[_prio(task)])
        for task, result in zip(tasks, per_task, strict=True)
        if not result.schedulable
    ):
        verdict = None
        notes.append(
            "no miss without the blocking the bound assumes, which a synchronous "
            "release need not meet"
        )
    summary = (
        "all worst-case response times within deadlines"
        if ok
        else "deadline exceeded for " + ", ".join(r.task for r in per_task if not r.schedulable)
    )
    return TestResult(name, True, verdict, "; ".join([summary, *notes]), tuple(per_task))


def _misses_when_released_together(
    task: Task, tasks: Sequence[Task], preemption: str, steps: Steps, level_load: Fraction
) -> bool:
    """Whether a job of `task` misses in the active period a synchronous release starts."""
    responses = job_response_times(
        task, tasks, preemption, steps, blocked=False, level_load=level_load
    )
    return responses is None or max(responses) > task.deadline


def fpds_response_time_analysis(tasks: Sequence[Task]) -> TestResult:
    return _analysis(tasks, "deferred")


def fpns_response_time_analysis(tasks: Sequence[Task]) -> TestResult:
    return _analysis(tasks, "none")
