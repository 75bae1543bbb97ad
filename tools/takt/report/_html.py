"""Self-contained interactive HTML Gantt chart.

One file, no external resources: inline CSS, the run as embedded JSON, and inline JS
that draws it into an inline SVG (only what is in view; very narrow boxes are merged
so a 100,000-tick run stays fast). Wheel zooms around the cursor, drag pans, buttons
and keys (+ - 0 arrows) do the same. Hover shows task/job/start/end.

For automated checks the page sets ``data-takt-render="ok"`` on ``<html>`` once drawn
and records any JS error into ``<ul id="takt-errors">`` (and ``data-takt-errors``).
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from takt.model import RunResult
from takt.report import _html_assets
from takt.report._chart import (
    DEPLETE_COLOR,
    IDLE_COLOR,
    MISS_COLOR,
    REPLENISH_COLOR,
    SERVER_IDLE_COLOR,
    Chart,
    legend_entries,
    source_title,
)
from takt.report.summary import run_duration, server_stats, task_stats

_KIND = {"release": 0, "deadline": 1, "miss": 2}

# Module globals (not import aliases) so tests can swap in broken JS and see it caught.
_CSS: str = _html_assets.CSS
_JS: str = _html_assets.JS
_TEMPLATE: str = _html_assets.TEMPLATE


def _json_for_script(data: Any) -> str:
    """JSON safe to embed in a <script> element (no '<', '>', '&' outside escapes)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def chart_data(result: RunResult, chart: Chart) -> dict[str, Any]:
    servers: list[str] = [""]
    sidx: dict[str, int] = {"": 0}
    boxes: list[list[int | None]] = []
    for b in chart.boxes:
        if b.server not in sidx:
            sidx[b.server] = len(servers)
            servers.append(b.server)
        boxes.append([b.lane, b.start, b.end, b.job, 1 if b.missed else 0, sidx[b.server]])
    lane_of_task = {ln.name: i for i, ln in enumerate(chart.lanes) if ln.kind == "task"}
    jobs = [
        [lane_of_task[j.task], j.job, j.release, j.deadline, j.finish, 1 if j.missed else 0]
        for j in chart.jobs.values()
        if j.task in lane_of_task
    ]
    return {
        "duration": chart.duration,
        "tickHz": chart.tick_hz,
        "lanes": [
            {
                "kind": ln.kind,
                "name": ln.name,
                "label": ln.label,
                "color": ln.color,
                "server": ln.server,
            }
            for ln in chart.lanes
        ],
        "servers": servers,
        "boxes": boxes,
        "markers": [[m.lane, m.time, _KIND[m.kind], m.job] for m in chart.markers],
        "jobs": jobs,
        "budgets": {str(k): v for k, v in chart.budgets.items()},
        "budgetMax": {str(k): v for k, v in chart.budget_max.items()},
        "budgetMarks": [
            [lane, t, 0 if kind == "replenish" else 1] for lane, t, kind in chart.budget_marks
        ],
        "colors": {
            "idle": IDLE_COLOR,
            "serverIdle": SERVER_IDLE_COLOR,
            "miss": MISS_COLOR,
            "replenish": REPLENISH_COLOR,
            "deplete": DEPLETE_COLOR,
        },
    }


def _cards_html(result: RunResult) -> str:
    e = html.escape
    stats = task_stats(result)
    jobs = sum(s.released for s in stats)
    misses = sum(s.misses for s in stats)
    sysc = result.scenario.system
    dur = run_duration(result)
    sim_s = dur / sysc.tick_hz
    cards = [
        ("jobs released", str(jobs), ""),
        ("deadline misses", str(misses), " bad" if misses else " good"),
        ("context switches", str(result.context_switches), ""),
        (
            "tick interrupts" + (" (tickless)" if sysc.tickless else ""),
            str(result.tick_interrupts),
            "",
        ),
        ("trace overflows", str(result.trace_overflows), " bad" if result.trace_overflows else ""),
        ("simulated", f"{sim_s:g} s", ""),
    ]
    if result.wall_seconds > 0:
        cards.append(("sim / wall time", f"{sim_s / result.wall_seconds:.3g}×", ""))
    out: list[str] = []
    if result.trace_overflows:
        out.append(
            '<div class="warn">Warning: the kernel trace buffer overflowed '
            f"{result.trace_overflows} time(s); events were lost and this chart and the "
            "numbers may be incomplete.</div>"
        )
    out.append('<div class="cards">')
    for label, value, cls in cards:
        out.append(
            f'<div class="card{cls}"><div class="v">{e(value)}</div>'
            f'<div class="l">{e(label)}</div></div>'
        )
    out.append("</div>")
    return "\n".join(out)


