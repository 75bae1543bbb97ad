"""Task-set generation (takt.generator) and scenario files written from the model
(takt.scenario_toml): the sets have the shape asked for, the same seed gives the same
set, and every scenario written reads back as itself."""

from __future__ import annotations

import dataclasses
import math
import random
from pathlib import Path

import pytest
from hsf_gen import hierarchy, random_hierarchy

from takt.generator import (
    DEFAULT_PERIODS,
    GenerateOptions,
    PeriodRange,
    draw_period,
    generate_scenario,
    hyperperiod,
    random_tasks,
    split_wcet,
    uunifast,
)
from takt.model import Scenario
from takt.scenario import load_scenario, parse_scenario
from takt.scenario_toml import scenario_toml
from takt.sim import REPO_ROOT


def same(a: Scenario, b: Scenario) -> bool:
    return dataclasses.replace(a, source="") == dataclasses.replace(b, source="")


def test_uunifast_sums_to_the_total() -> None:
    rng = random.Random(5)
    for n in (1, 2, 7, 40):
        utils = uunifast(n, 0.9, rng)
        assert len(utils) == n
        assert all(u > 0 for u in utils)
        assert math.isclose(sum(utils), 0.9)


@pytest.mark.parametrize("seed", range(200))
def test_random_tasks_have_the_shape_asked_for(seed: int) -> None:
    rng = random.Random(seed)
    periods = PeriodRange(2, 5000) if seed % 2 else DEFAULT_PERIODS
    deadlines = "constrained" if seed % 3 == 0 else "implicit"
    segments = 1 + seed % 4
    tasks = random_tasks(1 + seed % 12, 0.3 + (seed % 9) / 10, rng, periods, deadlines, segments)
    assert len(tasks) == 1 + seed % 12
    assert [t.name for t in tasks] == [f"t{i}" for i in range(len(tasks))]
    for t in tasks:
        if isinstance(periods, PeriodRange):
            assert periods.low <= t.period <= periods.high
        else:
            assert t.period in periods
        assert 1 <= t.wcet <= t.period
        if deadlines == "implicit":
            assert t.deadline == t.period
        else:
            assert t.wcet <= t.deadline <= t.period
        if segments == 1:
            assert t.segments is None
        else:
            assert t.segments is not None
            assert sum(t.segments) == t.wcet
            assert all(s >= 1 for s in t.segments)
            assert len(t.segments) == min(segments, t.wcet)
        assert t.priority is None and t.offset == 0


def test_log_uniform_periods_give_each_decade_an_equal_share() -> None:
    rng = random.Random(1)
    draws = [draw_period(PeriodRange(10, 9999), rng) for _ in range(30_000)]
    decades = [sum(1 for p in draws if 10**k <= p < 10 ** (k + 1)) for k in (1, 2, 3)]
    assert all(abs(d - 10_000) < 400 for d in decades), decades
    assert min(draws) == 10 and max(draws) == 9999


def test_a_one_value_range_gives_that_value() -> None:
    rng = random.Random(2)
    assert {draw_period(PeriodRange(7, 7), rng) for _ in range(100)} == {7}


def test_split_wcet_cuts_at_distinct_points() -> None:
    rng = random.Random(3)
    for wcet in range(1, 40):
        for parts in range(1, 8):
            pieces = split_wcet(wcet, parts, rng)
            assert sum(pieces) == wcet and len(pieces) == min(parts, wcet)
            assert all(p >= 1 for p in pieces)


@pytest.mark.parametrize(
    ("low", "high"), [(0, 5), (5, 4), (-1, 3)], ids=["zero", "reversed", "negative"]
)
def test_a_bad_period_range_is_refused(low: int, high: int) -> None:
    with pytest.raises(ValueError, match="period range"):
        PeriodRange(low, high)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"tasks": 0}, "tasks"),
        ({"tasks": 1000}, "tasks"),
        ({"utilization": 0}, "utilization"),
        ({"tasks": 2, "utilization": 2.5}, "utilization"),
        ({"policy": "hsf"}, "fp or edf"),
        ({"policy": "edf", "preemption": "none"}, "full"),
        ({"segments": 0}, "segments"),
        ({"segments": 3}, "deferred"),
        ({"duration": 0}, "duration"),
        ({"duration_cap": 2**40}, "duration cap"),
    ],
)
def test_bad_generate_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GenerateOptions(**options)  # type: ignore[arg-type]


