"""``takt generate`` and ``takt check`` end to end, as a user runs them (subprocesses),
and check's exit status for a contradiction (in process: a correct kernel gives none)."""

from __future__ import annotations

import errno
import os
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import run_with_first_jobs_missed
from test_cli import takt

from takt import cli
from takt.scenario import load_scenario, parse_scenario

pytestmark = pytest.mark.usefixtures("runner")


def test_generate_writes_one_set_to_stdout_the_same_every_time(takt_cli: list[str]) -> None:
    args = ["generate", "--tasks", "7", "--utilization", "0.85", "--periods", "10..1000"]
    first = takt(takt_cli, *args, "--seed", "9")
    assert first.returncode == 0, first.stderr
    assert first.stdout == takt(takt_cli, *args, "--seed", "9").stdout
    assert first.stdout != takt(takt_cli, *args, "--seed", "10").stdout
    lines = first.stdout.splitlines()
    assert lines[0].startswith("# takt generate --tasks 7 --utilization 0.85 --periods 10..1000")
    assert lines[1].startswith("# realised utilisation ")
    scenario = parse_scenario(first.stdout, "<stdout>")
    assert len(scenario.tasks) == 7 and scenario.system.priority == "rm"
    assert all(10 <= t.period <= 1000 for t in scenario.tasks)


def test_every_integer_option_reads_the_same_forms(takt_cli: list[str]) -> None:
    """Hex seeds as hex tick starts, decimal counts with leading zeros."""
    args = ["generate", "--utilization", "0.7"]
    plain = takt(takt_cli, *args, "--tasks", "7", "--seed", "16")
    assert plain.returncode == 0, plain.stderr
    other = takt(takt_cli, *args, "--tasks", "07", "--seed", "0x10")
    assert other.returncode == 0, other.stderr
    assert other.stdout == plain.stdout
    bad = takt(takt_cli, *args, "--seed", "0x")
    assert bad.returncode == 2
    assert "--seed: '0x' is not an integer" in bad.stderr


@pytest.mark.parametrize(
    ("text", "value"), [("10", 10), ("010", 10), ("-3", -3), ("0x1F", 31), ("0b101", 5)]
)
def test_integer_option_values(text: str, value: int) -> None:
    assert cli._integer(text) == value


def test_generate_a_folder_then_check_it(takt_cli: list[str], tmp_path: Path) -> None:
    out = tmp_path / "sets"
    made = takt(
        takt_cli,
        "generate",
        "--policy",
        "edf",
        "--deadlines",
        "constrained",
        "--tasks",
        "5",
        "--utilization",
        "0.9",
        "--periods",
        "10,20,40,80",
        "--count",
        "12",
        "--out",
        out,
    )
    assert made.returncode == 0, made.stderr
    files = sorted(out.glob("*.toml"))
    assert [f.name for f in files] == [f"set-{i:04d}.toml" for i in range(12)]
    assert all(load_scenario(f).system.policy == "edf" for f in files)
    checked = takt(takt_cli, "check", *files)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count(": agree: ") == 12
    assert "bounds only" not in checked.stdout  # synchronous, U <= 1, past H: exact
    assert checked.stdout.rstrip().endswith("12 of 12 runs agree with the analysis")


def test_generate_edf_sets_of_more_tasks_than_priorities_then_check_them(
    takt_cli: list[str], tmp_path: Path
) -> None:
    """EDF uses no priorities: up to the runner's 1000 tasks a set, not fp's 255."""
    out = tmp_path / "many"
    args = ["generate", "--policy", "edf", "--tasks", "1000", "--utilization", "0.8"]
    made = takt(takt_cli, *args, "--periods", "1000..100000", "--count", "2", "--out", out)
    assert made.returncode == 0, made.stderr
    files = sorted(out.glob("*.toml"))
    assert len(files) == 2
    scenario = load_scenario(files[0])
    assert len(scenario.tasks) == 1000 and scenario.system.policy == "edf"
    assert files[0].read_text().startswith("# takt generate --tasks 1000 --utilization 0.8")
    checked = takt(takt_cli, "check", *files)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count(": agree: ") == 2


