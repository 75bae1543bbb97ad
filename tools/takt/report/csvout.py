"""Timeline and job-table CSV, exactly as described in SCENARIO.md (Outputs).

Timeline: ``start,end,server,task,job`` — ``server`` empty without hierarchical
scheduling, ``job`` empty for idle rows. Job table:
``task,job,release,deadline,finish,missed`` — ``finish`` empty if the job had not
completed when the run ended, ``missed`` 0/1. Lines end with ``\\n``.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import TextIO

from takt.model import JobRow, TimelineRow

TIMELINE_HEADER = ("start", "end", "server", "task", "job")
JOBS_HEADER = ("task", "job", "release", "deadline", "finish", "missed")


def write_timeline(rows: Iterable[TimelineRow], stream: TextIO) -> None:
    """Write timeline rows as CSV (with header) to ``stream``."""
    out = csv.writer(stream, lineterminator="\n")
    out.writerow(TIMELINE_HEADER)
    for r in rows:
        out.writerow([r.start, r.end, r.server, r.task, "" if r.job is None else r.job])


def write_jobs(rows: Iterable[JobRow], stream: TextIO) -> None:
    """Write job rows as CSV (with header) to ``stream``."""
    out = csv.writer(stream, lineterminator="\n")
    out.writerow(JOBS_HEADER)
    for j in rows:
        out.writerow(
            [
                j.task,
                j.job,
                j.release,
                j.deadline,
                "" if j.finish is None else j.finish,
                1 if j.missed else 0,
            ]
        )


def _records(stream: TextIO, header: tuple[str, ...], what: str) -> list[tuple[int, list[str]]]:
    reader = csv.reader(stream)
    lines: list[tuple[int, list[str]]] = []
    first = True
    for row in reader:
        if not row or all(not c.strip() for c in row):
            continue
        if first:
            first = False
            got = tuple(c.strip() for c in row)
            if got != header:
                raise ValueError(
                    f"{what} CSV: expected header {','.join(header)!r}, got {','.join(got)!r}"
                )
            continue
        if len(row) != len(header):
            raise ValueError(
                f"{what} CSV line {reader.line_num}: expected {len(header)} fields, got {len(row)}"
            )
        lines.append((reader.line_num, [c.strip() for c in row]))
    if first:
        raise ValueError(f"{what} CSV: empty input (missing header)")
    return lines


def _int(value: str, line: int, col: str, what: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{what} CSV line {line}: {col} is not an integer: {value!r}") from None


def read_timeline(stream: TextIO) -> list[TimelineRow]:
    """Parse timeline CSV (as written by :func:`write_timeline`) back into rows.

    Blank lines are ignored; a wrong header, a wrong field count or a non-integer
    number raises ValueError naming the line.
    """
    rows: list[TimelineRow] = []
    for line, (start, end, server, task, job) in _records(stream, TIMELINE_HEADER, "timeline"):
        rows.append(
            TimelineRow(
                start=_int(start, line, "start", "timeline"),
                end=_int(end, line, "end", "timeline"),
                server=server,
                task=task,
                job=None if job == "" else _int(job, line, "job", "timeline"),
            )
        )
    return rows


def read_jobs(stream: TextIO) -> list[JobRow]:
    """Parse job-table CSV (as written by :func:`write_jobs`) back into rows."""
    rows: list[JobRow] = []
    for line, (task, job, release, deadline, finish, missed) in _records(
        stream, JOBS_HEADER, "jobs"
    ):
        if missed not in ("0", "1"):
            raise ValueError(f"jobs CSV line {line}: missed must be 0 or 1, got {missed!r}")
        rows.append(
            JobRow(
                task=task,
                job=_int(job, line, "job", "jobs"),
                release=_int(release, line, "release", "jobs"),
                deadline=_int(deadline, line, "deadline", "jobs"),
                finish=None if finish == "" else _int(finish, line, "finish", "jobs"),
                missed=missed == "1",
            )
        )
    return rows
