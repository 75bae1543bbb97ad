"""Exact work on an emulated board (``--work exact``): each job executes its wcet's
worth of instructions of its own, the kernel's time comes on top, and the run says
where its time went.

What is checked: the accounting against what the schedule must give (the tasks' work
is the wcets of the jobs that ran, the idle time the sim's idle ticks less what the
kernel took of them); the kernel's time is a count of instructions, so it scales with
the instruction time and grows with the number of jobs; a set that the sim schedules
exactly at U = 1 misses with the kernel's time on top, and the same set at U < 1 does
not; the trace of an exact run counts events at the kernel's tick count; and the CLI
(run, check, sweep) refuses exact work where the kernel takes no time.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from conftest import T, scenario_toml
from test_cli import takt

from takt import trace as tracemod
from takt.model import RunUsage
from takt.scenario import load_scenario, parse_scenario
from takt.sim import RunError, run_scenario

pytestmark = pytest.mark.qemu

# A (priority 2, T 10, C 5) and B (1, T 20, C 6): B is preempted at 10 and ends at
# 16; 80 of every 100 ticks are work, 20 idle. Ticks of 1 ms: the kernel's few
# thousand instructions a job are far inside a tick.
TWO_TASKS = scenario_toml([T(10, 5, 2), T(20, 6, 1)], 100)
TICK_NS = 1_000_000
CHUNK_NS = 600  # a chunk of exact work is about 530 instructions, 1 ns each at shift 0


def _run(text: str, icount_shift: int = 0) -> tuple[RunUsage, int]:
    scenario = parse_scenario(text)
    result = run_scenario(scenario, port="qemu-m3", work="exact", icount_shift=icount_shift)
    assert result.usage is not None
    return result.usage, sum(j.missed for j in result.jobs)


def _kernel_instructions(usage: RunUsage, shift: int) -> float:
    return usage.kernel_ns / 2**shift


def test_the_work_is_the_wcets_of_the_jobs_and_the_rest_is_idle_or_kernel() -> None:
    usage, misses = _run(TWO_TASKS)
    assert misses == 0
    assert usage.elapsed_ns == 100 * TICK_NS
    jobs, work = 10 + 5, (10 * 5 + 5 * 6) * TICK_NS
    # Each job's work is met to within half a chunk.
    assert abs(usage.work_ns - work) <= jobs * CHUNK_NS / 2
    # The 20 idle ticks, less what the kernel took of them (its tick interrupts and
    # the switches to and from idle): a few microseconds, not none.
    assert 20 * TICK_NS - 100_000 < usage.idle_ns < 20 * TICK_NS
    assert usage.drain_ns == 0  # 97 events: the ring never filled
    # Every tick, release, switch and completion costs instructions; a few hundred each.
    assert 100 * 50 < usage.kernel_ns < 100 * 2_000
    assert usage.kernel_share == usage.kernel_ns / usage.elapsed_ns


def test_the_kernel_time_is_instructions_so_it_scales_with_the_instruction_time() -> None:
    at_1ns, _ = _run(TWO_TASKS)
    at_4ns, _ = _run(TWO_TASKS, icount_shift=2)
    instructions = _kernel_instructions(at_1ns, 0), _kernel_instructions(at_4ns, 2)
    assert instructions[1] == pytest.approx(instructions[0], rel=0.1)
    assert at_4ns.kernel_ns > 3 * at_1ns.kernel_ns


def test_the_kernel_time_grows_with_the_number_of_jobs() -> None:
    few = scenario_toml([T(50, 20, 2), T(100, 30, 1)], 1000)
    many = scenario_toml([T(5, 2, 2), T(10, 3, 1)], 1000)  # same U, 10x the jobs
    few_usage, _ = _run(few)
    many_usage, _ = _run(many)
    assert many_usage.work_ns == pytest.approx(few_usage.work_ns, rel=0.01)
    assert many_usage.kernel_ns > 2 * few_usage.kernel_ns


def _tight(wcet_b: int) -> str:
    # 10 kHz: 100,000 instructions a tick, the kernel about 1% of them here.
    return scenario_toml([T(2, 1, 2), T(4, wcet_b, 1)], 200, tick_hz=10_000)


def test_a_set_at_full_load_misses_once_the_kernel_takes_time() -> None:
    full = parse_scenario(_tight(2))  # U = 1: schedulable with no overhead at all
    assert not any(j.missed for j in run_scenario(full).jobs)
    assert not any(j.missed for j in run_scenario(full, port="qemu-m3").jobs)
    usage, misses = _run(_tight(2))
    assert misses > 0
    assert usage.idle_ns == 0
    _, spare_misses = _run(_tight(1))  # U = 0.75
    assert spare_misses == 0


REPO = Path(__file__).resolve().parents[2]


def test_a_job_ending_on_a_release_instant_is_preempted_for_the_kernels_time() -> None:
    # On the sim, Q's work ends at 8, its deadline, and its completion comes before the
    # decision at 8; with exact work the kernel's few microseconds leave Q short at 8,
    # P's release there preempts it, and it misses.
    scenario = load_scenario(REPO / "examples" / "fp_tie_q_first.toml")
    sim_job = next(j for j in run_scenario(scenario).jobs if (j.task, j.job) == ("Q", 1))
    exact = run_scenario(scenario, port="qemu-m3", work="exact")
    exact_job = next(j for j in exact.jobs if (j.task, j.job) == ("Q", 1))
    assert (sim_job.finish, sim_job.missed) == (8, False)
    assert exact_job.finish is not None and exact_job.finish > 8 and exact_job.missed
    # Away from such instants the tick-level schedule is the sim's.
    edf = load_scenario(REPO / "examples" / "edf_two_tasks.toml")
    exact_edf = run_scenario(edf, port="qemu-m3", work="exact")
    assert exact_edf.jobs == run_scenario(edf).jobs


def test_an_exact_runs_trace_counts_events_at_the_kernels_tick_count() -> None:
    header = b"takt-trace 1\ntick_ns 1000000\nstamps tick-count\nevents\n"
    trace = tracemod.decode(header)
    assert trace.stamps == "tick-count"
    assert [trace.ticks(s) for s in (0, 999_999, 1_000_000, 3_700_000)] == [0, 0, 1, 3]


def test_exact_work_needs_a_board() -> None:
    with pytest.raises(RunError, match="needs a board"):
        run_scenario(parse_scenario(TWO_TASKS), work="exact")
    with pytest.raises(RunError, match="for a board"):
        run_scenario(parse_scenario(TWO_TASKS), icount_shift=3)
    with pytest.raises(RunError, match="icount shift 9"):
        run_scenario(parse_scenario(TWO_TASKS), port="qemu-m3", icount_shift=9)


def test_cli_run_and_check_with_exact_work(takt_cli: list[str], tmp_path: Path) -> None:
    path = tmp_path / "tight.toml"
    path.write_text(_tight(2))
    run = takt(takt_cli, "run", path, "--port", "qemu-m3", "--work", "exact")
    assert run.returncode == 0, run.stderr
    assert "time (exact work): kernel " in run.stdout
    check = takt(takt_cli, "check", path, "--port", "qemu-m3", "--work", "exact")
    assert check.returncode == 3
    assert "exact work: the kernel took" in check.stdout
    # A usage error on the sim (exit 2, as for sweep), for run and check alike.
    for command in ("run", "check"):
        on_sim = takt(takt_cli, command, path, "--work", "exact")
        assert on_sim.returncode == 2, on_sim.stderr
        assert f'{path}: work "exact" needs a board' in on_sim.stderr
    shift = takt(takt_cli, "run", path, "--port", "qemu-m3", "--icount-shift", "9")
    assert shift.returncode == 2
    assert "--icount-shift" in shift.stderr


def test_cli_sweep_with_exact_work_reports_the_kernel_and_does_not_fail_on_it(
    takt_cli: list[str], tmp_path: Path
) -> None:
    out = tmp_path / "sweep"
    common = ["--tasks", "4", "--utilization", "0.97", "--sets", "2", "--periods", "20..60"]
    done = takt(
        takt_cli,
        "sweep",
        *common,
        "--tick-hz",
        "10000",
        "--duration",
        "600",
        "--policies",
        "rm,edf-mlist",
        "--port",
        "qemu-m3",
        "--work",
        "exact",
        "--jobs",
        "2",
        "--out",
        out,
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    assert "mean kernel time %" in done.stdout
    with (out / "runs.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4
    assert all(0 < float(r["kernel_share"]) < 0.2 for r in rows)
    assert all(r["ticks_lost"] == "0" for r in rows)  # a light load loses no tick
    assert "--work exact" in (out / "summary.md").read_text()
    refused = takt(takt_cli, "sweep", *common, "--work", "exact", "--out", tmp_path / "no")
    assert refused.returncode == 2
    assert "needs a board" in refused.stderr
    assert not (tmp_path / "no").exists()
