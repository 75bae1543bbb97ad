"""A run's timeline and job table, kept as columns.

A long run has millions of rows; as one object each they cost about 150 to
200 bytes a row, as columns of machine integers about 30. Reading a table
gives :class:`TimelineRow` / :class:`JobRow` values made on each read, so to
their readers these tables are sequences of rows like any list of them.
:class:`PackedSequence` is that reading and comparing, also for the packed
trace (``takt.trace``).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import Generic, TypeVar, overload

from takt.model import JobRow, TimelineRow

Item = TypeVar("Item")

NONE = -1  # a job number or finish that is None (both are never negative)


class _Names:
    """Each distinct name once; rows keep its index (at most 65535 names)."""

    __slots__ = ("index", "names")

    def __init__(self) -> None:
        self.names: list[str] = []
        self.index: dict[str, int] = {}

    def of(self, name: str) -> int:
        found = self.index.get(name)
        if found is None:
            found = self.index[name] = len(self.names)
            self.names.append(name)
        return found


class PackedSequence(Sequence[Item], Generic[Item]):
    """A sequence kept packed whose items are made when read: by index or slice,
    iterated, and equal to any sequence of equal items (a list included)."""

    __slots__ = ()

    def _item(self, index: int) -> Item:
        """The item at ``index``, 0 <= index < len(self)."""
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> Item: ...

    @overload
    def __getitem__(self, index: slice) -> list[Item]: ...

    def __getitem__(self, index: int | slice) -> Item | list[Item]:
        if isinstance(index, slice):
            return [self._item(i) for i in range(*index.indices(len(self)))]
        count = len(self)
        if not -count <= index < count:
            raise IndexError(f"{type(self).__name__} index {index} out of range")
        return self._item(index % count)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self)} items)"


class TimelineTable(PackedSequence[TimelineRow]):
    __slots__ = ("_end", "_job", "_servers", "_server", "_start", "_task", "_tasks")

    def __init__(self, rows: Iterable[TimelineRow] = ()) -> None:
        self._start = array("q")
        self._end = array("q")
        self._server = array("H")
        self._task = array("H")
        self._job = array("q")
        self._servers = _Names()
        self._tasks = _Names()
        for row in rows:
            self.append(row.start, row.end, row.server, row.task, row.job)

    def append(self, start: int, end: int, server: str, task: str, job: int | None) -> None:
        self._start.append(start)
        self._end.append(end)
        self._server.append(self._servers.of(server))
        self._task.append(self._tasks.of(task))
        self._job.append(NONE if job is None else job)

    def extend_last(self, end: int) -> None:
        """The last row runs on to ``end``."""
        self._end[-1] = end

    def __len__(self) -> int:
        return len(self._start)

    def task_names(self) -> list[str]:
        """Each task (and "idle") once, in the order of its first row."""
        return list(self._tasks.names)

    def _item(self, index: int) -> TimelineRow:
        job = self._job[index]
        return TimelineRow(
            self._start[index],
            self._end[index],
            self._servers.names[self._server[index]],
            self._tasks.names[self._task[index]],
            None if job == NONE else job,
        )

    def __iter__(self) -> Iterator[TimelineRow]:
        servers, tasks = self._servers.names, self._tasks.names
        for start, end, server, task, job in zip(
            self._start, self._end, self._server, self._task, self._job, strict=True
        ):
            yield TimelineRow(
                start, end, servers[server], tasks[task], None if job == NONE else job
            )


class JobTable(PackedSequence[JobRow]):
    __slots__ = ("_deadline", "_finish", "_job", "_missed", "_names", "_release", "_task")

    def __init__(self, rows: Iterable[JobRow] = ()) -> None:
        self._task = array("H")
        self._job = array("q")
        self._release = array("q")
        self._deadline = array("q")
        self._finish = array("q")
        self._missed = bytearray()
        self._names = _Names()
        for row in rows:
            self.append(row.task, row.job, row.release, row.deadline, row.finish, row.missed)

    def append(
        self, task: str, job: int, release: int, deadline: int, finish: int | None, missed: bool
    ) -> None:
        self._task.append(self._names.of(task))
        self._job.append(job)
        self._release.append(release)
        self._deadline.append(deadline)
        self._finish.append(NONE if finish is None else finish)
        self._missed.append(missed)

    def __len__(self) -> int:
        return len(self._task)

    def task_names(self) -> list[str]:
        """Each task once, in the order of its first row."""
        return list(self._names.names)

    def _item(self, index: int) -> JobRow:
        finish = self._finish[index]
        return JobRow(
            self._names.names[self._task[index]],
            self._job[index],
            self._release[index],
            self._deadline[index],
            None if finish == NONE else finish,
            bool(self._missed[index]),
        )

    def __iter__(self) -> Iterator[JobRow]:
        names = self._names.names
        for task, job, release, deadline, finish, missed in zip(
            self._task,
            self._job,
            self._release,
            self._deadline,
            self._finish,
            self._missed,
            strict=True,
        ):
            finished = None if finish == NONE else finish
            yield JobRow(names[task], job, release, deadline, finished, bool(missed))


def task_names(rows: Iterable[JobRow] | Iterable[TimelineRow]) -> list[str]:
    """Each task named in ``rows`` once, in the order of its first row; a table
    answers from its names without reading its rows."""
    if isinstance(rows, JobTable | TimelineTable):
        return rows.task_names()
    return list(dict.fromkeys(r.task for r in rows))
