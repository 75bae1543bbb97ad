"""Two-level hierarchical scheduling (HSF): the periodic resource model.

Global level: the servers are scheduled by fixed priority (ties by definition order,
as in the kernel). Each server's budget is analysed as a periodic task (C = Θ,
T = D = Π) by response-time analysis. A higher-priority *idling* server interferes
with ``ceil(t/Π)·Θ`` in a window of length t, like any periodic task. A
higher-priority *deferrable* server can keep its budget to the end of one period and
spend the next period's budget at once (the back-to-back effect: up to 2Θ in a row),
so it interferes with ``ceil((t + Π − Θ)/Π)·Θ`` (a periodic task with release jitter
Π − Θ). A server whose budget response time exceeds Π is reported as failing: it is not
guaranteed Θ in every period, and the local analysis below does not hold for it.

Local level: Shin & Lee's periodic resource model Γ(Π, Θ) ("Periodic resource model
for compositional real-time guarantees", RTSS 2003). A resource that supplies Θ units
somewhere in every period of length Π supplies at least

    sbf(t) = t − (k+1)(Π−Θ)  if t ∈ [(k+1)Π − 2Θ, (k+1)Π − Θ]
             (k−1)Θ          otherwise,           k = max(ceil((t − (Π−Θ))/Π), 1)

in any window of length t (the worst case: Θ supplied as early as possible in one
period and as late as possible in all later ones, a blackout of 2(Π−Θ)). An idling
server that passes the global test receives exactly Θ in every period, so sbf bounds
its supply. A deferrable server supplies only while its tasks are ready; in a window
starting when its tasks become backlogged (t0, with budget b left, next replenishment
at p1 = t0 + x) it still fits the model: by the global RTA a demand of b from t0
completes within R ≤ Π (counting the higher servers' busy time since t' ≤ t0), so if it
got only S < b before p1 then x + (t0 − t') < R and the higher servers ran at most
R − Θ ≤ Π − Θ of [t0, p1); hence b − S units fit in the Π − x − (Θ − b) slots of
[p0, t0) it did not use, and with that fictitious supply every period (also the one
the window ends in, by the same argument) holds Θ while the pattern from t0 on is
unchanged (tests/python/test_hsf_analysis_vs_sim.py checks it against the kernel).

A task i of the server meets its bound at the smallest t > 0 with
rbf_i(t) = C_i + Σ_{j of higher or equal local priority} ceil(t/T_j)·C_j ≤ sbf(t)
(equal priorities count as interference, a sound bound for FIFO ties).

A server has no budget before its offset: when some of its tasks are released
earlier, a window starting at t0 < offset gets only sbf(t − (offset − t0)), so those
tasks' bounds use sbf(t − d) with d = offset − (earliest task offset) (see
:func:`start_delay`).

Model assumptions (what a "schedulable" verdict rests on): periodic tasks, offsets
otherwise ignored (any phasing of tasks and servers is covered); the first job after the
critical instant is the worst, which holds when its response time is at most its
period (a longer bound is reported as inconclusive); no overheads. In integer time
the exact worst-case supply of some servers is better than sbf (an idling server at
the top priority runs the first Θ ticks of each period: its blackout is Π − Θ, not
2(Π − Θ)); sbf is the safe bound for every server that gets Θ per period.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from takt.analysis.budget import Steps
from takt.analysis.fp import level_utilizations
from takt.analysis.results import ServerResult, TaskResult, TestResult
from takt.model import Scenario, Server, Task

__all__ = [
    "hsf_prm_analysis",
    "local_response_time",
    "sbf",
    "sbf_inverse",
    "server_interference",
    "start_delay",
    "server_response_times",
]


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def sbf(period: int, budget: int, t: int) -> int:
    """Shin & Lee's supply bound function of Γ(period, budget) at window length t."""
    if not 0 < budget <= period:
        raise ValueError(f"need 0 < budget <= period, got Θ={budget}, Π={period}")
    if t <= 0:
        return 0
    gap = period - budget
    k = max(_ceil_div(t - gap, period), 1)
    if (k + 1) * period - 2 * budget <= t <= (k + 1) * period - budget:
        return t - (k + 1) * gap
    return (k - 1) * budget


