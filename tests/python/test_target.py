"""The kernel on an emulated Cortex-M (QEMU mps2-an385/an386, ports qemu-m3/qemu-m4).

A scenario run on the target gives the same timeline and job table as on the
sim: examples by hand, FP and EDF, deferred preemption, equal-priority ties,
random task sets (FP, EDF on each ready queue, FPNS and FPDS, hierarchies of
idling and deferrable servers); the scenario's ``port`` key and ``--port`` select the
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
from hsf_gen import hierarchy, random_hierarchy
from test_fpds import random_set as random_fpds_set
from test_fpds import scenario as fpds_scenario

from takt import target
from takt import trace as tracemod
from takt.generator import GenerateOptions, generate_scenario
from takt.model import Scenario
from takt.scenario import load_scenario, parse_scenario
from takt.sim import RunError, run_scenario, unsupported_reason

pytestmark = pytest.mark.qemu

REPO = Path(__file__).resolve().parents[2]


def _same_as_sim(scenario_path: Path, port: str) -> None:
    _scenario_same_as_sim(load_scenario(scenario_path), port)


def _scenario_same_as_sim(scenario: Scenario, port: str) -> None:
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


@pytest.mark.parametrize("ready_queue", ["heap", "mlist", "rbtree"])
def test_random_edf_sets_match_the_sim_on_every_ready_queue(ready_queue: str) -> None:
    rng = random.Random(f"edf-{ready_queue}")
    for _ in range(2):
        tasks = []
        for _ in range(rng.randint(3, 6)):
            period = rng.randint(4, 20)
            wcet = rng.randint(1, max(1, period // 3))
            tasks.append(T(period, wcet, None, rng.randint(wcet, period), rng.randrange(4)))
        text = scenario_toml(tasks, 60, policy="edf").replace(
            'policy = "edf"', f'policy = "edf"\nready_queue = "{ready_queue}"'
        )
        _scenario_same_as_sim(parse_scenario(text, "<random edf>"), "qemu-m3")


@pytest.mark.parametrize("preemption", ["none", "deferred"])
def test_random_fpns_and_fpds_sets_match_the_sim(preemption: str) -> None:
    rng = random.Random(f"fpds-{preemption}")
    for i in range(3):
        tasks = random_fpds_set(rng, offsets=i % 2 == 0)
        _scenario_same_as_sim(fpds_scenario(tasks, preemption, 80), "qemu-m3")


@pytest.mark.parametrize("kind", ["idling", "deferrable", "mixed"])
def test_random_hierarchies_match_the_sim(kind: str) -> None:
    rng = random.Random(f"hsf-{kind}")
    for _ in range(2):
        specs = random_hierarchy(rng, rng.randint(1, 4), kind)
        _scenario_same_as_sim(hierarchy(specs, 80), "qemu-m3")


def test_many_servers_match_the_sim() -> None:
    """More servers than the kernel's default of 8: the board's runner is built for
    the sim runner's 256 (it rejected the ninth server before)."""
    options = GenerateOptions(
        tasks=24, utilization=0.5, periods=(20, 40, 80), policy="hsf", servers=20, duration=200
    )
    scenario = generate_scenario(options, 0)
    assert len(scenario.servers) == 20
    _scenario_same_as_sim(scenario, "qemu-m3")


def test_many_tasks_match_the_sim(tmp_path: Path) -> None:
    """250 tasks released together fill the trace ring inside the tick and the
    switch, whose stacks are small on the target: the runner's drain must not
    put its batch there (it overflowed the 2 KiB handler stack and faulted)."""
    lines = ["[system]", "duration = 400", ""]
    for i in range(250):
        lines += ["[[task]]", f'name = "t{i}"', f"priority = {1 + i}", f"period = {1000 + i}"]
        lines += ["wcet = 1", ""]
    path = tmp_path / "many.toml"
    path.write_text("\n".join(lines))
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


