"""Properties of two-level hierarchical scheduling on the kernel, over many random
hierarchies (1 to 64 servers; idling, deferrable and mixed), checked tick by tick on the
timeline, the job table and the budget trace against SCHEDULING.md:

- replenishments exactly at offset + k·P, to exactly Q; the kernel's budget trace never
  exceeds Q or falls below 0 and agrees at every tick with a budget recomputed from the
  timeline (Q at each replenishment, minus one per tick the server ran);
- no server runs without budget;
- the running server is the highest-priority (then first-defined) *eligible* server —
  idling: budget left; deferrable: budget left and a pending job — and the idle server
  runs only when none is eligible (so an idling server with budget and the top priority
  among those always runs, and a deferrable server never shows ``S, idle``);
- local fixed priority: the running job is a pending job of the server with the highest
  local priority there, the oldest of its task; a server idles only with nothing pending;
- every completed job ran exactly its wcet, inside [release, finish).

Temporal isolation: overloading one server far beyond its budget leaves the rows of
every other server unchanged.
"""

from __future__ import annotations

import random

import pytest
from hsf_gen import ServerSpec, TickView, hierarchy, outranks, random_hierarchy

from takt.model import RunResult, ServerBudget
from takt.sim import run_scenario

pytestmark = pytest.mark.usefixtures("runner")

SIZES = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64]


def budget_series(budget: ServerBudget, duration: int) -> list[int]:
    """The budget after everything at each instant 0..duration-1, from the trace's corners."""
    out = [0] * duration
    pts = budget.points
    for (t0, v0), (t1, v1) in zip(pts, pts[1:], strict=False):
        for t in range(max(t0, 0), min(t1, duration)):
            out[t] = v0 + (v1 - v0) * (t - t0) // (t1 - t0)
    if pts and pts[-1][0] < duration:
        for t in range(pts[-1][0], duration):
            out[t] = pts[-1][1]
    return out


def check_invariants(result: RunResult) -> list[str]:
    sc = result.scenario
    duration = sc.system.duration
    servers = list(sc.servers)
    index = {s.name: i for i, s in enumerate(servers)}
    task_of = {t.name: t for t in sc.tasks}
    view = TickView(result)
    problems: list[str] = []

    refills: dict[str, set[int]] = {}
    for s in servers:
        expected = list(range(s.offset, duration, s.period))
        got = [
            (int(e.time), e.arg)
            for e in result.events
            if e.kind == "server_replenish" and e.task == s.name and e.time < duration
        ]
        if got != [(t, s.budget) for t in expected]:
            problems.append(f"{s.name}: replenishments {got[:5]}... expected at {expected[:5]}...")
        refills[s.name] = set(expected)
        trace = result.budgets.get(s.name)
        if trace is None:
            problems.append(f"{s.name}: no budget trace")
            continue
        values = [v for _, v in trace.points]
        if max(values) > s.budget or min(values) < 0:
            problems.append(f"{s.name}: budget trace outside 0..{s.budget}: {values}")

    series = {s.name: budget_series(result.budgets[s.name], duration) for s in servers}
    budget = {s.name: 0 for s in servers}
    worked: dict[tuple[str, int], list[int]] = {}
    for t in range(duration):
        for s in servers:
            if t in refills[s.name]:
                budget[s.name] = s.budget
            if series[s.name][t] != budget[s.name]:
                problems.append(
                    f"t={t} {s.name}: kernel budget {series[s.name][t]}, timeline says "
                    f"{budget[s.name]}"
                )
        pending_in: dict[str, list[tuple[str, int]]] = {}
        for task, job in view.pending[t]:
            server = task_of[task].server
            assert server is not None
            pending_in.setdefault(server, []).append((task, job))
        eligible = [
            s
            for s in servers
            if budget[s.name] > 0 and (s.server_type == "idling" or s.name in pending_in)
        ]
        best = None
        for s in eligible:
            if best is None or outranks(s, index[s.name], best, index[best.name]):
                best = s
        expected_server = "idle" if best is None else best.name
        running = view.server[t]
        if running != expected_server:
            problems.append(f"t={t}: server {running} ran, expected {expected_server}")
            continue
        if running == "idle":
            if view.task[t] != "idle":
                problems.append(f"t={t}: the idle server ran task {view.task[t]}")
            continue
        budget[running] -= 1
        pend = pending_in.get(running, [])
        if view.task[t] == "idle":
            if pend:
                problems.append(f"t={t}: {running} idled with {sorted(pend)} pending")
            if servers[index[running]].server_type == "deferrable":
                problems.append(f"t={t}: deferrable {running} ran its idle")
            continue
        job = view.job[t]
        assert job is not None
        current = (view.task[t], job)
        if current not in pend:
            problems.append(f"t={t}: {current} ran but was not a pending job of {running}")
            continue
        top = max(task_of[name].priority or 0 for name, _ in pend)
        if (task_of[current[0]].priority or 0) != top:
            problems.append(f"t={t}: {current} ran in {running} while {sorted(pend)} pending")
        if job != min(j for name, j in pend if name == current[0]):
            problems.append(f"t={t}: {current} ran before an older job of its task")
        worked.setdefault(current, []).append(t)

    for j in result.jobs:
        ticks = worked.get((j.task, j.job), [])
        wcet = task_of[j.task].wcet
        if j.finish is not None and len(ticks) != wcet:
            problems.append(f"{j.task}#{j.job} completed after {len(ticks)} ticks, wcet {wcet}")
        # a job whose last tick ends the run completes at `duration`, outside the run
        if j.finish is None and len(ticks) >= wcet and ticks[wcet - 1] + 1 < duration:
            problems.append(f"{j.task}#{j.job} ran {len(ticks)} ticks without completing")
        if ticks and (ticks[0] < j.release or (j.finish is not None and ticks[-1] >= j.finish)):
            problems.append(f"{j.task}#{j.job} ran outside [release, finish)")
    return problems


