"""Large task sets in the analysis: the step budget (takt.analysis.budget) pays for the
work a test does, so a set of a thousand tasks gets its verdict, or gives up, within
about a second; and a utilisation or a hyperperiod too long to print whole (more than
Python's 4300 digits) prints short, never as a traceback.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

import pytest

from takt.analysis import analyze_scenario, render_text
from takt.analysis import budget as budget_module
from takt.analysis.budget import AnalysisTooLong
from takt.analysis.edf import demand, first_demand_overflow, processor_demand
from takt.analysis.fp import response_time_analysis
from takt.analysis.fpds import fpds_response_time_analysis, fpns_response_time_analysis
from takt.analysis.fraction_text import count_text, digits, exact_text, fraction_text
from takt.analysis.hsf import hsf_prm_analysis
from takt.analysis.results import TestResult
from takt.generator import GenerateOptions, PeriodRange, generate_scenario, hyperperiod
from takt.model import Scenario, Task
from takt.scenario import parse_scenario


def heavy_fp_tasks() -> list[Task]:
    """1000 tasks of one priority, periods 100000..2000000, U about 0.999: every level
    is the whole set, and its busy period is long (80 s of RTA before the budget paid
    for the work)."""
    rng = random.Random(5)
    tasks = []
    for i in range(1000):
        period = rng.randint(100000, 2000000)
        tasks.append(Task(f"t{i}", period, period // 1000, period, priority=1))
    return tasks


def heavy_edf_tasks() -> list[Task]:
    """998 tasks of period 1000 with deadlines 3..1000 and one of period 10^6: the
    first deadline h(t) exceeds is 997000, about a million deadlines in (76 s of
    ``takt check`` when h was summed over every task at each deadline)."""
    tasks = [Task(f"t{i}", 1000, 1, i + 3) for i in range(998)]
    return [*tasks, Task("big", 1000000, 1998, 997000)]


def scenario_text(tasks: Sequence[Task], system: str, server: str | None = None) -> str:
    lines = ["[system]", system, "duration = 1000"]
    if server is not None:
        lines += ["[[server]]", f'name = "{server}"', "priority = 1"]
        lines += ["period = 100000", "budget = 100000"]
    for t in tasks:
        lines += ["[[task]]", f'name = "{t.name}"', f"period = {t.period}", f"wcet = {t.wcet}"]
        lines.append(f"deadline = {t.deadline}")
        if t.priority is not None:
            lines.append(f"priority = {t.priority}")
        if server is not None:
            lines.append(f'server = "{server}"')
    return "\n".join(lines) + "\n"


class PeriodReads:
    """Counts the reads of Task.period (one per term of every sum the tests evaluate)
    and stops the test once they pass ``cap``."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.count = 0

    def read(self) -> None:
        self.count += 1
        if self.count > self.cap:
            raise RuntimeError(f"more than {self.cap:,} task terms: the budget did not stop it")


READS: list[PeriodReads] = []


class CountedTask(Task):
    def __getattribute__(self, name: str) -> object:
        if name == "period" and READS:
            READS[-1].read()
        return super().__getattribute__(name)


def counted(tasks: Sequence[Task]) -> list[Task]:
    return [
        CountedTask(**{f.name: getattr(t, f.name) for f in dataclasses.fields(t)}) for t in tasks
    ]


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """MAX_STEPS at 100,000 (a budget reads it when its test starts)."""
    monkeypatch.setattr(budget_module, "MAX_STEPS", 100_000)
    yield 100_000
    READS.clear()


def hsf_test(tasks: Sequence[Task]) -> TestResult:
    scenario = parse_scenario(scenario_text(tasks, 'policy = "hsf"', server="S"))
    replaced = dataclasses.replace(scenario, tasks=tuple(counted(scenario.tasks)))
    return hsf_prm_analysis(replaced)


def edf_set(tasks: Sequence[Task]) -> list[Task]:
    return [dataclasses.replace(t, priority=None) for t in tasks]


BUDGETED: dict[str, Callable[[], object]] = {
    "rta": lambda: response_time_analysis(counted(heavy_fp_tasks())),
    "fpns": lambda: fpns_response_time_analysis(counted(heavy_fp_tasks())),
    "fpds": lambda: fpds_response_time_analysis(counted(heavy_fp_tasks())),
    "qpa": lambda: processor_demand(counted(edf_set(heavy_fp_tasks()))),
    "hsf_prm": lambda: hsf_test(heavy_fp_tasks()),
    "first_demand_overflow": lambda: first_demand_overflow(
        counted(heavy_edf_tasks()), hyperperiod(heavy_edf_tasks())
    ),
}


