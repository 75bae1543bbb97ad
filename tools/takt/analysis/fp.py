"""Fixed-priority, fully preemptive (FPPS) schedulability tests.

Every test has the same signature, ``(tasks: Sequence[Task]) -> TestResult``, and is
listed in :data:`FP_TESTS`. Task model: periodic tasks, synchronous release (offsets are
ignored), priorities as in the model (larger number = higher priority), no blocking, no
overheads. All arithmetic is exact (integers and :class:`fractions.Fraction`).

Choices made here:

* ``liu_layland`` and ``hyperbolic`` are utilisation bounds proved for rate-monotonic
  priorities and implicit deadlines. They are reported as *not applicable* when the
  priorities are not rate-monotonic (a shorter period must have a strictly higher
  priority; equal priorities only for equal periods) or when some deadline is shorter
  than its period. Deadlines longer than the period are accepted: meeting D = T implies
  meeting D >= T, so the bound stays sufficient. A met bound proves schedulability; a
  failed bound is inconclusive (``schedulable=None``), except that U > 1 always proves
  unschedulability.
* ``response_time_analysis`` is exact response-time analysis for the synchronous
  critical instant, in Lehoczky's form for arbitrary deadlines: the level-i busy period
  is computed and every job q of task i released in it is analysed, R_i = max_q (w_q -
  q*T_i) with w_q = (q+1)*C_i + sum_{j in hp(i)} ceil(w_q/T_j)*C_j. When the first job
  finishes by T_i this is the classic recurrence R = C_i + sum ceil(R/T_j)*C_j. The exact
  worst case is returned even when it exceeds the deadline; ``response_time`` is None
  only when the level-i utilisation exceeds 1 and the busy period diverges.
  Tasks of *equal* priority are counted as interference in both directions (each is
  treated as if the others had higher priority). That covers the FIFO worst case (a job
  can wait behind an equal-priority job that became ready first) and round robin, and is
  an upper bound rather than exact. With non-zero offsets the synchronous release is
  still the worst case, so the result is a sufficient (possibly pessimistic) bound. In
  those two cases a failing task makes the verdict inconclusive rather than False.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from takt.analysis.budget import Steps
from takt.analysis.fraction_text import fraction_text
from takt.analysis.results import TaskResult, TestResult
from takt.model import Task

__all__ = [
    "FP_TESTS",
    "fp_response_times",
    "hyperbolic",
    "level_utilizations",
    "liu_layland",
    "response_time_analysis",
    "utilization",
]


def utilization(tasks: Sequence[Task]) -> Fraction:
    """Total utilisation sum(C_i / T_i), exactly."""
    return sum((Fraction(t.wcet, t.period) for t in tasks), Fraction(0))


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _missing_priorities(tasks: Sequence[Task]) -> list[str]:
    return [t.name for t in tasks if t.priority is None]


def _prio(task: Task) -> int:
    assert task.priority is not None
    return task.priority


def _not_rm_pair(tasks: Sequence[Task]) -> tuple[Task, Task] | None:
    """A pair (a, b) showing the priorities are not rate-monotonic, or None."""
    for a in tasks:
        for b in tasks:
            if a.period < b.period and _prio(a) <= _prio(b):
                return (a, b)
    return None


def _bound_applicability(test: str, tasks: Sequence[Task]) -> TestResult | None:
    """A not-applicable result for a utilisation bound, or None if it applies."""
    if not tasks:
        return TestResult(test, False, None, "empty task set")
    missing = _missing_priorities(tasks)
    if missing:
        return TestResult(test, False, None, f"tasks without a priority: {', '.join(missing)}")
    u = utilization(tasks)
    if u > 1:
        return TestResult(
            test, True, False, f"U = {fraction_text(u)} > 1: unschedulable under any scheduler"
        )
    short = [t.name for t in tasks if t.deadline < t.period]
    if short:
        return TestResult(
            test,
            False,
            None,
            f"needs deadlines >= periods; D < T for {', '.join(short)}",
        )
    pair = _not_rm_pair(tasks)
    if pair is not None:
        a, b = pair
        return TestResult(
            test,
            False,
            None,
            "needs rate-monotonic priorities: "
            f"{a.name} (T={a.period}, priority {a.priority}) does not have a higher priority "
            f"than {b.name} (T={b.period}, priority {b.priority})",
        )
    return None


def liu_layland(tasks: Sequence[Task]) -> TestResult:
    """Liu & Layland: U <= n(2^(1/n) - 1) implies RM-schedulable (sufficient).

    Compared exactly as (U/n + 1)^n <= 2.
    """
    name = "liu_layland"
    early = _bound_applicability(name, tasks)
    if early is not None:
        return early
    n = len(tasks)
    u = utilization(tasks)
    bound = n * (2 ** (1 / n) - 1)
    ok = (u / n + 1) ** n <= 2
    relation = "<=" if ok else ">"
    detail = f"U = {fraction_text(u)} {relation} n(2^(1/n) - 1) = {bound:.4f} for n = {n}"
    return TestResult(name, True, True if ok else None, detail)


def hyperbolic(tasks: Sequence[Task]) -> TestResult:
    """Bini & Buttazzo hyperbolic bound: prod(U_i + 1) <= 2 implies RM-schedulable."""
    name = "hyperbolic"
    early = _bound_applicability(name, tasks)
    if early is not None:
        return early
    product = Fraction(1)
    for t in tasks:
        product *= Fraction(t.wcet, t.period) + 1
    ok = product <= 2
    relation = "<=" if ok else ">"
    return TestResult(
        name, True, True if ok else None, f"prod(U_i + 1) = {fraction_text(product)} {relation} 2"
    )


def _busy_period(tasks: Sequence[Task], steps: Steps) -> int:
    """Length of the synchronous busy period of ``tasks`` (their utilisation must be <= 1)."""
    length = sum(t.wcet for t in tasks)
    while True:
        steps.take(1 + len(tasks), "a level-i busy period")
        nxt = sum(_ceil_div(length, t.period) * t.wcet for t in tasks)
        if nxt == length:
            return length
        length = nxt


def level_utilizations(tasks: Sequence[Task]) -> dict[int, Fraction]:
    """Per priority p of ``tasks``, the utilisation of those with priority p or higher
    (the level of a task of priority p, itself included): one running sum. Summing each
    task's level anew adds n^2 fractions, and with large co-prime periods their terms
    have thousands of digits (seconds for a thousand tasks, outside any step budget)."""
    own: dict[int, Fraction] = {}
    for t in tasks:
        own[_prio(t)] = own.get(_prio(t), Fraction(0)) + Fraction(t.wcet, t.period)
    levels: dict[int, Fraction] = {}
    total = Fraction(0)
    for priority in sorted(own, reverse=True):
        total += own[priority]
        levels[priority] = total
    return levels


def _response_time(
    task: Task, hp: Sequence[Task], steps: Steps, level_load: Fraction
) -> int | None:
    """Exact worst-case response time of ``task`` under interference from ``hp``
    (``level_load``: the utilisation of ``task`` and ``hp`` together)."""
    level = [task, *hp]
    if level_load > 1:
        return None
    jobs = _ceil_div(_busy_period(level, steps), task.period)
    steps.take(jobs, f"the {jobs:,} jobs of {task.name}'s busy period")
    worst = 0
    w = 0
    hp_work = sum(t.wcet for t in hp)
    for q in range(jobs):
        own = (q + 1) * task.wcet
        w = max(w + task.wcet, own + hp_work)
        while True:
            steps.take(1 + len(hp), f"{task.name}'s response time")
            nxt = own + sum(_ceil_div(w, t.period) * t.wcet for t in hp)
            if nxt == w:
                break
            w = nxt
        worst = max(worst, w - q * task.period)
    return worst


def response_time_analysis(tasks: Sequence[Task]) -> TestResult:
    """Exact RTA for FPPS with arbitrary deadlines (see the module docstring)."""
    name = "rta"
    if not tasks:
        return TestResult(name, False, None, "empty task set")
    missing = _missing_priorities(tasks)
    if missing:
        return TestResult(name, False, None, f"tasks without a priority: {', '.join(missing)}")
    per_task: list[TaskResult] = []
    steps = Steps()
    levels = level_utilizations(tasks)
    for task in tasks:
        hp = [t for t in tasks if t is not task and _prio(t) >= _prio(task)]
        r = _response_time(task, hp, steps, levels[_prio(task)])
        per_task.append(
            TaskResult(task.name, r, task.deadline, r is not None and r <= task.deadline)
        )
    all_ok = all(r.schedulable for r in per_task)
    notes: list[str] = []
    priorities = [_prio(t) for t in tasks]
    equal = len(set(priorities)) != len(priorities)
    offsets = any(t.offset != 0 for t in tasks)
    if equal:
        notes.append("equal priorities counted as mutual interference (upper bound)")
    if offsets:
        notes.append(
            "offsets ignored: synchronous release assumed (sufficient, may be pessimistic)"
        )
    failing = [r.task for r in per_task if not r.schedulable]
    verdict: bool | None
    if all_ok:
        verdict = True
        summary = "all response times within deadlines"
    else:
        exact = not (equal or offsets) or utilization(tasks) > 1
        verdict = False if exact else None
        summary = f"deadline exceeded for {', '.join(failing)}"
    detail = "; ".join([summary, *notes])
    return TestResult(name, True, verdict, detail, tuple(per_task))


def fp_response_times(tasks: Sequence[Task]) -> dict[str, int | None]:
    """Worst-case response time per task name by RTA (None = unbounded).

    Raises ValueError if some task has no priority.
    """
    result = response_time_analysis(tasks)
    if not result.applicable and tasks:
        raise ValueError(result.detail)
    return {r.task: r.response_time for r in result.per_task}


FP_TESTS: dict[str, Callable[[Sequence[Task]], TestResult]] = {
    "liu_layland": liu_layland,
    "hyperbolic": hyperbolic,
    "rta": response_time_analysis,
}
