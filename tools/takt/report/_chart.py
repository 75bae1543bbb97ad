"""Lane layout shared by the PNG and HTML Gantt charts.

Lanes, top to bottom: with servers, each server lane (its own idle time, when it was
active, and — if budget data is given — its remaining budget as a line) followed by
the lanes of its tasks in definition order; then tasks without a server; last the
``idle`` lane (system idle / the idle server). Every timeline row becomes exactly one
box: task rows on their task's lane, a server's own idle on the server lane, system
idle on the idle lane.

Budget data: by default the run's own (``RunResult.budgets``, derived from the kernel's
server events), with its replenishments and depletions as marks on the server lane; or
``budgets``: server name -> ``(tick, remaining budget)`` points, joined by straight
lines (give two points at one tick for a jump, e.g. a replenishment).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from takt.model import JobRow, RunResult
from takt.report.summary import run_duration, task_names

LaneKind = Literal["server", "task", "idle"]
MarkerKind = Literal["release", "deadline", "miss"]
BudgetMarkKind = Literal["replenish", "deplete"]
Budgets = Mapping[str, Sequence[tuple[int, int]]]

# Colour-blind-friendly palette (Okabe-Ito plus extras), cycled over tasks.
PALETTE = (
    "#4C78A8",
    "#F58518",
    "#54A24B",
    "#B279A2",
    "#72B7B2",
    "#EECA3B",
    "#9D755D",
    "#FF9DA6",
    "#79706E",
    "#BAB0AC",
)
IDLE_COLOR = "#D9D9D9"
SERVER_IDLE_COLOR = "#C9C9C9"
MISS_COLOR = "#D62728"
BUDGET_COLOR = "#1F3B73"
REPLENISH_COLOR = "#2CA02C"
DEPLETE_COLOR = "#8E44AD"


@dataclass(frozen=True)
class Lane:
    kind: LaneKind
    name: str
    label: str
    color: str
    server: str | None = None  # for task lanes under a server


@dataclass(frozen=True)
class Box:
    lane: int
    start: int
    end: int
    task: str
    server: str
    job: int | None
    missed: bool  # the job missed its deadline


@dataclass(frozen=True)
class Marker:
    lane: int
    time: int
    kind: MarkerKind
    task: str
    job: int


@dataclass
class Chart:
    lanes: list[Lane]
    boxes: list[Box]
    markers: list[Marker]
    duration: int
    tick_hz: int
    jobs: dict[tuple[str, int], JobRow]
    budgets: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # lane -> points
    budget_max: dict[int, int] = field(default_factory=dict)  # lane -> full-scale value
    budget_marks: list[tuple[int, int, BudgetMarkKind]] = field(default_factory=list)


def legend_entries(chart: Chart) -> list[str]:
    """The legend's entries (their labels) in order, the same in every renderer:
    the markers and boxes every chart has, then those only this run shows."""
    entries = ["release", "deadline", "deadline miss", "job that missed", "idle"]
    if any(lane.kind == "server" for lane in chart.lanes):
        entries.append("server idle")
    if chart.budgets:
        entries.append("remaining budget")
    if chart.budget_marks:
        entries += ["replenished", "depleted"]
    return entries


def source_title(result: RunResult) -> str:
    """The scenario's path as a chart shows it: the bytes of a file name that is not
    UTF-8 (which Python keeps as lone surrogates, which no document encoding takes)
    as U+FFFD."""
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in result.scenario.source)


def build_chart(result: RunResult, budgets: Budgets | None = None) -> Chart:
    marks: list[tuple[str, int, BudgetMarkKind]] = []
    if budgets is None:
        budgets = {name: b.points for name, b in result.budgets.items()}
        for name, b in result.budgets.items():
            marks += [(name, t, "replenish") for t in b.replenishments]
            marks += [(name, t, "deplete") for t in b.depletions]
    sc = result.scenario
    tasks = task_names(result)
    server_of = {t.name: t.server for t in sc.tasks}
    servers = [s.name for s in sc.servers]
    for r in result.timeline:
        if r.server and r.server != "idle" and r.server not in servers:
            servers.append(r.server)
    for name in budgets:
        if name not in servers:
            servers.append(name)
    for r in result.timeline:
        if r.task != "idle" and r.server and r.server != "idle":
            server_of.setdefault(r.task, r.server)

    color = {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(tasks)}
    lanes: list[Lane] = []
    lane_of_task: dict[str, int] = {}
    lane_of_server: dict[str, int] = {}
    for s in servers:
        lane_of_server[s] = len(lanes)
        lanes.append(Lane("server", s, f"server {s}", SERVER_IDLE_COLOR))
        for t in tasks:
            if server_of.get(t) == s:
                lane_of_task[t] = len(lanes)
                lanes.append(Lane("task", t, t, color[t], server=s))
    for t in tasks:
        if t not in lane_of_task:
            lane_of_task[t] = len(lanes)
            lanes.append(Lane("task", t, t, color[t]))
    idle_lane = len(lanes)
    lanes.append(Lane("idle", "idle", "idle", IDLE_COLOR))

    jobs = {(j.task, j.job): j for j in result.jobs}
    boxes: list[Box] = []
    for r in result.timeline:
        if r.task == "idle" or r.job is None:
            lane = lane_of_server.get(r.server, idle_lane) if r.server else idle_lane
            boxes.append(Box(lane, r.start, r.end, "idle", r.server, None, False))
        else:
            jr = jobs.get((r.task, r.job))
            boxes.append(
                Box(
                    lane_of_task.get(r.task, idle_lane),
                    r.start,
                    r.end,
                    r.task,
                    r.server,
                    r.job,
                    bool(jr and jr.missed),
                )
            )

    duration = run_duration(result)
    markers: list[Marker] = []
    for j in result.jobs:
        tl = lane_of_task.get(j.task)
        if tl is None:
            continue
        markers.append(Marker(tl, j.release, "release", j.task, j.job))
        if j.deadline <= duration:
            markers.append(
                Marker(tl, j.deadline, "miss" if j.missed else "deadline", j.task, j.job)
            )

    blanes: dict[int, list[tuple[int, int]]] = {}
    bmax: dict[int, int] = {}
    cap = {s.name: s.budget for s in sc.servers}
    for name, pts in budgets.items():
        lane = lane_of_server[name]
        blanes[lane] = [(int(t), int(v)) for t, v in pts]
        bmax[lane] = max([cap.get(name, 0), *(v for _, v in pts), 1])
    bmarks = sorted((lane_of_server[name], t, kind) for name, t, kind in marks)
    return Chart(lanes, boxes, markers, duration, sc.system.tick_hz, jobs, blanes, bmax, bmarks)