def test_check_one_file_prints_the_table(takt_cli: list[str], tmp_path: Path) -> None:
    path = tmp_path / "one.toml"
    made = takt(takt_cli, "generate", "--tasks", "4", "--seed", "3", "--out", path)
    assert made.returncode == 0 and made.stdout == "", made.stderr
    checked = takt(takt_cli, "check", path)
    assert checked.returncode == 0, checked.stderr
    assert "task  jobs  done  misses  worst RT  bound R  by" in checked.stdout
    assert "the run agrees with the analysis" in checked.stdout


def test_generate_fpds_sets_with_segments(takt_cli: list[str]) -> None:
    done = takt(takt_cli, "generate", "--preemption", "deferred", "--segments", "3", "--tasks", "4")
    assert done.returncode == 0, done.stderr
    scenario = parse_scenario(done.stdout, "<stdout>")
    assert scenario.system.preemption == "deferred"
    assert any(t.segments and len(t.segments) > 1 for t in scenario.tasks)


def test_generate_hierarchies_then_check_them(takt_cli: list[str], tmp_path: Path) -> None:
    out = tmp_path / "hsf"
    args = ["generate", "--policy", "hsf", "--servers", "3", "--server-type", "mixed"]
    args += ["--tasks", "9", "--utilization", "0.35", "--periods", "20..400", "--seed", "4"]
    made = takt(takt_cli, *args, "--count", "6", "--out", out)
    assert made.returncode == 0, made.stderr
    files = sorted(out.glob("*.toml"))
    assert len(files) == 6
    for f in files:
        scenario = load_scenario(f)
        assert scenario.system.policy == "hsf" and len(scenario.servers) == 3
        assert {t.server for t in scenario.tasks} == {"S0", "S1", "S2"}
    header = files[0].read_text().splitlines()[:3]
    assert "--servers 3 --server-type mixed --budgets minimal" in header[0]
    assert header[2].startswith("# server bandwidth (sum of budget/period) ")
    checked = takt(takt_cli, "check", *files)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count(": agree: ") == 6
    assert "hsf_prm schedulable" in checked.stdout
    # Each line says why only the bounds were checked: no exact test for servers.
    assert checked.stdout.count("; bounds only (servers)\n") == 6


