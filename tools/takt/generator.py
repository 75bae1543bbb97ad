"""Random task-set generation for experiments and property tests.

UUniFast (Bini & Buttazzo) draws n utilisations summing to U uniformly. Periods
come from a menu (hyperperiods stay bounded) or log-uniformly from a range (the
usual choice in schedulability studies, Emberson et al. 2010). Wcets are rounded
to whole ticks (at least one), so the realised utilisation differs from U, mostly
above it (a short period's wcet of one tick may be far more than its share);
:func:`generate_scenario` reports it. With a utilisation tolerance, a set whose
realised utilisation is not within it of U is drawn again, from the same generator,
until one is (:func:`set_tasks`).

Hierarchies (policy hsf) spread the same kind of task set over servers, every
server at least one task, and give each server an interface: a period (drawn, or
half its shortest task period) and a budget, either the smallest one under which
the periodic resource model proves every task of the server (Shin & Lee's
interface selection, :func:`minimal_budget`) or just its tasks' utilisation.
Server priorities are rate monotonic over the server periods. The hierarchy, as the
subjobs' cuts, is drawn after the tasks (with a tolerance, after the kept draw, whose
tasks' utilisation is what the tolerance judges), so it holds the flat set of the same
seed and options.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import reduce
from typing import Final, Literal

from takt.analysis.fp import utilization as realised_utilization
from takt.analysis.hsf import local_response_time
from takt.model import (
    HsfConfig,
    Policy,
    Preemption,
    PriorityAssignment,
    Scenario,
    Server,
    ServerType,
    SystemConfig,
    Task,
)
from takt.scenario import MAX_TICKS, PRIORITY_MAX, READY_QUEUES, parse_scenario, rule_order
from takt.scenario_toml import scenario_toml
from takt.sim import RUNNER_MAX_TASKS

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
        ranked = rule_order(tasks, "rm")
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
ServerTypes = Literal["idling", "deferrable", "mixed"]
Budgets = Literal["minimal", "utilization"]


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
    in wcet..period; with segments > 1, each wcet split into up to that many subjobs.
    The cuts are drawn after every task, so a set with segments is the set without
    them, cut (a sweep compares FPDS with FPPS on the same tasks)."""
    tasks = []
    for i, u in enumerate(uunifast(n, utilization, rng)):
        period = draw_period(periods, rng)
        wcet = max(1, min(period, round(u * period)))
        deadline = period if deadlines == "implicit" else rng.randint(wcet, period)
        tasks.append(Task(f"t{i}", period, wcet, deadline))
    return cut_tasks(tasks, segments, rng)


def cut_tasks(tasks: Sequence[Task], segments: int, rng: random.Random) -> list[Task]:
    """With segments > 1, each task's wcet split into up to that many subjobs (cut
    in task order); with 1, the tasks unchanged and nothing drawn."""
    if segments == 1:
        return list(tasks)
    return [replace(t, segments=split_wcet(t.wcet, segments, rng)) for t in tasks]


def hyperperiod(tasks: Sequence[Task | Server]) -> int:
    """The least common multiple of the periods."""
    return reduce(math.lcm, (t.period for t in tasks), 1)


def local_order(tasks: Sequence[Task], rule: PriorityAssignment) -> list[Task]:
    """The tasks highest local priority first under rm or dm: the parser's order."""
    return [tasks[k] for k in rule_order(tasks, rule)]


def server_proves_tasks(server: Server, ordered: Sequence[Task]) -> bool:
    """Whether the periodic resource model Γ(period, budget) proves every task in
    ``ordered`` (highest priority first) within its deadline and its period, as
    :func:`takt.analysis.hsf.hsf_prm_analysis` asks of a server's tasks (offsets 0)."""
    for rank, task in enumerate(ordered):
        r = local_response_time(task, ordered[:rank], server)
        if r is None or r > min(task.deadline, task.period):
            return False
    return True


def minimal_budget(server: Server, ordered: Sequence[Task]) -> int | None:
    """The smallest budget for the server's period under which the periodic resource
    model proves every one of its tasks (``ordered``: highest priority first); None
    when even the whole period does not. A larger budget never supplies less (sbf
    grows with the budget), so the search halves."""
    if not server_proves_tasks(replace(server, budget=server.period), ordered):
        return None
    low, high = 1, server.period  # high proves them
    while low < high:
        mid = (low + high) // 2
        if server_proves_tasks(replace(server, budget=mid), ordered):
            high = mid
        else:
            low = mid + 1
    return high


# Draws of a set's tasks a utilisation tolerance allows before generate gives up.
MAX_UTILIZATION_DRAWS: Final = 1000


class GenerateError(ValueError):
    """A set the options cannot give: no draw within the utilisation tolerance. A
    ValueError, as the options' own refusals are; it is found only when drawing."""


