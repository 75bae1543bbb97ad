"""Fixed priority over one list (``ready_queue = "list"``) against the bitmap of lists.

The two ready queues are data structures for the same policy: for every scenario
they must give the same schedule, event for event (the trace records every
release, wake, preemption and dispatch, so a queue that picked another task at
any instant would show). The list's schedules are also checked against
SCHEDULING.md directly, with the independent checker of test_properties.py.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from test_fpds import random_set
from test_fpds import scenario as fpds_scenario
from test_properties import check_run, large_case, random_case, report

from takt.model import RunResult, Scenario
from takt.sim import run_scenario

pytestmark = pytest.mark.usefixtures("runner")


def on_queue(scenario: Scenario, queue: str, **system: object) -> Scenario:
    return replace(scenario, system=replace(scenario.system, ready_queue=queue, **system))


def differences(bitmap: RunResult, listed: RunResult) -> list[str]:
    found = []
    if listed.timeline != bitmap.timeline:
        found.append("timeline")
    if listed.jobs != bitmap.jobs:
        found.append("job table")
    if listed.events != bitmap.events:
        found.append("trace events")
    if listed.context_switches != bitmap.context_switches:
        found.append("context switches")
    return found


@pytest.mark.parametrize("chunk", range(6))
def test_list_gives_the_bitmap_schedule(chunk: int) -> None:
    """300 random sets (ties, offsets, overload, odd tick rates), with and without
    round-robin among equals."""
    for seed in range(chunk * 50, chunk * 50 + 50):
        case = random_case(seed)
        round_robin = seed % 3 == 0
        bitmap = run_scenario(on_queue(case.scenario(), "bitmap", round_robin=round_robin))
        listed = run_scenario(on_queue(case.scenario(), "list", round_robin=round_robin))
        assert listed.events, f"seed {seed}: no trace events to compare"
        assert not differences(bitmap, listed), (
            f"seed {seed} (round_robin {round_robin}): {differences(bitmap, listed)} differ"
        )
        if not round_robin:
            problems = check_run(listed.scenario, listed)
            assert not problems, report(case, problems, listed)


@pytest.mark.parametrize("seed", range(4))
def test_list_gives_the_bitmap_schedule_for_large_sets(seed: int) -> None:
    """20 to 60 tasks on 12 priorities: long walks along the list."""
    case = large_case(seed)
    bitmap = run_scenario(on_queue(case.scenario(), "bitmap"))
    listed = run_scenario(on_queue(case.scenario(), "list"))
    assert bitmap.trace_overflows == 0 and listed.trace_overflows == 0
    assert not differences(bitmap, listed), f"seed {seed}: {differences(bitmap, listed)} differ"
    problems = check_run(listed.scenario, listed)
    assert not problems, report(case, problems, listed)


@pytest.mark.parametrize("preemption", ["none", "deferred"])
def test_list_gives_the_bitmap_schedule_without_full_preemption(preemption: str) -> None:
    """Non-preemptive runs and subjobs, with priority ties: higher-priority jobs
    queue up behind the running one and are picked at its next point. (A running
    task goes back in front of its equals only when its own priority changes,
    which no scenario does: tests/c/test_sched.c covers that.)"""
    for seed in range(150):
        rng = random.Random(seed)
        tasks = random_set(rng, offsets=seed % 2 == 0)
        for task_index in range(0, len(tasks), 2):  # priority ties
            tasks[task_index] = replace(tasks[task_index], priority=tasks[0].priority)
        base = fpds_scenario(tasks, preemption, rng.randint(60, 240))
        bitmap = run_scenario(on_queue(base, "bitmap"))
        listed = run_scenario(on_queue(base, "list"))
        assert not differences(bitmap, listed), f"seed {seed}: {differences(bitmap, listed)} differ"
