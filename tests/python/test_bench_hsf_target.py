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
    assert rows[1] == "hsf_tick_quiet,10,30,31,39,36.33"


def test_unfinished_run_is_an_error() -> None:
    with pytest.raises(target.TargetError):
        bench_hsf_target.parse_output("bench,hsf_tick_quiet,10,30,31,39,3633\n")
