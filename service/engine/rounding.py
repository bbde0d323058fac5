"""Rounding as the regulations say: to the nearest, halves up."""

from __future__ import annotations

import math
from fractions import Fraction


def round_half_up(value: Fraction) -> int:
    return math.floor(value + Fraction(1, 2))
