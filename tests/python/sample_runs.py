"""A small hand-made run shared by the report tests: FP, 30 ticks, three tasks,
one deadline miss. Timeline and job table are written out as the CSV the spec
defines, so tests can compare output against them."""

from __future__ import annotations

import io

from takt.model import RunResult, Scenario, SystemConfig, Task
from takt.report import read_jobs, read_timeline

TIMELINE_CSV = """\
start,end,server,task,job
0,3,,T1,0
3,8,,T2,0
8,10,,T3,0
10,13,,T1,1
13,15,,T3,0
15,20,,T2,1
20,23,,T1,2
23,28,,T3,0
28,30,,idle,
"""

JOBS_CSV = """\
task,job,release,deadline,finish,missed
T1,0,0,10,3,0
T1,1,10,20,13,0
T1,2,20,30,23,0
T2,0,0,15,8,0
T2,1,15,30,20,0
T3,0,0,20,28,1
"""


def three_tasks(tick_hz: int = 1000) -> RunResult:
    """FP, 30 ticks: T1 (P=10, C=3), T2 (P=15, C=5), T3 (P=30, D=20, C=9) misses at 20."""
    tasks = (
        Task("T1", period=10, wcet=3, deadline=10, priority=3),
        Task("T2", period=15, wcet=5, deadline=15, priority=2),
        Task("T3", period=30, wcet=9, deadline=20, priority=1),
    )
    scenario = Scenario(SystemConfig(duration=30, tick_hz=tick_hz), tasks, source="three.toml")
    return RunResult(
        scenario,
        read_timeline(io.StringIO(TIMELINE_CSV)),
        read_jobs(io.StringIO(JOBS_CSV)),
        context_switches=8,
        wall_seconds=0.002,
    )
