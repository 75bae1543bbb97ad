"""Many runs at once, in order: the experiments' (sweep, bench hwds) common loop."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

_Item = TypeVar("_Item")
_Record = TypeVar("_Record")


def run_all(
    one: Callable[[_Item], _Record],
    work: Sequence[_Item],
    jobs: int,
    progress: Callable[[int, int], None] | None = None,
) -> list[_Record]:
    """one(item) for every item of work, up to jobs at once, the records in the work's
    order whatever jobs is. The first item runs alone: on a board it builds the runner,
    once, before the others would each try to."""
    records = [one(work[0])]
    if progress is not None:
        progress(1, len(work))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for record in pool.map(one, work[1:]):
            records.append(record)
            if progress is not None:
                progress(len(records), len(work))
    return records
