"""The short run summary printed on the terminal (stderr when outputs go to stdout)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from takt import tables
from takt.model import JobRow, RunResult, RunUsage


@dataclass(frozen=True)
class TaskStats:
    """Per-task numbers over the job table; response times in ticks."""

    task: str
    released: int
    completed: int
    misses: int
    worst_response: int | None
    mean_response: float | None


@dataclass(frozen=True)
class ServerStats:
    """Per-server time use from the timeline; ``supplied`` = budget handed out in the run."""

    server: str
    budget: int
    period: int
    busy: int  # ticks the server ran one of its tasks
    idle: int  # ticks the server's idle task burnt budget
    supplied: int  # replenishments within [0, duration) times the budget
    server_type: str = "idling"
    depletions: int | None = None  # times the budget ran out (None: no budget trace)


def run_duration(result: RunResult) -> int:
    """Run length in ticks: the scenario duration, or the timeline end if that is later."""
    end = max((r.end for r in result.timeline), default=0)
    return max(result.scenario.system.duration, end)


def task_names(result: RunResult) -> list[str]:
    """Tasks in definition order, then any task seen only in the results (first-seen order)."""
    names = [t.name for t in result.scenario.tasks]
    seen = set(names)
    for n in itertools.chain(tables.task_names(result.jobs), tables.task_names(result.timeline)):
        if n != "idle" and n not in seen:
            seen.add(n)
            names.append(n)
    return names


class _Tally:
    """One task's jobs, counted as they go by (a long run's table is not kept twice)."""

    __slots__ = ("completed", "misses", "released", "total_response", "worst_response")

    def __init__(self) -> None:
        self.released = self.completed = self.misses = self.total_response = 0
        self.worst_response: int | None = None

    def add(self, job: JobRow) -> None:
        self.released += 1
        self.misses += job.missed
        response = job.response_time
        if response is not None:
            self.completed += 1
            self.total_response += response
            if self.worst_response is None or response > self.worst_response:
                self.worst_response = response


def task_stats(result: RunResult) -> list[TaskStats]:
    tallies: dict[str, _Tally] = {}
    for j in result.jobs:
        tally = tallies.get(j.task)
        if tally is None:
            tally = tallies[j.task] = _Tally()
        tally.add(j)
    out: list[TaskStats] = []
    for name in task_names(result):
        t = tallies.get(name) or _Tally()
        out.append(
            TaskStats(
                task=name,
                released=t.released,
                completed=t.completed,
                misses=t.misses,
                worst_response=t.worst_response,
                mean_response=t.total_response / t.completed if t.completed else None,
            )
        )
    return out


def server_stats(result: RunResult) -> list[ServerStats]:
    if not result.scenario.servers:
        return []
    duration = run_duration(result)
    busy: dict[str, int] = {}
    idle: dict[str, int] = {}
    for r in result.timeline:
        into = idle if r.task == "idle" else busy
        into[r.server] = into.get(r.server, 0) + r.end - r.start
    out: list[ServerStats] = []
    for s in result.scenario.servers:
        replenishments = 0 if s.offset >= duration else (duration - s.offset - 1) // s.period + 1
        out.append(
            ServerStats(
                server=s.name,
                budget=s.budget,
                period=s.period,
                busy=busy.get(s.name, 0),
                idle=idle.get(s.name, 0),
                supplied=replenishments * s.budget,
                server_type=s.server_type,
                depletions=(
                    len(result.budgets[s.name].depletions) if s.name in result.budgets else None
                ),
            )
        )
    return out


def _fmt_opt(value: int | float | None) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(c) for c in col) for col in zip(header, *rows, strict=False)]
    lines = []
    for i, row in enumerate([header, *rows]):
        cells = [
            c.ljust(w) if k == 0 else c.rjust(w)
            for k, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  " + "  ".join(cells).rstrip())
        if i == 0:
            lines.append("  " + "  ".join("-" * w for w in widths))
    return lines


def _usage_line(usage: RunUsage) -> str:
    def share(ns: int) -> str:
        return f"{100.0 * ns / usage.elapsed_ns:.3f}%"

    line = (
        f"time (exact work): kernel {share(usage.kernel_ns)} ({usage.kernel_ns} ns), "
        f"tasks' work {share(usage.work_ns)}, idle {share(usage.idle_ns)}, "
        f"trace drain {share(usage.drain_ns)}"
    )
    if usage.ticks_lost:
        line += (
            f"; {usage.ticks_lost} tick(s) lost (a tick came while the one before was "
            "still pending: the kernel ran past a whole tick), counted in the run's time"
        )
    return line


def render_summary(result: RunResult) -> str:
    """A human-readable multi-line summary of a run (ends with a newline)."""
    sysc = result.scenario.system
    duration = run_duration(result)
    sim_seconds = duration / sysc.tick_hz
    lines: list[str] = []
    if result.trace_overflows > 0:
        lines += [
            "!" * 72,
            f"!! WARNING: the kernel trace buffer overflowed {result.trace_overflows} time(s):",
            "!! trace events were LOST; the timeline, job table and every number below",
            "!! may be incomplete or wrong. Enlarge the trace buffer or shorten the run.",
            "!" * 72,
        ]
    lines.append(
        f"run: {result.scenario.source}: policy {sysc.policy} ({sysc.ready_queue} ready queue), "
        f"{duration} ticks "
        f"at {sysc.tick_hz} Hz ({sim_seconds:g} s simulated), port {sysc.port}"
    )
    stats = task_stats(result)
    rows = [
        [
            s.task,
            str(s.released),
            str(s.completed),
            str(s.misses),
            _fmt_opt(s.worst_response),
            _fmt_opt(s.mean_response),
        ]
        for s in stats
    ]
    lines += _table(["task", "jobs", "completed", "misses", "worst RT", "mean RT"], rows)
    total_misses = sum(s.misses for s in stats)
    total_jobs = sum(s.released for s in stats)
    srv = server_stats(result)
    if srv:
        lines.append("servers (budget use, ticks: busy = its tasks ran, idle = its idle ran):")
        srows = []
        for v in srv:
            used = v.busy + v.idle
            pct = f"{100.0 * used / v.supplied:.1f}%" if v.supplied else "-"
            srows.append(
                [
                    v.server,
                    f"{v.budget}/{v.period}",
                    str(v.busy),
                    str(v.idle),
                    str(used),
                    str(v.supplied),
                    pct,
                    _fmt_opt(v.depletions),
                    v.server_type,
                ]
            )
        lines += _table(
            ["server", "Q/P", "busy", "idle", "used", "supplied", "used %", "depleted", "type"],
            srows,
        )
    lines.append(f"deadline misses: {total_misses} of {total_jobs} jobs")
    lines.append(f"context switches: {result.context_switches}")
    lines.append(
        f"tick interrupts: {result.tick_interrupts} in {duration} ticks"
        + (" (tickless idle)" if sysc.tickless else "")
    )
    for what, q in (("hardware queue", result.hwpq), ("hardware timer queue", result.timer_hwpq)):
        if q is not None:
            lines.append(
                f"{what}: {q.inserts} inserts, {q.removes} removes, {q.pops} pops; "
                f"{q.accesses} register accesses ({q.reads} reads, {q.writes} writes)"
            )
    lines.append(
        f"trace overflows: {result.trace_overflows}"
        + ("  <-- EVENTS LOST, results incomplete" if result.trace_overflows else "")
    )
    if result.usage is not None:
        lines.append(_usage_line(result.usage))
    if result.wall_seconds > 0:
        ratio = sim_seconds / result.wall_seconds
        lines.append(
            f"simulated/wall time (the kernel's run alone, as the runner timed it): "
            f"{sim_seconds:g} s / {result.wall_seconds:.3g} s = {ratio:.3g}x real time"
        )
    return "\n".join(lines) + "\n"
