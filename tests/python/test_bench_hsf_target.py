"""The target hsf benchmark's output parser and report (no QEMU needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from takt import bench_hsf_target, target

OUTPUT = """board,mps2-an385
shift,7
bench,hsf_tick_quiet,10,30,31,39,3633
bench,hsf_switch_quiet,10,0,0,0,0
bench,hsf_tick_replenish,10,20,290,291,29050
bench,hsf_switch_replenish,10,20,61,88,7450
bench,preemption_point_nothing_waiting,0,40,4,4,400
done
"""


def test_parse_and_render(tmp_path: Path) -> None:
    samples = bench_hsf_target.parse_output(OUTPUT)
    assert [s.measurement for s in samples][:2] == ["hsf_tick_quiet", "hsf_switch_quiet"]
    assert samples[0].mean == pytest.approx(36.33)
    bench = bench_hsf_target.HsfTargetBench(samples, "qemu ...")
    text = bench_hsf_target.render_markdown(bench)
    assert "| 10 | 31 / 39 / 36.3 | - | - | - | 290 / 291 / 290.5 | 61 / 88 / 74.5 |" in text
    assert "nothing waiting | 4 |" in text
    paths = bench_hsf_target.write_results(bench, tmp_path)
    rows = paths[0].read_text(encoding="utf-8").splitlines()
    assert rows[1] == "hsf_tick_quiet,10,30,31,39,36.33,,,"  # no meter run: no masked columns


def test_unfinished_run_is_an_error() -> None:
    with pytest.raises(target.TargetError):
        bench_hsf_target.parse_output("bench,hsf_tick_quiet,10,30,31,39,3633\n")


METER_OUTPUT = """board,mps2-an385
bench,hsf_tick_quiet,10,30,29,37,3433
masked,hsf_tick_quiet,10,30,0,0,0,0
bench,hsf_switch_quiet,10,0,0,0,0
masked,hsf_switch_quiet,10,0,0,0,0,0
bench,hsf_switch_replenish,10,20,62,89,7550
masked,hsf_switch_replenish,10,20,62,89,7550,0
bench,preemption_point_switch,0,40,294,294,29400
masked,preemption_point_switch,0,40,209,209,20900,0
done
"""


def test_masked_counts_merge_into_the_plain_windows(tmp_path: Path) -> None:
    metered = bench_hsf_target.parse_output(METER_OUTPUT)
    assert bench_hsf_target.check_masked(metered) == []
    plain = bench_hsf_target.parse_output(
        "bench,hsf_tick_quiet,10,30,31,39,3633\nbench,hsf_switch_quiet,10,0,0,0,0\n"
        "bench,hsf_switch_replenish,10,20,62,89,7550\n"
        "bench,preemption_point_switch,0,40,232,232,23200\ndone\n"
    )
    merged = bench_hsf_target.with_masked(plain, metered)
    bench = bench_hsf_target.HsfTargetBench(merged, "qemu ...")
    text = bench_hsf_target.render_markdown(bench)
    row = "| 10 | 31 / 39 / 36.3 (0 masked) | - | - | - | - | 62 / 89 / 75.5 (62 / 89 / 75.5 masked) |"  # noqa: E501
    assert row in text
    assert "to the woken task's first instruction) | 232 (209 masked) |" in text
    rows = bench_hsf_target.write_results(bench, tmp_path)[0].read_text().splitlines()
    assert rows[0].endswith(",masked_min,masked_max,masked_mean")
    assert rows[1] == "hsf_tick_quiet,10,30,31,39,36.33,0,0,0.00"
    assert rows[2] == "hsf_switch_quiet,10,0,0,0,0.00,,,"
    with pytest.raises(target.TargetError, match="different sets"):
        bench_hsf_target.with_masked(plain[:2], metered)


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            "masked,hsf_switch_replenish,10,20,62,89,7550,0",
            "masked,hsf_switch_replenish,10,20,60,89,7550,0",
            "not all masked",
        ),
        ("masked,hsf_tick_quiet,10,30,0,0,0,0\n", "", "no masked line"),
        (
            "masked,preemption_point_switch,0,40,209,209,20900,0",
            "masked,preemption_point_switch,0,40,209,209,20900,1",
            "unmeasured",
        ),
        (
            "masked,preemption_point_switch,0,40,209,209,",
            "masked,preemption_point_switch,0,40,209,300,",
            "against",
        ),
    ],
)
def test_masked_check_catches_a_wrong_count(old: str, new: str, problem: str) -> None:
    assert old in METER_OUTPUT
    problems = bench_hsf_target.check_masked(
        bench_hsf_target.parse_output(METER_OUTPUT.replace(old, new))
    )
    assert any(problem in p for p in problems), problems
