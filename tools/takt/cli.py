"""The ``takt`` command line: generate, run, analyse and check scenarios.

Exit status: 0 when the command completed (deadline misses are results, not
errors); 2 for an invalid scenario or bad usage; 1 when a run could not be
carried out; 3 when ``takt check`` found a run that contradicts the analysis.
Outputs sent to stdout (``-``) own stdout; the summary and progress then go to
stderr.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import os
import signal
import stat
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, TypeVar

from takt.analysis import analyze_scenario, render_text, utilization
from takt.bench_hwds import FAMILIES as HWDS_FAMILIES
from takt.bench_hwds import SW_TIMER_QUEUES as HWDS_SW_TIMER_QUEUES
from takt.bench_hwds import HwdsOptions
from takt.bench_suite import POLICIES as SUITE_POLICIES
from takt.bench_suite import SuiteError
from takt.check import check_run, render_check, render_check_line
from takt.generator import (
    DEFAULT_PERIODS,
    MAX_UTILIZATION_DRAWS,
    GenerateError,
    GenerateOptions,
    PeriodRange,
    Periods,
    generate_scenario,
    max_tasks,
)
from takt.model import RunResult, Scenario
from takt.report import (
    render_summary,
    write_chrome_trace,
    write_gantt,
    write_jobs,
    write_timeline,
)
from takt.scenario import (
    MAX_DEADLINE,
    MAX_SEGMENTS,
    MAX_TICK_HZ,
    MAX_TICKS,
    PRIORITY_MAX,
    ScenarioError,
    load_scenario,
)
from takt.scenario_toml import scenario_toml
from takt.sim import (
    MAX_ICOUNT_SHIFT,
    MIN_DEVICE_ICOUNT_SHIFT,
    PORTS,
    REPO_ROOT,
    RUNNER_MAX_TASKS,
    TIMER_QUEUES,
    TIMERS_HWPQ_MAX_TASKS,
    WORK_MODES,
    RunError,
    device_measure_problem,
    platform_problem,
    run_scenario,
    timer_queue_problem,
)
from takt.staged import naming, staged_outputs
from takt.sweep import (
    DEFAULT_SEGMENTS,
    SWEEP_OUTPUT_NAMES,
    SWEEP_POLICIES,
    SweepOptions,
    check_policies,
    check_policy_names,
    check_task_counts,
    render_sweep_table,
    run_sweep,
    summarize_sweep,
    write_sweep_outputs,
)
from takt.target import BOARDS, ICOUNT_SHIFT, TargetError

_Item = TypeVar("_Item")

MAX_BENCH_SERVERS = 256  # takt-bench-hsf-tick's largest configuration
MAX_GENERATED_SETS = 100_000
EXIT_CONTRADICTION = 3


# The longest integer an option is read from: 2**64 in binary with its 0b, and room.
MAX_INTEGER_CHARS = 80
# A seed: any 64-bit number (the generators hash it with the set's index).
MAX_SEED = 2**64 - 1


def _integer(text: str) -> int:
    """An argparse type: an integer, decimal (leading zeros allowed) or 0x.., 0o.., 0b..

    Every integer option reads its value this way, so a value one option takes is
    taken by all (Python's ``int(text, 0)`` alone refuses ``010``)."""
    digits = text.strip().lstrip("+-")
    if len(digits) > MAX_INTEGER_CHARS:
        raise argparse.ArgumentTypeError(
            f"{text[:20]}... ({len(text)} characters): no option takes a number that long"
        )
    try:
        return int(text, 10) if digits.isdecimal() else int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None


def _int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer (as _integer reads it) in low..high."""

    def parse(text: str) -> int:
        value = _integer(text)
        if not low <= value <= high:
            # a power-of-two bound also in hex, the form a register or a tick count has
            power = high > 0xFFFF and (high + 1) & high == 0
            shown = f"{high} ({high:#x})" if power else str(high)
            raise argparse.ArgumentTypeError(f"{text} is outside {low}..{shown}")
        return value

    return parse


def _utilization(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value <= RUNNER_MAX_TASKS:
        raise argparse.ArgumentTypeError(f"{text}: must be above 0 (and at most the task count)")
    return value


def _tolerance(text: str) -> float:
    """An argparse type: a utilisation tolerance, above 0 (0 would ask for a realised U
    whole ticks seldom give exactly) and below 1 (a whole processor off bounds nothing)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text}: must be above 0 and below 1")
    return value


def _list_of(item: Callable[[str], _Item]) -> Callable[[str], tuple[_Item, ...]]:
    """An argparse type: a comma-separated list of item's values."""

    def parse(text: str) -> tuple[_Item, ...]:
        return tuple(item(part) for part in text.split(","))

    return parse


def _periods(text: str) -> Periods:
    """'10,20,50': a menu to draw from; '10..1000': log-uniform over that range."""
    try:
        if ".." in text:
            low, high = (int(part, 10) for part in text.split("..", 1))
            if not 1 <= low <= high <= MAX_DEADLINE:
                raise ValueError
            return PeriodRange(low, high)
        menu = tuple(int(part, 10) for part in text.split(","))
        if not all(1 <= p <= MAX_DEADLINE for p in menu):
            raise ValueError
        return menu
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give a list of periods (10,20,50) or a range LOW..HIGH "
            f"(1 <= LOW <= HIGH <= {MAX_DEADLINE}: an implicit deadline is the period)"
        ) from None


