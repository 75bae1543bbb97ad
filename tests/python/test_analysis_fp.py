"""Tests for the fixed-priority schedulability analysis (takt.analysis)."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from fractions import Fraction
from math import lcm

import pytest

from takt.analysis import (
    FP_TESTS,
    AnalysisReport,
    TaskResult,
    TestResult,
    analyze_scenario,
    fp_response_times,
    hyperbolic,
    liu_layland,
    register_task_test,
    registered_tests,
    render_text,
    response_time_analysis,
    unregister_test,
    utilization,
)
from takt.analysis.fraction_text import exact_text, fraction_text
from takt.model import Scenario, SystemConfig, Task
from takt.scenario import parse_scenario


def task(
    name: str,
    wcet: int,
    period: int,
    priority: int | None,
    deadline: int | None = None,
    offset: int = 0,
) -> Task:
    return Task(
        name=name,
        period=period,
        wcet=wcet,
        deadline=period if deadline is None else deadline,
        offset=offset,
        priority=priority,
    )


def by_name(result: TestResult) -> dict[str, TaskResult]:
    return {r.task: r for r in result.per_task}


# ---------------------------------------------------------------------------
# Textbook response-time examples, derived by hand


def test_buttazzo_rm_example() -> None:
    # Buttazzo, Hard Real-Time Computing Systems: t1 (C=1, T=4), t2 (C=2, T=6),
    # t3 (C=3, T=10), RM priorities, D = T.
    #   R1 = 1.
    #   R2 = 2 + ceil(R/4)*1:  R = 3 -> 2 + 1 = 3.                      R2 = 3.
    #   R3 = 3 + ceil(R/4)*1 + ceil(R/6)*2:
    #        R = 6 -> 3 + 2 + 2 = 7 -> 3 + 2 + 4 = 9 -> 3 + 3 + 4 = 10 -> 10.  R3 = 10 <= 10.
    # U = 1/4 + 1/3 + 3/10 = 53/60 = 0.883 > 0.7798 (LL) and
    # (5/4)(4/3)(13/10) = 13/6 > 2 (hyperbolic): both bounds inconclusive, RTA proves it.
    tasks = [task("t1", 1, 4, 3), task("t2", 2, 6, 2), task("t3", 3, 10, 1)]
    rta = response_time_analysis(tasks)
    assert rta.test == "rta" and rta.applicable and rta.schedulable is True
    assert fp_response_times(tasks) == {"t1": 1, "t2": 3, "t3": 10}
    assert utilization(tasks) == Fraction(53, 60)
    assert liu_layland(tasks).schedulable is None
    assert hyperbolic(tasks).schedulable is None


def test_burns_wellings_example() -> None:
    # Burns & Wellings, Real-Time Systems and Programming Languages: a (C=3, T=7),
    # b (C=3, T=12), c (C=5, T=20), priorities a > b > c.
    #   Ra = 3.
    #   Rb = 3 + ceil(R/7)*3:  R = 6 -> 3 + 3 = 6.                                Rb = 6.
    #   Rc = 5 + ceil(R/7)*3 + ceil(R/12)*3:
    #        R = 11 -> 5 + 6 + 3 = 14 -> 5 + 6 + 6 = 17 -> 5 + 9 + 6 = 20 -> 20. Rc = 20 <= 20.
    tasks = [task("a", 3, 7, 3), task("b", 3, 12, 2), task("c", 5, 20, 1)]
    rta = response_time_analysis(tasks)
    assert rta.schedulable is True
    assert [(r.task, r.response_time, r.deadline, r.schedulable) for r in rta.per_task] == [
        ("a", 3, 7, True),
        ("b", 6, 12, True),
        ("c", 20, 20, True),
    ]


def test_unschedulable_first_job_is_not_the_worst() -> None:
    # As Buttazzo's example but C3 = 4 (U = 59/60). First job of t3:
    #   w = 4 + ceil(w/4) + 2 ceil(w/6): 7 -> 4+2+4 = 10 -> 4+3+4 = 11 -> 11.   R = 11 > T = 10,
    # so the level-3 busy period holds more jobs of t3:
    #   L = ceil(L/4) + 2 ceil(L/6) + 4 ceil(L/10): 7 -> 10 -> 11 -> 15 -> 18 -> 19 -> 21 -> 26
    #       -> 29 -> 30 -> 30.  L = 30: jobs q = 0, 1, 2.
    #   q = 1: w = 8 + ceil(w/4) + 2 ceil(w/6): 15 -> 18 -> 19 -> 21 -> 22 -> 22.  R = 22 - 10 = 12.
    #   q = 2: w = 12 + ...: 26 -> 29 -> 30 -> 30.                          R = 30 - 20 = 10.
    # Worst case 12 (the second job), not the classic recurrence's 11.
    tasks = [task("t1", 1, 4, 3), task("t2", 2, 6, 2), task("t3", 4, 10, 1)]
    rta = response_time_analysis(tasks)
    assert fp_response_times(tasks) == {"t1": 1, "t2": 3, "t3": 12}
    assert rta.schedulable is False
    assert by_name(rta)["t3"] == TaskResult("t3", 12, 10, False)
    assert "t3" in rta.detail


@pytest.mark.parametrize(("deadline", "ok"), [(118, True), (117, False), (200, True)])
def test_lehoczky_arbitrary_deadline(deadline: int, ok: bool) -> None:
    # Lehoczky (1990): t1 (C=26, T=70) above t2 (C=62, T=100), U = 0.9914.
    # Level-2 busy period: L = 26 ceil(L/70) + 62 ceil(L/100):
    #   88 -> 114 -> 176 -> 202 -> 264 -> 290 -> 316 -> 378 -> 404 -> 466 -> 492 -> 518
    #   -> 580 -> 606 -> 668 -> 694 -> 694: L = 694, so 7 jobs of t2 (q = 0..6).
    # w_q = 62 (q+1) + 26 ceil(w_q/70), R_q = w_q - 100 q:
    #   q=0: 88 -> 114 -> 114                      R = 114
    #   q=1: 176 -> 202 -> 202                     R = 102
    #   q=2: 264 -> 290 -> 316 -> 316              R = 116
    #   q=3: 352 -> 404 -> 404                     R = 104
    #   q=4: 440 -> 492 -> 518 -> 518              R = 118   <- worst: the fifth job
    #   q=5: 528 -> 580 -> 606 -> 606              R = 106
    #   q=6: 616 -> 668 -> 694 -> 694              R =  94
    tasks = [task("t1", 26, 70, 2), task("t2", 62, 100, 1, deadline=deadline)]
    rta = response_time_analysis(tasks)
    assert by_name(rta)["t2"] == TaskResult("t2", 118, deadline, ok)
    assert by_name(rta)["t1"].response_time == 26
    assert rta.schedulable is ok


def test_single_task() -> None:
    assert fp_response_times([task("a", 3, 5, 1)]) == {"a": 3}
    # wcet > deadline is allowed in a scenario; it just misses.
    rta = response_time_analysis([task("a", 4, 5, 1, deadline=3)])
    assert rta.per_task == (TaskResult("a", 4, 3, False),)
    assert rta.schedulable is False


def test_divergent_busy_period_gives_none() -> None:
    tasks = [task("hi", 2, 3, 2), task("lo", 2, 3, 1)]
    rta = response_time_analysis(tasks)
    assert fp_response_times(tasks) == {"hi": 2, "lo": None}
    assert by_name(rta)["lo"] == TaskResult("lo", None, 3, False)
    assert rta.schedulable is False


def test_utilization_exactly_one_converges() -> None:
    # U = 1/2 + 1/2: the busy period closes exactly at the hyperperiod.
    tasks = [task("a", 1, 2, 2), task("b", 2, 4, 1)]
    assert fp_response_times(tasks) == {"a": 1, "b": 4}


def test_equal_priorities_interfere_both_ways() -> None:
    # FIFO worst case: each equal-priority task is counted as interference for the other.
    tasks = [task("a", 1, 4, 5), task("b", 2, 4, 5), task("lo", 1, 8, 1)]
    rta = response_time_analysis(tasks)
    assert fp_response_times(tasks) == {"a": 3, "b": 3, "lo": 4}
    assert "equal priorities" in rta.detail


def test_equal_priority_failure_is_inconclusive() -> None:
    tasks = [task("a", 2, 4, 1, deadline=2), task("b", 2, 4, 1, deadline=2)]
    rta = response_time_analysis(tasks)
    assert [r.schedulable for r in rta.per_task] == [False, False]
    assert rta.schedulable is None


def test_offsets_make_failure_inconclusive() -> None:
    tasks = [task("a", 2, 4, 2), task("b", 3, 4, 1, offset=2)]
    rta = response_time_analysis(tasks)
    # U = 5/4 > 1: unschedulable whatever the offsets.
    assert fp_response_times(tasks) == {"a": 2, "b": None}
    assert rta.schedulable is False and "offsets" in rta.detail
    ok = response_time_analysis([task("a", 1, 4, 2), task("b", 1, 4, 1, offset=1)])
    assert ok.schedulable is True and "offsets" in ok.detail
    late = response_time_analysis([task("a", 2, 4, 2), task("b", 1, 4, 1, offset=2, deadline=2)])
    assert late.schedulable is None


def test_missing_priority_not_applicable() -> None:
    tasks = [task("a", 1, 4, None)]
    for test in FP_TESTS.values():
        result = test(tasks)
        assert not result.applicable
        assert result.schedulable is None
        assert "a" in result.detail
    with pytest.raises(ValueError):
        fp_response_times(tasks)


def test_empty_task_set() -> None:
    for test in FP_TESTS.values():
        assert not test([]).applicable
    assert fp_response_times([]) == {}


def test_registry_names() -> None:
    assert list(FP_TESTS) == ["liu_layland", "hyperbolic", "rta"]
    for name, test in FP_TESTS.items():
        assert test([task("a", 1, 4, 1)]).test == name


# ---------------------------------------------------------------------------
# Utilisation bounds


def test_liu_layland_exactly_at_bound_n1() -> None:
    # n = 1: bound 1(2^1 - 1) = 1, U = 1 exactly. (For n >= 2 the bound is irrational, so
    # no rational utilisation equals it; the comparison is exact: (U/n + 1)^n <= 2.)
    result = liu_layland([task("a", 5, 5, 1)])
    assert result.applicable and result.schedulable is True


def test_liu_layland_just_below_and_above_n2() -> None:
    # Bound for n = 2: 2(sqrt 2 - 1) = 0.828427...
    below = [task("a", 4142, 10000, 2), task("b", 4142, 10001, 1)]  # U = 0.8283586
    above = [task("a", 4142, 10000, 2), task("b", 4143, 10001, 1)]  # U = 0.8284586
    assert liu_layland(below).schedulable is True
    result = liu_layland(above)
    assert result.applicable and result.schedulable is None
    assert "0.8284" in result.detail


def test_liu_layland_n3_boundary() -> None:
    # Bound for n = 3: 3(2^(1/3) - 1) = 0.7797631...
    # 1/3 + 1/4 = 0.583333..., so the third task's share at the bound is 0.196430.
    below = [task("a", 1, 3, 3), task("b", 1, 4, 2), task("c", 1964, 10000, 1)]  # 0.7797333
    above = [task("a", 1, 3, 3), task("b", 1, 4, 2), task("c", 1965, 10000, 1)]  # 0.7798333
    assert utilization(below) < Fraction(7797631, 10**7) < utilization(above)
    assert liu_layland(below).schedulable is True
    assert liu_layland(above).schedulable is None


def test_hyperbolic_exactly_at_bound() -> None:
    # (1/2 + 1)(1/3 + 1) = 3/2 * 4/3 = 2 exactly: schedulable, while U = 5/6 = 0.833 is
    # above the LL bound 0.8284 for n = 2 (the hyperbolic bound is tighter).
    tasks = [task("a", 1, 2, 2), task("b", 1, 3, 1)]
    assert hyperbolic(tasks).schedulable is True
    assert liu_layland(tasks).schedulable is None
    assert fp_response_times(tasks) == {"a": 1, "b": 2}


def test_hyperbolic_just_above_bound() -> None:
    # (3/2)(1 + 101/300) = 401/200 > 2.
    tasks = [task("a", 1, 2, 2), task("b", 101, 300, 1)]
    result = hyperbolic(tasks)
    assert result.applicable and result.schedulable is None
    assert "2.0050 > 2" in result.detail


def test_bounds_prove_unschedulable_when_u_above_one() -> None:
    tasks = [task("a", 3, 4, 2), task("b", 2, 5, 1)]
    for test in (liu_layland, hyperbolic):
        result = test(tasks)
        assert result.applicable and result.schedulable is False
        assert "> 1" in result.detail


def test_bounds_not_applicable_for_constrained_deadlines() -> None:
    tasks = [task("a", 1, 10, 2, deadline=5), task("b", 1, 20, 1)]
    for test in (liu_layland, hyperbolic):
        result = test(tasks)
        assert not result.applicable and result.schedulable is None
        assert "D < T" in result.detail


def test_bounds_accept_deadlines_beyond_period() -> None:
    tasks = [task("a", 1, 10, 2, deadline=15), task("b", 1, 20, 1, deadline=40)]
    assert liu_layland(tasks).schedulable is True
    assert hyperbolic(tasks).schedulable is True


def test_bounds_need_rate_monotonic_priorities() -> None:
    tasks = [task("a", 1, 10, 1), task("b", 1, 20, 2)]
    for test in (liu_layland, hyperbolic):
        result = test(tasks)
        assert not result.applicable
        assert "rate-monotonic" in result.detail
    # Equal priorities are fine for equal periods only.
    assert liu_layland([task("a", 1, 10, 1), task("b", 1, 10, 1)]).applicable
    assert not liu_layland([task("a", 1, 10, 1), task("b", 1, 20, 1)]).applicable


# ---------------------------------------------------------------------------
# RM / DM assignment feeding the analysis


RM_DM_SCENARIO = """
[system]
priority = "{assignment}"

