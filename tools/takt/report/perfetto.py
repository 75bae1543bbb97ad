"""Chrome trace-event JSON (opens in ui.perfetto.dev and chrome://tracing).

Layout: one process (the system); one thread (track) per task in definition order,
then one per server (hierarchical scheduling only: what the server ran, including its
own idle), then an ``idle`` track. Every timeline row becomes exactly one complete
event (``"ph": "X"``, category ``job`` or ``idle``) on its task's track or on the idle
track. Job rows add instant events (``"ph": "i"``): ``release``, ``deadline`` and
``deadline miss`` (at the absolute deadline, when the kernel learns of it). Kernel
trace events become instants with category ``kernel``. Timestamps are microseconds:
``ticks * 1e6 / tick_hz``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from takt.model import RunResult, TraceEvent
from takt.report.summary import task_names

PID = 1


def _us(ticks: float, tick_hz: int) -> float | int:
    v = ticks * 1_000_000 / tick_hz
    return int(v) if float(v).is_integer() else v


def to_chrome_trace(
    result: RunResult,
    budgets: Mapping[str, Sequence[tuple[int, int]]] | None = None,
) -> dict[str, Any]:
    """Build the trace as a JSON-ready dict ``{"traceEvents": [...], ...}``.

    Budgets (hierarchical scheduling): each server's remaining budget becomes a counter
    track (``"ph": "C"``, name ``budget <server>``), from the run's budget trace or from
    ``budgets`` (server name -> ``(tick, remaining budget)`` points) when given. Server
    events (replenish, deplete, switch) are instants on the server's track.
    """
    return {"traceEvents": list(trace_events(result, budgets)), **_trailer(result)}


def trace_events(
    result: RunResult,
    budgets: Mapping[str, Sequence[tuple[int, int]]] | None = None,
) -> Iterator[dict[str, Any]]:
    """The ``traceEvents`` of :func:`to_chrome_trace`, one at a time: a long run's
    trace is written without holding all of them."""
    if budgets is None:
        budgets = {name: b.points for name, b in result.budgets.items()}
    sysc = result.scenario.system
    hz = sysc.tick_hz

    tracks: dict[str, int] = {}  # track key -> tid; tasks by name, servers as "server:<n>"
    labels: list[tuple[int, str]] = []

    def add_track(key: str, label: str) -> int:
        tid = len(tracks) + 1
        tracks[key] = tid
        labels.append((tid, label))
        return tid

    for name in task_names(result):
        add_track(name, name)
    server_names = [s.name for s in result.scenario.servers]
    for r in result.timeline:
        if r.server and r.server != "idle" and r.server not in server_names:
            server_names.append(r.server)
    for s in server_names:
        add_track("server:" + s, f"server {s}")
    idle_tid = add_track("idle", "idle")

    def event_tid(e: TraceEvent) -> int | None:
        """The track of a kernel event; None: the kernel's own track."""
        if e.kind.startswith("server_") and e.task is not None:
            return idle_tid if e.task == "idle" else tracks.get("server:" + e.task, idle_tid)
        if e.task is not None and e.task in tracks:
            return tracks[e.task]
        return None

    # The track list comes first in the file, so whether the kernel needs a track
    # of its own is asked before the events are written.
    needs_kernel_track = any(event_tid(e) is None for e in result.events)
    kernel_tid = add_track("kernel", "kernel") if needs_kernel_track else None

    yield {
        "ph": "M",
        "pid": PID,
        "name": "process_name",
        "args": {"name": f"Takt {sysc.policy} ({result.scenario.source})"},
    }
    yield {"ph": "M", "pid": PID, "name": "process_sort_index", "args": {"sort_index": 0}}
    for tid, label in labels:
        yield {"ph": "M", "pid": PID, "tid": tid, "name": "thread_name", "args": {"name": label}}
        yield {
            "ph": "M",
            "pid": PID,
            "tid": tid,
            "name": "thread_sort_index",
            "args": {"sort_index": tid},
        }

    for r in result.timeline:
        is_idle = r.task == "idle" or r.job is None
        args: dict[str, Any] = {"task": r.task, "start_tick": r.start, "end_tick": r.end}
        if r.job is not None:
            args["job"] = r.job
        if r.server:
            args["server"] = r.server
        name = "idle" if is_idle else f"{r.task} #{r.job}"
        if is_idle and r.server and r.server != "idle":
            name = f"{r.server} idle"
        tid = idle_tid if is_idle else tracks.get(r.task, idle_tid)
        yield (
            {
                "name": name,
                "cat": "idle" if is_idle else "job",
                "ph": "X",
                "pid": PID,
                "tid": tid,
                "ts": _us(r.start, hz),
                "dur": _us(r.end - r.start, hz),
                "args": args,
            }
        )
        if r.server and r.server != "idle":
            yield (
                {
                    "name": f"{r.server}: {name}",
                    "cat": "server",
                    "ph": "X",
                    "pid": PID,
                    "tid": tracks["server:" + r.server],
                    "ts": _us(r.start, hz),
                    "dur": _us(r.end - r.start, hz),
                    "args": args,
                }
            )

    for j in result.jobs:
        tid = tracks.get(j.task, idle_tid)
        common = {"task": j.task, "job": j.job}
        yield (
            {
                "name": "release",
                "cat": "release",
                "ph": "i",
                "s": "t",
                "pid": PID,
                "tid": tid,
                "ts": _us(j.release, hz),
                "args": {**common, "tick": j.release, "deadline_tick": j.deadline},
            }
        )
        yield (
            {
                "name": "deadline",
                "cat": "deadline",
                "ph": "i",
                "s": "t",
                "pid": PID,
                "tid": tid,
                "ts": _us(j.deadline, hz),
                "args": {**common, "tick": j.deadline},
            }
        )
        if j.missed:
            yield (
                {
                    "name": "deadline miss",
                    "cat": "miss",
                    "ph": "i",
                    "s": "t",
                    "pid": PID,
                    "tid": tid,
                    "ts": _us(j.deadline, hz),
                    "args": {
                        **common,
                        "deadline_tick": j.deadline,
                        "finish_tick": j.finish,
                    },
                }
            )

    for e in result.events:
        own_track = event_tid(e)
        yield (
            {
                "name": e.kind,
                "cat": "kernel",
                "ph": "i",
                "s": "t",
                "pid": PID,
                "tid": kernel_tid if own_track is None else own_track,
                "ts": _us(e.time, hz),
                "args": {"task": e.task, "arg": e.arg, "tick": e.time},
            }
        )

    for server, points in budgets.items():
        for t, value in points:
            yield (
                {
                    "name": f"budget {server}",
                    "cat": "budget",
                    "ph": "C",
                    "pid": PID,
                    "ts": _us(t, hz),
                    "args": {"budget": value},
                }
            )


