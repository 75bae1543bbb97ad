"""Running a scenario on the kernel's sim port (or an emulated Cortex-M).

The C runner (apps/runner) executes the real kernel in virtual time; this
module compiles a validated :class:`Scenario` into the runner's input, runs
it, and turns the trace it writes into a :class:`RunResult`. Ports
``qemu-m3`` and ``qemu-m4`` run the runner's target build under QEMU
(:mod:`takt.target`).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from takt import target as targetmod
from takt import trace as tracemod
from takt.model import HwpqCounts, RunResult, RunUsage, Scenario, WorkMode
from takt.scenario import name_problem

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BUILD_DIR = REPO_ROOT / "build"
# The runner; the others (targetmod.runner_name) are built beside it.
RUNNER_RELATIVE = Path("apps/runner/takt-runner")
# Where the kernel keeps its timers: the runners' heap, a sorted list (the
# HWDS study's RTEMS timer chain), or the hardware priority queue's second unit
# (the sim's model, the boards' emulation). Each but the heap has a runner of its
# own, takt-runner-timers-<queue>, which $TAKT_RUNNER_TIMERS_<QUEUE> overrides.
TIMER_QUEUES = ("heap", "list", "hwpq")
# The runners with their timers on the device are built for 256 tasks, the idle
# task's among them: the device's 1024 entries hold 3 timers a task and 1 a
# server (apps/runner/takt_config.h).
TIMERS_HWPQ_MAX_TASKS = 255

ProgressCallback = Callable[[float], None]
RUNNER_MAX_SERVERS = 256  # TAKT_CONFIG_MAX_SERVERS in apps/runner/takt_config.h
RUNNER_MAX_TASKS = 1000  # RUNNER_MAX_TASKS in apps/runner/scenario_input.h
# What a run's result holds per released job, at its peak: its job-table row,
# its timeline rows and its packed trace records. Measured 200 to 250 bytes on
# sets from 2 to 50 tasks (docs/results/run_memory.txt); twice that leaves room
# for busier sets.
RESULT_BYTES_PER_JOB = 512
# Servers and round-robin can switch at every tick however few jobs run: their
# runs also count every tick (a hierarchy whose two servers alternate each tick
# decodes at about 430 bytes a tick).
RESULT_BYTES_PER_SWITCHING_TICK = 512


class RunError(RuntimeError):
    """The scenario could not be run (unsupported feature, missing runner, runner failure)."""


# (policy, ready_queue) -> the runner's scheduler name (takt_scheduler_t).
SCHEDULERS = {
    ("fp", "bitmap"): "fp",
    ("fp", "list"): "fp-list",
    ("fp", "hwpq"): "fp-hwpq",
    ("edf", "heap"): "edf-heap",
    ("edf", "mlist"): "edf-mlist",
    ("edf", "rbtree"): "edf-rbtree",
    ("edf", "hwpq"): "edf-hwpq",
    ("hsf", "bitmap"): "hsf",
}


PORTS = ("sim", *targetmod.BOARDS)
WORK_MODES: tuple[WorkMode, ...] = ("ticks", "exact")
# Exact work's calibration times 2M instructions with the 24-bit SysTick at
# 25 MHz: 2**8 ns an instruction is the slowest that fits.
MAX_ICOUNT_SHIFT = 8


def unsupported_reason(scenario: Scenario) -> str | None:
    """Why the scenario's port cannot run this scenario yet, or None if it can."""
    system = scenario.system
    if system.policy not in ("fp", "edf", "hsf"):
        return f'policy "{system.policy}" is not implemented in the kernel yet (fp, edf, hsf)'
    if system.policy == "hsf" and system.preemption != "full":
        return (
            f'preemption "{system.preemption}" is not implemented for policy "hsf" yet '
            '(the local level is fully preemptive: "full")'
        )
    if len(scenario.tasks) > RUNNER_MAX_TASKS:
        return (
            f"{len(scenario.tasks)} tasks: the runner takes at most {RUNNER_MAX_TASKS} "
            "(RUNNER_MAX_TASKS in apps/runner/scenario_input.h)"
        )
    if len(scenario.servers) > RUNNER_MAX_SERVERS:
        return (
            f"{len(scenario.servers)} servers: the runner takes at most {RUNNER_MAX_SERVERS} "
            "(TAKT_CONFIG_MAX_SERVERS in apps/runner/takt_config.h)"
        )
    if scenario.hsf is not None and scenario.hsf.global_policy != "fp":
        return (
            f'[hsf] global = "{scenario.hsf.global_policy}" is not implemented in the kernel '
            'yet (only "fp")'
        )
    if (system.policy, system.ready_queue) not in SCHEDULERS:
        return (
            f'ready_queue "{system.ready_queue}" is not implemented for {system.policy} yet '
            f"(available: {', '.join(q for p, q in SCHEDULERS if p == system.policy)})"
        )
    if system.port not in PORTS:
        return f'port "{system.port}" is not available ({", ".join(PORTS)})'
    if system.port != "sim":
        return targetmod.tick_problem(system.port, system.tick_hz)
    return None


