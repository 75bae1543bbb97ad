"""The kernel on an emulated Cortex-M (QEMU mps2-an385/an386, ports qemu-m3/qemu-m4).

A scenario run on the target gives the same timeline and job table as on the
sim: examples by hand, FP and EDF, deferred preemption, equal-priority ties,
random task sets; the scenario's ``port`` key and ``--port`` select the
target; target traces map stamps to the nearest tick (and refuse stamps far
from every tick), sim traces stay exact. These run QEMU (installed by
scripts/setup), a fraction of a second per run.
"""

from __future__ import annotations

import random
import struct
import subprocess
from pathlib import Path

import pytest
from conftest import VENV_BIN, T, scenario_toml

from takt import target
from takt import trace as tracemod
from takt.scenario import load_scenario, parse_scenario
from takt.sim import RunError, run_scenario, unsupported_reason

pytestmark = pytest.mark.qemu

REPO = Path(__file__).resolve().parents[2]


def _same_as_sim(scenario_path: Path, port: str) -> None:
    scenario = load_scenario(scenario_path)
    sim = run_scenario(scenario)
    emulated = run_scenario(scenario, port=port)
    assert emulated.timeline == sim.timeline
    assert emulated.jobs == sim.jobs


@pytest.mark.parametrize(
    "example",
    [
        "three_tasks.toml",
        "fp_equal_priorities.toml",
        "fp_tie_q_first.toml",
        "edf_two_tasks.toml",
        "edf_equal_deadlines.toml",
        "fpds_surveillance.toml",
        "fp_overload.toml",
        "hsf_idling.toml",
        "hsf_deferrable.toml",
    ],
)
def test_examples_on_m3_match_the_sim(example: str) -> None:
    _same_as_sim(REPO / "examples" / example, "qemu-m3")


@pytest.mark.parametrize("example", ["three_tasks.toml", "edf_two_tasks.toml"])
def test_examples_on_m4_match_the_sim(example: str) -> None:
    _same_as_sim(REPO / "examples" / example, "qemu-m4")


