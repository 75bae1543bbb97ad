"""Decoding the kernel trace and deriving the timeline and job table from it.

The trace is the one record of what happened; everything the toolkit reports
about a run is derived here from the runner's output: a text header (format,
tick length, task ids and names; under hierarchical scheduling also server indices
and names and each task's server), then 16-byte little-endian records
``(stamp: u64 ns, type: u16, task: u16, arg: u32)``. The server events (19-21) carry a
server index in the task field (0xFFFF: the idle server).
"""

from __future__ import annotations

import itertools
import struct
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Literal, NamedTuple

from takt.model import Scenario, ServerBudget, TraceEvent
from takt.tables import JobTable, PackedSequence, TimelineTable

NO_TASK = 0xFFFF
IDLE_SERVER = 0xFFFF
IDLE_TASK_ID = 0
RECORD = struct.Struct("<QHHI")

StampMapping = Literal["exact", "nearest-tick", "tick-count"]
# What a header's "stamps" line may name; without one, a trace's stamps are exact.
_HEADER_STAMPS: dict[str, StampMapping] = {
    "nearest-tick": "nearest-tick",
    "tick-count": "tick-count",
}


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
    SERVER_REPLENISH = 19
    SERVER_DEPLETE = 20
    SERVER_SWITCH = 21
    WAIT_TIMEOUT = 22
    MUTEX_LOCK = 23
    MUTEX_UNLOCK = 24
    DEADLINE_INHERIT = 25
    DEADLINE_RESTORE = 26


SERVER_EVENTS = frozenset(
    {EventType.SERVER_REPLENISH, EventType.SERVER_DEPLETE, EventType.SERVER_SWITCH}
)


class TraceFormatError(ValueError):
    """The runner's output is not a trace this toolkit understands."""


class RawEvent(NamedTuple):
    stamp: int
    type: int
    task: int
    arg: int


class RawEvents(PackedSequence[RawEvent]):
    """The trace's records, kept packed as the runner wrote them (16 bytes each).

    A long run has millions of events; one object per event would cost about ten
    times the record. Events are unpacked as they are read, each time.
    """

    __slots__ = ("_body",)

    def __init__(self, body: bytes | memoryview) -> None:
        if len(body) % RECORD.size:
            raise TraceFormatError(f"trace body of {len(body)} bytes is not whole records")
        self._body = body

    def records(self) -> Iterator[tuple[int, int, int, int]]:
        """(stamp, type, task, arg) tuples, the fastest way through the trace."""
        return RECORD.iter_unpack(self._body)

    def __len__(self) -> int:
        return len(self._body) // RECORD.size

    def __iter__(self) -> Iterator[RawEvent]:
        return map(RawEvent._make, RECORD.iter_unpack(self._body))

    def _item(self, index: int) -> RawEvent:
        return RawEvent._make(RECORD.unpack_from(self._body, index * RECORD.size))


@dataclass(frozen=True)
class Trace:
    tick_ns: int
    task_names: dict[int, str]
    events: RawEvents
    # How stamps become ticks, from the header's "stamps" line (docs/ports.md).
    # "exact": the sim's, every stamp on a boundary. "nearest-tick": a target's
    # with whole-tick work, where kernel code takes time, so events land a little
    # after the tick the sim stamps them with. "tick-count": exact work on a
    # target, where events fall anywhere in a tick and count at the kernel's.
    stamps: StampMapping = "exact"
    server_names: dict[int, str] = field(default_factory=dict)  # hsf only
    task_servers: dict[int, int] = field(default_factory=dict)  # task id -> server index

    @property
    def hierarchical(self) -> bool:
        return bool(self.server_names)

    def server_name(self, server: int) -> str:
        if server == IDLE_SERVER:
            return "idle"
        return self.server_names.get(server, f"server#{server}")

    def ticks(self, stamp: int) -> int:
        """A stamp in ticks; every integer-tick scenario gives whole ticks.

        Sim traces must be exactly on a boundary. Target traces are rounded to
        the nearest tick, and refused if an event is more than a quarter tick
        away from every boundary (an overhead that large is not a rounding matter).
        Exact work's traces count each event at the kernel's tick count.
        """
        if self.stamps == "tick-count":
            return stamp // self.tick_ns
        if self.stamps == "exact":
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
        overflow = EventType.OVERFLOW
        return sum(arg for _, kind, _, arg in self.events.records() if kind == overflow)


