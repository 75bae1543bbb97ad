"""Values too long to print whole in the analysis: a utilisation whose exact fraction
has terms of thousands of digits (a few hundred tasks with large co-prime periods), a
hyperperiod of as many. Python refuses to convert an int of more than 4300 digits to
text; these print short, never as a traceback.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from takt.analysis import analyze_scenario, render_text
from takt.analysis.fraction_text import count_text, digits, exact_text, fraction_text
from takt.generator import GenerateOptions, PeriodRange, generate_scenario
from takt.model import Scenario

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
