"""Hierarchical-scheduling and deferred-preemption costs on an emulated Cortex-M3.

Part of ``takt bench target``: runs apps/bench/target/hsf_costs.c on QEMU
``mps2-an385`` under ``-icount shift=7`` (the method of bench_target) and
writes docs/results/hsf_target.{csv,md}: the tick handler, the decision after
the tick and the server switch against the number of servers, for ticks with
no timer due, with a depletion and with one replenishment; and the cost of
``takt_preemption_point`` and ``takt_should_yield``.
"""

from __future__ import annotations

import csv
import subprocess
from dataclasses import dataclass
from pathlib import Path

from takt import target
from takt.bench_target import PORT, SHIFT

PROGRAM = "takt-bench-hsf"


@dataclass(frozen=True)
class HsfSample:
    measurement: str
    servers: int
    samples: int
    min: int
    max: int
    mean: float


@dataclass(frozen=True)
class HsfTargetBench:
    samples: list[HsfSample]
    command: str


def parse_output(text: str) -> list[HsfSample]:
    """The program's 'bench,<what>,<servers>,<n>,<min>,<max>,<mean x100>' lines."""
    samples: list[HsfSample] = []
    done = False
    for line in text.splitlines():
        fields = line.strip().split(",")
        if fields[0] == "bench" and len(fields) == 7:
            what, servers, n, lo, hi, mean100 = fields[1:]
            samples.append(
                HsfSample(what, int(servers), int(n), int(lo), int(hi), int(mean100) / 100)
            )
        elif fields[0] == "done":
            done = True
    if not done:
        raise target.TargetError("the hsf benchmark did not finish:\n" + text[-2000:])
    return samples


def run() -> HsfTargetBench:
    elf = target.target_program(PORT, PROGRAM, f"apps/bench/target/{PROGRAM}")
    cmd = target.qemu_command(PORT, elf, ["--shift", str(SHIFT)], shift=SHIFT)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise target.TargetError(
            f"{elf.name} failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr}"
        )
    return HsfTargetBench(parse_output(done.stdout), " ".join(cmd))


def _cell(s: HsfSample | None) -> str:
    if s is None or s.samples == 0:
        return "-"
    if s.min == s.max:
        return f"{s.min}"
    return f"{s.min} / {s.max} / {s.mean:.1f}"


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
        "tick asked for no switch, so there is no decision to time.",
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
    out.mkdir(parents=True, exist_ok=True)
    csv_path = out / "hsf_target.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(["measurement", "servers", "samples", "min", "max", "mean"])
        for s in bench.samples:
            writer.writerow([s.measurement, s.servers, s.samples, s.min, s.max, f"{s.mean:.2f}"])
    md_path = out / "hsf_target.md"
    md_path.write_text(render_markdown(bench), encoding="utf-8")
    return [csv_path, md_path]
