"""PNG Gantt chart with matplotlib (Agg backend, no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch, Rectangle  # noqa: E402

from takt.model import RunResult  # noqa: E402
from takt.report._chart import (  # noqa: E402
    BUDGET_COLOR,
    DEPLETE_COLOR,
    IDLE_COLOR,
    MISS_COLOR,
    REPLENISH_COLOR,
    SERVER_IDLE_COLOR,
    Chart,
    legend_entries,
    source_title,
)
from takt.report.summary import task_stats  # noqa: E402

PNG_MAX_TICKS = 500  # longer runs: draw a window of this many ticks plus an overview
OVERVIEW_BUCKETS = 400
DPI = 110


def choose_window(chart: Chart, window: tuple[int, int] | None) -> tuple[int, int, str]:
    """The tick range to draw and a note saying why (empty when it is the whole run)."""
    dur = max(chart.duration, 1)
    if window is not None:
        a, b = max(0, window[0]), min(dur, window[1])
        if b <= a:
            raise ValueError(f"empty Gantt window {window} for a run of {dur} ticks")
        return a, b, "" if (a, b) == (0, dur) else "requested window"
    if dur <= PNG_MAX_TICKS:
        return 0, dur, ""
    misses = sorted(m.time for m in chart.markers if m.kind == "miss")
    if misses and misses[0] > PNG_MAX_TICKS * 3 // 4:
        a = max(0, misses[0] - PNG_MAX_TICKS // 2)
        a -= a % 10
        b = min(dur, a + PNG_MAX_TICKS)
        return b - PNG_MAX_TICKS, b, "window around the first deadline miss"
    return 0, PNG_MAX_TICKS, "first window"


def _lane_busy(chart: Chart, lane: int, edges: Any) -> Any:
    """Fraction of each bucket between consecutive ``edges`` covered by the lane's boxes."""
    bx = sorted((b.start, b.end) for b in chart.boxes if b.lane == lane)
    if not bx:
        return np.zeros(len(edges) - 1)
    s = np.array([a for a, _ in bx], dtype=float)
    ln = np.array([b - a for a, b in bx], dtype=float)
    before = np.concatenate(([0.0], np.cumsum(ln)))  # busy time before box i
    idx = np.searchsorted(s, edges, side="right") - 1
    j = np.maximum(idx, 0)
    inside = np.where(idx >= 0, np.minimum(edges - s[j], ln[j]), 0.0)
    cum = np.where(idx >= 0, before[j] + inside, 0.0)
    widths = np.diff(edges)
    return np.diff(cum) / np.where(widths > 0, widths, 1)


def _legend_handle(label: str) -> Any:
    """The legend symbol of one _chart.legend_entries label."""
    if label == "release":
        return Line2D([], [], linestyle="none", marker="^", color="#2B2B2B", label=label)
    if label == "deadline":
        return Line2D(
            [],
            [],
            linestyle="none",
            marker="v",
            color="#2B2B2B",
            markerfacecolor="white",
            label=label,
        )
    if label == "deadline miss":
        return Line2D(
            [], [], linestyle="none", marker="v", color=MISS_COLOR, markersize=9, label=label
        )
    if label == "job that missed":
        return Patch(facecolor="white", edgecolor=MISS_COLOR, linewidth=1.6, label=label)
    if label == "idle":
        return Patch(facecolor=IDLE_COLOR, edgecolor="#9A9A9A", label=label)
    if label == "server idle":
        return Patch(facecolor=SERVER_IDLE_COLOR, edgecolor="#9A9A9A", hatch="////", label=label)
    if label == "remaining budget":
        return Patch(facecolor=BUDGET_COLOR + "29", edgecolor=BUDGET_COLOR, label=label)
    marker, color = ("^", REPLENISH_COLOR) if label == "replenished" else ("v", DEPLETE_COLOR)
    return Line2D([], [], linestyle="none", marker=marker, color=color, label=label)


