"""The FreeRTOS-API suite's toolkit side (takt.bench_suite): output parsing, the
sanity check ctest relies on, the comparison with the FreeRTOS reference, the
kernel size from a link map, and bad input through the CLI. The suite itself
runs under QEMU in the ARM build's ctest (freertos_suite_quick, freertos_suite_quick_hsf,
and freertos_suite_quick_on_freertos: the same suite.c on FreeRTOS itself)."""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

import pytest

from takt import bench_suite as bs
from takt import target
from takt.cli import _parser, _suite_policies, main


def _quick_output(
    masked: bool,
    *,
    skew: dict[str, int] | None = None,
    policy: str = "fp",
    depletions: int | None = None,
) -> str:
    kind = "masked" if masked else "window"
    lines = [f"info,platform,takt-mps2-an385/{policy}", "info,read_overhead,2"]
    for name, params in bs.QUICK_WINDOWS.items():
        for p in params:
            lo = 100 + (skew or {}).get(name, 0)
            if masked:
                lo -= 40
            lines.append(f"{kind},{name},{p},4,{lo},{lo + 2},{4 * lo + 4}")
    if not masked:
        lines += [f"throughput,{t},2,{10 + i}" for i, t in enumerate(bs.THROUGHPUT_TESTS)]
    lines.append("done,0")
    if depletions is not None:
        lines += [f"info,server_depletions,{depletions}", "info,server_replenishments,1"]
    return "\n".join(lines) + "\n"


def _merged(
    *, skew: dict[str, int] | None = None, policy: str = "fp", depletions: int | None = None
) -> bs.SuiteOutput:
    plain = _quick_output(False, skew=skew, policy=policy, depletions=depletions)
    masked = _quick_output(True, skew=skew, policy=policy, depletions=depletions)
    return bs.merge(bs.parse(plain), bs.parse(masked))


def test_parse_reads_every_line_kind_and_ignores_noise() -> None:
    out = bs.parse(
        "qemu: warning\nwindow,yield,0,20,40,50,900\nmasked,yield,0,20,30,31,610\n"
        "throughput,tm_basic,10,1234\ninfo,read_overhead,2\nerror,boom\ndone,1\n"
    )
    assert out.windows[("yield", 0)] == bs.Stat(20, 40, 50, 900)
    assert out.windows[("yield", 0)].mean == 45 and out.windows[("yield", 0)].jitter == 10
    assert out.masked[("yield", 0)].max == 31
    assert out.throughput["tm_basic"] == (10, 1234)
    assert out.info["read_overhead"] == "2" and out.errors == ["boom"] and out.done == 1


def test_check_accepts_a_sane_run() -> None:
    assert bs.check(_merged()) == []


@pytest.mark.parametrize(
    "edit, problem",
    [
        (lambda t: t.replace("window,delay,31,4,", "window,delay,31,2,"), "2 samples"),
        (
            lambda t: t.replace("window,yield,0,4,100,102,404", "window,yield,0,4,100,102,900"),
            "outside",
        ),
        (lambda t: t.replace("window,irq_to_task,0,", "window,irq_to_taskX,0,"), "missing"),
        (
            lambda t: t.replace("throughput,tm_memory,2,16", "throughput,tm_memory,2,0"),
            "no operation",
        ),
        (lambda t: t.replace("done,0", "error,task creation failed\ndone,1"), "program reported"),
        (lambda t: t.replace("done,0", ""), "done line"),
    ],
)
def test_check_catches_each_kind_of_broken_output(edit: object, problem: str) -> None:
    plain = edit(_quick_output(False))  # type: ignore[operator]
    problems = bs.check(bs.merge(bs.parse(plain), bs.parse(_quick_output(True))))
    assert any(problem in p for p in problems), problems


def test_check_catches_masked_beyond_the_window() -> None:
    masked = _quick_output(True).replace(
        "masked,yield,0,4,60,62,244", "masked,yield,0,4,60,500,244"
    )
    problems = bs.check(bs.merge(bs.parse(_quick_output(False)), bs.parse(masked)))
    assert any("exceeds the window" in p for p in problems)


def _result(values: dict[str, float], text: int = 8000) -> bs.PolicyResult:
    out = bs.SuiteOutput()
    for ref in bs.REFERENCES:
        v = int(values.get(ref.test, ref.freertos * 0.5))
        out.windows[(ref.test, ref.param)] = bs.Stat(4, v, v, 4 * v)
    out.windows[("delay", 31)] = bs.Stat(4, 100 + 31 * 4, 100 + 31 * 4, 4 * (100 + 31 * 4))
    out.windows[("delay", 0)] = bs.Stat(4, 100, 100, 400)
    return bs.PolicyResult(
        "fp", out, {"kernel": text, "freertos_layer": 0, "port": 0, "total": text}
    )


