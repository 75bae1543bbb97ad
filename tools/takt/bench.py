"""Benchmarks that print numbers: sim-port speed.

``takt bench sim`` runs a generated periodic task set on the sim port and
reports scheduler events (kernel trace events: releases, dispatches,
preemptions, completions, blocks, wakes) per wall-clock second, measured by
the runner around the kernel's run alone (set-up and trace decoding excluded).
It then runs the same set as ``takt run`` does (runner, trace decoding,
timeline, job table, summary) and reports that pipeline's wall time and the
process's peak memory.
"""

from __future__ import annotations

import random
import resource
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from takt.generator import periodic_task_set
from takt.model import Scenario, SystemConfig
from takt.report.summary import render_summary
from takt.sim import RunError, compile_input, run_runner, run_scenario, runner_path
from takt.staged import staged_outputs


@dataclass(frozen=True)
class SimSpeed:
    tasks: int
    ticks: int
    events: int
    context_switches: int
    interrupts: int
    wall_seconds: float

    @property
    def events_per_second(self) -> float:
        return self.events / self.wall_seconds

    @property
    def ticks_per_second(self) -> float:
        return self.ticks / self.wall_seconds


def generated_scenario(tasks: int, ticks: int, utilization: float, seed: int) -> Scenario:
    rng = random.Random(seed)
    return Scenario(
        system=SystemConfig(duration=ticks),
        tasks=tuple(periodic_task_set(tasks, utilization, rng)),
        source=f"generated: {tasks} tasks, U={utilization}, seed {seed}",
    )


def sim_speed(
    tasks: int = 50,
    ticks: int = 1_000_000,
    utilization: float = 0.85,
    seed: int = 1,
    repeat: int = 3,
) -> SimSpeed:
    """Best of `repeat` runs of one generated task set (the first run warms caches)."""
    scenario = generated_scenario(tasks, ticks, utilization, seed)
    binary = runner_path()
    best: SimSpeed | None = None
    with tempfile.TemporaryDirectory(prefix="takt-bench-") as tmp:
        input_path = Path(tmp) / "scenario.in"
        input_path.write_text(compile_input(scenario))
        for _ in range(repeat):
            stats, errors = run_runner(
                [str(binary), "-o", str(Path(tmp) / "trace.bin"), str(input_path)], None
            )
            if errors:
                raise RunError("runner failed:\n" + "\n".join(errors))
            run = SimSpeed(
                tasks,
                ticks,
                int(stats["events"]),
                int(stats["context_switches"]),
                int(stats["interrupts"]),
                float(stats["wall_s"]),
            )
            if best is None or run.wall_seconds < best.wall_seconds:
                best = run
    assert best is not None
    return best


def render_sim_speed(result: SimSpeed) -> str:
    return (
        f"sim port, {result.tasks} tasks, {result.ticks} ticks (1 kHz): "
        f"{result.events} scheduler events, {result.context_switches} context switches, "
        f"{result.interrupts} interrupts in {result.wall_seconds:.3f} s wall\n"
        f"  {result.events_per_second / 1e6:.2f} M scheduler events/s, "
        f"{result.ticks_per_second / 1e6:.2f} M simulated ticks/s "
        f"({result.ticks_per_second / 1000:.0f}x real time)"
    )


@dataclass(frozen=True)
class RunCost:
    """``takt run``'s pipeline on a generated set: what it made, its time, its memory."""

    tasks: int
    ticks: int
    jobs: int
    timeline_rows: int
    events: int
    wall_seconds: float
    peak_rss_bytes: int

    @property
    def bytes_per_job(self) -> float:
        return self.peak_rss_bytes / self.jobs


def run_cost(
    tasks: int = 50, ticks: int = 1_000_000, utilization: float = 0.85, seed: int = 1
) -> RunCost:
    """One run_scenario + summary of the generated set. The peak is this process's
    (ru_maxrss): run it in a fresh process, as ``takt bench sim`` does, and it is
    the pipeline's, plus the interpreter's own few tens of MB."""
    scenario = generated_scenario(tasks, ticks, utilization, seed)
    started = time.perf_counter()
    result = run_scenario(scenario)
    render_summary(result)
    wall = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    return RunCost(
        tasks, ticks, len(result.jobs), len(result.timeline), len(result.events), wall, peak
    )


def render_run_cost(cost: RunCost) -> str:
    return (
        f"takt run pipeline (runner, trace decoding, timeline, job table, summary), same set: "
        f"{cost.jobs} jobs, {cost.timeline_rows} timeline rows, {cost.events} events "
        f"in {cost.wall_seconds:.2f} s wall\n"
        f"  peak RSS {cost.peak_rss_bytes / 2**20:.0f} MiB ({cost.bytes_per_job:.0f} bytes a job)"
    )


# ---- ready queues ----