def sbf_inverse(period: int, budget: int, work: int) -> int:
    """The smallest window length t with sbf(t) >= work.

    sbf rises with slope 1 through its k-th segment from (k−1)Θ to kΘ, which it reaches
    at t = kΘ + (k+1)(Π−Θ); so ``work`` in ((k−1)Θ, kΘ] is reached at work + (k+1)(Π−Θ).
    """
    if work <= 0:
        return 0
    k = _ceil_div(work, budget)
    return work + (k + 1) * (period - budget)


def server_interference(server: Server, t: int) -> int:
    """The most a higher-priority server can run in any window of length t."""
    if t <= 0:
        return 0
    if server.server_type == "deferrable":
        return _ceil_div(t + server.period - server.budget, server.period) * server.budget
    return _ceil_div(t, server.period) * server.budget


def _outranks(a: Server, b: Server, servers: Sequence[Server]) -> bool:
    """Whether a runs before b at the global level (priority, then definition order)."""
    if a.priority != b.priority:
        return a.priority > b.priority
    return servers.index(a) < servers.index(b)


def server_response_times(
    servers: Sequence[Server], steps: Steps | None = None
) -> dict[str, int | None]:
    """Global-level response time of each server's budget (None: more than its period)."""
    budget = steps or Steps()
    out: dict[str, int | None] = {}
    for server in servers:
        higher = [h for h in servers if h is not server and _outranks(h, server, servers)]
        r = server.budget
        while True:
            budget.take(1 + len(higher), f"server {server.name}'s response time")
            nxt = server.budget + sum(server_interference(h, r) for h in higher)
            if nxt > server.period:
                out[server.name] = None
                break
            if nxt == r:
                out[server.name] = r
                break
            r = nxt
    return out


def _prio(task: Task) -> int:
    assert task.priority is not None
    return task.priority


def start_delay(server: Server, members: Sequence[Task]) -> int:
    """How long the server's tasks can wait for its first budget.

    A server has no budget before its offset (its first replenishment). If every task
    of the server is released first at or after that, every busy window starts within
    the model; otherwise supply in a window starting at t0 is only sbf(t − (offset − t0)),
    and the earliest release bounds offset − t0.
    """
    first_release = min((t.offset for t in members), default=server.offset)
    return max(0, server.offset - first_release)


def local_response_time(
    task: Task,
    higher: Sequence[Task],
    server: Server,
    delay: int = 0,
    steps: Steps | None = None,
    *,
    level_load: Fraction | None = None,
) -> int | None:
    """Smallest t > 0 with rbf(t) <= sbf(t − delay) for ``task`` in ``server``.

    None when the demand of the task and those above it grows faster than the server's
    long-run supply (Σ C/T > Θ/Π): rbf then stays above sbf for ever. Otherwise the
    iteration t <- sbf_inverse(rbf(t)) + delay rises to the least fixed point, which
    exists also when the two rates are equal (a task set of utilisation 1 in a server
    with Θ = Π, say): the step f(t) is at most a·t + b with a = 1 − (C/T)(Π/Θ) < 1,
    since the task's own demand C does not grow with t. ``level_load``, when given, is
    the utilisation of ``task`` and ``higher`` together.
    """
    level = [task, *higher]
    if level_load is None:
        level_load = sum((Fraction(t.wcet, t.period) for t in level), Fraction(0))
    if level_load > Fraction(server.budget, server.period):
        return None

    def rbf(t: int) -> int:
        return task.wcet + sum(_ceil_div(t, h.period) * h.wcet for h in higher)

    budget = steps or Steps()
    t = sbf_inverse(server.period, server.budget, sum(t.wcet for t in level)) + delay
    while True:
        budget.take(1 + len(level), f"{task.name}'s response time in server {server.name}")
        nxt = sbf_inverse(server.period, server.budget, rbf(t)) + delay
        if nxt == t:
            return t
        t = nxt


