"""Output files that appear together or not at all.

Each output is written to a temporary file beside it (so the final rename stays on one
file system); only when every one is written do they take their names. A failure while
writing — a full disk, an interrupt, an error in a writer — leaves no partial file and
no half-updated set behind (nor a folder made for them), and the files that were there
before are untouched; only a rename failing between two others (a rename within one
folder writes no data) would leave a mixed set, and its error names it. An
error names the output, not its temporary: a full disk alone says only "No space left
on device". A symbolic link keeps pointing where it did: the file it names is the one
replaced.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["StagedOutputs", "naming", "staged_outputs"]


def _mode_for(destination: str) -> int:
    """The permissions open() would give the output: an existing file keeps its own, a
    new one gets the umask's (mkstemp's temporary is private, 0600)."""
    try:
        return stat.S_IMODE(os.stat(destination).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _named(err: OSError, target: str | Path) -> OSError:
    """The error as the output's: its errno and reason, the output's name."""
    if err.errno is None:
        return err
    return type(err)(err.errno, err.strerror, os.fspath(target))


@contextlib.contextmanager
def naming(target: str | Path) -> Iterator[None]:
    """An OSError in the block is the output's: it names ``target``."""
    try:
        yield
    except OSError as err:
        raise _named(err, target) from err


class StagedOutputs:
    """The outputs of one command: staged with :meth:`file`, renamed by :meth:`commit`."""

    def __init__(self) -> None:
        self._staged: list[tuple[str, str, str | Path]] = []  # temporary, destination, target

    @contextlib.contextmanager
    def file(self, target: str | Path) -> Iterator[Path]:
        """The path of a temporary to write ``target``'s content to, inside the block; an
        OSError in the block names ``target``."""
        with naming(target):
            destination = os.path.realpath(target)
            # A short name of its own: the output's name may be as long as a name can be.
            handle, temporary = tempfile.mkstemp(
                prefix=".takt.", suffix=Path(target).suffix, dir=os.path.dirname(destination)
            )
            os.close(handle)
            self._staged.append((temporary, destination, target))
            os.chmod(temporary, _mode_for(destination))
            yield Path(temporary)

    def commit(self) -> None:
        """Every staged output takes its name."""
        while self._staged:
            temporary, destination, target = self._staged[0]
            with naming(target):
                os.replace(temporary, destination)
            self._staged.pop(0)

    def discard(self) -> None:
        """Removes the temporaries of outputs not committed."""
        for temporary, _, _ in self._staged:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
        self._staged.clear()


@contextlib.contextmanager
def staged_outputs(folder: Path | None = None) -> Iterator[StagedOutputs]:
    """Outputs staged in the block take their names when it ends without an error.
    ``folder``: made first (with missing parents) if it does not exist, and removed
    again if the outputs fail."""
    made = [] if folder is None else [f for f in (folder, *folder.parents) if not f.exists()]
    outputs = StagedOutputs()
    try:
        for missing in reversed(made):
            with naming(missing):
                missing.mkdir()
        yield outputs
        outputs.commit()
    except BaseException:
        outputs.discard()
        for missing in made:
            with contextlib.suppress(OSError):
                missing.rmdir()
        raise
    finally:
        outputs.discard()
