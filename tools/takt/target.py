"""Running scenarios and programs on an emulated Cortex-M board (QEMU).

The target build of the runner (apps/target, port/armv7m) executes the same
scenario input as the sim runner on ``mps2-an385`` (Cortex-M3, port
``qemu-m3``) or ``mps2-an386`` (Cortex-M4F, ``qemu-m4``); input and trace are
host files through semihosting. Under ``-icount`` QEMU is deterministic: every
guest instruction takes 2**shift ns of virtual time, and SysTick counts it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
TOOLCHAIN_FILE = REPO_ROOT / "cmake" / "toolchain-arm-none-eabi.cmake"
# One instruction = 2**ICOUNT_SHIFT ns: at 0, a 1 ms tick is 10^6 instructions,
# so the kernel's few hundred instructions per tick are well inside a tick.
ICOUNT_SHIFT = 0
# What SysTick counts on the MPS2 boards (TAKT_BOARD_CORE_HZ in their board.h), and
# the most counts its 24-bit reload register gives a tick (takt_arm_configure).
MPS2_CORE_HZ = 25_000_000
SYSTICK_MAX_COUNTS = 2**24


class TargetError(RuntimeError):
    """The target build or QEMU is missing or failed."""


@dataclass(frozen=True)
class Board:
    port: str
    board: str
    machine: str
    build_dir: Path


BOARDS = {
    "qemu-m3": Board("qemu-m3", "mps2-an385", "mps2-an385", REPO_ROOT / "build-arm-m3"),
    "qemu-m4": Board("qemu-m4", "mps2-an386", "mps2-an386", REPO_ROOT / "build-arm-m4"),
}


def tick_problem(port: str, tick_hz: int) -> str | None:
    """Why the board's SysTick cannot make a tick of tick_hz, or None: the port's
    takt_arm_configure refuses (and the runner then fails) a tick that is not a whole
    number of counts of the core clock, or not 2 to 2^24 of them."""
    board(port)  # an unknown port is named there
    counts, rest = divmod(MPS2_CORE_HZ, tick_hz)
    if rest == 0 and 2 <= counts <= SYSTICK_MAX_COUNTS:
        return None
    return (
        f"tick_hz {tick_hz}: on {port} a tick must be a whole number of the "
        f"{MPS2_CORE_HZ // 1_000_000} MHz clock's counts, 2 to 2^24 of them (tick_hz "
        f"dividing {MPS2_CORE_HZ}, from {-(-MPS2_CORE_HZ // SYSTICK_MAX_COUNTS)} to "
        f"{MPS2_CORE_HZ // 2})"
    )


def board(port: str) -> Board:
    try:
        return BOARDS[port]
    except KeyError:
        raise TargetError(f'unknown target port "{port}" ({", ".join(BOARDS)})') from None


def qemu_argv(
    machine: str,
    elf: Path,
    *,
    shift: int,
    semihosting: str = "enable=on,target=native",
    qemu: str | None = None,
) -> list[str]:
    """QEMU running elf on machine: no display, monitor or serial, semihosting
    for its I/O, and deterministic virtual time (-icount)."""
    return [
        qemu or shutil.which("qemu-system-arm") or "qemu-system-arm",
        "-M",
        machine,
        "-display",
        "none",
        "-monitor",
        "none",
        "-serial",
        "null",
        "-semihosting-config",
        semihosting,
        "-icount",
        f"shift={shift},sleep=off",
        "-kernel",
        str(elf),
    ]


def shown_command(cmd: Sequence[str]) -> str:
    """A command line as the results record it: the emulator by name and paths
    inside the repository relative to it, so the record reads the same
    whichever checkout or machine produced it."""
    shown = []
    for i, arg in enumerate(cmd):
        path = Path(arg)
        if i == 0:
            shown.append(path.name)
        elif path.is_absolute() and path.is_relative_to(REPO_ROOT):
            shown.append(str(path.relative_to(REPO_ROOT)))
        else:
            shown.append(arg)
    return shlex.join(shown)


def qemu_command(
    port: str, elf: Path, args: list[str] | None = None, *, shift: int = ICOUNT_SHIFT
) -> list[str]:
    """The QEMU command line that runs elf on the port's board with args as its argv."""
    semihosting = "enable=on,target=native"
    for arg in [elf.name, *(args or [])]:
        if "," in arg or " " in arg:
            raise TargetError(
                f"argument {arg!r}: QEMU's semihosting arguments cannot hold ',' or ' '"
            )
        semihosting += f",arg={arg}"
    return qemu_argv(board(port).machine, elf, shift=shift, semihosting=semihosting)


def build_dir(port: str) -> Path:
    override = os.environ.get("TAKT_TARGET_BUILD_DIR")
    return Path(override) if override else board(port).build_dir


def cmake_build(
    build: Path, board_name: str, targets: Sequence[str], options: Sequence[str] = ()
) -> None:
    """Configures build for the board (once: when it has no CMake cache; again
    when cache options such as -DTAKT_WITH_FREERTOS=ON are given) and builds
    the targets; TargetError with the tools' output if either fails."""
    for tool in ("cmake", "arm-none-eabi-gcc", "qemu-system-arm"):
        if shutil.which(tool) is None:
            raise TargetError(f"{tool} is not installed (run scripts/setup)")
    commands = [["cmake", "--build", str(build), "-j2", "--target", *targets]]
    if options and (build / "CMakeCache.txt").exists():
        commands.insert(0, ["cmake", "-B", str(build), *options])
    elif not (build / "CMakeCache.txt").exists():
        configure = [
            "cmake",
            "-S",
            str(REPO_ROOT),
            "-B",
            str(build),
            "-DCMAKE_BUILD_TYPE=Release",
            f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN_FILE}",
            f"-DTAKT_BOARD={board_name}",
        ]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        commands.insert(0, configure + list(options))
    for cmd in commands:
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise TargetError(
                f"building {' '.join(targets)} for {board_name} failed:\n"
                f"{shlex.join(cmd)}\n{done.stdout}{done.stderr}"
            )


def target_program(port: str, target: str, relative: str) -> Path:
    """A target program of the port's build directory, configured and built if needed."""
    build = build_dir(port)
    cmake_build(build, board(port).board, [target])
    return build / relative


def runner_name(*, tickless: bool = False, timer_queue: str = "heap") -> str:
    """The runner program's name, the same on the sim and the boards: its tickless
    kernel's with tickless, the one with its timers in timer_queue if that is not the
    heap ("list", or "hwpq" on the hardware priority queue)."""
    if timer_queue != "heap":
        return f"takt-runner-timers-{timer_queue}"
    return "takt-runner-tickless" if tickless else "takt-runner"


def runner_elf(port: str, *, tickless: bool = False, timer_queue: str = "heap") -> Path:
    """The runner for the port's board (runner_name)."""
    name = runner_name(tickless=tickless, timer_queue=timer_queue)
    return target_program(port, name, f"apps/target/{name}")