# With exact work the emulated device's accesses hide up to one SysTick count
# (40 ns) of the kernel's time each (port/armv7m/hwpq_emulated.c): at this shift
# a count is 1.25 instructions, below it more.
MIN_DEVICE_ICOUNT_SHIFT = 5


def device_measure_problem(
    scenario: Scenario, timer_queue: str, work: WorkMode, icount_shift: int
) -> str | None:
    """Why a board cannot measure the kernel's time of a run on the emulated
    hardware priority queue at this instruction time, or None."""
    on_device = scenario.system.ready_queue == "hwpq" or timer_queue == "hwpq"
    if not on_device or scenario.system.port == "sim" or work != "exact":
        return None
    if icount_shift >= MIN_DEVICE_ICOUNT_SHIFT:
        return None
    hidden = 40 / 2**icount_shift
    return (
        f"with exact work the boards' emulated hardware priority queue hides up to one "
        f"SysTick count (40 ns, {hidden:g} instructions at icount shift {icount_shift}) of "
        f"the kernel's time at each access: use icount shift {MIN_DEVICE_ICOUNT_SHIFT} or more"
    )


def timer_queue_problem(scenario: Scenario, timer_queue: str) -> str | None:
    """Why the scenario cannot run with its timers in ``timer_queue``, or None."""
    if timer_queue not in TIMER_QUEUES:
        return f'timer queue "{timer_queue}": choose from {", ".join(TIMER_QUEUES)}'
    if timer_queue == "heap":
        return None
    if scenario.system.tickless:
        return f'timer queue "{timer_queue}" has no tickless runner: run it without tickless'
    if timer_queue == "hwpq" and len(scenario.tasks) > TIMERS_HWPQ_MAX_TASKS:
        return (
            f'{len(scenario.tasks)} tasks: with timer queue "hwpq" the runner takes at most '
            f"{TIMERS_HWPQ_MAX_TASKS} (the device's 1024 entries hold 3 timers a task and 1 "
            "a server)"
        )
    return None


