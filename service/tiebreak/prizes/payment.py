"""Paying a pool exactly: shares floored to the currency unit, the units left over
one each to the largest remainders, equal remainders to the earlier player."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction


def pay_exactly(exact_shares: list[Fraction], total: Decimal, unit: Decimal) -> list[Decimal]:
    """Amounts in whole `unit`s that sum to `total` (a multiple of the unit), each the
    exact share floored or floored plus one unit; `exact_shares` are listed in
    standings order and sum to `total`."""
    step = Fraction(unit)
    in_units = [share / step for share in exact_shares]
    paid = [math.floor(u) for u in in_units]
    left = int(Fraction(total) / step) - sum(paid)
    if not 0 <= left <= len(paid) or sum(exact_shares) != Fraction(total):
        raise ArithmeticError(f"shares {exact_shares} do not add up to {total}")
    by_remainder = sorted(range(len(paid)), key=lambda i: (-(in_units[i] - paid[i]), i))
    for i in by_remainder[:left]:
        paid[i] += 1
    return [quantized(unit * units, unit) for units in paid]


def quantized(amount: Decimal, unit: Decimal) -> Decimal:
    """`amount` written with as many decimals as the unit has (unit "0.01": 875 → 875.00)."""
    exponent = min(0, int(unit.as_tuple().exponent))  # finite: an int
    return amount.quantize(Decimal(1).scaleb(exponent))


def is_multiple(amount: Decimal, unit: Decimal) -> bool:
    return (Fraction(amount) / Fraction(unit)).denominator == 1
