"""Hierarchical-scheduling and deferred-preemption costs on an emulated Cortex-M3.

Part of ``takt bench target``: runs apps/bench/target/hsf_costs.c on QEMU
``mps2-an385`` under ``-icount shift=7`` (the method of bench_target) and
writes docs/results/hsf_target.{csv,md}: the tick handler, the decision after
the tick and the server switch against the number of servers, for ticks with
no timer due, with a depletion and with one replenishment; and the cost of
``takt_preemption_point`` and ``takt_should_yield``; for each, the instructions
executed with interrupts masked (from the meter build ``takt-bench-hsf-masked``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from takt import target
from takt.bench_target import (
    SHIFT,
    Masked,
    masked_columns,
    masked_problem,
    masked_suffix,
    parse_masked_line,
    run_pair,
    stat_cell,
    write_table_and_markdown,
)

PROGRAM = "takt-bench-hsf"


@dataclass(frozen=True)
class HsfSample:
    measurement: str
    servers: int
    samples: int
    min: int
    max: int
    mean: float
    masked: Masked | None = None


@dataclass(frozen=True)
class HsfTargetBench:
    samples: list[HsfSample]
    command: str


def parse_output(text: str) -> list[HsfSample]:
    """The program's 'bench,<what>,<servers>,<n>,<min>,<max>,<mean x100>' lines,
    with the 'masked,<what>,<servers>,...' line of the same set attached (meter build)."""
    samples: list[HsfSample] = []
    masked: dict[tuple[str, ...], Masked] = {}
    done = False
    for line in text.splitlines():
        fields = line.strip().split(",")
        if fields[0] == "bench" and len(fields) == 7:
            what, servers, n, lo, hi, mean100 = fields[1:]
            samples.append(
                HsfSample(what, int(servers), int(n), int(lo), int(hi), int(mean100) / 100)
            )
        elif (found := parse_masked_line(fields, 2)) is not None:
            masked[found[0]] = found[1]
        elif fields[0] == "done":
            done = True
    if not done:
        raise target.TargetError("the hsf benchmark did not finish:\n" + text[-2000:])
    return [replace(s, masked=masked.get((s.measurement, str(s.servers)))) for s in samples]


# The decision runs inside PendSV's critical section: all of its window is masked.
WHOLLY_MASKED = ("hsf_switch_",)


def check_masked(samples: list[HsfSample]) -> list[str]:
    """Problems with the meter build's sample sets: a masked line for each, one
    count per window, none unmeasured, masked at most the window (same build),
    and every decision window wholly masked."""
    problems: list[str] = []
    for s in samples:
        name = f"{s.measurement},{s.servers}"
        problem = masked_problem(name, s.samples, s.min, s.max, s.masked)
        if problem is not None:
            problems.append(problem)
        elif (
            s.masked is not None
            and s.measurement.startswith(WHOLLY_MASKED)
            and (s.masked.min, s.masked.max) != (s.min, s.max)
        ):
            problems.append(f"{name}: a decision inside PendSV's section is not all masked")
    return problems


def with_masked(plain: list[HsfSample], metered: list[HsfSample]) -> list[HsfSample]:
    """The plain program's windows with the meter program's masked counts."""
    by_key = {(s.measurement, s.servers): s.masked for s in metered}
    if set(by_key) != {(s.measurement, s.servers) for s in plain}:
        raise target.TargetError("the plain and -masked hsf programs measured different sets")
    return [replace(s, masked=by_key[(s.measurement, s.servers)]) for s in plain]


def run() -> HsfTargetBench:
    commands, plain_out, meter_out = run_pair(PROGRAM)
    metered = parse_output(meter_out)
    problems = check_masked(metered)
    if problems:
        raise target.TargetError(
            f"{PROGRAM}-masked: the meter's counts are wrong:\n" + "\n".join(problems)
        )
    return HsfTargetBench(with_masked(parse_output(plain_out), metered), "\n".join(commands))


def _cell(s: HsfSample | None) -> str:
    if s is None or s.samples == 0:
        return "-"
    return stat_cell(s.min, s.max, s.mean) + masked_suffix(s.masked)


def render_markdown(bench: HsfTargetBench) -> str:
    by_key = {(s.measurement, s.servers): s for s in bench.samples}
    servers = sorted({s.servers for s in bench.samples if s.measurement.startswith("hsf_")})
    lines = [
        "# Hierarchical scheduling and deferred preemption on QEMU mps2-an385 (Cortex-M3)",
        "",
        f"Recorded by `takt bench target`; method in docs/benchmarks.md (`-icount shift={SHIFT}`,"
        " instructions read off SysTick). Program: apps/bench/target/hsf_costs.c, kernel build",
        "apps/bench/target/hsf/takt_config.h (no trace, no asserts, rbtree timer queue), -O3.",
        "Cells: min / max / mean instructions (one number when all samples agree); '-': the",
        "tick asked for no switch, so there is no decision to time. In parentheses: the",
        "instructions of the same windows executed with interrupts masked (BASEPRI raised;",
        "from takt-bench-hsf-masked, the port's meter). A handler's own run at the kernel's",
        "interrupt level counts only where it opens a critical section; the decision runs",
        "inside PendSV's section, so all of it is masked.",
        "",
        "```",
        bench.command,
        "```",
        "",
        "## Tick and decision against the number of servers (hsf)",
        "",
        "| servers | tick, no timer due | decision after it | tick, running server depletes"
        " | decision after it | tick, one replenishment"
        " | decision after it (server switch) |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for n in servers:
        cells = [
            _cell(by_key.get((f"hsf_{kind}_{case}", n)))
            for case in ("quiet", "deplete", "replenish")
            for kind in ("tick", "switch")
        ]
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "## Deferred preemption (fp, TAKT_PREEMPT_DEFERRED)",
        "",
        "| operation | instructions |",
        "|---|---:|",
        "| `takt_preemption_point()`, nothing waiting | "
        + _cell(by_key.get(("preemption_point_nothing_waiting", 0)))
        + " |",
        "| `takt_preemption_point()`, a switch waiting (to the woken task's first instruction) | "
        + _cell(by_key.get(("preemption_point_switch", 0)))
        + " |",
        "| `takt_should_yield()` (inline flag test, result stored) | "
        + _cell(by_key.get(("should_yield", 0)))
        + " |",
        "",
    ]
    return "\n".join(lines)


def write_results(bench: HsfTargetBench, out: Path) -> list[Path]:
    header = [
        "measurement",
        "servers",
        "samples",
        "min",
        "max",
        "mean",
        "masked_min",
        "masked_max",
        "masked_mean",
    ]
    rows = (
        [
            s.measurement,
            s.servers,
            s.samples,
            s.min,
            s.max,
            f"{s.mean:.2f}",
            *masked_columns(s.masked),
        ]
        for s in bench.samples
    )
    return write_table_and_markdown(out, "hsf_target", header, rows, render_markdown(bench))