def test_comparison_applies_the_limits() -> None:
    rows = {r[0]: r for r in bs.comparison_rows(_result({}))}
    assert all(r[4] == "pass" for r in rows.values()), rows
    # a blocking path at 0.7x FreeRTOS misses its 0.6x limit; a non-blocking one at 1.0x passes
    rows = {
        r[0]: r for r in bs.comparison_rows(_result({"sem_wait_block": 378 * 0.7, "yield": 46}))
    }
    assert rows["semaphore take-block"][4] == "FAIL"
    assert rows["cooperative yield switch"][4] == "pass"
    assert rows["vTaskDelay, per task already delayed"][2] == 4
    assert rows["kernel text (bytes)"][4] == "pass"
    rows = {r[0]: r for r in bs.comparison_rows(_result({}, text=9000))}
    assert rows["kernel text (bytes)"][4] == "FAIL"


def test_comparison_fails_on_a_bad_worst_case_elsewhere_in_the_range() -> None:
    result = _result({})
    result.output.windows[("sem_wait_block", 29)] = bs.Stat(4, 100, 400, 1000)
    rows = {r[0]: r for r in bs.comparison_rows(result)}
    assert rows["semaphore take-block"][4] == "FAIL"


MAP = """\
Discarded input sections

 .text.unused   0x00000000       0x40 lib/libbench_suite_rtos_fp_plain.a(core.c.obj)

Linker script and memory map

 .text.takt_yield
                0x00001c00       0x3c lib/libbench_suite_rtos_fp_plain.a(core.c.obj)
 .text.xQueueGenericSend
                0x00002f04       0x60 lib/libbench_suite_rtos_fp_plain.a(queue.c.obj)
 .text.takt_queue_send
                0x00003000       0x80 lib/libbench_suite_rtos_fp_plain.a(queue.c.obj)
 .text.port_critical_enter
                0x0000137c       0x20 dir/port_armv7m.c.obj
 .text.main     0x00000100       0x10 dir/suite.c.obj
 .text          0x00000200      0x100 /usr/lib/libc_nano.a(memcpy.o)
"""


def test_kernel_text_counts_kept_kernel_layer_and_port_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.map"
    path.write_text(MAP)
    monkeypatch.setattr(
        bs, "_layer_sections", lambda _d: {("queue.c.obj", ".text.xQueueGenericSend")}
    )
    sizes = bs.kernel_text(path, tmp_path)
    assert sizes == {
        "kernel": 0x3C + 0x80,
        "freertos_layer": 0x60,
        "port": 0x20,
        "total": 0x3C + 0x80 + 0x60 + 0x20,
    }


def test_kernel_text_refuses_a_file_that_is_not_a_map(tmp_path: Path) -> None:
    path = tmp_path / "x.map"
    path.write_text("hello\n")
    with pytest.raises(bs.SuiteError):
        bs.kernel_text(path)


def test_attribute_counts_per_function_of_the_last_complete_window() -> None:
    funcs = ["a", "api", "k", "k", "pendsv", "b", "b", "a", "api", "k", "pendsv", "pendsv", "b"]
    assert bs.attribute(funcs, "a", "api", "b") == [("api", 1), ("k", 1), ("pendsv", 2)]
    assert bs.attribute(funcs, "a", "nothing", "b") == []


RAISE, RESTORE = {0x10, 0x30}, {0x20, 0x40, 0x50}


def test_masked_steps_outermost_section() -> None:
    # before, raise, inside, restore (lowers, counted), after
    assert bs.masked_steps([0x0, 0x10, 0x12, 0x20, 0x22], RAISE, RESTORE) == [
        False,
        False,
        True,
        True,
        False,
    ]


def test_masked_steps_a_nested_exit_keeps_the_mask() -> None:
    # outer raise, nested raise, nested restore (writes the kernel level back),
    # still inside the outer section, outer restore, after
    pcs = [0x10, 0x30, 0x32, 0x40, 0x42, 0x20, 0x22]
    assert bs.masked_steps(pcs, RAISE, RESTORE) == [False, True, True, True, True, True, False]


def test_masked_steps_freertos_every_restore_lowers() -> None:
    # FreeRTOS: outer raise, nested raise (vPortEnterCritical again), the one
    # restore at nesting 0 lowers, after; keyed, the same steps would stay masked
    pcs = [0x10, 0x30, 0x32, 0x20, 0x22]
    assert bs.masked_steps(pcs, RAISE, RESTORE, keyed=False) == [False, True, True, True, False]
    assert bs.masked_steps(pcs, RAISE, RESTORE) == [False, True, True, True, True]


