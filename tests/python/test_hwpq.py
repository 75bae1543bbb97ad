"""The hardware priority queue (ready_queue = "hwpq") through the toolkit.

On the sim the kernel's driver talks to the C model of hw/ at its registers.
Under EDF the device holds the ready jobs; under fixed priority (RM in the HWDS
study) it indexes the non-empty priority levels, whose FIFO lists stay in
memory (kernel/sched/policy_fp_hwpq.c). The schedule is the policy's whatever
the queue (test_edf.py compares EDF's four queues on 1,000 random sets; here
fp's against the bitmap, with equal priorities, every preemption mode and
round-robin); the summary reports what the device did, and its register
accesses are exactly the driver's fixed cost per command (O(1), however many
jobs are queued); the boards, which have no device, run their runners' emulation
of it (the sim's schedule and counts).
"""

from __future__ import annotations

import dataclasses
import random
import subprocess
from pathlib import Path

import pytest

from takt.model import HwpqCounts, Policy, Preemption, RunResult, Scenario, SystemConfig, Task
from takt.sim import run_scenario

pytestmark = pytest.mark.usefixtures("runner")

# The driver's register writes per command (kernel/ds/pq_hw.c): an insert writes
# its key, tie (two words), handle and command; a remove its handle and command;
# a pop its command; the queue's set-up one clear. EDF scenarios never move a
# queued job later (no yields, no round-robin, no inheritance), and fp's
# round-robin moves a task within its level's list, off the device, so nothing
# else writes.
INSERT_WRITES = 5
REMOVE_WRITES = 2
POP_WRITES = 1
SETUP_WRITES = 1


def scenario(
    tasks: list[Task],
    duration: int,
    queue: str = "hwpq",
    policy: Policy = "edf",
    preemption: Preemption = "full",
    round_robin: bool = False,
) -> Scenario:
    return Scenario(
        system=SystemConfig(
            policy=policy,
            ready_queue=queue,
            duration=duration,
            preemption=preemption,
            round_robin=round_robin,
        ),
        tasks=tuple(tasks),
        source="generated",
    )


def random_tasks(rng: random.Random, n: int) -> list[Task]:
    tasks = []
    for i in range(n):
        period = rng.choice((3, 4, 5, 6, 8, 10, 12, 20, 40))
        wcet = max(1, round(period * rng.uniform(0.9, 1.4) / n))
        tasks.append(Task(f"t{i}", period, min(wcet, period), period, rng.randint(0, 3)))
    return tasks


def fp_tasks(rng: random.Random, n: int, deferred: bool) -> list[Task]:
    """Random fixed-priority tasks over few levels, so that many share one."""
    tasks = []
    for t in random_tasks(rng, n):
        segments = None
        if deferred and t.wcet > 1:
            cut = rng.randint(1, t.wcet - 1)
            segments = (cut, t.wcet - cut)
        tasks.append(dataclasses.replace(t, priority=rng.randint(1, 4), segments=segments))
    return tasks


def check_counts(s: Scenario, result: RunResult) -> HwpqCounts:
    q = result.hwpq
    assert q is not None
    queued_at_end = q.inserts - q.removes - q.pops
    if s.system.policy == "fp":
        # one entry per non-empty task level
        levels = {t.priority for t in s.tasks}
        assert 0 <= queued_at_end <= len(levels)
        assert q.pops == 0  # fp removes a level by its handle, never pops
        assert q.inserts > 0
    else:
        assert 0 <= queued_at_end <= len(s.tasks)
        # every job that finished was queued at least once (again after each preemption)
        assert q.inserts >= sum(1 for row in result.jobs if row.finish is not None) > 0
    assert q.writes == (
        SETUP_WRITES + INSERT_WRITES * q.inserts + REMOVE_WRITES * q.removes + POP_WRITES * q.pops
    )
    assert q.reads >= q.inserts  # the driver reads each insert's status
    return q


@pytest.mark.parametrize("n", [1, 5, 40, 300])
def test_same_schedule_as_the_heap_and_fixed_cost_per_command(n: int) -> None:
    rng = random.Random(n)
    tasks = random_tasks(rng, n)
    s = scenario(tasks, 120)
    hw = run_scenario(s)
    heap = run_scenario(scenario(tasks, 120, "heap"))
    assert hw.timeline == heap.timeline
    assert hw.jobs == heap.jobs
    assert heap.hwpq is None
    check_counts(s, hw)


