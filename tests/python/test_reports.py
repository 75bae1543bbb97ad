"""Reports from hand-built run results: CSV, Perfetto JSON, Gantt PNG/HTML, summary."""

from __future__ import annotations

import io
import json
import re
import struct
from pathlib import Path
from typing import Any

import pytest
from sample_runs import JOBS_CSV, TIMELINE_CSV, three_tasks

from takt.model import (
    HsfConfig,
    JobRow,
    RunResult,
    Scenario,
    Server,
    SystemConfig,
    Task,
    TimelineRow,
)
from takt.report import (
    read_jobs,
    read_timeline,
    render_summary,
    to_chrome_trace,
    write_chrome_trace,
    write_gantt,
    write_jobs,
    write_timeline,
)
from takt.report._chart import build_chart
from takt.report._png import PNG_MAX_TICKS, choose_window


def hsf_result() -> RunResult:
    """The idling-server worked example of SCHEDULING.md (first 50 ticks)."""
    servers = (Server("S1", 2, 20, 10), Server("S2", 1, 40, 15))
    tasks = (
        Task("T1", 20, 4, 20, priority=1, server="S1"),
        Task("T2", 15, 2, 15, priority=2, server="S1"),
        Task("T3", 60, 10, 60, priority=2, server="S2"),
    )
    sc = Scenario(SystemConfig(policy="hsf", duration=50), tasks, servers, HsfConfig())
    rows = [
        (0, 2, "S1", "T2", 0), (2, 6, "S1", "T1", 0), (6, 10, "S1", "idle", None),
        (10, 20, "S2", "T3", 0), (20, 22, "S1", "T2", 1), (22, 26, "S1", "T1", 1),
        (26, 30, "S1", "idle", None), (30, 35, "S2", "idle", None),
        (35, 40, "idle", "idle", None), (40, 42, "S1", "T2", 2), (42, 45, "S1", "T1", 2),
        (45, 47, "S1", "T2", 3), (47, 48, "S1", "T1", 2), (48, 50, "S1", "idle", None),
    ]  # fmt: skip
    timeline = [TimelineRow(*r) for r in rows]
    jobs = [
        JobRow("T2", 0, 0, 15, 2, False), JobRow("T1", 0, 0, 20, 6, False),
        JobRow("T3", 0, 0, 60, None, False), JobRow("T2", 1, 15, 30, 22, False),
        JobRow("T1", 1, 20, 40, 26, False), JobRow("T2", 2, 30, 45, 42, False),
        JobRow("T1", 2, 40, 60, 48, False), JobRow("T2", 3, 45, 60, 47, False),
    ]  # fmt: skip
    return RunResult(sc, timeline, jobs, context_switches=13)


def synthetic_budgets() -> dict[str, list[tuple[int, int]]]:
    return {
        "S1": [(0, 10), (10, 0), (20, 0), (20, 10), (30, 0), (40, 0), (40, 10), (50, 0)],
        "S2": [(0, 15), (10, 15), (20, 5), (30, 5), (35, 0), (40, 0), (40, 15), (50, 15)],
    }


# --- CSV -------------------------------------------------------------------


def test_timeline_csv_exact() -> None:
    out = io.StringIO()
    write_timeline(three_tasks().timeline, out)
    assert out.getvalue() == TIMELINE_CSV


def test_jobs_csv_exact() -> None:
    out = io.StringIO()
    write_jobs(three_tasks().jobs, out)
    assert out.getvalue() == JOBS_CSV


def test_jobs_csv_unfinished_job_has_empty_finish() -> None:
    out = io.StringIO()
    write_jobs([JobRow("T3", 4, 120, 140, None, True)], out)
    assert out.getvalue().splitlines()[1] == "T3,4,120,140,,1"
    assert read_jobs(io.StringIO(out.getvalue())) == [JobRow("T3", 4, 120, 140, None, True)]


def test_timeline_round_trip_and_hsf_servers() -> None:
    for result in (three_tasks(), hsf_result()):
        out = io.StringIO()
        write_timeline(result.timeline, out)
        assert read_timeline(io.StringIO(out.getvalue())) == result.timeline
    out = io.StringIO()
    write_timeline(hsf_result().timeline, out)
    lines = out.getvalue().splitlines()
    assert lines[3] == "6,10,S1,idle,"
    assert lines[9] == "35,40,idle,idle,"


def test_read_timeline_errors() -> None:
    with pytest.raises(ValueError, match="header"):
        read_timeline(io.StringIO("a,b,c\n"))
    with pytest.raises(ValueError, match="line 2.*start"):
        read_timeline(io.StringIO("start,end,server,task,job\nx,3,,T1,0\n"))
    with pytest.raises(ValueError, match="empty"):
        read_timeline(io.StringIO(""))