@pytest.mark.parametrize("test", BUDGETED)
def test_the_budget_pays_for_every_task_term(small_budget: int, test: str) -> None:
    """With a budget of 100,000 steps, a test over a thousand tasks gives up having read
    about that many task terms, not 100,000 passes over all of them."""
    reads = PeriodReads(cap=small_budget + 20 * 1000)  # a few passes of set-up besides
    READS.append(reads)
    with pytest.raises(AnalysisTooLong, match=r"^gave up after 100,000 steps, in .*; no verdict"):
        BUDGETED[test]()
    assert reads.count > small_budget // 2  # it did work up to its budget


def test_a_thousand_equal_priorities_are_inconclusive_quickly() -> None:
    """The audit's set: rta gives up at its budget (80 s before, well under a second
    now), and says why."""
    scenario = parse_scenario(scenario_text(heavy_fp_tasks(), 'policy = "fp"'))
    (rta,) = [r for r in analyze_scenario(scenario).results if r.test == "rta"]
    assert rta.applicable and rta.schedulable is None and rta.gave_up
    assert rta.detail.startswith(f"gave up after {budget_module.MAX_STEPS:,} steps, in ")
    assert "too many tasks" in rta.detail


def test_the_first_demand_overflow_of_a_million_deadlines() -> None:
    """The scan takes the deadlines in order and sums h as they pass: a million
    deadlines within the budget, with the exact answer."""
    tasks = heavy_edf_tasks()
    first = first_demand_overflow(tasks, hyperperiod(tasks))
    assert first == 997000
    assert demand(tasks, 997000) > 997000 and demand(tasks, 996999) <= 996999


def test_the_first_demand_overflow_is_the_first_deadline_h_exceeds() -> None:
    rng = random.Random(3)
    found = 0
    for _ in range(300):
        tasks = []
        for i in range(rng.randint(1, 5)):
            period = rng.randint(2, 30)
            wcet = rng.randint(1, max(1, period // 2))
            tasks.append(Task(f"t{i}", period, wcet, rng.randint(wcet, period)))
        horizon = rng.randint(1, 200)
        deadlines = sorted(
            {k * t.period + t.deadline for t in tasks for k in range(horizon // t.period + 1)}
        )
        expected = next((d for d in deadlines if d <= horizon and demand(tasks, d) > d), None)
        assert first_demand_overflow(tasks, horizon) == expected, (tasks, horizon)
        found += expected is not None
    assert 30 < found < 270  # both outcomes exercised


# ---- values too long to print whole ----

# A fraction whose terms have more digits than str() converts (4300).
HUGE = Fraction(3**10000 + 1, 2 * 3**10000)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (HUGE, "0.5000"),
        (1 + Fraction(1, 3**10000), "1.0000 (above 1 by less than 1e-300)"),
        (1 - Fraction(3**10000 + 1, 7 * 10**14 * 3**10000), "1.0000 (below 1 by 1.4e-15)"),
        (Fraction(10**5000), "1.000e5000, 5001 digits"),
    ],
    ids=["huge-terms", "just-above-1", "just-below-1", "huge-whole"],
)
def test_a_ratio_with_terms_of_thousands_of_digits(value: Fraction, text: str) -> None:
    assert fraction_text(value) == text
    assert exact_text(value) == text


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (0, "0"),
        (999_999_999_999_999, "999999999999999"),
        (10**15, "1.000e15, 16 digits"),
        (1000003 * 1000033 * 1000037, "1.000e18, 19 digits"),
        (2 * 10**6000 - 1, "1.999e6000, 6001 digits"),
    ],
    ids=["0", "15-digits", "16-digits", "19-digits", "6001-digits"],
)
def test_a_count_of_thousands_of_digits(n: int, text: str) -> None:
    assert count_text(n) == text


def test_digits_counts_without_converting() -> None:
    for k in [*range(1, 400), *range(400, 7000, 97)]:
        assert digits(10**k) == k + 1 and digits(10**k - 1) == k
    assert digits(0) == 1 and digits(-999) == 3


def big_co_prime_set() -> Scenario:
    """The audit's set: 1000 tasks, periods 10^6..2^31-2, U 0.9. U's exact fraction and
    the hyperperiod have thousands of digits."""
    options = GenerateOptions(
        tasks=1000, utilization=0.9, periods=PeriodRange(1000000, 2147483646), policy="edf"
    )
    return generate_scenario(options, 0)


def test_a_utilisation_of_thousands_of_digits_is_analysed_and_printed() -> None:
    scenario = big_co_prime_set()
    report = analyze_scenario(scenario)
    assert digits(report.utilization.denominator) > 4300
    text = render_text(report)
    assert "utilization U = 0.9000\n" in text
    assert "edf_utilization  schedulable  U = 0.9000 <= 1\n" in text
    assert max(len(line) for line in text.splitlines()) < 200
