"""The periodic resource model analysis (takt.analysis.hsf) at hand-computed points,
against a brute-force supply bound, and through the analysis registry and report."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from takt.analysis import analyze_scenario, render_text
from takt.analysis.hsf import (
    hsf_prm_analysis,
    local_response_time,
    sbf,
    sbf_inverse,
    server_interference,
    server_response_times,
)
from takt.model import Server, Task
from takt.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("period", "budget", "points"),
    [
        # Γ(20, 10): blackout 2(Π−Θ) = 20, then 10 per 20 with 10-tick gaps
        (20, 10, {0: 0, 1: 0, 20: 0, 21: 1, 25: 5, 30: 10, 31: 10, 39: 10, 40: 10,
                  41: 11, 50: 20, 51: 20, 60: 20, 61: 21}),
        # Γ(5, 1): supply at 9, 14, 19 after a window start at 1 (after the early tick)
        (5, 1, {7: 0, 8: 0, 9: 1, 10: 1, 13: 1, 14: 2, 18: 2, 19: 3, 20: 3}),
        # Γ(7, 7) is a dedicated resource
        (7, 7, {1: 1, 6: 6, 7: 7, 8: 8, 100: 100}),
        # Γ(10, 3): blackout 14
        (10, 3, {14: 0, 15: 1, 17: 3, 24: 3, 25: 4, 27: 6, 34: 6, 35: 7}),
    ],
)  # fmt: skip
def test_sbf_at_hand_computed_points(period: int, budget: int, points: dict[int, int]) -> None:
    assert {t: sbf(period, budget, t) for t in points} == points


def brute_force_sbf(period: int, budget: int, t: int) -> int:
    """Least supply in any window of length t over every placement of one contiguous block
    of Θ per period (the worst placements are contiguous: early in the period the window
    starts in, late in the one it ends in)."""
    periods = (t + 2 * period) // period + 1
    worst = t
    for start in range(period):
        for offsets in itertools.product(range(period - budget + 1), repeat=periods):
            supplied = sum(
                max(0, min(start + t, k * period + o + budget) - max(start, k * period + o))
                for k, o in enumerate(offsets)
            )
            worst = min(worst, supplied)
    return worst


@pytest.mark.parametrize(("period", "budget"), [(3, 1), (4, 2), (4, 3), (5, 2), (5, 5), (6, 1)])
def test_sbf_equals_brute_force_supply(period: int, budget: int) -> None:
    for t in range(0, 2 * period + 2):
        assert sbf(period, budget, t) == brute_force_sbf(period, budget, t), (period, budget, t)


@pytest.mark.parametrize(("period", "budget"), [(20, 10), (5, 1), (7, 7), (10, 3), (13, 12)])
def test_sbf_inverse_is_the_first_window_with_that_supply(period: int, budget: int) -> None:
    for work in range(1, 60):
        t = sbf_inverse(period, budget, work)
        assert sbf(period, budget, t) >= work
        assert sbf(period, budget, t - 1) < work
    assert sbf_inverse(period, budget, 0) == 0


def test_sbf_rejects_bad_resource() -> None:
    with pytest.raises(ValueError):
        sbf(5, 6, 3)
    with pytest.raises(ValueError):
        sbf(5, 0, 3)


def test_interference_of_idling_and_deferrable_servers() -> None:
    idling = Server("I", 2, 20, 10)
    deferrable = Server("D", 2, 20, 10, server_type="deferrable")
    assert [server_interference(idling, t) for t in (0, 1, 20, 21)] == [0, 10, 10, 20]
    # back to back: 2Θ in a window of 2Θ (rest of one period, all of the next)
    assert [server_interference(deferrable, t) for t in (1, 10, 11, 20, 30, 31)] == [
        10, 10, 20, 20, 20, 30,
    ]  # fmt: skip


def test_global_response_times_by_hand() -> None:
    s1 = Server("S1", 2, 20, 10)
    s2 = Server("S2", 1, 40, 15)
    # R2 = 15 + ceil(R2/20)·10: 25 -> 35 -> 35
    assert server_response_times([s1, s2]) == {"S1": 10, "S2": 35}
    d1 = Server("S1", 2, 20, 10, server_type="deferrable")
    # 15 + ceil((R+10)/20)·10: 25 -> 35 -> 45 > 40
    assert server_response_times([d1, s2]) == {"S1": 10, "S2": None}
    # equal priorities: definition order decides
    a, b = Server("A", 1, 10, 4), Server("B", 1, 10, 4)
    assert server_response_times([a, b]) == {"A": 4, "B": 8}
    assert server_response_times([b, a]) == {"B": 4, "A": 8}


def test_local_response_times_by_hand() -> None:
    s1 = Server("S1", 2, 20, 10)
    t1 = Task("T1", 20, 4, 20, priority=1, server="S1")
    t2 = Task("T2", 15, 2, 15, priority=2, server="S1")
    # T2: sbf_inverse(2) = 2 + 2·10 = 22
    assert local_response_time(t2, [], s1) == 22
    # T1: rbf(t) = 4 + ceil(t/15)·2; sbf_inverse(6) = 26, rbf(26) = 8, sbf_inverse(8) = 28
    assert local_response_time(t1, [t2], s1) == 28
    # a level demanding more than the server's rate never fits
    over = Task("O", 3, 2, 3, priority=1, server="S1")
    assert local_response_time(over, [], s1) is None
    # exactly the server's rate still has a first-job bound: sbf_inverse(1) = 1 + 2·10
    full = Task("F", 2, 1, 2, priority=1, server="S1")
    assert local_response_time(full, [], s1) == 21
    # utilisation 1 in a server with Θ = Π is a processor of its own: R = C
    whole = Server("W", 1, 5, 5)
    lone = Task("L", 10, 10, 10, priority=1, server="W")
    assert local_response_time(lone, [], whole) == 10
    a = Task("A", 10, 4, 10, priority=2, server="W")
    b = Task("B", 20, 12, 20, priority=1, server="W")
    # rbf(t) = 12 + ceil(t/10)·4: 16 -> 20 -> 20
    assert local_response_time(b, [a], whole) == 20


def test_example_reports_servers_and_task_bounds() -> None:
    report = analyze_scenario(load_scenario(ROOT / "examples" / "hsf_idling.toml"))
    (result,) = report.results
    assert result.test == "hsf_prm" and result.applicable
    assert result.schedulable is None  # T1, T2 bounds exceed their deadlines
    assert [(s.server, s.response_time, s.schedulable) for s in result.per_server] == [
        ("S1", 10, True),
        ("S2", 35, True),
    ]
    assert [(t.task, t.response_time, t.schedulable) for t in result.per_task] == [
        ("T1", 28, False),
        ("T2", 22, False),
        ("T3", 60, True),
    ]
    text = render_text(report)
    assert "Servers, global fixed priority" in text
    lines = {line.split()[0]: line.split() for line in text.splitlines() if line.strip()}
    assert lines["S2"] == ["S2", "idling", "1", "15", "40", "35", "yes"]
    assert lines["T3"] == ["T3", "S2", "2", "10", "60", "60", "60", "yes"]


def test_deferrable_example_fails_the_global_level() -> None:
    result = hsf_prm_analysis(load_scenario(ROOT / "examples" / "hsf_deferrable.toml"))
    assert [s.schedulable for s in result.per_server] == [True, False]
    assert "S2" in result.detail and "back to back" in result.detail
    t3 = [t for t in result.per_task if t.task == "T3"][0]
    assert t3.response_time is None and not t3.schedulable


def test_schedulable_hierarchy_is_proved() -> None:
    from takt.scenario import parse_scenario

    s = parse_scenario(
        """
        [system]
        policy = "hsf"
        [[server]]
        name = "A"
        priority = 2
        period = 10
        budget = 5
        [[task]]
        name = "a"
        server = "A"
        priority = 1
        period = 40
        wcet = 5
        """
    )
    result = hsf_prm_analysis(s)
    # sbf_inverse(5) = 5 + 2·5 = 15 <= 40
    assert result.schedulable is True
    assert [t.response_time for t in result.per_task] == [15]


def test_global_edf_is_not_analysed_as_global_fp() -> None:
    """The periodic-resource analysis here assumes a fixed-priority global level:
    a scenario whose servers are scheduled by EDF gets no verdict from it."""
    from takt.scenario import parse_scenario

    text = (
        '[system]\npolicy = "hsf"\n[hsf]\nglobal = "{g}"\n'
        '[[server]]\nname = "S1"\npriority = 1\nperiod = 10\nbudget = 5\n'
        '[[task]]\nname = "T1"\nserver = "S1"\npriority = 1\nperiod = 20\nwcet = 4\n'
    )
    fp_result = analyze_scenario(parse_scenario(text.format(g="fp"))).results[0]
    assert fp_result.applicable and fp_result.schedulable is True
    edf_result = analyze_scenario(parse_scenario(text.format(g="edf"))).results[0]
    assert not edf_result.applicable and edf_result.schedulable is None
    assert 'global "edf"' in edf_result.detail
