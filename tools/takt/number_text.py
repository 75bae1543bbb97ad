"""How a whole number of any size is written for a person: Python will not convert one
of more than 4300 digits with ``str`` (``sys.get_int_max_str_digits``), and both a
hyperperiod of many long co-prime periods and an integer typed into a scenario file
can be that long. Shared by the analysis (:mod:`takt.analysis.fraction_text`) and the
scenario reader's messages.
"""

from __future__ import annotations

__all__ = ["COUNT_MAX_DIGITS", "count_text", "digits"]

# A whole number longer than this reads in scientific form.
COUNT_MAX_DIGITS = 15

# log10(2), to estimate a number's digits from its bits.
_LOG10_2 = 0.30102999566398120


def digits(n: int) -> int:
    """How many decimal digits |n| has, without converting it to a string."""
    n = abs(n)
    # A lower bound from the bits (a float error can make it one too high: minus one),
    # then counted up exactly.
    count = max(1, int((n.bit_length() - 1) * _LOG10_2))
    while n >= 10**count:
        count += 1
    return count


def count_text(n: int) -> str:
    """A whole number as itself up to 15 digits, else in scientific form with its first
    digits and how many it has ("1.000e18, 19 digits"): a hyperperiod of many long
    periods can have thousands."""
    length = digits(n)
    if length <= COUNT_MAX_DIGITS:
        return str(n)
    sign = "-" if n < 0 else ""
    lead = str(abs(n) // 10 ** (length - 4))
    return f"{sign}{lead[0]}.{lead[1:]}e{length - 1}, {length} digits"