def _add_set_options(parser: argparse.ArgumentParser) -> None:
    """What generate and sweep both draw sets with."""
    parser.add_argument(
        "--utilization-tolerance",
        type=_tolerance,
        metavar="E",
        help="draw each set again (from the same seed's generator, so still the same "
        "set on every machine) until its realised utilisation is within E of the one "
        f"asked for, at most {MAX_UTILIZATION_DRAWS} draws (default: the first draw; "
        "whole-tick wcets round it, mostly up)",
    )
    parser.add_argument(
        "--periods",
        type=_periods,
        default=DEFAULT_PERIODS,
        metavar="LIST|LOW..HIGH",
        help="periods in ticks: a list to draw from (default "
        + ",".join(map(str, DEFAULT_PERIODS))
        + ") or a range drawn log-uniformly",
    )
    parser.add_argument(
        "--deadlines",
        choices=["implicit", "constrained"],
        default="implicit",
        help="deadline = period, or uniform in wcet..period",
    )
    parser.add_argument("--tick-hz", type=_int_in(1, MAX_TICK_HZ), default=1000)
    parser.add_argument(
        "--duration",
        type=_int_in(1, MAX_TICKS),
        help="ticks to run (default: one hyperperiod plus the longest deadline, at most 100000)",
    )
    parser.add_argument("--seed", type=_int_in(0, MAX_SEED), default=1)


def _add_board_options(parser: argparse.ArgumentParser) -> None:
    """How a board runs the scenario (docs/ports.md, "Exact work")."""
    parser.add_argument(
        "--work",
        choices=WORK_MODES,
        default="ticks",
        help="on a board, a task's work: whole ticks ending on tick boundaries, the sim's "
        "timeline (ticks, default), or exactly the wcet's instructions with the kernel's "
        "time on top, and where the run's time went (exact)",
    )
    parser.add_argument(
        "--icount-shift",
        type=_int_in(0, MAX_ICOUNT_SHIFT),
        default=ICOUNT_SHIFT,
        metavar="N",
        help=f"on a board, one instruction takes 2**N ns of virtual time (default "
        f"{ICOUNT_SHIFT}: 1000 instructions a microsecond; 3 is 125 a microsecond)",
    )


def _board_run(args: argparse.Namespace) -> dict[str, Any]:
    """run_scenario's keywords for the board options."""
    return {"work": args.work, "icount_shift": args.icount_shift}


def _add_timer_queue_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timer-queue",
        choices=TIMER_QUEUES,
        default="heap",
        help="where the kernel keeps its timers: a heap (default), a sorted list, or the "
        "hardware priority queue (hwpq: the sim's model of hw/, the boards' emulation of "
        f"it; at most {TIMERS_HWPQ_MAX_TASKS} tasks)",
    )


def _check_board_options(scenario: Scenario, args: argparse.Namespace) -> None:
    """Board options the scenario's port (or --port) cannot take are a usage error
    (exit 2, as for sweep), found before anything runs."""
    port = args.port or scenario.system.port
    problem = platform_problem(port, args.work, args.icount_shift, scenario.system.tickless)
    if problem is None:
        timer_queue = getattr(args, "timer_queue", "heap")  # takt run's option
        placed = dataclasses.replace(
            scenario, system=dataclasses.replace(scenario.system, port=port)
        )
        problem = timer_queue_problem(placed, timer_queue) or device_measure_problem(
            placed, timer_queue, args.work, args.icount_shift
        )
    if problem is not None:
        raise UsageError(f"{scenario.source}: {problem}")


# The hierarchy's options, by GenerateOptions field (argparse's dest).
HIERARCHY_FIELDS: Final = ("servers", "server_type", "server_periods", "budgets")


def _add_hierarchy_options(parser: argparse.ArgumentParser) -> None:
    """How generate and sweep build hierarchies (policy hsf). Each defaults to None:
    GenerateOptions' default, and a flag given without hsf is refused
    (_hierarchy_options)."""
    parser.add_argument(
        "--servers",
        type=_int_in(1, PRIORITY_MAX),
        metavar="M",
        help="hsf: how many servers (default 3; each gets at least one task)",
    )
    parser.add_argument(
        "--server-type",
        choices=["idling", "deferrable", "mixed"],
        help="hsf: the servers' type (default idling; mixed: each at random)",
    )
    parser.add_argument(
        "--server-periods",
        type=_periods,
        metavar="LIST|LOW..HIGH",
        help="hsf: server periods to draw from (default: half the server's shortest task period)",
    )
    parser.add_argument(
        "--budgets",
        choices=["minimal", "utilization"],
        help="hsf: the smallest budget under which the periodic resource model proves the "
        "server's tasks (default), or the tasks' utilisation times the period, rounded up",
    )


def _flag(field: str) -> str:
    """The command-line flag of an options field (argparse's dest)."""
    return "--" + field.replace("_", "-")


def _hierarchy_options(
    args: argparse.Namespace, with_hsf: bool, needed: str, min_tasks: int
) -> dict[str, Any]:
    """The hierarchy options given, by GenerateOptions field. Refused when nothing
    builds a hierarchy (``needed``: what would), and a server count, given or the
    default, above the fewest tasks a set has (every server needs one)."""
    given = {
        field: getattr(args, field)
        for field in HIERARCHY_FIELDS
        if getattr(args, field) is not None
    }
    if given and not with_hsf:
        raise UsageError(f"{', '.join(map(_flag, given))}: only with {needed}")
    servers = given.get("servers", GenerateOptions().servers)
    if with_hsf and servers > min_tasks:
        default = "" if "servers" in given else " (the default)"
        raise UsageError(f"--servers {servers}{default}: at most --tasks ({min_tasks})")
    return given


