"""How the analysis prints an exact ratio (a utilisation, a product of them)."""

from __future__ import annotations

from fractions import Fraction

DECIMALS = 4


def fraction_text(value: Fraction) -> str:
    """Four decimals, a whole number as itself; with the exact fraction beside the
    decimals when they round to a whole number the value is not, so that the text
    never reads "U = 1.0000 > 1" (100001/100000 is above 1, 99999/100000 below)."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.{DECIMALS}f}"
    if Fraction(text).denominator == 1:
        text += f" ({value})"
    return text