def _generate_and_check_on_the_board(folder: Path, generate: list[str]) -> str:
    """takt generate's 3 sets into folder, then takt check --port qemu-m3 over them: its
    output, once every run agreed."""
    takt = str(VENV_BIN / "takt")
    subprocess.run(
        [takt, "generate", *generate, "--count", "3", "--out", str(folder)],
        check=True,
        capture_output=True,
    )
    files = sorted(str(f) for f in folder.glob("*.toml"))
    done = subprocess.run(
        [takt, "check", "--port", "qemu-m3", *files], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("on qemu-m3") == 3
    assert done.stdout.rstrip().endswith("3 of 3 runs agree with the analysis")
    return done.stdout


def test_check_on_the_board_agrees_with_the_analysis(tmp_path: Path) -> None:
    """takt check --port qemu-m3 over generated FP and EDF sets (exact rules included)."""
    periods = "10,12,15,16,20,24,30,40,48,60,80,120,240"
    for policy, deadlines in (("fp", "implicit"), ("edf", "constrained")):
        _generate_and_check_on_the_board(
            tmp_path / policy,
            ["--policy", policy, "--deadlines", deadlines, "--tasks", "5"]
            + ["--utilization", "0.9", "--periods", periods],
        )


def test_check_of_generated_hierarchies_on_the_board(tmp_path: Path) -> None:
    """takt check --port qemu-m3 over generated hierarchies (bounds of proved sets)."""
    out = _generate_and_check_on_the_board(
        tmp_path / "hsf",
        ["--policy", "hsf", "--servers", "3", "--server-type", "mixed", "--tasks", "8"]
        + ["--utilization", "0.4", "--periods", "20,40,80,160"],
    )
    assert out.count("hsf_prm schedulable") >= 1


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
    assert trace.stamps == "nearest-tick"
    assert [trace.ticks(e.stamp) for e in trace.events] == [0, 3, 5]


def test_nearest_tick_refuses_stamps_far_from_a_tick() -> None:
    trace = tracemod.decode(_trace_bytes([3_300_000], "stamps nearest-tick\n"))
    with pytest.raises(tracemod.TraceFormatError, match="quarter tick"):
        trace.ticks(trace.events[0].stamp)


def test_sim_traces_stay_exact() -> None:
    trace = tracemod.decode(_trace_bytes([3_000_480], ""))
    assert trace.stamps == "exact"
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


METER_OUTPUT = """board,x
calibration,spin,100,202
calibration,masked_none,100,202,0
calibration,masked_none,101,204,0
calibration,masked_inside,100,202,202
calibration,masked_inside,101,204,204
calibration,masked_section,100,260,234
calibration,masked_section,101,262,236
calibration,masked_section,102,264,238
bench,yield_switch,list,fp,2,40,230,230,23000
masked,yield_switch,list,fp,2,40,184,184,18400,0
bench,delay,list,fp,3,40,260,264,26250
masked,delay,list,fp,3,40,180,182,18100,0
done
"""


def test_masked_lines_attach_to_their_sample_sets() -> None:
    from takt import bench_target

    samples, calibration = bench_target.parse_output(METER_OUTPUT)
    by = {s.key: s for s in samples}
    assert by[("delay", "list", "fp", 3)].masked == bench_target.Masked(40, 180, 182, 181.0, 0)
    assert by[("yield_switch", "list", "fp", 2)].masked is not None
    assert bench_target.check_masked_calibration(calibration) == []
    assert bench_target.check_masked_samples(samples) == []
    plain, _ = bench_target.parse_output(
        "bench,yield_switch,list,fp,2,40,206,206,20600\n"
        "bench,delay,list,fp,3,40,226,230,22750\ndone\n"
    )
    assert all(s.masked is None for s in plain)
    merged = {s.key: s for s in bench_target.with_masked(plain, samples)}
    delay = merged[("delay", "list", "fp", 3)]
    assert (delay.min, delay.max) == (226, 230)  # the plain program's window
    assert delay.masked is not None and delay.masked.max == 182  # the meter's count
    with pytest.raises(target.TargetError, match="different sample sets"):
        bench_target.with_masked(plain[:1], samples)


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("masked_none,101,204,0", "masked_none,101,204,3", "without a section"),
        ("masked_inside,100,202,202", "masked_inside,100,202,200", "masked of a 202"),
        ("masked_section,101,262,236", "masked_section,101,262,237", "grows by"),
        ("masked_section,102,264,238", "masked_section,102,266,238", "unmasked rest"),
        (
            "calibration,masked_inside,100,202,202\ncalibration,masked_inside,101,204,204\n",
            "",
            "no",
        ),
    ],
)
def test_meter_calibration_check_catches_a_wrong_meter(old: str, new: str, problem: str) -> None:
    from takt import bench_target

    assert old in METER_OUTPUT
    _, calibration = bench_target.parse_output(METER_OUTPUT.replace(old, new))
    problems = bench_target.check_masked_calibration(calibration)
    assert any(problem in p for p in problems), problems


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("masked,delay,list,fp,3,40,180,182,18100,0\n", "", "no masked line"),
        ("18100,0", "18100,2", "unmeasured"),
        ("masked,delay,list,fp,3,40,", "masked,delay,list,fp,3,38,", "38 masked of 40 windows"),
        ("masked,delay,list,fp,3,40,180,182", "masked,delay,list,fp,3,40,180,300", "against"),
    ],
)
def test_meter_sample_check_catches_a_wrong_count(old: str, new: str, problem: str) -> None:
    from takt import bench_target

    assert old in METER_OUTPUT
    samples, _ = bench_target.parse_output(METER_OUTPUT.replace(old, new))
    problems = bench_target.check_masked_samples(samples)
    assert any(problem in p for p in problems), problems


def test_masked_cells_and_columns() -> None:
    from takt import bench_target

    samples, _ = bench_target.parse_output(METER_OUTPUT)
    assert bench_target._cell(samples[0]) == "230 (184 masked)"
    assert bench_target._cell(samples[1]) == "260 / 264 / 262.5 (180 / 182 / 181.0 masked)"
    assert bench_target.masked_columns(samples[1].masked) == ["180", "182", "181.00"]
    assert bench_target.masked_columns(None) == ["", "", ""]


