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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from takt.model import RunResult
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
    if budgets is None:
        budgets = {name: b.points for name, b in result.budgets.items()}
    sysc = result.scenario.system
    hz = sysc.tick_hz
    events: list[dict[str, Any]] = []

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
    kernel_tid: int | None = None

    events.append(
        {
            "ph": "M",
            "pid": PID,
            "name": "process_name",
            "args": {"name": f"Takt {sysc.policy} ({result.scenario.source})"},
        }
    )
    events.append({"ph": "M", "pid": PID, "name": "process_sort_index", "args": {"sort_index": 0}})

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
        events.append(
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
            events.append(
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
        events.append(
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
        events.append(
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
            events.append(
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
        if e.kind.startswith("server_") and e.task is not None:
            tid = idle_tid if e.task == "idle" else tracks.get("server:" + e.task, idle_tid)
        elif e.task is not None and e.task in tracks:
            tid = tracks[e.task]
        else:
            if kernel_tid is None:
                kernel_tid = add_track("kernel", "kernel")
            tid = kernel_tid
        events.append(
            {
                "name": e.kind,
                "cat": "kernel",
                "ph": "i",
                "s": "t",
                "pid": PID,
                "tid": tid,
                "ts": _us(e.time, hz),
                "args": {"task": e.task, "arg": e.arg, "tick": e.time},
            }
        )

    for server, points in budgets.items():
        for t, value in points:
            events.append(
                {
                    "name": f"budget {server}",
                    "cat": "budget",
                    "ph": "C",
                    "pid": PID,
                    "ts": _us(t, hz),
                    "args": {"budget": value},
                }
            )

    meta: list[dict[str, Any]] = []
    for tid, label in labels:
        meta.append(
            {"ph": "M", "pid": PID, "tid": tid, "name": "thread_name", "args": {"name": label}}
        )
        meta.append(
            {
                "ph": "M",
                "pid": PID,
                "tid": tid,
                "name": "thread_sort_index",
                "args": {"sort_index": tid},
            }
        )
    return {
        "traceEvents": events[:2] + meta + events[2:],
        "displayTimeUnit": "ms",
        "otherData": {
            "generator": "takt",
            "source": result.scenario.source,
            "policy": sysc.policy,
            "tick_hz": hz,
            "duration_ticks": sysc.duration,
            "context_switches": result.context_switches,
            "trace_overflows": result.trace_overflows,
        },
    }


def write_chrome_trace(
    result: RunResult,
    path: str | Path,
    budgets: Mapping[str, Sequence[tuple[int, int]]] | None = None,
) -> None:
    """Write :func:`to_chrome_trace` as JSON to ``path`` (``-`` is not handled here)."""
    data = to_chrome_trace(result, budgets)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
