"""Hierarchical scheduling end to end through the ``takt`` command line: the worked
examples run with every output, the analysis report, a bad server type, and
``takt bench hsf``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from takt.sim import REPO_ROOT

pytestmark = pytest.mark.usefixtures("runner")

EXPECTED = REPO_ROOT / "tests" / "expected"


def takt(cli: list[str], *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*cli, *map(str, args)], capture_output=True, text=True, timeout=300, cwd=REPO_ROOT
    )


@pytest.mark.parametrize("kind", ["idling", "deferrable"])
def test_run_example_timeline_to_stdout_and_chart(
    takt_cli: list[str], tmp_path: Path, kind: str
) -> None:
    chart = tmp_path / "x.png"
    done = takt(takt_cli, "run", f"examples/hsf_{kind}.toml", "--timeline", "-", "--gantt", chart)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (EXPECTED / f"hsf_{kind}.timeline.csv").read_text()
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "servers (budget use" in done.stderr  # the summary moved to stderr


def test_run_example_with_every_output(takt_cli: list[str], tmp_path: Path) -> None:
    out = {k: tmp_path / f"out.{k}" for k in ("csv", "jobs", "json", "html")}
    done = takt(
        takt_cli,
        "run",
        "examples/hsf_idling.toml",
        "--timeline", out["csv"],
        "--jobs", out["jobs"],
        "--trace", out["json"],
        "--gantt", out["html"],
        "--tick-start", "0xFFFFFFF0",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert out["csv"].read_text() == (EXPECTED / "hsf_idling.timeline.csv").read_text()
    assert out["jobs"].read_text() == (EXPECTED / "hsf_idling.jobs.csv").read_text()
    trace = json.loads(out["json"].read_text())
    counters = {e["name"] for e in trace["traceEvents"] if e["ph"] == "C"}
    assert counters == {"budget S1", "budget S2"}
    page = out["html"].read_text()
    assert '"budgetMarks"' in page and "server S2" in page
    summary = {
        line.split()[0]: line.split()[1:] for line in done.stdout.splitlines() if line.strip()
    }
    # S1 ran 30 of its 30 ticks, depleted at 10 and 30 (the run ends at 50 as it reaches 0)
    assert summary["S1"] == ["10/20", "20", "10", "30", "30", "100.0%", "2", "idling"]
    assert summary["S2"] == ["15/40", "10", "5", "15", "30", "50.0%", "1", "idling"]


def test_analyze_example(takt_cli: list[str]) -> None:
    done = takt(takt_cli, "analyze", "examples/hsf_idling.toml")
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.strip()}
    assert rows["S1"][-2:] == ["10", "yes"] and rows["S2"][-2:] == ["35", "yes"]
    assert rows["T3"][-2:] == ["60", "yes"]
    assert rows["T1"][-2:] == ["28", "no"]  # bound above D: not proved (it never misses)


def test_bad_server_type_exits_2(takt_cli: list[str], tmp_path: Path) -> None:
    text = (REPO_ROOT / "examples" / "hsf_idling.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("budget = 15", 'budget = 15\ntype = "polling"'))
    done = takt(takt_cli, "run", bad, "--timeline", tmp_path / "t.csv")
    assert done.returncode == 2
    assert "server[1].type" in done.stderr or 'server "S2" (server[1]).type' in done.stderr
    assert '"polling"' in done.stderr and not (tmp_path / "t.csv").exists()


def test_mixed_server_types_from_the_cli(takt_cli: list[str], tmp_path: Path) -> None:
    """S1 idling (the default), S2 deferrable: S2 keeps its budget when T3 is done."""
    text = (REPO_ROOT / "examples" / "hsf_idling.toml").read_text()
    mixed = tmp_path / "mixed.toml"
    mixed.write_text(text.replace("budget = 15", 'budget = 15\ntype = "deferrable"'))
    done = takt(takt_cli, "run", mixed, "--timeline", "-", "--quiet")
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()
    assert "30,40,idle,idle," in rows  # not "30,35,S2,idle": a deferrable server does not idle
    assert "10,20,S2,T3,0" in rows and "6,10,S1,idle," in rows


def test_bench_hsf(takt_cli: list[str], tmp_path: Path) -> None:
    done = takt(takt_cli, "bench", "hsf", "--servers", "2", "--servers", "8", "--out", tmp_path)
    assert done.returncode == 0, done.stderr
    lines = (tmp_path / "hsf_tick.csv").read_text().splitlines()
    assert lines[0] == "servers,case,calls,instr_mean"
    cases = {(line.split(",")[0], line.split(",")[1]) for line in lines[1:]}
    assert ("8", "tick_replenish") in cases and ("2", "switch_deplete") in cases
    # a quiet tick changes nothing, so it asks for no decision to measure
    assert ("2", "switch_quiet") not in cases and ("2", "tick_quiet") in cases
    assert all(float(line.split(",")[3]) > 0 for line in lines[1:])
    assert "| 8 |" in (tmp_path / "hsf_tick.md").read_text()
