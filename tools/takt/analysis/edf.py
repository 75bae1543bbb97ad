"""EDF schedulability on one processor, preemptive, synchronous periodic tasks.

- ``edf_utilization``: U <= 1, exact for deadlines no shorter than periods
  (Liu & Layland); not applicable when some D < T.
- ``processor_demand``: the processor-demand criterion — the demand bound
  h(t) = sum over tasks with D_i <= t of (floor((t - D_i)/T_i) + 1) C_i must
  not exceed t — checked with Zhang & Burns' Quick Processor-demand Analysis
  (QPA), which walks backwards from the largest absolute deadline below the
  analysis bound L and skips every deadline it can prove safe. L is the
  smaller of the synchronous busy period and, for U < 1, Zhang & Burns' La.
  Exact for constrained and arbitrary deadlines. Offsets are ignored: the
  synchronous release is the worst case, so the verdict is then sufficient.

``first_demand_overflow`` gives the smallest t with h(t) > t (a deadline at
which the synchronous schedule misses), for tests that compare the analysis
with what the kernel does.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from fractions import Fraction

from takt.analysis.budget import Steps
from takt.analysis.fraction_text import exact_text, fraction_text
from takt.analysis.results import TestResult
from takt.model import Task


def utilization(tasks: Sequence[Task]) -> Fraction:
    return sum((Fraction(t.wcet, t.period) for t in tasks), Fraction(0))


def edf_utilization(tasks: Sequence[Task]) -> TestResult:
    name = "edf_utilization"
    u = utilization(tasks)
    if any(t.deadline < t.period for t in tasks):
        return TestResult(name, False, None, "some D < T: use the processor-demand test")
    ok = u <= 1
    return TestResult(name, True, ok, f"U = {exact_text(u)} {'<=' if ok else '>'} 1")


def demand(tasks: Sequence[Task], t: int) -> int:
    """h(t): work of the jobs with release and deadline inside [0, t], synchronous release."""
    return sum(
        ((t - task.deadline) // task.period + 1) * task.wcet for task in tasks if task.deadline <= t
    )


def busy_period(tasks: Sequence[Task], steps: Steps | None = None) -> int | None:
    """Length of the synchronous busy period; None if it never ends (U > 1)."""
    if utilization(tasks) > 1:
        return None
    budget = steps or Steps()
    w = sum(t.wcet for t in tasks)
    while True:
        budget.take(1 + len(tasks), "the synchronous busy period")
        nxt = sum(-(-w // t.period) * t.wcet for t in tasks)
        if nxt == w:
            return w
        w = nxt


def analysis_bound(tasks: Sequence[Task], steps: Steps | None = None) -> int | None:
    """L: every deadline miss of the synchronous schedule shows at a deadline below L+1."""
    lb = busy_period(tasks, steps)
    if lb is None:
        return None
    u = utilization(tasks)
    if u < 1:
        slack_sum = sum((t.period - t.deadline) * Fraction(t.wcet, t.period) for t in tasks)
        la = max(max(t.deadline for t in tasks), -(-slack_sum / (1 - u) // 1))
        return min(lb, int(la))
    return lb


def _last_deadline_before(tasks: Sequence[Task], t: int) -> int | None:
    """The largest absolute deadline k*T_i + D_i strictly below t, if any."""
    best: int | None = None
    for task in tasks:
        if task.deadline < t:
            k = (t - task.deadline - 1) // task.period
            d = k * task.period + task.deadline
            best = d if best is None else max(best, d)
    return best


def processor_demand(tasks: Sequence[Task]) -> TestResult:
    """QPA (Zhang & Burns 2009)."""
    name = "qpa"
    if not tasks:
        return TestResult(name, False, None, "empty task set")
    u = utilization(tasks)
    if u > 1:
        return TestResult(name, True, False, f"U = {fraction_text(u)} > 1")
    budget = Steps()
    bound = analysis_bound(tasks, budget)
    assert bound is not None
    d_min = min(t.deadline for t in tasks)
    walk = "QPA's walk over the deadlines"
    budget.take(len(tasks), walk)
    t = _last_deadline_before(tasks, bound + 1)
    steps = 0
    while t is not None:
        budget.take(1 + len(tasks), walk)
        h = demand(tasks, t)
        steps += 1
        if h > t:
            return TestResult(name, True, _exact(tasks, False), f"h({t}) = {h} > {t}")
        if h <= d_min:
            break
        if h < t:
            t = h
        else:
            budget.take(len(tasks), walk)
            t = _last_deadline_before(tasks, t)
    note = "; offsets ignored (sufficient)" if any(x.offset for x in tasks) else ""
    return TestResult(
        name, True, True, f"h(t) <= t for every deadline up to L = {bound} ({steps} steps){note}"
    )


def _exact(tasks: Sequence[Task], verdict: bool) -> bool | None:
    # With offsets the synchronous case may never happen: a failure is then inconclusive.
    return verdict if not any(t.offset for t in tasks) else None


def first_demand_overflow(tasks: Sequence[Task], horizon: int) -> int | None:
    """The smallest absolute deadline t <= horizon with h(t) > t, scanning every deadline.

    The deadlines come in order from a heap holding each task's next one, and h(t) is
    their running sum (it grows by C_i at each deadline of task i): one step per job,
    where evaluating h anew at every deadline would cost one per task each time.
    """
    scan = "the scan of every deadline"
    budget = Steps()
    budget.take(len(tasks), scan)
    pending = [(t.deadline, k) for k, t in enumerate(tasks) if t.deadline <= horizon]
    heapq.heapify(pending)
    h = 0
    while pending:
        d = pending[0][0]
        while pending and pending[0][0] == d:
            budget.take(what=scan)
            k = pending[0][1]
            h += tasks[k].wcet
            following = d + tasks[k].period
            if following <= horizon:
                heapq.heapreplace(pending, (following, k))
            else:
                heapq.heappop(pending)
        if h > d:
            return d
    return None


EDF_TESTS = {"edf_utilization": edf_utilization, "qpa": processor_demand}
