"""Run the registered tests on a scenario and render the outcome for the terminal."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from takt.analysis import edf, fp, fpds, hsf
from takt.analysis.budget import AnalysisTooLong
from takt.analysis.fraction_text import exact_text
from takt.analysis.registry import (
    ScenarioTest,
    register_task_test,
    register_test,
    registered_tests,
)
from takt.analysis.results import TestResult
from takt.model import Policy, Preemption, Scenario, Server, Task

__all__ = ["AnalysisReport", "analyze_scenario", "render_text"]

for _name, _test in fp.FP_TESTS.items():
    register_task_test("fp", "full", _name, _test)
for _name, _test in edf.EDF_TESTS.items():
    register_task_test("edf", "full", _name, _test)
register_task_test("fp", "deferred", "fpds_wcrt", fpds.fpds_response_time_analysis)
register_task_test("fp", "none", "fpns_wcrt", fpds.fpns_response_time_analysis)
for _name, _scenario_test in hsf.HSF_TESTS.items():
    register_test("hsf", "full", _name, _scenario_test)


@dataclass(frozen=True)
class AnalysisReport:
    """What the analysis found for one scenario. A value; nothing is written on tasks."""

    policy: Policy
    preemption: Preemption
    utilization: Fraction
    results: tuple[TestResult, ...]
    tasks: tuple[Task, ...] = ()
    source: str = "<memory>"
    servers: tuple[Server, ...] = ()

    @property
    def available(self) -> bool:
        """Whether any test is registered for this policy and preemption mode."""
        return any(r.test != "none" for r in self.results)


def _run_test(name: str, test: ScenarioTest, scenario: Scenario) -> TestResult:
    try:
        return test(scenario)
    except AnalysisTooLong as err:
        return TestResult(name, True, None, str(err), gave_up=True)


def analyze_scenario(scenario: Scenario) -> AnalysisReport:
    """Run every test registered for the scenario's policy and preemption mode."""
    policy = scenario.system.policy
    preemption = scenario.system.preemption
    tests = registered_tests(policy, preemption)
    results: tuple[TestResult, ...]
    if tests:
        results = tuple(_run_test(name, test, scenario) for name, test in tests.items())
    else:
        results = (
            TestResult(
                "none",
                False,
                None,
                f'schedulability analysis is not available yet for policy "{policy}" '
                f'with preemption "{preemption}"',
            ),
        )
    return AnalysisReport(
        policy=policy,
        preemption=preemption,
        utilization=fp.utilization(scenario.tasks),
        results=results,
        tasks=scenario.tasks,
        source=scenario.source,
        servers=scenario.servers,
    )


def _verdict(result: TestResult) -> str:
    if not result.applicable:
        return "not applicable" if result.test != "none" else "not available"
    if result.schedulable is None:
        return "inconclusive"
    return "schedulable" if result.schedulable else "NOT schedulable"


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(widths[c]) if c in right else cell.ljust(widths[c])
            for c, cell in enumerate(row)
        ]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


def render_text(report: AnalysisReport) -> str:
    """A readable terminal report: utilisation, each test's verdict, per-task tables."""
    lines = [
        f"Schedulability analysis: {report.source}",
        f"policy {report.policy}, preemption {report.preemption}, "
        f"{len(report.tasks)} task(s), utilization U = {exact_text(report.utilization)}",
        "",
    ]
    name_width = max(len(r.test) for r in report.results) if report.results else 0
    verdict_width = max((len(_verdict(r)) for r in report.results), default=0)
    for r in report.results:
        lines.append(
            f"  {r.test.ljust(name_width)}  {_verdict(r).ljust(verdict_width)}  {r.detail}"
        )
    by_name = {t.name: t for t in report.tasks}
    servers = {s.name: s for s in report.servers}
    for r in report.results:
        if r.per_server:
            lines += [
                "",
                f"Servers, global fixed priority ({r.test}): R = budget response time",
            ]
            srows = [["server", "type", "prio", "Q", "P", "R", "ok"]]
            for sr in r.per_server:
                server = servers.get(sr.server)
                srows.append(
                    [
                        sr.server,
                        sr.server_type,
                        "-" if server is None else str(server.priority),
                        "-" if server is None else str(server.budget),
                        str(sr.period),
                        f"> {sr.period}" if sr.response_time is None else str(sr.response_time),
                        "yes" if sr.schedulable else "FAIL",
                    ]
                )
            lines += _table(srows, right={2, 3, 4, 5})
        if not r.per_task:
            continue
        with_server = any(by_name[t.task].server for t in r.per_task if t.task in by_name)
        # a sufficient test that fails proves nothing: "no" (not proved), not "MISS"
        failing = "no" if r.per_server else "MISS"
        lines += ["", f"Response times ({r.test}):"]
        rows = [["task", *(["server"] if with_server else []), "prio", "C", "T", "D", "R", "ok"]]
        for tr in r.per_task:
            task = by_name.get(tr.task)
            prio = "-" if task is None or task.priority is None else str(task.priority)
            rows.append(
                [
                    tr.task,
                    *([(task.server or "-") if task else "-"] if with_server else []),
                    prio,
                    "-" if task is None else str(task.wcet),
                    "-" if task is None else str(task.period),
                    str(tr.deadline),
                    "unbounded" if tr.response_time is None else str(tr.response_time),
                    "yes" if tr.schedulable else failing,
                ]
            )
        shift = 1 if with_server else 0
        lines += _table(rows, right={c + shift for c in (1, 2, 3, 4, 5)})
    return "\n".join(lines) + "\n"