def decode(data: bytes) -> Trace:
    """Parses the runner's output into header and events."""
    marker = b"events\n"
    end = data.find(marker)
    if not data.startswith(b"takt-trace 1\n") or end < 0:
        raise TraceFormatError("missing 'takt-trace 1' header or 'events' line")
    tick_ns = 0
    stamps: StampMapping = "exact"
    names: dict[int, str] = {}
    servers: dict[int, str] = {}
    task_servers: dict[int, int] = {}
    for number, line in enumerate(data[:end].decode("utf-8").splitlines()[1:], start=2):
        key, _, rest = line.partition(" ")
        try:
            if key == "tick_ns":
                tick_ns = int(rest)
            elif key == "stamps":
                if rest not in _HEADER_STAMPS:
                    raise TraceFormatError(f"unknown stamp mapping {rest!r} in the trace header")
                stamps = _HEADER_STAMPS[rest]
            elif key == "task":
                ident, _, name = rest.partition(" ")
                names[int(ident)] = name
            elif key == "server":
                ident, _, name = rest.partition(" ")
                servers[int(ident)] = name
            elif key == "task-server":
                task, _, server = rest.partition(" ")
                task_servers[int(task)] = int(server)
        except TraceFormatError:
            raise
        except ValueError:
            raise TraceFormatError(f"trace header line {number}: {line!r}") from None
    unknown = sorted(s for s in task_servers.values() if s not in servers)
    if unknown:
        raise TraceFormatError(f"task-server names server {unknown[0]}, which has no header line")
    if tick_ns <= 0:
        raise TraceFormatError("missing tick_ns in the trace header")
    # A view, not a copy: the records stay in the runner's bytes.
    events = RawEvents(memoryview(data)[end + len(marker) :])
    return Trace(tick_ns, names, events, stamps, servers, task_servers)


def timeline(trace: Trace, duration: int) -> TimelineTable:
    """One row per maximal interval in which the same job (or idle) ran.

    A row ends when another task is dispatched, when the running task
    completes a job (it may go on with its next, queued job), or under
    hierarchical scheduling when another server starts running (the server
    column names the server of the latest SERVER_SWITCH; "idle" for the idle
    server; empty without servers).
    """
    rows = TimelineTable()
    completed: dict[int, int] = {}
    running: int | None = None
    server = "idle" if trace.hierarchical else ""
    since = 0
    last: tuple[int, str, str, int | None] | None = None  # the last row's end, server, task, job

    def close(until: int) -> None:
        nonlocal last
        if running is None or until <= since:
            return
        task = trace.name(running)
        job = None if running == IDLE_TASK_ID else completed.get(running, 0)
        if last == (since, server, task, job):
            rows.extend_last(until)
        else:
            rows.append(since, until, server, task, job)
        last = (until, server, task, job)

    server_switch, dispatch, complete = (
        EventType.SERVER_SWITCH,
        EventType.DISPATCH,
        EventType.COMPLETE,
    )
    for stamp, kind, task, arg in trace.events.records():
        if kind == server_switch:
            now = trace.ticks(stamp)
            close(now)
            server, since = trace.server_name(task), now
        elif kind == dispatch:
            now = trace.ticks(stamp)
            close(now)
            running, since = task, now
        elif kind == complete:
            now = trace.ticks(stamp)
            if task == running:
                close(now)
                since = now
            completed[task] = arg + 1
    close(duration)
    return rows


def jobs(trace: Trace, scenario: Scenario) -> JobTable:
    """The job table: every released job, its deadline, finish and verdict.

    The kernel reports a miss at completion or at the first tick after the
    deadline; a job still open when the run ends misses only if its deadline
    is before the end of the run (SCHEDULING.md "Jobs").
    """
    by_name = {t.name: t for t in scenario.tasks}
    duration = scenario.system.duration
    # Per task id, in trace order: job numbers and ticks, as columns (16 bytes a
    # job: a long run has millions). Each task's lookups are made when its rows
    # are, one task at a time.
    released: dict[int, tuple[array[int], array[int]]] = {}
    finished: dict[int, tuple[array[int], array[int]]] = {}
    missed: dict[int, set[int]] = {}
    on_release, on_complete, on_miss = (
        EventType.RELEASE,
        EventType.COMPLETE,
        EventType.DEADLINE_MISS,
    )

    def columns() -> tuple[array[int], array[int]]:
        return array("q"), array("q")

    for stamp, kind, task, arg in trace.events.records():
        if kind == on_release:
            numbers, ticks = released.get(task) or released.setdefault(task, columns())
        elif kind == on_complete:
            numbers, ticks = finished.get(task) or finished.setdefault(task, columns())
        else:
            if kind == on_miss:
                missed.setdefault(task, set()).add(arg)
            continue
        numbers.append(arg)
        ticks.append(trace.ticks(stamp))
    order = {name: i for i, name in enumerate(by_name)}
    rows = JobTable()
    for task in sorted(released, key=lambda t: order[trace.name(t)]):
        name = trace.name(task)
        relative_deadline = by_name[name].deadline
        task_missed = missed.get(task, set())
        for job, release, finish in _task_jobs(released[task], finished.get(task, columns())):
            deadline = release + relative_deadline
            miss = job in task_missed or (finish is None and deadline < duration)
            rows.append(name, job, release, deadline, finish, miss)
    return rows


def _task_jobs(
    released: tuple[array[int], array[int]], finished: tuple[array[int], array[int]]
) -> Iterator[tuple[int, int, int | None]]:
    """(job, release, finish or None) of one task by job number, from its RELEASE
    and COMPLETE columns. The kernel numbers a task's jobs upwards and completes
    them in order, so one walk pairs them; other traces go through lookups
    (where a job appears twice, its last record counts)."""
    (released_jobs, released_at), (finished_jobs, finished_at) = released, finished
    if _increasing(released_jobs) and _increasing(finished_jobs):
        done, count = 0, len(finished_jobs)
        for job, release in zip(released_jobs, released_at, strict=True):
            while done < count and finished_jobs[done] < job:
                done += 1
            matched = done < count and finished_jobs[done] == job
            yield job, release, finished_at[done] if matched else None
        return
    release_of = dict(zip(released_jobs, released_at, strict=True))
    finish_of = dict(zip(finished_jobs, finished_at, strict=True))
    for job in sorted(release_of):
        yield job, release_of[job], finish_of.get(job)


