"""``takt sweep`` (takt.sweep): the schedulability experiment.

The sets of a sweep are ``takt generate``'s; the ratios count what the runs and the
analysis said; the records do not depend on how many runs go at once; a contradiction
reaches the exit status; bad options are refused before anything runs.
"""

from __future__ import annotations

import csv
import dataclasses
import errno
import os
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import run_with_first_jobs_missed
from test_cli import takt

from takt import cli
from takt import sweep as sweep_module
from takt.generator import (
    Deadlines,
    GenerateError,
    GenerateOptions,
    PeriodRange,
    generate_scenario,
)
from takt.model import RunResult, Scenario
from takt.sim import run_scenario
from takt.sweep import SweepOptions, render_sweep_table, run_sweep, summarize_sweep

pytestmark = pytest.mark.usefixtures("runner")

PERIODS = (10, 12, 15, 16, 20, 24, 30, 40, 48, 60, 80, 120, 240)
BASE = GenerateOptions(periods=PERIODS, seed=5)


def sim(scenario: Scenario, port: str | None) -> RunResult:
    return run_scenario(scenario, port=port)


def test_a_sweep_runs_takt_generates_sets_under_each_policy() -> None:
    options = SweepOptions(BASE, policies=("rm", "edf"), tasks=(4, 6), utilizations=(0.9,), sets=6)
    records = run_sweep(options, sim)
    assert len(records) == 2 * 6 * 2
    for r in records:
        kind = "edf" if r.policy == "edf" else "fp"
        rule = None if r.policy == "edf" else "rm"
        scenario = generate_scenario(
            dataclasses.replace(BASE, tasks=r.tasks, utilization=0.9, policy=kind, priority=rule),
            r.index,
        )
        run = run_scenario(scenario)
        assert r.misses == sum(j.missed for j in run.jobs)
        assert r.jobs == len(run.jobs)
        assert r.context_switches == run.context_switches
        assert r.success == (r.misses == 0)
        assert not r.contradictions
    # The same set under both policies (the policy draws nothing).
    for n in (4, 6):
        for index in range(6):
            pair = [r for r in records if (r.tasks, r.index) == (n, index)]
            assert pair[0].realised_utilization == pair[1].realised_utilization


def test_the_edf_ready_queues_run_the_same_sets_with_the_same_schedule() -> None:
    policies = ("edf", "edf-mlist", "edf-rbtree")
    options = SweepOptions(BASE, policies=policies, tasks=(6,), utilizations=(0.97,), sets=8)
    queues = {p: options.point_scenario(6, 0.97, 0, p).system.ready_queue for p in policies}
    assert queues == {"edf": "heap", "edf-mlist": "mlist", "edf-rbtree": "rbtree"}
    records = run_sweep(options, sim)
    for index in range(8):
        same_set = [r for r in records if r.index == index]
        assert [r.policy for r in same_set] == list(policies)
        assert len({(r.misses, r.context_switches, r.jobs) for r in same_set}) == 1
    # Runs on the sim have no kernel time: no kernel column.
    assert all(r.kernel_share is None and r.ticks_lost is None for r in records)
    assert "kernel" not in render_sweep_table(summarize_sweep(options, records))


def _tasks_of(scenario: Scenario) -> list[tuple[str, int, int, int, int | None]]:
    """A set's tasks without their subjobs or servers, by name."""
    return sorted((t.name, t.period, t.wcet, t.deadline, t.priority) for t in scenario.tasks)