def test_masked_steps_two_sections_in_a_row() -> None:
    pcs = [0x10, 0x20, 0x00, 0x30, 0x40, 0x00]
    assert bs.masked_steps(pcs, RAISE, RESTORE) == [False, True, False, False, True, False]


def test_trace_pcs_drops_restarted_instructions(tmp_path: Path) -> None:
    log = tmp_path / "trace.log"
    log.write_text(
        "Trace 0: 0x7f0000 [00000000/00000100/00000000/ff200000] \n"
        "Trace 0: 0x7f0000 [00000000/00000102/00000000/ff200000] \n"
        "Trace 0: 0x7f0000 [00000000/00000102/00000000/ff200000] \n"
        "noise\n"
        "Trace 0: 0x7f0000 [00000000/00000100/00000000/ff200000] \n"
    )
    assert list(bs._trace_pcs(log)) == [0x100, 0x102, 0x100]


def test_trace_pcs_drops_a_block_left_before_it_ran(tmp_path: Path) -> None:
    # 0x104 is logged, then left for an interrupt (its handler at 0x200):
    # it runs when the interrupted code resumes, logged again
    log = tmp_path / "trace.log"
    log.write_text(
        "Trace 0: 0x7f0000 [00000000/00000102/00000000/ff200000] f\n"
        "Trace 0: 0x7f0100 [00000000/00000104/00000000/ff200000] f\n"
        "Stopped execution of TB chain before 0x7f0100 [00000104] f\n"
        "Trace 0: 0x7f0200 [00000001/00000200/00000000/ff200000] SysTick_Handler\n"
        "Trace 0: 0x7f0100 [00000000/00000104/00000000/ff200000] f\n"
        "Stopped execution of TB chain before 0x7f0300 [00000300] f\n"
        "Trace 0: 0x7f0100 [00000000/00000106/00000000/ff200000] f\n"
    )
    assert list(bs._trace_pcs(log)) == [0x102, 0x200, 0x104, 0x106]


def test_cli_refuses_an_unknown_policy_before_building(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "suite", "--policies", "fp,bogus"]) == 2  # a usage error
    assert "--policies bogus: choose from fp, edf-heap" in capsys.readouterr().err


def test_qemu_command_is_deterministic_icount() -> None:
    cmd = bs.qemu_command(Path("x.elf"), "mps2-an385", qemu="qemu-system-arm")
    assert cmd[cmd.index("-icount") + 1] == "shift=7,sleep=off"
    assert cmd[-2:] == ["-kernel", "x.elf"]


# ---- the hsf column ----


def test_check_demands_the_policy_the_programs_were_built_for() -> None:
    assert bs.check(_merged(), policy="fp") == []
    problems = bs.check(_merged(), policy="edf-heap")
    assert any("is not a edf-heap build" in p for p in problems), problems
    # a board name that merely ends in the policy's letters is not that policy
    out = _merged()
    out.info["platform"] = "takt-mps2-an385-fp"
    assert any("not a fp build" in p for p in bs.check(out, policy="fp"))


def test_check_accepts_an_hsf_run_whose_server_never_depleted() -> None:
    out = _merged(policy="hsf", depletions=0)
    assert out.server_depletions == 0
    assert bs.check(out, policy="hsf") == []


@pytest.mark.parametrize(
    "plain, masked, shown",
    [(3, 0, "3"), (0, 1, "1"), (None, 0, "None"), (0, None, "None"), (None, None, "None")],
)
def test_check_refuses_an_hsf_run_whose_server_depleted_or_did_not_say(
    plain: int | None, masked: int | None, shown: str
) -> None:
    out = bs.merge(
        bs.parse(_quick_output(False, policy="hsf", depletions=plain)),
        bs.parse(_quick_output(True, policy="hsf", depletions=masked)),
    )
    problems = bs.check(out, policy="hsf")
    assert any(f"server depletions: {shown}" in p for p in problems), problems
    # other policies have no server: nothing is asked of them
    assert bs.check(_merged(), policy="fp") == []


def test_merge_refuses_plain_and_masked_programs_of_different_policies() -> None:
    out = bs.merge(
        bs.parse(_quick_output(False, policy="hsf", depletions=0)),
        bs.parse(_quick_output(True, policy="fp")),
    )
    assert any("plain and masked programs differ" in e for e in out.errors)
    assert any("program reported: plain and masked" in p for p in bs.check(out))


