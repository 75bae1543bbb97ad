"""Random task-set generation for experiments and property tests.

UUniFast (Bini & Buttazzo) draws n utilisations summing to U uniformly. Periods
come from a menu (hyperperiods stay bounded) or log-uniformly from a range (the
usual choice in schedulability studies, Emberson et al. 2010). Wcets are rounded
to whole ticks (at least one), so the realised utilisation differs slightly
from U; :func:`generate_scenario` reports it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce
from typing import Literal

from takt.model import Policy, Preemption, PriorityAssignment, Scenario, SystemConfig, Task
from takt.scenario import MAX_TICKS, PRIORITY_MAX, READY_QUEUES, parse_scenario
from takt.scenario_toml import scenario_toml

DEFAULT_PERIODS: tuple[int, ...] = (10, 20, 25, 40, 50, 100, 125, 200, 250, 500, 1000)


def uunifast(n: int, total: float, rng: random.Random) -> list[float]:
    """n utilisations, each in (0, total], summing to total."""
    if n < 1 or total <= 0:
        raise ValueError("uunifast needs n >= 1 and total > 0")
    utils = []
    remaining = total
    for i in range(1, n):
        following = remaining * rng.random() ** (1.0 / (n - i))
        utils.append(remaining - following)
        remaining = following
    utils.append(remaining)
    return utils


def periodic_task_set(
    n: int,
    utilization: float,
    rng: random.Random,
    periods: Sequence[int] = DEFAULT_PERIODS,
    rate_monotonic: bool = True,
) -> list[Task]:
    """n implicit-deadline periodic tasks named t0..t{n-1}; RM priorities n..1 if asked."""
    tasks = random_tasks(n, utilization, rng, tuple(periods))
    if rate_monotonic:
        ranked = sorted(range(n), key=lambda i: (tasks[i].period, i))
        prio = {index: n - rank for rank, index in enumerate(ranked)}
        tasks = [
            Task(t.name, t.period, t.wcet, t.deadline, t.offset, prio[i])
            for i, t in enumerate(tasks)
        ]
    return tasks


@dataclass(frozen=True)
class PeriodRange:
    """Periods drawn log-uniformly from the integers low..high."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if not 1 <= self.low <= self.high:
            raise ValueError(f"period range {self.low}..{self.high}: need 1 <= low <= high")


Periods = tuple[int, ...] | PeriodRange
Deadlines = Literal["implicit", "constrained"]


def draw_period(periods: Periods, rng: random.Random) -> int:
    """One period: a menu entry, or log-uniform over the range's integers."""
    if isinstance(periods, PeriodRange):
        # Uniform in log over [low, high + 1), floored: each integer gets the share
        # of the log scale between it and the next one.
        value = math.exp(rng.uniform(math.log(periods.low), math.log(periods.high + 1)))
        return min(periods.high, max(periods.low, math.floor(value)))
    return rng.choice(list(periods))


def split_wcet(wcet: int, parts: int, rng: random.Random) -> tuple[int, ...]:
    """wcet cut into min(parts, wcet) positive segments at random points."""
    count = max(1, min(parts, wcet))
    cuts = sorted(rng.sample(range(1, wcet), count - 1))
    bounds = [0, *cuts, wcet]
    return tuple(b - a for a, b in zip(bounds, bounds[1:], strict=False))


def random_tasks(
    n: int,
    utilization: float,
    rng: random.Random,
    periods: Periods = DEFAULT_PERIODS,
    deadlines: Deadlines = "implicit",
    segments: int = 1,
) -> list[Task]:
    """n tasks t0..t{n-1} without priorities: UUniFast utilisations, drawn periods,
    wcet = round(u * period) (1..period), deadline = period or, constrained, uniform
    in wcet..period; with segments > 1, each wcet split into that many subjobs."""
    tasks = []
    for i, u in enumerate(uunifast(n, utilization, rng)):
        period = draw_period(periods, rng)
        wcet = max(1, min(period, round(u * period)))
        deadline = period if deadlines == "implicit" else rng.randint(wcet, period)
        parts = split_wcet(wcet, segments, rng) if segments > 1 else None
        tasks.append(Task(f"t{i}", period, wcet, deadline, segments=parts))
    return tasks


def hyperperiod(tasks: Sequence[Task]) -> int:
    """The least common multiple of the periods."""
    return reduce(math.lcm, (t.period for t in tasks), 1)


@dataclass(frozen=True)
class GenerateOptions:
    """What ``takt generate`` makes: one random set per index, the same for a seed."""

    tasks: int = 10
    utilization: float = 0.8
    periods: Periods = DEFAULT_PERIODS
    deadlines: Deadlines = "implicit"
    policy: Policy = "fp"
    preemption: Preemption = "full"
    priority: PriorityAssignment | None = None  # fp: rm for implicit deadlines, else dm
    segments: int = 1
    tick_hz: int = 1000
    duration: int | None = None  # None: default_duration
    duration_cap: int = 100_000
    seed: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.tasks <= PRIORITY_MAX:
            raise ValueError(f"tasks: 1..{PRIORITY_MAX} (one priority each)")
        if not 0 < self.utilization <= self.tasks:
            raise ValueError(f"utilization {self.utilization}: must be in (0, tasks]")
        if self.policy not in ("fp", "edf"):
            raise ValueError(f'policy "{self.policy}": generate makes fp or edf sets')
        if self.policy == "edf" and self.preemption != "full":
            raise ValueError('EDF sets are generated with preemption "full" only')
        if self.segments < 1:
            raise ValueError("segments: at least 1")
        if self.segments > 1 and self.preemption != "deferred":
            raise ValueError('segments > 1 need preemption "deferred"')
        for name, ticks in (("duration", self.duration), ("duration cap", self.duration_cap)):
            if ticks is not None and not 1 <= ticks <= MAX_TICKS:
                raise ValueError(f"{name}: 1..{MAX_TICKS} ticks")


def default_duration(tasks: Sequence[Task], cap: int) -> int:
    """One hyperperiod and the longest deadline after it (so a run covers every
    job of the first hyperperiod to its deadline), at most cap ticks."""
    return min(cap, hyperperiod(tasks) + max(t.deadline for t in tasks))


def generate_scenario(options: GenerateOptions, index: int = 0) -> Scenario:
    """Set number ``index`` of the options' seed: the same scenario on every machine
    (a string seed is hashed by a fixed algorithm, not by Python's hash())."""
    rng = random.Random(f"takt-generate:{options.seed}:{index}")
    tasks = random_tasks(
        options.tasks,
        options.utilization,
        rng,
        options.periods,
        options.deadlines,
        options.segments,
    )
    fp = options.policy == "fp"
    priority = options.priority or ("rm" if options.deadlines == "implicit" else "dm")
    system = SystemConfig(
        policy=options.policy,
        preemption=options.preemption,
        ready_queue=READY_QUEUES[options.policy][0],  # the parser's default
        tick_hz=options.tick_hz,
        duration=options.duration or default_duration(tasks, options.duration_cap),
        priority=priority if fp else "explicit",
    )
    # Through the file format: the parser assigns the rm/dm priorities and checks
    # the set as it checks any file, so a generated set is exactly what its file
    # gives back.
    source = f"<generated seed {options.seed} set {index}>"
    unresolved = Scenario(system=system, tasks=tuple(tasks), source=source)
    return parse_scenario(scenario_toml(unresolved), source)
