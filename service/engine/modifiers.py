"""Cut and Median for every family (C.07 14, 16.5)."""

from __future__ import annotations

from collections.abc import Sequence

from .contributions import Contribution

REASON_VUR_FIRST = "unplayed rounds are cut first (16.5)"
REASON_VUR_SMALLER = "least significant value; the unplayed round contributes less, so it stays (16.5)"
REASON_LOWEST = "least significant value ({label})"
REASON_HIGHEST = "most significant value ({label})"


def _low_order(c: Contribution) -> tuple[int, int]:
    return (c.key, c.value)


def apply_cuts(contributions: Sequence[Contribution], low: int, high: int, label: str) -> int:
    """Mark `low` least and `high` most significant contributions as cut; return the sum of the rest.

    C.07 16.5: at the low end a voluntary unplayed round is cut before anything else,
    unless its contribution is smaller than that of the least significant one (a forfeit
    loss adds 0 to Sonneborn-Berger): then the larger of the two goes, so that an
    unplayed round never helps. On equal contributions the unplayed round is cut.
    The upper cut of a Median takes the most significant values, unplayed or not.
    """
    remaining = list(contributions)
    for _ in range(min(low, len(remaining))):
        least = min(remaining, key=_low_order)
        vurs = [c for c in remaining if c.vur]
        victim = least
        reason = REASON_LOWEST.format(label=label)
        if vurs:
            vur = min(vurs, key=_low_order)
            if vur.value >= least.value:
                victim = vur
                reason = REASON_VUR_FIRST
            else:
                reason = REASON_VUR_SMALLER
        victim.cut_reason = reason
        remaining.remove(victim)
    for _ in range(min(high, len(remaining))):
        top = max(remaining, key=_low_order)
        top.cut_reason = REASON_HIGHEST.format(label=label)
        remaining.remove(top)
    return sum(c.value for c in remaining)


def cut_label(low: int, high: int) -> str:
    return f"Median-{high}" if high else f"Cut-{low}"
