"""``takt bench hwds``: the HWDS study's experiment (Fig. 1) on the Cortex-M port.

The speed-up arithmetic and the experiment's sets are checked without a board (a
stand-in runner); one small grid runs on QEMU through the CLI, where the emulated
device's accesses and the kernel's time must show in the runs.
"""

from __future__ import annotations

import csv
import dataclasses
import math
import subprocess
from pathlib import Path

import pytest

from takt import bench_hwds
from takt.bench_hwds import (
    EMULATED_ACCESS_INSTRUCTIONS,
    PLACEMENTS,
    HwdsOptions,
    HwdsRun,
    run_hwds,
    summarize,
)
from takt.model import HwpqCounts, JobRow, RunResult, RunUsage, Scenario
from takt.report.summary import render_summary
from takt.sim import run_scenario
from takt.target import TargetError


def run(placement: str, index: int, kernel_ns: int, accesses: int = 0) -> HwdsRun:
    return HwdsRun(
        tasks=20,
        utilization=0.4,
        index=index,
        policy="rm",
        placement=placement,
        realised_utilization=0.4,
        elapsed_ns=10_000_000,
        kernel_ns=kernel_ns,
        accesses=accesses,
        jobs=10,
        misses=0,
        context_switches=12,
    )


def test_speed_up_is_the_kernel_time_saved_over_the_run() -> None:
    options = HwdsOptions(task_counts=(20,), utilizations=(0.4,), sets=2, policies=("rm",))
    ns = 2**options.icount_shift
    runs = []
    for i, sw_kernel in enumerate((500_000, 700_000)):
        runs.append(run("sw", i, sw_kernel))
        runs.append(run("ready", i, sw_kernel - 100_000, accesses=100))
        runs.append(run("timers", i, sw_kernel + 50_000 * (i + 1), accesses=1_000))
        runs.append(run("both", i, sw_kernel, accesses=2_000))
    points = {p.placement: p for p in summarize(options, runs)}
    assert set(points) == set(PLACEMENTS)
    assert points["sw"].speedup_mean == 0.0
    assert points["ready"].speedup_mean == pytest.approx(0.01)
    assert points["ready"].speedup_sd == 0.0
    # -0.005 and -0.01: mean -0.0075, sample deviation
    assert points["timers"].speedup_mean == pytest.approx(-0.0075)
    assert points["timers"].speedup_sd == pytest.approx(math.sqrt(2 * 0.0025**2))
    saved = (EMULATED_ACCESS_INSTRUCTIONS - 1) * ns
    assert points["both"].speedup_mean == 0.0
    assert points["both"].one_instruction_mean == pytest.approx(2_000 * saved / 10_000_000)
    assert points["timers"].accesses == 1_000
    assert points["timers"].sw_kernel_instructions == pytest.approx(600_000 / ns)
    assert points["timers"].kernel_instructions == pytest.approx((600_000 + 75_000) / ns)