@pytest.mark.parametrize("preemption", ["full", "none", "deferred"])
@pytest.mark.parametrize("round_robin", [False, True])
def test_fp_same_schedule_as_the_bitmap(preemption: Preemption, round_robin: bool) -> None:
    """RM on the device: random sets whose tasks share few levels give the
    bitmap's timeline and job table, in every preemption mode, with and without
    round-robin among equals."""
    rng = random.Random(f"{preemption}/{round_robin}")
    for trial in range(30):
        n = rng.choice((2, 3, 5, 8, 13, 40))
        tasks = fp_tasks(rng, n, deferred=preemption == "deferred")
        hw_scenario = scenario(tasks, 150, "hwpq", "fp", preemption, round_robin)
        hw = run_scenario(hw_scenario)
        bitmap = run_scenario(scenario(tasks, 150, "bitmap", "fp", preemption, round_robin))
        assert hw.timeline == bitmap.timeline, trial
        assert hw.jobs == bitmap.jobs, trial
        assert bitmap.hwpq is None
        check_counts(hw_scenario, hw)


def test_fp_device_cost_follows_levels_not_tasks() -> None:
    """300 tasks on one level: the device sees that level enter and leave, not
    each task (the other 299 queue behind the first in the level's list)."""
    tasks = [Task(f"t{i}", 400, 1, 400, 0, priority=3) for i in range(300)]
    s = scenario(tasks, 400, policy="fp")
    result = run_scenario(s)
    q = check_counts(s, result)
    assert q.inserts == 1 and q.removes == 1
    assert all(row.finish is not None for row in result.jobs)


def test_summary_reports_the_device(takt_cli: list[str], tmp_path: Path) -> None:
    path = tmp_path / "hw.toml"
    path.write_text(
        '[system]\npolicy = "edf"\nready_queue = "hwpq"\nduration = 30\n\n'
        '[[task]]\nname = "A"\nperiod = 5\nwcet = 2\n\n'
        '[[task]]\nname = "B"\nperiod = 7\nwcet = 3\n'
    )
    done = subprocess.run(
        [*takt_cli, "run", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "policy edf (hwpq ready queue)" in done.stdout
    line = next(x for x in done.stdout.splitlines() if x.startswith("hardware queue: "))
    result = run_scenario(scenario([Task("A", 5, 2, 5, 0), Task("B", 7, 3, 7, 0)], 30))
    q = result.hwpq
    assert q is not None
    assert line == (
        f"hardware queue: {q.inserts} inserts, {q.removes} removes, {q.pops} pops; "
        f"{q.accesses} register accesses ({q.reads} reads, {q.writes} writes)"
    )


@pytest.mark.qemu
@pytest.mark.parametrize("board", ["qemu-m3", "qemu-m4"])
@pytest.mark.usefixtures("timer_queue_runners")
def test_boards_emulate_the_device_as_the_sim(board: str) -> None:
    """The boards have no such device: their runners emulate it with hw/'s model
    (port/armv7m/hwpq_emulated.c). The same commands reach it as on the sim, so the
    schedules and the device's counts are the sim's."""
    rng = random.Random(board)
    edf = scenario(random_tasks(rng, 5), 60)
    fp = scenario(fp_tasks(rng, 5, deferred=True), 60, policy="fp", preemption="deferred")
    for s in (edf, fp):
        for timer_queue in ("heap", "hwpq"):
            sim = run_scenario(s, timer_queue=timer_queue)
            emulated = run_scenario(s, port=board, timer_queue=timer_queue)
            assert emulated.timeline == sim.timeline
            assert emulated.jobs == sim.jobs
            assert emulated.hwpq == sim.hwpq == check_counts(s, sim)
            assert emulated.timer_hwpq == sim.timer_hwpq
            assert (sim.timer_hwpq is None) == (timer_queue == "heap")


@pytest.mark.qemu
def test_board_refuses_to_measure_the_device_where_an_access_hides_instructions(
    takt_cli: list[str], tmp_path: Path
) -> None:
    """With exact work, an emulated access hides up to one SysTick count of the
    kernel's time (40 ns): more than 1.25 instructions below icount shift 5."""
    path = tmp_path / "hw.toml"
    path.write_text(
        '[system]\npolicy = "edf"\nready_queue = "hwpq"\nduration = 20\n\n'
        '[[task]]\nname = "A"\nperiod = 5\nwcet = 2\n'
    )
    timeline = tmp_path / "timeline.csv"
    base = [*takt_cli, "run", str(path), "--port", "qemu-m3", "--work", "exact"]
    done = subprocess.run(
        [*base, "--icount-shift", "4", "--timeline", str(timeline)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "2.5 instructions at icount shift 4" in done.stderr
    assert done.stdout == ""
    assert not timeline.exists()
    done = subprocess.run(
        [*base, "--icount-shift", "5", "--timeline", str(timeline)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "hardware queue: " in done.stdout and "time (exact work): kernel" in done.stdout
    assert timeline.exists()
