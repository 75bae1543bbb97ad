"""Outputs that appear together or not at all (takt/staged.py)."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from takt.staged import staged_outputs


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_outputs_take_their_names_only_when_the_block_ends(tmp_path: Path) -> None:
    with staged_outputs() as outputs:
        for name in ("a.csv", "b.png"):
            with outputs.file(tmp_path / name) as temporary:
                assert temporary.parent == tmp_path
                assert temporary.suffix == Path(name).suffix  # writers go by it
                temporary.write_text(name)
        assert not (tmp_path / "a.csv").exists() and not (tmp_path / "b.png").exists()
    assert names(tmp_path) == ["a.csv", "b.png"]
    assert (tmp_path / "b.png").read_text() == "b.png"


def test_a_failure_leaves_what_was_there_and_nothing_else(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("old")
    with pytest.raises(RuntimeError), staged_outputs() as outputs:
        with outputs.file(tmp_path / "a.csv") as temporary:
            temporary.write_text("new")
        with outputs.file(tmp_path / "b.csv") as temporary:
            temporary.write_text("half")
            raise RuntimeError("a writer's bug")
    assert names(tmp_path) == ["a.csv"]
    assert (tmp_path / "a.csv").read_text() == "old"


def test_an_error_while_writing_names_the_output_not_its_temporary(tmp_path: Path) -> None:
    target = tmp_path / "timeline.csv"
    with pytest.raises(OSError) as caught, staged_outputs() as outputs:
        with outputs.file(target):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert caught.value.errno == errno.ENOSPC
    assert caught.value.filename == str(target)
    assert names(tmp_path) == []


def test_a_folder_made_for_the_outputs_goes_again_when_they_fail(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "deeper"
    with pytest.raises(OSError), staged_outputs(folder) as outputs:
        assert folder.is_dir()
        with outputs.file(folder / "x.toml") as temporary:
            temporary.write_text("x")
        with outputs.file(folder / "y.toml"):
            raise OSError(errno.ENOSPC, "full")
    assert names(tmp_path) == []
    # A folder that was there stays, with what it held.
    (tmp_path / "kept").mkdir()
    (tmp_path / "kept" / "mine.txt").write_text("mine")
    with pytest.raises(OSError), staged_outputs(tmp_path / "kept") as outputs:
        with outputs.file(tmp_path / "kept" / "x.toml"):
            raise OSError(errno.EIO, "broken")
    assert names(tmp_path / "kept") == ["mine.txt"]
    with staged_outputs(folder) as outputs, outputs.file(folder / "x.toml") as temporary:
        temporary.write_text("x")
    assert names(folder) == ["x.toml"]


def test_a_link_keeps_pointing_and_a_file_keeps_its_permissions(tmp_path: Path) -> None:
    real = tmp_path / "real.csv"
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    with staged_outputs() as outputs, outputs.file(link) as temporary:
        temporary.write_text("new")
    assert link.is_symlink() and real.read_text() == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_bench_writers_write_all_their_files_or_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host benches' results (`takt bench queues`, `takt bench hsf`) go through
    staged outputs: written together, and a chart that fails takes the tables with it."""
    from takt import bench

    rows = [
        bench.QueueCost(queue, n, op, 100, 50.0, 60.0, 70.0, None, None, 40.0 + n)
        for queue in ("heap", "mlist")
        for n in (2, 4)
        for op in bench.QUEUE_OPS
    ]
    out = tmp_path / "queues"
    paths = bench.write_queue_results(rows, out)
    assert sorted(p.name for p in paths) == names(out) == ["queues.csv", "queues.md", "queues.png"]
    ticks = [bench.HsfTickCost(10, "tick_quiet", 5, 20.0)]
    assert [p.name for p in bench.write_hsf_tick_results(ticks, out)] == [
        "hsf_tick.csv",
        "hsf_tick.md",
    ]

    def full_disk(*_: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(bench, "_plot_queues", full_disk)
    fresh = tmp_path / "fresh"
    with pytest.raises(OSError) as caught:
        bench.write_queue_results(rows, fresh)
    assert caught.value.filename == str(fresh / "queues.png")
    assert not fresh.exists()