def test_policies_agree_with_the_cmake_build_and_the_cli_default() -> None:
    cmake = (bs.REPO_ROOT / "apps/bench/freertos_suite/CMakeLists.txt").read_text()
    listed = re.search(r"set\(BENCH_SUITE_POLICIES ([^)]*)\)", cmake)
    assert listed is not None
    assert tuple(listed.group(1).split()) == bs.POLICIES
    assert "hsf" in bs.POLICIES and bs.POLICY_TITLES["hsf"] == "HSF"
    assert set(bs.POLICY_TITLES) == set(bs.POLICIES) | {"freertos"}
    args = _parser().parse_args(["bench", "suite"])
    assert _suite_policies(args) == list(bs.POLICIES)


def _policy_run(policies: tuple[str, ...]) -> bs.SuiteRun:
    results = []
    for k, policy in enumerate(policies):
        out = _merged(
            policy=policy, skew={"yield": 10 * k}, depletions=0 if policy == "hsf" else None
        )
        # the full run's delay points (Timeout-1's slope)
        out.windows[("delay", 31)] = bs.Stat(20, 200, 200, 4000)
        text = {"kernel": 5000 + k, "freertos_layer": 100, "port": 50, "total": 5150 + k}
        results.append(bs.PolicyResult(policy, out, text))
    return bs.SuiteRun("qemu-m3", "mps2-an385", ["qemu ... fp"], results)


def test_results_carry_an_hsf_column_next_to_fp(tmp_path: Path) -> None:
    run = _policy_run(("fp", "hsf"))
    paths = bs.write_results(run, tmp_path, "takt bench suite --port qemu-m3")
    md = (tmp_path / "freertos_suite_mps2-an385.md").read_text()
    assert "| metric | FreeRTOS | FP | HSF |" in md
    assert "| test | params | FP | HSF |" in md
    assert "| test | ticks | FP | HSF |" in md
    # the yield row: mean FP 101, HSF 111 (the skew), each with its ratio to FreeRTOS's 46
    assert "| cooperative yield switch | 46 | 101 (2.20) | 111 (2.41) |" in md
    assert "HSF 5151 (kernel 5001" in md
    csv = (tmp_path / "freertos_suite_mps2-an385.csv").read_text().splitlines()
    assert "hsf,yield,0,4,110,112,111.00,2,70,72,71.00" in csv
    assert sum(1 for row in csv if row.startswith("hsf,")) == sum(
        1 for row in csv if row.startswith("fp,")
    )
    tm = (tmp_path / "freertos_suite_mps2-an385_throughput.csv").read_text().splitlines()
    assert "hsf,tm_basic,2,17" in tm
    assert tmp_path / "freertos_suite_mps2-an385.md" in paths


def test_run_suite_refuses_an_unknown_policy_before_building() -> None:
    with pytest.raises(bs.SuiteError, match="unknown policy 'hsf2'"):
        bs.run_suite("qemu-m3", ["hsf", "hsf2"])


def test_breakdown_names_the_policy_the_program_reports() -> None:
    funcs = ["yield_task", "takt_yield", "k", "yield_task"]
    masked = [False, True, True, False]
    for platform, title in (("takt-mps2-an385/hsf", "HSF"), ("takt-mps2-an385/fp", "FP")):
        measured = bs.parse(f"info,platform,{platform}\nwindow,yield,0,20,5,5,100\n")
        text = bs.render_breakdown("mps2-an385", Path("x"), funcs, masked, measured)
        assert text.startswith(f"## Where the instructions go (mps2-an385, {title},")
        assert "### yield: 2 traced (2 masked), 5 measured" in text


def test_attributed_windows_name_functions_the_suite_defines() -> None:
    """A renamed task function would silently empty its breakdown row."""
    source = (bs.REPO_ROOT / "apps/bench/freertos_suite/suite.c").read_text()
    defined = set(re.findall(r"^static void (\w+)\(void \*arg\)", source, re.M))
    assert {"yield_task", "mutex_high", "mutex1_low"} <= defined
    for test, caller, _entry, nxt in bs.ATTRIBUTED_WINDOWS:
        assert test in bs.QUICK_WINDOWS
        assert caller in defined, (test, caller)
        assert nxt in defined, (test, nxt)


def test_recorded_command_lines_name_no_machine_specific_path() -> None:
    elf = bs.REPO_ROOT / "build-arm-m3" / "apps" / "bench" / "takt-bench-suite-fp"
    cmd = bs.qemu_command(elf, "mps2-an385", qemu="/usr/local/bin/qemu-system-arm")
    shown = target.shown_command(cmd)
    assert shown.startswith("qemu-system-arm -M mps2-an385 ")
    assert shown.endswith(" -kernel build-arm-m3/apps/bench/takt-bench-suite-fp")
    assert str(bs.REPO_ROOT) not in shown and "/usr/local" not in shown
    # A path outside the repository is kept as given: it names a real file.
    assert target.shown_command(["qemu", "-kernel", "/tmp/x.elf"]).endswith("/tmp/x.elf")


