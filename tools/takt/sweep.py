"""Schedulability experiments: success ratio against the number of tasks or the utilisation.

The experiment of the EDF-on-FreeRTOS study (papers/edf-freertos-heap-vs-multilist-vs-rm):
UUniFast sets at each point of a sweep, run under each policy;

    success ratio = sets with no missed deadline / sets generated

next to the analysis' acceptance ratio (sets a test proves schedulable) and the mean
number of context switches. Set i of a point is ``takt generate``'s set i for that
point's options and seed (and the same set under every policy, which draws nothing), so
any run of a sweep can be written out and looked at on its own. The same index at every
point gives the points common random numbers (their differences are less noisy than
with independent draws). Every run is also checked against its analysis with ``takt
check``'s rules, so a sweep is a check as well. On a board with exact work the runs
carry the kernel's time, and the records its share of each run (``kernel_share``): a
disagreement with the analysis is then what the sweep measures.

Besides the EDF study's policies, a sweep runs fixed priority without preemption (FPNS)
and with deferred preemption (FPDS: each job cut into non-preemptive subjobs), and a
two-level hierarchy (hsf: the tasks spread over servers). Each is the same task set:
the generator draws the subjobs' cuts and the hierarchy after the tasks. FPNS, FPDS and
the servers' tasks take the generator's priorities, rm's, or dm's with constrained
deadlines, so their points differ from those of rm (dm with constrained deadlines) only
by what the policy does with the same tasks.
"""

from __future__ import annotations

import csv
import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from takt.analysis import analyze_scenario, utilization
from takt.check import check_run
from takt.generator import GenerateOptions, generate_scenario, max_tasks, set_tasks
from takt.model import Policy, Preemption, PriorityAssignment, RunResult, Scenario
from takt.run_pool import run_all
from takt.staged import staged_outputs

__all__ = [
    "DEFAULT_SEGMENTS",
    "SWEEP_POLICIES",
    "PointSummary",
    "RunRecord",
    "SweepOptions",
    "SweepPolicy",
    "check_policies",
    "check_policy_names",
    "check_task_counts",
    "render_sweep_table",
    "run_sweep",
    "summarize_sweep",
    "write_sweep_outputs",
]


@dataclass(frozen=True)
class SweepPolicy:
    """What a sweep's policy name runs: the kernel policy, the priority rule (None: the
    generator's, rm for implicit deadlines and dm for constrained ones; EDF has none),
    the ready queue and the preemption mode."""

    policy: Policy
    rule: PriorityAssignment | None
    ready_queue: str
    preemption: Preemption = "full"

    @property
    def subjobs(self) -> bool:
        """Its jobs are cut into non-preemptive subjobs (the sweep's segments)."""
        return self.preemption == "deferred"


# A sweep's policy names (the study's EDF-H is "edf", its EDF-L "edf-mlist").
SWEEP_POLICIES: Final[dict[str, SweepPolicy]] = {
    "rm": SweepPolicy("fp", "rm", "bitmap"),
    "dm": SweepPolicy("fp", "dm", "bitmap"),
    "fpns": SweepPolicy("fp", None, "bitmap", "none"),
    "fpds": SweepPolicy("fp", None, "bitmap", "deferred"),
    "edf": SweepPolicy("edf", None, "heap"),
    "edf-mlist": SweepPolicy("edf", None, "mlist"),
    "edf-rbtree": SweepPolicy("edf", None, "rbtree"),
    "hsf": SweepPolicy("hsf", None, "bitmap"),
}

# Subjobs per job under fpds, unless the sweep says.
DEFAULT_SEGMENTS: Final = 3


def check_policy_names(policies: Sequence[str], known: Sequence[str]) -> None:
    """Refuses an empty list or name, a name not in ``known``, and a repeat, with a
    message that starts "policies" (the option's name, for a caller to prefix)."""
    if not any(policies):
        raise ValueError("policies: name at least one of " + ", ".join(known))
    if "" in policies:
        raise ValueError(
            "policies: an empty name in the list (two commas in a row, or one at an end)"
        )
    unknown = [p for p in policies if p not in known]
    if unknown:
        raise ValueError(f"policies {', '.join(unknown)}: choose from " + ", ".join(known))
    if len(set(policies)) != len(policies):
        raise ValueError("policies: each at most once")


def check_policies(policies: Sequence[str]) -> None:
    """check_policy_names for a sweep's policies."""
    check_policy_names(policies, tuple(SWEEP_POLICIES))


