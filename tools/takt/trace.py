"""Decoding the kernel trace and deriving the timeline and job table from it.

The trace is the one record of what happened; everything the toolkit reports
about a run is derived here from the runner's output: a text header (format,
tick length, task ids and names), then 16-byte little-endian records
``(stamp: u64 ns, type: u16, task: u16, arg: u32)``.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from takt.model import JobRow, Scenario, TimelineRow, TraceEvent

NO_TASK = 0xFFFF
IDLE_TASK_ID = 0
RECORD = struct.Struct("<QHHI")


class EventType(IntEnum):
    """Mirrors takt_event_type_t in kernel/include/takt/trace.h."""

    TASK_CREATE = 1
    RELEASE = 2
    DISPATCH = 3
    PREEMPT = 4
    BLOCK = 5
    WAKE = 6
    COMPLETE = 7
    DEADLINE_MISS = 8
    SUSPEND = 9
    RESUME = 10
    DELETE = 11
    PRIORITY = 12
    ISR_ENTER = 13
    ISR_EXIT = 14
    STACK_OVERFLOW = 15
    OVERFLOW = 16
    YIELD = 17
    PREEMPTION_POINT = 18
    # 19..21: hierarchical scheduling (servers). 22..39: synchronisation.
    WAIT_TIMEOUT = 22
    MUTEX_LOCK = 23
    MUTEX_UNLOCK = 24
    DEADLINE_INHERIT = 25
    DEADLINE_RESTORE = 26


class TraceFormatError(ValueError):
    """The runner's output is not a trace this toolkit understands."""


@dataclass(frozen=True)
class RawEvent:
    stamp: int
    type: int
    task: int
    arg: int


@dataclass(frozen=True)
class Trace:
    tick_ns: int
    task_names: dict[int, str]
    events: list[RawEvent]
    # A target's trace ("stamps nearest-tick" in its header): kernel code takes
    # time there, so events land a little after the tick the sim stamps them
    # with; they are mapped to the nearest tick (docs/ports.md).
    nearest_tick: bool = False

    def ticks(self, stamp: int) -> int:
        """A stamp in ticks; every integer-tick scenario gives whole ticks.

        Sim traces must be exactly on a boundary. Target traces are rounded to
        the nearest tick, and refused if an event is more than a quarter tick
        away from every boundary (an overhead that large is not a rounding matter).
        """
        if not self.nearest_tick:
            ticks, rest = divmod(stamp, self.tick_ns)
            if rest:
                raise TraceFormatError(f"event at {stamp} ns is not on a tick boundary")
            return ticks
        ticks = (stamp + self.tick_ns // 2) // self.tick_ns
        if abs(stamp - ticks * self.tick_ns) * 4 > self.tick_ns:
            raise TraceFormatError(
                f"event at {stamp} ns is more than a quarter tick from a tick boundary"
            )
        return ticks

    def name(self, task: int) -> str:
        if task == IDLE_TASK_ID:
            return "idle"
        return self.task_names.get(task, f"task#{task}")

    @property
    def lost_events(self) -> int:
        return sum(e.arg for e in self.events if e.type == EventType.OVERFLOW)


def decode(data: bytes) -> Trace:
    """Parses the runner's output into header and events."""
    marker = b"events\n"
    end = data.find(marker)
    if not data.startswith(b"takt-trace 1\n") or end < 0:
        raise TraceFormatError("missing 'takt-trace 1' header or 'events' line")
    tick_ns = 0
    nearest_tick = False
    names: dict[int, str] = {}
    for line in data[:end].decode("utf-8").splitlines()[1:]:
        key, _, rest = line.partition(" ")
        if key == "tick_ns":
            tick_ns = int(rest)
        elif key == "stamps":
            if rest != "nearest-tick":
                raise TraceFormatError(f"unknown stamp mapping {rest!r} in the trace header")
            nearest_tick = True
        elif key == "task":
            ident, _, name = rest.partition(" ")
            names[int(ident)] = name
    if tick_ns <= 0:
        raise TraceFormatError("missing tick_ns in the trace header")
    body = data[end + len(marker) :]
    if len(body) % RECORD.size:
        raise TraceFormatError(f"trace body of {len(body)} bytes is not whole records")
    events = [RawEvent(*fields) for fields in RECORD.iter_unpack(body)]
    return Trace(tick_ns, names, events, nearest_tick)


def timeline(trace: Trace, duration: int) -> list[TimelineRow]:
    """One row per maximal interval in which the same job (or idle) ran.

    A row ends when another task is dispatched or when the running task
    completes a job (it may go on with its next, queued job).
    """
    rows: list[TimelineRow] = []
    completed: dict[int, int] = {}
    running: int | None = None
    since = 0

    def close(until: int) -> None:
        if running is None or until <= since:
            return
        task = trace.name(running)
        job = None if running == IDLE_TASK_ID else completed.get(running, 0)
        last = rows[-1] if rows else None
        if last is not None and last.end == since and (last.task, last.job) == (task, job):
            rows[-1] = TimelineRow(last.start, until, "", task, job)
        else:
            rows.append(TimelineRow(since, until, "", task, job))

    for event in trace.events:
        if event.type == EventType.DISPATCH:
            now = trace.ticks(event.stamp)
            close(now)
            running, since = event.task, now
        elif event.type == EventType.COMPLETE:
            now = trace.ticks(event.stamp)
            if event.task == running:
                close(now)
                since = now
            completed[event.task] = event.arg + 1
    close(duration)
    return rows


def jobs(trace: Trace, scenario: Scenario) -> list[JobRow]:
    """The job table: every released job, its deadline, finish and verdict.

    The kernel reports a miss at completion or at the first tick after the
    deadline; a job still open when the run ends misses only if its deadline
    is before the end of the run (SCHEDULING.md "Jobs").
    """
    by_name = {t.name: t for t in scenario.tasks}
    duration = scenario.system.duration
    released: dict[tuple[int, int], int] = {}
    finished: dict[tuple[int, int], int] = {}
    missed: set[tuple[int, int]] = set()
    for event in trace.events:
        key = (event.task, event.arg)
        if event.type == EventType.RELEASE:
            released[key] = trace.ticks(event.stamp)
        elif event.type == EventType.COMPLETE:
            finished[key] = trace.ticks(event.stamp)
        elif event.type == EventType.DEADLINE_MISS:
            missed.add(key)
    rows = []
    order = {name: i for i, name in enumerate(by_name)}
    for (task, job), release in released.items():
        name = trace.name(task)
        deadline = release + by_name[name].deadline
        finish = finished.get((task, job))
        miss = (task, job) in missed or (finish is None and deadline < duration)
        rows.append(JobRow(name, job, release, deadline, finish, miss))
    rows.sort(key=lambda r: (order[r.task], r.job))
    return rows


def events(trace: Trace) -> Iterable[TraceEvent]:
    """Kernel events with times in ticks (fractional where an event fell between ticks)."""
    known = {int(t) for t in EventType}
    for event in trace.events:
        kind = EventType(event.type).name.lower() if event.type in known else str(event.type)
        task = None if event.task == NO_TASK else trace.name(event.task)
        yield TraceEvent(event.stamp / trace.tick_ns, kind, task, event.arg)