def test_timer_queues_agree_with_the_cmake_build_and_the_layer_default() -> None:
    cmake = (bs.REPO_ROOT / "apps/bench/freertos_suite/CMakeLists.txt").read_text()
    listed = re.search(r"set\(BENCH_SUITE_TIMER_QUEUES ([^)]*)\)", cmake)
    assert listed is not None
    assert tuple(listed.group(1).split()) == bs.OTHER_TIMER_QUEUES
    layer = (bs.REPO_ROOT / "compat/freertos/include/takt_freertos_config.h").read_text()
    # The layer's default: the EDF policies' (#if) first, then everyone else's.
    defaults = re.findall(r"#define configTAKT_TIMER_QUEUE (\d)", layer)
    names = {"1": "list", "2": "heap", "3": "rbtree"}
    assert [names[d] for d in defaults] == [bs.EDF_TIMER_QUEUE, bs.DEFAULT_TIMER_QUEUE]
    assert bs.DEFAULT_TIMER_QUEUE not in bs.OTHER_TIMER_QUEUES
    assert bs.default_timer_queue("edf-heap") == "rbtree"
    assert bs.default_timer_queue("fp") == bs.default_timer_queue("hsf") == "heap"


def test_check_demands_the_timer_queue_the_program_was_built_with() -> None:
    out = _merged()
    assert any("timer queue None" in p for p in bs.check(out, timer_queue="heap"))
    out.info["timer_queue"] = "rbtree"
    assert any("'rbtree' is not the 'heap'" in p for p in bs.check(out, timer_queue="heap"))
    assert bs.check(out, timer_queue="rbtree") == []
    assert bs.check(out) == []


def _timeout1(result: bs.PolicyResult, per_task: int) -> None:
    for n in range(32):
        mean = 200 + (0 if n == 0 else 10 + per_task * n)
        result.output.windows[("delay", n)] = bs.Stat(20, mean, mean, 20 * mean)


def test_results_show_timeout1_and_the_tick_per_timer_queue(tmp_path: Path) -> None:
    run = _policy_run(("fp",))
    _timeout1(run.results[0], 0)
    for queue, per_task in (("rbtree", 1), ("list", 9)):
        variant = _policy_run(("fp",)).results[0]
        variant.policy = f"fp-timers-{queue}"
        _timeout1(variant, per_task)
        run.timer_queues.append(variant)
    bs.write_results(run, tmp_path, "takt bench suite --port qemu-m3 --policies fp")
    md = (tmp_path / "freertos_suite_mps2-an385.md").read_text()
    assert "### FP per timer queue (mps2-an385, mean instructions)" in md
    # none delayed; the range over 1..31 with its spread; (31 - 0) / 31; the two ticks
    assert "| heap (default) | 200 | 210..210 (0) | 0.3 | 101 | 101 |" in md
    assert "| red-black tree | 200 | 211..241 (30) | 1.3 | 101 | 101 |" in md
    assert "| sorted list | 200 | 219..489 (270) | 9.3 | 101 | 101 |" in md
    # the comparison and every-policy tables keep one column per policy
    assert "| metric | FreeRTOS | FP |" in md
    csv = (tmp_path / "freertos_suite_mps2-an385.csv").read_text().splitlines()
    assert any(row.startswith("fp-timers-list,delay,31,20,489,489,489.00,0,") for row in csv)
    assert any(row.startswith("fp,delay,31,20,210,210,210.00,0,") for row in csv)


def test_no_timer_queue_table_without_fp(tmp_path: Path) -> None:
    run = _policy_run(("hsf",))
    bs.write_results(run, tmp_path, "takt bench suite --port qemu-m3 --policies hsf")
    md = (tmp_path / "freertos_suite_mps2-an385.md").read_text()
    assert "per timer queue" not in md


