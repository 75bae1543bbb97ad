"""End to end through the ``takt`` command line, as a user runs it (a subprocess).

Covers SCENARIO.md "Outputs": every output written; an output sent to stdout (``-``)
owns stdout (the summary goes to stderr); invalid scenarios exit 2 naming the file and
the key and write nothing; an unsupported policy exits 1 saying it is not implemented;
``--progress`` reports on stderr; ``--tick-start`` across the 32-bit wrap changes
nothing; ``takt analyze`` prints the RTA table.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import stat
import subprocess
import threading
from pathlib import Path

import pytest
from conftest import T, scenario_toml

from takt.scenario import load_scenario, parse_scenario
from takt.sim import REPO_ROOT, unsupported_reason

pytestmark = pytest.mark.usefixtures("runner")

EXAMPLE = REPO_ROOT / "examples" / "three_tasks.toml"
TIMELINE_HEADER = "start,end,server,task,job"
JOBS_HEADER = "task,job,release,deadline,finish,missed"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def takt(
    cli: list[str], *args: str | Path, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*cli, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def read_csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


# Three tasks at 60 ticks, hand-checked against SCHEDULING.md (RM: sensor 3, control 2,
# logger 1); logger is preempted twice per job.
EXPECTED_TIMELINE = """\
start,end,server,task,job
0,3,,sensor,0
3,7,,control,0
7,10,,logger,0
10,13,,sensor,1
13,15,,logger,0
15,19,,control,1
19,20,,logger,0
20,23,,sensor,2
23,30,,idle,
30,33,,sensor,3
33,37,,control,2
37,40,,logger,1
40,43,,sensor,4
43,45,,logger,1
45,49,,control,3
49,50,,logger,1
50,53,,sensor,5
53,60,,idle,
"""


def test_run_widest_segments_record(takt_cli: list[str], tmp_path: Path) -> None:
    """64 subjobs of 8-digit lengths: the runner reads the 584-byte record whole."""
    segments = [33_554_431] * 64
    path = tmp_path / "wide.toml"
    path.write_text(
        '[system]\npolicy = "fp"\npreemption = "deferred"\ntick_hz = 1000\n'
        "duration = 12\n\n"
        '[[task]]\nname = "long"\npriority = 1\n'
        f"period = {2**31 - 2}\nwcet = {sum(segments)}\nsegments = {segments}\n\n"
        '[[task]]\nname = "short"\npriority = 2\nperiod = 5\nwcet = 1\n'
    )
    done = takt(takt_cli, "run", path, "--timeline", "-", "--no-progress")
    assert done.returncode == 0, done.stderr
    # short first (higher priority), then long's first subjob, which nothing preempts
    assert done.stdout == "start,end,server,task,job\n0,1,,short,0\n1,12,,long,0\n"


def test_run_with_every_output(takt_cli: list[str], tmp_path: Path) -> None:
    out = {
        "timeline": tmp_path / "timeline.csv",
        "jobs": tmp_path / "jobs.csv",
        "trace": tmp_path / "trace.json",
        "gantt": tmp_path / "gantt.png",
    }
    done = takt(
        takt_cli,
        "run",
        EXAMPLE,
        "--timeline",
        out["timeline"],
        "--jobs",
        out["jobs"],
        "--trace",
        out["trace"],
        "--gantt",
        out["gantt"],
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    # No output on stdout, so the summary is printed there.
    assert "deadline misses: 0 of 12 jobs" in done.stdout
    for name in ("sensor", "control", "logger"):
        assert name in done.stdout

    assert out["timeline"].read_text() == EXPECTED_TIMELINE
    jobs = read_csv(out["jobs"].read_text())
    assert ",".join(jobs[0]) == JOBS_HEADER
    assert len(jobs) == 1 + 6 + 4 + 2
    assert ["logger", "0", "0", "30", "20", "0"] in jobs
    assert all(row[5] == "0" for row in jobs[1:])

    trace = json.loads(out["trace"].read_text())
    assert isinstance(trace, dict) and isinstance(trace["traceEvents"], list)
    assert len(trace["traceEvents"]) > 10
    assert out["gantt"].read_bytes().startswith(PNG_MAGIC)


def test_gantt_html(takt_cli: list[str], tmp_path: Path) -> None:
    html = tmp_path / "gantt.html"
    done = takt(takt_cli, "run", EXAMPLE, "--gantt", html, "--quiet")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    text = html.read_text(encoding="utf-8")
    assert text.lstrip().lower().startswith("<!doctype html")
    assert "sensor" in text and "</html>" in text


@pytest.mark.parametrize("chart", ["gantt.png", "gantt.html"])
def test_charts_of_a_scenario_whose_name_is_not_utf8(
    takt_cli: list[str], tmp_path: Path, chart: str
) -> None:
    """A file name's bytes that are not UTF-8 reach the chart's title as U+FFFD
    (they used to stop matplotlib and the HTML writer with a traceback)."""
    scenario = tmp_path / os.fsdecode(b"\xff\xfe.toml")
    scenario.write_text(EXAMPLE.read_text())
    out = tmp_path / chart
    done = takt(takt_cli, "run", scenario, "--gantt", out, "--quiet")
    assert done.returncode == 0, done.stderr
    if chart.endswith(".html"):
        assert "Takt schedule — " in out.read_text(encoding="utf-8")
        assert "\ufffd\ufffd.toml" in out.read_text(encoding="utf-8")
    else:
        assert out.read_bytes().startswith(PNG_MAGIC)


def test_a_closed_stdout_is_an_error_not_a_traceback(takt_cli: list[str], tmp_path: Path) -> None:
    """`takt run FILE >&-`: the summary cannot be printed, which is said (exit 1);
    with --quiet nothing goes to stdout and the chart is written."""

    def closed_stdout(*args: str | Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*takt_cli, *map(str, args)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            preexec_fn=lambda: os.close(1),  # noqa: PLW1509 (no threads in the child yet)
        )

    done = closed_stdout("run", EXAMPLE)
    assert done.returncode == 1
    assert done.stderr == "takt: standard output is closed\n"
    chart = tmp_path / "g.png"
    done = closed_stdout("run", EXAMPLE, "--quiet", "--gantt", chart)
    assert done.returncode == 0, done.stderr
    assert chart.read_bytes().startswith(PNG_MAGIC)


@pytest.mark.parametrize("flag", ["--timeline", "--jobs", "--trace"])
def test_stdout_output_owns_stdout(takt_cli: list[str], tmp_path: Path, flag: str) -> None:
    done = takt(takt_cli, "run", EXAMPLE, flag, "-", "--no-progress")
    assert done.returncode == 0, done.stderr
    # The summary went to stderr ...
    assert "deadline misses: 0 of 12 jobs" in done.stderr
    assert "deadline misses" not in done.stdout
    # ... and stdout is the output alone.
    if flag == "--timeline":
        assert done.stdout == EXPECTED_TIMELINE
    elif flag == "--jobs":
        rows = read_csv(done.stdout)
        assert ",".join(rows[0]) == JOBS_HEADER
        assert all(len(row) == 6 for row in rows)
    else:
        assert isinstance(json.loads(done.stdout)["traceEvents"], list)


def test_tick_start_across_the_wrap_gives_the_same_timeline(
    takt_cli: list[str], tmp_path: Path
) -> None:
    outputs = {}
    for start in ("0", "0xFFFFFFF0"):
        timeline, jobs = tmp_path / f"t{start}.csv", tmp_path / f"j{start}.csv"
        done = takt(
            takt_cli, "run", EXAMPLE, "--timeline", timeline, "--jobs", jobs, "--quiet",
            "--tick-start", start,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        outputs[start] = (timeline.read_text(), jobs.read_text())
    assert outputs["0"][0] == EXPECTED_TIMELINE
    assert outputs["0xFFFFFFF0"] == outputs["0"]


def test_progress_goes_to_stderr(takt_cli: list[str], tmp_path: Path) -> None:
    scenario = tmp_path / "long.toml"
    scenario.write_text(EXAMPLE.read_text().replace("duration = 60", "duration = 200000"))
    assert "duration = 200000" in scenario.read_text()
    done = takt(takt_cli, "run", scenario, "--progress", "--timeline", "-")
    assert done.returncode == 0, done.stderr
    lines = [part.strip() for part in done.stderr.replace("\r", "\n").splitlines()]
    progress = [line for line in lines if line.startswith("running") and "%" in line]
    assert len(progress) >= 10, done.stderr[:500]
    assert progress[-1].endswith("100.0%"), progress[-1]
    # stdout is still the timeline alone.
    assert done.stdout.startswith(TIMELINE_HEADER + "\n")
    assert "running" not in done.stdout and "%" not in done.stdout


def test_a_reader_that_stops_early_ends_the_run_quietly(
    takt_cli: list[str], tmp_path: Path
) -> None:
    """`takt run ... --timeline - | head`: exit 141 (SIGPIPE's), nothing on stderr."""
    scenario = tmp_path / "long.toml"
    scenario.write_text(EXAMPLE.read_text().replace("duration = 60", "duration = 200000"))
    proc = subprocess.Popen(
        [*takt_cli, "run", str(scenario), "--timeline", "-", "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(len(TIMELINE_HEADER)).decode() == TIMELINE_HEADER
    proc.stdout.close()  # the timeline is megabytes: the writer meets the closed pipe
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, stderr
    assert stderr == ""


def test_no_progress_by_default_when_not_a_terminal(takt_cli: list[str]) -> None:
    done = takt(takt_cli, "run", EXAMPLE, "--timeline", "-")
    assert done.returncode == 0, done.stderr
    assert "running" not in done.stderr


def test_analyze_prints_the_rta_table(takt_cli: list[str]) -> None:
    done = takt(takt_cli, "analyze", EXAMPLE)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "rta" in text and "schedulable" in text
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line.strip()}
    # task prio C T D R ok
    assert rows["sensor"][1:] == ["3", "3", "10", "10", "3", "yes"]
    assert rows["control"][1:] == ["2", "4", "15", "15", "7", "yes"]
    assert rows["logger"][1:] == ["1", "6", "30", "30", "20", "yes"]


def test_analyze_reports_an_unschedulable_set(takt_cli: list[str], tmp_path: Path) -> None:
    scenario = tmp_path / "overload.toml"
    scenario.write_text(scenario_toml([T(10, 6, 2), T(10, 6, 1)], 50))
    done = takt(takt_cli, "analyze", scenario)
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.strip()}
    assert rows["T1"][1:] == ["2", "6", "10", "10", "6", "yes"]
    assert rows["T2"][-2:] == ["unbounded", "MISS"]


# One invalid scenario per kind of problem SCENARIO.md lists; (file text, key to name).
FP_HEAD = '[system]\npolicy = "fp"\nduration = 50\n\n'
HSF_HEAD = '[system]\npolicy = "hsf"\nduration = 50\n\n'
TASK_A = '[[task]]\nname = "A"\npriority = 1\nperiod = 10\nwcet = 2\n'
INVALID: dict[str, tuple[str, str]] = {
    "unknown_key": (FP_HEAD + TASK_A + 'colour = "red"\n', "colour"),
    "missing_field": (FP_HEAD + '[[task]]\nname = "A"\npriority = 1\nperiod = 10\n', "wcet"),
    "wrong_type": (
        FP_HEAD + '[[task]]\nname = "A"\npriority = 1\nperiod = "10"\nwcet = 2\n',
        "period",
    ),
    "budget_over_period": (
        HSF_HEAD
        + '[[server]]\nname = "S1"\npriority = 1\nperiod = 10\nbudget = 12\n\n'
        + '[[task]]\nname = "A"\nserver = "S1"\npriority = 1\nperiod = 10\nwcet = 2\n',
        "budget",
    ),
    "segments_not_summing": (
        '[system]\npolicy = "fp"\npreemption = "deferred"\nduration = 50\n\n'
        + TASK_A.replace("wcet = 2", "wcet = 4")
        + "segments = [1, 2]\n",
        "segments",
    ),
    "missing_server": (
        HSF_HEAD
        + '[[server]]\nname = "S1"\npriority = 1\nperiod = 10\nbudget = 5\n\n'
        + '[[task]]\nname = "A"\nserver = "S2"\npriority = 1\nperiod = 10\nwcet = 2\n',
        "server",
    ),
    "duplicate_names": (
        FP_HEAD + TASK_A + "\n" + TASK_A.replace("priority = 1", "priority = 2"),
        "name",
    ),
}


@pytest.mark.parametrize("case", sorted(INVALID))
def test_invalid_scenario_exits_2_and_writes_nothing(
    takt_cli: list[str], tmp_path: Path, case: str
) -> None:
    text, key = INVALID[case]
    scenario = tmp_path / f"{case}.toml"
    scenario.write_text(text)
    outputs = {
        "--timeline": tmp_path / "out" / "timeline.csv",
        "--jobs": tmp_path / "out" / "jobs.csv",
        "--trace": tmp_path / "out" / "trace.json",
        "--gantt": tmp_path / "out" / "gantt.png",
    }
    (tmp_path / "out").mkdir()
    args = [arg for flag, path in outputs.items() for arg in (flag, str(path))]
    done = takt(takt_cli, "run", scenario, *args)
    assert done.returncode == 2, (done.returncode, done.stderr)
    message = done.stderr
    assert str(scenario) in message, message
    assert key in message, message
    assert done.stdout == ""
    assert list((tmp_path / "out").iterdir()) == []
    # analyze rejects it the same way.
    analysed = takt(takt_cli, "analyze", scenario)
    assert analysed.returncode == 2 and str(scenario) in analysed.stderr and key in analysed.stderr


def test_invalid_scenario_names_the_line(takt_cli: list[str], tmp_path: Path) -> None:
    scenario = tmp_path / "bad.toml"
    scenario.write_text(INVALID["unknown_key"][0])
    done = takt(takt_cli, "run", scenario)
    line = INVALID["unknown_key"][0].splitlines().index('colour = "red"') + 1
    assert f"line {line}" in done.stderr, done.stderr


def test_missing_file_exits_2(takt_cli: list[str], tmp_path: Path) -> None:
    done = takt(takt_cli, "run", tmp_path / "nope.toml")
    assert done.returncode == 2
    assert "nope.toml" in done.stderr


# Features the scenario format has and the kernel does not implement yet: each must fail
# the run with exit 1 and a message. (EDF and the fp preemption modes left this list when
# they landed; remove a case here when its feature lands.)
HSF_OK = INVALID["missing_server"][0].replace('"S2"', '"S1"')
UNSUPPORTED: dict[str, tuple[str, str]] = {
    "hsf_global_edf": (HSF_OK.replace("50\n", '50\n\n[hsf]\nglobal = "edf"\n', 1), "edf"),
}


@pytest.mark.parametrize("case", sorted(UNSUPPORTED))
def test_unsupported_feature_exits_1(takt_cli: list[str], tmp_path: Path, case: str) -> None:
    text, value = UNSUPPORTED[case]
    scenario = tmp_path / f"{case}.toml"
    scenario.write_text(text)
    assert unsupported_reason(load_scenario(scenario)) is not None, f"{case}: now implemented"
    timeline = tmp_path / "timeline.csv"
    done = takt(takt_cli, "run", scenario, "--timeline", timeline)
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert "not implemented" in done.stderr or "not available" in done.stderr, done.stderr
    assert f'"{value}"' in done.stderr, done.stderr
    assert str(scenario) in done.stderr
    assert done.stdout == ""
    assert not timeline.exists()


def test_a_run_too_large_for_memory_is_refused_before_it_starts(
    takt_cli: list[str], tmp_path: Path
) -> None:
    # 2^31 - 1 ticks of a period-1 task: about 2 * 10^9 jobs, terabytes of results.
    scenario = tmp_path / "huge.toml"
    scenario.write_text(scenario_toml([T(1, 1, 1)], 2**31 - 1))
    jobs = tmp_path / "jobs.csv"
    done = takt(takt_cli, "run", scenario, "--jobs", jobs, "--no-progress")
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert "releases about 2,147,483,647 jobs" in done.stderr, done.stderr
    assert "GiB of memory is available" in done.stderr and "[system] duration" in done.stderr
    assert str(scenario) in done.stderr and done.stdout == ""
    assert not jobs.exists() and list(tmp_path.iterdir()) == [scenario]


def test_some_feature_is_still_unsupported(tmp_path: Path) -> None:
    """Keeps the test above meaningful: at least one case exercises the exit-1 path."""
    reasons = []
    for case, (text, _) in UNSUPPORTED.items():
        scenario = tmp_path / f"{case}.toml"
        scenario.write_text(text)
        reasons.append(unsupported_reason(load_scenario(scenario)))
    assert any(reasons)


@pytest.mark.parametrize("tick_hz", [1, 3, 25_000_000])
def test_a_tick_the_board_cannot_make_is_refused_before_the_run(
    takt_cli: list[str], tmp_path: Path, tick_hz: int
) -> None:
    """The MPS2 boards' SysTick makes a tick of 2 to 2^24 whole counts of 25 MHz
    (docs/ports.md); the runner failed on any other tick_hz, saying only "kernel
    initialisation failed". Refused now before anything is built or run."""
    scenario = tmp_path / "tick.toml"
    scenario.write_text(scenario_toml([T(4, 1, 2)], 8, tick_hz=tick_hz))
    assert unsupported_reason(load_scenario(scenario)) is None  # the sim takes any tick
    for port in ("qemu-m3", "qemu-m4"):
        done = takt(takt_cli, "run", scenario, "--port", port)
        assert done.returncode == 1, (done.returncode, done.stderr)
        assert f"tick_hz {tick_hz}: on {port}" in done.stderr, done.stderr
        assert "25000000" in done.stderr and done.stdout == ""
    for good in (2, 1000, 12_500_000):
        text = scenario_toml([T(4, 1, 2)], 8, tick_hz=good).replace(
            '"full"', '"full"\nport = "qemu-m3"'
        )
        assert unsupported_reason(parse_scenario(text)) is None, good


def test_deadline_misses_are_results_not_errors(takt_cli: list[str], tmp_path: Path) -> None:
    scenario = tmp_path / "overload.toml"
    scenario.write_text(scenario_toml([T(10, 6, 2), T(10, 6, 1)], 50))
    done = takt(takt_cli, "run", scenario, "--jobs", "-")
    assert done.returncode == 0, done.stderr
    rows = read_csv(done.stdout)
    assert any(row[0] == "T2" and row[5] == "1" for row in rows[1:])


def test_python_module_entry_point(tmp_path: Path) -> None:
    python = REPO_ROOT / ".venv" / "bin" / "python"
    if not python.exists():
        pytest.skip("no venv python")
    done = takt([str(python), "-m", "takt.cli"], "run", EXAMPLE, "--timeline", "-", "--quiet")
    assert done.returncode == 0, done.stderr
    assert done.stdout == EXPECTED_TIMELINE


# Values the kernel cannot take: periods, deadlines and offsets of 2**31 ticks or more
# (tick differences must stay within half the 32-bit range), and a deadline of
# 2**31 - 1, given or the period's (the miss check a tick later would not). The
# scenario is rejected before anything runs, naming the file and the key.
TOO_LARGE = {
    "offset_2_31": (TASK_A + "offset = 2147483648\n", "offset"),
    "period_2_31": (TASK_A.replace("period = 10", "period = 2147483648"), "period"),
    "deadline_2_32": (TASK_A + "deadline = 4294967296\n", "deadline"),
    "deadline_2_31_less_1": (TASK_A + "deadline = 2147483647\n", "deadline"),
    "implicit_deadline_2_31_less_1": (
        TASK_A.replace("period = 10", "period = 2147483647"),
        "period",
    ),
}


@pytest.mark.parametrize("case", sorted(TOO_LARGE))
def test_values_the_kernel_rejects_fail_cleanly(
    takt_cli: list[str], tmp_path: Path, case: str
) -> None:
    text, key = TOO_LARGE[case]
    scenario = tmp_path / f"{case}.toml"
    scenario.write_text(FP_HEAD.replace("duration = 50", "duration = 20") + text)
    timeline = tmp_path / "timeline.csv"
    done = takt(takt_cli, "run", scenario, "--timeline", timeline)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert str(scenario) in done.stderr, done.stderr
    assert key in done.stderr, done.stderr
    assert not timeline.exists()


# ---- outputs that could not all be written are refused before the run ----


@pytest.mark.parametrize(
    ("outputs", "problem"),
    [
        ({"--timeline": "t.csv", "--jobs": "t.csv"}, "both write"),
        ({"--timeline": "-", "--jobs": "-"}, "both write to stdout"),
        ({"--timeline": "-", "--trace": "-"}, "both write to stdout"),
        ({"--timeline": ""}, "--timeline: empty file name"),
        ({"--jobs": ""}, "--jobs: empty file name"),
        ({"--gantt": "-"}, "not to stdout"),
        ({"--timeline": "t.csv", "--gantt": "missing/g.png"}, "does not exist"),
        ({"--jobs": "j.csv", "--trace": "."}, "is a directory"),
        ({"--timeline": "t.csv", "--gantt": "g.svg"}, "must be a .png or .html"),
    ],
)
def test_bad_output_sets_exit_2_and_write_nothing(
    takt_cli: list[str], tmp_path: Path, outputs: dict[str, str], problem: str
) -> None:
    args: list[str] = []
    for flag, target in outputs.items():
        args += [flag, target]
    done = takt(takt_cli, "run", EXAMPLE, "--quiet", *args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert problem in done.stderr
    assert done.stdout == ""
    assert list(tmp_path.iterdir()) == []  # nothing written, not even the valid outputs


def test_outputs_replace_files_only_when_all_are_written(
    takt_cli: list[str], tmp_path: Path
) -> None:
    """A failure while writing leaves the previous files and no temporaries."""
    timeline = tmp_path / "timeline.csv"
    timeline.write_text("previous\n")
    blocked = tmp_path / "trace.json"
    blocked.mkdir()  # refused up front: a directory
    done = takt(takt_cli, "run", EXAMPLE, "--timeline", timeline, "--trace", blocked)
    assert done.returncode == 2
    assert timeline.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["timeline.csv", "trace.json"]
    done = takt(takt_cli, "run", EXAMPLE, "--quiet", "--timeline", timeline)
    assert done.returncode == 0, done.stderr
    assert timeline.read_text() == EXPECTED_TIMELINE
    assert sorted(p.name for p in tmp_path.iterdir()) == ["timeline.csv", "trace.json"]


def test_outputs_get_the_permissions_a_plain_write_gives(
    takt_cli: list[str], tmp_path: Path
) -> None:
    """New outputs follow the umask (not the temporary's private 0600); an
    overwritten one keeps its own mode."""
    kept = tmp_path / "jobs.csv"
    kept.write_text("previous\n")
    kept.chmod(0o640)
    timeline, chart = tmp_path / "timeline.csv", tmp_path / "chart.html"
    for umask in (0o022, 0o077):
        done = subprocess.run(
            ["sh", "-c", f'umask {umask:o}; exec "$@"', "sh", *takt_cli, "run", str(EXAMPLE),
             "--quiet", "--timeline", str(timeline), "--jobs", str(kept), "--gantt", str(chart)],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        for new in (timeline, chart):
            assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~umask, (new, umask)
            new.unlink()
        assert stat.S_IMODE(kept.stat().st_mode) == 0o640
        assert kept.read_text().startswith(JOBS_HEADER)


def test_outputs_write_through_links_and_into_fifos(takt_cli: list[str], tmp_path: Path) -> None:
    """As a plain write: a symbolic link still points where it did and its file
    has the output; a FIFO stays a FIFO and its reader gets the output."""
    real = tmp_path / "real.csv"
    real.write_text("previous\n")
    link = tmp_path / "link.csv"
    link.symlink_to(real.name)
    fifo = tmp_path / "jobs.fifo"
    os.mkfifo(fifo)
    read: list[str] = []
    # A daemon: were the FIFO replaced, its reader would wait for ever.
    reader = threading.Thread(target=lambda: read.append(fifo.read_text()), daemon=True)
    reader.start()
    done = takt(takt_cli, "run", EXAMPLE, "--quiet", "--timeline", link, "--jobs", fifo)
    reader.join(timeout=30)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == real.name
    assert real.read_text() == EXPECTED_TIMELINE
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert read and read[0].startswith(JOBS_HEADER)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jobs.fifo", "link.csv", "real.csv"]


def test_an_output_may_not_overwrite_the_scenario(takt_cli: list[str], tmp_path: Path) -> None:
    scenario = tmp_path / "s.toml"
    scenario.write_text(EXAMPLE.read_text())
    done = takt(takt_cli, "run", scenario, "--timeline", scenario)
    assert done.returncode == 2
    assert "is the scenario file" in done.stderr
    assert scenario.read_text() == EXAMPLE.read_text()


def test_an_output_name_as_long_as_a_name_can_be(takt_cli: list[str], tmp_path: Path) -> None:
    timeline = tmp_path / ("t" * 251 + ".csv")
    done = takt(takt_cli, "run", EXAMPLE, "--quiet", "--timeline", timeline)
    assert done.returncode == 0, done.stderr
    assert timeline.read_text() == EXPECTED_TIMELINE


@pytest.mark.parametrize("value", ["-1", "0x100000000", "18446744073709551616", "ten"])
def test_tick_start_out_of_range_is_a_usage_error(takt_cli: list[str], value: str) -> None:
    done = takt(takt_cli, "run", EXAMPLE, "--tick-start", value)
    assert done.returncode == 2
    assert "--tick-start" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["sim", "--tasks", "0"], "--tasks: 0 is outside 1..255"),
        (["sim", "--tasks", "300"], "--tasks: 300 is outside 1..255"),
        (["sim", "--ticks", "0"], "--ticks: 0 is outside"),
        (["sim", "--ticks", "4294967296"], "--ticks: 4294967296 is outside"),
        (["hsf", "--servers", "-1"], "--servers: -1 is outside 1..256"),
        (["hsf", "--servers", "100000"], "--servers: 100000 is outside 1..256"),
        (["suite", "--policies", ""], "--policies: name at least one"),
        (["hwds", "--policies", ""], "--policies: name at least one"),
        (["sim", "--seed", "-2"], "--seed: -2 is outside 0.."),
        (["suite", "--policies", ","], "--policies: name at least one"),
        (["suite", "--policies", "fp,,edf-heap"], "--policies: an empty name in the list"),
        (["suite", "--policies", "fp,"], "--policies: an empty name in the list"),
        (["suite", "--policies", "fp,nope"], "--policies nope: choose from fp, edf-heap"),
        (["suite", "--policies", "fp,hsf,fp"], "--policies: each at most once"),
        (["hwds", "--policies", "rm,fp"], "--policies fp: choose from rm, edf, edf-mlist"),
        (["hwds", "--policies", "rm,rm"], "--policies: each at most once"),
        (["hwds", "--task-counts", "256"], "--task-counts: 256 is outside 1..255"),
        (["hwds", "--utilizations", "0"], "--utilizations"),
        (["hwds", "--task-counts", "2", "--utilizations", "3"], "utilisation 3: in (0, 2]"),
        (["hwds", "--icount-shift", "4"], "--icount-shift: 4 is outside 5..8"),
        (["hwds", "--sw-timers", "tree"], "--sw-timers: invalid choice"),
    ],
)
def test_bench_arguments_are_checked(takt_cli: list[str], args: list[str], problem: str) -> None:
    done = takt(takt_cli, "bench", *args)
    assert done.returncode == 2
    assert problem in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["target", "--policies", "x"], "--policies: only with takt bench suite or hwds"),
        (["queues", "--servers", "3"], "--servers: only with takt bench hsf"),
        (["hsf", "--freertos"], "--freertos: only with takt bench suite"),
        (
            ["sim", "--out", "x"],
            "--out: only with takt bench queues or hsf or suite or target or hwds",
        ),
        (["suite", "--tasks", "3"], "--tasks: only with takt bench sim"),
        (["suite", "--sets", "3"], "--sets: only with takt bench hwds"),
        (["target", "--icount-shift", "6"], "--icount-shift: only with takt bench hwds"),
        (["hwds", "--tasks", "3"], "--tasks: only with takt bench sim"),
        (["hwds", "--freertos"], "--freertos: only with takt bench suite"),
    ],
)
def test_bench_refuses_the_options_of_other_benches(
    takt_cli: list[str], tmp_path: Path, args: list[str], problem: str
) -> None:
    done = takt(takt_cli, "bench", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert problem in done.stderr
    assert done.stdout == "" and list(tmp_path.iterdir()) == []


def test_integer_bounds_read_in_decimal(takt_cli: list[str]) -> None:
    done = takt(takt_cli, "run", EXAMPLE, "--tick-start", "-1")
    assert "-1 is outside 0..4294967295 (0xffffffff)" in done.stderr
    done = takt(takt_cli, "bench", "sim", "--tasks", "300")
    assert "300 is outside 1..255\n" in done.stderr


def test_analysis_that_would_run_for_hours_is_inconclusive(
    takt_cli: list[str], tmp_path: Path
) -> None:
    """Busy periods of ~2^31 ticks beside a 2-tick period: each test stops at its
    step budget with a verdict that says why, in well under a minute."""
    huge = (
        '[[task]]\nname = "H1"\npriority = 3\nperiod = 2147483646\nwcet = 536870911\n'
        '[[task]]\nname = "H2"\npriority = 2\nperiod = 2147483629\nwcet = 536870907\n'
        '[[task]]\nname = "L"\npriority = 1\nperiod = 2\nwcet = 1\n'
    )
    for system, test in [
        ('policy = "edf"', "qpa"),
        ('policy = "fp"', "rta"),
        ('policy = "fp"\npreemption = "none"', "fpns_wcrt"),
        ('policy = "fp"\npreemption = "deferred"', "fpds_wcrt"),
    ]:
        path = tmp_path / "huge.toml"
        body = re.sub(r"priority = \d\n", "", huge) if "edf" in system else huge
        path.write_text(f"[system]\n{system}\n{body}")
        done = takt(takt_cli, "analyze", path)
        assert done.returncode == 0, done.stderr
        line = next(x for x in done.stdout.splitlines() if x.strip().startswith(test))
        assert "inconclusive" in line and "steps" in line, done.stdout
        # U's exact fraction here has 38 digits: the side of 1 is shown instead
        header = done.stdout.splitlines()[1]
        assert header.endswith("utilization U = 1.0000 (below 1 by 3.5e-10)"), done.stdout


def test_more_tasks_than_the_runner_takes_are_refused(takt_cli: list[str], tmp_path: Path) -> None:
    tasks = "".join(
        f'[[task]]\nname = "t{i}"\npriority = 1\nperiod = 10\nwcet = 1\n' for i in range(1001)
    )
    path = tmp_path / "many.toml"
    path.write_text(tasks)
    done = takt(takt_cli, "run", path)
    assert done.returncode == 1
    assert "1001 tasks: the runner takes at most 1000" in done.stderr
    assert "scenario.in" not in done.stderr  # not the runner's temporary input


def test_list_ready_queue_runs_the_hand_checked_timeline(
    takt_cli: list[str], tmp_path: Path
) -> None:
    """`ready_queue = "list"` (fp over one list) is a data structure, not a policy:
    the example's hand-checked timeline, and the summary names the queue."""
    text = EXAMPLE.read_text(encoding="utf-8")
    assert 'policy = "fp"' in text and "ready_queue" not in text
    listed = tmp_path / "three_tasks_list.toml"
    listed.write_text(text.replace('policy = "fp"', 'policy = "fp"\nready_queue = "list"'))
    done = takt(takt_cli, "run", listed, "--timeline", "-", "--no-progress")
    assert done.returncode == 0, done.stderr
    assert done.stdout == EXPECTED_TIMELINE
    assert "policy fp (list ready queue)" in done.stderr
