"""Load the HTML Gantt chart in headless Chromium and check that it really draws.

The page marks ``<html data-takt-render="ok">`` after drawing and records JS errors
(window errors, unhandled rejections, console.error) in ``<ul id="takt-errors">``. We
dump the DOM after running the page and check the mark, the drawn job boxes, and that
Chromium's log shows no console output at all (the page logs nothing when healthy).

Chromium is required: without /usr/bin/chromium these tests FAIL, unless
TAKT_ALLOW_NO_CHROMIUM=1 is set (then they skip). TAKT_CHROMIUM overrides the binary.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from sample_runs import three_tasks

import takt.report._html as html_mod
from takt.model import JobRow, RunResult, Scenario, SystemConfig, Task, TimelineRow
from takt.report import write_gantt

CHROMIUM = os.environ.get("TAKT_CHROMIUM", "/usr/bin/chromium")


def servers_with_budgets() -> tuple[RunResult, dict[str, list[tuple[int, int]]]]:
    from takt.model import HsfConfig, Server

    sc = Scenario(
        SystemConfig(policy="hsf", duration=40),
        (Task("A", 20, 4, 20, priority=1, server="S1"), Task("B", 40, 6, 40, 0, 1, "S2")),
        (Server("S1", 2, 20, 8), Server("S2", 1, 40, 10)),
        HsfConfig(),
    )
    rows = [
        TimelineRow(0, 4, "S1", "A", 0),
        TimelineRow(4, 8, "S1", "idle", None),
        TimelineRow(8, 14, "S2", "B", 0),
        TimelineRow(14, 18, "S2", "idle", None),
        TimelineRow(18, 20, "idle", "idle", None),
        TimelineRow(20, 24, "S1", "A", 1),
        TimelineRow(24, 28, "S1", "idle", None),
        TimelineRow(28, 40, "idle", "idle", None),
    ]
    jobs = [
        JobRow("A", 0, 0, 20, 4, False),
        JobRow("B", 0, 0, 40, 14, False),
        JobRow("A", 1, 20, 40, 24, False),
    ]
    budgets = {
        "S1": [(0, 8), (8, 0), (20, 0), (20, 8), (28, 0), (40, 0)],
        "S2": [(0, 10), (8, 10), (18, 0), (40, 0)],
    }
    return RunResult(sc, rows, jobs), budgets


@dataclass
class PageCheck:
    dom: str
    log: str
    problems: list[str]

    @property
    def boxes(self) -> int:
        return len(re.findall(r'<rect\b[^>]*\bclass="box\b', self.dom))


def _require_chromium() -> str:
    exe = CHROMIUM if os.path.isabs(CHROMIUM) else shutil.which(CHROMIUM)
    if exe and os.path.exists(exe) and os.access(exe, os.X_OK):
        return exe
    msg = (
        f"headless Chromium not found at {CHROMIUM!r}: install it "
        "(apt-get install -y chromium) or set TAKT_CHROMIUM; "
        "set TAKT_ALLOW_NO_CHROMIUM=1 to skip these tests instead"
    )
    if os.environ.get("TAKT_ALLOW_NO_CHROMIUM") == "1":
        pytest.skip(msg)
    pytest.fail(msg)


def _chromium(exe: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [
        exe,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        "--virtual-time-budget=5000",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)


def check_page(page: Path, tmp: Path, screenshot: Path | None = None) -> PageCheck:
    exe = _require_chromium()
    url = page.resolve().as_uri()
    proc = _chromium(exe, tmp / "profile-dom", "--dump-dom", url)
    dom, log = proc.stdout, proc.stderr
    problems: list[str] = []
    if proc.returncode != 0:
        problems.append(f"chromium exited with {proc.returncode}: {log[-2000:]}")
    m = re.search(r"<html\b[^>]*>", dom)
    html_tag = m.group(0) if m else ""
    if 'data-takt-render="ok"' not in html_tag:
        problems.append(f"page did not mark itself drawn: {html_tag or dom[:300]!r}")
    if "data-takt-errors" in html_tag:
        problems.append(f"page recorded JS errors: {html_tag}")
    errs = re.search(r'<ul id="takt-errors">(.*?)</ul>', dom, re.S)
    if errs is None or errs.group(1).strip():
        problems.append(f"error list not empty: {errs.group(1) if errs else 'missing'}")
    for line in log.splitlines():
        if ":CONSOLE" in line or "Uncaught" in line:
            problems.append(f"console output: {line}")
    if screenshot is not None:
        shot = _chromium(
            exe, tmp / "profile-shot", f"--screenshot={screenshot}", "--window-size=1400,700", url
        )
        if shot.returncode != 0 or not screenshot.exists():
            problems.append(f"screenshot failed: {shot.stderr[-2000:]}")
    return PageCheck(dom, log, problems)


def test_html_gantt_draws_without_errors(tmp_path: Path) -> None:
    result = three_tasks()
    page = tmp_path / "gantt.html"
    write_gantt(result, page)
    shot = tmp_path / "shot.png"
    check = check_page(page, tmp_path, screenshot=shot)
    assert check.problems == []
    assert check.boxes == len(result.timeline)
    assert len(re.findall(r'class="box miss"', check.dom)) == 3  # T3 job 0, 3 intervals
    assert len(re.findall(r'class="mk miss"', check.dom)) == 1
    assert len(re.findall(r'class="mk release"', check.dom)) == len(result.jobs)
    assert 'data-boxes="9"' in check.dom
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


def test_html_gantt_servers_and_budgets_draw(tmp_path: Path) -> None:
    result, budgets = servers_with_budgets()
    page = tmp_path / "hsf.html"
    write_gantt(result, page, budgets=budgets)
    check = check_page(page, tmp_path)
    assert check.problems == []
    assert check.boxes == len(result.timeline)
    assert len(re.findall(r'<path\b[^>]*class="budget"', check.dom)) == 2
    assert "server S1" in check.dom and "server S2" in check.dom


def test_check_catches_a_throwing_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check must fail when the drawing code throws (guards the checks above)."""
    monkeypatch.setattr(html_mod, "_JS", "null.boom();\n" + html_mod._JS)
    page = tmp_path / "broken.html"
    write_gantt(three_tasks(), page)
    check = check_page(page, tmp_path)
    text = "\n".join(check.problems)
    assert "did not mark itself drawn" in text
    assert "page recorded JS errors" in text and "TypeError" in text
    assert "Uncaught TypeError" in text  # seen in Chromium's console log too
    assert check.boxes == 0