# An objdump -d listing in the shape the tool reads (addresses, raw bytes,
# mnemonic, operands); the second function is the pattern that once made a
# restore look like a raise: the register held the kernel level earlier in
# the function, then was reloaded before the msr.
BASEPRI_LISTING = """
00001000 <section>:
    1000:	f3ef 8411 	mrs	r4, BASEPRI
    1004:	2340      	movs	r3, #64	@ 0x40
    1006:	f383 8811 	msr	BASEPRI, r3
    100a:	f384 8811 	msr	BASEPRI, r4

00001010 <take_after_wait>:
    1010:	2340      	movs	r3, #64	@ 0x40
    1012:	f383 8811 	msr	BASEPRI, r3
    1016:	f8d5 3138 	ldr.w	r3, [r5, #312]	@ 0x138
    101a:	f383 8811 	msr	BASEPRI, r3
    101e:	2140      	movs	r1, #64	@ 0x40
    1020:	f7ff fff0 	bl	1000 <section>
    1024:	f381 8811 	msr	BASEPRI, r1
    1028:	2240      	movs	r2, #64	@ 0x40
    102a:	bc04      	pop	{r2}
    102c:	f382 8811 	msr	BASEPRI, r2
    1030:	2040      	movs	r0, #64	@ 0x40
    1032:	2800      	cmp	r0, #0
    1034:	f380 8811 	msr	BASEPRI, r0
    1038:	2140      	movs	r1, #64	@ 0x40
    103a:	e9d3 2100 	ldrd	r2, r1, [r3]
    103e:	f381 8811 	msr	BASEPRI, r1

00001040 <next_function>:
    1040:	f380 8811 	msr	BASEPRI, r0
"""


def test_basepri_writes_raise_only_after_a_move_of_the_kernel_level() -> None:
    raise_at, restore_at = bs.basepri_writes(BASEPRI_LISTING)
    # the moves of 0x40 (a compare does not write its register) raise ...
    assert raise_at == {0x1006, 0x1012, 0x1034}
    # ... a key, a reloaded register, a register a call clobbered, a popped
    # one, the second register of a double load, and anything in a function
    # where nothing moved 0x40 restore
    assert restore_at == {0x100A, 0x101A, 0x1024, 0x102C, 0x103E, 0x1040}


# ---- the same suite.c on FreeRTOS itself ----


def _freertos_output(*, platform: str = "freertos-mps2-an385/fp") -> bs.SuiteOutput:
    text = _quick_output(False).replace(
        "info,platform,takt-mps2-an385/fp", f"info,platform,{platform}"
    )
    return bs.parse(text)


def test_check_accepts_a_freertos_program_without_a_meter() -> None:
    out = _freertos_output()
    assert out.masked == {}
    assert bs.check(out, policy="fp", kernel="freertos", masked=False) == []
    # a meter build is still held to its masked counts
    assert any("masked" in p and "missing" in p for p in bs.check(out, policy="fp"))


def test_check_demands_the_kernel_the_program_was_built_for() -> None:
    takt = _freertos_output(platform="takt-mps2-an385/fp")
    problems = bs.check(takt, policy="fp", kernel="freertos", masked=False)
    assert any("is not a freertos build" in p for p in problems), problems
    assert bs.check(_merged(), policy="fp", kernel="takt") == []
    assert any("is not a freertos build" in p for p in bs.check(_merged(), kernel="freertos"))


