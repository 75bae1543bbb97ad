"""A bound on how long one schedulability test may search.

The exact tests iterate to fixed points and walk every job of a busy period. For the
task sets people analyse that is a few thousand steps, but a valid scenario can make a
busy period about 2^31 ticks long beside a 2-tick period, and the search would run for
hours. Every loop of a test draws from one :class:`Steps` budget; a test that runs out
raises :class:`AnalysisTooLong`, which the report shows as an inconclusive verdict that
says why (:func:`takt.analysis.analyze_scenario`).
"""

from __future__ import annotations

from typing import Final

__all__ = ["MAX_STEPS", "AnalysisTooLong", "Steps"]

# About two seconds of the slowest test on a small task set; far above what task sets
# with busy periods of up to ~10^6 ticks need.
MAX_STEPS: Final = 1_000_000


class AnalysisTooLong(Exception):
    """A test would need more than its budget of steps."""


class Steps:
    """The steps one test may still take."""

    def __init__(self, limit: int = MAX_STEPS) -> None:
        self.limit = limit
        self.left = limit

    def take(self, count: int = 1, what: str = "the search") -> None:
        """Spend ``count`` steps on ``what``; raises when the budget is gone."""
        self.left -= count
        if self.left < 0:
            raise AnalysisTooLong(
                f"{what} needs more than {self.limit:,} steps (a busy period too long "
                "beside short periods); no verdict"
            )
