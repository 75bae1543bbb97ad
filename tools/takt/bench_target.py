"""Kernel costs on an emulated Cortex-M3 (``takt bench target``).

Runs apps/bench/target/kernel_costs.c (one program per timer-queue backend)
on QEMU ``mps2-an385`` under ``-icount shift=7`` and collects its sample
sets: instructions per operation, min / max / mean over the samples (jitter =
max - min). Each program also runs in its meter build (``-masked``, the port's
TAKT_ARM_MASK_METER), which gives the instructions the same windows executed
with interrupts masked; the meter's own calibration windows are checked first.
Also measures the kernel's text size with arm-none-eabi-size.
docs/benchmarks.md describes the method.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from takt import target
from takt.staged import staged_outputs

SHIFT = 7  # one instruction = 128 ns; a 25 MHz SysTick count = 0.3125 instructions
QUEUES = ("list", "heap", "rbtree")
# The program with the hardware priority queue (hw/) emulated by its model,
# SysTick stopped while it runs (port/armv7m/hwpq_emulated.c): timers on the
# device, and the fp-hwpq and edf-hwpq ready queues beside their software ones.
HW_QUEUE = "hw"
HW_SCHEDULERS = ("fp", "fp-hwpq", "edf-heap", "edf-hwpq")
PORT = "qemu-m3"

# FreeRTOS V11 on the same emulator and window (issue 7), in instructions.
FREERTOS_REFERENCE = {
    "yield_switch": "46",
    "tick_no_wake": "31",
    "tick_wake_preempt": "138",
    "delay": "177 + 5 per task already delayed with an earlier wake time",
    "kernel_text_bytes": "8,760",
}

# The kernel's objects a fixed-priority-only build needs (the others are the
# EDF policies and the timer-queue backends this build does not use).
FP_OBJECTS = ("pq_sorted_list", "core", "policy_fp", "kernel", "task", "job", "time", "trace")


@dataclass(frozen=True)
class Masked:
    """Instructions executed with interrupts masked (BASEPRI raised) in a sample
    set's windows, from the meter build; `unmeasured`: windows the meter could
    not attribute (a section open at one end only), which makes a run invalid."""

    samples: int
    min: int
    max: int
    mean: float
    unmeasured: int = 0


@dataclass(frozen=True)
class Sample:
    measurement: str
    timer_queue: str
    scheduler: str
    tasks: int
    samples: int
    min: int
    max: int
    mean: float
    masked: Masked | None = None

    @property
    def jitter(self) -> int:
        return self.max - self.min

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.measurement, self.timer_queue, self.scheduler, self.tasks)


@dataclass(frozen=True)
class TargetBench:
    samples: list[Sample]
    calibration: list[str]
    commands: list[str]
    object_text: dict[str, int]  # kernel object -> text bytes (list timer queue build)
    port_text: int
    # (measurement, scheduler, tasks) -> the emulated device's register accesses in one window
    device_accesses: dict[tuple[str, str, int], int] = field(default_factory=dict)


def parse_device_accesses(text: str) -> dict[tuple[str, str, int], int]:
    """The 'hwpq,<measurement>,<scheduler>,<tasks>,<accesses>' lines: the
    emulated hardware queue's register accesses in one window of a sample set."""
    found: dict[tuple[str, str, int], int] = {}
    for line in text.splitlines():
        fields = line.strip().split(",")
        if fields[0] == "hwpq" and len(fields) == 5:
            found[(fields[1], fields[2], int(fields[3]))] = int(fields[4])
    return found


def parse_masked_line(fields: list[str], key_fields: int) -> tuple[tuple[str, ...], Masked] | None:
    """A 'masked,<key...>,<n>,<min>,<max>,<mean x100>,<unmeasured>' line split
    at commas (key_fields fields name the sample set), or None if it is not one."""
    if fields[0] != "masked" or len(fields) != 1 + key_fields + 5:
        return None
    n, lo, hi, mean100, unmeasured = (int(f) for f in fields[1 + key_fields :])
    return tuple(fields[1 : 1 + key_fields]), Masked(n, lo, hi, mean100 / 100, unmeasured)