def test_check_cli_runs_a_program_without_a_meter(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[list[str]] = []

    def fake_run(cmd: list[str], timeout: float = 600) -> str:
        ran.append(cmd)
        return _quick_output(False).replace("takt-mps2-an385", "freertos-mps2-an385")

    monkeypatch.setattr(bs, "run_program", fake_run)
    status = bs._main(["check", "--policy", "fp", "--kernel", "freertos", "prog.elf"])
    assert status == 0, capsys.readouterr().out
    assert len(ran) == 1 and "suite output sane" in capsys.readouterr().out
    assert bs._main(["check", "--kernel", "takt", "prog.elf"]) == 1
    assert "is not a takt build" in capsys.readouterr().out


FREERTOS_MAP = """\
Linker script and memory map

 .text.xTaskGenericCreate
                0x00001000      0x100 lib/libbench_suite_freertos.a(tasks.c.obj)
 .text.xQueueGenericSend
                0x00001100       0x80 lib/libbench_suite_freertos.a(queue.c.obj)
 .text.PendSV_Handler
                0x00001180       0x40 lib/libbench_suite_freertos.a(port.c.obj)
 .text.main     0x00000100       0x10 dir/suite.c.obj
 .text.Reset_Handler
                0x00000200       0x30 dir/startup.c.obj
"""


def test_kernel_text_of_freertos_counts_its_objects_and_its_port(tmp_path: Path) -> None:
    path = tmp_path / "f.map"
    path.write_text(FREERTOS_MAP)
    assert bs.kernel_text(path) == {
        "kernel": 0x180,
        "freertos_layer": 0,
        "port": 0x40,
        "total": 0x1C0,
    }


def test_results_compare_with_freertos_measured_here(tmp_path: Path) -> None:
    run = _policy_run(("fp", "hsf"))
    out = _freertos_output()
    out.windows[("delay", 31)] = bs.Stat(20, 255, 255, 5100)  # 5 a task, as FreeRTOS
    run.freertos = bs.PolicyResult(
        "freertos", out, {"kernel": 6000, "freertos_layer": 0, "port": 400, "total": 6400}
    )
    bs.write_results(run, tmp_path, "takt bench suite --port qemu-m3 --freertos")
    md = (tmp_path / "freertos_suite_mps2-an385.md").read_text()
    title = f"FreeRTOS {bs.FREERTOS_VERSION}"
    assert f"| metric | FreeRTOS (issue) | {title} here | Takt | ratio | ratio here |" in md
    # yield: the 46, FreeRTOS here 101 (the fake's), Takt fp 101
    assert "| cooperative yield switch | 46 | 101 | 101 | 2.20 | 1.00 | 46 | FAIL |" in md
    assert "| vTaskDelay, per task already delayed | 5 | 5.0 | 3.2 | 0.64 | 0.64 |" in md
    assert "| kernel text (bytes) | 8760 | 6400 | 5150 |" in md
    assert f"| metric | FreeRTOS | {title} here | FP | HSF |" in md
    assert f"| test | params | {title} | FP | HSF |" in md
    assert f"| test | ticks | {title} | FP | HSF |" in md
    assert f"{title} 6400 (kernel 6000, port 400)" in md
    csv = (tmp_path / "freertos_suite_mps2-an385.csv").read_text().splitlines()
    assert "freertos,yield,0,4,100,102,101.00,2,,," in csv
    tm = (tmp_path / "freertos_suite_mps2-an385_throughput.csv").read_text().splitlines()
    assert "freertos,tm_basic,2,17" in tm


def test_results_without_freertos_keep_their_columns(tmp_path: Path) -> None:
    bs.write_results(_policy_run(("fp",)), tmp_path, "takt bench suite --port qemu-m3")
    md = (tmp_path / "freertos_suite_mps2-an385.md").read_text()
    assert "| metric | FreeRTOS | Takt | ratio | limit | result |" in md
    assert "here" not in md


def test_freertos_option_reaches_the_build_and_the_recorded_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[list[str], list[str]]] = []

    def fake_build(port: str, targets: list[str], options: tuple[str, ...] = ()) -> Path:
        seen.append((list(targets), list(options)))
        raise bs.SuiteError("stop here")

    monkeypatch.setattr(bs, "build", fake_build)
    with pytest.raises(bs.SuiteError, match="stop here"):
        bs.run_suite("qemu-m3", ["fp"], freertos=True)
    targets, options = seen[0]
    assert bs.FREERTOS_PROGRAM in targets and options == [bs.FREERTOS_OPTION]
    with pytest.raises(bs.SuiteError):
        bs.run_suite("qemu-m3", ["fp"])
    assert bs.FREERTOS_PROGRAM not in seen[1][0] and seen[1][1] == []
    args = _parser().parse_args(["bench", "suite", "--freertos"])
    assert args.freertos is True


def test_cmake_build_reconfigures_an_existing_build_for_cache_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess

    calls: list[list[str]] = []

    class Done:
        returncode = 0
        stdout = ""
        stderr = ""

    def fake_run(cmd: list[str], **_kw: object) -> Done:
        calls.append(cmd)
        return Done()

    monkeypatch.setattr(subprocess, "run", fake_run)
    monkeypatch.setattr(target.shutil, "which", lambda tool: f"/usr/bin/{tool}")
    (tmp_path / "CMakeCache.txt").write_text("")
    target.cmake_build(tmp_path, "mps2-an385", ["x"], ["-DTAKT_WITH_FREERTOS=ON"])
    assert calls[0] == ["cmake", "-B", str(tmp_path), "-DTAKT_WITH_FREERTOS=ON"]
    assert calls[1][:2] == ["cmake", "--build"]
    calls.clear()
    target.cmake_build(tmp_path, "mps2-an385", ["x"])
    assert len(calls) == 1 and calls[0][:2] == ["cmake", "--build"]


def test_freertos_build_is_pinned_to_its_version_and_hash() -> None:
    cmake = (bs.REPO_ROOT / "apps/bench/freertos_suite/CMakeLists.txt").read_text()
    assert re.search(r"set\(FREERTOS_CRATE_SHA256 [0-9a-f]{64}\)", cmake)
    assert "URL_HASH SHA256=${FREERTOS_CRATE_SHA256}" in cmake
    assert bs.FREERTOS_OPTION.removeprefix("-D").removesuffix("=ON") in cmake
    assert "add_executable(${program}" in cmake and bs.FREERTOS_PROGRAM in cmake


