"""Random two-level hierarchies for the HSF property tests, and a per-tick view of a run.

``random_hierarchy`` writes scenario TOML (so the generated sets go through the same
parser as files); ``TickView`` turns a run's timeline and job table into per-tick facts
(which server and job ran, which jobs were pending) that the invariants are checked on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from takt.model import RunResult, Scenario, Server
from takt.scenario import parse_scenario

TYPES = ("idling", "deferrable")


@dataclass
class ServerSpec:
    priority: int
    period: int
    budget: int
    offset: int
    kind: str
    tasks: list[tuple[int, int, int, int]] = field(default_factory=list)  # T, C, prio, offset


def random_hierarchy(
    rng: random.Random,
    servers: int,
    kind: str,  # "idling", "deferrable" or "mixed"
    *,
    max_tasks: int = 4,
    utilization: float = 0.95,
) -> list[ServerSpec]:
    """Servers with random priorities (ties allowed), periods, budgets and offsets, each
    with 0..max_tasks tasks of random load (possibly more than the budget: overload in a
    server is part of what is tested)."""
    shares = [rng.random() + 0.05 for _ in range(servers)]
    total = sum(shares)
    specs: list[ServerSpec] = []
    for share in shares:
        period = rng.randint(4, 40)
        budget = max(1, min(period, round(period * utilization * share / total)))
        spec = ServerSpec(
            priority=rng.randint(1, min(servers + 2, 200)),
            period=period,
            budget=budget,
            offset=rng.choice([0, 0, rng.randrange(period)]),
            kind=rng.choice(TYPES) if kind == "mixed" else kind,
        )
        for _ in range(rng.randint(0, max_tasks)):
            task_period = rng.randint(5, 120)
            wcet = rng.randint(1, max(1, task_period // 3))
            offset = rng.choice([0, 0, rng.randrange(task_period)])
            spec.tasks.append((task_period, wcet, rng.randint(1, 4), offset))
        specs.append(spec)
    if not any(s.tasks for s in specs):
        specs[0].tasks.append((10, 1, 1, 0))
    return specs


def hierarchy_toml(specs: list[ServerSpec], duration: int) -> str:
    lines = ["[system]", 'policy = "hsf"', f"duration = {duration}", "", "[hsf]"]
    lines.append('server_type = "idling"')
    for i, s in enumerate(specs):
        lines += ["", "[[server]]", f'name = "S{i}"', f"priority = {s.priority}"]
        lines += [f"period = {s.period}", f"budget = {s.budget}", f"offset = {s.offset}"]
        lines.append(f'type = "{s.kind}"')
    for i, s in enumerate(specs):
        for j, (period, wcet, prio, offset) in enumerate(s.tasks):
            lines += ["", "[[task]]", f'name = "s{i}t{j}"', f'server = "S{i}"']
            lines += [f"priority = {prio}", f"period = {period}", f"wcet = {wcet}"]
            lines.append(f"offset = {offset}")
    return "\n".join(lines) + "\n"


def hierarchy(specs: list[ServerSpec], duration: int) -> Scenario:
    return parse_scenario(hierarchy_toml(specs, duration), "<random hierarchy>")


def outranks(a: Server, ia: int, b: Server, ib: int) -> bool:
    """Global order: priority, then definition order."""
    return (a.priority, -ia) > (b.priority, -ib)


class TickView:
    """Per-tick facts of a run: ``server[t]``, ``task[t]``, ``job[t]`` (what ran during
    [t, t+1)), and ``pending[t]``: the jobs (task, job) released and not completed at t."""

    def __init__(self, result: RunResult) -> None:
        duration = result.scenario.system.duration
        self.duration = duration
        self.server: list[str] = [""] * duration
        self.task: list[str] = [""] * duration
        self.job: list[int | None] = [None] * duration
        for row in result.timeline:
            for t in range(row.start, min(row.end, duration)):
                self.server[t], self.task[t], self.job[t] = row.server, row.task, row.job
        self.pending: list[set[tuple[str, int]]] = [set() for _ in range(duration)]
        for j in result.jobs:
            end = duration if j.finish is None else min(j.finish, duration)
            for t in range(j.release, end):
                self.pending[t].add((j.task, j.job))