def parse_output(text: str) -> tuple[list[Sample], list[str]]:
    """The bench program's lines: 'bench,...' sample sets (with the 'masked,...'
    line of the same set attached, in a meter build's output) and
    'calibration,...' checks."""
    samples: list[Sample] = []
    masked: dict[tuple[str, ...], Masked] = {}
    calibration: list[str] = []
    done = False
    for line in text.splitlines():
        fields = line.strip().split(",")
        if fields[0] == "bench" and len(fields) == 9:
            what, queue, sched, tasks, n, lo, hi, mean100 = fields[1:]
            samples.append(
                Sample(what, queue, sched, int(tasks), int(n), int(lo), int(hi), int(mean100) / 100)
            )
        elif (found := parse_masked_line(fields, 4)) is not None:
            masked[found[0]] = found[1]
        elif fields[0] == "calibration":
            calibration.append(line.strip())
        elif fields[0] == "done":
            done = True
    if not done:
        raise target.TargetError("the benchmark program did not finish:\n" + text[-2000:])
    samples = [
        replace(s, masked=masked.get((s.measurement, s.timer_queue, s.scheduler, str(s.tasks))))
        for s in samples
    ]
    return samples, calibration


def check_masked_calibration(calibration: list[str]) -> list[str]:
    """Problems with the meter's calibration windows (kernel_costs.c,
    calibrate_masked): no section masks 0; a window inside a section is all
    masked; a section around spin(n) masks 2 more per n, and its unmasked rest
    (window - masked) is the same positive number for every n."""
    problems: list[str] = []
    rows: dict[str, list[tuple[int, int, int]]] = {}
    for line in calibration:
        fields = line.split(",")
        if len(fields) == 5 and fields[1].startswith("masked_"):
            n, window, masked = (int(f) for f in fields[2:])
            rows.setdefault(fields[1], []).append((n, window, masked))
    for kind in ("masked_none", "masked_inside", "masked_section"):
        if not rows.get(kind):
            problems.append(f"no {kind} calibration lines")
    for n, _window, masked in rows.get("masked_none", []):
        if masked != 0:
            problems.append(f"masked_none {n}: {masked} masked in a window without a section")
    for n, window, masked in rows.get("masked_inside", []):
        if masked != window:
            problems.append(f"masked_inside {n}: {masked} masked of a {window}-instruction window")
    section = sorted(rows.get("masked_section", []))
    rests = {window - masked for _, window, masked in section}
    if section and (len(rests) != 1 or min(rests) <= 0):
        problems.append(f"masked_section: unmasked rest {sorted(rests)} is not one positive number")
    for (n0, _, m0), (n1, _, m1) in zip(section, section[1:], strict=False):
        if m1 - m0 != 2 * (n1 - n0):
            problems.append(
                f"masked_section {n0}->{n1}: masked grows by {m1 - m0}, not {2 * (n1 - n0)}"
            )
    return problems


def masked_problem(name: str, samples: int, low: int, high: int, m: Masked | None) -> str | None:
    """What is wrong with one sample set's masked line (windows of samples
    samples, low..high instructions), or None: it must be there, with one
    masked count per window, none unmeasured, and masked at most the window
    (both measured in the meter build: the meter's own instructions are in its
    windows, not in its masked counts)."""
    if m is None:
        return f"{name}: no masked line"
    if m.unmeasured != 0 or m.samples != samples:
        return f"{name}: {m.samples} masked of {samples} windows, {m.unmeasured} unmeasured"
    if m.samples > 0 and (m.min > low or m.max > high or not m.min <= m.mean <= m.max):
        return f"{name}: masked {m.min}..{m.max} against window {low}..{high}"
    return None


def check_masked_samples(samples: list[Sample]) -> list[str]:
    """Problems with a meter build's sample sets (masked_problem)."""
    found = (
        masked_problem(",".join(str(k) for k in s.key), s.samples, s.min, s.max, s.masked)
        for s in samples
    )
    return [p for p in found if p is not None]


def with_masked(plain: list[Sample], metered: list[Sample]) -> list[Sample]:
    """The plain program's windows with the meter program's masked counts
    (TargetError when the two programs did not measure the same sample sets)."""
    by_key = {s.key: s.masked for s in metered}
    if set(by_key) != {s.key for s in plain}:
        raise target.TargetError("the plain and -masked programs measured different sample sets")
    return [replace(s, masked=by_key[s.key]) for s in plain]


def _run_program(elf: Path) -> tuple[str, str]:
    cmd = target.qemu_command(PORT, elf, ["--shift", str(SHIFT)], shift=SHIFT)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise target.TargetError(
            f"{elf.name} failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr}"
        )
    return target.shown_command(cmd), done.stdout