def test_sample_counts_agree_with_suite_c() -> None:
    suite = (bs.REPO_ROOT / "apps/bench/freertos_suite/suite.c").read_text()
    counts = [int(n) for n in re.findall(r"#define SAMPLES (\d+)u", suite)]
    assert counts == [bs.QUICK_SAMPLES, bs.FULL_SAMPLES]


def test_freertos_windows_enter_freertos_functions() -> None:
    windows = {t: (c, e, n) for t, c, e, n in bs.attributed_windows("freertos")}
    assert windows["yield"] == ("yield_task", "PendSV_Handler", "yield_task")
    assert windows["sem_wait_block"][1] == "xQueueSemaphoreTake"
    assert windows["sem_signal_unblock"][1] == "xQueueGenericSend"
    assert windows["mq_receive"][1] == "xQueueReceive"
    assert bs.attributed_windows("takt") == list(bs.ATTRIBUTED_WINDOWS)
    assert bs.program_kernel(_freertos_output()) == "freertos"
    assert bs.program_kernel(_merged()) == "takt"


def test_meter_disagreements_tolerance_and_known_excess() -> None:
    metered = _merged()
    yield_max = metered.masked[("yield", 0)].max
    assert bs.meter_disagreements({"yield": yield_max}, metered) == []
    assert bs.meter_disagreements({"yield": yield_max - 1}, metered) == [
        f"yield: meter {yield_max}, trace {yield_max - 1}"
    ]
    assert bs.meter_disagreements({"yield": yield_max - 1}, metered, tolerance=1) == []
    # a known excess must be exactly that, in either direction
    assert bs.meter_disagreements({"yield": yield_max - 1}, metered, allowed={"yield": 1}) == []
    assert bs.meter_disagreements({"yield": yield_max}, metered, allowed={"yield": 1}) != []
    missing = bs.meter_disagreements({"yield": None, "nothing": 3}, metered)
    assert len(missing) == 2 and all("no window" in m for m in missing)


def test_freertos_suite_runs_its_meter_program(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []

    def fake_build(port: str, targets: list[str], options: tuple[str, ...] = ()) -> Path:
        seen.append(list(targets))
        raise bs.SuiteError("stop here")

    monkeypatch.setattr(bs, "build", fake_build)
    with pytest.raises(bs.SuiteError, match="stop here"):
        bs.run_suite("qemu-m3", ["fp"], freertos=True)
    assert f"{bs.FREERTOS_PROGRAM}-masked" in seen[0]
    cmake = (bs.REPO_ROOT / "apps/bench/freertos_suite/CMakeLists.txt").read_text()
    assert "-Wl,--wrap=vTaskSwitchContext" in cmake
    assert "freertos-bench-suite-quick-masked" in cmake


def test_freertos_meter_pads_pendsv_to_what_freertos_masks() -> None:
    """freertos_meter.c: the wrapper's stretch is vTaskSwitchContext + 7 + pad,
    and the entry must be what FreeRTOS's PendSV masks around the call (ARM_CM3:
    bl, mov, msr; ARM_CM4F: dsb, isb too): pad = masked + self - 7."""
    meter = (
        bs.REPO_ROOT / "apps/bench/freertos_suite/platform/freertos_armv7m/freertos_meter.c"
    ).read_text()
    cm4f, cm3 = re.findall(r'#define PENDSV_METER_PAD "((?:nop\\n\\t)*)"', meter)
    header = (bs.REPO_ROOT / "port/armv7m/include/takt_armv7m.h").read_text()
    found = re.search(r"#define TAKT_ARM_MASK_METER_SELF (\d+)u", header)
    assert found
    self_count = int(found.group(1))
    assert cm3.count("nop") == 3 + self_count - 7
    assert cm4f.count("nop") == 5 + self_count - 7


def test_results_are_written_all_or_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A results folder never mixes two runs: a chart that cannot be written leaves the
    tables of the run before as they were, and no temporaries."""
    run = _policy_run(("fp",))
    paths = bs.write_results(run, tmp_path, "takt bench suite --port qemu-m3")
    assert [p.name for p in paths] == [
        "freertos_suite_mps2-an385.csv",
        "freertos_suite_mps2-an385_throughput.csv",
        "freertos_suite_mps2-an385.md",
        "freertos_suite_mps2-an385.png",
    ]
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def full_disk(*_: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(bs, "_plot", full_disk)
    with pytest.raises(OSError) as caught:
        bs.write_results(run, tmp_path, "takt bench suite --port qemu-m3 --policies fp")
    assert caught.value.filename == str(tmp_path / "freertos_suite_mps2-an385.png")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
