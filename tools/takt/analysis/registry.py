"""The registry of schedulability tests, keyed by (policy, preemption).

Adding a test for a new policy or preemption mode is a matter of registering a function:

* a task-set test, ``(tasks: Sequence[Task]) -> TestResult`` (the common signature, as
  in :data:`takt.analysis.fp.FP_TESTS`), with :func:`register_task_test`; or
* a test that needs more of the scenario (servers, HSF configuration),
  ``(scenario: Scenario) -> TestResult``, with :func:`register_test`.

:func:`takt.analysis.analyze_scenario` runs, in registration order, every test
registered for the scenario's policy and preemption mode.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from takt.analysis.results import TestResult
from takt.model import Scenario, Task

__all__ = [
    "ScenarioTest",
    "TaskSetTest",
    "register_task_test",
    "register_test",
    "registered_tests",
    "unregister_test",
]

TaskSetTest = Callable[[Sequence[Task]], TestResult]
ScenarioTest = Callable[[Scenario], TestResult]

_REGISTRY: dict[tuple[str, str], dict[str, ScenarioTest]] = {}


def register_test(policy: str, preemption: str, name: str, test: ScenarioTest) -> None:
    """Register ``test`` under ``name`` for scenarios with this policy and preemption."""
    tests = _REGISTRY.setdefault((policy, preemption), {})
    if name in tests and tests[name] is not test:
        raise ValueError(f"a test named {name!r} is already registered for {policy}/{preemption}")
    tests[name] = test


def register_task_test(policy: str, preemption: str, name: str, test: TaskSetTest) -> None:
    """Register a task-set test; it is called with the scenario's tasks."""

    def on_scenario(scenario: Scenario) -> TestResult:
        return test(scenario.tasks)

    on_scenario.__name__ = getattr(test, "__name__", name)
    on_scenario.__doc__ = test.__doc__
    register_test(policy, preemption, name, on_scenario)


def unregister_test(policy: str, preemption: str, name: str) -> None:
    """Remove a registered test (mainly for tests of the registry itself)."""
    tests = _REGISTRY.get((policy, preemption), {})
    tests.pop(name, None)


def registered_tests(policy: str, preemption: str) -> dict[str, ScenarioTest]:
    """The tests registered for (policy, preemption), in registration order (a copy)."""
    return dict(_REGISTRY.get((policy, preemption), {}))