QUEUE_OPS = ("remove-head", "insert-preempted", "insert-release")
MEASURED_FUNCTIONS = {
    "remove-head": "measured_remove_head",
    "insert-preempted": "measured_insert_preempted",
    "insert-release": "measured_insert_release",
}


@dataclass(frozen=True)
class QueueCost:
    queue: str
    n: int
    op: str
    ops: int
    mean_ns: float
    p99_ns: float
    max_ns: float
    mean_instr: float | None  # processor instruction counter, when the machine has one
    max_instr: float | None
    callgrind_instr: float | None  # callgrind, deterministic mean

    CSV_HEADER = "queue,n,op,ops,mean_ns,p99_ns,max_ns,mean_instr,max_instr,callgrind_instr"

    def csv(self) -> str:
        def opt(v: float | None) -> str:
            return "" if v is None else f"{v:.1f}"

        return (
            f"{self.queue},{self.n},{self.op},{self.ops},{self.mean_ns:.1f},{self.p99_ns:.1f},"
            f"{self.max_ns:.1f},{opt(self.mean_instr)},{opt(self.max_instr)},"
            f"{opt(self.callgrind_instr)}"
        )


def bench_binary(name: str) -> Path:
    """A benchmark program from the release build next to the runner, built or
    brought up to date now (a stale program would measure an older kernel)."""
    from takt.sim import DEFAULT_BUILD_DIR, build_target

    binary = DEFAULT_BUILD_DIR / "apps" / "bench" / name
    if binary.exists() and shutil.which("cmake") is None:
        return binary  # nothing to bring it up to date with
    build_target(DEFAULT_BUILD_DIR, name)
    return binary