def released_jobs(scenario: Scenario) -> int:
    """How many jobs the scenario releases in [0, duration)."""
    duration = scenario.system.duration
    return sum(-(-(duration - t.offset) // t.period) for t in scenario.tasks if t.offset < duration)


def available_memory() -> int | None:
    """The memory the system can still give (MemAvailable), in bytes; None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                key, _, value = line.partition(":")
                if key == "MemAvailable":
                    return int(value.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def memory_problem(scenario: Scenario, available: int | None) -> str | None:
    """Why the run's result would not fit in memory, or None.

    A run keeps its whole job table, timeline and trace until its reports are
    written; refusing up front beats being killed by the system part-way.
    """
    if available is None:
        return None
    jobs = released_jobs(scenario)
    switching = bool(scenario.servers) or scenario.system.round_robin
    ticks = scenario.system.duration if switching else 0
    need = jobs * RESULT_BYTES_PER_JOB + ticks * RESULT_BYTES_PER_SWITCHING_TICK
    if need <= available:
        return None
    gib = 1024**3
    per_tick = (
        f", and {RESULT_BYTES_PER_SWITCHING_TICK} a tick for its "
        f"{'servers' if scenario.servers else 'round-robin'}, which may switch at every one"
        if ticks
        else ""
    )
    return (
        f"the run releases about {jobs:,} jobs, and its result (job table, timeline and "
        f"trace, about {RESULT_BYTES_PER_JOB} bytes a job{per_tick}) would need about "
        f"{need / gib:.1f} GiB; {available / gib:.1f} GiB of memory is available. "
        "Shorten [system] duration."
    )


def compile_input(scenario: Scenario, tick_start: int = 0) -> str:
    """The runner's line format (apps/runner/scenario_input.h)."""
    system = scenario.system
    scheduler = SCHEDULERS.get((system.policy, system.ready_queue), "fp")
    lines = [
        "takt-scenario 1",
        f"system {system.tick_hz} {system.duration} {int(system.round_robin)} {tick_start} "
        f"{scheduler} {system.preemption}",
    ]
    hierarchical = system.policy == "hsf"
    server_index = {server.name: index for index, server in enumerate(scenario.servers)}
    if hierarchical:
        for server in scenario.servers:
            _check_name("server", server.name)
            lines.append(
                f"server {server.priority} {server.period} {server.budget} {server.offset} "
                f"{server.server_type} {server.name}"
            )
    for task in scenario.tasks:
        # EDF ignores priorities
        priority = task.priority if system.policy in ("fp", "hsf") else 1
        if priority is None:
            raise RunError(f"task {task.name} has no priority")
        _check_name("task", task.name)
        lines.append(
            f"task {priority} {task.period} {task.wcet} {task.deadline} {task.offset} {task.name}"
        )
        if hierarchical:
            if task.server not in server_index:
                raise RunError(f"task {task.name} has no server")
            lines.append(f"server-of {server_index[task.server]}")
        if task.segments:
            lines.append("segments " + " ".join(str(c) for c in task.segments))
    return "\n".join(lines) + "\n"


def _check_name(kind: str, name: str) -> None:
    """For scenarios built in code: a parsed scenario has been held to the same rule."""
    problem = name_problem(kind, name)
    if problem is not None:
        raise RunError(problem)


def runner_variable(name: str) -> str:
    """The environment variable that names the program to run instead of the built
    runner ``name`` (TAKT_RUNNER for takt-runner, TAKT_RUNNER_TICKLESS, ...)."""
    return name.upper().replace("-", "_")


def runner_path(
    build_dir: Path | None = None, *, tickless: bool = False, timer_queue: str = "heap"
) -> Path:
    """The runner binary (targetmod.runner_name), else built under build_dir (built
    now if missing). The environment variable of its name overrides it:
    $TAKT_RUNNER, $TAKT_RUNNER_TICKLESS, $TAKT_RUNNER_TIMERS_<QUEUE>."""
    name = targetmod.runner_name(tickless=tickless, timer_queue=timer_queue)
    override = os.environ.get(runner_variable(name))
    if override:
        return Path(override)
    build = build_dir or Path(os.environ.get("TAKT_BUILD_DIR", DEFAULT_BUILD_DIR))
    binary = build / RUNNER_RELATIVE.with_name(name)
    if not binary.exists():
        build_target(build, binary.name)
    return binary


def build_target(build_dir: Path, target: str) -> None:
    """Configures build_dir (release flags, no tests) and builds one target."""
    cmake = shutil.which("cmake")
    if cmake is None:
        raise RunError("the runner is not built and cmake is not installed (run ./setup)")
    configure = [cmake, "-S", str(REPO_ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release"]
    if shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    configure.append("-DTAKT_BUILD_TESTS=OFF")
    for cmd in (configure, [cmake, "--build", str(build_dir), "--target", target]):
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RunError(f"building the runner failed:\n{done.stdout}{done.stderr}")


def run_scenario(
    scenario: Scenario,
    *,
    tick_start: int = 0,
    progress: ProgressCallback | None = None,
    build_dir: Path | None = None,
    port: str | None = None,
    work: WorkMode = "ticks",
    icount_shift: int = targetmod.ICOUNT_SHIFT,
    timer_queue: str = "heap",
) -> RunResult:
    """Runs the scenario on its port (or `port`); timeline and job table come from the trace.

    On a board, ``work`` says how a task's work is modelled ("exact": the wcet's
    instructions with the kernel's time on top, and the result says where the time
    went) and ``icount_shift`` how long an instruction takes (2**shift ns).
    ``timer_queue`` is where the kernel keeps its timers (TIMER_QUEUES)."""
    if port is not None:
        scenario = dataclasses.replace(
            scenario, system=dataclasses.replace(scenario.system, port=port)
        )
    reason = (
        unsupported_reason(scenario)
        or platform_problem(scenario.system.port, work, icount_shift, scenario.system.tickless)
        or timer_queue_problem(scenario, timer_queue)
        or device_measure_problem(scenario, timer_queue, work, icount_shift)
        or memory_problem(scenario, available_memory())
    )
    if reason is not None:
        raise RunError(f"{scenario.source}: {reason}")
    on_target = scenario.system.port != "sim"
    try:
        tickless = scenario.system.tickless
        binary = (
            targetmod.runner_elf(scenario.system.port, tickless=tickless, timer_queue=timer_queue)
            if on_target
            else runner_path(build_dir, tickless=tickless, timer_queue=timer_queue)
        )
    except targetmod.TargetError as err:
        raise RunError(str(err)) from None
    with tempfile.TemporaryDirectory(prefix="takt-run-") as tmp:
        input_path = Path(tmp) / "scenario.in"
        trace_path = Path(tmp) / "trace.bin"
        input_path.write_text(compile_input(scenario, tick_start))
        cmd = [str(binary), "-o", str(trace_path), str(input_path)]
        if work != "ticks":
            cmd[1:1] = ["--work", work]
        if on_target:
            try:
                cmd = targetmod.qemu_command(
                    scenario.system.port, binary, cmd[1:], shift=icount_shift
                )
            except targetmod.TargetError as err:
                raise RunError(str(err)) from None
        elif progress is not None:
            cmd.insert(1, "--progress")
        started = time.perf_counter()
        stats, errors = run_runner(cmd, progress)
        wall = time.perf_counter() - started
        if errors:
            raise RunError(f"{scenario.source}: the runner failed:\n" + "\n".join(errors))
        trace = tracemod.decode(trace_path.read_bytes())
    lost = trace.lost_events
    if int(stats.get("lost", "0")) != lost:
        raise RunError("the trace's overflow records disagree with the runner's lost count")
    return RunResult(
        scenario=scenario,
        timeline=tracemod.timeline(trace, scenario.system.duration),
        jobs=tracemod.jobs(trace, scenario),
        events=tracemod.TraceEvents(trace),
        budgets=tracemod.budgets(trace, scenario),
        context_switches=int(stats.get("context_switches", "0")),
        trace_overflows=lost,
        wall_seconds=float(stats.get("wall_s", wall)),
        usage=_usage(stats, scenario),
        tick_interrupts=int(stats.get("interrupts", "0")),
        hwpq=_hwpq_counts(stats, "hwpq_"),
        timer_hwpq=_hwpq_counts(stats, "timer_hwpq_"),
    )


def _hwpq_counts(stats: dict[str, str], prefix: str) -> HwpqCounts | None:
    """A unit's counts from the runner's stats (fields prefix + name), if it used it."""
    if prefix + "inserts" not in stats:
        return None
    return HwpqCounts(
        **{
            name: int(stats[prefix + name])
            for name in ("inserts", "removes", "pops", "reads", "writes")
        }
    )


def _usage(stats: dict[str, str], scenario: Scenario) -> RunUsage | None:
    if "work_ns" not in stats:
        return None
    tick_ns = 1_000_000_000 // scenario.system.tick_hz
    ticks_lost = int(stats.get("ticks_lost", "0"))
    return RunUsage(
        elapsed_ns=(scenario.system.duration + ticks_lost) * tick_ns,
        idle_ns=int(stats["idle_ns"]),
        work_ns=int(stats["work_ns"]),
        drain_ns=int(stats["drain_ns"]),
        drains=int(stats.get("drains", "0")),
        ticks_lost=ticks_lost,
    )


def platform_problem(
    port: str, work: WorkMode, icount_shift: int, tickless: bool = False
) -> str | None:
    """Why the port cannot run with this work model and instruction time (and
    tickless idle), or None."""
    if work not in WORK_MODES:
        return f'work "{work}": choose from {", ".join(WORK_MODES)}'
    if tickless and work != "ticks":
        return (
            'work "exact" reports the idle loop\'s time, which a tickless kernel does not '
            "account: run it without tickless, or with whole-tick work"
        )
    if port == "sim":
        if work != "ticks":
            return (
                'work "exact" needs a board (qemu-m3, qemu-m4): on the sim the kernel '
                "takes no time, so exact work is the ticks' work"
            )
        if icount_shift != targetmod.ICOUNT_SHIFT:
            return "an instruction time (icount shift) is for a board, not the sim"
    if not 0 <= icount_shift <= MAX_ICOUNT_SHIFT:
        return f"icount shift {icount_shift}: 0..{MAX_ICOUNT_SHIFT}"
    return None


def run_runner(
    cmd: list[str], progress: ProgressCallback | None
) -> tuple[dict[str, str], list[str]]:
    """Runs the runner, forwarding progress; returns its stats and any error lines."""
    stats: dict[str, str] = {}
    errors: list[str] = []
    with subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True) as proc:
        assert proc.stderr is not None
        for line in proc.stderr:
            line = line.rstrip("\n")
            if line.startswith("progress "):
                if progress is not None:
                    progress(float(line.split()[1]))
            elif line.startswith("takt-stats "):
                stats = dict(field.split("=", 1) for field in line.split()[1:])
            elif line:
                errors.append(line)
        returncode = proc.wait()
    if returncode != 0 and not errors:
        errors.append(f"exit status {returncode}")
    return stats, errors