def test_the_same_seed_and_index_give_the_same_set() -> None:
    options = GenerateOptions(tasks=8, utilization=0.85, periods=PeriodRange(10, 1000))
    assert same(generate_scenario(options, 4), generate_scenario(options, 4))
    assert not same(generate_scenario(options, 4), generate_scenario(options, 5))
    other_seed = dataclasses.replace(options, seed=2)
    assert not same(generate_scenario(options, 4), generate_scenario(other_seed, 4))


def test_generated_fp_sets_get_rm_or_dm_priorities() -> None:
    implicit = generate_scenario(GenerateOptions(tasks=12, utilization=0.7), 0)
    assert implicit.system.priority == "rm"
    by_priority = sorted(implicit.tasks, key=lambda t: -(t.priority or 0))
    assert [t.period for t in by_priority] == sorted(t.period for t in implicit.tasks)
    assert len({t.priority for t in implicit.tasks}) == 12
    constrained = generate_scenario(GenerateOptions(tasks=12, deadlines="constrained"), 0)
    assert constrained.system.priority == "dm"
    by_priority = sorted(constrained.tasks, key=lambda t: -(t.priority or 0))
    assert [t.deadline for t in by_priority] == sorted(t.deadline for t in constrained.tasks)
    edf = generate_scenario(GenerateOptions(policy="edf"), 0)
    assert edf.system.priority == "explicit" and edf.system.ready_queue == "heap"


def test_the_default_duration_covers_a_hyperperiod_and_the_last_deadline() -> None:
    options = GenerateOptions(tasks=5, periods=(10, 20, 40), deadlines="constrained")
    for index in range(20):
        s = generate_scenario(options, index)
        assert s.system.duration == hyperperiod(s.tasks) + max(t.deadline for t in s.tasks)
    capped = GenerateOptions(tasks=6, periods=PeriodRange(100, 9000), duration_cap=5000)
    assert generate_scenario(capped, 0).system.duration == 5000
    fixed = dataclasses.replace(capped, duration=77)
    assert generate_scenario(fixed, 0).system.duration == 77


def round_trips(scenario: Scenario) -> bool:
    return same(parse_scenario(scenario_toml(scenario, ["a comment"]), "<written>"), scenario)


def test_every_example_reads_back_as_itself() -> None:
    examples = sorted((REPO_ROOT / "examples").glob("*.toml"))
    assert len(examples) >= 10
    for path in examples:
        assert round_trips(load_scenario(path)), path


@pytest.mark.parametrize("seed", range(60))
def test_generated_sets_read_back_as_themselves(seed: int) -> None:
    rng = random.Random(seed)
    policy = rng.choice(["fp", "edf"])
    preemption = rng.choice(["full", "none", "deferred"]) if policy == "fp" else "full"
    options = GenerateOptions(
        tasks=rng.randint(1, 20),
        utilization=rng.uniform(0.2, 1.2),
        periods=PeriodRange(2, 2000) if rng.random() < 0.5 else DEFAULT_PERIODS,
        deadlines=rng.choice(["implicit", "constrained"]),
        policy=policy,  # type: ignore[arg-type]
        preemption=preemption,  # type: ignore[arg-type]
        segments=rng.randint(2, 5) if preemption == "deferred" else 1,
        seed=seed,
    )
    assert round_trips(generate_scenario(options, rng.randrange(1000)))


@pytest.mark.parametrize("seed", range(40))
def test_hierarchies_read_back_as_themselves(seed: int) -> None:
    rng = random.Random(seed)
    scenario = hierarchy(random_hierarchy(rng, rng.randint(1, 6), "mixed"), 500)
    assert round_trips(scenario)


def test_a_written_file_loads(tmp_path: Path) -> None:
    scenario = generate_scenario(GenerateOptions(tasks=3), 0)
    path = tmp_path / "set.toml"
    path.write_text(scenario_toml(scenario, ["first line", ""]))
    text = path.read_text()
    assert text.startswith("# first line\n#\n[system]\n")
    assert same(load_scenario(path), scenario)
