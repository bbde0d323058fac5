"""Rounding as the regulations say: to the nearest, halves up."""

from __future__ import annotations

import math
from fractions import Fraction


def round_half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))


def mean_note(total: Fraction, count: int, what: str) -> str | None:
    """How an average was formed, for the breakdown."""
    if not count:
        return None
    return f"{what}: {float(total):g} / {count} = {float(total / count):.6g}, rounded half up"
