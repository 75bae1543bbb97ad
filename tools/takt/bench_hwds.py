"""The HWDS study's experiment on the Cortex-M port (``takt bench hwds``).

papers/hardware-data-structures-rm-edf.txt, Fig. 1: software RM and EDF with their
ready queue and timer chain replaced by a hardware priority queue, against the same
schedulers all in software, on generated sets of n = 20..80 periodic tasks at total
utilisations U = 0.4..1.0 (10 sets each), as

    speed-up = (cycles of the software run - cycles of the HWDS run) / cycles of the run

Here the cycles are QEMU's instructions (``-icount``): a run's kernel time is what exact
work leaves of it (RunUsage.kernel_ns: the tick, the switches, the kernel calls, the
idle loop awake), and the run's length is the same for every placement (but a tick
longer where a tick was lost, RunUsage.ticks_lost), so the speed-up is the difference
of the two kernel times over the run. Each set runs with
nothing on the device (``sw``), only the ready queue on it (``ready``), only the timers
(``timers``), and both (``both``, the study's HWDS), so the figure splits into its two
halves. The boards have no such device: the runners emulate it (port/armv7m/
hwpq_emulated.c), hidden from the clock but for the instructions around each register
access, EMULATED_ACCESS_INSTRUCTIONS of them; each run counts its accesses, and the
summary also gives the speed-up as if each cost one instruction (a load or a store).

The sets are ``takt generate``'s (UUniFast), the same tasks under RM and EDF, with
periods of 100 ms to 10 s (its default list, times ten) at a 1 ms tick, so that the
wcets' whole ticks still reach small utilisations at 80 tasks; a run lasts the
hyperperiod (10 s) and the longest deadline after it, so that, as in the study, the
task with the longest period runs twice.
"""

from __future__ import annotations

import csv
import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from takt import target as targetmod
from takt.generator import DEFAULT_PERIODS, GenerateOptions, generate_scenario
from takt.model import Policy, RunResult, Scenario
from takt.run_pool import run_all
from takt.sim import (
    MAX_ICOUNT_SHIFT,
    MIN_DEVICE_ICOUNT_SHIFT,
    TIMERS_HWPQ_MAX_TASKS,
    run_scenario,
)
from takt.staged import staged_outputs

__all__ = [
    "EMULATED_ACCESS_INSTRUCTIONS",
    "FAMILIES",
    "PLACEMENTS",
    "HwdsOptions",
    "HwdsPoint",
    "HwdsRun",
    "output_names",
    "render_table",
    "run_hwds",
    "summarize",
    "write_outputs",
]

# A scheduler's software ready queue, by the names --policies takes.
FAMILIES: Final[dict[str, tuple[Policy, str]]] = {
    "rm": ("fp", "bitmap"),
    "edf": ("edf", "heap"),
    "edf-mlist": ("edf", "mlist"),
    "edf-rbtree": ("edf", "rbtree"),
}
# What is on the device: nothing, the ready queue, the timers, both.
PLACEMENTS: Final = ("sw", "ready", "timers", "both")
# The software timer queues the runs can be compared with: the runners' heap, or a
# sorted list as the study's RTEMS timer chain.
SW_TIMER_QUEUES: Final = ("heap", "list")
# What a register access of the emulated device costs the clock (takt bench target's
# hwpq_access calibration at -icount shift 7, docs/benchmarks.md); on silicon a
# memory-mapped device's register is one load or store.
EMULATED_ACCESS_INSTRUCTIONS: Final = 8
PERIODS: Final = tuple(10 * p for p in DEFAULT_PERIODS)
TICK_HZ: Final = 1000
# -icount shift 7, as takt bench target: an instruction is 128 ns (7.8 MHz), and a
# SysTick count 0.31 instructions, so an emulated access hides less than one.
DEFAULT_SHIFT: Final = 7


