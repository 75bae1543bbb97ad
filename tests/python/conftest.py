"""Shared fixtures and helpers for the kernel-level Python tests.

* ``runner`` (session fixture): makes sure the sim runner binary exists, building it
  with CMake if it is missing, and returns its path (a per-session copy, see the
  fixture). Tests that execute the kernel
  depend on it (directly or through ``pytestmark = pytest.mark.usefixtures("runner")``).
* :class:`T` and :func:`make_scenario`: build a validated :class:`~takt.model.Scenario`
  from task tuples by generating scenario TOML and running it through
  :func:`takt.scenario.parse_scenario`, so the tests exercise the same path as files.

Import the helpers with ``from conftest import T, make_scenario`` (pytest puts this
directory on ``sys.path``).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from takt.model import RunResult, Scenario
from takt.scenario import parse_scenario
from takt.sim import (
    DEFAULT_BUILD_DIR,
    REPO_ROOT,
    RUNNER_RELATIVE,
    build_target,
    run_scenario,
    runner_variable,
)
from takt.target import runner_name

VENV_BIN = REPO_ROOT / ".venv" / "bin"


class T(NamedTuple):
    """A task as a tuple: ``T(period, wcet, priority, deadline, offset)``.

    ``priority=None`` leaves the key out (for ``priority = "rm"``/``"dm"``);
    ``deadline=None`` leaves it out (defaults to the period).
    """

    period: int
    wcet: int
    priority: int | None = None
    deadline: int | None = None
    offset: int = 0


def task_name(index: int) -> str:
    """The name :func:`scenario_toml` gives the task at ``index`` (definition order)."""
    return f"T{index + 1}"


def scenario_toml(
    tasks: Sequence[T | tuple[int, ...]],
    duration: int,
    *,
    priority: str = "explicit",
    policy: str = "fp",
    tick_hz: int = 1000,
    names: Sequence[str] | None = None,
) -> str:
    """Scenario TOML for ``tasks`` (named T1, T2, ... unless ``names`` is given)."""
    lines = [
        "[system]",
        f'policy = "{policy}"',
        'preemption = "full"',
        f"tick_hz = {tick_hz}",
        f"duration = {duration}",
    ]
    if priority != "explicit":
        lines.append(f'priority = "{priority}"')
    for index, raw in enumerate(tasks):
        spec = raw if isinstance(raw, T) else T(*raw)
        name = names[index] if names is not None else task_name(index)
        lines += ["", "[[task]]", f'name = "{name}"', f"period = {spec.period}"]
        lines.append(f"wcet = {spec.wcet}")
        if spec.priority is not None:
            lines.append(f"priority = {spec.priority}")
        if spec.deadline is not None:
            lines.append(f"deadline = {spec.deadline}")
        if spec.offset:
            lines.append(f"offset = {spec.offset}")
    return "\n".join(lines) + "\n"


def make_scenario(
    tasks: Sequence[T | tuple[int, ...]],
    duration: int,
    *,
    priority: str = "explicit",
    policy: str = "fp",
    tick_hz: int = 1000,
    names: Sequence[str] | None = None,
    source: str = "<generated>",
) -> Scenario:
    """A validated Scenario for ``tasks``, via generated TOML and ``parse_scenario``."""
    text = scenario_toml(
        tasks, duration, priority=priority, policy=policy, tick_hz=tick_hz, names=names
    )
    return parse_scenario(text, source)


def _runner_binary() -> Path:
    override = os.environ.get("TAKT_RUNNER")
    if override:
        return Path(override)
    build = Path(os.environ.get("TAKT_BUILD_DIR", DEFAULT_BUILD_DIR))
    return build / RUNNER_RELATIVE


def _build_runner(binary: Path) -> None:
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.fail("the runner is not built and cmake is not installed")
    build = Path(os.environ.get("TAKT_BUILD_DIR", DEFAULT_BUILD_DIR))
    configure = [cmake, "-S", str(REPO_ROOT), "-B", str(build), "-DTAKT_BUILD_TESTS=OFF"]
    if shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    for cmd in (configure, [cmake, "--build", str(build), "--target", "takt-runner"]):
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO_ROOT)
        if done.returncode != 0:
            pytest.fail(
                f"building the runner failed ({' '.join(cmd)}):\n{done.stdout}{done.stderr}"
            )
    if not binary.exists():
        pytest.fail(f"the build did not produce {binary}")


def _runner_works(binary: Path) -> bool:
    """Runs a one-task scenario; False if the binary is missing, partial or broken."""
    text = "takt-scenario 1\nsystem 1000 5 0 0\ntask 1 5 1 5 0 probe\n"
    try:
        done = subprocess.run(
            [str(binary), "-"], input=text.encode(), capture_output=True, timeout=30
        )
    except OSError:
        return False
    return done.returncode == 0 and done.stdout.startswith(b"takt-trace 1\n")


@pytest.fixture(scope="session")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The sim runner binary, built first if it is missing.

    Unless $TAKT_RUNNER names one, the built binary is copied for the session and
    $TAKT_RUNNER points at the copy (for run_scenario and for CLI subprocesses), so
    that someone rebuilding the shared build directory mid-session cannot make a run
    fail or mix two kernels in one test session.
    """
    binary = _runner_binary()
    if os.environ.get("TAKT_RUNNER"):
        yield binary
        return
    if not binary.exists():
        _build_runner(binary)
    snapshot = tmp_path_factory.mktemp("runner") / binary.name
    for _attempt in range(10):
        shutil.copy2(binary, snapshot)
        if _runner_works(snapshot):
            break
        time.sleep(1.0)  # probably being rebuilt right now
    else:
        pytest.fail(f"the runner {binary} does not run a trivial scenario")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TAKT_RUNNER", str(snapshot))
        yield snapshot


