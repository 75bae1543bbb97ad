"""The same input gives byte-identical runner traces.

The runner is executed directly (``takt-runner -o TRACE INPUT``) on the input that
:func:`takt.sim.compile_input` writes, twice per case, and the trace files are compared
byte for byte; nothing in a trace may depend on wall time, addresses or scheduling noise
of the host. Cases range from the shipped example to a 50-task overloaded set whose
trace is many times the kernel's trace ring (so the ring drains mid-run).
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from conftest import T, make_scenario

from takt import trace as tracemod
from takt.model import Scenario
from takt.scenario import load_scenario
from takt.sim import REPO_ROOT, compile_input, run_scenario

RUNS = 2


def fifty_tasks(seed: int, duration: int) -> Scenario:
    rng = random.Random(seed)
    tasks = []
    for _ in range(50):
        period = rng.choice((5, 10, 20, 25, 40, 50, 100, 200, 250, 500))
        wcet = max(1, round(period * rng.uniform(0.005, 0.04)))
        offset = rng.randint(0, period) if rng.random() < 0.5 else 0
        # Priorities 1..20 for 50 tasks: plenty of ties.
        tasks.append(T(period, wcet, rng.randint(1, 20), None, offset))
    return make_scenario(tasks, duration, source=f"<fifty seed {seed}>")


def cases() -> dict[str, tuple[Scenario, int]]:
    return {
        "three_tasks": (load_scenario(REPO_ROOT / "examples" / "three_tasks.toml"), 0),
        "three_tasks_wrapping": (
            load_scenario(REPO_ROOT / "examples" / "three_tasks.toml"),
            0xFFFFFFF0,
        ),
        "overload_ties": (
            make_scenario([T(4, 3, 2), T(6, 3, 2), T(5, 2, 1, 3, 1), T(7, 7, 3)], 500),
            0,
        ),
        "fifty_tasks": (fifty_tasks(1, 5000), 0),
        "fifty_tasks_wrapping": (fifty_tasks(2, 5000), 0xFFFFFF00),
    }


CASES = cases()


def run_runner(runner: Path, input_path: Path, output: Path) -> bytes:
    done = subprocess.run(
        [str(runner), "-o", str(output), str(input_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "takt-stats" in done.stderr
    return output.read_bytes()


@pytest.mark.parametrize("name", sorted(CASES))
def test_runner_traces_are_byte_identical(runner: Path, tmp_path: Path, name: str) -> None:
    scenario, tick_start = CASES[name]
    input_path = tmp_path / "scenario.in"
    input_path.write_text(compile_input(scenario, tick_start))
    traces = [run_runner(runner, input_path, tmp_path / f"trace{i}.bin") for i in range(RUNS)]
    assert len(traces[0]) > 0
    for i, other in enumerate(traces[1:], start=1):
        if other != traces[0]:
            at = next(
                (k for k, (a, b) in enumerate(zip(traces[0], other, strict=False)) if a != b),
                min(len(traces[0]), len(other)),
            )
            pytest.fail(
                f"{name}: run {i} differs from run 0 at byte {at} "
                f"(sizes {len(traces[0])} and {len(other)})"
            )
    decoded = tracemod.decode(traces[0])
    assert decoded.lost_events == 0
    assert sorted(decoded.task_names.values()) == sorted(t.name for t in scenario.tasks)


def test_fifty_task_trace_outgrows_the_ring(runner: Path, tmp_path: Path) -> None:
    """The big case really exercises draining: far more events than the 4096-event ring."""
    scenario, tick_start = CASES["fifty_tasks"]
    input_path = tmp_path / "scenario.in"
    input_path.write_text(compile_input(scenario, tick_start))
    data = run_runner(runner, input_path, tmp_path / "trace.bin")
    assert len(tracemod.decode(data).events) > 4 * 4096


def test_stdin_and_stdout_give_the_same_trace(runner: Path, tmp_path: Path) -> None:
    """``-`` as input and no ``-o`` (trace on stdout) change nothing in the bytes."""
    scenario, tick_start = CASES["overload_ties"]
    text = compile_input(scenario, tick_start)
    input_path = tmp_path / "scenario.in"
    input_path.write_text(text)
    to_file = run_runner(runner, input_path, tmp_path / "trace.bin")
    piped = subprocess.run(
        [str(runner), "-"], input=text.encode(), capture_output=True, timeout=120
    )
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == to_file


@pytest.mark.parametrize("name", ["overload_ties", "fifty_tasks"])
def test_run_results_are_identical(runner: Path, name: str) -> None:
    scenario, tick_start = CASES[name]
    first = run_scenario(scenario, tick_start=tick_start)
    second = run_scenario(scenario, tick_start=tick_start)
    assert first.timeline == second.timeline
    assert first.jobs == second.jobs
    assert first.events == second.events
    assert first.context_switches == second.context_switches