@dataclass(frozen=True)
class HwdsOptions:
    port: str = "qemu-m3"
    policies: tuple[str, ...] = ("rm", "edf")
    task_counts: tuple[int, ...] = (20, 40, 60, 80)
    utilizations: tuple[float, ...] = (0.4, 0.6, 0.8, 1.0)
    sets: int = 10
    seed: int = 1
    sw_timers: str = "heap"
    icount_shift: int = DEFAULT_SHIFT
    jobs: int = 1

    def __post_init__(self) -> None:
        targetmod.board(self.port)  # TargetError for an unknown board
        if not self.policies or any(p not in FAMILIES for p in self.policies):
            raise ValueError(f"policies: one or more of {', '.join(FAMILIES)}")
        if len(set(self.policies)) != len(self.policies):
            raise ValueError("policies: each at most once")
        if not self.task_counts or not self.utilizations:
            raise ValueError("at least one number of tasks and one utilisation")
        for n in self.task_counts:
            if not 1 <= n <= TIMERS_HWPQ_MAX_TASKS:
                raise ValueError(
                    f"tasks {n}: 1..{TIMERS_HWPQ_MAX_TASKS} (the device holds the timers "
                    "of that many)"
                )
        for u in self.utilizations:
            if not 0 < u <= min(self.task_counts):
                raise ValueError(f"utilisation {u:g}: in (0, {min(self.task_counts)}]")
        if self.sets < 1:
            raise ValueError("sets: at least 1")
        if self.sw_timers not in SW_TIMER_QUEUES:
            raise ValueError(
                f'software timers "{self.sw_timers}": choose from {", ".join(SW_TIMER_QUEUES)}'
            )
        if not MIN_DEVICE_ICOUNT_SHIFT <= self.icount_shift <= MAX_ICOUNT_SHIFT:
            raise ValueError(
                f"icount shift {self.icount_shift}: {MIN_DEVICE_ICOUNT_SHIFT}..{MAX_ICOUNT_SHIFT} "
                "(below, an emulated access hides more than 1.25 instructions of the kernel)"
            )
        if self.jobs < 1:
            raise ValueError("jobs: at least 1")

    def scenario(
        self, tasks: int, util: float, index: int, policy: str, placement: str
    ) -> Scenario:
        """Set ``index`` of the point, with the policy's ready queue for the placement."""
        kind, sw_queue = FAMILIES[policy]
        options = GenerateOptions(
            tasks=tasks,
            utilization=util,
            periods=PERIODS,
            policy=kind,
            priority="rm" if kind == "fp" else None,
            tick_hz=TICK_HZ,
            seed=self.seed,
        )
        s = generate_scenario(options, index)
        queue = "hwpq" if placement in ("ready", "both") else sw_queue
        return dataclasses.replace(
            s, system=dataclasses.replace(s.system, ready_queue=queue, port=self.port)
        )

    def timer_queue(self, placement: str) -> str:
        return "hwpq" if placement in ("timers", "both") else self.sw_timers


@dataclass(frozen=True)
class HwdsRun:
    """One set under one scheduler with one placement: where its time went."""

    tasks: int
    utilization: float  # the point's target
    index: int
    policy: str
    placement: str
    realised_utilization: float
    elapsed_ns: int
    kernel_ns: int
    accesses: int  # register accesses of the device's units
    jobs: int
    misses: int
    context_switches: int
    ticks_lost: int = 0  # a tick came while the one before was pending (RunUsage)


Runner = Callable[[Scenario, str, int], RunResult]


def _run_on_board(scenario: Scenario, timer_queue: str, shift: int) -> RunResult:
    return run_scenario(scenario, work="exact", icount_shift=shift, timer_queue=timer_queue)


def _record(point: tuple[int, float, int, str, str], result: RunResult) -> HwdsRun:
    n, u, index, policy, placement = point
    usage = result.usage
    if usage is None:
        raise ValueError("a run without exact work's time accounting")
    if not 0 <= usage.kernel_ns <= usage.elapsed_ns:
        raise ValueError(
            f"{result.scenario.source}: kernel time {usage.kernel_ns} ns outside the run's "
            f"{usage.elapsed_ns} ns (idle {usage.idle_ns}, work {usage.work_ns}, drains "
            f"{usage.drain_ns}): the board's clock went wrong"
        )
    accesses = sum(q.accesses for q in (result.hwpq, result.timer_hwpq) if q is not None)
    tasks = result.scenario.tasks
    return HwdsRun(
        tasks=n,
        utilization=u,
        index=index,
        policy=policy,
        placement=placement,
        realised_utilization=sum(t.wcet / t.period for t in tasks),
        elapsed_ns=usage.elapsed_ns,
        kernel_ns=usage.kernel_ns,
        accesses=accesses,
        jobs=len(result.jobs),
        misses=sum(1 for j in result.jobs if j.missed),
        context_switches=result.context_switches,
        ticks_lost=usage.ticks_lost,
    )


