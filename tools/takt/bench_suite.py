"""The FreeRTOS-API benchmark suite (apps/bench/freertos_suite) on QEMU.

Builds the suite's programs for a board (one per policy, plain and with the
port's masked-instruction meter), runs them under QEMU with ``-icount
shift=7``, parses their output, checks it, and writes CSV, markdown tables and
plots. ``python -m takt.bench_suite check ...`` is the ctest check (standard
library only). Method: docs/benchmarks.md, "FreeRTOS-API suite".
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from takt import target
from takt.staged import staged_outputs

REPO_ROOT = Path(__file__).resolve().parents[2]
ICOUNT_SHIFT = 7  # bench_platform.h converts SysTick counts for this shift
# The order of the columns; apps/bench/freertos_suite/CMakeLists.txt builds the same
# set (BENCH_SUITE_POLICIES). hsf: every task in one idling server whose budget never
# runs out (bench_platform.h), so FreeRTOS priorities keep their meaning.
POLICIES = ("fp", "edf-heap", "edf-mlist", "edf-rbtree", "hsf")
# The same suite.c on FreeRTOS-Kernel itself: the program, the build option
# that fetches and builds it, and its version.
FREERTOS_PROGRAM = "freertos-bench-suite"
FREERTOS_OPTION = "-DTAKT_WITH_FREERTOS=ON"
FREERTOS_VERSION = "V11.2.0"
POLICY_TITLES = {
    "fp": "FP",
    "edf-heap": "EDF-H",
    "edf-mlist": "EDF-L",
    "edf-rbtree": "RB-tree",
    "hsf": "HSF",
    "freertos": f"FreeRTOS {FREERTOS_VERSION}",
}
BOARDS = {"qemu-m3": "mps2-an385", "qemu-m4": "mps2-an386"}
# The FreeRTOS layer's default timer queue (fp and hsf; the EDF policies, whose
# queue also holds a deadline timer per task, default to the tree), and the
# others the suite also runs with fp (BENCH_SUITE_TIMER_QUEUES: programs
# takt-bench-suite-fp-timers-<queue>), for Timeout-1 and the tick per timer
# queue. The heap and the tree must keep vTaskDelay flat in the number of tasks
# delayed.
DEFAULT_TIMER_QUEUE = "heap"
EDF_TIMER_QUEUE = "rbtree"
OTHER_TIMER_QUEUES = ("rbtree", "list")


def default_timer_queue(policy: str) -> str:
    """The timer queue the FreeRTOS layer builds a policy with by default."""
    return EDF_TIMER_QUEUE if policy.startswith("edf-") else DEFAULT_TIMER_QUEUE


TIMER_QUEUE_TITLES = {"heap": "heap", "rbtree": "red-black tree", "list": "sorted list"}

# Tests the latency part must report (name -> the parameter values of the
# quick configuration); the full configuration has more values.
QUICK_WINDOWS: dict[str, tuple[int, ...]] = {
    "yield": (0,),
    "sem_wait_block": (1, 29),
    "sem_signal_unblock": (1, 29),
    "mutex1_inherit": (1, 29),
    "mutex1_disinherit": (1, 29),
    "mutex6_inherit": (2, 29),
    "mutex6_disinherit": (2, 29),
    "mq_send": (4, 1024),
    "mq_receive": (4, 1024),
    "mq_receive_block": (1, 29),
    "mq_send_unblock": (1, 29),
    "mq_send_unblock_noswitch": (1, 29),
    "irq_to_task": (0,),
    "tick_no_wake": (0,),
    "tick_wake_preempt": (0,),
    "delay": (0, 31),
}
THROUGHPUT_TESTS = (
    "tm_cooperative",
    "tm_preemptive",
    "tm_interrupt",
    "tm_interrupt_preemption",
    "tm_message",
    "tm_synchronization",
    "tm_memory",
    "tm_basic",
)
QUICK_SAMPLES = 4
FULL_SAMPLES = 20  # suite.c's SAMPLES outside BENCH_QUICK


class SuiteError(RuntimeError):
    """Building or running the suite failed, or its output is malformed."""


@dataclass(frozen=True)
class Stat:
    n: int
    min: int
    max: int
    total: int

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def jitter(self) -> int:
        return self.max - self.min


@dataclass
class SuiteOutput:
    windows: dict[tuple[str, int], Stat] = field(default_factory=dict)
    masked: dict[tuple[str, int], Stat] = field(default_factory=dict)
    throughput: dict[str, tuple[int, int]] = field(default_factory=dict)
    info: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    done: int | None = None
    # hsf programs: times the suite's server ran out of budget (None: not reported;
    # merged: the sum over both programs, None unless both reported it)
    server_depletions: int | None = None


_STAT_LINE = re.compile(r"^(window|masked),([a-z0-9_]+),(\d+),(\d+),(\d+),(\d+),(\d+)$")
_THROUGHPUT_LINE = re.compile(r"^throughput,([a-z_]+),(\d+),(\d+)$")


def parse(text: str) -> SuiteOutput:
    """The suite's output lines; anything else (QEMU's own messages) is ignored."""
    out = SuiteOutput()
    for raw in text.splitlines():
        line = raw.strip()
        if m := _STAT_LINE.match(line):
            kind, name, param, n, lo, hi, total = m.groups()
            stat = Stat(int(n), int(lo), int(hi), int(total))
            (out.windows if kind == "window" else out.masked)[(name, int(param))] = stat
        elif m := _THROUGHPUT_LINE.match(line):
            out.throughput[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        elif line.startswith("info,"):
            _, key, value = (line.split(",", 2) + [""])[:3]
            out.info[key] = value
            if key == "server_depletions" and value.isdigit():
                out.server_depletions = int(value)
        elif line.startswith("error,"):
            out.errors.append(line[len("error,") :])
        elif line.startswith("done,"):
            out.done = int(line.split(",", 1)[1])
    return out


def merge(plain: SuiteOutput, masked: SuiteOutput) -> SuiteOutput:
    """The plain program's windows and throughput with the meter program's masked
    counts; an error when the two report different platforms (board or policy)."""
    errors = plain.errors + masked.errors
    if plain.info.get("platform") != masked.info.get("platform"):
        errors.append(
            f"plain and masked programs differ: platform {plain.info.get('platform')!r} "
            f"vs {masked.info.get('platform')!r}"
        )
    depletions = (
        None
        if plain.server_depletions is None or masked.server_depletions is None
        else plain.server_depletions + masked.server_depletions
    )
    return SuiteOutput(
        windows=dict(plain.windows),
        masked=dict(masked.masked),
        throughput=dict(plain.throughput),
        info={**masked.info, **plain.info},
        errors=errors,
        done=None if plain.done is None or masked.done is None else plain.done + masked.done,
        server_depletions=depletions,
    )


def _check_stat(where: str, stat: Stat, samples: int) -> list[str]:
    problems = []
    if stat.n < samples:
        problems.append(f"{where}: {stat.n} samples, expected {samples}")
    if stat.n and not stat.min <= stat.mean <= stat.max:
        problems.append(f"{where}: mean {stat.mean} outside [{stat.min}, {stat.max}]")
    if stat.max > 100_000:
        problems.append(f"{where}: max {stat.max} instructions is not a kernel call")
    return problems


def check(
    out: SuiteOutput,
    *,
    samples: int = QUICK_SAMPLES,
    windows: dict[str, tuple[int, ...]] | None = None,
    policy: str | None = None,
    timer_queue: str | None = None,
    kernel: str | None = None,
    masked: bool = True,
) -> list[str]:
    """Problems with a merged run (empty: sane). Every expected window and
    masked count present with enough samples, mean within [min, max], the
    masked instructions of a window at most the window (plus the meter
    build's own slack), every throughput test counted, no error line, done,0.
    With a policy: the programs report being built for it ("<board>/<policy>"),
    and under hsf their server never ran out of budget (a depletion would put
    a server switch and a replenishment wait into some window). With a timer
    queue: the programs report being built with it ("info,timer_queue"). With
    a kernel: the programs report running on it ("<kernel>-<board>/..."; takt
    or freertos). masked=False: a program run without its meter program, so
    no masked counts are expected."""
    expected = QUICK_WINDOWS if windows is None else windows
    problems = [f"program reported: {e}" for e in out.errors]
    if out.done != 0:
        problems.append(f"done line: {out.done!r} (expected 0)")
    platform = out.info.get("platform", "")
    if kernel is not None and not platform.startswith(f"{kernel}-"):
        problems.append(f"platform {platform!r} is not a {kernel} build")
    if policy is not None:
        if platform.rpartition("/")[2] != policy:
            problems.append(f"platform {platform!r} is not a {policy} build")
        if policy == "hsf" and out.server_depletions != 0:
            problems.append(
                f"server depletions: {out.server_depletions!r} (expected 0: the budget "
                "must last the whole run)"
            )
    if timer_queue is not None and out.info.get("timer_queue") != timer_queue:
        problems.append(
            f"timer queue {out.info.get('timer_queue')!r} is not the {timer_queue!r} expected"
        )
    if "read_overhead" not in out.info:
        problems.append("no read_overhead calibration line")
    for name, params in expected.items():
        for param in params:
            key = (name, param)
            tables = [("window", out.windows)] + ([("masked", out.masked)] if masked else [])
            for kind, table in tables:
                if key not in table:
                    problems.append(f"{kind} {name} {param}: missing")
                else:
                    problems += _check_stat(f"{kind} {name} {param}", table[key], samples)
            if key in out.windows and key in out.masked:
                if out.masked[key].max > out.windows[key].max + 32:
                    problems.append(
                        f"{name} {param}: masked {out.masked[key].max} exceeds "
                        f"the window {out.windows[key].max}"
                    )
    for name in THROUGHPUT_TESTS:
        if name not in out.throughput:
            problems.append(f"throughput {name}: missing")
        elif out.throughput[name][1] <= 0:
            problems.append(f"throughput {name}: no operation completed")
    return problems


# ---- running ----


def qemu_command(
    elf: Path, machine: str, *, qemu: str | None = None, shift: int = ICOUNT_SHIFT
) -> list[str]:
    """The QEMU command line the suite runs under (deterministic virtual time)."""
    return target.qemu_argv(machine, elf, shift=shift, qemu=qemu)


def run_program(cmd: Sequence[str], timeout: float = 600) -> str:
    try:
        done = subprocess.run(list(cmd), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise SuiteError(f"timed out after {timeout} s: {shlex.join(cmd)}") from None
    except OSError as err:
        raise SuiteError(f"cannot run {cmd[0]}: {err}") from None
    if done.returncode != 0:
        raise SuiteError(
            f"exit status {done.returncode}: {shlex.join(cmd)}\n{done.stdout}{done.stderr}"
        )
    return done.stdout


def build(port: str, targets: Sequence[str], options: Sequence[str] = ()) -> Path:
    """Configures (once, and again for cache options) and builds the targets in
    the port's ARM build directory."""
    try:
        target.cmake_build(target.board(port).build_dir, BOARDS[port], targets, options)
    except target.TargetError as err:
        raise SuiteError(str(err)) from None
    return target.board(port).build_dir / "apps" / "bench" / "freertos_suite"


@dataclass
class PolicyResult:
    policy: str
    output: SuiteOutput
    text_bytes: dict[str, int]


@dataclass
class SuiteRun:
    port: str
    board: str
    commands: list[str]
    results: list[PolicyResult]
    # fp with each other timer queue (policy "fp-timers-<queue>"), when fp ran
    timer_queues: list[PolicyResult] = field(default_factory=list)
    # the same suite.c on FreeRTOS itself (policy "freertos"), when asked for
    freertos: PolicyResult | None = None

    @property
    def columns(self) -> list[PolicyResult]:
        """Every program's result in table order: FreeRTOS first, when it ran."""
        return ([self.freertos] if self.freertos else []) + self.results


def _require_full_run(
    program: str,
    out: SuiteOutput,
    *,
    policy: str,
    timer_queue: str | None = None,
    kernel: str | None = None,
) -> None:
    """check() for a full (not quick) program and its meter program, merged:
    every test with the parameter values it reported and the full run's
    samples; SuiteError naming the program and its first problems."""
    full = {
        name: tuple(sorted({p for (n, p) in out.windows if n == name})) for name in QUICK_WINDOWS
    }
    problems = check(
        out,
        samples=FULL_SAMPLES,
        windows=full,
        policy=policy,
        timer_queue=timer_queue,
        kernel=kernel,
    )
    if problems:
        raise SuiteError(f"{program}: " + "; ".join(problems[:5]))


def _run_with_meter(elf: Path, board: str, commands: list[str]) -> SuiteOutput:
    """A program (its windows and throughput) and its meter program
    (<elf>-masked: the masked counts), run and merged; their command lines
    appended to commands."""
    plain_cmd = qemu_command(elf, board)
    masked_cmd = qemu_command(elf.with_name(f"{elf.name}-masked"), board)
    commands += [target.shown_command(plain_cmd), target.shown_command(masked_cmd)]
    return merge(parse(run_program(plain_cmd)), parse(run_program(masked_cmd)))


def run_suite(port: str, policies: Sequence[str] = POLICIES, *, freertos: bool = False) -> SuiteRun:
    """Builds and runs the full suite for every policy on the port's board;
    freertos: also the same suite.c built against FreeRTOS itself (its sources
    fetched by the build: apps/bench/freertos_suite/CMakeLists.txt)."""
    if port not in BOARDS:
        raise SuiteError(f'unknown port "{port}" ({", ".join(BOARDS)})')
    bad = [p for p in policies if p not in POLICIES]
    if bad:
        raise SuiteError(f"unknown policy {bad[0]!r} ({', '.join(POLICIES)})")
    # (program, policy it is built for, timer queue it must report)
    programs = [(p, p, default_timer_queue(p)) for p in policies]
    if "fp" in policies:
        programs += [(f"fp-timers-{q}", "fp", q) for q in OTHER_TIMER_QUEUES]
    targets = [f"takt-bench-suite-{p}{v}" for (p, _, _) in programs for v in ("", "-masked")]
    if freertos:
        targets += [FREERTOS_PROGRAM, f"{FREERTOS_PROGRAM}-masked"]
    directory = build(port, targets, [FREERTOS_OPTION] if freertos else [])
    results: list[PolicyResult] = []
    timer_queues: list[PolicyResult] = []
    commands: list[str] = []
    for program, policy, queue in programs:
        plain_elf = directory / f"takt-bench-suite-{program}"
        merged = _run_with_meter(plain_elf, BOARDS[port], commands)
        _require_full_run(program, merged, policy=policy, timer_queue=queue)
        library_name = f"bench_suite_rtos_{program.replace('-timers-', '_timers_')}_plain.dir"
        library = directory / "CMakeFiles" / library_name
        result = PolicyResult(program, merged, kernel_text(Path(f"{plain_elf}.map"), library))
        (results if program == policy else timer_queues).append(result)
    run = SuiteRun(port, BOARDS[port], commands, results, timer_queues)
    if freertos:
        elf = directory / FREERTOS_PROGRAM
        out = _run_with_meter(elf, BOARDS[port], commands)
        _require_full_run(FREERTOS_PROGRAM, out, policy="fp", kernel="freertos")
        run.freertos = PolicyResult("freertos", out, kernel_text(Path(f"{elf}.map")))
    return run


# ---- kernel size from the link map ----

_MAP_ONE_LINE = re.compile(r"^ (\.text\S*)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)$")
_MAP_NAME = re.compile(r"^ (\.text\S*)\s*$")
_MAP_REST = re.compile(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)$")


def _layer_sections(library_dir: Path) -> set[tuple[str, str]]:
    """(object file name, section) of every code section of the FreeRTOS layer's
    objects: kernel and layer both have a queue.c and a notify.c, so the
    archive member's name alone cannot tell them apart."""
    objdump = shutil.which("arm-none-eabi-objdump")
    found: set[tuple[str, str]] = set()
    if objdump is None:
        return found
    for obj in library_dir.glob("**/compat/freertos/**/*.obj"):
        listing = subprocess.run([objdump, "-h", str(obj)], capture_output=True, text=True).stdout
        for line in listing.splitlines():
            parts = line.split()
            if len(parts) > 2 and parts[1].startswith(".text"):
                found.add((obj.name, parts[1]))
    return found


def kernel_text(map_file: Path, library_dir: Path | None = None) -> dict[str, int]:
    """Bytes of code the program keeps (after --gc-sections) from the kernel, the
    FreeRTOS layer and the port (port_armv7m.c; not the start-up code or the
    C library's semihosting calls), from the map's .text input sections. For
    the FreeRTOS program: FreeRTOS's own objects (its port.c as the port)."""
    text = map_file.read_text(errors="replace")
    start = text.find("Linker script and memory map")
    if start < 0:
        raise SuiteError(f"{map_file}: not a GNU ld map")
    layer = _layer_sections(library_dir) if library_dir else set()
    sizes = {"kernel": 0, "freertos_layer": 0, "port": 0}
    pending: str | None = None
    for line in text[start:].splitlines():
        section = size = source = None
        if m := _MAP_ONE_LINE.match(line):
            section, size, source = m.group(1), int(m.group(3), 16), m.group(4)
        elif m := _MAP_NAME.match(line):
            pending = m.group(1)
            continue
        elif pending and (m := _MAP_REST.match(line)):
            section, size, source = pending, int(m.group(2), 16), m.group(3)
        pending = None
        if section is None or size is None or source is None:
            continue
        member = source.rsplit("(", 1)[-1].rstrip(")")
        if "libbench_suite_rtos" in source:
            sizes["freertos_layer" if (member, section) in layer else "kernel"] += size
        elif "libbench_suite_freertos" in source:  # FreeRTOS itself: its port is port.c
            sizes["port" if member == "port.c.obj" else "kernel"] += size
        elif source.endswith("port_armv7m.c.obj"):
            sizes["port"] += size
    sizes["total"] = sizes["kernel"] + sizes["freertos_layer"] + sizes["port"]
    return sizes


# ---- the FreeRTOS reference and the comparison ----


@dataclass(frozen=True)
class Reference:
    label: str
    test: str
    param: int
    freertos: float
    blocking: bool  # target: at most 0.6x FreeRTOS, over the whole priority-gap range


# FreeRTOS-Kernel V11, ARM_CM3 port, -O2, optimised task selection, heap_4, no
# asserts, no trace; QEMU mps2-an385 with -icount, same window definition.
REFERENCES = (
    Reference("cooperative yield switch", "yield", 0, 46, False),
    Reference("semaphore take-block", "sem_wait_block", 1, 378, True),
    Reference("semaphore give-unblock", "sem_signal_unblock", 1, 200, True),
    Reference("mutex take-block with inheritance", "mutex1_inherit", 1, 465, True),
    Reference("mutex give with disinheritance", "mutex1_disinherit", 1, 279, True),
    Reference("queue send, 4 bytes, no block", "mq_send", 4, 81.5, False),
    Reference("queue receive, 4 bytes, no block", "mq_receive", 4, 68, False),
    Reference("queue receive-block", "mq_receive_block", 1, 371, True),
    Reference("queue send-unblock", "mq_send_unblock", 1, 252.5, True),
    Reference("interrupt to task (notification)", "irq_to_task", 0, 162, False),
    Reference("tick, no wake", "tick_no_wake", 0, 31, False),
    Reference("tick waking a task that preempts", "tick_wake_preempt", 0, 138, False),
    Reference("vTaskDelay, no task delayed", "delay", 0, 177, False),
)
FREERTOS_DELAY_PER_TASK = 5.0
FREERTOS_TEXT_BYTES = 8760


def _worst(out: SuiteOutput, test: str) -> Stat | None:
    """The test's statistic over every parameter value (the worst case over the range)."""
    stats = [s for (n, _), s in out.windows.items() if n == test]
    if not stats:
        return None
    return Stat(
        sum(s.n for s in stats),
        min(s.min for s in stats),
        max(s.max for s in stats),
        sum(s.total for s in stats),
    )


def _at_most(label: str, freertos: float, takt: float) -> tuple[str, float, float, float, str]:
    """A comparison row whose limit is FreeRTOS's own value."""
    return (label, freertos, takt, freertos, "pass" if takt <= freertos else "FAIL")


def comparison_rows(result: PolicyResult) -> list[tuple[str, float, float, float, str]]:
    """(metric, FreeRTOS, Takt, limit, verdict) for one policy; Takt's value is
    the mean of the reference's configuration, the verdict also needs the
    worst case over the whole parameter range within the limit."""
    out = result.output
    rows = []
    for ref in REFERENCES:
        stat = out.windows.get((ref.test, ref.param))
        # The blocking tests' parameter is the priority gap: the limit holds for every gap.
        worst = _worst(out, ref.test) if ref.blocking else stat
        limit = ref.freertos * (0.6 if ref.blocking else 1.0)
        if stat is None or worst is None:
            rows.append((ref.label, ref.freertos, float("nan"), limit, "missing"))
            continue
        ok = stat.mean <= limit and worst.max <= limit
        rows.append((ref.label, ref.freertos, stat.mean, limit, "pass" if ok else "FAIL"))
    d0, d31 = out.windows.get(("delay", 0)), out.windows.get(("delay", 31))
    if d0 and d31:
        slope = (d31.mean - d0.mean) / 31
        label = "vTaskDelay, per task already delayed"
        rows.append(_at_most(label, FREERTOS_DELAY_PER_TASK, slope))
    rows.append(_at_most("kernel text (bytes)", FREERTOS_TEXT_BYTES, result.text_bytes["total"]))
    return rows


def _num(v: float) -> str:
    return "n/a" if v != v else (f"{v:.0f}" if float(v).is_integer() else f"{v:.1f}")


def _ratio(value: float, base: float) -> str:
    return f"{value / base:.2f}" if base and base == base and value == value else "n/a"


def render_comparison(run: SuiteRun) -> str:
    """The targets' table for fp (against the issue's FreeRTOS numbers, and
    against FreeRTOS measured here when it ran) and every policy's values."""
    fp = next((r for r in run.results if r.policy == "fp"), run.results[0])
    here = [row[2] for row in comparison_rows(run.freertos)] if run.freertos else None
    title = POLICY_TITLES["freertos"]
    lines = [
        f"### Takt {POLICY_TITLES[fp.policy]} vs FreeRTOS V11 ({run.board}, instructions)",
        "",
    ]
    if here is None:
        lines += [
            "| metric | FreeRTOS | Takt | ratio | limit | result |",
            "|---|---:|---:|---:|---:|---|",
        ]
    else:
        lines += [
            f"| metric | FreeRTOS (issue) | {title} here | Takt | ratio | ratio here "
            "| limit | result |",
            "|---|---:|---:|---:|---:|---:|---:|---|",
        ]
    for i, (label, ref, takt, limit, verdict) in enumerate(comparison_rows(fp)):
        measured = "" if here is None else f" {_num(here[i])} |"
        ratio_here = "" if here is None else f" {_ratio(takt, here[i])} |"
        lines.append(
            f"| {label} | {_num(ref)} |{measured} {_num(takt)} | {_ratio(takt, ref)} |"
            f"{ratio_here} {_num(limit)} | {verdict} |"
        )
    lines += [
        "",
        "Limit: FreeRTOS's value as the issue gives it, 0.6x on the blocking paths "
        "(semaphore, mutex, queue block/unblock). Takt: the mean at the reference's "
        "configuration (gap 1, 4 bytes, no task delayed); on the blocking paths a pass also "
        "needs the worst case over every priority gap within the limit.",
        "",
    ]
    if here is not None:
        lines += [
            f"{title} here: the same suite.c built against FreeRTOS-Kernel {FREERTOS_VERSION} "
            "(its ARM port, -O2, optimised task selection, heap_4, no asserts, no trace) and "
            "measured the same way on the same board; ratio here is Takt's value over it.",
            "",
        ]
    columns = run.results
    measured_head = "" if here is None else f" {title} here |"
    lines += [
        f"### Every policy ({run.board}, mean instructions; ratio to FreeRTOS as the issue "
        "gives it)",
        "",
        "| metric | FreeRTOS |"
        + measured_head
        + " "
        + " | ".join(POLICY_TITLES[r.policy] for r in columns)
        + " |",
        "|---|---:|" + ("---:|" if here is not None else "") + "---:|" * len(columns),
    ]
    per_policy = [comparison_rows(r) for r in columns]
    for i, (label, ref, *_rest) in enumerate(per_policy[0]):
        cells = []
        for rows in per_policy:
            takt = rows[i][2]
            cells.append(f"{_num(takt)} ({_ratio(takt, ref)})" if ref else _num(takt))
        measured = "" if here is None else f" {_num(here[i])} |"
        lines.append(f"| {label} | {_num(ref)} |{measured} " + " | ".join(cells) + " |")
    lines.append("")
    return "\n".join(lines)


def timer_queue_rows(run: SuiteRun) -> list[tuple[str, list[str]]]:
    """(timer queue, cells) for fp with each timer queue: vTaskDelay with no task
    delayed, its range from 1 to 31 tasks delayed (max - min: flat is 0), the
    suite's per-task figure ((31 - 0) / 31), and the two tick paths."""
    fp = next((r for r in run.results if r.policy == "fp"), None)
    if fp is None:
        return []
    rows = []
    for queue, result in [(DEFAULT_TIMER_QUEUE, fp)] + [
        (r.policy.rpartition("-timers-")[2], r) for r in run.timer_queues
    ]:
        w = result.output.windows
        delayed = [w[("delay", n)].mean for n in range(1, 32) if ("delay", n) in w]
        d0, d31 = w.get(("delay", 0)), w.get(("delay", 31))
        cells = [
            _num(d0.mean) if d0 else "n/a",
            f"{_num(min(delayed))}..{_num(max(delayed))} ({_num(max(delayed) - min(delayed))})"
            if delayed
            else "n/a",
            f"{(d31.mean - d0.mean) / 31:.1f}" if d0 and d31 else "n/a",
        ]
        for test in ("tick_no_wake", "tick_wake_preempt"):
            stat = w.get((test, 0))
            cells.append(_num(stat.mean) if stat else "n/a")
        title = TIMER_QUEUE_TITLES.get(queue, queue)
        rows.append((f"{title} (default)" if queue == DEFAULT_TIMER_QUEUE else title, cells))
    return rows


def render_timer_queues(run: SuiteRun) -> str:
    rows = timer_queue_rows(run)
    if not rows:
        return ""
    lines = [
        f"### FP per timer queue ({run.board}, mean instructions)",
        "",
        "| timer queue | vTaskDelay, none delayed | 1..31 delayed (range) | per task | "
        "tick, no wake | tick waking a task that preempts |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    lines += [f"| {queue} | " + " | ".join(cells) + " |" for queue, cells in rows]
    lines += [
        "",
        "Timeout-1: every task already delayed wakes at the same or an earlier tick, so the "
        "new delay goes behind all of them. The heap and the red-black tree must not grow "
        "with their number (the range over 1..31); the sorted list walks them all, as "
        "FreeRTOS's delayed list does (FreeRTOS: 5 per task).",
        "",
    ]
    return "\n".join(lines)


def render_details(run: SuiteRun) -> str:
    """Per test over its whole parameter range (the CSV has every value):
    min / max / jitter of all samples, the range of the per-value means, and
    the most instructions with interrupts masked."""
    lines = [
        f"### Every test over its parameter range ({run.board}): "
        "min / max / jitter; mean (range over the parameter); masked max",
        "",
        "| test | params | " + " | ".join(POLICY_TITLES[r.policy] for r in run.columns) + " |",
        "|---|---|" + "---|" * len(run.columns),
    ]
    for name in QUICK_WINDOWS:
        params = sorted({p for (n, p) in run.results[0].output.windows if n == name})
        if not params:
            continue
        split = [[p] for p in params] if name in ("mq_send", "mq_receive") else [params]
        for group in split:
            cells = []
            for r in run.columns:
                ws = [r.output.windows[(name, p)] for p in group if (name, p) in r.output.windows]
                ms = [r.output.masked[(name, p)] for p in group if (name, p) in r.output.masked]
                if not ws:
                    cells.append("n/a")
                    continue
                lo, hi = min(s.min for s in ws), max(s.max for s in ws)
                means = [s.mean for s in ws]
                mean = (
                    f"{min(means):.1f}"
                    if max(means) == min(means)
                    else f"{min(means):.1f}..{max(means):.1f}"
                )
                masked = str(max(m.max for m in ms)) if ms else "n/a"
                cells.append(f"{lo} / {hi} / {hi - lo}; {mean}; {masked}")
            label = f"{group[0]}" if len(group) == 1 else f"{group[0]}..{group[-1]}"
            lines.append(f"| {name} | {label} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"### Throughput ({run.board}): operations in the window",
        "",
        "| test | ticks | " + " | ".join(POLICY_TITLES[r.policy] for r in run.columns) + " |",
        "|---|---:|" + "---:|" * len(run.columns),
    ]
    for name in THROUGHPUT_TESTS:
        ticks = run.results[0].output.throughput.get(name, (0, 0))[0]
        cells = [str(r.output.throughput.get(name, (0, 0))[1]) for r in run.columns]
        lines.append(f"| {name} | {ticks} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Kernel text (bytes, kept after --gc-sections): "
        + ", ".join(
            f"{POLICY_TITLES[r.policy]} {r.text_bytes['total']} (kernel {r.text_bytes['kernel']}, "
            + (
                ""
                if r.policy == "freertos"
                else f"FreeRTOS layer {r.text_bytes['freertos_layer']}, "
            )
            + f"port {r.text_bytes['port']})"
            for r in run.columns
        ),
        "",
    ]
    return "\n".join(lines)


def write_results(run: SuiteRun, out_dir: Path, command: str) -> list[Path]:
    """The CSVs, the markdown tables and the chart (if matplotlib is there), all of them
    or none (takt/staged.py): a results folder never mixes two runs."""
    stem = f"freertos_suite_{run.board}"
    rows = ["policy,test,param,n,min,max,mean,jitter,masked_min,masked_max,masked_mean"]
    for r in run.columns + run.timer_queues:
        for (name, param), s in sorted(r.output.windows.items()):
            m = r.output.masked.get((name, param))
            masked = f"{m.min},{m.max},{m.mean:.2f}" if m else ",,"
            rows.append(
                f"{r.policy},{name},{param},{s.n},{s.min},{s.max},{s.mean:.2f},{s.jitter},{masked}"
            )
    tm_rows = ["policy,test,ticks,operations"]
    for r in run.columns:
        for name in THROUGHPUT_TESTS:
            ticks, ops = r.output.throughput[name]
            tm_rows.append(f"{r.policy},{name},{ticks},{ops}")
    header = [
        f"## FreeRTOS-API suite on {run.board} (QEMU -icount shift={ICOUNT_SHIFT})",
        "",
        f"Command: `{command}`",
        "",
        "QEMU command lines:",
        "",
    ]
    header += [f"    {c}" for c in run.commands]
    per_queue = render_timer_queues(run)
    texts = {
        out_dir / f"{stem}.csv": "\n".join(rows) + "\n",
        out_dir / f"{stem}_throughput.csv": "\n".join(tm_rows) + "\n",
        out_dir / f"{stem}.md": "\n".join(header)
        + "\n\n"
        + render_comparison(run)
        + "\n"
        + (per_queue + "\n" if per_queue else "")
        + render_details(run),
    }
    paths = list(texts)
    with staged_outputs(out_dir) as outputs:
        for path, text in texts.items():
            with outputs.file(path) as temporary:
                temporary.write_text(text)
        if importlib.util.find_spec("matplotlib") is not None:
            paths.append(out_dir / f"{stem}.png")
            with outputs.file(paths[-1]) as temporary:
                _plot(run, temporary)
    return paths


def _plot(run: SuiteRun, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [
        ("sem_wait_block", "sem_signal_unblock", "priority gap"),
        ("mutex1_inherit", "mutex1_disinherit", "priority gap"),
        ("mq_receive_block", "mq_send_unblock", "priority gap"),
        ("mq_send", "mq_receive", "item bytes"),
        ("delay", None, "tasks already delayed"),
    ]
    fig, axes = plt.subplots(2, 3, figsize=(15, 8))
    for ax, (a, b, xlabel) in zip(axes.flat, panels, strict=False):
        for r in run.columns:
            for test, style in ((a, "-"), (b, "--")):
                if test is None:
                    continue
                pts = sorted((p, s.mean) for (n, p), s in r.output.windows.items() if n == test)
                if pts:
                    ax.plot(
                        [p for p, _ in pts],
                        [v for _, v in pts],
                        style,
                        label=f"{POLICY_TITLES[r.policy]} {test}",
                    )
        ax.set_xlabel(xlabel)
        ax.set_ylabel("instructions")
        ax.legend(fontsize=6)
    ax = axes.flat[5]
    width = 0.8 / max(1, len(run.columns))
    for i, r in enumerate(run.columns):
        base = run.columns[0].output.throughput
        ax.bar(
            [x + i * width for x in range(len(THROUGHPUT_TESTS))],
            [r.output.throughput[t][1] / max(1, base[t][1]) for t in THROUGHPUT_TESTS],
            width,
            label=POLICY_TITLES[r.policy],
        )
    ax.set_xticks([x + 0.4 for x in range(len(THROUGHPUT_TESTS))])
    ax.set_xticklabels([t[3:] for t in THROUGHPUT_TESTS], rotation=45, fontsize=7)
    ax.set_ylabel(f"throughput relative to {POLICY_TITLES[run.columns[0].policy]}")
    ax.legend(fontsize=6)
    fig.suptitle(f"FreeRTOS-API suite on {run.board} (QEMU -icount shift={ICOUNT_SHIFT})")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


# ---- where a window's instructions go: a QEMU instruction trace ----

# (test, calling task function, first function the call enters, function of the task that runs next)
ATTRIBUTED_WINDOWS = (
    ("yield", "yield_task", "takt_yield", "yield_task"),
    ("sem_wait_block", "sem2_high", "xSemaphoreTake", "sem2_low"),
    ("sem_signal_unblock", "sem2_low", "xSemaphoreGive", "sem2_high"),
    ("mutex1_inherit", "mutex_high", "xSemaphoreTake", "mutex1_low"),
    ("mutex1_disinherit", "mutex1_low", "xSemaphoreGive", "mutex_high"),
    ("mq_send", "mp1_task", "xQueueGenericSend", "mp1_task"),
    ("mq_receive", "mp1_task", "xQueueReceive", "mp1_task"),
    ("mq_receive_block", "mp3_high", "xQueueReceive", "mp3_low"),
    ("mq_send_unblock", "mp3_low", "xQueueGenericSend", "mp3_high"),
    ("mq_send_unblock_noswitch", "mp4_high", "xQueueGenericSend", "mp4_high"),
    ("irq_to_task", "irq1_low", "bench_isr", "irq1_high"),
    ("tick_no_wake", "tick_nowake_task", "SysTick_Handler", "tick_nowake_task"),
    ("tick_wake_preempt", "tick_wake_low", "SysTick_Handler", "tick_wake_high"),
    ("delay", "timeout_high", "vTaskDelay", "timeout_low"),
)

_TRACE_PC = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")
_TRACE_STOPPED = re.compile(r"^Stopped execution of TB chain before \S+ \[([0-9a-f]+)\]")


def _symbols(elf: Path) -> tuple[list[int], list[str]]:
    nm = shutil.which("arm-none-eabi-nm") or "arm-none-eabi-nm"
    listing = subprocess.run(
        [nm, "-n", str(elf)], capture_output=True, text=True, check=True
    ).stdout
    addrs, names = [], []
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            addrs.append(int(parts[0], 16) & ~1)
            names.append(parts[2])
    return addrs, names


def _basepri_writes(elf: Path) -> tuple[set[int], set[int]]:
    """The raising and restoring msr BASEPRI of the program (basepri_writes)."""
    objdump = shutil.which("arm-none-eabi-objdump") or "arm-none-eabi-objdump"
    listing = subprocess.run([objdump, "-d", str(elf)], capture_output=True, text=True).stdout
    return basepri_writes(listing)


# Instructions whose first operand is not a register they write.
_NO_DESTINATION = re.compile(
    r"^(?:str\S*|stm\S*|push|cmp|cmn|tst|teq|b|bx|cbn?z|it\S*|msr|dsb|dmb|isb|nop|"
    r"b(?:eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)|"
    r"vstr\S*|vstm\S*|vpush|svc|bkpt|cps\S*|wfi|wfe|sev)(?:\.\w+)?$"
)
_CALL_CLOBBERS = ("r0", "r1", "r2", "r3", "ip", "lr")


def basepri_writes(listing: str) -> tuple[set[int], set[int]]:
    """Addresses of the msr BASEPRI instructions that raise the mask to the
    kernel level and of those that restore another value, from an objdump -d
    listing. The critical sections are inline, so an msr raises when its
    register was last written (in listing order, within its function) by a
    move of the kernel level TAKT_ARM_BASEPRI, 0x40; any other msr BASEPRI
    restores what its section found on entry (masked_steps decides whether
    that lowers). Any other write of the register in between (a load, a pop,
    arithmetic, a call's clobber) forgets the move: a restore whose register
    was once 0x40 earlier in the function, then reloaded, is still a restore
    (taking it for a raise would leave masked_steps masked for good)."""
    raise_at: set[int] = set()
    restore_at: set[int] = set()
    immediates: dict[str, int] = {}
    for line in listing.splitlines():
        if re.match(r"^[0-9a-f]+ <(\S+)>:", line):
            immediates = {}
            continue
        m = re.match(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{4}(?: [0-9a-f]{4})?\s+)?(\S+)\s*(.*)$", line)
        if not m:
            continue
        address, mnemonic, operands = int(m.group(1), 16), m.group(2), m.group(3)
        if mnemonic.startswith("msr") and (w := re.match(r"BASEPRI, (r\d+|ip|lr)", operands)):
            (raise_at if immediates.get(w.group(1)) == 0x40 else restore_at).add(address)
            continue
        moved = re.match(r"(r\d+|ip|lr), #(\d+)\b", operands)
        if re.match(r"movs?(?:\.w)?$", mnemonic) and moved:
            immediates[moved.group(1)] = int(moved.group(2))
            continue
        for register in _registers_written(mnemonic, operands):
            immediates.pop(register, None)
    return raise_at, restore_at


def _registers_written(mnemonic: str, operands: str) -> list[str]:
    """The core registers an instruction of the listing writes (all a call
    may clobber, for a call)."""
    if mnemonic.startswith(("pop", "ldm")):
        return re.findall(r"\b(r\d+|ip|lr)\b", operands.split("{", 1)[-1])
    if re.match(r"blx?(?:\.w)?$", mnemonic):
        return list(_CALL_CLOBBERS)
    if _NO_DESTINATION.match(mnemonic):
        return []
    registers = re.findall(r"\b(r\d+|ip|lr|sp|pc)\b", operands.split("[", 1)[0])
    if mnemonic.startswith("ldr") or re.match(r"[us]m(?:ull|lal)", mnemonic):
        return registers[:2]  # ldrd / ldrexd and the long multiplies write two
    return registers[:1]


def masked_steps(
    pcs: Iterable[int], raise_at: set[int], restore_at: set[int], *, keyed: bool = True
) -> list[bool]:
    """Whether each executed instruction (by address, in order) ran with
    kernel interrupts masked: from a raising msr through the msr that ends
    that section (counted as masked itself). Takt's sections are keyed and
    nest (port.h, keyed=True): a raise while already masked opens a nested
    section, and the restore that ends it writes the kernel level back, so it
    lowers nothing; only the restore that ends the outermost section lowers.
    FreeRTOS's (keyed=False) count their nesting in a variable instead: a
    nested vPortEnterCritical raises again, but only the exit that ends the
    outermost section writes BASEPRI, so every restore lowers (in the suite,
    the value a FromISR section restores is always 0: its interrupt is
    masked by every section, so it only ever interrupts unmasked code)."""
    flags: list[bool] = []
    masked = False
    nested = 0
    for pc in pcs:
        flags.append(masked)
        if pc in raise_at:
            if masked and keyed:
                nested += 1
            masked = True
        elif pc in restore_at:
            if nested > 0:
                nested -= 1
            else:
                masked = False
    return flags


def traced_command(elf: Path, machine: str, log: Path, *, qemu: str | None = None) -> list[str]:
    """The suite's QEMU command with one instruction per translation block and
    each block's execution logged to log (_trace_pcs reads it)."""
    cmd = qemu_command(elf, machine, qemu=qemu)
    cmd[-2:-2] = ["-singlestep", "-d", "exec,nochain", "-D", str(log)]
    return cmd


def _trace_pcs(trace: Path) -> Iterator[int]:
    """The address of every executed instruction, in order, from a QEMU
    ``-singlestep -d exec,nochain`` log (one line per instruction). QEMU logs
    a block when it enters it, so two kinds of line are not executions: a
    line repeated at once (an instruction QEMU restarted for its I/O access),
    and a line followed by "Stopped execution of TB chain before ... [pc]"
    for its pc (the block was left before its instruction ran, to take an
    interrupt: it runs, and is logged again, when the interrupted code
    resumes)."""
    pending: int | None = None
    with trace.open() as f:
        for line in f:
            if m := _TRACE_PC.match(line):
                pc = int(m.group(1), 16)
                if pc != pending:
                    if pending is not None:
                        yield pending
                    pending = pc
            elif (m := _TRACE_STOPPED.match(line)) and int(m.group(1), 16) == pending:
                pending = None
    if pending is not None:
        yield pending


def trace_functions(
    trace: Path, elf: Path, *, kernel: str = "takt"
) -> tuple[list[str], list[bool]]:
    """The function of every executed instruction in a QEMU trace
    (_trace_pcs), and whether it executed with kernel interrupts masked
    (masked_steps, with the kernel's way of nesting sections)."""
    import bisect

    addrs, names = _symbols(elf)
    raise_at, restore_at = _basepri_writes(elf)
    pcs = list(_trace_pcs(trace))
    funcs: list[str] = []
    for pc in pcs:
        i = bisect.bisect_right(addrs, pc) - 1
        funcs.append(names[i] if i >= 0 else f"0x{pc:x}")
    return funcs, masked_steps(pcs, raise_at, restore_at, keyed=kernel == "takt")


# The first function a window's call enters, where FreeRTOS's differs from the
# FreeRTOS layer's: its taskYIELD is inline (PendSV is the first function the
# yield enters), and its semaphore calls are macros over queue functions.
FREERTOS_ENTRIES = {
    "takt_yield": "PendSV_Handler",
    "xSemaphoreTake": "xQueueSemaphoreTake",
    "xSemaphoreGive": "xQueueGenericSend",
}


def attributed_windows(kernel: str) -> list[tuple[str, str, str, str]]:
    """ATTRIBUTED_WINDOWS with the entry functions of the kernel's build."""
    if kernel != "freertos":
        return list(ATTRIBUTED_WINDOWS)
    return [(t, c, FREERTOS_ENTRIES.get(e, e), n) for t, c, e, n in ATTRIBUTED_WINDOWS]


def program_kernel(out: SuiteOutput) -> str:
    """The kernel a suite program was built for, from its platform line."""
    return "freertos" if out.info.get("platform", "").startswith("freertos-") else "takt"


def _last_window(funcs: Sequence[str], caller: str, entry: str, nxt: str) -> tuple[int, int] | None:
    """The last complete window that leaves `caller` into `entry` and ends at
    the first instruction back in `nxt`: (first index, index of that first
    instruction in `nxt`). The caller's own instructions around the call
    (arguments, the clock reads) are not in it."""
    found = None
    i = 1
    while i < len(funcs):
        if funcs[i] == entry and funcs[i - 1] == caller:
            j = i
            while j < len(funcs) and funcs[j] != nxt and j - i < 5000:
                j += 1
            if j < len(funcs) and funcs[j] == nxt:
                found = (i, j)
            i = j
        i += 1
    return found


def attribute(funcs: Sequence[str], caller: str, entry: str, nxt: str) -> list[tuple[str, int]]:
    """Instructions per function of the last window (_last_window), in order
    of first appearance."""
    window = _last_window(funcs, caller, entry, nxt)
    if window is None:
        return []
    counts: dict[str, int] = {}
    for name in funcs[window[0] : window[1]]:
        counts[name] = counts.get(name, 0) + 1
    return list(counts.items())


def _window_masked(
    funcs: Sequence[str], masked: Sequence[bool], caller: str, entry: str, nxt: str
) -> int | None:
    """Masked instructions of the same window attribute() reports."""
    window = _last_window(funcs, caller, entry, nxt)
    return None if window is None else sum(masked[window[0] : window[1]])


def traced_masked(
    funcs: Sequence[str], masked: Sequence[bool], kernel: str
) -> dict[str, int | None]:
    """Masked instructions of each attributed window's last occurrence in
    the trace (None: the trace holds no complete one), by test."""
    return {
        test: _window_masked(funcs, masked, caller, entry, nxt)
        for test, caller, entry, nxt in attributed_windows(kernel)
    }


def render_breakdown(
    board: str, elf: Path, funcs: Sequence[str], masked: Sequence[bool], measured: SuiteOutput
) -> str:
    """measured: the program's own output, merged with its meter program's
    when that ran too (its masked counts then stand next to the trace's)."""
    kernel = program_kernel(measured)
    policy = measured.info.get("platform", "").rpartition("/")[2]
    title = (
        POLICY_TITLES["freertos"]
        if kernel == "freertos"
        else POLICY_TITLES.get(policy, "FP")  # programs before the policy was reported: FP
    )
    lines = [
        f"## Where the instructions go ({board}, {title}, from a QEMU instruction trace)",
        "",
        f"Program: `{elf.name}`; trace: `qemu-system-arm ... "
        f"-icount shift={ICOUNT_SHIFT},sleep=off "
        "-singlestep -d exec,nochain -D trace.log`. Each window: from the call's first "
        "instruction to the first instruction back in the next task's code; the measured "
        "window also holds the few caller instructions around the call.",
        "",
    ]
    for test, caller, entry, nxt in attributed_windows(kernel):
        parts = attribute(funcs, caller, entry, nxt)
        stat = _last_of(measured.windows, test)
        window = f"{stat.max}" if stat else "n/a"
        metered = _last_of(measured.masked, test)
        meter = f", meter {metered.max} masked" if metered else ""
        total = sum(c for _, c in parts)
        in_mask = _window_masked(funcs, masked, caller, entry, nxt)
        lines.append(f"### {test}: {total} traced ({in_mask} masked), {window} measured{meter}")
        lines.append("")
        lines.append(" ".join(f"{name} {count}," for name, count in parts).rstrip(","))
        lines.append("")
    return "\n".join(lines)


def _last_of(table: dict[tuple[str, int], Stat], test: str) -> Stat | None:
    """The test's statistic at its last parameter in the output's order (the
    window an instruction trace attributes), or None."""
    found = [stat for (name, _), stat in table.items() if name == test]
    return found[-1] if found else None


def meter_disagreements(
    traced: dict[str, int | None],
    metered: SuiteOutput,
    *,
    tolerance: int = 0,
    allowed: dict[str, int] | None = None,
) -> list[str]:
    """Where the meter program's masked count of a test (its last parameter's
    max, the window the trace attributes) and the plain program's trace
    (traced_masked) disagree: by more than tolerance, or, for a test in
    allowed, by other than the meter's known excess there."""
    problems = []
    for test, in_trace in traced.items():
        stat = _last_of(metered.masked, test)
        if in_trace is None or stat is None:
            problems.append(f"{test}: no window in the trace or no masked count from the meter")
            continue
        excess = stat.max - in_trace
        if allowed is not None and test in allowed:
            if excess != allowed[test]:
                problems.append(
                    f"{test}: meter {stat.max}, trace {in_trace}: "
                    f"excess {excess}, {allowed[test]} expected"
                )
        elif abs(excess) > tolerance:
            problems.append(f"{test}: meter {stat.max}, trace {in_trace}")
    return problems


# ---- the ctest check: python -m takt.bench_suite check ... ----


def _main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m takt.bench_suite")
    sub = parser.add_subparsers(dest="command", required=True)
    chk = sub.add_parser("check", help="run the quick programs under QEMU and check their output")
    chk.add_argument("--qemu", default=None)
    chk.add_argument("--machine", default="mps2-an385")
    chk.add_argument("--shift", type=int, default=ICOUNT_SHIFT)
    chk.add_argument("--timeout", type=float, default=50)
    chk.add_argument(
        "--policy", choices=POLICIES, default=None, help="the policy the programs must be built for"
    )
    chk.add_argument(
        "--kernel",
        choices=("takt", "freertos"),
        default=None,
        help="the kernel the programs must be built for",
    )
    chk.add_argument("plain", type=Path)
    chk.add_argument(
        "masked", type=Path, nargs="?", help="the meter build (none: a program without the meter)"
    )
    att = sub.add_parser("attribute", help="per-function breakdown of windows from a QEMU trace")
    att.add_argument("--machine", default="mps2-an385")
    att.add_argument("--out", type=Path, default=None)
    att.add_argument("elf", type=Path)
    att.add_argument(
        "masked",
        type=Path,
        nargs="?",
        help="its meter build: its masked counts next to the trace's",
    )
    cross = sub.add_parser(
        "crosscheck",
        help="the meter program's masked counts against a QEMU trace of the plain program",
    )
    cross.add_argument("--qemu", default=None)
    cross.add_argument("--machine", default="mps2-an385")
    cross.add_argument("--tolerance", type=int, default=0, help="largest difference accepted")
    cross.add_argument(
        "--allow",
        action="append",
        default=[],
        metavar="TEST=N",
        help="the meter counts exactly N more than the trace in TEST (a known difference)",
    )
    cross.add_argument("plain", type=Path)
    cross.add_argument("masked", type=Path)
    args = parser.parse_args(argv)
    if args.command == "attribute":
        return _attribute_main(args)
    if args.command == "crosscheck":
        return _crosscheck_main(args)
    try:
        plain = run_program(
            qemu_command(args.plain, args.machine, qemu=args.qemu, shift=args.shift), args.timeout
        )
        masked = (
            run_program(
                qemu_command(args.masked, args.machine, qemu=args.qemu, shift=args.shift),
                args.timeout,
            )
            if args.masked
            else None
        )
    except SuiteError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    merged = parse(plain) if masked is None else merge(parse(plain), parse(masked))
    problems = check(merged, policy=args.policy, kernel=args.kernel, masked=masked is not None)
    for p in problems:
        print(f"problem: {p}")
    print(plain, end="")
    if problems:
        return 1
    print("suite output sane")
    return 0


def _traced_run(
    elf: Path, masked_elf: Path | None, machine: str, qemu: str | None = None
) -> tuple[SuiteOutput, list[str], list[bool]]:
    """A program run under an instruction trace, merged with its meter
    program's output when given, and the trace read (trace_functions, with
    the nesting of the kernel the program reports)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "trace.log"
        measured = parse(run_program(traced_command(elf, machine, log, qemu=qemu)))
        if masked_elf is not None:
            metered = parse(run_program(qemu_command(masked_elf, machine, qemu=qemu)))
            measured = merge(measured, metered)
        funcs, masked = trace_functions(log, elf, kernel=program_kernel(measured))
    return measured, funcs, masked


def _crosscheck_main(args: argparse.Namespace) -> int:
    try:
        allowed = {test: int(n) for test, _, n in (a.partition("=") for a in args.allow)}
    except ValueError:
        print(f"error: --allow takes TEST=N: {args.allow}", file=sys.stderr)
        return 2
    try:
        measured, funcs, masked = _traced_run(args.plain, args.masked, args.machine, args.qemu)
    except SuiteError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    kernel = program_kernel(measured)
    traced = traced_masked(funcs, masked, kernel)
    for test, in_trace in traced.items():
        metered = _last_of(measured.masked, test)
        print(f"{test}: trace {in_trace}, meter {metered.max if metered else None}")
    problems = meter_disagreements(traced, measured, tolerance=args.tolerance, allowed=allowed)
    for p in problems:
        print(f"problem: {p}")
    if problems:
        return 1
    print(f"meter and trace agree ({kernel})")
    return 0


def _attribute_main(args: argparse.Namespace) -> int:
    try:
        measured, funcs, masked = _traced_run(args.elf, args.masked, args.machine)
    except SuiteError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    text = render_breakdown(args.machine, args.elf, funcs, masked, measured)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(_main())
