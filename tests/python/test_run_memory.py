"""What a long run keeps in memory, and what it refuses.

Long runs have millions of events. The trace stays packed and its events are
made on each read: these tests check that the packed forms (``trace.RawEvents``,
``trace.TraceEvents``) read back exactly what the records hold and behave as
sequences, that the streamed Chrome trace is the same JSON as the one built in
memory, that a run whose result would not fit in memory is refused before it
starts, and that ``takt bench sim``'s pipeline figures are the run's.
"""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import T, make_scenario

from takt import bench, sim, tables
from takt import trace as tracemod
from takt.model import JobRow, RunResult, TimelineRow, TraceEvent
from takt.report import to_chrome_trace, write_chrome_trace
from takt.scenario import load_scenario
from takt.sim import REPO_ROOT, run_scenario
from takt.tables import JobTable, PackedSequence, TimelineTable
from takt.trace import RECORD, EventType, RawEvent, TraceFormatError

TICK_NS = 1_000_000
RECORDS = [
    (0, EventType.RELEASE, 1, 0),
    (0, EventType.DISPATCH, 1, 0),
    (2 * TICK_NS, EventType.COMPLETE, 1, 0),
    (2 * TICK_NS, EventType.DISPATCH, 0, 0),
    (3 * TICK_NS + TICK_NS // 2, 99, 0xFFFF, 7),  # a type this toolkit does not know
]


def packed(records: list[tuple[int, int, int, int]]) -> bytes:
    header = f"takt-trace 1\ntick_ns {TICK_NS}\ntask 1 a\nevents\n".encode()
    return header + b"".join(RECORD.pack(*r) for r in records)


def test_raw_events_read_back_every_record() -> None:
    events = tracemod.decode(packed(RECORDS)).events
    assert len(events) == len(RECORDS)
    assert list(events) == [RawEvent(*r) for r in RECORDS]
    assert list(events) == list(events)  # read twice, the same
    assert events[0] == RawEvent(0, EventType.RELEASE, 1, 0)
    assert events[-1] == RawEvent(*RECORDS[-1])
    assert events[1:3] == [RawEvent(*r) for r in RECORDS[1:3]]
    assert events[::-2] == [RawEvent(*r) for r in RECORDS[::-2]]
    assert events[-1].arg == 7 and events[2].stamp == 2 * TICK_NS
    for bad in (len(RECORDS), -len(RECORDS) - 1):
        with pytest.raises(IndexError):
            events[bad]


def test_a_partial_record_is_refused() -> None:
    with pytest.raises(TraceFormatError, match="not whole records"):
        tracemod.decode(packed(RECORDS)[:-3])


def test_trace_events_are_the_decoded_events() -> None:
    trace = tracemod.decode(packed(RECORDS))
    lazy = tracemod.TraceEvents(trace)
    eager = list(tracemod.events(trace))
    assert eager == [
        TraceEvent(0.0, "release", "a", 0),
        TraceEvent(0.0, "dispatch", "a", 0),
        TraceEvent(2.0, "complete", "a", 0),
        TraceEvent(2.0, "dispatch", "idle", 0),
        TraceEvent(3.5, "99", None, 7),
    ]
    assert len(lazy) == len(eager)
    assert list(lazy) == eager and list(lazy) == eager
    assert lazy == eager and eager == lazy
    assert [lazy[i] for i in range(-len(eager), len(eager))] == eager + eager
    assert lazy[1:4] == eager[1:4]
    assert lazy != eager[:-1]
    assert lazy != [*eager[:-1], TraceEvent(3.5, "99", None, 8)]
    assert lazy != "not events"
    with pytest.raises(IndexError):
        lazy[len(eager)]


def test_a_run_keeps_its_events_packed_and_reads_them_the_same() -> None:
    scenario = make_scenario([T(10, 3, 2), T(15, 6, 1)], 60)
    result = run_scenario(scenario)
    assert isinstance(result.events, tracemod.TraceEvents)
    again = run_scenario(scenario)
    assert result.events == again.events == list(again.events)
    kinds = [e.kind for e in result.events]
    assert kinds.count("release") == 6 + 4 and kinds.count("complete") == 10


def _streamed(result: RunResult) -> str:
    out = io.StringIO()
    write_chrome_trace(result, out)
    return out.getvalue()


@pytest.mark.parametrize(
    "example", ["three_tasks.toml", "hsf_idling.toml", "fpds_surveillance.toml"]
)
def test_streamed_chrome_trace_is_the_in_memory_one(example: str, tmp_path: Path) -> None:
    result = run_scenario(load_scenario(REPO_ROOT / "examples" / example))
    expected = json.dumps(to_chrome_trace(result), separators=(",", ":")) + "\n"
    assert _streamed(result) == expected
    path = tmp_path / "trace.json"
    write_chrome_trace(result, path)
    assert path.read_text() == expected


def test_kernel_track_is_listed_before_the_events_that_use_it() -> None:
    trace = tracemod.decode(packed(RECORDS))
    scenario = make_scenario([T(10, 2, 1)], 5, names=["a"])
    result = RunResult(scenario, [], [], tracemod.TraceEvents(trace))
    events = json.loads(_streamed(result))["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in events if e.get("name") == "thread_name"}
    first_instant = next(i for i, e in enumerate(events) if e["ph"] == "i")
    assert max(i for i, e in enumerate(events) if e["ph"] == "M") < first_instant
    unknown = [e for e in events if e.get("name") == "99"]
    assert len(unknown) == 1 and names[unknown[0]["tid"]] == "kernel"
    without = RunResult(scenario, [], [], list(tracemod.TraceEvents(trace))[:4])
    labels = [
        e["args"]["name"]
        for e in json.loads(_streamed(without))["traceEvents"]
        if e.get("name") == "thread_name"
    ]
    assert labels == ["a", "idle"]


def test_released_jobs_counts_each_task_from_its_offset() -> None:
    scenario = make_scenario([T(10, 1, 1), T(3, 1, 2, None, 5), T(7, 1, 3, None, 30)], 30)
    assert sim.released_jobs(scenario) == 3 + 9 + 0


def test_memory_problem_compares_the_result_with_available_memory() -> None:
    scenario = make_scenario([T(1, 1, 1)], 1_000_000)
    need = 1_000_000 * sim.RESULT_BYTES_PER_JOB
    assert sim.memory_problem(scenario, None) is None
    assert sim.memory_problem(scenario, need) is None
    problem = sim.memory_problem(scenario, need - 1)
    assert problem is not None and "about 1,000,000 jobs" in problem
    gib = need / 2**30
    assert f"would need about {gib:.1f} GiB; {gib:.1f} GiB of memory is available" in problem
    with pytest.raises(sim.RunError, match="Shorten"):
        run_scenario(make_scenario([T(1, 1, 1)], 2**31 - 1))


def test_memory_problem_counts_every_tick_of_a_run_that_may_switch_at_each() -> None:
    # One job in 2^31 - 2 ticks, but two servers may alternate at every tick.
    hierarchy = load_scenario(REPO_ROOT / "examples" / "hsf_idling.toml")
    long = dataclasses.replace(
        hierarchy,
        system=dataclasses.replace(hierarchy.system, duration=2**31 - 1),
        tasks=[dataclasses.replace(t, period=2**31 - 2) for t in hierarchy.tasks],
    )
    problem = sim.memory_problem(long, 100 * 2**30)
    assert problem is not None and "a tick for its servers" in problem
    assert sim.memory_problem(hierarchy, 2**30) is None
    plain = make_scenario([T(2**31 - 2, 1, 1)], 2**31 - 1)
    assert sim.memory_problem(plain, 2**30) is None  # one job, no servers: nothing to fear
    rr = dataclasses.replace(plain, system=dataclasses.replace(plain.system, round_robin=True))
    assert "a tick for its round-robin" in (sim.memory_problem(rr, 100 * 2**30) or "")


def test_available_memory_reads_meminfo() -> None:
    available = sim.available_memory()
    if Path("/proc/meminfo").exists():
        assert available is not None and available > 0
    else:
        assert available is None


def test_run_cost_reports_the_runs_own_counts() -> None:
    cost = bench.run_cost(tasks=5, ticks=2000, seed=3)
    scenario = bench.generated_scenario(5, 2000, 0.85, 3)
    result = run_scenario(scenario)
    assert (cost.jobs, cost.timeline_rows, cost.events) == (
        sim.released_jobs(scenario),
        len(result.timeline),
        len(result.events),
    )
    assert len(result.jobs) == cost.jobs and cost.peak_rss_bytes > 0
    assert cost.bytes_per_job == cost.peak_rss_bytes / cost.jobs
    assert f"{cost.jobs} jobs" in bench.render_run_cost(cost)


TIMELINE_ROWS = [
    TimelineRow(0, 2, "S1", "T2", 0),
    TimelineRow(2, 6, "S1", "T1", 0),
    TimelineRow(6, 10, "S1", "idle", None),
    TimelineRow(10, 2**40, "", "T3", 2**31),
]
JOB_ROWS = [
    JobRow("T2", 0, 0, 15, 2, False),
    JobRow("T1", 0, 0, 20, None, True),
    JobRow("T2", 1, 15, 30, 2**40, True),
]


@pytest.mark.parametrize(
    ("table", "rows"),
    [(TimelineTable, TIMELINE_ROWS), (JobTable, JOB_ROWS)],
)
def test_tables_read_back_their_rows(table: type[PackedSequence[Any]], rows: list[Any]) -> None:
    packed = table(rows)
    assert len(packed) == len(rows)
    assert list(packed) == rows and list(packed) == rows
    assert packed == rows and rows == packed and packed == table(rows)
    assert [packed[i] for i in range(-len(rows), len(rows))] == rows + rows
    assert packed[1:] == rows[1:] and packed[::-1] == rows[::-1]
    assert packed != rows[:-1] and packed != [*rows[:-1], rows[0]]
    assert packed != "rows"
    with pytest.raises(IndexError):
        packed[len(rows)]
    assert table() == [] and len(table()) == 0
    assert tables.task_names(packed) == tables.task_names(list(rows))


def test_timeline_table_extends_its_last_row() -> None:
    packed = TimelineTable(TIMELINE_ROWS[:2])
    packed.extend_last(9)
    assert packed[-1] == TimelineRow(2, 9, "S1", "T1", 0)
    assert packed.task_names() == ["T2", "T1"]
    assert tables.task_names(TIMELINE_ROWS) == ["T2", "T1", "idle", "T3"]


def test_a_run_keeps_its_rows_as_tables() -> None:
    scenario = make_scenario([T(10, 3, 2), T(15, 6, 1)], 60)
    result = run_scenario(scenario)
    assert isinstance(result.timeline, TimelineTable) and isinstance(result.jobs, JobTable)
    assert result.jobs == run_scenario(scenario).jobs
    assert [(j.task, j.job, j.finish) for j in result.jobs][:3] == [
        ("T1", 0, 3),
        ("T1", 1, 13),
        ("T1", 2, 23),
    ]


def _job_trace(records: list[tuple[int, int, int, int]]) -> tracemod.Trace:
    header = f"takt-trace 1\ntick_ns {TICK_NS}\ntask 1 a\ntask 2 b\nevents\n".encode()
    return tracemod.decode(header + b"".join(RECORD.pack(*r) for r in records))


def test_job_table_pairs_releases_and_completions_in_and_out_of_order() -> None:
    R, C, M = EventType.RELEASE, EventType.COMPLETE, EventType.DEADLINE_MISS
    in_order = [
        (0, R, 1, 0), (0, R, 2, 0), (3 * TICK_NS, C, 1, 0), (10 * TICK_NS, R, 1, 1),
        (10 * TICK_NS, R, 2, 1), (12 * TICK_NS, C, 2, 1), (20 * TICK_NS, R, 1, 2),
        (21 * TICK_NS, M, 1, 1), (25 * TICK_NS, C, 1, 2),
    ]  # fmt: skip
    scenario = make_scenario([T(10, 2, 2), T(10, 2, 1)], 30, names=["a", "b"])
    expected = [
        JobRow("a", 0, 0, 10, 3, False),
        JobRow("a", 1, 10, 20, None, True),
        JobRow("a", 2, 20, 30, 25, False),
        JobRow("b", 0, 0, 10, None, True),
        JobRow("b", 1, 10, 20, 12, False),
    ]
    assert list(tracemod.jobs(_job_trace(in_order), scenario)) == expected
    # Out of order (a hand-made trace; the kernel never writes one): the same table.
    assert list(tracemod.jobs(_job_trace(in_order[::-1]), scenario)) == expected
    # A job released twice: its last record counts, as a lookup gives it.
    twice = [*in_order, (22 * TICK_NS, R, 2, 1)]
    assert tracemod.jobs(_job_trace(twice), scenario)[-1] == JobRow("b", 1, 22, 32, 12, False)