# --- Perfetto / Chrome trace -----------------------------------------------


def _thread_names(trace: dict[str, Any]) -> dict[int, str]:
    return {
        e["tid"]: e["args"]["name"]
        for e in trace["traceEvents"]
        if e["ph"] == "M" and e["name"] == "thread_name"
    }


def test_chrome_trace_structure(tmp_path: Path) -> None:
    result = three_tasks()
    path = tmp_path / "trace.json"
    write_chrome_trace(result, path)
    trace = json.loads(path.read_text())
    assert trace == json.loads(json.dumps(to_chrome_trace(result)))
    events = trace["traceEvents"]
    for e in events:
        assert e["pid"] == 1 and e["ph"] in ("M", "X", "i")
    names = _thread_names(trace)
    order = sorted(
        (e["args"]["sort_index"], names[e["tid"]])
        for e in events
        if e["ph"] == "M" and e["name"] == "thread_sort_index"
    )
    assert [n for _, n in order] == ["T1", "T2", "T3", "idle"]
    assert any(e["ph"] == "M" and e["name"] == "process_name" for e in events)

    complete = [e for e in events if e["ph"] == "X"]
    assert len(complete) == len(result.timeline)
    for e, row in zip(complete, result.timeline, strict=True):
        assert e["ts"] == row.start * 1000 and e["dur"] == (row.end - row.start) * 1000
        assert names[e["tid"]] == row.task
        if row.job is None:
            assert e["cat"] == "idle" and "job" not in e["args"]
        else:
            assert e["cat"] == "job" and e["args"]["job"] == row.job

    tid = {v: k for k, v in names.items()}
    instants = [e for e in events if e["ph"] == "i"]
    releases = [e for e in instants if e["cat"] == "release"]
    deadlines = [e for e in instants if e["cat"] == "deadline"]
    misses = [e for e in instants if e["cat"] == "miss"]
    assert len(releases) == len(deadlines) == len(result.jobs)
    assert sorted(e["ts"] for e in releases if e["tid"] == tid["T1"]) == [0, 10000, 20000]
    assert sorted(e["ts"] for e in deadlines if e["tid"] == tid["T2"]) == [15000, 30000]
    assert len(misses) == 1
    assert misses[0]["tid"] == tid["T3"] and misses[0]["ts"] == 20000
    assert misses[0]["args"] == {"task": "T3", "job": 0, "deadline_tick": 20, "finish_tick": 28}


def test_chrome_trace_timestamps_follow_tick_hz() -> None:
    trace = to_chrome_trace(three_tasks(tick_hz=10_000))
    row = [e for e in trace["traceEvents"] if e["ph"] == "X"][3]  # 10,13,,T1,1
    assert (row["ts"], row["dur"]) == (1000, 300)
    trace = to_chrome_trace(three_tasks(tick_hz=3))
    row = [e for e in trace["traceEvents"] if e["ph"] == "X"][1]  # 3,8
    assert row["ts"] == 1_000_000 and row["dur"] == pytest.approx(5e6 / 3)


def test_chrome_trace_servers_and_budgets() -> None:
    result = hsf_result()
    trace = to_chrome_trace(result, synthetic_budgets())
    names = set(_thread_names(trace).values())
    assert {"T1", "T2", "T3", "server S1", "server S2", "idle"} <= names
    jobs = [e for e in trace["traceEvents"] if e["ph"] == "X" and e["cat"] in ("job", "idle")]
    assert len(jobs) == len(result.timeline)
    counters = [e for e in trace["traceEvents"] if e["ph"] == "C"]
    assert len(counters) == 16 and counters[0]["name"] == "budget S1"


# --- Gantt -----------------------------------------------------------------

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_gantt_png(tmp_path: Path) -> None:
    path = tmp_path / "g.png"
    write_gantt(three_tasks(), path)
    width, height = _png_size(path)
    assert path.stat().st_size > 5000 and width >= 600 and height >= 200


def test_gantt_png_servers_with_budgets(tmp_path: Path) -> None:
    path = tmp_path / "hsf.PNG"
    write_gantt(hsf_result(), path, budgets=synthetic_budgets())
    _png_size(path)


