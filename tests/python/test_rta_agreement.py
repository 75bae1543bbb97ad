"""The kernel (sim port) agrees with exact response-time analysis.

Random constrained-deadline task sets (D <= T), synchronous release, distinct
priorities (deadline monotonic through ``priority = "dm"`` or a random explicit order),
periods from the divisors of 240 so the hyperperiod H is at most 240, utilisation
0.3..1.4 (so overloaded and unschedulable sets are included). Each run covers more than
the hyperperiod. With R = ``fp_response_times`` (Lehoczky's exact RTA):

* first job: when R <= T, the busy period of the task's level holds one job of it, so
  the first job's observed response time must be R exactly; independently of the
  analysis, every task's first job must finish at the least fixed point of
  w = C + sum_hp ceil(w/T_j) C_j (whatever its size) when that falls inside the run;
* every job of a task the analysis finds schedulable (R <= D) has response time <= R,
  and none is left unfinished with more than R ticks elapsed;
* whenever R is finite (the level utilisation is at most 1), the worst observed
  response time over the run equals R: the synchronous release is the critical instant
  and the first level-i busy period, which the run covers (it is at most H), contains
  the worst job.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from conftest import T, make_scenario, scenario_toml, task_name

from takt.analysis import fp_response_times
from takt.generator import hyperperiod
from takt.model import RunResult, Scenario
from takt.sim import run_scenario

pytestmark = pytest.mark.usefixtures("runner")

SEEDS = range(500)
PERIODS = (2, 3, 4, 5, 6, 8, 10, 12, 15, 16, 20, 24, 30, 40, 48, 60, 80, 120, 240)


@dataclass(frozen=True)
class Case:
    seed: int
    tasks: tuple[T, ...]
    duration: int
    dm: bool

    def toml(self) -> str:
        return scenario_toml(self.tasks, self.duration, priority="dm" if self.dm else "explicit")

    def scenario(self) -> Scenario:
        return make_scenario(
            self.tasks,
            self.duration,
            priority="dm" if self.dm else "explicit",
            source=f"<rta seed {self.seed}>",
        )


def random_case(seed: int) -> Case:
    rng = random.Random(seed)
    n = rng.randint(1, 8)
    target_u = rng.uniform(0.3, 1.4)
    periods = [rng.choice(PERIODS[:14] if rng.random() < 0.7 else PERIODS) for _ in range(n)]
    shares = [rng.random() + 0.05 for _ in range(n)]
    total = sum(shares)
    dm = rng.random() < 0.5
    order = rng.sample(range(1, 200), n)
    tasks: list[T] = []
    for i, period in enumerate(periods):
        wcet = min(period, max(1, round(target_u * shares[i] / total * period)))
        deadline = rng.randint(wcet, period) if rng.random() < 0.6 else period
        tasks.append(T(period, wcet, None if dm else order[i], deadline, 0))
    h = hyperperiod(tuple(tasks))
    return Case(seed, tuple(tasks), h + max(t.period for t in tasks) + 1 + rng.randint(0, h), dm)


def first_job_finish(scenario: Scenario, index: int, limit: int) -> int | None:
    """Least w with C + sum_hp ceil(w/T_j) C_j = w (synchronous release), if <= limit."""
    task = scenario.tasks[index]
    assert task.priority is not None
    hp = [t for t in scenario.tasks if t is not task and (t.priority or 0) > task.priority]
    w = task.wcet + sum(t.wcet for t in hp)
    while w <= limit:
        nxt = task.wcet + sum(-(-w // t.period) * t.wcet for t in hp)
        if nxt == w:
            return w
        w = nxt
    return None


def check(case: Case, scenario: Scenario, result: RunResult) -> list[str]:
    problems: list[str] = []
    duration = scenario.system.duration
    analysed = fp_response_times(scenario.tasks)
    for index, task in enumerate(scenario.tasks):
        jobs = [j for j in result.jobs if j.task == task.name]
        first = jobs[0]
        r = analysed[task.name]
        label = f"{task.name} (T={task.period} C={task.wcet} D={task.deadline} P={task.priority})"
        if r is not None and r <= task.period and r < duration:
            if first.response_time != r:
                problems.append(f"{label}: first job response {first.response_time}, RTA {r}")
        w = first_job_finish(scenario, index, duration - 1)
        if w is not None and first.finish != w:
            problems.append(f"{label}: first job finished at {first.finish}, fixed point {w}")
        if r is None:
            continue
        finished = [j.response_time for j in jobs if j.response_time is not None]
        worst = max(finished, default=None)
        if r <= task.deadline:
            for j in jobs:
                if j.response_time is not None and j.response_time > r:
                    problems.append(f"{label}: job {j.job} response {j.response_time} > RTA {r}")
                if j.finish is None and duration - j.release > r:
                    problems.append(
                        f"{label}: job {j.job} released at {j.release} unfinished at "
                        f"{duration} > release + RTA {r}"
                    )
                if j.missed:
                    problems.append(f"{label}: job {j.job} missed, RTA {r} <= D")
        if worst != r:
            problems.append(f"{label}: worst observed response {worst}, RTA {r}")
    return problems


@pytest.mark.parametrize("seed", SEEDS)
def test_sim_agrees_with_rta(seed: int) -> None:
    case = random_case(seed)
    scenario = case.scenario()
    assert case.duration > hyperperiod(case.tasks)
    result = run_scenario(scenario)
    problems = check(case, scenario, result)
    assert not problems, f"seed {seed}:\n  " + "\n  ".join(problems) + "\n" + case.toml()


def test_generator_covers_the_interesting_cases() -> None:
    cases = [random_case(seed) for seed in SEEDS]
    utilizations = [sum(t.wcet / t.period for t in c.tasks) for c in cases]
    assert sum(u > 1 for u in utilizations) >= 50
    assert sum(c.dm for c in cases) >= 150 and sum(not c.dm for c in cases) >= 150
    unschedulable = 0
    self_queueing = 0
    for c in cases:
        scenario = c.scenario()
        assert len({t.priority for t in scenario.tasks}) == len(scenario.tasks)
        assert all(t.deadline <= t.period and t.offset == 0 for t in scenario.tasks)
        r = fp_response_times(scenario.tasks)
        if any(v is None or v > t.deadline for v, t in ((r[t.name], t) for t in scenario.tasks)):
            unschedulable += 1
        if any(v is not None and v > t.period for v, t in ((r[t.name], t) for t in scenario.tasks)):
            self_queueing += 1
    assert unschedulable >= 100
    assert self_queueing >= 10


def test_dm_assignment_reaches_the_kernel() -> None:
    """Shorter relative deadline, higher priority: visible in who runs first."""
    scenario = make_scenario([T(20, 3, None, 20), T(20, 3, None, 5)], 20, priority="dm")
    result = run_scenario(scenario)
    assert [(r.task, r.start, r.end) for r in result.timeline[:2]] == [
        (task_name(1), 0, 3),
        (task_name(0), 3, 6),
    ]
