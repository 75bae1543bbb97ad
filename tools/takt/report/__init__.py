"""Reports built from a :class:`takt.model.RunResult`.

- :mod:`takt.report.csvout`: timeline and job-table CSV (the formats of SCENARIO.md).
- :mod:`takt.report.perfetto`: Chrome trace-event JSON for ui.perfetto.dev / chrome://tracing.
- :mod:`takt.report.gantt`: Gantt chart as PNG (matplotlib) or self-contained HTML.
- :mod:`takt.report.summary`: the short terminal summary.

Reports only read the run result; they never modify it.
"""

from __future__ import annotations

from takt.report.csvout import read_jobs, read_timeline, write_jobs, write_timeline
from takt.report.gantt import write_gantt
from takt.report.perfetto import to_chrome_trace, write_chrome_trace
from takt.report.summary import render_summary

__all__ = [
    "read_jobs",
    "read_timeline",
    "render_summary",
    "to_chrome_trace",
    "write_chrome_trace",
    "write_gantt",
    "write_jobs",
    "write_timeline",
]