def _hierarchy_flags(options: GenerateOptions) -> list[str]:
    """The flags that make the options' hierarchy again, every one written out."""
    flags = [f"--servers {options.servers} --server-type {options.server_type}"]
    if options.server_periods is not None:
        flags.append(f"--server-periods {_periods_text(options.server_periods)}")
    flags.append(f"--budgets {options.budgets}")
    return flags


def _add_generate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    gen = sub.add_parser(
        "generate",
        help="random periodic task sets (UUniFast) as scenario files",
        description="Random periodic task sets as scenario files: UUniFast utilisations, "
        "periods from a list or log-uniform from a range, wcets rounded to whole ticks. "
        "The same options and seed give the same files on every machine.",
    )
    gen.add_argument(
        "--tasks",
        type=_int_in(1, RUNNER_MAX_TASKS),
        default=10,
        help=f"tasks per set (default 10): at most {PRIORITY_MAX} under fp and hsf (one "
        f"priority each), {RUNNER_MAX_TASKS} under edf (a run's limit)",
    )
    gen.add_argument(
        "--utilization", type=_utilization, default=0.8, help="total utilisation drawn"
    )
    _add_set_options(gen)
    gen.add_argument(
        "--policy",
        choices=["fp", "edf", "hsf"],
        default="fp",
        help="hsf: the tasks spread over servers, each with a period and a budget",
    )
    gen.add_argument("--preemption", choices=["full", "none", "deferred"], default="full")
    gen.add_argument(
        "--priority",
        choices=["rm", "dm"],
        help="fp priority assignment (default: rm, or dm with constrained deadlines)",
    )
    gen.add_argument(
        "--segments",
        type=_int_in(1, MAX_SEGMENTS),
        default=1,
        metavar="K",
        help="split each wcet into up to K non-preemptive subjobs (preemption deferred)",
    )
    _add_hierarchy_options(gen)
    gen.add_argument(
        "--count", type=_int_in(1, MAX_GENERATED_SETS), default=1, help="how many sets"
    )
    gen.add_argument(
        "--out",
        default="-",
        help="a file (one set; '-' for stdout, the default) or, with --count > 1, a "
        "folder for set-0000.toml, set-0001.toml, ...",
    )


def _add_sweep(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sweep = sub.add_parser(
        "sweep",
        help="success ratio of generated sets against the number of tasks or the utilisation",
        description="A schedulability experiment: at each point, --sets generated sets "
        "(takt generate's, seed for seed) run under each policy. Prints the success ratio "
        "(sets without a missed deadline), the analysis' acceptance ratio and the mean "
        "context switches per point and policy; every run is checked against its analysis "
        "(exit status 3 on a contradiction; with --work exact on a board the kernel's "
        "time is in the runs, and disagreements are reported, not failures). "
        "docs/scenarios.md.",
    )
    sweep.add_argument(
        "--policies",
        type=_list_of(str),
        default=("rm", "edf"),
        metavar="LIST",
        help="from " + ", ".join(SWEEP_POLICIES) + " (default rm,edf; fpns and fpds: "
        "fixed priority without preemption and with deferred preemption, rm or, with "
        "constrained deadlines, dm; hsf: the tasks over servers)",
    )
    sweep.add_argument(
        "--tasks",
        type=_list_of(_int_in(1, RUNNER_MAX_TASKS)),
        default=(10,),
        metavar="LIST",
        help=f"tasks per set, e.g. 10,20,30 (default 10): at most {PRIORITY_MAX} when a "
        f"policy other than the EDF ones is swept (one priority each), {RUNNER_MAX_TASKS} "
        "when only EDF policies are (a run's limit)",
    )
    sweep.add_argument(
        "--utilization",
        type=_list_of(_utilization),
        default=(0.85,),
        metavar="LIST",
        help="total utilisation drawn, e.g. 0.6,0.7,0.8 (default 0.85); only one of "
        "--tasks and --utilization may list several values",
    )
    sweep.add_argument(
        "--sets", type=_int_in(1, MAX_GENERATED_SETS), default=30, help="sets per point (30)"
    )
    sweep.add_argument(
        "--segments",
        type=_int_in(2, MAX_SEGMENTS),
        metavar="K",
        help=f"fpds: cut each job into up to K non-preemptive subjobs (default {DEFAULT_SEGMENTS})",
    )
    _add_hierarchy_options(sweep)
    _add_set_options(sweep)
    sweep.add_argument("--port", choices=list(PORTS), help="where to run (default: the sim)")
    _add_board_options(sweep)
    sweep.add_argument(
        "--jobs",
        type=_int_in(1, 256),
        default=os.cpu_count() or 1,
        help="runs at once (default: the processor count)",
    )
    sweep.add_argument(
        "--out",
        metavar="FOLDER",
        help="write runs.csv, summary.csv, summary.md and sweep.png there",
    )
    sweep.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show progress on stderr (default: when stderr is a terminal)",
    )


