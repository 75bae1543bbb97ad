"""Schedulability analysis, SchedCAT-style.

Every test is a function returning a :class:`TestResult` value (never writing onto
tasks); tests are kept in a registry keyed by (policy, preemption), see
:mod:`takt.analysis.registry`. Available now: fixed priority with full preemption
(:mod:`takt.analysis.fp`), EDF (:mod:`takt.analysis.edf`), FPDS/FPNS
(:mod:`takt.analysis.fpds`) and hierarchical scheduling with the periodic resource
model (:mod:`takt.analysis.hsf`). Other combinations report "not available yet".
"""

from takt.analysis.fp import (
    FP_TESTS,
    fp_response_times,
    hyperbolic,
    liu_layland,
    response_time_analysis,
    utilization,
)
from takt.analysis.registry import (
    ScenarioTest,
    TaskSetTest,
    register_task_test,
    register_test,
    registered_tests,
    unregister_test,
)
from takt.analysis.report import AnalysisReport, analyze_scenario, render_text
from takt.analysis.results import ServerResult, TaskResult, TestResult

__all__ = [
    "FP_TESTS",
    "AnalysisReport",
    "ScenarioTest",
    "ServerResult",
    "TaskResult",
    "TaskSetTest",
    "TestResult",
    "analyze_scenario",
    "fp_response_times",
    "hyperbolic",
    "liu_layland",
    "register_task_test",
    "register_test",
    "registered_tests",
    "render_text",
    "response_time_analysis",
    "unregister_test",
    "utilization",
]
