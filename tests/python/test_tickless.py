"""Tickless idle through the toolkit ([system] tickless = true).

A tickless run schedules exactly as the ticking one (same timeline, same job
table, for random sets under every policy and preemption mode it takes), and
leaves out exactly the ticks it should: while the idle task runs alone, every
tick up to the next release (or the run's end) but that release's own. The
summary prints the count; bad combinations are refused before anything runs.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
from pathlib import Path

import pytest

from takt.generator import GenerateOptions, generate_scenario
from takt.model import RunResult, Scenario
from takt.scenario import ScenarioError, parse_scenario
from takt.scenario_toml import scenario_toml
from takt.sim import RunError, run_scenario

pytestmark = pytest.mark.usefixtures("runner", "tickless_runner")

REPO = Path(__file__).resolve().parents[2]


def tickless(scenario: Scenario, on: bool = True) -> Scenario:
    return dataclasses.replace(scenario, system=dataclasses.replace(scenario.system, tickless=on))


def left_out(result: RunResult) -> int:
    """The ticks a tickless run leaves out: in each stretch [a, b) the idle task
    runs alone, the ticks a+1 .. b-1 (b's is the next release's, or the run's end,
    which the sim does not take)."""
    return sum(row.end - row.start - 1 for row in result.timeline if row.task == "idle")


def check_same_schedule_fewer_ticks(scenario: Scenario) -> None:
    ticking = run_scenario(scenario)
    sleeping = run_scenario(tickless(scenario))
    assert sleeping.timeline == ticking.timeline
    assert sleeping.jobs == ticking.jobs
    assert sleeping.context_switches == ticking.context_switches
    assert ticking.tick_interrupts == scenario.system.duration - 1
    assert sleeping.tick_interrupts == ticking.tick_interrupts - left_out(ticking)


CASES = [
    ("fp", "full", 1, None),
    ("fp", "none", 1, None),
    ("fp", "deferred", 3, None),
    ("edf", "full", 1, "heap"),
    ("edf", "full", 1, "mlist"),
    ("edf", "full", 1, "rbtree"),
    ("edf", "full", 1, "hwpq"),
    ("fp", "full", 1, "list"),
    ("fp", "full", 1, "hwpq"),
]


@pytest.mark.parametrize("policy,preemption,segments,queue", CASES)
@pytest.mark.parametrize("seed", range(1, 9))
def test_random_sets_schedule_the_same_and_leave_out_the_idle_ticks(
    policy: str, preemption: str, segments: int, queue: str | None, seed: int
) -> None:
    options = GenerateOptions(
        tasks=6,
        utilization=0.3 + 0.08 * seed,
        policy=policy,  # type: ignore[arg-type]
        preemption=preemption,  # type: ignore[arg-type]
        segments=segments,
        duration_cap=3_000,
        seed=seed,
    )
    scenario = generate_scenario(options)
    if queue is not None:
        text = scenario_toml(scenario)
        default = "heap" if policy == "edf" else "bitmap"
        text = text.replace(f'ready_queue = "{default}"', f'ready_queue = "{queue}"')
        scenario = parse_scenario(text, scenario.source)
    check_same_schedule_fewer_ticks(scenario)


def test_round_robin_and_offsets() -> None:
    text = """
[system]
duration = 200
round_robin = true

[[task]]
name = "A"
priority = 2
period = 40
wcet = 6
offset = 7

[[task]]
name = "B"
priority = 2
period = 50
wcet = 9