def test_a_file_header_command_makes_the_file_again(takt_cli: list[str]) -> None:
    first = takt(takt_cli, "generate", "--policy", "hsf", "--tasks", "5", "--seed", "3")
    assert first.returncode == 0, first.stderr
    command = first.stdout.splitlines()[0].removeprefix("# takt ").removesuffix(" (set 0)")
    again = takt(takt_cli, *command.split())
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--utilization", "0"], "--utilization"),
        (["--tasks", "2", "--utilization", "3"], "at most 1 per task"),
        (["--periods", "0..5"], "--periods"),
        (["--periods", "10,x"], "--periods"),
        (["--periods", "9..3"], "--periods"),
        (["--periods", "10..2147483647"], "an implicit deadline is the period"),
        (["--segments", "3"], "--preemption deferred"),
        (["--policy", "edf", "--priority", "rm"], "--policy edf"),
        (["--policy", "edf", "--preemption", "none"], "--policy edf"),
        (["--count", "3"], "--out FOLDER"),
        (["--out", ""], "--out: empty file or folder name"),
        (["--count", "2", "--out", ""], "--out: empty file or folder name"),
        (["--seed", "-1"], "--seed: -1 is outside 0..18446744073709551615"),
        (["--seed", "18446744073709551616"], "--seed: 18446744073709551616 is outside"),
        # Past 4300 digits Python will not even read the number.
        (["--seed", "9" * 5000], "(5000 characters): no option takes a number that long"),
        (["--seed", "0x" + "f" * 5000], "(5002 characters): no option takes a number that long"),
        (["--count", "0"], "--count"),
        (["--tasks", "256"], "--tasks 256: at most 255 under --policy fp, one priority each"),
        (["--policy", "hsf", "--tasks", "256"], "at most 255 under --policy hsf"),
        (["--policy", "edf", "--tasks", "1001"], "--tasks: 1001 is outside 1..1000"),
        (["--tasks", "0"], "--tasks: 0 is outside 1..1000"),
        (["--servers", "2"], "--servers: only with --policy hsf"),
        (["--budgets", "minimal", "--server-type", "idling"], "only with --policy hsf"),
        (["--policy", "hsf", "--preemption", "none"], "--policy hsf"),
        (["--policy", "hsf", "--tasks", "2", "--servers", "3"], "at most --tasks"),
        (["--policy", "hsf", "--server-periods", "0..4"], "--server-periods"),
        (["--utilization-tolerance", "0"], "--utilization-tolerance: 0: must be above 0 and"),
        (["--utilization-tolerance", "1"], "--utilization-tolerance: 1: must be above 0 and"),
        (["--utilization-tolerance", "-0.1"], "must be above 0 and below 1"),
        (["--utilization-tolerance", "nan"], "nan: must be above 0 and below 1"),
        (["--utilization-tolerance", "tight"], "'tight' is not a number"),
        # 30 tasks of period 10 or 20 realise at least 1.5: no draw comes near 0.5. The
        # sets before it are not written either.
        (
            ["--tasks", "30", "--utilization", "0.5", "--periods", "10,20"]
            + ["--utilization-tolerance", "0.05", "--count", "5", "--out", "sets"],
            "takt: set 0 (seed 1, 30 tasks): none of 1000 draws realises a utilisation "
            "within 0.05 of 0.5 (the closest: 1.",
        ),
    ],
)
def test_generate_refuses_bad_options_and_writes_nothing(
    takt_cli: list[str], tmp_path: Path, args: list[str], message: str
) -> None:
    done = takt(takt_cli, "generate", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stdout == "" and list(tmp_path.iterdir()) == []


def test_generate_refuses_an_out_that_cannot_take_it(takt_cli: list[str], tmp_path: Path) -> None:
    a_file = tmp_path / "file.toml"
    a_file.write_text("keep")
    to_file = takt(takt_cli, "generate", "--count", "2", "--out", a_file)
    assert to_file.returncode == 2 and "is a file, not a folder" in to_file.stderr
    assert a_file.read_text() == "keep"
    to_folder = takt(takt_cli, "generate", "--out", tmp_path)
    assert to_folder.returncode == 2 and "is a folder" in to_folder.stderr
    missing = takt(takt_cli, "generate", "--out", tmp_path / "no" / "x.toml")
    assert missing.returncode == 2 and "does not exist" in missing.stderr

    taken = tmp_path / "sets"
    (taken / "set-0001.toml").mkdir(parents=True)
    to_taken = takt(takt_cli, "generate", "--count", "3", "--out", taken)
    assert to_taken.returncode == 2 and "set-0001.toml there is a folder" in to_taken.stderr
    assert [p.name for p in taken.iterdir()] == ["set-0001.toml"]


def _full_disk_at(call: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The call-th set written (from 0) meets a full disk."""
    real = cli.scenario_toml
    calls = iter(range(1000))

    def writing(*args: object, **kwargs: object) -> str:
        if next(calls) == call:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cli, "scenario_toml", writing)


def test_generate_that_fails_half_way_leaves_nothing_and_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every set or none: a failure at the third of five leaves no file, no folder
    made for them, and the files of an earlier run as they were."""
    _full_disk_at(2, monkeypatch)
    sets = tmp_path / "sets"
    assert cli.main(["generate", "--count", "5", "--out", str(sets)]) == 1
    assert f"takt: {sets / 'set-0002.toml'}: No space left on device" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []

    monkeypatch.undo()
    assert cli.main(["generate", "--count", "2", "--tasks", "3", "--out", str(sets)]) == 0
    before = {p.name: p.read_text() for p in sets.iterdir()}
    _full_disk_at(1, monkeypatch)
    assert cli.main(["generate", "--count", "2", "--seed", "7", "--out", str(sets)]) == 1
    assert {p.name: p.read_text() for p in sets.iterdir()} == before  # no temporaries either

    one = tmp_path / "one.toml"
    one.write_text("keep")
    _full_disk_at(0, monkeypatch)
    assert cli.main(["generate", "--out", str(one)]) == 1
    assert one.read_text() == "keep" and sorted(p.name for p in tmp_path.iterdir()) == [
        "one.toml",
        "sets",
    ]


def test_check_refuses_an_invalid_file_before_running_any(
    takt_cli: list[str], tmp_path: Path
) -> None:
    good = tmp_path / "good.toml"
    good.write_text(takt(takt_cli, "generate", "--tasks", "3").stdout)
    bad = tmp_path / "bad.toml"
    bad.write_text("[system]\npolicy = 'fp'\nduration = 0\n")
    done = takt(takt_cli, "check", good, bad)
    assert done.returncode == 2
    assert "bad.toml" in done.stderr and "duration" in done.stderr
    assert done.stdout == ""


def test_check_exits_3_when_the_run_contradicts_the_analysis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "set.toml"
    assert cli.main(["generate", "--tasks", "3", "--utilization", "0.5", "--out", str(path)]) == 0

    monkeypatch.setattr(cli, "run_scenario", run_with_first_jobs_missed)
    assert cli.main(["check", str(path)]) == cli.EXIT_CONTRADICTION == 3
    out = capsys.readouterr().out
    assert "the run CONTRADICTS the analysis" in out
    assert "proves the set schedulable" in out


def test_generate_with_a_utilization_tolerance(takt_cli: list[str], tmp_path: Path) -> None:
    """README's example with --utilization-tolerance 0.01: every set within it, the same
    files every time, each file's command making it again; without it, the files of
    before (no flag in the command, the old second line)."""
    args = ["generate", "--tasks", "8", "--utilization", "0.9", "--periods", "10..1000"]
    out = tmp_path / "sets"
    made = takt(takt_cli, *args, "--utilization-tolerance", "0.01", "--count", "30", "--out", out)
    assert made.returncode == 0, made.stderr
    files = sorted(out.glob("*.toml"))
    assert len(files) == 30
    for f in files:
        realised = sum(Fraction(t.wcet, t.period) for t in load_scenario(f).tasks)
        assert abs(realised - Fraction("0.9")) <= Fraction("0.01"), f
    lines = files[4].read_text().splitlines()
    assert lines[0].startswith(
        "# takt generate --tasks 8 --utilization 0.9 --utilization-tolerance 0.01 --periods"
    )
    assert lines[1] == (
        "# realised utilisation 0.9021 (wcets are whole ticks; drawn until within 0.01 of 0.9)"
    )
    # The header's command makes the same files again.
    command = lines[0].removeprefix("# takt ").removesuffix(" (set 4)").split()
    again = takt(takt_cli, *command, "--out", tmp_path / "again")
    assert again.returncode == 0, again.stderr
    assert [f.read_text() for f in sorted((tmp_path / "again").glob("*.toml"))] == [
        f.read_text() for f in files
    ]
    # Without the tolerance: set 4 is its first draw, 0.9576, as before the option.
    plain = takt(takt_cli, *args, "--count", "5", "--out", tmp_path / "plain")
    assert plain.returncode == 0, plain.stderr
    first = (tmp_path / "plain" / "set-0004.toml").read_text().splitlines()
    assert "tolerance" not in first[0]
    assert first[1] == "# realised utilisation 0.9576 (wcets are whole ticks)"
