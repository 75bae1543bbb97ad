"""How the analysis prints an exact ratio (a utilisation, a product of them) and a
count that can be very long (a hyperperiod).

Nothing here converts a whole number of unknown size with ``str``: Python refuses one
of more than 4300 digits (``sys.get_int_max_str_digits``), and the utilisation of a few
hundred tasks with large co-prime periods is a fraction with terms that long.
"""

from __future__ import annotations

from fractions import Fraction

from takt.number_text import count_text, digits

__all__ = ["count_text", "digits", "exact_text", "fraction_text"]

DECIMALS = 4


# Longer fractions (periods in the millions) read as noise beside the decimals.
EXACT_MAX_CHARS = 21


def _exact(value: Fraction) -> str | None:
    """The fraction as "numerator/denominator" when it is short enough to read."""
    length = digits(value.numerator) + digits(value.denominator) + 1 + (value < 0)
    return str(value) if length <= EXACT_MAX_CHARS else None


def _distance_text(distance: Fraction) -> str:
    """A small positive distance in scientific form; below what a float holds (terms of
    hundreds of digits can come that close), an upper bound."""
    approx = float(distance)
    return f"{approx:.1e}" if approx > 0 else "less than 1e-300"


def fraction_text(value: Fraction) -> str:
    """Four decimals, a whole number as itself; when the decimals round to a whole
    number the value is not, the exact fraction beside them, so that the text never
    reads "U = 1.0000 > 1" (100001/100000 is above 1, 99999/100000 below), or, for a
    fraction too long to read, which side of that number it lies on and how far."""
    if value.denominator == 1:
        return count_text(value.numerator)
    text = f"{float(value):.{DECIMALS}f}"
    if Fraction(text).denominator == 1:
        exact = _exact(value)
        if exact is not None:
            return f"{text} ({exact})"
        whole = round(value)
        side = "below" if value < whole else "above"
        return f"{text} ({side} {whole} by {_distance_text(abs(value - whole))})"
    return text


def exact_text(value: Fraction) -> str:
    """Four decimals with the exact fraction beside them when it is short enough to
    read (53/60); a longer one only where fraction_text needs it to tell the side of
    a whole number."""
    exact = _exact(value)
    if value.denominator == 1 or exact is None:
        return fraction_text(value)
    return f"{float(value):.{DECIMALS}f} ({exact})"
