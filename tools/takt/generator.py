"""Random task-set generation for experiments and property tests.

UUniFast (Bini & Buttazzo) draws n utilisations summing to U uniformly; periods
come from a menu so hyperperiods stay bounded; wcets are rounded to whole
ticks (at least one), so the realised utilisation differs slightly from U.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from takt.model import Task

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
    tasks = []
    for i, u in enumerate(uunifast(n, utilization, rng)):
        period = rng.choice(list(periods))
        wcet = max(1, min(period, round(u * period)))
        tasks.append(Task(name=f"t{i}", period=period, wcet=wcet, deadline=period))
    if rate_monotonic:
        ranked = sorted(range(n), key=lambda i: (tasks[i].period, i))
        prio = {index: n - rank for rank, index in enumerate(ranked)}
        tasks = [
            Task(t.name, t.period, t.wcet, t.deadline, t.offset, prio[i])
            for i, t in enumerate(tasks)
        ]
    return tasks
