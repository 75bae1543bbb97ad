"""Whole-timeline schedule tests: each example scenario against the timeline
(and job table) derived by hand from ../shared/spec/SCHEDULING.md.

The expected files under tests/expected/ were written from the spec, not
recorded from the kernel; each example's comment says what it exercises.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from takt.report import read_jobs, read_timeline, write_jobs, write_timeline
from takt.scenario import load_scenario, parse_scenario
from takt.sim import run_scenario

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = ROOT / "tests" / "expected"
CASES = sorted(p.name.removesuffix(".timeline.csv") for p in EXPECTED.glob("*.timeline.csv"))
TICK_STARTS = [0, 0xFFFFFFF0, 0x7FFFFFFE]


def _csv(rows: object, writer: object) -> str:
    out = io.StringIO()
    writer(rows, out)  # type: ignore[operator]
    return out.getvalue()


@pytest.mark.parametrize("tick_start", TICK_STARTS)
@pytest.mark.parametrize("case", CASES)
def test_timeline_matches_spec(case: str, tick_start: int) -> None:
    result = run_scenario(load_scenario(ROOT / "examples" / f"{case}.toml"), tick_start=tick_start)
    expected = (EXPECTED / f"{case}.timeline.csv").read_text()
    assert _csv(result.timeline, write_timeline) == expected
    jobs_file = EXPECTED / f"{case}.jobs.csv"
    if jobs_file.exists():
        assert _csv(result.jobs, write_jobs) == jobs_file.read_text()


def test_expected_files_parse() -> None:
    for case in CASES:
        assert read_timeline(io.StringIO((EXPECTED / f"{case}.timeline.csv").read_text()))
        jobs_file = EXPECTED / f"{case}.jobs.csv"
        if jobs_file.exists():
            assert read_jobs(io.StringIO(jobs_file.read_text()))


def test_completion_exactly_at_deadline_meets_it() -> None:
    # Each job needs its whole period: it completes exactly at its deadline.
    scenario = parse_scenario(
        """
        [system]
        duration = 20
        [[task]]
        name = "full"
        priority = 1
        period = 5
        wcet = 5
        """
    )
    result = run_scenario(scenario)
    assert [(j.release, j.finish, j.missed) for j in result.jobs] == [
        (0, 5, False),
        (5, 10, False),
        (10, 15, False),
        (15, None, False),
    ]


def test_unfinished_job_misses_only_if_deadline_before_end() -> None:
    # lo (D = 4 < T = 5) always runs 1..5 of its period, finishing one tick
    # late. Its last job would finish exactly at the end (20), which the run
    # does not cover: it is open, and misses because its deadline 19 < 20.
    scenario = parse_scenario(
        """
        [system]
        duration = 20
        [[task]]
        name = "hi"
        priority = 2
        period = 5
        wcet = 1
        [[task]]
        name = "lo"
        priority = 1
        period = 5
        wcet = 4
        deadline = 4
        """
    )
    result = run_scenario(scenario)
    lo = [(j.finish, j.missed) for j in result.jobs if j.task == "lo"]
    assert lo == [(5, True), (10, True), (15, True), (None, True)]
