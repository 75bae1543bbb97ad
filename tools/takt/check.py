"""The analysis checked against what actually ran (``takt check``).

A run contradicts the analysis when:

* a test proves the set schedulable and a job missed its deadline;
* a test proves a task schedulable with response-time bound R, and one of its jobs
  took longer than R, or was still unfinished at the end of the run with more than R
  ticks gone since its release;
* an exact test applies and the run is long enough to show what it predicts. That is
  RTA under fixed priorities with full preemption and distinct priorities, or QPA under
  EDF, each with synchronous release (every offset 0), U <= 1 and no servers; the
  run must also be longer than the hyperperiod H. Then the first busy periods lie
  inside the run, and:
  - for RTA, every task's worst observed response time equals R. A task with
    R > D misses;
  - for QPA, the set misses a deadline exactly when the test fails, and the earliest
    missed deadline is the first t with h(t) > t;
  - for FPNS and FPDS, "unschedulable" means a job misses in the active period the
    synchronous release starts (takt.analysis.fpds), so the run must miss. Their
    bounds count a blocking that release need not meet, so they stay bounds.

Where these conditions do not hold, or an exact test gave up at its step budget
(takt.analysis.budget), only the bounds are checked ("bounds only"), and the report
gives the reason, in short on the one-line form.

Overheads are not in the analysis, so on a board (``--port qemu-m3``) a contradiction
can also be an overhead the model leaves out; with exact work (``--work exact``) the
kernel's whole time comes on top of the tasks', and that is what such a run measures.
On the sim a contradiction is a bug in the kernel or in the analysis.
"""

from __future__ import annotations

from dataclasses import dataclass

from takt.analysis import AnalysisReport
from takt.analysis.budget import AnalysisTooLong
from takt.analysis.edf import first_demand_overflow
from takt.analysis.fraction_text import count_text, fraction_text
from takt.generator import hyperperiod
from takt.model import JobRow, RunResult, Scenario
from takt.report.summary import run_duration, task_stats

__all__ = ["CheckReport", "TaskCheck", "check_run", "render_check", "render_check_line"]

# Tests whose per-task response times are exact under the conditions above.
EXACT_RESPONSE_TIMES = "rta"
EXACT_DEMAND = "qpa"
# FPNS / FPDS: "unschedulable" only for a miss in the active period a synchronous
# release starts (takt.analysis.fpds), which the run must then show.
SYNCHRONOUS_MISS = ("fpns_wcrt", "fpds_wcrt")


@dataclass(frozen=True)
class TaskCheck:
    """One task: the tightest bound a test proves, and what the run showed."""

    task: str
    jobs: int
    completed: int
    misses: int
    worst_response: int | None
    bound: int | None  # None: no test proves the task schedulable
    bound_test: str | None


@dataclass(frozen=True)
class CheckReport:
    source: str
    port: str
    analysis: AnalysisReport
    tasks: tuple[TaskCheck, ...]
    contradictions: tuple[str, ...]
    notes: tuple[str, ...]
    misses: int
    # Why the exact tests' predictions were not checked, in a few words ("offsets"),
    # or None when they were.
    bounds_only: str | None

    @property
    def agree(self) -> bool:
        return not self.contradictions

    @property
    def exact(self) -> bool:
        """Whether the exact tests' predictions were checked too."""
        return self.bounds_only is None


def _job_text(job: JobRow) -> str:
    return f"{job.task} job {job.job} (released {job.release}, deadline {job.deadline})"


def _bounds(report: AnalysisReport) -> dict[str, tuple[int, str]]:
    """Per task, the smallest response-time bound among tests that prove it schedulable."""
    bounds: dict[str, tuple[int, str]] = {}
    for result in report.results:
        if not result.applicable:
            continue
        for task in result.per_task:
            if not task.schedulable or task.response_time is None:
                continue
            known = bounds.get(task.task)
            if known is None or task.response_time < known[0]:
                bounds[task.task] = (task.response_time, result.test)
    return bounds