def decimal_value(value: float) -> Fraction:
    """The decimal a float prints as, exactly: 0.9 is 9/10, not the binary value just
    above it, so a tolerance of 0.01 around 0.9 takes a realised 0.89 as it takes 0.91."""
    return Fraction(repr(value))


def max_tasks(policy: Policy) -> int:
    """The most tasks a generated set of this policy may have. fp and hsf sets give
    every task a priority of its own (1..255; under hsf per server, but the tasks go to
    servers at random, so the set as a whole is held to it); EDF uses no priorities, so
    a set may have as many tasks as a run takes (the runner's limit)."""
    return RUNNER_MAX_TASKS if policy == "edf" else PRIORITY_MAX


@dataclass(frozen=True)
class GenerateOptions:
    """What ``takt generate`` makes: one random set per index, the same for a seed."""

    tasks: int = 10
    utilization: float = 0.8
    periods: Periods = DEFAULT_PERIODS
    deadlines: Deadlines = "implicit"
    policy: Policy = "fp"
    preemption: Preemption = "full"
    priority: PriorityAssignment | None = None  # fp, hsf: rm for implicit deadlines, else dm
    segments: int = 1
    servers: int = 3  # hsf only, as the three below
    server_type: ServerTypes = "idling"
    server_periods: Periods | None = None  # None: half the server's shortest task period
    budgets: Budgets = "minimal"
    tick_hz: int = 1000
    duration: int | None = None  # None: default_duration
    duration_cap: int = 100_000
    seed: int = 1
    # None: the first draw, whatever it realises; else redrawn to within it (set_tasks).
    utilization_tolerance: float | None = None

    def __post_init__(self) -> None:
        if self.policy not in ("fp", "edf", "hsf"):
            raise ValueError(f'policy "{self.policy}": generate makes fp, edf or hsf sets')
        limit = max_tasks(self.policy)
        if not 1 <= self.tasks <= limit:
            why = "a run's limit" if self.policy == "edf" else "one priority each"
            raise ValueError(f"tasks: 1..{limit} under {self.policy} ({why})")
        if not 0 < self.utilization <= self.tasks:
            raise ValueError(f"utilization {self.utilization}: must be in (0, tasks]")
        if self.policy != "fp" and self.preemption != "full":
            raise ValueError(f'{self.policy} sets are generated with preemption "full" only')
        if self.policy == "edf" and self.priority is not None:
            raise ValueError("EDF sets take no priority assignment")
        if self.policy == "hsf" and not 1 <= self.servers <= self.tasks:
            raise ValueError(f"servers {self.servers}: 1..tasks (every server has a task)")
        if self.server_type not in ("idling", "deferrable", "mixed"):
            raise ValueError(f'server type "{self.server_type}": idling, deferrable or mixed')
        if self.budgets not in ("minimal", "utilization"):
            raise ValueError(f'budgets "{self.budgets}": minimal or utilization')
        if self.segments < 1:
            raise ValueError("segments: at least 1")
        if self.segments > 1 and self.preemption != "deferred":
            raise ValueError('segments > 1 need preemption "deferred"')
        tolerance = self.utilization_tolerance
        if tolerance is not None and not 0 < tolerance < 1:
            raise ValueError(f"utilization tolerance {tolerance}: must be in (0, 1)")
        for name, ticks in (("duration", self.duration), ("duration cap", self.duration_cap)):
            if ticks is not None and not 1 <= ticks <= MAX_TICKS:
                raise ValueError(f"{name}: 1..{MAX_TICKS} ticks")


def default_duration(tasks: Sequence[Task], cap: int, servers: Sequence[Server] = ()) -> int:
    """One hyperperiod (of the tasks and the servers) and the longest deadline after
    it (so a run covers every job of the first hyperperiod to its deadline), at most
    cap ticks."""
    return min(cap, hyperperiod([*tasks, *servers]) + max(t.deadline for t in tasks))


def _server_type(options: GenerateOptions, rng: random.Random) -> ServerType:
    if options.server_type == "mixed":
        return "idling" if rng.random() < 0.5 else "deferrable"
    return options.server_type