def check_task_counts(policies: Sequence[str], tasks: Sequence[int]) -> None:
    """Refuses a number of tasks more than a swept policy's sets may have (takt
    generate's limit, max_tasks): fixed priority and hsf give each task a priority of
    its own, EDF needs none and takes a run's limit. The message starts "tasks" (the
    option's name, for a caller to prefix) and names the policies that limit it.
    ``policies`` are known names (check_policies)."""
    most = max_tasks("edf")
    for n in tasks:
        if n > most:
            raise ValueError(f"tasks {n}: at most {most} (a run's limit)")
        limiting = [p for p in policies if n > max_tasks(SWEEP_POLICIES[p].policy)]
        if limiting:
            limit = min(max_tasks(SWEEP_POLICIES[p].policy) for p in limiting)
            raise ValueError(
                f"tasks {n}: at most {limit} with {', '.join(limiting)} (one priority "
                f"each); the EDF policies take up to {most}"
            )


@dataclass(frozen=True)
class SweepOptions:
    """One set of options per point: ``base`` with the point's tasks and utilisation,
    and with what each policy needs: fpds's subjobs (``segments``, at most that many a
    job) and hsf's servers (``base``'s servers, server type, server periods and
    budgets)."""

    base: GenerateOptions
    policies: tuple[str, ...] = ("rm", "edf")
    tasks: tuple[int, ...] = (10,)
    utilizations: tuple[float, ...] = (0.85,)
    sets: int = 30
    port: str | None = None  # None: the sim
    jobs: int = 1
    segments: int = DEFAULT_SEGMENTS

    def __post_init__(self) -> None:
        check_policies(self.policies)
        if not self.tasks or not self.utilizations:
            raise ValueError("a sweep needs at least one number of tasks and one utilisation")
        if len(set(self.tasks)) != len(self.tasks):
            raise ValueError("tasks: each number at most once (a repeat would run its point twice)")
        if len(set(self.utilizations)) != len(self.utilizations):
            raise ValueError(
                "utilization: each value at most once (a repeat would run its point twice)"
            )
        check_task_counts(self.policies, self.tasks)
        if len(self.tasks) > 1 and len(self.utilizations) > 1:
            raise ValueError("sweep the number of tasks or the utilisation, not both")
        if self.sets < 1:
            raise ValueError("sets: at least 1")
        if self.jobs < 1:
            raise ValueError("jobs: at least 1")
        if "fpds" in self.policies and self.segments < 2:
            raise ValueError(f"segments {self.segments}: fpds cuts a job into at least 2")
        for n in self.tasks:
            for u in self.utilizations:
                for policy in self.policies:
                    self.point_options(n, u, policy)  # refuses a bad point now

    @property
    def axis(self) -> str:
        return "utilization" if len(self.utilizations) > 1 else "tasks"

    def point_options(self, tasks: int, util: float, policy: str) -> GenerateOptions:
        chosen = SWEEP_POLICIES[policy]
        return dataclasses.replace(
            self.base,
            tasks=tasks,
            utilization=util,
            policy=chosen.policy,
            priority=chosen.rule,
            preemption=chosen.preemption,
            segments=self.segments if chosen.subjobs else 1,
        )

    def draw_every_set(self) -> None:
        """Draws every set's tasks once, to raise GenerateError for a set the
        utilisation tolerance cannot reach before any run (the tasks are the same
        under every policy, so the first one's options do)."""
        if self.base.utilization_tolerance is None:
            return  # nothing to miss: each set is its first draw
        for n in self.tasks:
            for u in self.utilizations:
                options = self.point_options(n, u, self.policies[0])
                for index in range(self.sets):
                    set_tasks(options, index)

    def point_scenario(self, tasks: int, util: float, index: int, policy: str) -> Scenario:
        """Set ``index`` of the point, as ``policy`` runs it."""
        scenario = generate_scenario(self.point_options(tasks, util, policy), index)
        system = dataclasses.replace(
            scenario.system, ready_queue=SWEEP_POLICIES[policy].ready_queue
        )
        return dataclasses.replace(scenario, system=system)


@dataclass(frozen=True)
class RunRecord:
    """One set under one policy: what the analysis said and what the run did."""

    tasks: int
    utilization: float  # the point's target
    index: int
    policy: str
    realised_utilization: float
    proved: bool  # a test proves the set schedulable
    misses: int
    jobs: int
    context_switches: int
    contradictions: tuple[str, ...]
    kernel_share: float | None = None  # exact work on a board: the kernel's share of the run
    ticks_lost: int | None = None  # exact work on a board: ticks a drain saw lost (RunUsage)

    @property
    def success(self) -> bool:
        return self.misses == 0

    @property
    def with_kernel_time(self) -> bool:
        """The run's work had the kernel's time on top (exact work): a contradiction of
        the analysis, which leaves that out, is then a measured overhead effect."""
        return self.kernel_share is not None