def _exact_conditions(
    scenario: Scenario, report: AnalysisReport, duration: int
) -> tuple[str, str] | None:
    """Why the exact predictions cannot be checked on this run, in short and in full,
    or None when they can."""
    system = scenario.system
    if system.policy not in ("fp", "edf") or scenario.servers:
        return "servers", "no exact test for this policy"
    if system.policy == "edf" and system.preemption != "full":
        return "preemption mode", "no exact test for this preemption mode"
    if any(t.offset for t in scenario.tasks):
        return "offsets", "offsets: the synchronous release the exact tests assume may never happen"
    if system.policy == "fp" and len({t.priority for t in scenario.tasks}) != len(scenario.tasks):
        return (
            "equal priorities",
            "equal priorities: RTA counts them as mutual interference (a bound only)",
        )
    if system.policy == "fp" and system.round_robin:
        return "round-robin", "round-robin among equals is not in the analysis"
    if report.utilization > 1:
        return "U > 1", "U > 1: the first miss may come after any horizon"
    h = hyperperiod(scenario.tasks)
    if duration <= h:
        return (
            "short run",
            f"the run ({duration} ticks) is not longer than the hyperperiod ({count_text(h)})",
        )
    return None


def _check_bounds(
    result: RunResult, bounds: dict[str, tuple[int, str]], duration: int
) -> list[str]:
    found = []
    for job in result.jobs:
        known = bounds.get(job.task)
        if known is None:
            continue
        bound, test = known
        response = job.response_time
        if response is not None and response > bound:
            found.append(f"{test}: {_job_text(job)} took {response} ticks, bound R = {bound}")
        elif response is None and job.release + bound < duration:
            found.append(
                f"{test}: {_job_text(job)} unfinished at the end ({duration}), bound R = {bound}"
            )
    return found


def _check_exact(
    scenario: Scenario, report: AnalysisReport, stats: dict[str, int | None], misses: list[JobRow]
) -> list[str]:
    found = []
    missed_tasks = {j.task for j in misses}
    for result in report.results:
        if not result.applicable or result.schedulable is None:
            continue
        if result.test == EXACT_RESPONSE_TIMES:
            for task in result.per_task:
                worst = stats.get(task.task)
                if task.response_time is not None and worst != task.response_time:
                    found.append(
                        f"rta (exact here): {task.task}'s worst response time is {worst}, "
                        f"R = {task.response_time}"
                    )
                if not task.schedulable and task.task not in missed_tasks:
                    found.append(
                        f"rta (exact here): {task.task} misses (R = {task.response_time} > "
                        f"D = {task.deadline}), but no job of it missed"
                    )
        elif result.test in SYNCHRONOUS_MISS and result.schedulable is False and not misses:
            found.append(
                f"{result.test} (exact here): a job misses after the synchronous release, "
                "but none missed"
            )
        elif result.test == EXACT_DEMAND and result.schedulable is False:
            first = first_demand_overflow(scenario.tasks, hyperperiod(scenario.tasks))
            earliest = min((j.deadline for j in misses), default=None)
            if earliest != first:
                seen = (
                    "no miss" if earliest is None else f"the earliest missed deadline is {earliest}"
                )
                found.append(f"qpa (exact here): h(t) > t first at t = {first}, but {seen}")
    return found


