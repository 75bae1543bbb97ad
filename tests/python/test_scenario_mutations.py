"""Seeded mutations of the example scenarios (numbers and strings swapped for extreme
or wrong-typed values, keys renamed, lines deleted, duplicated or cut, stray
characters, blocks copied).

Bad input never gets past the scenario reader as anything but a ScenarioError: each
mutant either fails with one whose message starts with the file's name, or is a
scenario the analysis takes and prints; any other exception is a defect (a traceback
for a user). The mutants that are valid scenarios are odd ones (equal priorities,
offsets, overloads, copied tasks and servers), and run the same on the sim from any
tick start, and on the board as on the sim.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from takt.analysis import analyze_scenario, render_text
from takt.model import Scenario
from takt.scenario import ScenarioError, parse_scenario
from takt.sim import released_jobs, run_scenario, unsupported_reason

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.toml"))

# Values a careless or hostile file might hold where a number or a string belongs.
VALUES = (
    "0", "-1", "1", "2", "3", "100", "1000000", "2147483646", "2147483647", "2147483648",
    "4294967295", "18446744073709551616", "1e308", "nan", "inf", "-inf", "-0", "0.5", "1.5",
    "0x10", "1_000", '"x"', '""', '"\\u0000"', "true", "false", "[]", "{}", "[1, 2]",
    '"fp"', '"edf"', '"hsf"', '"rm"', '"dm"', '"deferrable"', '"idling"', '"fpds"', '"fpns"',
)  # fmt: skip
STRAYS = ("\x00", "\r", "[", "]", '"', "=", "#", "{", ".", "é", "\ufeff",
          "\n[[task]]\n", "\n[system]\n")  # fmt: skip

_NUMBER = re.compile(r"(?<![\w.])-?\d[\d_]*(\.\d+)?(?![\w.])")
_STRING = re.compile(r'"[^"\n]*"')
_KEY = re.compile(r"^(\s*)([A-Za-z_][\w-]*)(\s*=)", re.M)
_BLOCK = re.compile(r"^\[\[", re.M)


def _keys(texts: list[str]) -> list[str]:
    return sorted({m.group(2) for text in texts for m in _KEY.finditer(text)})


def _replace(text: str, match: re.Match[str], by: str, group: int = 0) -> str:
    return text[: match.start(group)] + by + text[match.end(group) :]


def mutate(rng: random.Random, text: str, keys: list[str]) -> str:
    """One random edit of ``text`` (the text itself where the edit found nothing)."""
    lines = text.split("\n")
    edit = rng.randrange(9)
    if edit == 0 and (numbers := list(_NUMBER.finditer(text))):
        return _replace(text, rng.choice(numbers), rng.choice(VALUES))
    if edit == 1 and (strings := list(_STRING.finditer(text))):
        return _replace(text, rng.choice(strings), rng.choice(VALUES))
    if edit == 2:
        del lines[rng.randrange(len(lines))]
        return "\n".join(lines)
    if edit == 3:
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(lines))
        return "\n".join(lines)
    if edit == 4 and (names := list(_KEY.finditer(text))):
        return _replace(text, rng.choice(names), rng.choice(keys), group=2)
    if edit == 5:
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(STRAYS) + text[at:]
    if edit == 6:
        return text[: rng.randrange(len(text) + 1)]
    if edit == 7:
        lines.insert(rng.randrange(len(lines) + 1), f"{rng.choice(keys)} = {rng.choice(VALUES)}")
        return "\n".join(lines)
    if edit == 8 and (blocks := [m.start() for m in _BLOCK.finditer(text)]):
        start = rng.choice(blocks)
        end = text.find("\n[", start + 1)
        return text + "\n" + text[start : len(text) if end < 0 else end]
    return text


def test_the_examples_are_there() -> None:
    assert len(EXAMPLES) >= 10  # else the mutations below test little


@pytest.mark.parametrize("seed", range(4))
def test_mutated_examples_parse_or_fail_with_a_scenario_error(seed: int) -> None:
    texts = [path.read_text() for path in EXAMPLES]
    keys = _keys(texts)
    rng = random.Random(seed)
    parsed = 0
    for _ in range(1500):
        text = rng.choice(texts)
        for _ in range(rng.randrange(1, 4)):
            text = mutate(rng, text, keys)
        try:
            scenario = parse_scenario(text, "mutant.toml")
        except ScenarioError as err:
            assert str(err).startswith("mutant.toml"), (text, str(err))
            continue
        parsed += 1
        assert render_text(analyze_scenario(scenario))
    # Most edits break the file; enough survive that the analysis is exercised too.
    assert 50 < parsed < 1400


def runnable_mutants(seed: int, count: int, most_ticks: int) -> Iterator[Scenario]:
    """``count`` mutants that are valid scenarios the sim runs, of at most
    ``most_ticks`` ticks and as many jobs."""
    texts = [path.read_text() for path in EXAMPLES]
    keys = _keys(texts)
    rng = random.Random(seed)
    found = 0
    while found < count:
        text = rng.choice(texts)
        for _ in range(rng.randrange(1, 3)):
            text = mutate(rng, text, keys)
        try:
            scenario = parse_scenario(text, "mutant.toml")
        except ScenarioError:
            continue
        if (
            scenario.system.duration <= most_ticks
            and released_jobs(scenario) <= most_ticks
            and unsupported_reason(scenario) is None
        ):
            found += 1
            yield scenario


def test_mutants_run_the_same_from_any_tick_start() -> None:
    """The kernel's 32-bit tick wraps 256 ticks into the run: same timeline, same jobs."""
    for scenario in runnable_mutants(seed=21, count=150, most_ticks=400):
        at_zero = run_scenario(scenario)
        wrapping = run_scenario(scenario, tick_start=2**32 - 256)
        assert wrapping.timeline == at_zero.timeline and wrapping.jobs == at_zero.jobs


@pytest.mark.qemu
def test_mutants_run_on_the_board_as_on_the_sim() -> None:
    for scenario in runnable_mutants(seed=7, count=25, most_ticks=400):
        sim = run_scenario(scenario)
        board = run_scenario(scenario, port="qemu-m3")
        assert board.timeline == sim.timeline and board.jobs == sim.jobs
