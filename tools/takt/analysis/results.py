"""Result values shared by every schedulability test.

Tests never write onto tasks: they return these values. ``TestResult.schedulable`` is
three-valued: True (proved schedulable), False (proved unschedulable) and None
(inconclusive, e.g. a sufficient bound that is not met).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TaskResult:
    """One task's outcome in a test that computes per-task response times."""

    task: str
    response_time: int | None  # None: unbounded (the busy period diverges, U > 1)
    deadline: int
    schedulable: bool


@dataclass(frozen=True)
class ServerResult:
    """One server's outcome at the global level of a hierarchical analysis."""

    server: str
    server_type: str
    response_time: int | None  # of its budget; None: more than its period
    period: int
    schedulable: bool


@dataclass(frozen=True)
class TestResult:
    """The verdict of one schedulability test on one task set."""

    __test__ = False  # not a pytest test class, despite the name

    test: str
    applicable: bool
    schedulable: bool | None
    detail: str
    per_task: tuple[TaskResult, ...] = ()
    per_server: tuple[ServerResult, ...] = ()
    # The test ran out of its step budget (takt.analysis.budget): inconclusive for
    # that reason, not for what it found.
    gave_up: bool = False
