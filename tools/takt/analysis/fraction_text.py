"""How the analysis prints an exact ratio (a utilisation, a product of them)."""

from __future__ import annotations

from fractions import Fraction

DECIMALS = 4


# Longer fractions (periods in the millions) read as noise beside the decimals.
EXACT_MAX_CHARS = 21


def fraction_text(value: Fraction) -> str:
    """Four decimals, a whole number as itself; when the decimals round to a whole
    number the value is not, the exact fraction beside them, so that the text never
    reads "U = 1.0000 > 1" (100001/100000 is above 1, 99999/100000 below), or, for a
    fraction too long to read, which side of that number it lies on and how far."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.{DECIMALS}f}"
    if Fraction(text).denominator == 1:
        exact = str(value)
        if len(exact) <= EXACT_MAX_CHARS:
            return f"{text} ({exact})"
        whole = round(value)
        side = "below" if value < whole else "above"
        return f"{text} ({side} {whole} by {abs(float(value - whole)):.1e})"
    return text


def exact_text(value: Fraction) -> str:
    """Four decimals with the exact fraction beside them when it is short enough to
    read (53/60); a longer one only where fraction_text needs it to tell the side of
    a whole number."""
    exact = str(value)
    if value.denominator == 1 or len(exact) > EXACT_MAX_CHARS:
        return fraction_text(value)
    return f"{float(value):.{DECIMALS}f} ({exact})"