def run_hwds(
    options: HwdsOptions,
    run: Runner = _run_on_board,
    progress: Callable[[int, int], None] | None = None,
) -> list[HwdsRun]:
    """Every set of every point under every policy and placement, in that order."""
    work = [
        (n, u, index, policy, placement)
        for n in options.task_counts
        for u in options.utilizations
        for index in range(options.sets)
        for policy in options.policies
        for placement in PLACEMENTS
    ]

    def one(point: tuple[int, float, int, str, str]) -> HwdsRun:
        n, u, index, policy, placement = point
        scenario = options.scenario(n, u, index, policy, placement)
        result = run(scenario, options.timer_queue(placement), options.icount_shift)
        return _record(point, result)

    return run_all(one, work, options.jobs, progress)


@dataclass(frozen=True)
class HwdsPoint:
    """A point (policy, tasks, utilisation) and placement, over its sets: the speed-up
    over the same sets in software, as measured and with one instruction an access."""

    policy: str
    tasks: int
    utilization: float
    placement: str
    sets: int
    mean_realised_utilization: float
    speedup_mean: float
    speedup_sd: float
    one_instruction_mean: float
    one_instruction_sd: float
    kernel_instructions: float  # the placement's mean kernel instructions a run
    sw_kernel_instructions: float
    accesses: float  # mean register accesses a run
    misses: int  # missed deadlines over the point's sets
    sw_misses: int


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def _mean_sd(values: Sequence[float]) -> tuple[float, float]:
    mean = _mean(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


def summarize(options: HwdsOptions, runs: Sequence[HwdsRun]) -> list[HwdsPoint]:
    """Per policy, point and placement (sw's own row has speed-up 0)."""
    ns_per_instruction = 2**options.icount_shift
    saved_per_access = (EMULATED_ACCESS_INSTRUCTIONS - 1) * ns_per_instruction
    by_key = {(r.policy, r.tasks, r.utilization, r.index, r.placement): r for r in runs}
    points = []
    for policy in options.policies:
        for n in options.task_counts:
            for u in options.utilizations:
                sw = [by_key[(policy, n, u, i, "sw")] for i in range(options.sets)]
                for placement in PLACEMENTS:
                    mine = [by_key[(policy, n, u, i, placement)] for i in range(options.sets)]
                    speedups = [
                        (s.kernel_ns - r.kernel_ns) / r.elapsed_ns
                        for s, r in zip(sw, mine, strict=True)
                    ]
                    one = [
                        (s.kernel_ns - (r.kernel_ns - r.accesses * saved_per_access)) / r.elapsed_ns
                        for s, r in zip(sw, mine, strict=True)
                    ]
                    mean, sd = _mean_sd(speedups)
                    one_mean, one_sd = _mean_sd(one)
                    points.append(
                        HwdsPoint(
                            policy=policy,
                            tasks=n,
                            utilization=u,
                            placement=placement,
                            sets=len(mine),
                            mean_realised_utilization=_mean([r.realised_utilization for r in mine]),
                            speedup_mean=mean,
                            speedup_sd=sd,
                            one_instruction_mean=one_mean,
                            one_instruction_sd=one_sd,
                            kernel_instructions=_mean([r.kernel_ns for r in mine])
                            / ns_per_instruction,
                            sw_kernel_instructions=_mean([r.kernel_ns for r in sw])
                            / ns_per_instruction,
                            accesses=_mean([r.accesses for r in mine]),
                            misses=sum(r.misses for r in mine),
                            sw_misses=sum(r.misses for r in sw),
                        )
                    )
    return points


TABLE_HEADER: Final = (
    "policy",
    "tasks",
    "U",
    "on the device",
    "sets",
    "mean realised U",
    "kernel instructions a run (sw)",
    "kernel instructions a run",
    "device accesses a run",
    "speed-up % (sd)",
    "at one instruction an access % (sd)",
    "misses (sw)",
)


def _cells(p: HwdsPoint) -> list[str]:
    return [
        p.policy,
        str(p.tasks),
        f"{p.utilization:g}",
        p.placement,
        str(p.sets),
        f"{p.mean_realised_utilization:.3f}",
        f"{p.sw_kernel_instructions:,.0f}",
        f"{p.kernel_instructions:,.0f}",
        f"{p.accesses:,.0f}",
        f"{100 * p.speedup_mean:+.3f} ({100 * p.speedup_sd:.3f})",
        f"{100 * p.one_instruction_mean:+.3f} ({100 * p.one_instruction_sd:.3f})",
        f"{p.misses} ({p.sw_misses})",
    ]


def render_table(points: Sequence[HwdsPoint]) -> str:
    """A markdown table, one row per point and placement other than sw."""
    lines = [
        "| " + " | ".join(TABLE_HEADER) + " |",
        "|---|---:|---:|---|" + "---:|" * (len(TABLE_HEADER) - 4),
    ]
    lines += ["| " + " | ".join(_cells(p)) + " |" for p in points if p.placement != "sw"]
    return "\n".join(lines) + "\n"


def output_names(board: str) -> tuple[str, str, str, str]:
    """The files write_outputs makes for a board (runs, summary, table, chart)."""
    stem = f"hwds_{board}"
    return (f"{stem}_runs.csv", f"{stem}.csv", f"{stem}.md", f"{stem}.png")


def _write_rows(path: Path, rows: Sequence[HwdsRun] | Sequence[HwdsPoint], floats: str) -> None:
    """One row per dataclass, its fields as the header, floats in that format."""
    fields = [f.name for f in dataclasses.fields(rows[0])]
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(fields)
        for row in rows:
            writer.writerow(
                [format(v, floats) if isinstance(v, float) else v for v in dataclasses.astuple(row)]
            )


def _plot(path: Path, options: HwdsOptions, points: Sequence[HwdsPoint]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = len(options.policies)
    fig, axes = plt.subplots(rows, 2, figsize=(14, 3.8 * rows), squeeze=False)
    width = 0.8 / len(options.task_counts)
    for row, policy in enumerate(options.policies):
        for col, one_instruction in enumerate((False, True)):
            ax = axes[row][col]
            for k, n in enumerate(options.task_counts):
                mine = [
                    p for p in points if (p.policy, p.tasks, p.placement) == (policy, n, "both")
                ]
                xs = [
                    i + (k - (len(options.task_counts) - 1) / 2) * width for i in range(len(mine))
                ]
                means = [
                    100 * (p.one_instruction_mean if one_instruction else p.speedup_mean)
                    for p in mine
                ]
                sds = [
                    100 * (p.one_instruction_sd if one_instruction else p.speedup_sd) for p in mine
                ]
                ax.bar(xs, means, width, yerr=sds, capsize=2, label=f"n = {n}")
            ax.axhline(0, color="black", linewidth=0.8)
            ax.set_xticks(range(len(options.utilizations)))
            ax.set_xticklabels([f"U = {u:g}" for u in options.utilizations])
            ax.set_ylabel("speed-up, % of the run")
            access = (
                "one instruction an access"
                if one_instruction
                else f"as emulated ({EMULATED_ACCESS_INSTRUCTIONS} instructions an access)"
            )
            ax.set_title(f"{policy}: ready queue and timers on the device, {access}", fontsize=10)
            ax.grid(axis="y", alpha=0.3)
            ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def write_outputs(
    out_dir: Path,
    options: HwdsOptions,
    runs: Sequence[HwdsRun],
    points: Sequence[HwdsPoint],
    command: str,
) -> list[Path]:
    """The runs, the summary (CSV and markdown with the command) and the chart, in
    out_dir, all or none."""
    board = targetmod.board(options.port).board
    paths = [out_dir / name for name in output_names(board)]
    text = (
        f"# The HWDS study's experiment on {board}\n\n"
        f"Command: `{command}`\n\n"
        f"QEMU `{board}` with `-icount shift={options.icount_shift}` (an instruction is "
        f"{2**options.icount_shift} ns), exact work; software timers: {options.sw_timers}; "
        f"sets a point: {options.sets}. Speed-up: (kernel time with nothing on the device - "
        "kernel time with it) / the run's time, mean over the sets (sample standard "
        'deviation); docs/benchmarks.md, "The HWDS study\'s experiment". Runs that lost '
        f"a tick (the kernel past a whole tick with its interrupt held off; docs/ports.md): "
        f"{sum(1 for r in runs if r.ticks_lost)} of {len(runs)}.\n\n" + render_table(points)
    )
    with staged_outputs(out_dir) as outputs:
        with outputs.file(paths[0]) as p:
            _write_rows(p, runs, "g")
        with outputs.file(paths[1]) as p:
            _write_rows(p, points, ".8g")
        with outputs.file(paths[2]) as p:
            p.write_text(text, encoding="utf-8")
        with outputs.file(paths[3]) as p:
            _plot(p, options, points)
    return paths
