"""Rounding as the regulations say: to the nearest, halves up."""

from __future__ import annotations

import numpy as np

from ..texts.message import ENGLISH, LANGUAGE, pre


def round_half_up_div(numerator: np.ndarray, denominator: np.ndarray | int) -> np.ndarray:
    """numerator / denominator to the nearest integer, halves up, in exact integer arithmetic
    (denominators positive): floor(n/d + 1/2) = floor((2n + d) / 2d)."""
    return (2 * numerator + denominator) // (2 * denominator)


def mean_notes(total: np.ndarray, scale: int, count: np.ndarray, what: str) -> list[str | None]:
    """How each player's average was formed, for the breakdown: totals in units of 1/scale (int / int
    is correctly rounded, as float(Fraction) is)."""
    totals, counts = total.tolist(), count.tolist()
    # six significant digits: the mean as `:g` writes it in every language
    english = [
        f"{what}: {t / scale:g} / {c} = {t / (scale * c):g}, rounded half up" if c else None
        for t, c in zip(totals, counts, strict=True)
    ]
    if LANGUAGE.get() == ENGLISH:  # what `pre` gives an English answer, asked once for the column
        return english
    return [
        None
        if e is None
        else pre(
            e,
            "{what}: {total} / {count} = {mean}, rounded half up",
            what=what,
            total=t / scale,
            count=c,
            mean=t / (scale * c),
        )
        for e, t, c in zip(english, totals, counts, strict=True)
    ]