def _add_check(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check = sub.add_parser(
        "check",
        help="run scenarios and check the analysis against what ran",
        description="Runs each scenario and its schedulability analysis and reports where "
        "the run contradicts the analysis (exit status 3), docs/scenarios.md.",
    )
    check.add_argument("files", nargs="+", metavar="FILE", help="scenario TOML files")
    check.add_argument(
        "--port",
        choices=list(PORTS),
        help="where to run (default: each scenario's port)",
    )
    _add_board_options(check)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="takt", description="Takt real-time kernel toolkit")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run a scenario on the kernel (sim port or QEMU)")
    run.add_argument("file", help="scenario TOML file")
    run.add_argument("--timeline", metavar="FILE", help="timeline CSV ('-' for stdout)")
    run.add_argument("--jobs", metavar="FILE", help="job table CSV ('-' for stdout)")
    run.add_argument("--trace", metavar="FILE", help="Perfetto/Chrome trace JSON ('-' for stdout)")
    run.add_argument("--gantt", metavar="FILE", help="Gantt chart, FILE.png or FILE.html")
    run.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show progress on stderr (default: when stderr is a terminal)",
    )
    run.add_argument(
        "--tick-start",
        type=_int_in(0, 0xFFFFFFFF),
        default=0,
        metavar="N",
        help="initial kernel tick count (e.g. 0xFFFFFFF0 to cross the 32-bit wraparound)",
    )
    run.add_argument(
        "--port",
        choices=list(PORTS),
        help="where to run (default: the scenario's port): sim, or qemu-m3/qemu-m4 (QEMU mps2)",
    )
    _add_board_options(run)
    _add_timer_queue_option(run)
    run.add_argument("--quiet", action="store_true", help="no summary")

    analyze = sub.add_parser("analyze", help="schedulability analysis of a scenario")
    analyze.add_argument("file", help="scenario TOML file")
    _add_generate(sub)
    _add_check(sub)
    _add_sweep(sub)
    bench = sub.add_parser("bench", help="benchmarks that print numbers")
    bench.add_argument(
        "what",
        choices=["sim", "queues", "hsf", "suite", "target", "hwds"],
        help="sim: scheduler events per second, and takt run's time and memory; "
        "queues: EDF ready-queue costs; "
        "hsf: tick cost against the number of servers; "
        "suite: the FreeRTOS-API kernel suite on QEMU (docs/benchmarks.md); "
        "target: native kernel costs on QEMU Cortex-M3 (instructions); "
        "hwds: the HWDS study's experiment, RM and EDF with the ready queue and the timers "
        "on the hardware priority queue against software, on QEMU (docs/benchmarks.md)",
    )
    bench.add_argument(
        "--out",
        default=str(REPO_ROOT / "docs" / "results"),
        help="queues, hsf, suite, target: where CSV/plot/table go (default the repository's "
        "docs/results, the committed results, wherever takt runs from: give another folder "
        "to keep them)",
    )
    bench.add_argument(
        "--servers",
        type=_int_in(1, MAX_BENCH_SERVERS),
        action="append",
        metavar="N",
        help="hsf: a number of servers to measure (repeatable; default 10..256)",
    )
    bench.add_argument("--no-callgrind", action="store_true", help="queues: skip callgrind")
    bench.add_argument(
        "--tasks",
        type=_int_in(1, PRIORITY_MAX),
        default=50,
        help="sim: tasks in the generated set (one priority each)",
    )
    bench.add_argument(
        "--ticks", type=_int_in(1, MAX_TICKS), default=1_000_000, help="sim: ticks to run"
    )
    bench.add_argument("--seed", type=_int_in(0, MAX_SEED), default=1)
    bench.add_argument(
        "--port",
        default="qemu-m3",
        choices=["qemu-m3", "qemu-m4", "all"],
        help="suite, hwds: the board",
    )
    bench.add_argument(
        "--policies",
        help="suite: comma-separated (default: all of "
        + ", ".join(SUITE_POLICIES)
        + "); hwds: from "
        + ", ".join(HWDS_FAMILIES)
        + " (default rm,edf)",
    )
    bench.add_argument(
        "--task-counts",
        type=_list_of(_int_in(1, TIMERS_HWPQ_MAX_TASKS)),
        default=HwdsOptions.task_counts,
        metavar="LIST",
        help="hwds: tasks per set (default 20,40,60,80, as the study)",
    )
    bench.add_argument(
        "--utilizations",
        type=_list_of(_utilization),
        default=HwdsOptions.utilizations,
        metavar="LIST",
        help="hwds: total utilisations drawn (default 0.4,0.6,0.8,1)",
    )
    bench.add_argument(
        "--sets",
        type=_int_in(1, MAX_GENERATED_SETS),
        default=HwdsOptions.sets,
        help="hwds: sets a point (default 10, as the study)",
    )
    bench.add_argument(
        "--sw-timers",
        choices=HWDS_SW_TIMER_QUEUES,
        default=HwdsOptions.sw_timers,
        help="hwds: the software timer queue the device's is compared with (default heap; "
        "list: a sorted list, as the study's RTEMS timer chain)",
    )
    bench.add_argument(
        "--icount-shift",
        type=_int_in(MIN_DEVICE_ICOUNT_SHIFT, MAX_ICOUNT_SHIFT),
        default=HwdsOptions.icount_shift,
        metavar="N",
        help=f"hwds: one instruction takes 2**N ns (default {HwdsOptions.icount_shift}, as "
        "takt bench target)",
    )
    bench.add_argument(
        "--jobs",
        type=_int_in(1, 256),
        default=os.cpu_count() or 1,
        help="hwds: runs at once (default: the processor count)",
    )
    bench.add_argument(
        "--freertos",
        action="store_true",
        help="suite: also run the same suite built against FreeRTOS-Kernel itself (the build "
        "fetches its sources from crates.io) and compare with it",
    )
    return parser


class UsageError(Exception):
    """Bad command-line use found after parsing (exit status 2)."""