def run_pair(program: str) -> tuple[list[str], str, str]:
    """Runs apps/bench/target/<program> and <program>-masked: their QEMU command
    lines and outputs (plain, meter)."""
    commands: list[str] = []
    outputs: list[str] = []
    for name in (program, f"{program}-masked"):
        elf = target.target_program(PORT, name, f"apps/bench/target/{name}")
        cmd, out = _run_program(elf)
        commands.append(cmd)
        outputs.append(out)
    return commands, outputs[0], outputs[1]


def _text_sizes(archive: Path) -> dict[str, int]:
    size = shutil.which("arm-none-eabi-size") or "arm-none-eabi-size"
    out = subprocess.run([size, str(archive)], capture_output=True, text=True, check=True).stdout
    sizes: dict[str, int] = {}
    for line in out.splitlines()[1:]:
        parts = line.split()
        if len(parts) >= 6:
            sizes[Path(parts[5]).name.split(".")[0]] = int(parts[0])
    return sizes


def run() -> TargetBench:
    samples: list[Sample] = []
    calibration: list[str] = []
    commands: list[str] = []
    device_accesses: dict[tuple[str, str, int], int] = {}
    for queue in (*QUEUES, HW_QUEUE):
        cmds, plain_out, meter_out = run_pair(f"takt-bench-kernel-{queue}")
        device_accesses |= parse_device_accesses(plain_out)
        commands += cmds
        plain, cal = parse_output(plain_out)
        metered, meter_cal = parse_output(meter_out)
        problems = check_masked_calibration(meter_cal) + check_masked_samples(metered)
        if problems:
            raise target.TargetError(
                f"takt-bench-kernel-{queue}-masked: the meter's counts are wrong:\n"
                + "\n".join(problems)
            )
        samples += with_masked(plain, metered)
        calibration += [f"{queue}: {c}" for c in cal]
        calibration += [f"{queue}: {c}" for c in meter_cal if c.startswith("calibration,masked_")]
    build = target.build_dir(PORT)
    objects = _text_sizes(build / "apps/bench/target/libtakt_kernel_bench_list.a")
    port_obj = next(
        (build / "apps/bench/target").glob("**/takt-bench-kernel-list.dir/**/port_armv7m.c.obj")
    )
    port_text = _text_sizes(port_obj).get("port_armv7m", 0)
    return TargetBench(samples, calibration, commands, objects, port_text, device_accesses)


def write_table_and_markdown(
    out: Path, stem: str, header: Sequence[str], rows: Iterable[Sequence[object]], markdown: str
) -> list[Path]:
    """``stem``.csv (header, rows) and ``stem``.md in out: both or none (staged)."""
    csv_path, md_path = out / f"{stem}.csv", out / f"{stem}.md"
    with staged_outputs(out) as outputs:
        with (
            outputs.file(csv_path) as temporary,
            open(temporary, "w", newline="", encoding="utf-8") as stream,
        ):
            writer = csv.writer(stream)
            writer.writerow(header)
            writer.writerows(rows)
        with outputs.file(md_path) as temporary:
            temporary.write_text(markdown, encoding="utf-8")
    return [csv_path, md_path]


def write_results(bench: TargetBench, out: Path) -> list[Path]:
    header = [
        "measurement",
        "timer_queue",
        "scheduler",
        "tasks",
        "samples",
        "min",
        "max",
        "mean",
        "jitter",
        "masked_min",
        "masked_max",
        "masked_mean",
    ]
    rows = (
        [
            s.measurement,
            s.timer_queue,
            s.scheduler,
            s.tasks,
            s.samples,
            s.min,
            s.max,
            f"{s.mean:.2f}",
            s.jitter,
            *masked_columns(s.masked),
        ]
        for s in bench.samples
    )
    return write_table_and_markdown(out, "target_costs", header, rows, render_markdown(bench))


def _find(
    bench: TargetBench, what: str, queue: str, sched: str = "fp", tasks: int | None = None
) -> Sample:
    for s in bench.samples:
        if (s.measurement, s.timer_queue, s.scheduler) == (what, queue, sched) and (
            tasks is None or s.tasks == tasks
        ):
            return s
    raise KeyError((what, queue, sched, tasks))


def masked_columns(m: Masked | None) -> list[str]:
    """masked_min, masked_max, masked_mean of a CSV row (empty without a count)."""
    if m is None or m.samples == 0:
        return ["", "", ""]
    return [str(m.min), str(m.max), f"{m.mean:.2f}"]