@dataclass(frozen=True)
class PointSummary:
    tasks: int
    utilization: float
    policy: str
    sets: int
    success_ratio: float
    acceptance_ratio: float
    mean_realised_utilization: float
    mean_context_switches: float
    contradictions: int
    mean_kernel_share: float | None = None


def _record(
    scenario: Scenario, result: RunResult, point: tuple[int, float], index: int, policy: str
) -> RunRecord:
    report = analyze_scenario(scenario)
    check = check_run(result, report)
    return RunRecord(
        tasks=point[0],
        utilization=point[1],
        index=index,
        policy=policy,
        realised_utilization=float(utilization(scenario.tasks)),
        proved=any(r.applicable and r.schedulable is True for r in report.results),
        misses=check.misses,
        jobs=len(result.jobs),
        context_switches=result.context_switches,
        contradictions=check.contradictions,
        kernel_share=None if result.usage is None else result.usage.kernel_share,
        ticks_lost=None if result.usage is None else result.usage.ticks_lost,
    )


Runner = Callable[[Scenario, str | None], RunResult]


def run_sweep(
    options: SweepOptions,
    run: Runner,
    progress: Callable[[int, int], None] | None = None,
) -> list[RunRecord]:
    """Every set of every point under every policy, in that order (the order of the
    records does not depend on ``jobs``). A set the utilisation tolerance cannot reach
    raises GenerateError before the first run."""
    options.draw_every_set()
    work: list[tuple[tuple[int, float], int, str]] = [
        ((n, u), index, policy)
        for n in options.tasks
        for u in options.utilizations
        for index in range(options.sets)
        for policy in options.policies
    ]

    def one(item: tuple[tuple[int, float], int, str]) -> RunRecord:
        (n, u), index, policy = item
        scenario = options.point_scenario(n, u, index, policy)
        return _record(scenario, run(scenario, options.port), (n, u), index, policy)

    return run_all(one, work, options.jobs, progress)


def summarize_sweep(options: SweepOptions, records: Sequence[RunRecord]) -> list[PointSummary]:
    """Per point and policy, in sweep order."""
    summaries = []
    for n in options.tasks:
        for u in options.utilizations:
            for policy in options.policies:
                mine = [r for r in records if (r.tasks, r.utilization, r.policy) == (n, u, policy)]
                count = len(mine)
                shares = [r.kernel_share for r in mine if r.kernel_share is not None]
                summaries.append(
                    PointSummary(
                        tasks=n,
                        utilization=u,
                        policy=policy,
                        sets=count,
                        success_ratio=sum(r.success for r in mine) / count,
                        acceptance_ratio=sum(r.proved for r in mine) / count,
                        mean_realised_utilization=sum(r.realised_utilization for r in mine) / count,
                        mean_context_switches=sum(r.context_switches for r in mine) / count,
                        contradictions=sum(len(r.contradictions) for r in mine),
                        mean_kernel_share=sum(shares) / len(shares) if shares else None,
                    )
                )
    return summaries


SUMMARY_HEADER: Final = (
    "tasks",
    "U",
    "policy",
    "sets",
    "success ratio",
    "acceptance ratio",
    "mean realised U",
    "mean context switches",
    "contradictions",
)


KERNEL_HEADER: Final = "mean kernel time %"


def _measured(summaries: Sequence[PointSummary]) -> bool:
    """The runs had exact work (the kernel's time measured): the tables say how much."""
    return any(s.mean_kernel_share is not None for s in summaries)


def _header(measured: bool) -> list[str]:
    return [*SUMMARY_HEADER, KERNEL_HEADER] if measured else list(SUMMARY_HEADER)


def _summary_cells(s: PointSummary, measured: bool) -> list[str]:
    kernel = (
        []
        if not measured
        else ["-" if s.mean_kernel_share is None else f"{100 * s.mean_kernel_share:.3f}"]
    )
    return [
        str(s.tasks),
        f"{s.utilization:g}",
        s.policy,
        str(s.sets),
        f"{s.success_ratio:.3f}",
        f"{s.acceptance_ratio:.3f}",
        f"{s.mean_realised_utilization:.4f}",
        f"{s.mean_context_switches:.1f}",
        str(s.contradictions),
        *kernel,
    ]