@pytest.mark.parametrize("seed", range(4))
def test_random_task_sets_match_the_sim(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    tasks: list[T] = []
    while len(tasks) < 4:
        period = rng.randint(3, 12)
        tasks.append(T(period, rng.randint(1, max(1, period // 3)), rng.randint(1, 6)))
    policy = "edf" if seed % 2 else "fp"
    path = tmp_path / "random.toml"
    path.write_text(scenario_toml(tasks, 40, policy=policy))
    _same_as_sim(path, "qemu-m3")


def test_port_key_selects_the_target(tmp_path: Path) -> None:
    text = scenario_toml([T(4, 1, 2), T(6, 3, 1)], 12).replace(
        "[system]", '[system]\nport = "qemu-m4"'
    )
    path = tmp_path / "on_m4.toml"
    path.write_text(text)
    scenario = load_scenario(path)
    assert scenario.system.port == "qemu-m4"
    assert unsupported_reason(scenario) is None
    emulated = run_scenario(scenario)
    sim = run_scenario(scenario, port="sim")
    assert emulated.timeline == sim.timeline
    # the target's events are stamped a little after the tick (kernel code takes time)
    assert any(event.time != int(event.time) for event in emulated.events)
    assert all(event.time == int(event.time) for event in sim.events)


def test_cli_port_option(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(scenario_toml([T(4, 1, 2), T(6, 3, 1)], 12))
    outputs = []
    for port in ("sim", "qemu-m3"):
        done = subprocess.run(
            [str(VENV_BIN / "takt"), "run", str(path), "--port", port, "--timeline", "-"],
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].startswith("start,end,server,task,job\n0,1,,T1,0\n1,4,,T2,0\n")


def test_cli_refuses_an_unknown_port(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(scenario_toml([T(4, 1, 2)], 8))
    done = subprocess.run(
        [str(VENV_BIN / "takt"), "run", str(path), "--port", "qemu-m7"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "invalid choice" in done.stderr


def _trace_bytes(stamps: list[int], header: str) -> bytes:
    body = b"".join(struct.pack("<QHHI", s, 3, 1, 0) for s in stamps)
    return f"takt-trace 1\ntick_ns 1000000\n{header}task 1 A\nevents\n".encode() + body


def test_nearest_tick_rounding() -> None:
    trace = tracemod.decode(_trace_bytes([0, 3_000_480, 4_999_000], "stamps nearest-tick\n"))
    assert trace.nearest_tick
    assert [trace.ticks(e.stamp) for e in trace.events] == [0, 3, 5]


def test_nearest_tick_refuses_stamps_far_from_a_tick() -> None:
    trace = tracemod.decode(_trace_bytes([3_300_000], "stamps nearest-tick\n"))
    with pytest.raises(tracemod.TraceFormatError, match="quarter tick"):
        trace.ticks(trace.events[0].stamp)


def test_sim_traces_stay_exact() -> None:
    trace = tracemod.decode(_trace_bytes([3_000_480], ""))
    assert not trace.nearest_tick
    with pytest.raises(tracemod.TraceFormatError, match="not on a tick boundary"):
        trace.ticks(trace.events[0].stamp)


def test_unknown_stamp_mapping_is_refused() -> None:
    with pytest.raises(tracemod.TraceFormatError, match="stamp mapping"):
        tracemod.decode(_trace_bytes([0], "stamps sloppy\n"))


def test_qemu_command_line() -> None:
    cmd = target.qemu_command("qemu-m3", Path("/x/takt-runner"), ["-o", "/tmp/t"])
    assert cmd[cmd.index("-M") + 1] == "mps2-an385"
    assert "shift=0,sleep=off" in cmd
    assert "enable=on,target=native,arg=takt-runner,arg=-o,arg=/tmp/t" in cmd
    with pytest.raises(target.TargetError, match="cannot hold"):
        target.qemu_command("qemu-m4", Path("/x/r"), ["a,b"])
    with pytest.raises(target.TargetError, match="unknown target port"):
        target.qemu_command("qemu-m0", Path("/x/r"))


def test_unsupported_reason_names_the_ports() -> None:
    scenario = parse_scenario(scenario_toml([T(4, 1, 2)], 8), "inline.toml")
    assert unsupported_reason(scenario) is None
    with pytest.raises(RunError, match="not available"):
        run_scenario(scenario, port="qemu-m9")


def test_bench_output_parsing() -> None:
    from takt import bench_target

    text = "board,x\ncalibration,spin,100,202\nbench,delay,list,fp,3,40,226,230,22750\ndone\n"
    samples, calibration = bench_target.parse_output(text)
    assert calibration == ["calibration,spin,100,202"]
    assert samples[0].tasks == 3 and samples[0].jitter == 4 and samples[0].mean == 227.5
    with pytest.raises(target.TargetError, match="did not finish"):
        bench_target.parse_output("bench,delay,list,fp,3,40,226,230,22750\n")


def test_kernel_cost_method_on_qemu() -> None:
    """The measuring program on QEMU: loops of known length count exactly, a
    cooperative switch costs the same every time, a tick that wakes a task
    costs more than one that does not, and the sorted-list timer queue's
    takt_delay grows by the same step per delayed task."""
    from takt import bench_target

    elf = target.target_program(
        "qemu-m3", "takt-bench-kernel-list", "apps/bench/target/takt-bench-kernel-list"
    )
    shift = bench_target.SHIFT
    cmd = target.qemu_command("qemu-m3", elf, ["--shift", str(shift)], shift=shift)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=True)
    samples, calibration = bench_target.parse_output(done.stdout)
    spins = [line.split(",") for line in calibration if ",spin," in line]
    assert spins and all(int(f[3]) == 2 * int(f[2]) + 2 for f in spins)
    by = {(s.measurement, s.scheduler, s.tasks): s for s in samples}
    yield_switch = by[("yield_switch", "fp", 2)]
    assert yield_switch.samples == 40 and yield_switch.jitter == 0
    assert by[("tick_wake_preempt", "fp", 2)].min > by[("tick_no_wake", "fp", 1)].max
    delays = [by[("delay", "fp", n)].min for n in range(32)]
    steps = {delays[i + 1] - delays[i] for i in range(31)}
    assert len(steps) == 1 and steps.pop() > 0