@pytest.mark.parametrize(("deadlines", "fixed"), [("implicit", "rm"), ("constrained", "dm")])
def test_fpns_fpds_and_hsf_run_the_fixed_priority_set_of_the_same_index(
    deadlines: Deadlines, fixed: str
) -> None:
    policies = (fixed, "fpns", "fpds", "hsf")
    base = dataclasses.replace(BASE, deadlines=deadlines)
    options = SweepOptions(
        base, policies=policies, tasks=(6,), utilizations=(0.8,), sets=8, segments=4
    )
    for index in range(8):
        plain, fpns, fpds, hsf = (options.point_scenario(6, 0.8, index, p) for p in policies)
        assert (fpns.system.preemption, fpds.system.preemption) == ("none", "deferred")
        assert (hsf.system.policy, len(hsf.servers)) == ("hsf", BASE.servers)
        # The same tasks with the same priorities (rm, or dm with constrained
        # deadlines); fpds's jobs cut into at most 4 subjobs; hsf's spread over
        # servers, with the same rule inside each.
        assert _tasks_of(fpns) == _tasks_of(fpds) == _tasks_of(plain)
        assert hsf.system.priority == plain.system.priority == fixed
        assert sorted((t.name, t.period, t.wcet, t.deadline) for t in hsf.tasks) == [
            task[:4] for task in _tasks_of(plain)
        ]
        for task in fpds.tasks:
            assert task.segments is not None
            assert sum(task.segments) == task.wcet and len(task.segments) <= 4
        assert any(t.segments is not None and len(t.segments) > 1 for t in fpds.tasks)
    records = run_sweep(options, sim)
    assert not any(r.contradictions for r in records)
    summaries = {s.policy: s for s in summarize_sweep(options, records)}
    # Without preemption a set switches less than with it.
    assert summaries["fpns"].mean_context_switches < summaries[fixed].mean_context_switches


def test_the_ratios_count_the_records() -> None:
    options = SweepOptions(BASE, policies=("rm", "edf"), tasks=(6,), utilizations=(0.95,), sets=20)
    records = run_sweep(options, sim)
    summaries = summarize_sweep(options, records)
    assert [(s.tasks, s.policy, s.sets) for s in summaries] == [(6, "rm", 20), (6, "edf", 20)]
    for s in summaries:
        mine = [r for r in records if r.policy == s.policy]
        assert s.success_ratio == sum(r.misses == 0 for r in mine) / 20
        assert s.acceptance_ratio == sum(r.proved for r in mine) / 20
        assert s.mean_context_switches == sum(r.context_switches for r in mine) / 20
        # Synchronous sets run past the hyperperiod: the exact tests decide, so a
        # set succeeds exactly when it is proved.
        assert all(r.proved == r.success for r in mine)
    rm, edf = summaries
    # EDF schedules every set RM does; at U = 0.95 some more.
    assert edf.success_ratio >= rm.success_ratio
    assert 0 < rm.success_ratio < 1, rm
    table = render_sweep_table(summaries)
    assert table.splitlines()[0].startswith("| tasks | U | policy | sets | success ratio")
    assert f"| 6 | 0.95 | rm | 20 | {rm.success_ratio:.3f} |" in table


def test_the_records_do_not_depend_on_the_number_of_jobs() -> None:
    options = SweepOptions(
        BASE, policies=("dm", "edf"), tasks=(5,), utilizations=(0.7, 1.0), sets=4
    )
    one = run_sweep(options, sim)
    two = run_sweep(dataclasses.replace(options, jobs=2), sim)
    assert one == two
    assert [(r.utilization, r.index, r.policy) for r in one][:4] == [
        (0.7, 0, "dm"),
        (0.7, 0, "edf"),
        (0.7, 1, "dm"),
        (0.7, 1, "edf"),
    ]


