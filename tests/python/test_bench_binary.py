"""Host benchmark programs are brought up to date before they measure."""

from __future__ import annotations

from pathlib import Path

import pytest

from takt import bench, sim


def _fake_build_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    built: list[str] = []
    monkeypatch.setattr(sim, "DEFAULT_BUILD_DIR", tmp_path)
    monkeypatch.setattr(sim, "build_target", lambda build_dir, target: built.append(target))
    return built


def test_an_existing_program_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = _fake_build_dir(tmp_path, monkeypatch)
    program = tmp_path / "apps" / "bench" / "takt-bench-queues"
    program.parent.mkdir(parents=True)
    program.write_text("stale")
    monkeypatch.setattr(bench.shutil, "which", lambda name: "/usr/bin/cmake")
    assert bench.bench_binary("takt-bench-queues") == program
    assert built == ["takt-bench-queues"]


def test_a_missing_program_is_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = _fake_build_dir(tmp_path, monkeypatch)
    monkeypatch.setattr(bench.shutil, "which", lambda name: None)
    expected = tmp_path / "apps" / "bench" / "takt-bench-hsf-tick"
    assert bench.bench_binary("takt-bench-hsf-tick") == expected
    assert built == ["takt-bench-hsf-tick"]


def test_without_cmake_an_existing_program_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = _fake_build_dir(tmp_path, monkeypatch)
    program = tmp_path / "apps" / "bench" / "takt-bench-queues"
    program.parent.mkdir(parents=True)
    program.write_text("as built")
    monkeypatch.setattr(bench.shutil, "which", lambda name: None)
    assert bench.bench_binary("takt-bench-queues") == program
    assert built == []
