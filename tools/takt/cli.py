"""The ``takt`` command line: run and analyse scenarios.

Exit status: 0 when the command completed (deadline misses are results, not
errors); 2 for an invalid scenario or bad usage; 1 when a run could not be
carried out. Outputs sent to stdout (``-``) own stdout; the summary and
progress then go to stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import stat
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from takt.analysis import analyze_scenario, render_text
from takt.bench_suite import POLICIES as SUITE_POLICIES
from takt.bench_suite import SuiteError
from takt.model import RunResult
from takt.report import (
    render_summary,
    write_chrome_trace,
    write_gantt,
    write_jobs,
    write_timeline,
)
from takt.scenario import MAX_TICKS, PRIORITY_MAX, ScenarioError, load_scenario
from takt.sim import PORTS, RunError, run_scenario
from takt.target import TargetError

MAX_BENCH_SERVERS = 256  # takt-bench-hsf-tick's largest configuration


def _int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer (decimal, 0x.., 0o.., 0b..) in low..high."""

    def parse(text: str) -> int:
        try:
            value = int(text, 0)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if not low <= value <= high:
            shown = f"{high:#x}" if high > 0xFFFF else str(high)
            raise argparse.ArgumentTypeError(f"{text} is outside {low}..{shown}")
        return value

    return parse


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
    run.add_argument("--quiet", action="store_true", help="no summary")

    analyze = sub.add_parser("analyze", help="schedulability analysis of a scenario")
    analyze.add_argument("file", help="scenario TOML file")
    bench = sub.add_parser("bench", help="benchmarks that print numbers")
    bench.add_argument(
        "what",
        choices=["sim", "queues", "hsf", "suite", "target"],
        help="sim: scheduler events per second, and takt run's time and memory; "
        "queues: EDF ready-queue costs; "
        "hsf: tick cost against the number of servers; "
        "suite: the FreeRTOS-API kernel suite on QEMU (docs/benchmarks.md); "
        "target: native kernel costs on QEMU Cortex-M3 (instructions)",
    )
    bench.add_argument(
        "--out",
        default="docs/results",
        help="queues, hsf, suite, target: where CSV/plot/table go (default docs/results, "
        "the committed results: give another folder to keep them)",
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
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument(
        "--port", default="qemu-m3", choices=["qemu-m3", "qemu-m4", "all"], help="suite: the board"
    )
    bench.add_argument(
        "--policies",
        default=",".join(SUITE_POLICIES),
        help="suite: comma-separated (default: all of " + ", ".join(SUITE_POLICIES) + ")",
    )
    return parser


class UsageError(Exception):
    """Bad command-line use found after parsing (exit status 2)."""


OUTPUT_OPTIONS = ("timeline", "jobs", "trace", "gantt")


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuses, before anything runs, outputs that could not all be written:
    an empty name, two outputs in one file, more than one on stdout, a file
    whose folder is missing or which is a folder itself."""
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
        seen[resolved] = opt


def _write_file_outputs(result: RunResult, files: dict[str, str]) -> None:
    """Writes each output named in files (option -> path)."""
    if "timeline" in files:
        with open(files["timeline"], "w", newline="", encoding="utf-8") as stream:
            write_timeline(result.timeline, stream)
    if "jobs" in files:
        with open(files["jobs"], "w", newline="", encoding="utf-8") as stream:
            write_jobs(result.jobs, stream)
    if "trace" in files:
        write_chrome_trace(result, files["trace"])
    if "gantt" in files:
        write_gantt(result, files["gantt"])


def _mode_for(path: Path) -> int:
    """The permissions open() would give the output: an existing file keeps its
    own, a new one gets the umask's (mkstemp's temporary is private, 0600)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _write_outputs(result: RunResult, args: argparse.Namespace) -> None:
    """Every file output goes to a temporary file beside it first; only when
    all are written do they take their names, so a failure (or an interrupt)
    leaves no partial or half-updated outputs behind."""
    targets = {
        opt: getattr(args, opt) for opt in OUTPUT_OPTIONS if getattr(args, opt) not in (None, "-")
    }
    temporaries: dict[str, str] = {}
    try:
        for opt, target in targets.items():
            path = Path(target)
            handle, temporary = tempfile.mkstemp(
                prefix=f".{path.name}.", suffix=path.suffix, dir=path.resolve().parent
            )
            os.close(handle)
            temporaries[opt] = temporary
            os.chmod(temporary, _mode_for(path))
        _write_file_outputs(result, temporaries)
        for opt, temporary in temporaries.items():
            os.replace(temporary, targets[opt])
    finally:
        for temporary in temporaries.values():
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
    if args.timeline == "-":
        write_timeline(result.timeline, sys.stdout)
    elif args.jobs == "-":
        write_jobs(result.jobs, sys.stdout)
    elif args.trace == "-":
        write_chrome_trace(result, sys.stdout)
    sys.stdout.flush()


def _cmd_run(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.file)
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


def _cmd_bench(args: argparse.Namespace) -> int:
    from takt import bench

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


def _cmd_bench_suite(args: argparse.Namespace) -> int:
    from takt import bench_suite

    ports = list(bench_suite.BOARDS) if args.port == "all" else [args.port]
    policies = [p for p in args.policies.split(",") if p]
    if not policies:
        raise UsageError("--policies: name at least one of " + ", ".join(bench_suite.POLICIES))
    command = "takt bench suite --port " + args.port + " --policies " + ",".join(policies)
    for port in ports:
        run = bench_suite.run_suite(port, policies)
        paths = bench_suite.write_results(run, Path(args.out), command)
        print(bench_suite.render_comparison(run))
        print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "run":
            return _cmd_run(args)
        if args.command == "bench":
            return _cmd_bench(args)
        return _cmd_analyze(args)
    except ScenarioError as err:
        print(f"takt: invalid scenario: {err}", file=sys.stderr)
        return 2
    except UsageError as err:
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
        print(f"takt: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ntakt: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
