"""Gantt charts of a run: PNG (matplotlib) or a self-contained interactive HTML file.

``write_gantt(result, path)`` dispatches on the suffix of ``path``. Both formats draw
the same lanes (see :mod:`takt.report._chart`): one per task in definition order (with
servers: a lane per server, its tasks grouped under it), and an idle lane; execution
boxes, release markers (up arrows), absolute-deadline markers (down arrows), and
deadline misses in red (red marker at the deadline, red outline on the job's boxes).

Server budgets: each server lane shows the server's remaining budget from 0 to its
capacity Q over time (a filled area under a sloped line: it falls while the server
runs, jumps at replenishments), with replenishments (green up ticks) and depletions
(purple down ticks) marked, as budget traces in the hierarchical-scheduling literature
do. The data comes from the run (``RunResult.budgets``); ``budgets`` — server name ->
``(tick, remaining budget)`` points — replaces it (without marks).
"""

from __future__ import annotations

from pathlib import Path

from takt.model import RunResult
from takt.report._chart import Budgets, build_chart

SUPPORTED_SUFFIXES = (".png", ".html")


def write_gantt(
    result: RunResult,
    path: str | Path,
    *,
    budgets: Budgets | None = None,
    window: tuple[int, int] | None = None,
) -> None:
    """Write a Gantt chart of ``result`` to ``path`` (``.png`` or ``.html``).

    ``window`` (PNG only): the tick range ``[start, end)`` to draw; by default the whole
    run, or for long runs a window of at most ``PNG_MAX_TICKS`` ticks (around the first
    deadline miss if there is one) plus an overview strip of the whole run. The HTML
    chart always holds the whole run and zooms interactively.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise ValueError(
            f"unsupported Gantt chart format {p.suffix or '(no suffix)'!r} for {str(p)!r}: "
            f"supported suffixes are {', '.join(SUPPORTED_SUFFIXES)}"
        )
    chart = build_chart(result, budgets)
    if suffix == ".png":
        from takt.report._png import render_png

        render_png(result, chart, p, window)
    else:
        from takt.report._html import render_html

        p.write_text(render_html(result, chart), encoding="utf-8")
