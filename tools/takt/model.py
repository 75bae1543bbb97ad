"""The typed model of a scenario and of what a run produced.

Scenario files are parsed and validated once, at the boundary (``takt.scenario``),
into these dataclasses; nothing downstream re-checks them. Run results are plain
values produced from the kernel trace (``takt.trace``); reports and analyses read
them and never write onto them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

Policy = Literal["fp", "edf", "hsf"]
Preemption = Literal["full", "none", "deferred"]
ServerType = Literal["idling", "deferrable"]
PriorityAssignment = Literal["explicit", "rm", "dm"]
# How a board models a task's work: whole ticks ending on tick boundaries (the
# sim's timeline), or exactly the wcet's instructions with the kernel's on top.
WorkMode = Literal["ticks", "exact"]


@dataclass(frozen=True)
class Task:
    """A periodic task with a synthetic workload; all times in ticks."""

    name: str
    period: int
    wcet: int
    deadline: int
    offset: int = 0
    priority: int | None = None  # None only until rm/dm assignment resolved it
    server: str | None = None
    segments: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Server:
    """A server of the two-level hierarchy; ``server_type`` is resolved at parse time."""

    name: str
    priority: int
    period: int
    budget: int
    offset: int = 0
    server_type: ServerType = "idling"


@dataclass(frozen=True)
class SystemConfig:
    policy: Policy = "fp"
    preemption: Preemption = "full"
    ready_queue: str = "bitmap"
    tick_hz: int = 1000
    duration: int = 1000
    port: str = "sim"
    priority: PriorityAssignment = "explicit"
    round_robin: bool = False
    tickless: bool = False


@dataclass(frozen=True)
class HsfConfig:
    server_type: ServerType = "idling"
    global_policy: str = "fp"


@dataclass(frozen=True)
class Scenario:
    """A validated scenario. Tasks are in definition order, with priorities resolved."""

    system: SystemConfig
    tasks: tuple[Task, ...]
    servers: tuple[Server, ...] = ()
    hsf: HsfConfig | None = None
    source: str = "<memory>"


@dataclass(frozen=True, slots=True)
class TimelineRow:
    """One maximal interval [start, end) in which the same job (or idle) ran."""

    start: int
    end: int
    server: str  # "" without hierarchical scheduling
    task: str  # "idle" for idle time
    job: int | None  # None for idle


@dataclass(frozen=True, slots=True)
class JobRow:
    task: str
    job: int
    release: int
    deadline: int
    finish: int | None  # None if the job had not completed when the run ended
    missed: bool

    @property
    def response_time(self) -> int | None:
        return None if self.finish is None else self.finish - self.release


@dataclass(frozen=True, slots=True)
class TraceEvent:
    """One kernel trace event, time in ticks from the start of the run (may be fractional)."""

    time: float
    kind: str
    task: str | None
    arg: int


@dataclass(frozen=True)
class ServerBudget:
    """A server's remaining budget over a run, derived from the kernel's server events.

    ``points`` are ``(tick, budget)`` corners of a piecewise-linear curve (two points at
    one tick make a jump); between corners the budget falls by one per tick while the
    server runs and stays flat otherwise.
    """

    server: str
    capacity: int
    points: tuple[tuple[int, int], ...]
    replenishments: tuple[int, ...]  # ticks at which the budget was set to the capacity
    depletions: tuple[int, ...]  # ticks at which the budget reached 0

    def at(self, tick: int) -> int:
        """The budget at ``tick`` (after everything that happened at that instant)."""
        value = 0
        previous: tuple[int, int] | None = None
        for t, v in self.points:
            if t > tick:
                if previous is not None and previous[0] < tick:
                    # a sloped stretch: linear between the two corners
                    pt, pv = previous
                    return pv + (v - pv) * (tick - pt) // (t - pt)
                return value
            value = v
            previous = (t, v)
        return value


@dataclass(frozen=True)
class RunUsage:
    """Where a run's time went, as a board with exact work measures it (ns).

    ``kernel_ns`` is what is left: the kernel (tick, switches, calls, with the
    runner's trace recording on), the idle loop awake, and the task bodies' glue
    around their work.

    ``ticks_lost``: ticks the kernel never handled because the next one came
    while the one before was still pending (a tick handled more than a tick
    late: an overloaded kernel on a slow processor), as far as the runner's
    trace drains saw them; ``elapsed_ns`` includes them.
    """

    elapsed_ns: int
    idle_ns: int  # asleep in the idle loop
    work_ns: int  # the tasks' modelled work
    drain_ns: int  # the runner copying the trace to the host
    drains: int = 0  # times the trace ring filled and was drained during the run
    ticks_lost: int = 0

    @property
    def kernel_ns(self) -> int:
        return self.elapsed_ns - self.idle_ns - self.work_ns - self.drain_ns

    @property
    def kernel_share(self) -> float:
        return self.kernel_ns / self.elapsed_ns if self.elapsed_ns else 0.0


@dataclass(frozen=True)
class HwpqCounts:
    """What a unit of the hardware priority queue did in a run (the ready queue's
    with ready_queue "hwpq", the timers' with timer queue "hwpq"): its commands,
    and the register accesses that made them."""

    inserts: int
    removes: int
    pops: int
    reads: int
    writes: int

    @property
    def accesses(self) -> int:
        return self.reads + self.writes


@dataclass
class RunResult:
    scenario: Scenario
    timeline: Sequence[TimelineRow]
    jobs: Sequence[JobRow]
    events: Sequence[TraceEvent] = field(default_factory=list)
    context_switches: int = 0
    trace_overflows: int = 0
    wall_seconds: float = 0.0
    budgets: dict[str, ServerBudget] = field(default_factory=dict)  # hsf only
    usage: RunUsage | None = None  # exact work on a board only: the kernel's time is in it
    tick_interrupts: int = 0  # the tick interrupts the kernel handled (fewer when tickless)
    hwpq: HwpqCounts | None = None  # ready_queue "hwpq" only
    timer_hwpq: HwpqCounts | None = None  # timer queue "hwpq" only
