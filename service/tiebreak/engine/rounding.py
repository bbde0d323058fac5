"""Rounding as the regulations say: to the nearest, halves up."""

from __future__ import annotations

import numpy as np

from ..texts.message import pre


def round_half_up_div(numerator: np.ndarray, denominator: np.ndarray | int) -> np.ndarray:
    """numerator / denominator to the nearest integer, halves up, in exact integer arithmetic
    (denominators positive): floor(n/d + 1/2) = floor((2n + d) / 2d)."""
    return (2 * numerator + denominator) // (2 * denominator)


def mean_notes(total: np.ndarray, scale: int, count: np.ndarray, what: str) -> list[str | None]:
    """How each player's average was formed, for the breakdown: totals in units of 1/scale (int / int
    is correctly rounded, as float(Fraction) is)."""
    return [
        _mean(what, t / scale, c, t / (scale * c)) if c else None
        for t, c in zip(total.tolist(), count.tolist(), strict=True)
    ]


def _mean(what: str, total: float, count: int, mean: float) -> str:
    # six significant digits: the mean as `:g` writes it in every language
    english = f"{what}: {total:g} / {count} = {mean:g}, rounded half up"
    return pre(
        english,
        "{what}: {total} / {count} = {mean}, rounded half up",
        what=what,
        total=total,
        count=count,
        mean=mean,
    )