def test_kernel_cost_method_on_qemu() -> None:
    """The measuring program on QEMU: loops of known length count exactly, a
    cooperative switch costs the same every time, the tick watcher agrees with
    the software-pended tick, a tick that wakes a task
    costs more than one that does not, and the sorted-list timer queue's
    takt_delay grows by the same step per delayed task after the first (the
    first also enters the insertion walk)."""
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
    # The no-wake tick pended by software costs the same every time, and the
    # watcher that measures job releases sees the timer's own ticks cost exactly that.
    tick = by[("tick_no_wake", "fp", 1)]
    assert tick.jitter == 0
    watched = [line.split(",") for line in calibration if ",tick_watcher," in line]
    assert watched and all(int(f[2]) > 0 and int(f[3]) == int(f[4]) == tick.min for f in watched)
    delays = [by[("delay", "fp", n)].min for n in range(32)]
    steps = {delays[i + 1] - delays[i] for i in range(1, 31)}
    assert delays[1] > delays[0]
    assert len(steps) == 1 and steps.pop() > 0


def test_masked_meter_on_qemu() -> None:
    """The meter build on QEMU: its calibration windows (none, inside, around a
    section) count as they must; every sample set has one masked count per
    window, at most the window; a yield masks part of its window; and the
    sorted-list insertion of takt_delay, which runs inside the delay's critical
    section, adds to the masked count exactly what it adds to the window."""
    from takt import bench_target

    commands, plain_out, meter_out = bench_target.run_pair("takt-bench-kernel-list")
    assert commands[1].endswith("takt-bench-kernel-list-masked")
    plain, _ = bench_target.parse_output(plain_out)
    metered, calibration = bench_target.parse_output(meter_out)
    assert bench_target.check_masked_calibration(calibration) == []
    assert bench_target.check_masked_samples(metered) == []
    merged = {s.key: s for s in bench_target.with_masked(plain, metered)}
    yield_switch = merged[("yield_switch", "list", "fp", 2)]
    assert yield_switch.masked is not None
    assert 0 < yield_switch.masked.max < yield_switch.max
    by = {s.key: s for s in metered}
    windows = [by[("delay", "list", "fp", n)].min for n in range(32)]
    masked = [m.min for n in range(32) if (m := by[("delay", "list", "fp", n)].masked)]
    assert len(masked) == 32
    assert [b - a for a, b in zip(masked, masked[1:], strict=False)] == [
        b - a for a, b in zip(windows, windows[1:], strict=False)
    ]


def test_hsf_masked_meter_on_qemu() -> None:
    """The hsf meter build: a masked count for every window, and the decision,
    which runs inside PendSV's critical section, wholly masked."""
    from takt import bench_hsf_target

    _, plain_out, meter_out = bench_hsf_target.run_pair(bench_hsf_target.PROGRAM)
    metered = bench_hsf_target.parse_output(meter_out)
    assert bench_hsf_target.check_masked(metered) == []
    switches = [s for s in metered if s.measurement == "hsf_switch_replenish"]
    assert switches and all(s.masked and s.masked.min == s.min > 0 for s in switches)
    merged = bench_hsf_target.with_masked(bench_hsf_target.parse_output(plain_out), metered)
    assert all(s.masked is not None for s in merged)


def test_device_access_lines_parse() -> None:
    from takt import bench_target

    text = "hwpq,head_removal_pick,edf-hwpq,8,3\nbench,delay,hw,fp,3,40,226,230,22750\nhwpq,x\n"
    assert bench_target.parse_device_accesses(text) == {("head_removal_pick", "edf-hwpq", 8): 3}


def test_emulated_hardware_queue_costs_are_flat_in_the_task_count() -> None:
    """takt-bench-kernel-hw on QEMU: the hardware queue's model stands in for
    the device with SysTick stopped. Its pick takes the same instructions and
    the same 3 register accesses (remove: handle and command; peek: the head)
    at 2 to 64 tasks, under EDF and fixed priority alike, while the software
    heap's grows; a delay costs the same however many timers are queued."""
    from takt import bench_target

    elf = target.target_program(
        "qemu-m3", "takt-bench-kernel-hw", "apps/bench/target/takt-bench-kernel-hw"
    )
    _, out = bench_target._run_program(elf)
    samples, calibration = bench_target.parse_output(out)
    accesses = bench_target.parse_device_accesses(out)
    reads = [c for c in calibration if c.startswith("calibration,hwpq_access_read,")]
    assert len(reads) == 3 and len({c.split(",")[3] for c in reads}) == 1
    by = {s.key: s for s in samples}
    for sched in ("fp-hwpq", "edf-hwpq"):
        picks = [by[("head_removal_pick", "hw", sched, n)] for n in (2, 4, 8, 16, 32, 64)]
        assert all(p.jitter == 0 for p in picks), picks
        assert len({p.min for p in picks}) == 1, picks
        assert all(accesses[("head_removal_pick", sched, n)] == 3 for n in (2, 4, 8, 16, 32, 64))
    heap = [by[("head_removal_pick", "hw", "edf-heap", n)].max for n in (2, 64)]
    assert heap[1] > heap[0] + 100
    delays = {by[("delay", "hw", "fp", n)].max for n in range(32)}
    assert len(delays) == 1, delays
