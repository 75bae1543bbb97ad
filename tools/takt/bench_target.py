"""Kernel costs on an emulated Cortex-M3 (``takt bench target``).

Runs apps/bench/target/kernel_costs.c (one program per timer-queue backend)
on QEMU ``mps2-an385`` under ``-icount shift=7`` and collects its sample
sets: instructions per operation, min / max / mean over the samples (jitter =
max - min). Also measures the kernel's text size with arm-none-eabi-size.
docs/benchmarks.md describes the method.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from takt import target

SHIFT = 7  # one instruction = 128 ns; a 25 MHz SysTick count = 0.3125 instructions
QUEUES = ("list", "heap", "rbtree")
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
class Sample:
    measurement: str
    timer_queue: str
    scheduler: str
    tasks: int
    samples: int
    min: int
    max: int
    mean: float

    @property
    def jitter(self) -> int:
        return self.max - self.min


@dataclass(frozen=True)
class TargetBench:
    samples: list[Sample]
    calibration: list[str]
    commands: list[str]
    object_text: dict[str, int]  # kernel object -> text bytes (list timer queue build)
    port_text: int


def parse_output(text: str) -> tuple[list[Sample], list[str]]:
    """The bench program's lines: 'bench,...' sample sets and 'calibration,...' checks."""
    samples: list[Sample] = []
    calibration: list[str] = []
    done = False
    for line in text.splitlines():
        fields = line.strip().split(",")
        if fields[0] == "bench" and len(fields) == 9:
            what, queue, sched, tasks, n, lo, hi, mean100 = fields[1:]
            samples.append(
                Sample(what, queue, sched, int(tasks), int(n), int(lo), int(hi), int(mean100) / 100)
            )
        elif fields[0] == "calibration":
            calibration.append(line.strip())
        elif fields[0] == "done":
            done = True
    if not done:
        raise target.TargetError("the benchmark program did not finish:\n" + text[-2000:])
    return samples, calibration


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
    for queue in QUEUES:
        elf = target.target_program(
            PORT, f"takt-bench-kernel-{queue}", f"apps/bench/target/takt-bench-kernel-{queue}"
        )
        cmd = target.qemu_command(PORT, elf, ["--shift", str(SHIFT)], shift=SHIFT)
        commands.append(" ".join(cmd))
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise target.TargetError(f"{elf.name} failed ({done.returncode}):\n{done.stderr}")
        got, cal = parse_output(done.stdout)
        samples += got
        calibration += [f"{queue}: {c}" for c in cal]
    build = target.build_dir(PORT)
    objects = _text_sizes(build / "apps/bench/target/libtakt_kernel_bench_list.a")
    port_obj = next(
        (build / "apps/bench/target").glob("**/takt-bench-kernel-list.dir/**/port_armv7m.c.obj")
    )
    port_text = _text_sizes(port_obj).get("port_armv7m", 0)
    return TargetBench(samples, calibration, commands, objects, port_text)


def write_results(bench: TargetBench, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    csv_path = out / "target_costs.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(
            [
                "measurement",
                "timer_queue",
                "scheduler",
                "tasks",
                "samples",
                "min",
                "max",
                "mean",
                "jitter",
            ]
        )
        for s in bench.samples:
            writer.writerow(
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
                ]
            )
    md_path = out / "target_costs.md"
    md_path.write_text(render_markdown(bench), encoding="utf-8")
    return [csv_path, md_path]


def _find(
    bench: TargetBench, what: str, queue: str, sched: str = "fp", tasks: int | None = None
) -> Sample:
    for s in bench.samples:
        if (s.measurement, s.timer_queue, s.scheduler) == (what, queue, sched) and (
            tasks is None or s.tasks == tasks
        ):
            return s
    raise KeyError((what, queue, sched, tasks))


def _cell(s: Sample) -> str:
    if s.min == s.max:
        return f"{s.min}"
    return f"{s.min} / {s.max} / {s.mean:.1f}"


def render_markdown(bench: TargetBench) -> str:
    lines = [
        "# Kernel costs on QEMU mps2-an385 (Cortex-M3), in guest instructions",
        "",
        f"Recorded by `takt bench target`; method in docs/benchmarks.md. `-icount shift={SHIFT}`:"
        f" one instruction = {2**SHIFT} ns of virtual time; SysTick counts at 25 MHz.",
        "Cells are min / max / mean over the samples (one number when all samples agree);",
        "jitter = max - min. Exception entry and exit count as zero instructions under icount.",
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
        "## Per policy: job release (a tick releasing one job, no switch) and dispatch",
        "",
        "Release: N tasks, task i released once at tick i+1 into a ready queue holding the",
        "i jobs released before it, non-preemptive mode (the running task stays); the tick",
        "also re-arms the task's release timer. Dispatch: job end to the first instruction",
        "after the next task's own takt_job_end, with N-1 .. 1 jobs ready.",
        "Timer queue: heap (rbtree and list in target_costs.csv).",
        "",
        "| scheduler | tasks | job release | dispatch |",
        "|---|---:|---:|---:|",
    ]
    for sched in ("fp", "edf-heap", "edf-mlist", "edf-rbtree"):
        for n in (2, 4, 8, 16, 32, 64):
            rel = _find(bench, "job_release", "heap", sched, n)
            dis = _find(bench, "dispatch", "heap", sched, n)
            lines.append(f"| {sched} | {n} | {_cell(rel)} | {_cell(dis)} |")
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
        "```",
        *bench.calibration,
        "```",
        "",
    ]
    return "\n".join(lines)


def render_summary(bench: TargetBench) -> str:
    y = _find(bench, "yield_switch", "list")
    t0 = _find(bench, "tick_no_wake", "list")
    t1 = _find(bench, "tick_wake_preempt", "list")
    d0 = _find(bench, "delay", "list", tasks=0)
    d31 = _find(bench, "delay", "list", tasks=31)
    return (
        f"yield switch {_cell(y)}, tick no wake {_cell(t0)}, tick waking a preempting task "
        f"{_cell(t1)}, takt_delay {_cell(d0)} (+{(d31.mean - d0.mean) / 31:.1f} per delayed "
        f"task, list) instructions"
    )