def _increasing(values: array[int]) -> bool:
    return all(a < b for a, b in itertools.pairwise(values))


def budgets(trace: Trace, scenario: Scenario) -> dict[str, ServerBudget]:
    """Each server's remaining budget over the run (empty without servers).

    Follows the contract of the server events: REPLENISH sets the budget to its
    argument, SERVER_SWITCH gives the new server's budget at that instant, DEPLETE
    marks 0, and the running server spends one per tick in between.
    """
    if not trace.hierarchical:
        return {}
    duration = scenario.system.duration
    capacity = {s.name: s.budget for s in scenario.servers}
    value = dict.fromkeys(trace.server_names, 0)
    points: dict[int, list[tuple[int, int]]] = {s: [(0, 0)] for s in trace.server_names}
    refills: dict[int, list[int]] = {s: [] for s in trace.server_names}
    empties: dict[int, list[int]] = {s: [] for s in trace.server_names}
    running: int | None = None
    since = 0

    def advance(now: int) -> None:
        """Charges the running server for [since, now)."""
        nonlocal since
        if running is not None and now > since:
            value[running] -= now - since
            points[running].append((now, value[running]))
        since = now

    for event in trace.events:
        if event.type not in SERVER_EVENTS:
            continue
        now = trace.ticks(event.stamp)
        advance(now)
        server = None if event.task == IDLE_SERVER else event.task
        if server is not None and server not in value:
            raise TraceFormatError(f"server event names server {server}, which has no header line")
        if event.type == EventType.SERVER_SWITCH:
            running = server
            if server is not None:
                _set(points[server], now, value[server], event.arg)
                value[server] = event.arg
        elif server is None:
            raise TraceFormatError(f"{EventType(event.type).name} event for the idle server")
        elif event.type == EventType.SERVER_REPLENISH:
            _set(points[server], now, value[server], event.arg)
            value[server] = event.arg
            refills[server].append(now)
        else:
            _set(points[server], now, value[server], 0)
            value[server] = 0
            empties[server].append(now)
    advance(max(duration, since))
    out: dict[str, ServerBudget] = {}
    for index in sorted(trace.server_names):
        name = trace.server_name(index)
        pts = points[index]
        if pts[-1][0] < duration:
            pts.append((duration, value[index]))
        out[name] = ServerBudget(
            name,
            capacity.get(name, max(v for _, v in pts)),
            tuple(_corners(pts)),
            tuple(refills[index]),
            tuple(empties[index]),
        )
    return out


def _set(points: list[tuple[int, int]], now: int, old: int, new: int) -> None:
    if not points or points[-1] != (now, old):
        points.append((now, old))
    if new != old:
        points.append((now, new))


def _corners(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Drops repeated points and points in the middle of a straight stretch."""
    out: list[tuple[int, int]] = []
    for p in points:
        if out and out[-1] == p:
            continue
        if len(out) >= 2:
            (t0, v0), (t1, v1) = out[-2], out[-1]
            t2, v2 = p
            if t0 < t1 < t2 and (v1 - v0) * (t2 - t1) == (v2 - v1) * (t1 - t0):
                out[-1] = p
                continue
        out.append(p)
    return out


_KIND_NAMES = {int(t): t.name.lower() for t in EventType}
_SERVER_EVENT_TYPES = frozenset(int(t) for t in SERVER_EVENTS)


def _event(trace: Trace, stamp: int, kind: int, ident: int, arg: int) -> TraceEvent:
    if kind in _SERVER_EVENT_TYPES:
        task: str | None = trace.server_name(ident)
    else:
        task = None if ident == NO_TASK else trace.name(ident)
    return TraceEvent(stamp / trace.tick_ns, _KIND_NAMES.get(kind) or str(kind), task, arg)


def events(trace: Trace) -> Iterator[TraceEvent]:
    """Kernel events with times in ticks (fractional where an event fell between ticks).

    Server events name their server (``"idle"`` for the idle server) in ``task``.
    """
    for record in trace.events.records():
        yield _event(trace, *record)


class TraceEvents(PackedSequence[TraceEvent]):
    """A run's kernel events (as :func:`events` gives them), made on each read.

    Kept as the packed trace, not as objects: a run of a million ticks has
    millions of events, and most reports never read them.
    """

    __slots__ = ("_trace",)

    def __init__(self, trace: Trace) -> None:
        self._trace = trace

    def __len__(self) -> int:
        return len(self._trace.events)

    def __iter__(self) -> Iterator[TraceEvent]:
        return events(self._trace)

    def _item(self, index: int) -> TraceEvent:
        return _event(self._trace, *self._trace.events[index])