def _analyse_task(
    task: Task,
    server: Server,
    members: Sequence[Task],
    ok: bool,
    steps: Steps,
    level_load: Fraction,
) -> TaskResult:
    if not ok:  # the server is not guaranteed its budget: no bound
        return TaskResult(task.name, None, task.deadline, False)
    higher = [t for t in members if t is not task and _prio(t) >= _prio(task)]
    delay = start_delay(server, members)
    r = local_response_time(task, higher, server, delay, steps, level_load=level_load)
    if r is None or r > task.deadline:
        return TaskResult(task.name, r, task.deadline, False)
    # beyond the period a later job of the busy period may be worse: not a proof
    return TaskResult(task.name, r, task.deadline, r <= task.period)


def hsf_prm_analysis(scenario: Scenario) -> TestResult:
    """Global FP RTA over the servers, then local FP RTA of each task against sbf."""
    name = "hsf_prm"
    servers = list(scenario.servers)
    if not servers:
        return TestResult(name, False, None, "no servers")
    global_policy = scenario.hsf.global_policy if scenario.hsf is not None else "fp"
    if global_policy != "fp":
        return TestResult(
            name,
            False,
            None,
            f'servers scheduled by global "{global_policy}": this analysis covers a global '
            'fixed-priority level only ("fp")',
        )
    missing = [t.name for t in scenario.tasks if t.priority is None]
    if missing:
        return TestResult(name, False, None, f"tasks without a priority: {', '.join(missing)}")
    steps = Steps()  # one budget for the whole test, as every test has
    global_r = server_response_times(servers, steps)
    per_server = tuple(
        ServerResult(s.name, s.server_type, r, s.period, r is not None)
        for s, r in ((s, global_r[s.name]) for s in servers)
    )
    by_name = {s.name: s for s in servers}
    members_of = {s.name: [t for t in scenario.tasks if t.server == s.name] for s in servers}
    levels = {name: level_utilizations(members) for name, members in members_of.items()}
    per_task: list[TaskResult] = []
    for task in scenario.tasks:
        assert task.server is not None
        server = by_name[task.server]
        members = members_of[task.server]
        ok = global_r[server.name] is not None
        level_load = levels[task.server][_prio(task)]
        per_task.append(_analyse_task(task, server, members, ok, steps, level_load))
    failing_servers = [s.server for s in per_server if not s.schedulable]
    failing_tasks = [t.task for t in per_task if not t.schedulable]
    notes: list[str] = []
    if any(s.server_type == "deferrable" for s in servers):
        notes.append("deferrable servers interfere back to back (up to 2Θ) at the global level")
    late = [
        s.name
        for s in servers
        if start_delay(s, [t for t in scenario.tasks if t.server == s.name]) > 0
    ]
    if late:
        notes.append(
            f"tasks released before the first budget of {', '.join(late)} (server offset) "
            "wait for it: their bounds include that wait"
        )
    if any(t.offset for t in scenario.tasks) or any(s.offset for s in servers):
        notes.append("offsets otherwise ignored (every phasing covered)")
    if not failing_servers and not failing_tasks:
        return TestResult(
            name,
            True,
            True,
            "; ".join(["every server gets its budget each period, every task within", *notes]),
            tuple(per_task),
            per_server,
        )
    problems = []
    if failing_servers:
        problems.append(f"budget not guaranteed each period for {', '.join(failing_servers)}")
    if failing_tasks:
        problems.append(f"bound exceeds the deadline (or period) for {', '.join(failing_tasks)}")
    # sbf is a lower bound on supply: failing it does not prove a miss
    return TestResult(name, True, None, "; ".join(problems + notes), tuple(per_task), per_server)


HSF_TESTS = {"hsf_prm": hsf_prm_analysis}