def render_sweep_table(summaries: Sequence[PointSummary]) -> str:
    """A markdown table, one row per point and policy."""
    measured = _measured(summaries)
    header = _header(measured)
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "---:|" * 2 + "---|" + "---:|" * (len(header) - 3),
    ]
    lines += ["| " + " | ".join(_summary_cells(s, measured)) + " |" for s in summaries]
    return "\n".join(lines) + "\n"


def _write_runs(path: Path, records: Sequence[RunRecord]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(
            [
                "tasks",
                "utilization",
                "set",
                "policy",
                "realised_utilization",
                "proved",
                "misses",
                "jobs",
                "context_switches",
                "contradictions",
                "kernel_share",
                "ticks_lost",
            ]
        )
        for r in records:
            writer.writerow(
                [
                    r.tasks,
                    f"{r.utilization:g}",
                    r.index,
                    r.policy,
                    f"{r.realised_utilization:.6f}",
                    int(r.proved),
                    r.misses,
                    r.jobs,
                    r.context_switches,
                    len(r.contradictions),
                    "" if r.kernel_share is None else f"{r.kernel_share:.6f}",
                    "" if r.ticks_lost is None else r.ticks_lost,
                ]
            )


def _write_summary_csv(path: Path, summaries: Sequence[PointSummary]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        measured = _measured(summaries)
        writer.writerow([h.replace(" ", "_") for h in _header(measured)])
        for s in summaries:
            writer.writerow(_summary_cells(s, measured))


def _plot(path: Path, options: SweepOptions, summaries: Sequence[PointSummary]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_tasks = options.axis == "tasks"
    measured = _measured(summaries)
    fig, axes = plt.subplots(1, 3 if measured else 2, figsize=(18 if measured else 12, 4.5))
    ratio_ax, switch_ax = axes[0], axes[1]
    for policy in options.policies:
        mine = [s for s in summaries if s.policy == policy]
        xs = [s.tasks if by_tasks else s.utilization for s in mine]
        line = ratio_ax.plot(xs, [s.success_ratio for s in mine], marker="o", label=policy)
        colour = line[0].get_color()
        ratio_ax.plot(
            xs,
            [s.acceptance_ratio for s in mine],
            linestyle="--",
            marker="x",
            color=colour,
            label=f"{policy} (analysis)",
        )
        switch_ax.plot(
            xs, [s.mean_context_switches for s in mine], marker="o", color=colour, label=policy
        )
        if measured:
            axes[2].plot(
                xs,
                [100 * (s.mean_kernel_share or 0.0) for s in mine],
                marker="o",
                color=colour,
                label=policy,
            )
    label = "tasks per set" if by_tasks else "utilisation (target)"
    fixed = f"U = {options.utilizations[0]:g}" if by_tasks else f"{options.tasks[0]} tasks per set"
    ratio_ax.set(xlabel=label, ylabel="ratio of sets", ylim=(-0.03, 1.03))
    ratio_ax.set_title(f"success ratio (runs) and acceptance ratio (analysis), {fixed}")
    switch_ax.set(xlabel=label, ylabel="context switches per run")
    switch_ax.set_title(f"mean context switches, {options.sets} sets per point")
    if measured:
        axes[2].set(xlabel=label, ylabel="% of the run")
        axes[2].set_title("mean kernel time (exact work on the board)")
    for ax in axes:
        ax.legend(fontsize="small")
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


SWEEP_OUTPUT_NAMES = ("runs.csv", "summary.csv", "summary.md", "sweep.png")


def write_sweep_outputs(
    out_dir: Path,
    options: SweepOptions,
    records: Sequence[RunRecord],
    summaries: Sequence[PointSummary],
    command: str,
) -> list[Path]:
    """runs.csv (one row per run), summary.csv, summary.md (with the command that made
    it) and sweep.png, in out_dir."""
    paths = [out_dir / n for n in SWEEP_OUTPUT_NAMES]
    with staged_outputs(out_dir) as outputs:  # all four or none, each named if it fails
        with outputs.file(paths[0]) as runs:
            _write_runs(runs, records)
        with outputs.file(paths[1]) as summary:
            _write_summary_csv(summary, summaries)
        with outputs.file(paths[2]) as table:
            table.write_text(
                f"# Sweep\n\nCommand: `{command}`\n\n{render_sweep_table(summaries)}",
                encoding="utf-8",
            )
        with outputs.file(paths[3]) as chart:
            _plot(chart, options, summaries)
    return paths