def _session_runner(
    tmp_path_factory: pytest.TempPathFactory, patch: pytest.MonkeyPatch, name: str
) -> Path:
    """Runner program ``name`` for the session, as ``runner`` is: the one its variable
    (runner_variable) names, else the build's, built first if missing and copied, the
    variable then pointing at the copy."""
    variable = runner_variable(name)
    override = os.environ.get(variable)
    if override:
        return Path(override)
    build = Path(os.environ.get("TAKT_BUILD_DIR", DEFAULT_BUILD_DIR))
    binary = build / RUNNER_RELATIVE.with_name(name)
    if not binary.exists():
        build_target(build, binary.name)
    snapshot = tmp_path_factory.mktemp(name) / binary.name
    shutil.copy2(binary, snapshot)
    if not _runner_works(snapshot):
        pytest.fail(f"the runner {binary} does not run a trivial scenario")
    patch.setenv(variable, str(snapshot))
    return snapshot


@pytest.fixture(scope="session")
def tickless_runner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The sim runner on the tickless kernel (takt-runner-tickless), for the session
    (_session_runner: $TAKT_RUNNER_TICKLESS)."""
    with pytest.MonkeyPatch.context() as patch:
        yield _session_runner(tmp_path_factory, patch, runner_name(tickless=True))


@pytest.fixture(scope="session")
def timer_queue_runners(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """The sim runners with their timers in a sorted list and on the hardware queue
    (takt-runner-timers-list, -hwpq), for the session (_session_runner:
    $TAKT_RUNNER_TIMERS_LIST and _HWPQ)."""
    with pytest.MonkeyPatch.context() as patch:
        yield {
            queue: _session_runner(tmp_path_factory, patch, runner_name(timer_queue=queue))
            for queue in ("list", "hwpq")
        }


@pytest.fixture(scope="session")
def takt_cli() -> list[str]:
    """The command that starts the CLI: the venv's console script, else ``python -m``."""
    script = VENV_BIN / "takt"
    if script.exists():
        return [str(script)]
    python = VENV_BIN / "python"
    return [str(python if python.exists() else shutil.which("python3")), "-m", "takt.cli"]


def run_with_first_jobs_missed(
    scenario: Scenario, port: str | None = None, **board: Any
) -> RunResult:
    """A real run, altered so that every task's first job missed: a run that contradicts
    any proof (a correct kernel never gives one). ``board``: run_scenario's board options."""
    result = run_scenario(scenario, port=port, **board)
    jobs = [dataclasses.replace(j, missed=j.job == 0) for j in result.jobs]
    return dataclasses.replace(result, jobs=jobs)
