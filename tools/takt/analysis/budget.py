"""A bound on how long one schedulability test may search.

The exact tests iterate to fixed points and walk every job of a busy period. For the
task sets people analyse that is a few thousand steps, but a valid scenario can make a
busy period about 2^31 ticks long beside a 2-tick period, and the search would run for
hours; and a set of a thousand tasks makes every pass of a fixed point a thousand times
dearer than one of a few tasks. Every loop of a test draws from one :class:`Steps`
budget and pays for the work a pass does, not for the pass: a pass that sums over n
tasks costs n + 1 steps, each job of a busy period one, each deadline a scan visits one.
A test that runs out raises :class:`AnalysisTooLong`, which the report shows as an
inconclusive verdict that says why (:func:`takt.analysis.analyze_scenario`).
"""

from __future__ import annotations

from typing import Final

__all__ = ["MAX_STEPS", "AnalysisTooLong", "Steps"]

# About a second of the slowest test (a pass over 3 tasks costs 4 steps, which is where
# a step costs most); a million passes over such a set, as the budget allowed when it
# counted passes rather than their work, and far above what task sets with busy periods
# of up to ~10^6 ticks need. A set of a thousand tasks gets about as long.
MAX_STEPS: Final = 5_000_000


class AnalysisTooLong(Exception):
    """A test would need more than its budget of steps."""


class Steps:
    """The steps one test may still take."""

    def __init__(self, limit: int | None = None) -> None:
        """``limit``: the steps allowed; MAX_STEPS as it is when the test starts."""
        self.limit = MAX_STEPS if limit is None else limit
        self.left = self.limit

    def take(self, count: int = 1, what: str = "the search") -> None:
        """Spend ``count`` steps on ``what``; raises when the budget is gone."""
        self.left -= count
        if self.left < 0:
            raise AnalysisTooLong(
                f"gave up after {self.limit:,} steps, in {what} (too many tasks, or a busy "
                "period too long beside short periods); no verdict"
            )