def _callgrind_means(binary: Path, queue: str, n: int, iterations: int) -> dict[str, float]:
    """Mean instructions per operation, counted by callgrind inside each measured function."""
    with tempfile.TemporaryDirectory(prefix="takt-cg-") as tmp:
        out = Path(tmp) / "callgrind.out"
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        cmd += [f"--toggle-collect={fn}" for fn in MEASURED_FUNCTIONS.values()]
        cmd += [
            str(binary),
            "--queue",
            queue,
            "--n",
            str(n),
            "--iterations",
            str(iterations),
            "--no-instr",
        ]
        subprocess.run(cmd, capture_output=True, check=True)
        annotated = subprocess.run(
            ["callgrind_annotate", "--inclusive=yes", str(out)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    means: dict[str, float] = {}
    for op, fn in MEASURED_FUNCTIONS.items():
        for line in annotated.splitlines():
            if line.rstrip().endswith("]") and f":{fn} " in line:
                means[op] = int(line.split()[0].replace(",", "")) / iterations
    return means


def queue_costs(
    iterations: int = 20000, callgrind: bool = True, callgrind_iterations: int = 1000
) -> list[QueueCost]:
    binary = bench_binary("takt-bench-queues")
    done = subprocess.run(
        [str(binary), "--iterations", str(iterations)], capture_output=True, text=True, check=True
    )
    rows = []
    use_callgrind = callgrind and shutil.which("valgrind") is not None
    cache: dict[tuple[str, int], dict[str, float]] = {}
    for line in done.stdout.strip().splitlines()[1:]:
        f = line.split(",")
        queue, n, op = f[0], int(f[1]), f[2]
        cg: float | None = None
        if use_callgrind:
            if (queue, n) not in cache:
                cache[(queue, n)] = _callgrind_means(binary, queue, n, callgrind_iterations)
            cg = cache[(queue, n)].get(op)
        rows.append(
            QueueCost(
                queue,
                n,
                op,
                int(f[3]),
                float(f[4]),
                float(f[5]),
                float(f[6]),
                float(f[7]) if f[7] else None,
                float(f[8]) if f[8] else None,
                cg,
            )
        )
    return rows


def write_queue_results(rows: list[QueueCost], out_dir: Path) -> tuple[Path, Path, Path]:
    """CSV, a plot (instructions and ns per operation vs ready jobs) and a markdown table."""
    csv_path, png_path, md_path = (out_dir / f"queues.{ext}" for ext in ("csv", "png", "md"))
    with staged_outputs(out_dir) as outputs:  # all three or none
        with outputs.file(csv_path) as temporary:
            temporary.write_text(
                QueueCost.CSV_HEADER + "\n" + "\n".join(r.csv() for r in rows) + "\n"
            )
        with outputs.file(png_path) as temporary:
            _plot_queues(rows, temporary)
        with outputs.file(md_path) as temporary:
            temporary.write_text(render_queue_table(rows))
    return csv_path, png_path, md_path


def _plot_queues(rows: list[QueueCost], png_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(15, 8), sharex=True)
    for col, op in enumerate(QUEUE_OPS):
        for queue in sorted({r.queue for r in rows}):
            series = [r for r in rows if r.queue == queue and r.op == op]
            ns = [r.n for r in series]
            instr = [
                r.callgrind_instr if r.callgrind_instr is not None else r.mean_instr for r in series
            ]
            if all(v is not None for v in instr):
                axes[0][col].plot(ns, instr, marker="o", label=queue)
            axes[1][col].plot(ns, [r.mean_ns for r in series], marker="o", label=queue)
        axes[0][col].set_title(op)
        axes[0][col].set_ylabel("instructions / op (mean)")
        axes[1][col].set_ylabel("ns / op (mean, host)")
        axes[1][col].set_xlabel("ready jobs")
        for ax in (axes[0][col], axes[1][col]):
            ax.set_xscale("log", base=2)
            ax.grid(True, alpha=0.3)
            ax.legend()
    fig.suptitle("EDF ready queues: cost per operation vs number of ready jobs")
    fig.tight_layout()
    fig.savefig(png_path, dpi=90)
    plt.close(fig)


def render_queue_table(rows: list[QueueCost]) -> str:
    lines = [
        "| queue | ready jobs | operation | instr mean (callgrind) | instr mean / max (counter) "
        "| ns mean / p99 |",
        "|---|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        cg = "" if r.callgrind_instr is None else f"{r.callgrind_instr:.1f}"
        counter = "" if r.mean_instr is None else f"{r.mean_instr:.1f} / {r.max_instr:.0f}"
        lines.append(
            f"| {r.queue} | {r.n} | {r.op} | {cg} | {counter} | {r.mean_ns:.1f} / {r.p99_ns:.0f} |"
        )
    return "\n".join(lines) + "\n"


# --- hsf: tick cost against the number of servers ------------------------------------

HSF_TICK_CASES = (
    "tick_quiet",
    "tick_deplete",
    "tick_replenish",
    "switch_quiet",
    "switch_deplete",
    "switch_replenish",
)


@dataclass(frozen=True)
class HsfTickCost:
    """Callgrind instructions per call of one measured function (apps/bench/hsf_tick_bench.c)."""

    servers: int
    case: str
    calls: int
    instr_mean: float


def hsf_tick_costs(servers: list[int] | None = None) -> list[HsfTickCost]:
    """Builds and runs takt-bench-hsf-tick (callgrind; needs valgrind) and parses its CSV."""
    if shutil.which("valgrind") is None:
        raise RunError("takt bench hsf needs valgrind (apt-get install valgrind)")
    binary = bench_binary("takt-bench-hsf-tick")
    cmd = [str(binary), "--csv"]
    for n in servers or []:
        cmd += ["--servers", str(n)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RunError(f"takt-bench-hsf-tick failed:\n{done.stdout}{done.stderr}")
    lines = done.stdout.strip().splitlines()
    if not lines or lines[0] != "servers,case,calls,instr_mean":
        raise RunError(f"takt-bench-hsf-tick: unexpected output:\n{done.stdout}")
    rows = []
    for line in lines[1:]:
        fields = line.split(",")
        rows.append(HsfTickCost(int(fields[0]), fields[1], int(fields[2]), float(fields[3])))
    return rows


def render_hsf_tick_table(rows: list[HsfTickCost]) -> str:
    """Markdown: one row per number of servers, one column per measured function."""
    cases = [c for c in HSF_TICK_CASES if any(r.case == c for r in rows)]
    by_key = {(r.servers, r.case): r.instr_mean for r in rows}
    lines = [
        "| servers | " + " | ".join(cases) + " |",
        "|---:|" + "---:|" * len(cases),
    ]
    for n in sorted({r.servers for r in rows}):
        cells = [f"{by_key[(n, c)]:.1f}" if (n, c) in by_key else "" for c in cases]
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_hsf_tick_results(rows: list[HsfTickCost], out_dir: Path) -> tuple[Path, Path]:
    csv_path = out_dir / "hsf_tick.csv"
    md_path = out_dir / "hsf_tick.md"
    with staged_outputs(out_dir) as outputs:  # both or none
        with outputs.file(csv_path) as temporary:
            temporary.write_text(
                "servers,case,calls,instr_mean\n"
                + "".join(f"{r.servers},{r.case},{r.calls},{r.instr_mean:.1f}\n" for r in rows)
            )
        with outputs.file(md_path) as temporary:
            temporary.write_text(_hsf_tick_markdown(rows))
    return csv_path, md_path


def _hsf_tick_markdown(rows: list[HsfTickCost]) -> str:
    return (
        "Instructions per call (callgrind, inclusive, deterministic) of the tick handler "
        "(`tick_*`) and of the scheduling decision after it (`switch_*`) under the hsf "
        "scheduler, by tick class, against the number of servers "
        "(apps/bench/hsf_tick_bench.c; `takt bench hsf`). A `switch_*` cell is the "
        "switch point the tick itself asked for; a quiet tick asks for none (nothing "
        "changed), so its cell is empty.\n\n" + render_hsf_tick_table(rows)
    )