def test_each_placement_runs_the_same_set_on_its_queues() -> None:
    options = HwdsOptions(
        task_counts=(30,), utilizations=(0.6,), sets=2, policies=("rm", "edf-mlist")
    )
    seen: list[tuple[Scenario, str, int]] = []

    def fake(scenario: Scenario, timer_queue: str, shift: int) -> RunResult:
        seen.append((scenario, timer_queue, shift))
        device = HwpqCounts(inserts=1, removes=1, pops=0, reads=3, writes=7)
        return RunResult(
            scenario=scenario,
            timeline=[],
            jobs=[JobRow("t0", 0, 0, 10, 5, False), JobRow("t0", 1, 10, 20, None, True)],
            usage=RunUsage(elapsed_ns=1000, idle_ns=500, work_ns=400, drain_ns=0),
            hwpq=device if scenario.system.ready_queue == "hwpq" else None,
            timer_hwpq=device if timer_queue == "hwpq" else None,
        )

    records = run_hwds(options, fake)
    assert len(records) == len(seen) == 2 * 2 * len(PLACEMENTS)
    assert [(r.index, r.policy, r.placement) for r in records[:5]] == [
        (0, "rm", "sw"),
        (0, "rm", "ready"),
        (0, "rm", "timers"),
        (0, "rm", "both"),
        (0, "edf-mlist", "sw"),
    ]
    queues = {(s.system.policy, s.system.ready_queue, timers) for s, timers, _ in seen if s.source}
    assert queues == {
        ("fp", "bitmap", "heap"),
        ("fp", "hwpq", "heap"),
        ("fp", "bitmap", "hwpq"),
        ("fp", "hwpq", "hwpq"),
        ("edf", "mlist", "heap"),
        ("edf", "hwpq", "heap"),
        ("edf", "mlist", "hwpq"),
        ("edf", "hwpq", "hwpq"),
    }
    assert {shift for _, _, shift in seen} == {options.icount_shift}
    assert {s.system.port for s, _, _ in seen} == {"qemu-m3"}
    # every placement and policy of a set runs the same tasks; the sets differ
    by_index: dict[int, set[tuple[tuple[int, int, int], ...]]] = {}
    for s, _, _ in seen:
        index = int(s.source.rstrip(">").rsplit(" ", 1)[1])
        by_index.setdefault(index, set()).add(
            tuple((t.period, t.wcet, t.deadline) for t in s.tasks)
        )
    assert all(len(v) == 1 for v in by_index.values())
    assert by_index[0] != by_index[1]
    first = seen[0][0]
    assert len(first.tasks) == 30
    assert {t.period for t in first.tasks} <= set(bench_hwds.PERIODS)
    assert first.system.tick_hz == bench_hwds.TICK_HZ
    assert first.system.duration == min(100_000, 10_000 + max(t.deadline for t in first.tasks))
    r = records[1]  # rm, ready queue on the device
    assert (r.kernel_ns, r.accesses, r.jobs, r.misses) == (100, 10, 2, 1)
    assert records[3].accesses == 20  # both units