def stat_cell(lo: int, hi: int, mean: float) -> str:
    """min / max / mean, or one number when all samples agree."""
    if lo == hi:
        return f"{lo}"
    return f"{lo} / {hi} / {mean:.1f}"


def masked_suffix(m: Masked | None) -> str:
    """' (m masked)' for a table cell; nothing without a count."""
    if m is None or m.samples == 0:
        return ""
    return f" ({stat_cell(m.min, m.max, m.mean)} masked)"


def _cell(s: Sample) -> str:
    return stat_cell(s.min, s.max, s.mean) + masked_suffix(s.masked)


def render_markdown(bench: TargetBench) -> str:
    lines = [
        "# Kernel costs on QEMU mps2-an385 (Cortex-M3), in guest instructions",
        "",
        f"Recorded by `takt bench target`; method in docs/benchmarks.md. `-icount shift={SHIFT}`:"
        f" one instruction = {2**SHIFT} ns of virtual time; SysTick counts at 25 MHz.",
        "Cells are min / max / mean over the samples (one number when all samples agree);",
        "jitter = max - min. Exception entry and exit count as zero instructions under icount.",
        "In parentheses: the instructions of the same windows executed with interrupts masked",
        "(BASEPRI at the kernel level; from the -masked programs, the port's meter; a handler's",
        "own run at kernel priority counts only where it opens a critical section).",
        "Kernel build: apps/bench/target/takt_config.h (no trace, no asserts, no stack check,",
        "no round-robin), -O3, arm-none-eabi-gcc 12.",
        "",
        "QEMU command lines:",
        "",
        "```",
        *bench.commands,
        "```",
        "",
        "## Against FreeRTOS V11 (same emulator, same windows)",
        "",
        "| operation | Takt (list timer queue) | heap | rbtree | FreeRTOS V11 |",
        "|---|---:|---:|---:|---:|",
    ]
    for what, label in (
        ("yield_switch", "cooperative yield switch"),
        ("tick_no_wake", "tick, no wake"),
        ("tick_wake_preempt", "tick waking a task that preempts"),
    ):
        row = [_cell(_find(bench, what, q)) for q in QUEUES]
        lines.append(f"| {label} | {' | '.join(row)} | {FREERTOS_REFERENCE[what]} |")
    for queue_tasks in (0, 1, 8, 31):
        row = [_cell(_find(bench, "delay", q, tasks=queue_tasks)) for q in QUEUES]
        ref = FREERTOS_REFERENCE["delay"] if queue_tasks == 0 else f"{177 + 5 * queue_tasks}"
        lines.append(
            f"| takt_delay, {queue_tasks} tasks already delayed (earlier wake) | "
            f"{' | '.join(row)} | {ref} |"
        )
    fp_text = sum(v for k, v in bench.object_text.items() if k in FP_OBJECTS)
    all_text = sum(bench.object_text.values())
    lines += [
        f"| kernel text, FP objects + port (bytes) | {fp_text + bench.port_text:,} | | | "
        f"{FREERTOS_REFERENCE['kernel_text_bytes']} |",
        f"| kernel text, all objects + port (bytes) | {all_text + bench.port_text:,} | | | |",
        "",
        "## takt_delay against the number of tasks already delayed",
        "",
        "| delayed | " + " | ".join(QUEUES) + " |",
        "|---:|" + "---:|" * len(QUEUES),
    ]
    for n in range(32):
        lines.append(
            f"| {n} | "
            + " | ".join(_cell(_find(bench, "delay", q, tasks=n)) for q in QUEUES)
            + " |"
        )
    lines += [
        "",
        "## Per policy: job release (a tick releasing one job, no switch), dispatch, and the"
        " ready queue's head removal and pick",
        "",
        "Release: N tasks, task i released once at tick i+1 into a ready queue holding the",
        "i jobs released before it, each of a higher priority (up to 28 levels) or an",
        "earlier deadline, so it goes behind them: the one-list fp queue (fp-list) walks",
        "past them. Non-preemptive mode (the running task stays); the tick",
        "also re-arms the task's release timer. Dispatch: job end to the first instruction",
        "after the next task's own takt_job_end, with N-1 .. 1 jobs ready.",
        "Head removal and pick: the policy's own operations alone (through its table, as",
        "the runtime-policy kernel calls them), inside the kernel's section: the running",
        "job leaves the head of a queue holding N jobs and the next is picked.",
        "Timer queue: heap (rbtree and list in target_costs.csv).",
        "",
        "| scheduler | tasks | job release | dispatch | head removal + pick |",
        "|---|---:|---:|---:|---:|",
    ]
    for sched in ("fp", "fp-list", "edf-heap", "edf-mlist", "edf-rbtree"):
        for n in (2, 4, 8, 16, 32, 64):
            rel = _find(bench, "job_release", "heap", sched, n)
            dis = _find(bench, "dispatch", "heap", sched, n)
            pick = _find(bench, "head_removal_pick", "heap", sched, n)
            lines.append(f"| {sched} | {n} | {_cell(rel)} | {_cell(dis)} | {_cell(pick)} |")
    lines += render_hardware_queue(bench)
    lines += [
        "",
        "## Kernel text by object (bytes, list timer-queue build)",
        "",
        "| object | text |",
        "|---|---:|",
        *(f"| {k} | {v:,} |" for k, v in bench.object_text.items()),
        f"| port_armv7m | {bench.port_text:,} |",
        "",
        "## Calibration (spin(n) is 2n+2 instructions: the method counts exactly)",
        "",
        "The masked_* lines (from the -masked programs: window, masked) check the meter:",
        "no section masks 0, a window inside a section is all masked, a section around",
        "spin(n) masks 2 more per n with the same unmasked rest.",
        "",
        "```",
        *bench.calibration,
        "```",
        "",
    ]
    return "\n".join(lines)


