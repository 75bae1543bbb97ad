"""Benchmarks that print numbers: sim-port speed.

``takt bench sim`` runs a generated periodic task set on the sim port and
reports scheduler events (kernel trace events: releases, dispatches,
preemptions, completions, blocks, wakes) per wall-clock second, measured by
the runner around the kernel's run alone (set-up and trace decoding excluded).
"""

from __future__ import annotations

import random
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from takt.generator import periodic_task_set
from takt.model import Scenario, SystemConfig
from takt.sim import RunError, compile_input, runner_path


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


def sim_speed(tasks: int = 50, ticks: int = 1_000_000, utilization: float = 0.85,
              seed: int = 1, repeat: int = 3) -> SimSpeed:
    """Best of `repeat` runs of one generated task set (the first run warms caches)."""
    rng = random.Random(seed)
    scenario = Scenario(
        system=SystemConfig(duration=ticks),
        tasks=tuple(periodic_task_set(tasks, utilization, rng)),
        source=f"generated: {tasks} tasks, U={utilization}, seed {seed}",
    )
    binary = runner_path()
    best: SimSpeed | None = None
    with tempfile.TemporaryDirectory(prefix="takt-bench-") as tmp:
        input_path = Path(tmp) / "scenario.in"
        input_path.write_text(compile_input(scenario))
        for _ in range(repeat):
            done = subprocess.run(
                [str(binary), "-o", str(Path(tmp) / "trace.bin"), str(input_path)],
                capture_output=True, text=True,
            )
            if done.returncode != 0:
                raise RunError(f"runner failed: {done.stderr}")
            stats = dict(
                f.split("=", 1) for f in done.stderr.strip().splitlines()[-1].split()[1:]
            )
            run = SimSpeed(tasks, ticks, int(stats["events"]), int(stats["context_switches"]),
                           int(stats["interrupts"]), float(stats["wall_s"]))
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
