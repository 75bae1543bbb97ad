"""The periodic-resource-model analysis against the kernel: over many random hierarchies
(idling, deferrable, mixed; random offsets of servers and tasks), no response time the
sim observes exceeds the bound of a task the analysis calls schedulable, and a server
the global test passes receives its whole budget in every period in which its tasks
keep it busy."""

from __future__ import annotations

import random

import pytest
from hsf_gen import ServerSpec, hierarchy

from takt.analysis.hsf import hsf_prm_analysis
from takt.sim import run_scenario

pytestmark = pytest.mark.usefixtures("runner")


def analysable_hierarchy(rng: random.Random, kind: str) -> list[ServerSpec]:
    """Few servers with short periods and tasks with long ones, loads that the PRM bound
    can often prove (the analysis is pessimistic), random offsets and priority ties."""
    size = rng.randint(1, 6)
    total = rng.uniform(0.4, 0.9)
    shares = [rng.random() + 0.1 for _ in range(size)]
    specs = []
    for share in shares:
        period = rng.randint(4, 20)
        budget = max(1, min(period, round(period * total * share / sum(shares))))
        spec = ServerSpec(
            priority=rng.randint(1, 4),
            period=period,
            budget=budget,
            offset=rng.randrange(period),
            kind=rng.choice(["idling", "deferrable"]) if kind == "mixed" else kind,
        )
        capacity = budget / period
        for _ in range(rng.randint(1, 3)):
            task_period = rng.randint(3 * period, 12 * period)
            wcet = max(1, int(task_period * capacity * rng.uniform(0.05, 0.35)))
            spec.tasks.append(
                (task_period, wcet, rng.randint(1, 3), rng.choice([0, rng.randrange(task_period)]))
            )
        specs.append(spec)
    return specs


@pytest.mark.parametrize("kind", ["idling", "deferrable", "mixed"])
def test_observed_response_times_within_the_bound(kind: str) -> None:
    rng = random.Random(f"prm-{kind}")
    checked = 0
    tight = 0.0
    for _ in range(60):
        scenario = hierarchy(analysable_hierarchy(rng, kind), 3000)
        analysis = hsf_prm_analysis(scenario)
        bounds = {t.task: t.response_time for t in analysis.per_task if t.schedulable}
        if not bounds:
            continue
        result = run_scenario(scenario)
        for job in result.jobs:
            bound = bounds.get(job.task)
            if bound is None:
                continue
            observed = job.response_time
            if observed is None:  # still running at the end: it has run this long
                observed = scenario.system.duration - job.release
                assert observed <= bound or job.release + bound > scenario.system.duration
                continue
            assert observed <= bound, (kind, job, bound, scenario.servers)
            assert not job.missed
            checked += 1
            tight = max(tight, observed / bound)
    assert checked >= 300, f"only {checked} jobs had a bound to check"
    # the bound is not absurdly loose everywhere: some job comes within half of it
    assert tight >= 0.5, tight


def test_global_guarantee_holds_in_the_sim() -> None:
    """Each server the global test passes, kept busy by an always-ready task, gets
    exactly its budget in every whole period of the run."""
    rng = random.Random("global")
    checked = 0
    for _ in range(40):
        specs = analysable_hierarchy(rng, "mixed")
        for s in specs:
            s.tasks = [(5, 5, 1, 0)]  # always ready, more than any budget
        scenario = hierarchy(specs, 1200)
        analysis = hsf_prm_analysis(scenario)
        passed = {s.server for s in analysis.per_server if s.schedulable}
        result = run_scenario(scenario)
        for server in scenario.servers:
            if server.name not in passed:
                continue
            start = server.offset
            while start + server.period <= scenario.system.duration:
                got = sum(
                    min(r.end, start + server.period) - max(r.start, start)
                    for r in result.timeline
                    if r.server == server.name and r.end > start and r.start < start + server.period
                )
                assert got == server.budget, (server, start, got)
                checked += 1
                start += server.period
    assert checked >= 500