OUTPUT_OPTIONS = ("timeline", "jobs", "trace", "gantt")


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuses, before anything runs, outputs that could not all be written:
    an empty name, two outputs in one file, more than one on stdout, a file
    whose folder is missing or which is a folder itself, or the scenario file."""
    chosen = {opt: getattr(args, opt) for opt in OUTPUT_OPTIONS if getattr(args, opt) is not None}
    for opt, target in chosen.items():
        if target == "":
            raise UsageError(f"--{opt}: empty file name")
    on_stdout = [f"--{opt}" for opt, target in chosen.items() if target == "-"]
    if "--gantt" in on_stdout:
        raise UsageError("--gantt: a chart goes to a file, not to stdout")
    if len(on_stdout) > 1:
        raise UsageError(f"{' and '.join(on_stdout)} both write to stdout: give all but one a file")
    seen: dict[Path, str] = {}
    for opt, target in chosen.items():
        if target == "-":
            continue
        path = Path(target)
        resolved = path.resolve()
        if opt == "gantt" and path.suffix.lower() not in (".png", ".html"):
            raise UsageError(f"--gantt {target}: must be a .png or .html file")
        if path.is_dir():
            raise UsageError(f"--{opt} {target}: is a directory")
        if not resolved.parent.is_dir():
            raise UsageError(f"--{opt} {target}: folder {path.parent} does not exist")
        if resolved in seen:
            raise UsageError(f"--{seen[resolved]} and --{opt} both write {target}")
        if resolved == Path(args.file).resolve():
            raise UsageError(f"--{opt} {target}: is the scenario file")
        seen[resolved] = opt


def _write_file_output(result: RunResult, opt: str, path: str | Path) -> None:
    """Writes one output (its option's) to path."""
    if opt == "timeline":
        with open(path, "w", newline="", encoding="utf-8") as stream:
            write_timeline(result.timeline, stream)
    elif opt == "jobs":
        with open(path, "w", newline="", encoding="utf-8") as stream:
            write_jobs(result.jobs, stream)
    elif opt == "trace":
        write_chrome_trace(result, path)
    else:
        write_gantt(result, path)


def _written_in_place(target: str) -> bool:
    """An existing output that is not a regular file (a device such as /dev/null,
    a FIFO, /dev/stdout): written in place, as a plain write would; a rename
    would replace the node itself."""
    try:
        return not stat.S_ISREG(os.stat(target).st_mode)
    except FileNotFoundError:
        return False


def _write_outputs(result: RunResult, args: argparse.Namespace) -> None:
    """The file outputs appear together or not at all (takt/staged.py); outputs
    that are not regular files are written in place, last."""
    targets = {
        opt: getattr(args, opt) for opt in OUTPUT_OPTIONS if getattr(args, opt) not in (None, "-")
    }
    in_place = {opt: target for opt, target in targets.items() if _written_in_place(target)}
    with staged_outputs() as outputs:
        for opt, target in targets.items():
            if opt not in in_place:
                with outputs.file(target) as temporary:
                    _write_file_output(result, opt, temporary)
    for opt, target in in_place.items():
        with naming(target):
            _write_file_output(result, opt, target)
    if args.timeline == "-":
        write_timeline(result.timeline, sys.stdout)
    elif args.jobs == "-":
        write_jobs(result.jobs, sys.stdout)
    elif args.trace == "-":
        write_chrome_trace(result, sys.stdout)
    sys.stdout.flush()


def _cmd_run(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.file)
    _check_board_options(scenario, args)
    _check_outputs(args)
    stdout_used = "-" in (args.timeline, args.jobs, args.trace)
    show_progress = args.progress if args.progress is not None else sys.stderr.isatty()

    def progress(percent: float) -> None:
        print(f"\rrunning {scenario.source}: {percent:5.1f}%", end="", file=sys.stderr, flush=True)

    result = run_scenario(
        scenario,
        tick_start=args.tick_start,
        progress=progress if show_progress else None,
        port=args.port,
        timer_queue=args.timer_queue,
        **_board_run(args),
    )
    if show_progress:
        progress(100.0)  # the runner's last report is its last tick's start
        print(file=sys.stderr)
    _write_outputs(result, args)
    if not args.quiet:
        print(render_summary(result), file=sys.stderr if stdout_used else sys.stdout)
    return 0


def _cmd_analyze(args: argparse.Namespace) -> int:
    report = analyze_scenario(load_scenario(args.file))
    print(render_text(report))
    return 0


def _generate_options(args: argparse.Namespace) -> GenerateOptions:
    if args.tasks > max_tasks(args.policy):
        raise UsageError(
            f"--tasks {args.tasks}: at most {max_tasks(args.policy)} under --policy "
            f"{args.policy}, one priority each (--policy edf takes up to {max_tasks('edf')})"
        )
    if args.utilization > args.tasks:
        raise UsageError(f"--utilization {args.utilization}: at most 1 per task ({args.tasks})")
    if args.segments > 1 and args.preemption != "deferred":
        raise UsageError("--segments: subjobs need --preemption deferred")
    if args.policy == "edf" and (args.preemption != "full" or args.priority):
        raise UsageError("--policy edf: no --priority, and --preemption full only")
    hsf_options = _hierarchy_options(args, args.policy == "hsf", "--policy hsf", args.tasks)
    if args.policy == "hsf" and args.preemption != "full":
        raise UsageError("--policy hsf: --preemption full only")
    try:
        return GenerateOptions(
            tasks=args.tasks,
            utilization=args.utilization,
            periods=args.periods,
            deadlines=args.deadlines,
            policy=args.policy,
            preemption=args.preemption,
            priority=args.priority,
            segments=args.segments,
            tick_hz=args.tick_hz,
            duration=args.duration,
            seed=args.seed,
            utilization_tolerance=args.utilization_tolerance,
            **hsf_options,
        )
    except ValueError as err:  # what the checks above leave to GenerateOptions
        raise UsageError(f"generate: {err}") from None


def _periods_text(periods: Periods) -> str:
    if isinstance(periods, PeriodRange):
        return f"{periods.low}..{periods.high}"
    return ",".join(map(str, periods))


def _tolerance_flag(args: argparse.Namespace) -> list[str]:
    """--utilization-tolerance as given, or nothing (the sets of the first draw)."""
    if args.utilization_tolerance is None:
        return []
    return [f"--utilization-tolerance {args.utilization_tolerance}"]


def _generate_command(args: argparse.Namespace, options: GenerateOptions, index: int) -> str:
    parts = [
        f"takt generate --tasks {args.tasks} --utilization {args.utilization}",
        *_tolerance_flag(args),
        f"--periods {_periods_text(args.periods)} --deadlines {args.deadlines}",
        f"--policy {args.policy} --preemption {args.preemption}",
    ]
    if args.priority:
        parts.append(f"--priority {args.priority}")
    if args.segments > 1:
        parts.append(f"--segments {args.segments}")
    if options.policy == "hsf":
        parts += _hierarchy_flags(options)
    parts.append(f"--tick-hz {args.tick_hz}")
    if args.duration:
        parts.append(f"--duration {args.duration}")
    parts.append(f"--seed {args.seed} --count {args.count}")
    return " ".join(parts) + f" (set {index})"


def _cmd_generate(args: argparse.Namespace) -> int:
    options = _generate_options(args)
    if args.out == "":
        raise UsageError("--out: empty file or folder name")
    out = Path(args.out)
    if args.count > 1:
        if args.out == "-":
            raise UsageError("--count > 1 writes a folder of files: give --out FOLDER")
        if out.exists() and not out.is_dir():
            raise UsageError(f"--out {args.out}: is a file, not a folder")
        if not out.resolve().parent.is_dir():
            raise UsageError(f"--out {args.out}: folder {out.parent} does not exist")
        taken = [p.name for p in _set_files(out, args.count) if p.is_dir()]
        if taken:
            raise UsageError(f"--out {args.out}: {taken[0]} there is a folder")
    elif args.out != "-":
        if out.is_dir():
            raise UsageError(f"--out {args.out}: is a folder (one set goes to a file)")
        if not out.resolve().parent.is_dir():
            raise UsageError(f"--out {args.out}: folder {out.parent} does not exist")
    if args.out == "-":
        sys.stdout.write(_generated_text(args, options, 0))
        return 0
    # Every file or none (a full disk half-way), as the folder made for them.
    targets = _set_files(out, args.count) if args.count > 1 else [out]
    with staged_outputs(out if args.count > 1 else None) as outputs:
        for index, target in enumerate(targets):
            with outputs.file(target) as temporary:
                text = _generated_text(args, options, index)
                temporary.write_text(text, encoding="utf-8")
    if args.count > 1:
        print(f"wrote {args.count} scenario files to {out}", file=sys.stderr)
    return 0


def _set_files(folder: Path, count: int) -> list[Path]:
    """Where generate --count puts its sets: set-0000.toml, ... (wider for more)."""
    width = max(4, len(str(count - 1)))
    return [folder / f"set-{index:0{width}d}.toml" for index in range(count)]


def _generated_text(args: argparse.Namespace, options: GenerateOptions, index: int) -> str:
    """Set ``index`` as a scenario file, its command and realised load as comments."""
    scenario = generate_scenario(options, index)
    realised = f"realised utilisation {float(utilization(scenario.tasks)):.4f}"
    if options.utilization_tolerance is None:
        realised += " (wcets are whole ticks)"
    else:
        realised += (
            f" (wcets are whole ticks; drawn until within {options.utilization_tolerance:g}"
            f" of {options.utilization:g})"
        )
    comments = [_generate_command(args, options, index), realised]
    if scenario.servers:
        bandwidth = sum(Fraction(s.budget, s.period) for s in scenario.servers)
        comments.append(f"server bandwidth (sum of budget/period) {float(bandwidth):.4f}")
    return scenario_toml(scenario, comments)


def _cmd_check(args: argparse.Namespace) -> int:
    scenarios = [load_scenario(f) for f in args.files]  # every file valid before any run
    for scenario in scenarios:
        _check_board_options(scenario, args)
    checks = []
    for scenario in scenarios:
        result = run_scenario(scenario, port=args.port, **_board_run(args))
        checks.append(check_run(result, analyze_scenario(scenario)))
        if len(scenarios) > 1:
            print(render_check_line(checks[-1]), flush=True)
    if len(checks) == 1:
        print(render_check(checks[0]))
    else:
        bad = sum(not c.agree for c in checks)
        print(f"{len(checks) - bad} of {len(checks)} runs agree with the analysis")
        for check in checks:
            if not check.agree:
                print("", render_check(check), sep="\n")
    return 0 if all(c.agree for c in checks) else EXIT_CONTRADICTION


def _sweep_options(args: argparse.Namespace) -> SweepOptions:
    too_many = [u for u in args.utilization if u > min(args.tasks)]
    if too_many:
        raise UsageError(f"--utilization {too_many[0]:g}: at most 1 per task ({min(args.tasks)})")
    try:
        check_policies(args.policies)  # before the flags that depend on them
    except ValueError as err:
        raise UsageError(f"sweep: {err}") from None
    try:
        check_task_counts(args.policies, args.tasks)
    except ValueError as err:
        raise UsageError(f"--{err}") from None
    if args.segments is not None and "fpds" not in args.policies:
        raise UsageError("--segments: only with fpds among --policies")
    hsf_options = _hierarchy_options(
        args, "hsf" in args.policies, "hsf among --policies", min(args.tasks)
    )
    try:
        base = GenerateOptions(
            periods=args.periods,
            deadlines=args.deadlines,
            tick_hz=args.tick_hz,
            duration=args.duration,
            seed=args.seed,
            utilization_tolerance=args.utilization_tolerance,
            **hsf_options,
        )
        return SweepOptions(
            base=base,
            policies=args.policies,
            tasks=args.tasks,
            utilizations=args.utilization,
            sets=args.sets,
            port=args.port,
            jobs=args.jobs,
            segments=args.segments or DEFAULT_SEGMENTS,
        )
    except ValueError as err:
        raise UsageError(f"sweep: {err}") from None


def _sweep_command(args: argparse.Namespace, options: SweepOptions) -> str:
    parts = [
        f"takt sweep --policies {','.join(args.policies)}",
        f"--tasks {','.join(map(str, args.tasks))}",
        f"--utilization {','.join(f'{u:g}' for u in args.utilization)}",
        *_tolerance_flag(args),
        f"--sets {args.sets}",
        f"--periods {_periods_text(args.periods)} --deadlines {args.deadlines}",
        f"--tick-hz {args.tick_hz}",
    ]
    if args.duration:
        parts.append(f"--duration {args.duration}")
    if "fpds" in options.policies:
        parts.append(f"--segments {options.segments}")
    if "hsf" in options.policies:
        parts += _hierarchy_flags(options.base)
    parts.append(f"--seed {args.seed}")
    if args.port:
        parts.append(f"--port {args.port}")
    if args.work != "ticks":
        parts.append(f"--work {args.work}")
    if args.icount_shift != ICOUNT_SHIFT:
        parts.append(f"--icount-shift {args.icount_shift}")
    return " ".join(parts)


def _cmd_sweep(args: argparse.Namespace) -> int:
    options = _sweep_options(args)
    problem = platform_problem(args.port or "sim", args.work, args.icount_shift)
    if problem is not None:
        raise UsageError(f"sweep: {problem}")
    if args.out == "":
        raise UsageError("--out: empty folder name")
    out = Path(args.out) if args.out is not None else None
    if out is not None:
        # Found now, not after every run: where the results could not go.
        if out.exists() and not out.is_dir():
            raise UsageError(f"--out {args.out}: is a file, not a folder")
        if not out.exists() and not out.resolve().parent.is_dir():
            raise UsageError(f"--out {args.out}: folder {out.parent} does not exist")
        for name in SWEEP_OUTPUT_NAMES:
            if (out / name).is_dir():
                raise UsageError(f"--out {args.out}: {name} there is a folder")
    show = sys.stderr.isatty() if args.progress is None else args.progress

    def progress(done: int, total: int) -> None:
        if show:
            end = "\n" if done == total else ""
            print(f"\rsweep: {done}/{total} runs", end=end, file=sys.stderr, flush=True)

    board = _board_run(args)
    records = run_sweep(
        options, lambda scenario, port: run_scenario(scenario, port=port, **board), progress
    )
    summaries = summarize_sweep(options, records)
    print(render_sweep_table(summaries), end="")
    if out is not None:
        paths = write_sweep_outputs(out, options, records, summaries, _sweep_command(args, options))
        print("wrote " + ", ".join(str(p) for p in paths), file=sys.stderr)
    for r in records:
        if not r.contradictions:
            continue
        shown = f"tasks {r.tasks}, U {r.utilization:g}, set {r.index}, {r.policy}"
        if r.with_kernel_time:
            # What the sweep measures: one line a run, not one a job.
            print(
                f"with the kernel's time ({shown}): {len(r.contradictions)} disagreement(s) "
                f"with the analysis; the first: {r.contradictions[0]}",
                file=sys.stderr,
            )
        else:
            for text in r.contradictions:
                print(f"contradiction ({shown}): {text}", file=sys.stderr)
    # With exact work the kernel's time is in the runs and not in the analysis: the
    # analysis' disagreeing then is a result, not a fault.
    bad = [r for r in records if r.contradictions and not r.with_kernel_time]
    return EXIT_CONTRADICTION if bad else 0


# The benches each option of `takt bench` applies to.
BENCH_OPTION_USERS: Final[dict[str, tuple[str, ...]]] = {
    "out": ("queues", "hsf", "suite", "target", "hwds"),
    "servers": ("hsf",),
    "no_callgrind": ("queues",),
    "tasks": ("sim",),
    "ticks": ("sim",),
    "seed": ("sim", "hwds"),
    "port": ("suite", "hwds"),
    "policies": ("suite", "hwds"),
    "freertos": ("suite",),
    "task_counts": ("hwds",),
    "utilizations": ("hwds",),
    "sets": ("hwds",),
    "sw_timers": ("hwds",),
    "icount_shift": ("hwds",),
    "jobs": ("hwds",),
}


def _check_bench_options(args: argparse.Namespace) -> None:
    """Refuses an option given to a bench that would ignore it (its default aside)."""
    defaults = _parser().parse_args(["bench", args.what])
    for name, users in BENCH_OPTION_USERS.items():
        if args.what not in users and getattr(args, name) != getattr(defaults, name):
            option = "--" + name.replace("_", "-")
            raise UsageError(f"{option}: only with takt bench {' or '.join(users)}")


def _cmd_bench(args: argparse.Namespace) -> int:
    from takt import bench

    _check_bench_options(args)
    if args.what == "sim":
        print(bench.render_sim_speed(bench.sim_speed(args.tasks, args.ticks, seed=args.seed)))
        print(bench.render_run_cost(bench.run_cost(args.tasks, args.ticks, seed=args.seed)))
        return 0
    if args.what == "hsf":
        hsf_rows = bench.hsf_tick_costs(args.servers)
        hsf_paths = bench.write_hsf_tick_results(hsf_rows, Path(args.out))
        print(bench.render_hsf_tick_table(hsf_rows))
        print("wrote " + ", ".join(str(p) for p in hsf_paths))
        return 0
    if args.what == "suite":
        return _cmd_bench_suite(args)
    if args.what == "hwds":
        return _cmd_bench_hwds(args)
    if args.what == "target":
        from takt import bench_target

        costs = bench_target.run()
        for path in bench_target.write_results(costs, Path(args.out)):
            print(f"wrote {path}")
        print(bench_target.render_summary(costs))
        from takt import bench_hsf_target

        hsf_costs = bench_hsf_target.run()
        for path in bench_hsf_target.write_results(hsf_costs, Path(args.out)):
            print(f"wrote {path}")
        return 0
    rows = bench.queue_costs(callgrind=not args.no_callgrind)
    paths = bench.write_queue_results(rows, Path(args.out))
    print(bench.render_queue_table(rows))
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def _suite_policies(args: argparse.Namespace) -> list[str]:
    """takt bench suite's --policies, every suite policy when not given."""
    return (",".join(SUITE_POLICIES) if args.policies is None else args.policies).split(",")


def _cmd_bench_suite(args: argparse.Namespace) -> int:
    from takt import bench_suite

    ports = list(bench_suite.BOARDS) if args.port == "all" else [args.port]
    policies = _suite_policies(args)
    try:
        check_policy_names(policies, bench_suite.POLICIES)
    except ValueError as problem:
        raise UsageError(f"--{problem}") from None
    command = "takt bench suite --port " + args.port + " --policies " + ",".join(policies)
    if args.freertos:
        command += " --freertos"
    for port in ports:
        run = bench_suite.run_suite(port, policies, freertos=args.freertos)
        paths = bench_suite.write_results(run, Path(args.out), command)
        print(bench_suite.render_comparison(run))
        print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def _cmd_bench_hwds(args: argparse.Namespace) -> int:
    from takt import bench_hwds

    policies = tuple(("rm,edf" if args.policies is None else args.policies).split(","))
    try:
        check_policy_names(policies, tuple(bench_hwds.FAMILIES))
    except ValueError as problem:
        raise UsageError(f"--{problem}") from None
    ports = list(BOARDS) if args.port == "all" else [args.port]
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {args.out}: is a file, not a folder")
    try:
        options = [
            bench_hwds.HwdsOptions(
                port=port,
                policies=policies,
                task_counts=args.task_counts,
                utilizations=args.utilizations,
                sets=args.sets,
                seed=args.seed,
                sw_timers=args.sw_timers,
                icount_shift=args.icount_shift,
                jobs=args.jobs,
            )
            for port in ports
        ]
    except ValueError as problem:
        raise UsageError(f"bench hwds: {problem}") from None
    command = " ".join(
        [
            f"takt bench hwds --port {args.port} --policies {','.join(policies)}",
            f"--task-counts {','.join(map(str, args.task_counts))}",
            f"--utilizations {','.join(f'{u:g}' for u in args.utilizations)}",
            f"--sets {args.sets} --seed {args.seed} --sw-timers {args.sw_timers}",
            f"--icount-shift {args.icount_shift}",
        ]
    )
    show = sys.stderr.isatty()
    for option in options:

        def progress(done: int, total: int, port: str = option.port) -> None:
            if show:
                end = "\n" if done == total else ""
                print(
                    f"\rhwds on {port}: {done}/{total} runs", end=end, file=sys.stderr, flush=True
                )

        runs = bench_hwds.run_hwds(option, progress=progress)
        points = bench_hwds.summarize(option, runs)
        print(bench_hwds.render_table(points), end="")
        paths = bench_hwds.write_outputs(out, option, runs, points, command)
        print("wrote " + ", ".join(str(p) for p in paths))
    return 0


class _ClosedOutput(io.TextIOBase):
    """Standard output when the process started without one (`takt ... >&-`, where
    Python leaves sys.stdout None): what would be printed is an error, not lost."""

    def write(self, text: str) -> int:
        raise OSError("standard output is closed")


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    args = _parser().parse_args(argv)
    try:
        if args.command == "run":
            return _cmd_run(args)
        if args.command == "bench":
            return _cmd_bench(args)
        if args.command == "generate":
            return _cmd_generate(args)
        if args.command == "check":
            return _cmd_check(args)
        if args.command == "sweep":
            return _cmd_sweep(args)
        return _cmd_analyze(args)
    except ScenarioError as err:
        print(f"takt: invalid scenario: {err}", file=sys.stderr)
        return 2
    except (UsageError, GenerateError) as err:
        # GenerateError: options no set could be drawn under, found when drawing.
        print(f"takt: {err}", file=sys.stderr)
        return 2
    except (RunError, TargetError) as err:
        print(f"takt: {err}", file=sys.stderr)
        return 1
    except SuiteError as err:
        print(f"takt: benchmark suite: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader of stdout went away (`takt run ... --timeline - | head`): stop
        # quietly, as the shell's tools do; Python would complain again on exit
        # flushing stdout, so it goes to /dev/null.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except OSError as err:
        if err.filename is not None and err.strerror:
            print(f"takt: {err.filename}: {err.strerror}", file=sys.stderr)
        else:
            print(f"takt: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ntakt: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