def test_check_catches_console_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(html_mod, "_JS", html_mod._JS + "\nconsole.error('bad thing');\n")
    page = tmp_path / "noisy.html"
    write_gantt(three_tasks(), page)
    check = check_page(page, tmp_path)
    assert any("console.error: bad thing" in p for p in check.problems)
    assert any(":CONSOLE" in p for p in check.problems)


def test_html_gantt_of_a_real_hsf_run_draws_budget_areas_and_marks(
    tmp_path: Path, runner: Path
) -> None:
    from takt.scenario import load_scenario
    from takt.sim import REPO_ROOT, run_scenario

    result = run_scenario(load_scenario(REPO_ROOT / "examples" / "hsf_idling.toml"))
    page = tmp_path / "hsf_run.html"
    shot = tmp_path / "hsf_run.png"
    write_gantt(result, page)
    check = check_page(page, tmp_path, screenshot=shot)
    assert check.problems == []
    assert check.boxes == len(result.timeline)
    assert len(re.findall(r'<path\b[^>]*class="budget-area"', check.dom)) == 2
    # S1 replenished at 0, 20, 40 and S2 at 0, 40; S1 depleted at 10, 30 and S2 at 35
    assert len(re.findall(r'class="bmk replenish"', check.dom)) == 5
    assert len(re.findall(r'class="bmk deplete"', check.dom)) == 3
