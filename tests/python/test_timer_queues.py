"""Where the kernel keeps its timers (``takt run --timer-queue``): the runner's heap,
a sorted list, or the hardware priority queue's second unit (the sim's C model of
hw/). The timers are the kernel's releases, deadlines, wake-ups and server
replenishments; which queue holds them changes no schedule. Random sets under every
policy give the same timeline and job table in all three; the device's counters
are exactly the driver's register writes per command; what a queue cannot take is
refused before anything runs.
"""

from __future__ import annotations

import dataclasses
import random
import subprocess
from pathlib import Path

import pytest
from conftest import T, scenario_toml
from hsf_gen import hierarchy, random_hierarchy
from test_fpds import random_set as random_fpds_set
from test_fpds import scenario as fpds_scenario
from test_hwpq import INSERT_WRITES, POP_WRITES, REMOVE_WRITES, SETUP_WRITES

from takt.generator import GenerateOptions, generate_scenario
from takt.model import RunResult, Scenario
from takt.scenario import parse_scenario
from takt.sim import TIMERS_HWPQ_MAX_TASKS, RunError, run_scenario

pytestmark = pytest.mark.usefixtures("runner", "timer_queue_runners")

# Every task owns this many timers and every server one (kernel/services/time.c).
TIMERS_PER_TASK = 3


def with_queue(s: Scenario, ready_queue: str) -> Scenario:
    return dataclasses.replace(s, system=dataclasses.replace(s.system, ready_queue=ready_queue))


def random_scenarios(seed: int) -> list[Scenario]:
    """FP with shared levels and round-robin, EDF on its heap and on the device, FPNS,
    FPDS and hierarchies of both server types: every kind of timer the kernel arms."""
    rng = random.Random(seed)
    out = []
    fp_tasks = [
        T(rng.randint(3, 12), 1, rng.randint(1, 3), None, rng.randrange(4)) for _ in range(5)
    ]
    fp = parse_scenario(scenario_toml(fp_tasks, 60), "<fp>")
    out.append(dataclasses.replace(fp, system=dataclasses.replace(fp.system, round_robin=True)))
    edf_tasks = []
    for _ in range(rng.randint(3, 6)):
        period = rng.randint(4, 20)
        wcet = rng.randint(1, max(1, period // 3))
        edf_tasks.append(T(period, wcet, None, rng.randint(wcet, period), rng.randrange(4)))
    edf = parse_scenario(scenario_toml(edf_tasks, 60, policy="edf"), "<edf>")
    out += [edf, with_queue(edf, "hwpq")]
    for preemption in ("none", "deferred"):
        out.append(fpds_scenario(random_fpds_set(rng, offsets=True), preemption, 80))
    for kind in ("idling", "deferrable"):
        out.append(hierarchy(random_hierarchy(rng, rng.randint(1, 4), kind), 80))
    return out


def check_device_counts(s: Scenario, result: RunResult) -> None:
    q = result.timer_hwpq
    assert q is not None
    queued_at_end = q.inserts - q.removes - q.pops
    assert 0 <= queued_at_end <= TIMERS_PER_TASK * len(s.tasks) + len(s.servers)
    assert q.writes == (
        SETUP_WRITES + INSERT_WRITES * q.inserts + REMOVE_WRITES * q.removes + POP_WRITES * q.pops
    )
    # every job after a task's first is released by its timer's expiry
    assert q.pops >= len(result.jobs) - len(s.tasks)


@pytest.mark.parametrize("seed", range(12))
def test_every_timer_queue_gives_the_heap_schedule(seed: int) -> None:
    for s in random_scenarios(seed):
        heap = run_scenario(s)
        assert heap.timer_hwpq is None
        for queue in ("list", "hwpq"):
            other = run_scenario(s, timer_queue=queue)
            assert other.timeline == heap.timeline, (s.source, queue)
            assert other.jobs == heap.jobs, (s.source, queue)
            assert other.context_switches == heap.context_switches
            if queue == "hwpq":
                check_device_counts(s, other)
            else:
                assert other.timer_hwpq is None
            # the ready queue's unit is the other one
            assert (other.hwpq is None) == (s.system.ready_queue != "hwpq")


def test_a_generated_set_at_the_device_limit() -> None:
    """As many tasks as the unit holds timers for: every one armed at once, released
    together, and the schedule still the heap's."""
    options = GenerateOptions(
        tasks=TIMERS_HWPQ_MAX_TASKS, utilization=0.9, policy="edf", duration=1000
    )
    s = generate_scenario(options, 0)
    heap = run_scenario(s)
    device = run_scenario(s, timer_queue="hwpq")
    assert device.timeline == heap.timeline
    assert device.jobs == heap.jobs
    check_device_counts(s, device)


def test_more_tasks_than_the_device_holds_timers_for_are_refused() -> None:
    options = GenerateOptions(tasks=TIMERS_HWPQ_MAX_TASKS + 1, utilization=0.5, policy="edf")
    s = generate_scenario(options, 0)
    with pytest.raises(RunError, match=f"at most {TIMERS_HWPQ_MAX_TASKS}"):
        run_scenario(s, timer_queue="hwpq")
    assert run_scenario(s, timer_queue="list").jobs  # the list holds any number


def test_unknown_and_tickless_timer_queues_are_refused() -> None:
    s = parse_scenario(scenario_toml([T(4, 1, 1)], 8), "<one>")
    with pytest.raises(RunError, match='timer queue "tree": choose from heap, list, hwpq'):
        run_scenario(s, timer_queue="tree")
    tickless = dataclasses.replace(s, system=dataclasses.replace(s.system, tickless=True))
    with pytest.raises(RunError, match="no tickless runner"):
        run_scenario(tickless, timer_queue="hwpq")


def test_cli_reports_the_device_and_refuses_before_running(
    takt_cli: list[str], tmp_path: Path
) -> None:
    path = tmp_path / "two.toml"
    path.write_text(scenario_toml([T(5, 2, 2), T(7, 3, 1)], 30, policy="edf"))
    done = subprocess.run(
        [*takt_cli, "run", str(path), "--timer-queue", "hwpq"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("hardware timer queue: "))
    q = run_scenario(parse_scenario(path.read_text(), str(path)), timer_queue="hwpq").timer_hwpq
    assert q is not None
    assert line == (
        f"hardware timer queue: {q.inserts} inserts, {q.removes} removes, {q.pops} pops; "
        f"{q.accesses} register accesses ({q.reads} reads, {q.writes} writes)"
    )
    assert "hardware queue: " not in done.stdout  # the ready queue is the heap

    many = tmp_path / "many.toml"
    lines = ["[system]", 'policy = "edf"', "duration = 10", ""]
    for i in range(TIMERS_HWPQ_MAX_TASKS + 1):
        lines += ["[[task]]", f'name = "t{i}"', "period = 1000", "wcet = 1", ""]
    many.write_text("\n".join(lines))
    timeline = tmp_path / "timeline.csv"
    done = subprocess.run(
        [*takt_cli, "run", str(many), "--timer-queue", "hwpq", "--timeline", str(timeline)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert f"{TIMERS_HWPQ_MAX_TASKS + 1} tasks" in done.stderr
    assert not timeline.exists()