def _tables_html(result: RunResult, chart: Chart) -> str:
    e = html.escape
    stats = task_stats(result)
    out: list[str] = []
    out.append(
        '<table class="stats"><thead><tr><th>task</th><th>jobs</th><th>completed</th>'
        "<th>misses</th><th>worst response</th><th>mean response</th></tr></thead><tbody>"
    )
    colors = {ln.name: ln.color for ln in chart.lanes if ln.kind == "task"}
    for s in stats:
        worst = "–" if s.worst_response is None else str(s.worst_response)
        mean = "–" if s.mean_response is None else f"{s.mean_response:.2f}"
        miss_cls = ' class="bad"' if s.misses else ""
        out.append(
            f'<tr><td><span class="sw" style="background:{e(colors.get(s.task, "#888"))}">'
            f"</span>{e(s.task)}</td><td>{s.released}</td><td>{s.completed}</td>"
            f"<td{miss_cls}>{s.misses}</td><td>{worst}</td><td>{mean}</td></tr>"
        )
    out.append("</tbody></table>")
    srv = server_stats(result)
    if srv:
        out.append(
            '<table class="stats"><thead><tr><th>server</th><th>type</th><th>budget / period</th>'
            "<th>busy</th><th>idle</th><th>used / supplied</th><th>depleted</th></tr></thead>"
            "<tbody>"
        )
        for v in srv:
            depleted = "–" if v.depletions is None else str(v.depletions)
            out.append(
                f"<tr><td>{e(v.server)}</td><td>{e(v.server_type)}</td>"
                f"<td>{v.budget} / {v.period}</td><td>{v.busy}</td><td>{v.idle}</td>"
                f"<td>{v.busy + v.idle} / {v.supplied}</td><td>{depleted}</td></tr>"
            )
        out.append("</tbody></table>")
    return "\n".join(out)


# The legend's symbols by label (_chart.legend_entries says which appear).
_LEGEND_SVG = {
    "release": '<svg width="14" height="14"><path d="M7 2 L13 12 L1 12 Z" fill="#2b2b2b"/></svg>',
    "deadline": '<svg width="14" height="14"><path d="M1 2 L13 2 L7 12 Z" fill="#fff" '
    'stroke="#2b2b2b" stroke-width="1.5"/></svg>',
    "deadline miss": f'<svg width="14" height="14"><path d="M1 2 L13 2 L7 12 Z" '
    f'fill="{MISS_COLOR}"/><line x1="7" y1="0" x2="7" y2="14" stroke="{MISS_COLOR}" '
    'stroke-width="2"/></svg>',
    "job that missed": '<svg width="22" height="14"><rect x="1" y="2" width="20" height="10" '
    f'fill="#ddd" stroke="{MISS_COLOR}" stroke-width="2"/></svg>',
    "idle": '<svg width="22" height="14"><rect x="1" y="2" width="20" height="10" '
    f'fill="{IDLE_COLOR}"/></svg>',
    "server idle": '<svg width="22" height="14"><rect x="1" y="2" width="20" height="10" '
    'fill="url(#hatch)"/></svg>',
    "remaining budget": '<svg width="22" height="14"><path d="M1 3 L11 11 L11 3 L21 11 L21 13 '
    'L1 13 Z" fill="rgba(31,59,115,.16)" stroke="none"/><path d="M1 3 L11 11 L11 3 L21 11" '
    'fill="none" stroke="#1f3b73" stroke-width="1.8"/></svg>',
    "replenished": '<svg width="14" height="14"><path d="M7 2 L12 10 L2 10 Z" '
    f'fill="{REPLENISH_COLOR}"/></svg>',
    "depleted": '<svg width="14" height="14"><path d="M2 4 L12 4 L7 12 Z" '
    f'fill="{DEPLETE_COLOR}"/></svg>',
}


def _legend_html(chart: Chart) -> str:
    items = [_LEGEND_SVG[label] + label for label in legend_entries(chart)]
    tasks = [
        f'<span class="sw" style="background:{html.escape(ln.color)}"></span>{html.escape(ln.name)}'
        for ln in chart.lanes
        if ln.kind == "task"
    ]
    return "".join(f'<span class="li">{i}</span>' for i in tasks + items)


def render_html(result: RunResult, chart: Chart) -> str:
    sysc = result.scenario.system
    e = html.escape
    title = f"Takt schedule — {source_title(result)}"
    meta = (
        f"policy {sysc.policy} · preemption {sysc.preemption} · {chart.duration} ticks at "
        f"{chart.tick_hz} Hz (1 tick = {1000.0 / chart.tick_hz:g} ms) · port {sysc.port}"
    )
    parts = {
        "TITLE": e(title),
        "META": e(meta),
        "CARDS": _cards_html(result),
        "TABLES": _tables_html(result, chart),
        "LEGEND": _legend_html(chart),
        "CSS": _CSS,
        "JS": _JS,
        "DATA": _json_for_script(chart_data(result, chart)),
    }
    # one pass, so text from the run can never be taken for a placeholder
    return re.sub(r"%%([A-Z]+)%%", lambda m: parts[m.group(1)], _TEMPLATE)