def render_hardware_queue(bench: TargetBench) -> list[str]:
    """The section on the emulated hardware priority queue (takt-bench-kernel-hw)."""
    access = [c for c in bench.calibration if ",hwpq_access_" in c]
    lines = [
        "",
        "## The hardware priority queue (hw/), emulated",
        "",
        "takt-bench-kernel-hw: the same program with hw/'s C model as the device, run with",
        "SysTick stopped (port/armv7m/hwpq_emulated.c), so a window counts the instructions",
        "around each register access and not the model's. Timers on the device (unit 1);",
        "fp-hwpq (the device indexes the non-empty priority levels) and edf-hwpq (it holds",
        "the ready jobs) on unit 0, beside fp and edf-heap built into the same program. One",
        "emulated access costs the instructions in the calibration lines below (a call, and",
        "SysTick stopped and started again; on silicon one load or store), and stopping",
        "SysTick drops the part of a 25 MHz count in progress (at most 0.31 instructions",
        "at this shift), so a window with k accesses may read up to 0.31k low.",
        "",
        "```",
        *access,
        "```",
        "",
        "| scheduler | tasks | job release | dispatch | head removal + pick | accesses in pick |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for sched in HW_SCHEDULERS:
        for n in (2, 4, 8, 16, 32, 64):
            rel = _find(bench, "job_release", HW_QUEUE, sched, n)
            dis = _find(bench, "dispatch", HW_QUEUE, sched, n)
            pick = _find(bench, "head_removal_pick", HW_QUEUE, sched, n)
            accesses = bench.device_accesses.get(("head_removal_pick", sched, n), 0)
            lines.append(
                f"| {sched} | {n} | {_cell(rel)} | {_cell(dis)} | {_cell(pick)} | {accesses} |"
            )
    lines += [
        "",
        "takt_delay with the timers on the device, against the tasks already delayed:",
        "",
        "| delayed | 0 | 1 | 8 | 31 |",
        "|---|---:|---:|---:|---:|",
        "| hw | "
        + " | ".join(_cell(_find(bench, "delay", HW_QUEUE, tasks=n)) for n in (0, 1, 8, 31))
        + " |",
    ]
    return lines


def render_summary(bench: TargetBench) -> str:
    y = _find(bench, "yield_switch", "list")
    t0 = _find(bench, "tick_no_wake", "list")
    t1 = _find(bench, "tick_wake_preempt", "list")
    d0 = _find(bench, "delay", "list", tasks=0)
    d31 = _find(bench, "delay", "list", tasks=31)
    return (
        "instructions (masked in parentheses): "
        f"yield switch {_cell(y)}, tick no wake {_cell(t0)}, tick waking a preempting task "
        f"{_cell(t1)}, takt_delay {_cell(d0)} (+{(d31.mean - d0.mean) / 31:.1f} per delayed "
        f"task, list)"
    )