[[task]]
name = "C"
priority = 1
period = 100
wcet = 5
deadline = 60
offset = 33
"""
    check_same_schedule_fewer_ticks(parse_scenario(text, "rr.toml"))


def test_an_idle_gap_of_one_tick_leaves_nothing_out() -> None:
    # busy [0, 4), idle [4, 5), busy [5, 9), idle [9, 10), ...: no tick to leave out
    text = '[system]\nduration = 50\ntickless = true\n\n[[task]]\nname = "T"\n'
    text += "priority = 1\nperiod = 5\nwcet = 4\n"
    result = run_scenario(parse_scenario(text, "gap1.toml"))
    assert result.tick_interrupts == 49


def test_the_summary_counts_the_tick_interrupts(takt_cli: list[str], tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    example = (REPO / "examples" / "three_tasks.toml").read_text()
    path.write_text(example.replace("[system]\n", "[system]\ntickless = true\n", 1))
    done = subprocess.run([*takt_cli, "run", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # idle [23, 30) and [53, 60): 6 + 6 of the 59 ticking interrupts left out
    assert "tick interrupts: 47 in 60 ticks (tickless idle)" in done.stdout
    ticking = subprocess.run(
        [*takt_cli, "run", str(REPO / "examples" / "three_tasks.toml")],
        capture_output=True,
        text=True,
    )
    assert "tick interrupts: 59 in 60 ticks\n" in ticking.stdout


def test_tickless_must_be_a_boolean() -> None:
    with pytest.raises(ScenarioError, match=r"system\.tickless.*must be a boolean"):
        parse_scenario(
            '[system]\ntickless = 1\n\n[[task]]\nname = "T"\npriority = 1\nperiod = 5\nwcet = 1\n',
            "bad.toml",
        )


def test_tickless_is_refused_with_servers() -> None:
    text = (REPO / "examples" / "hsf_idling.toml").read_text()
    text = text.replace("[system]\n", "[system]\ntickless = true\n", 1)
    with pytest.raises(ScenarioError, match=r'system\.tickless.*not available with policy "hsf"'):
        parse_scenario(text, "hsf.toml")


def test_cli_refuses_tickless_hsf_with_exit_2(takt_cli: list[str], tmp_path: Path) -> None:
    text = (REPO / "examples" / "hsf_idling.toml").read_text()
    path = tmp_path / "hsf.toml"
    path.write_text(text.replace("[system]\n", "[system]\ntickless = true\n", 1))
    done = subprocess.run([*takt_cli, "run", str(path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert "tickless" in done.stderr and "hsf" in done.stderr


def test_exact_work_is_refused_with_tickless() -> None:
    example = (REPO / "examples" / "three_tasks.toml").read_text()
    scenario = parse_scenario(example.replace("[system]\n", "[system]\ntickless = true\n", 1))
    with pytest.raises(RunError, match="tickless"):
        run_scenario(scenario, port="qemu-m3", work="exact")


def test_the_toml_writer_keeps_it() -> None:
    example = (REPO / "examples" / "three_tasks.toml").read_text()
    scenario = parse_scenario(example.replace("[system]\n", "[system]\ntickless = true\n", 1))
    assert "tickless = true" in scenario_toml(scenario)
    assert parse_scenario(scenario_toml(scenario)).system.tickless is True
    assert "tickless" not in scenario_toml(tickless(scenario, on=False))


@pytest.mark.qemu
@pytest.mark.parametrize("port", ["qemu-m3", "qemu-m4"])
def test_on_a_board_the_same_schedule_and_the_same_ticks_left_out(port: str) -> None:
    options = GenerateOptions(tasks=5, utilization=0.5, duration_cap=2_000, seed=3)
    scenario = generate_scenario(options)
    ticking = run_scenario(scenario, port=port)
    sleeping = run_scenario(tickless(scenario), port=port)
    assert sleeping.timeline == ticking.timeline == run_scenario(scenario).timeline
    assert sleeping.jobs == ticking.jobs
    # A board takes the tick that ends the run; the sleeps leave out the same ticks.
    assert ticking.tick_interrupts == scenario.system.duration
    assert sleeping.tick_interrupts == ticking.tick_interrupts - left_out(ticking)
    assert left_out(ticking) > 0


def test_the_chart_and_the_trace_carry_the_count(takt_cli: list[str], tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    example = (REPO / "examples" / "three_tasks.toml").read_text()
    path.write_text(example.replace("[system]\n", "[system]\ntickless = true\n", 1))
    chart, trace = tmp_path / "c.html", tmp_path / "t.json"
    done = subprocess.run(
        [*takt_cli, "run", str(path), "--gantt", str(chart), "--trace", str(trace), "--quiet"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "tick interrupts (tickless)" in chart.read_text()
    other = json.loads(trace.read_text())["otherData"]
    assert other["tick_interrupts"] == 47 and other["tickless"] is True