def _trailer(result: RunResult) -> dict[str, Any]:
    sysc = result.scenario.system
    return {
        "displayTimeUnit": "ms",
        "otherData": {
            "generator": "takt",
            "source": result.scenario.source,
            "policy": sysc.policy,
            "tick_hz": sysc.tick_hz,
            "duration_ticks": sysc.duration,
            "context_switches": result.context_switches,
            "tick_interrupts": result.tick_interrupts,
            "tickless": sysc.tickless,
            "trace_overflows": result.trace_overflows,
        },
    }


def write_chrome_trace(
    result: RunResult,
    path: str | Path | TextIO,
    budgets: Mapping[str, Sequence[tuple[int, int]]] | None = None,
) -> None:
    """Write :func:`to_chrome_trace` as compact JSON to ``path`` or an open text stream,
    one event at a time."""
    if not isinstance(path, str | Path):
        _write_json(result, budgets, path)
        return
    with open(path, "w", encoding="utf-8") as f:
        _write_json(result, budgets, f)


def _write_json(
    result: RunResult,
    budgets: Mapping[str, Sequence[tuple[int, int]]] | None,
    out: TextIO,
) -> None:
    # The same bytes as json.dump(to_chrome_trace(...), separators=(",", ":")).
    def compact(value: Any) -> str:
        return json.dumps(value, separators=(",", ":"))

    out.write('{"traceEvents":[')
    for index, event in enumerate(trace_events(result, budgets)):
        if index:
            out.write(",")
        out.write(compact(event))
    out.write("]")
    for key, value in _trailer(result).items():
        out.write(f",{compact(key)}:{compact(value)}")
    out.write("}\n")