def test_a_contradiction_is_recorded() -> None:
    options = SweepOptions(BASE, policies=("rm",), tasks=(3,), utilizations=(0.3,), sets=2)

    records = run_sweep(options, run_with_first_jobs_missed)
    assert all(r.proved and r.misses > 0 for r in records)
    assert all(any("proves the set schedulable" in c for c in r.contradictions) for r in records)
    assert summarize_sweep(options, records)[0].contradictions >= 2


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"policies": ("rm", "lottery")}, "lottery"),
        ({"policies": ()}, "policies"),
        ({"policies": ("rm", "rm")}, "at most once"),
        ({"tasks": (5, 5)}, "^tasks: each number at most once"),
        ({"utilizations": (0.5, 0.6, 0.5)}, "^utilization: each value at most once"),
        ({"tasks": (5, 6), "utilizations": (0.5, 0.6)}, "not both"),
        ({"tasks": ()}, "at least one"),
        ({"sets": 0}, "sets"),
        ({"jobs": 0}, "jobs"),
        ({"tasks": (2,), "utilizations": (2.5,)}, "utilization"),
        ({"policies": ("rm", "fpds"), "segments": 1}, "segments 1"),
        # hsf's default of 3 servers needs 3 tasks at every point, not only the first.
        ({"policies": ("rm", "hsf"), "tasks": (4, 2)}, "servers 3"),
        # More tasks than priorities: refused naming the policies that need them.
        (
            {"policies": ("edf", "dm", "edf-mlist", "hsf"), "tasks": (10, 300)},
            r"^tasks 300: at most 255 with dm, hsf \(one priority each\); the EDF policies "
            r"take up to 1000$",
        ),
        ({"policies": ("edf",), "tasks": (1001,)}, r"^tasks 1001: at most 1000 \(a run's limit\)$"),
    ],
)
def test_bad_sweep_options_are_refused(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SweepOptions(BASE, **fields)  # type: ignore[arg-type]


def test_edf_sweeps_take_as_many_tasks_as_a_run() -> None:
    """EDF gives its tasks no priorities: up to the runner's limit, as takt generate
    --policy edf."""
    edf_only = SweepOptions(BASE, policies=("edf", "edf-mlist", "edf-rbtree"), tasks=(1000,))
    assert edf_only.point_options(1000, 0.85, "edf-rbtree").tasks == 1000
    SweepOptions(BASE, policies=("rm", "hsf", "edf"), tasks=(255,))


def test_sweep_end_to_end(takt_cli: list[str], tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    done = takt(
        takt_cli,
        "sweep",
        "--tasks",
        "4",
        "--utilization",
        "0.7,0.9,1.0",
        "--periods",
        "10,20,40",
        "--sets",
        "5",
        "--out",
        out,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 + 3 * 2  # header, rule, 3 points x rm and edf
    assert lines[2].startswith("| 4 | 0.7 | rm | 5 | ")
    assert sorted(p.name for p in out.iterdir()) == [
        "runs.csv",
        "summary.csv",
        "summary.md",
        "sweep.png",
    ]
    with (out / "runs.csv").open() as f:
        runs = list(csv.DictReader(f))
    assert len(runs) == 3 * 5 * 2
    assert {r["policy"] for r in runs} == {"rm", "edf"}
    summary_md = (out / "summary.md").read_text()
    assert "Command: `takt sweep --policies rm,edf --tasks 4 --utilization 0.7,0.9,1" in summary_md
    assert (out / "sweep.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # U = 1 with 4 tasks on 10,20,40: EDF schedules every set (U <= 1).
    edf_at_1 = [r for r in runs if r["policy"] == "edf" and r["utilization"] == "1"]
    realised = [float(r["realised_utilization"]) for r in edf_at_1]
    assert all((r["misses"] == "0") == (u <= 1) for r, u in zip(edf_at_1, realised, strict=True))


def test_sweep_exits_3_on_a_contradiction(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli, "run_scenario", run_with_first_jobs_missed)
    args = ["sweep", "--tasks", "3", "--utilization", "0.3", "--sets", "2", "--policies", "rm"]
    assert cli.main([*args, "--no-progress"]) == cli.EXIT_CONTRADICTION
    err = capsys.readouterr().err
    assert "contradiction (tasks 3, U 0.3, set 0, rm): rta proves the set schedulable" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--policies", "rm,fifo"], "fifo"),
        (["--tasks", "4,5", "--utilization", "0.5,0.6"], "not both"),
        (["--tasks", "2", "--utilization", "0.5,3"], "at most 1 per task"),
        (["--tasks", "0"], "--tasks"),
        (["--utilization", "0.5,x"], "--utilization"),
        (["--sets", "0"], "--sets"),
        (["--periods", "5..2"], "--periods"),
        (["--policies", "rm,edf", "--segments", "3"], "--segments: only with fpds"),
        (["--policies", "fpds", "--segments", "1"], "--segments"),
        (["--policies", "rm", "--servers", "2"], "--servers: only with hsf"),
        (["--policies", "hsf", "--tasks", "4", "--servers", "5"], "at most --tasks"),
        (["--policies", "hsf", "--tasks", "4,2"], "--servers 3 (the default): at most --tasks (2)"),
        # A misspelt policy is named first, not the flags that need the real one.
        (["--policies", "fpsd", "--segments", "3"], "policies fpsd: choose from"),
        (["--policies", "rm,,edf"], "policies: an empty name in the list"),
        (["--policies", ","], "policies: name at least one of rm, dm"),
        (["--policies", "rm,rm"], "policies: each at most once"),
        (["--tasks", "5,5"], "sweep: tasks: each number at most once"),
        (["--utilization", "0.5,0.5"], "sweep: utilization: each value at most once"),
        (["--seed", "-1"], "--seed: -1 is outside 0..18446744073709551615"),
        (
            ["--policies", "rm,fpns,edf", "--tasks", "10,300"],
            "takt: --tasks 300: at most 255 with rm, fpns (one priority each); the EDF "
            "policies take up to 1000\n",
        ),
        (["--tasks", "256"], "--tasks 256: at most 255 with rm (one priority each)"),
        (["--policies", "edf,hsf", "--tasks", "256"], "at most 255 with hsf (one priority"),
        (["--policies", "edf", "--tasks", "1001"], "--tasks: 1001 is outside 1..1000"),
        (["--utilization-tolerance", "0"], "--utilization-tolerance: 0: must be above 0"),
        (["--utilization-tolerance", "1.5"], "1.5: must be above 0 and below 1"),
        (["--utilization-tolerance", "x"], "--utilization-tolerance: 'x' is not a number"),
        # No set of 30 tasks with periods 10, 20 realises under 1.5: found before a run.
        (
            ["--tasks", "30", "--utilization", "0.5", "--periods", "10,20"]
            + ["--utilization-tolerance", "0.05"],
            "takt: set 0 (seed 1, 30 tasks): none of 1000 draws realises a utilisation "
            "within 0.05 of 0.5",
        ),
    ],
)
def test_sweep_refuses_bad_options_and_writes_nothing(
    takt_cli: list[str], tmp_path: Path, args: list[str], message: str
) -> None:
    done = takt(takt_cli, "sweep", *args, "--out", tmp_path / "out")
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stdout == "" and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("out", "message"),
    [
        ("", "empty folder name"),
        ("missing/out", "folder missing does not exist"),
        ("file", "is a file, not a folder"),
        ("taken", "sweep.png there is a folder"),
    ],
)
def test_sweep_refuses_an_out_it_could_not_fill_before_it_runs(
    takt_cli: list[str], tmp_path: Path, out: str, message: str
) -> None:
    (tmp_path / "file").write_text("kept\n")
    (tmp_path / "taken" / "sweep.png").mkdir(parents=True)
    done = takt(takt_cli, "sweep", "--sets", "1", "--out", out, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stdout == ""  # refused before the first run printed a table
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["file", "sweep.png", "taken"]


def test_the_period_range_reaches_the_sets() -> None:
    base = dataclasses.replace(BASE, periods=PeriodRange(100, 1000), duration=3000)
    options = SweepOptions(base, policies=("edf",), tasks=(5,), utilizations=(0.8,), sets=3)
    records = run_sweep(options, sim)
    assert len(records) == 3
    for index in range(3):
        s = generate_scenario(
            dataclasses.replace(base, tasks=5, utilization=0.8, policy="edf"), index
        )
        assert all(100 <= t.period <= 1000 for t in s.tasks)
        assert s.system.duration == 3000


def test_sweep_of_fixed_priority_preemption_modes_and_a_hierarchy_end_to_end(
    takt_cli: list[str], tmp_path: Path
) -> None:
    out = tmp_path / "sweep"
    options = (
        "--policies rm,fpns,fpds,hsf --tasks 5 --utilization 0.5,0.8 --periods 10,20,40 "
        "--sets 4 --segments 2 --servers 2 --server-type deferrable"
    )
    done = takt(takt_cli, "sweep", *options.split(), "--out", out)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(" | ")[2] for line in lines[2:]] == ["rm", "fpns", "fpds", "hsf"] * 2
    summary_md = (out / "summary.md").read_text()
    flags = "--segments 2 --servers 2 --server-type deferrable --budgets minimal --seed 1"
    assert flags in summary_md, summary_md
    with (out / "runs.csv").open() as f:
        runs = list(csv.DictReader(f))
    assert {r["policy"] for r in runs} == {"rm", "fpns", "fpds", "hsf"}
    assert all(r["contradictions"] == "0" for r in runs)


def test_a_sweep_whose_outputs_fail_leaves_no_folder_and_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The four outputs appear together or not at all (takt/staged.py): a full disk
    at the chart leaves neither the tables nor the folder made for them."""

    def full_disk(path: Path, *_: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(sweep_module, "_plot", full_disk)
    out = tmp_path / "out"
    args = ["sweep", "--tasks", "3", "--sets", "1", "--out", str(out), "--no-progress"]
    assert cli.main(args) == 1
    assert f"takt: {out / 'sweep.png'}: No space left on device" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_an_edf_sweep_of_more_tasks_than_priorities_end_to_end(
    takt_cli: list[str], tmp_path: Path
) -> None:
    """300 tasks a set: more than fp has priorities, within what EDF runs take."""
    out = tmp_path / "sweep"
    options = "--policies edf,edf-rbtree --tasks 300 --periods 1000..100000 --duration 2000"
    done = takt(takt_cli, "sweep", *options.split(), "--sets", "2", "--out", out)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(" | ")[:4] for line in lines[2:]] == [
        ["| 300", "0.85", "edf", "2"],
        ["| 300", "0.85", "edf-rbtree", "2"],
    ]
    with (out / "runs.csv").open() as f:
        runs = list(csv.DictReader(f))
    assert len(runs) == 4 and all(r["contradictions"] == "0" for r in runs)
    assert all(int(r["jobs"]) >= 300 for r in runs)  # every task released at 0


def test_a_sweep_with_a_utilization_tolerance_runs_sets_within_it() -> None:
    base = dataclasses.replace(BASE, periods=PeriodRange(10, 1000), utilization_tolerance=0.005)
    policies = ("rm", "fpds", "edf")
    options = SweepOptions(base, policies=policies, tasks=(8,), utilizations=(0.9,), sets=6)
    records = run_sweep(options, sim)
    assert len(records) == 6 * 3
    for r in records:
        # The point's options carry the tolerance: the record's set is generate's with it.
        point = options.point_options(8, 0.9, r.policy)
        assert point.utilization_tolerance == 0.005
        tasks = generate_scenario(point, r.index).tasks
        assert r.realised_utilization == float(sum(Fraction(t.wcet, t.period) for t in tasks))
        assert abs(r.realised_utilization - 0.9) <= 0.005 + 1e-12
    # Without it, some of these sets' first draws realise further off.
    first_draws = dataclasses.replace(base, tasks=8, utilization=0.9, utilization_tolerance=None)
    assert any(
        abs(sum(Fraction(t.wcet, t.period) for t in generate_scenario(first_draws, i).tasks) - 0.9)
        > 0.005
        for i in range(6)
    )
    for summary in summarize_sweep(options, records):
        assert abs(summary.mean_realised_utilization - 0.9) <= 0.005 + 1e-12


def test_a_set_no_draw_brings_within_the_tolerance_is_refused_before_any_run() -> None:
    base = dataclasses.replace(BASE, periods=(10, 20), utilization_tolerance=0.05)
    options = SweepOptions(base, policies=("edf",), tasks=(5, 30), utilizations=(0.5,), sets=2)

    def no_run(scenario: Scenario, port: str | None) -> RunResult:
        raise AssertionError("ran a set")

    with pytest.raises(GenerateError, match=r"set 0 \(seed 5, 30 tasks\)"):
        run_sweep(options, no_run)


def test_sweep_with_a_utilization_tolerance_end_to_end(takt_cli: list[str], tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    options = "--policies rm,edf --tasks 8 --utilization 0.8,0.9 --periods 10..1000 --sets 4"
    done = takt(
        takt_cli, "sweep", *options.split(), "--utilization-tolerance", "0.01", "--out", out
    )
    assert done.returncode == 0, done.stderr
    summary_md = (out / "summary.md").read_text()
    assert "--utilization 0.8,0.9 --utilization-tolerance 0.01 --sets 4" in summary_md
    with (out / "runs.csv").open() as f:
        runs = list(csv.DictReader(f))
    assert len(runs) == 2 * 4 * 2
    for r in runs:
        assert abs(float(r["realised_utilization"]) - float(r["utilization"])) <= 0.01 + 1e-6
    means = [float(line.split(" | ")[6]) for line in done.stdout.splitlines()[2:]]
    assert [round(m, 1) for m in means] == [0.8, 0.8, 0.9, 0.9]