def render_png(result: RunResult, chart: Chart, path: Path, window: tuple[int, int] | None) -> None:
    w0, w1, why = choose_window(chart, window)
    span = w1 - w0
    n = len(chart.lanes)
    overview = why != "" and window is None
    width_in = min(22.0, max(9.0, 3.5 + span * 0.075))
    lane_h_in = 0.5
    height_in = 1.5 + lane_h_in * n + (1.3 if overview else 0.0)
    fig = plt.figure(figsize=(width_in, height_in), dpi=DPI)
    if overview:
        gs = fig.add_gridspec(2, 1, height_ratios=[lane_h_in * n, 0.9], hspace=0.55)
        ax = fig.add_subplot(gs[0])
        ax_ov = fig.add_subplot(gs[1])
    else:
        ax = fig.add_subplot(1, 1, 1)
        ax_ov = None

    def y_of(lane: int) -> float:
        return float(n - 1 - lane)

    px_per_tick = width_in * DPI * 0.82 / max(span, 1)
    # lane backgrounds
    for i, lane in enumerate(chart.lanes):
        if lane.kind == "server":
            ax.axhspan(y_of(i) - 0.5, y_of(i) + 0.5, color="#EEF2F7", zorder=0)
        elif i % 2 == 0:
            ax.axhspan(y_of(i) - 0.5, y_of(i) + 0.5, color="#FAFAFA", zorder=0)

    # execution boxes, batched per (lane, style)
    batches: dict[tuple[int, str, str, str], list[tuple[float, float]]] = {}
    labels: list[tuple[float, float, str]] = []
    for b in chart.boxes:
        if b.end <= w0 or b.start >= w1:
            continue
        a, e = max(b.start, w0), min(b.end, w1)
        lane = chart.lanes[b.lane]
        if b.job is None:
            face = SERVER_IDLE_COLOR if lane.kind == "server" else IDLE_COLOR
            hatch = "////" if lane.kind == "server" else ""
            edge = "#9A9A9A"
        else:
            face, hatch = lane.color, ""
            edge = MISS_COLOR if b.missed else "#333333"
        batches.setdefault((b.lane, face, edge, hatch), []).append((a, e - a))
        if b.job is not None and (e - a) * px_per_tick >= 16:
            labels.append(((a + e) / 2, y_of(b.lane), str(b.job)))
    for (li, face, edge, hatch), bars in batches.items():
        thin = len(bars) > 0 and px_per_tick < 2.0
        ax.broken_barh(
            bars,
            (y_of(li) - 0.3, 0.6),
            facecolors=face,
            edgecolors=face if thin and edge != MISS_COLOR else edge,
            linewidth=1.6 if edge == MISS_COLOR else 0.6,
            hatch=hatch or None,
            zorder=2,
        )
    for x, y, text in labels:
        ax.text(
            x,
            y,
            text,
            ha="center",
            va="center",
            fontsize=7,
            color="white",
            fontweight="bold",
            zorder=3,
        )

    # budgets: the area from 0 to the remaining budget, capacity dashed
    for li, pts in chart.budgets.items():
        full = chart.budget_max.get(li, 1)
        base = y_of(li) - 0.4
        xs = [t for t, _ in pts]
        ys = [base + 0.8 * v / full for _, v in pts]
        ax.fill_between(xs, base, ys, color=BUDGET_COLOR, alpha=0.16, linewidth=0, zorder=3)
        ax.plot(xs, ys, color=BUDGET_COLOR, linewidth=1.4, zorder=4)
        ax.hlines(base + 0.8, w0, w1, colors=BUDGET_COLOR, linewidth=0.6, linestyles=":", zorder=3)
    for kind, color, marker, dy in (
        ("replenish", REPLENISH_COLOR, "^", 0.4),
        ("deplete", DEPLETE_COLOR, "v", -0.4),
    ):
        at = [(t, y_of(li) + dy) for li, t, k in chart.budget_marks if k == kind and w0 <= t <= w1]
        if at and len(at) < 5000:
            ax.plot(
                [t for t, _ in at],
                [y for _, y in at],
                linestyle="none",
                marker=marker,
                markersize=5,
                color=color,
                zorder=5,
            )

    # markers
    rel = [
        (m.time, y_of(m.lane) - 0.38)
        for m in chart.markers
        if m.kind == "release" and w0 <= m.time <= w1
    ]
    ddl = [
        (m.time, y_of(m.lane) + 0.38)
        for m in chart.markers
        if m.kind == "deadline" and w0 <= m.time <= w1
    ]
    mis = [(m.time, y_of(m.lane)) for m in chart.markers if m.kind == "miss" and w0 <= m.time <= w1]
    msize = 6 if px_per_tick >= 3 else 4
    if rel and len(rel) < 5000:
        ax.plot(
            [x for x, _ in rel],
            [y for _, y in rel],
            linestyle="none",
            marker="^",
            markersize=msize,
            color="#2B2B2B",
            zorder=5,
        )
    if ddl and len(ddl) < 5000:
        ax.plot(
            [x for x, _ in ddl],
            [y for _, y in ddl],
            linestyle="none",
            marker="v",
            markersize=msize,
            color="#2B2B2B",
            markerfacecolor="white",
            zorder=5,
        )
    if mis:
        ax.vlines(
            [x for x, _ in mis],
            [y - 0.48 for _, y in mis],
            [y + 0.48 for _, y in mis],
            colors=MISS_COLOR,
            linewidth=1.8,
            zorder=6,
        )
        ax.plot(
            [x for x, _ in mis],
            [y + 0.38 for _, y in mis],
            linestyle="none",
            marker="v",
            markersize=msize + 3,
            color=MISS_COLOR,
            zorder=7,
        )

    ax.set_ylim(-0.5, n - 0.5)
    margin = span * 0.012
    ax.set_xlim(w0 - margin, w1 + margin)
    ax.set_yticks([y_of(i) for i in range(n)])
    ax.set_yticklabels(
        [(lane.label if lane.server is None else "   " + lane.label) for lane in chart.lanes]
    )
    for tick, lane in zip(ax.get_yticklabels(), chart.lanes, strict=True):
        if lane.kind == "server":
            tick.set_fontweight("bold")
        if lane.kind == "idle":
            tick.set_color("#666666")
    ms = 1000.0 / chart.tick_hz
    ax.set_xlabel(f"time (ticks; 1 tick = {ms:g} ms)")
    ax.grid(axis="x", color="#DDDDDD", linewidth=0.6, zorder=1)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)

    stats = task_stats(result)
    jobs = sum(s.released for s in stats)
    misses = sum(s.misses for s in stats)
    sysc = result.scenario.system
    title = (
        f"Takt schedule — {source_title(result)} — policy {sysc.policy}, "
        f"{chart.duration} ticks at {chart.tick_hz} Hz"
    )
    if why:
        title += f"\nshowing ticks {w0}–{w1} of {chart.duration} ({why})"
    sub = f"jobs {jobs}   deadline misses {misses}   context switches {result.context_switches}"
    if result.trace_overflows:
        sub += f"   TRACE OVERFLOWS {result.trace_overflows} (events lost!)"
    ax.set_title(title + "\n" + sub, fontsize=10, loc="left")
    title_lines = (title + "\n" + sub).count("\n") + 1

    handles = [_legend_handle(label) for label in legend_entries(chart)]
    ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.005, 1.0),
        fontsize=8,
        frameon=False,
        borderaxespad=0.0,
    )

    if ax_ov is not None:
        edges = np.linspace(0, chart.duration, OVERVIEW_BUCKETS + 1)
        grid = np.vstack([_lane_busy(chart, i, edges) for i in range(n)])
        ax_ov.imshow(
            grid,
            aspect="auto",
            cmap="Greys",
            vmin=0,
            vmax=1,
            interpolation="nearest",
            extent=(0, chart.duration, n - 0.5, -0.5),
        )
        ax_ov.add_patch(
            Rectangle((w0, -0.5), w1 - w0, n, fill=False, edgecolor="#1F77B4", linewidth=1.5)
        )
        miss_all = [(m.time, m.lane) for m in chart.markers if m.kind == "miss"]
        if miss_all:
            ax_ov.plot(
                [t for t, _ in miss_all],
                [ln for _, ln in miss_all],
                linestyle="none",
                marker="|",
                color=MISS_COLOR,
                markersize=6,
            )
        ax_ov.set_yticks(range(n))
        ax_ov.set_yticklabels([lane.label for lane in chart.lanes], fontsize=6)
        ax_ov.set_xlim(0, chart.duration)
        ax_ov.set_title(
            "whole run: share of each lane busy per bucket of "
            f"{chart.duration / OVERVIEW_BUCKETS:g} ticks (dark = busy, red = miss, "
            "blue box = window above)",
            fontsize=8,
            loc="left",
        )
        ax_ov.tick_params(axis="x", labelsize=7)

    fig.subplots_adjust(
        left=min(0.3, 1.05 / width_in),
        right=1 - 1.55 / width_in,
        top=1 - (0.42 + 0.17 * title_lines) / height_in,
        bottom=0.5 / height_in + (0.05 if overview else 0.0),
    )
    fig.savefig(path, format="png", dpi=DPI)
    plt.close(fig)