[[task]]
name = "A"
period = 12
wcet = 3
deadline = 6

[[task]]
name = "B"
period = 8
wcet = 2

[[task]]
name = "C"
period = 12
wcet = 2

[[task]]
name = "D"
period = 8
wcet = 1
deadline = 7
"""


def test_rm_assignment_and_rta() -> None:
    s = parse_scenario(RM_DM_SCENARIO.format(assignment="rm"))
    # Periods 12, 8, 12, 8: B and D tie at 8 (B first), A and C tie at 12 (A first).
    assert {t.name: t.priority for t in s.tasks} == {"B": 4, "D": 3, "A": 2, "C": 1}
    # RB = 2; RD = 1 + 2 = 3; RA = 3 + ceil(R/8)(2+1): 6 -> 6 ; RC = 2 + ceil(R/8)3 + ceil(R/12)3:
    #   8 -> 2+3+3 = 8 -> 8.
    assert fp_response_times(s.tasks) == {"A": 6, "B": 2, "C": 8, "D": 3}


def test_dm_assignment_and_rta() -> None:
    s = parse_scenario(RM_DM_SCENARIO.format(assignment="dm"))
    # Deadlines 6, 8, 12, 7: A > D > B > C.
    assert {t.name: t.priority for t in s.tasks} == {"A": 4, "D": 3, "B": 2, "C": 1}
    # RA = 3; RD = 1 + 3 = 4; RB = 2 + 3 + 1 = 6; RC = 2 + ceil(R/12)3 + ceil(R/8)(1+2):
    #   8 -> 2+3+3 = 8 -> 8.
    assert fp_response_times(s.tasks) == {"A": 3, "B": 6, "C": 8, "D": 4}


def test_dm_ties_by_definition_order() -> None:
    text = """
    [system]
    priority = "dm"
    [[task]]
    name = "X"
    period = 10
    wcet = 1
    deadline = 5
    [[task]]
    name = "Y"
    period = 5
    wcet = 1
    """
    s = parse_scenario(text.replace("\n    ", "\n"))
    assert [t.priority for t in s.tasks] == [2, 1]


# ---------------------------------------------------------------------------
# analyze_scenario / render_text / registry


def scenario(policy: str = "fp", preemption: str = "full") -> Scenario:
    priority = "" if policy == "edf" else 'priority = "rm"'  # EDF refuses an assignment
    text = f"""