def check_run(result: RunResult, report: AnalysisReport) -> CheckReport:
    """Compare the analysis of the scenario with the run of it."""
    scenario = result.scenario
    duration = run_duration(result)
    misses = [j for j in result.jobs if j.missed]
    contradictions: list[str] = []
    notes: list[str] = []
    for r in report.results:
        if r.applicable and r.schedulable is True and misses:
            first = min(misses, key=lambda j: (j.deadline, j.task))
            contradictions.append(
                f"{r.test} proves the set schedulable, but {len(misses)} deadline(s) were "
                f"missed; the first: {_job_text(first)}"
            )
    bounds = _bounds(report)
    contradictions += _check_bounds(result, bounds, duration)
    stats = task_stats(result)
    worst = {s.task: s.worst_response for s in stats}
    why_not = _exact_conditions(scenario, report, duration)
    gave_up = [r for r in report.results if r.gave_up]
    if why_not is None and gave_up:
        # Where the exact conditions hold only the exact tests search; one that ran
        # out of steps predicts nothing to check.
        why_not = ("too long", f"{gave_up[0].test} {gave_up[0].detail}")
    if why_not is None:
        try:
            contradictions += _check_exact(scenario, report, worst, misses)
        except AnalysisTooLong as err:
            why_not = ("too long", f"the exact check is too long to compute: {err}")
    if why_not is not None:
        notes.append(f"exact predictions not checked: {why_not[1]}")
    if result.usage is not None:
        notes.append(
            f"exact work: the kernel took {100 * result.usage.kernel_share:.3f}% of the run on "
            "top of the tasks' work; the analysis leaves that out, so a contradiction here "
            "can be the kernel's overhead"
        )
    elif scenario.system.port != "sim":
        notes.append("on a board, overheads the analysis leaves out can exceed its bounds")
    if result.trace_overflows:
        contradictions.append(
            f"the trace lost events ({result.trace_overflows} overflows): the run is incomplete"
        )
    tasks = tuple(
        TaskCheck(
            task=s.task,
            jobs=s.released,
            completed=s.completed,
            misses=s.misses,
            worst_response=s.worst_response,
            bound=bounds[s.task][0] if s.task in bounds else None,
            bound_test=bounds[s.task][1] if s.task in bounds else None,
        )
        for s in stats
    )
    return CheckReport(
        source=scenario.source,
        port=scenario.system.port,
        analysis=report,
        tasks=tasks,
        contradictions=tuple(contradictions),
        notes=tuple(notes),
        misses=len(misses),
        bounds_only=None if why_not is None else why_not[0],
    )


_VERDICT = {True: "schedulable", False: "unschedulable", None: "inconclusive"}


def _verdicts(report: AnalysisReport) -> str:
    parts = [f"{r.test} {_VERDICT[r.schedulable]}" for r in report.results if r.applicable]
    return ", ".join(parts) if parts else "no analysis available"


def render_check_line(check: CheckReport) -> str:
    """One line: the file, the verdict, the analysis, the misses and, when the exact
    predictions were not checked, why in short ("bounds only (offsets)")."""
    verdict = "agree" if check.agree else f"DISAGREE ({len(check.contradictions)})"
    return (
        f"{check.source}: {verdict}: U = {fraction_text(check.analysis.utilization)}, "
        f"{_verdicts(check.analysis)}; {check.misses} miss(es) on {check.port}"
        + ("" if check.bounds_only is None else f"; bounds only ({check.bounds_only})")
    )


def render_check(check: CheckReport) -> str:
    """The whole report: the per-task table, the notes and every contradiction."""
    lines = [
        f"Check: {check.source} on {check.port}",
        f"analysis: U = {fraction_text(check.analysis.utilization)}, {_verdicts(check.analysis)}",
        "",
    ]
    header = ["task", "jobs", "done", "misses", "worst RT", "bound R", "by"]
    rows = [header] + [
        [
            t.task,
            str(t.jobs),
            str(t.completed),
            str(t.misses),
            "-" if t.worst_response is None else str(t.worst_response),
            "-" if t.bound is None else str(t.bound),
            t.bound_test or "-",
        ]
        for t in check.tasks
    ]
    widths = [max(len(row[c]) for row in rows) for c in range(len(header))]
    for row in rows:
        cells = [
            cell.ljust(widths[c]) if c in (0, 6) else cell.rjust(widths[c])
            for c, cell in enumerate(row)
        ]
        lines.append("  " + "  ".join(cells).rstrip())
    lines.append("")
    lines += [f"note: {n}" for n in check.notes]
    if check.agree:
        what = "bounds and exact predictions" if check.exact else "bounds"
        lines.append(f"the run agrees with the analysis ({what} checked)")
    else:
        lines.append(f"the run CONTRADICTS the analysis ({len(check.contradictions)}):")
        lines += [f"  {c}" for c in check.contradictions[:20]]
        if len(check.contradictions) > 20:
            lines.append(f"  ... and {len(check.contradictions) - 20} more")
    return "\n".join(lines)