def _hierarchy(
    tasks: list[Task], options: GenerateOptions, rule: PriorityAssignment, rng: random.Random
) -> tuple[list[Task], list[Server]]:
    """The tasks spread over the servers (each at least one, the rest at random) and
    each server's interface; the tasks come back grouped by server, in their order."""
    count = options.servers
    assignment = list(range(count)) + [rng.randrange(count) for _ in range(len(tasks) - count)]
    rng.shuffle(assignment)
    drafts: list[tuple[Server, list[Task]]] = []
    for index in range(count):
        members = [
            replace(t, server=f"S{index}")
            for t, s in zip(tasks, assignment, strict=True)
            if s == index
        ]
        if options.server_periods is None:
            period = max(1, min(t.period for t in members) // 2)
        else:
            period = draw_period(options.server_periods, rng)
        server = Server(f"S{index}", 0, period, period, server_type=_server_type(options, rng))
        if options.budgets == "minimal":
            budget = minimal_budget(server, local_order(members, rule)) or period
        else:
            load = sum(Fraction(t.wcet, t.period) for t in members)
            budget = min(period, max(1, math.ceil(load * period)))
        drafts.append((replace(server, budget=budget), members))
    # Rate monotonic at the global level: shorter server period first, ties to the
    # server defined first.
    ranked = sorted(range(count), key=lambda i: drafts[i][0].period)
    priority = {index: count - rank for rank, index in enumerate(ranked)}
    servers = [replace(server, priority=priority[i]) for i, (server, _) in enumerate(drafts)]
    return [t for _, members in drafts for t in members], servers


def _set_rng(options: GenerateOptions, index: int) -> random.Random:
    """Set ``index``'s generator: a string seed is hashed by a fixed algorithm, not by
    Python's hash(), so the set is the same on every machine."""
    return random.Random(f"takt-generate:{options.seed}:{index}")


def _accepted_tasks(options: GenerateOptions, index: int, rng: random.Random) -> list[Task]:
    """The set's tasks without subjobs: the first draw or, with a tolerance, the first
    of up to MAX_UTILIZATION_DRAWS draws, one after the other from ``rng``, whose
    realised utilisation (exactly, sum of wcet/period) is within it of the target. A
    set already within it is the set drawn without a tolerance."""

    def draw() -> list[Task]:
        return random_tasks(
            options.tasks, options.utilization, rng, options.periods, options.deadlines
        )

    if options.utilization_tolerance is None:
        return draw()
    target = decimal_value(options.utilization)
    tolerance = decimal_value(options.utilization_tolerance)
    realised_draws: list[Fraction] = []
    for _ in range(MAX_UTILIZATION_DRAWS):
        tasks = draw()
        realised = realised_utilization(tasks)
        if abs(realised - target) <= tolerance:
            return tasks
        realised_draws.append(realised)
    closest = min(realised_draws, key=lambda u: abs(u - target))
    raise GenerateError(
        f"set {index} (seed {options.seed}, {options.tasks} tasks): none of "
        f"{MAX_UTILIZATION_DRAWS} draws realises a utilisation within "
        f"{options.utilization_tolerance:g} of {options.utilization:g} (the closest: "
        f"{float(closest):.4f}, off by {float(abs(closest - target)):.2g}); longer periods "
        "round the wcets less, or allow a larger tolerance"
    )


def set_tasks(options: GenerateOptions, index: int = 0) -> list[Task]:
    """Set ``index``'s tasks as drawn, before priorities, subjobs and servers: what the
    utilisation tolerance judges. Raises GenerateError where generate_scenario would
    (a sweep asks before its first run)."""
    return _accepted_tasks(options, index, _set_rng(options, index))


def generate_scenario(options: GenerateOptions, index: int = 0) -> Scenario:
    """Set number ``index`` of the options' seed: the same scenario on every machine.
    The tasks are drawn first (redrawn to the utilisation tolerance, if any), then from
    the same generator the subjobs' cuts and the hierarchy, so the set of another
    preemption mode or policy is the same tasks. Raises GenerateError when no draw is
    within the tolerance."""
    rng = _set_rng(options, index)
    # Cut as random_tasks cuts them: after every task (the accepted draw's), from the
    # same generator.
    tasks = cut_tasks(_accepted_tasks(options, index, rng), options.segments, rng)
    priority = options.priority or ("rm" if options.deadlines == "implicit" else "dm")
    servers: list[Server] = []
    hsf = None
    if options.policy == "hsf":
        # Drawn after the tasks (with a tolerance, after the accepted draw): a hierarchy
        # holds the flat set of the same seed and tolerance.
        tasks, servers = _hierarchy(tasks, options, priority, rng)
        hsf = HsfConfig(
            server_type="deferrable" if options.server_type == "deferrable" else "idling"
        )
    system = SystemConfig(
        policy=options.policy,
        preemption=options.preemption,
        ready_queue=READY_QUEUES[options.policy][0],  # the parser's default
        tick_hz=options.tick_hz,
        duration=options.duration or default_duration(tasks, options.duration_cap, servers),
        priority="explicit" if options.policy == "edf" else priority,
    )
    # Through the file format: the parser assigns the rm/dm priorities and checks
    # the set as it checks any file, so a generated set is exactly what its file
    # gives back.
    source = f"<generated seed {options.seed} set {index}>"
    unresolved = Scenario(
        system=system, tasks=tuple(tasks), servers=tuple(servers), hsf=hsf, source=source
    )
    return parse_scenario(scenario_toml(unresolved), source)