[system]
policy = "{policy}"
preemption = "{preemption}"
{priority}

[[task]]
name = "t1"
period = 4
wcet = 1

[[task]]
name = "t2"
period = 6
wcet = 2

[[task]]
name = "t3"
period = 10
wcet = 3
"""
    return parse_scenario(text, "demo.toml")


def test_analyze_fp_full_runs_all_tests() -> None:
    report = analyze_scenario(scenario())
    assert isinstance(report, AnalysisReport)
    assert report.policy == "fp" and report.preemption == "full"
    assert report.utilization == Fraction(53, 60)
    assert [r.test for r in report.results] == ["liu_layland", "hyperbolic", "rta"]
    assert [r.schedulable for r in report.results] == [None, None, True]
    assert report.available


@pytest.mark.parametrize(("preemption", "test"), [("none", "fpns_wcrt"), ("deferred", "fpds_wcrt")])
def test_analyze_fp_without_full_preemption(preemption: str, test: str) -> None:
    report = analyze_scenario(scenario("fp", preemption))
    assert report.available
    assert [r.test for r in report.results] == [test]


def test_analyze_hsf_without_full_preemption_not_available() -> None:
    s = Scenario(
        system=SystemConfig(policy="hsf", preemption="none"),
        tasks=(task("a", 1, 4, 1),),
        source="x.toml",
    )
    report = analyze_scenario(s)
    assert "not available yet" in report.results[0].detail
    assert "not available" in render_text(report)


def test_registering_a_test() -> None:
    def always(tasks: Sequence[Task]) -> TestResult:
        return TestResult("always", True, True, f"{len(tasks)} tasks")

    register_task_test("fp", "none", "always", always)
    try:
        assert "always" in registered_tests("fp", "none")
        report = analyze_scenario(scenario("fp", "none"))
        assert report.results[-1] == TestResult("always", True, True, "3 tasks")
    finally:
        unregister_test("fp", "none", "always")
    assert "always" not in registered_tests("fp", "none")


def test_analyze_edf_runs_the_edf_tests() -> None:
    report = analyze_scenario(scenario("edf"))
    assert [r.test for r in report.results] == ["edf_utilization", "qpa"]
    assert report.available


def test_render_text() -> None:
    text = render_text(analyze_scenario(scenario()))
    assert "demo.toml" in text
    assert "53/60" in text and "0.8833" in text
    assert "inconclusive" in text and "schedulable" in text
    lines = text.splitlines()
    header = next(line for line in lines if line.split()[:2] == ["task", "prio"])
    assert header.split() == ["task", "prio", "C", "T", "D", "R", "ok"]
    rows = {line.split()[0]: line.split() for line in lines[lines.index(header) + 1 :] if line}
    assert rows["t3"] == ["t3", "1", "3", "10", "10", "10", "yes"]
    assert rows["t1"] == ["t1", "3", "1", "4", "4", "1", "yes"]


def test_render_text_miss_and_unbounded() -> None:
    s = Scenario(
        system=SystemConfig(),
        tasks=(task("hi", 2, 3, 2), task("lo", 2, 3, 1)),
    )
    text = render_text(analyze_scenario(s))
    assert "NOT schedulable" in text
    assert "unbounded" in text and "MISS" in text


# ---------------------------------------------------------------------------
# Property test: RTA against a brute-force tick-by-tick FPPS simulation


def simulate(tasks: Sequence[Task]) -> list[list[int]]:
    """Response times of every job released in [0, H), per task, by tick-level FPPS.

    Synchronous release; among equal priorities the job that became ready first runs
    first, then the task defined first; a preempted job keeps its place; jobs of one task
    run in order. With U <= 1 all those jobs complete by the hyperperiod H.
    """
    n = len(tasks)
    horizon = lcm(*(t.period for t in tasks))
    prio = [t.priority or 0 for t in tasks]
    queues: list[deque[list[int]]] = [deque() for _ in tasks]  # [release, remaining]
    ready_since = [0] * n
    responses: list[list[int]] = [[] for _ in tasks]
    for now in range(horizon):
        for i, t in enumerate(tasks):
            if now % t.period == 0:
                if not queues[i]:
                    ready_since[i] = now
                queues[i].append([now, t.wcet])
        ready = [i for i in range(n) if queues[i]]
        if not ready:
            continue
        run = min(ready, key=lambda i: (-prio[i], ready_since[i], i))
        job = queues[run][0]
        job[1] -= 1
        if job[1] == 0:
            responses[run].append(now + 1 - job[0])
            queues[run].popleft()
            ready_since[run] = now + 1
    assert all(not q for q in queues), "backlog at the hyperperiod despite U <= 1"
    return responses


PERIODS = [2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 24, 30, 40, 60]


def random_task_set(rng: random.Random, distinct: bool) -> list[Task]:
    while True:
        n = rng.randint(1, 5)
        tasks: list[Task] = []
        priorities = rng.sample(range(1, 256), n)
        for k in range(n):
            period = rng.choice(PERIODS)
            wcet = rng.randint(1, max(1, period * 2 // n))
            kind = rng.random()
            if kind < 0.5:
                deadline = period
            elif kind < 0.75:
                deadline = rng.randint(1, period)
            else:
                deadline = rng.randint(period, 3 * period)
            priority = priorities[k] if distinct else rng.randint(1, 3)
            tasks.append(task(f"t{k}", wcet, period, priority, deadline=deadline))
        if utilization(tasks) <= 1:
            return tasks


@pytest.mark.parametrize("distinct", [True, False])
def test_rta_matches_simulation(distinct: bool) -> None:
    rng = random.Random(20240601 if distinct else 7)
    later_job_worse = 0
    for _ in range(300):
        tasks = random_task_set(rng, distinct)
        rta = response_time_analysis(tasks)
        simulated = simulate(tasks)
        for t, result, jobs in zip(tasks, rta.per_task, simulated, strict=True):
            assert result.response_time is not None, tasks
            worst = max(jobs)
            if distinct:
                # Exact: the synchronous release is the critical instant, and the level-i
                # busy period analysis covers every job of it.
                assert result.response_time == worst, (t, tasks, jobs)
                if result.response_time <= t.period:
                    assert jobs[0] == result.response_time
                if jobs[0] < worst:
                    later_job_worse += 1
            else:
                assert result.response_time >= worst, (t, tasks, jobs)
            assert result.schedulable == (result.response_time <= t.deadline)
            if result.schedulable:
                assert worst <= t.deadline
        if rta.schedulable is True:
            assert all(max(jobs) <= t.deadline for t, jobs in zip(tasks, simulated, strict=True))
    if distinct:
        assert later_job_worse > 0  # the arbitrary-deadline case was exercised


def test_rta_none_only_when_level_utilization_exceeds_one() -> None:
    rng = random.Random(99)
    for _ in range(200):
        tasks = [
            task(f"t{k}", rng.randint(1, 6), rng.choice(PERIODS[:6]), rng.randint(1, 4))
            for k in range(rng.randint(1, 4))
        ]
        for t, result in zip(tasks, response_time_analysis(tasks).per_task, strict=True):
            assert t.priority is not None
            level = [u for u in tasks if u.priority is not None and u.priority >= t.priority]
            assert (result.response_time is None) == (utilization(level) > 1)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(1), "1"),
        (Fraction(4, 5), "0.8000"),
        (Fraction(2, 3), "0.6667"),
        (Fraction(100001, 100000), "1.0000 (100001/100000)"),
        (Fraction(99999, 100000), "1.0000 (99999/100000)"),
        (Fraction(200001, 100000), "2.0000 (200001/100000)"),
        (Fraction(1000001, 100000), "10.0000 (1000001/100000)"),
        # too long to read: the side and the distance instead
        (Fraction(2**61 + 1, 2**61), "1.0000 (above 1 by 4.3e-19)"),
        (Fraction(2**61 - 1, 2**61), "1.0000 (below 1 by 4.3e-19)"),
        (Fraction(2**61 * 3 - 7, 2**61), "3.0000 (below 3 by 3.0e-18)"),
    ],
)
def test_a_ratio_is_never_printed_on_the_wrong_side_of_a_whole_number(
    value: Fraction, text: str
) -> None:
    assert fraction_text(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(53, 60), "0.8833 (53/60)"),
        (Fraction(3), "3"),
        (Fraction(2964655266958821703, 4611685973330231334), "0.6429"),
        (Fraction(2**61 - 1, 2**61), "1.0000 (below 1 by 4.3e-19)"),
    ],
)
def test_a_utilisation_is_exact_while_its_fraction_is_short(value: Fraction, text: str) -> None:
    assert exact_text(value) == text


def test_a_utilisation_just_above_one_says_by_how_much() -> None:
    tasks = [task("a", 50001, 100000, 2), task("b", 50000, 100000, 1)]
    result = liu_layland(tasks)
    assert result.schedulable is False
    assert result.detail == "U = 1.0000 (100001/100000) > 1: unschedulable under any scheduler"