def _long_run(duration: int) -> RunResult:
    tasks = (Task("A", 10, 3, 10, priority=2), Task("B", 25, 10, 25, priority=1))
    rows: list[TimelineRow] = []
    jobs: list[JobRow] = []
    for k in range(duration // 10):
        rows.append(TimelineRow(10 * k, 10 * k + 3, "", "A", k))
        rows.append(TimelineRow(10 * k + 3, 10 * k + 7, "", "B", k))
        rows.append(TimelineRow(10 * k + 7, 10 * k + 10, "", "idle", None))
        late = k == duration // 20
        jobs.append(JobRow("A", k, 10 * k, 10 * k + 10, 10 * k + (12 if late else 3), late))
    sc = Scenario(SystemConfig(duration=duration), tasks, source="long.toml")
    return RunResult(sc, rows, jobs, context_switches=len(rows))


def test_gantt_png_long_run_draws_a_window(tmp_path: Path) -> None:
    result = _long_run(100_000)
    chart = build_chart(result)
    a, b, why = choose_window(chart, None)
    assert b - a == PNG_MAX_TICKS and a <= 50_010 <= b and "miss" in why
    assert choose_window(build_chart(_long_run(200)), None) == (0, 200, "")
    path = tmp_path / "long.png"
    write_gantt(result, path)
    width, height = _png_size(path)
    assert width <= 22 * 110 and height < 2000


def _html_data(text: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="takt-data">(.*?)</script>', text, re.S)
    assert m
    data: dict[str, Any] = json.loads(m.group(1))
    return data


def test_gantt_html_is_self_contained(tmp_path: Path) -> None:
    path = tmp_path / "g.html"
    result = three_tasks()
    write_gantt(result, path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert "http://" not in text and "https://" not in text and "//cdn" not in text
    assert not re.search(r"\b(src|href|xlink:href)\s*=", text, re.I)
    assert not re.search(r"@import|url\(\s*['\"]?(?!#)", text)
    data = _html_data(text)
    assert [ln["name"] for ln in data["lanes"]] == ["T1", "T2", "T3", "idle"]
    assert len(data["boxes"]) == len(result.timeline)
    assert data["boxes"][7][:5] == [2, 23, 28, 0, 1]  # T3 job 0, missed
    assert sorted(m[1] for m in data["markers"] if m[2] == 2) == [20]
    assert "deadline misses" in text and "context switches" in text


def test_gantt_html_escapes_names(tmp_path: Path) -> None:
    result = three_tasks()
    evil = "</script><b>x&y"
    result.timeline = [
        TimelineRow(r.start, r.end, r.server, evil if r.task == "T1" else r.task, r.job)
        for r in result.timeline
    ]
    path = tmp_path / "evil.html"
    write_gantt(result, path)
    text = path.read_text(encoding="utf-8")
    assert "<b>x&y" not in text
    assert evil in [ln["name"] for ln in _html_data(text)["lanes"]]


def test_gantt_html_servers_and_budgets(tmp_path: Path) -> None:
    path = tmp_path / "hsf.html"
    write_gantt(hsf_result(), path, budgets=synthetic_budgets())
    data = _html_data(path.read_text(encoding="utf-8"))
    lanes = [(ln["kind"], ln["name"]) for ln in data["lanes"]]
    assert lanes == [
        ("server", "S1"), ("task", "T1"), ("task", "T2"),
        ("server", "S2"), ("task", "T3"), ("idle", "idle"),
    ]  # fmt: skip
    assert data["budgets"]["0"][:2] == [[0, 10], [10, 0]] and data["budgetMax"]["3"] == 15
    idle_rows = [b for b in data["boxes"] if b[3] is None]
    assert sorted(b[0] for b in idle_rows) == [0, 0, 0, 3, 5]


def test_gantt_unknown_suffix(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.png.*\.html"):
        write_gantt(three_tasks(), tmp_path / "g.svg")
    with pytest.raises(ValueError, match="supported"):
        write_gantt(three_tasks(), tmp_path / "g")


# --- summary ---------------------------------------------------------------


def test_summary_numbers() -> None:
    text = render_summary(three_tasks())
    rows = {ln.split()[0]: ln.split()[1:] for ln in text.splitlines() if ln.startswith("  T")}
    assert rows["T1"] == ["3", "3", "0", "3", "3.00"]
    assert rows["T2"] == ["2", "2", "0", "8", "6.50"]
    assert rows["T3"] == ["1", "1", "1", "28", "28.00"]
    assert "deadline misses: 1 of 6 jobs" in text
    assert "context switches: 8" in text
    assert "trace overflows: 0" in text and "WARNING" not in text
    assert "= 15x real time" in text  # 0.03 s simulated in 0.002 s


def test_summary_unfinished_jobs_overflows_and_servers() -> None:
    result = hsf_result()
    result.trace_overflows = 3
    text = render_summary(result)
    assert text.startswith("!!!") and "WARNING" in text and "overflowed 3 time" in text
    rows = {ln.split()[0]: ln.split()[1:] for ln in text.splitlines() if ln.startswith("  ")}
    assert rows["T3"] == ["1", "0", "0", "-", "-"]
    assert rows["S1"] == ["10/20", "20", "10", "30", "30", "100.0%", "-", "idling"]
    assert rows["S2"] == ["15/40", "10", "5", "15", "30", "50.0%", "-", "idling"]
    assert "simulated/wall" not in text  # wall_seconds == 0