@pytest.mark.parametrize("kind", ["idling", "deferrable", "mixed"])
@pytest.mark.parametrize("size", SIZES)
def test_random_hierarchies_keep_the_invariants(kind: str, size: int) -> None:
    rng = random.Random(f"hsf-{kind}-{size}")
    for round_ in range(6 if size <= 16 else 3):
        specs = random_hierarchy(rng, size, kind, utilization=rng.choice([0.6, 0.95, 1.4]))
        duration = 400 if size <= 16 else 250
        result = run_scenario(hierarchy(specs, duration), tick_start=rng.choice([0, 0xFFFFFF00]))
        problems = check_invariants(result)
        assert not problems, f"{kind}, {size} servers, round {round_}:\n" + "\n".join(problems[:15])


def test_invariant_checker_catches_a_wrong_server() -> None:
    """The checker is not vacuous: a run whose timeline is tampered with fails it."""
    specs = random_hierarchy(random.Random(5), 4, "mixed")
    result = run_scenario(hierarchy(specs, 200))
    assert check_invariants(result) == []
    rows = list(result.timeline)
    victim = next(i for i, r in enumerate(rows) if r.server not in ("", "idle"))
    other = next(s.name for s in result.scenario.servers if s.name != rows[victim].server)
    rows[victim] = type(rows[victim])(
        rows[victim].start, rows[victim].end, other, rows[victim].task, rows[victim].job
    )
    result.timeline = rows
    assert check_invariants(result)


Row = tuple[int, int, str, str, int | None]


def rows_of(result: RunResult, server: str) -> list[Row]:
    rows = [r for r in result.timeline if r.server == server]
    return [(r.start, r.end, r.server, r.task, r.job) for r in rows]


def overload(specs: list[ServerSpec], victim: int, factor: int) -> list[ServerSpec]:
    """The same hierarchy with ``factor`` always-ready tasks of utilisation 1 added to
    one server (far beyond any budget)."""
    out = [
        ServerSpec(s.priority, s.period, s.budget, s.offset, s.kind, list(s.tasks)) for s in specs
    ]
    for k in range(factor):
        period = 7 + k
        out[victim].tasks.append((period, period, 1 + k % 4, 0))
    return out


@pytest.mark.parametrize("kind", ["idling", "deferrable", "mixed"])
@pytest.mark.parametrize("seed", range(10))
def test_temporal_isolation(kind: str, seed: int) -> None:
    """A server overloaded far beyond its budget changes nothing for the other servers.

    For an idling server the baseline is its own light load (it spends its whole budget
    either way). A deferrable server gives lower servers the budget it leaves unused,
    so the guarantee is that it never takes *more* than its budget: its baseline is
    saturated (one always-ready task), compared with a far heavier overload."""
    rng = random.Random(f"isolation-{kind}-{seed}")
    size = rng.choice([2, 3, 5, 8, 16, 32])
    specs = random_hierarchy(rng, size, kind, utilization=0.9)
    victim = rng.randrange(size)
    base_specs = specs if specs[victim].kind == "idling" else overload(specs, victim, 1)
    duration = 400
    base = run_scenario(hierarchy(base_specs, duration))
    heavy = run_scenario(hierarchy(overload(specs, victim, 6), duration))
    for i in range(size):
        if i == victim:
            continue
        assert rows_of(base, f"S{i}") == rows_of(heavy, f"S{i}"), (kind, seed, i, victim)
    # the overload is real: the victim's tasks miss deadlines
    assert any(j.missed for j in heavy.jobs if j.task.startswith(f"s{victim}t"))


def test_isolation_check_would_see_a_leak() -> None:
    """Raising a *budget* (not the load) does change lower servers: the comparison can fail."""
    specs = [
        ServerSpec(2, 10, 3, 0, "idling", [(10, 2, 1, 0)]),
        ServerSpec(1, 10, 5, 0, "idling", [(10, 6, 1, 0)]),
    ]
    bigger = [ServerSpec(2, 10, 6, 0, "idling", [(10, 2, 1, 0)]), specs[1]]
    a = run_scenario(hierarchy(specs, 100))
    b = run_scenario(hierarchy(bigger, 100))
    assert rows_of(a, "S1") != rows_of(b, "S1")