def test_a_run_without_exact_work_is_refused() -> None:
    options = HwdsOptions(task_counts=(4,), utilizations=(0.5,), sets=1, policies=("rm",))

    def no_usage(scenario: Scenario, timer_queue: str, shift: int) -> RunResult:
        return RunResult(scenario=scenario, timeline=[], jobs=[])

    with pytest.raises(ValueError, match="exact work"):
        run_hwds(options, no_usage)

    def clock_went_back(scenario: Scenario, timer_queue: str, shift: int) -> RunResult:
        usage = RunUsage(elapsed_ns=1000, idle_ns=500, work_ns=400, drain_ns=2**64 - 5)
        return RunResult(scenario=scenario, timeline=[], jobs=[], usage=usage)

    with pytest.raises(ValueError, match="outside the run's 1000 ns"):
        run_hwds(options, clock_went_back)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"policies": ("rm", "fp")}, "policies: one or more of rm, edf"),
        ({"policies": ()}, "policies: one or more"),
        ({"task_counts": (256,)}, "tasks 256: 1..255"),
        ({"utilizations": (21.0,)}, "utilisation 21: in"),
        ({"sets": 0}, "sets: at least 1"),
        ({"sw_timers": "tree"}, 'software timers "tree"'),
        ({"icount_shift": 4}, "icount shift 4: 5..8"),
        ({"jobs": 0}, "jobs: at least 1"),
    ],
)
def test_options_are_checked(change: dict[str, object], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        dataclasses.replace(HwdsOptions(), **change)  # type: ignore[arg-type]


def test_an_unknown_board_is_refused() -> None:
    with pytest.raises(TargetError, match="unknown target port"):
        HwdsOptions(port="qemu-m7")


@pytest.mark.qemu
def test_a_small_grid_on_the_board(takt_cli: list[str], tmp_path: Path) -> None:
    done = subprocess.run(
        [
            *takt_cli,
            "bench",
            "hwds",
            "--task-counts",
            "5",
            "--utilizations",
            "0.5",
            "--sets",
            "1",
            "--jobs",
            "2",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    names = bench_hwds.output_names("mps2-an385")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)
    with (tmp_path / names[0]).open() as f:
        rows = {(r["policy"], r["placement"]): r for r in csv.DictReader(f)}
    assert len(rows) == 2 * len(PLACEMENTS)
    for policy in ("rm", "edf"):
        sw, ready, timers, both = (rows[(policy, p)] for p in PLACEMENTS)
        assert int(sw["accesses"]) == 0
        assert int(ready["accesses"]) > 0 and int(timers["accesses"]) > 0
        # half the utilisation: the same schedule in every placement, so the same
        # commands reach each unit
        assert {r["jobs"] for r in (sw, ready, timers, both)} == {sw["jobs"]}
        assert {r["misses"] for r in (sw, ready, timers, both)} == {"0"}
        assert int(both["accesses"]) == int(ready["accesses"]) + int(timers["accesses"])
        for r in (sw, ready, timers, both):
            assert 0 < int(r["kernel_ns"]) < int(r["elapsed_ns"]) // 10
            assert r["ticks_lost"] == "0"
        # the emulated accesses are not free: the device's kernel time is not the
        # software's (the model's own instructions would make it far larger)
        assert int(timers["kernel_ns"]) != int(sw["kernel_ns"])
        per_access = (int(timers["kernel_ns"]) - int(sw["kernel_ns"])) / int(timers["accesses"])
        assert -(2**7) * 20 < per_access < 2**7 * 20  # within 20 instructions an access
    table = (tmp_path / names[2]).read_text()
    assert "Command: `takt bench hwds --port qemu-m3 --policies rm,edf --task-counts 5" in table
    assert "| rm | 5 | 0.5 | both | 1 |" in table
    assert "Runs that lost a tick (" in table and "): 0 of 8." in table
    assert done.stdout.count("| edf | 5 | 0.5 |") == 3


@pytest.mark.qemu
@pytest.mark.parametrize("shift", [0, 7, 8])
def test_trace_drains_take_none_of_the_runs_time(shift: int) -> None:
    """A drain writes to the host, and the clock read across that call under -icount
    is not reliable (a drain once measured negative, which put 2^64 ns into the
    kernel's time): the runner stops the clock around it, so it costs only the
    stopping, and the kernel's time of a run with drains is what it is without."""
    scenario = HwdsOptions().scenario(5, 0.5, 0, "edf", "sw")
    usage = run_scenario(scenario, work="exact", icount_shift=shift).usage
    assert usage is not None
    assert usage.drains >= 1  # the trace is more than the ring holds
    assert usage.drain_ns <= usage.drains * 100 * 2**shift  # the stop and start only
    assert 0 < usage.kernel_ns < usage.elapsed_ns // 20


@pytest.mark.qemu
def test_a_tick_lost_to_an_overrunning_tick_is_counted_in_the_run() -> None:
    """At 10 kHz and 256 ns an instruction a tick is 390 instructions, and a tick that
    releases several of these 80 tasks is handled past the next one; a tick that
    comes while the one before is still pending is lost (SysTick has one pending
    bit), and the kernel's tick count, and the clock with it, stay a tick behind. A
    trace drain in that window sees the clock go back (it was once clamped to a drain
    of 0): the run counts the tick and is that much longer. Eight times faster, the
    same set loses none."""
    for shift, loses in ((8, True), (5, False)):
        scenario = HwdsOptions(icount_shift=shift).scenario(80, 0.5, 0, "rm", "sw")
        system = dataclasses.replace(scenario.system, tick_hz=10_000)
        result = run_scenario(
            dataclasses.replace(scenario, system=system), work="exact", icount_shift=shift
        )
        usage = result.usage
        assert usage is not None
        assert (usage.ticks_lost > 0) == loses
        assert (f"{usage.ticks_lost} tick(s) lost" in render_summary(result)) == loses
        assert usage.elapsed_ns == (system.duration + usage.ticks_lost) * 100_000
        assert 0 < usage.kernel_ns < usage.elapsed_ns
