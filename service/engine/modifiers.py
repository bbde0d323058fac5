"""Cut and Median for every family (C.07 14, 16.5).

The selection works on plain parallel lists (significance keys, contribution
values, VUR flags) so that values can be computed without building a
Contribution per round; the breakdown marks the same selection on its
Contribution objects.
"""

from __future__ import annotations

from collections.abc import Sequence

from .contributions import Contribution

VUR_FIRST = "unplayed rounds are cut first (16.5)"
VUR_SMALLER = "least significant value; the unplayed round contributes less, so it stays (16.5)"
LOWEST = "least significant value ({label})"
HIGHEST = "most significant value ({label})"


def cut_label(low: int, high: int) -> str:
    return f"Median-{high}" if high else f"Cut-{low}"


def select_cuts(keys: Sequence[int], values: Sequence[int], vurs: Sequence[bool] | None,
                low: int, high: int) -> list[tuple[int, str]]:
    """Which positions a Cut/Median removes, and why (reason templates take the label).

    C.07 16.5.1/16.5.2: at the low end the lowest contribution coming from a voluntary
    unplayed round is compared with the least significant value, and the higher of the
    two is cut (the unplayed round on equal values), so that an unplayed round never
    helps. For Buchholz the contribution is the key, so the unplayed round always goes
    first; for Sonneborn-Berger a forfeit loss contributes 0 and may stay.
    The upper cut of a Median takes the most significant values, unplayed or not.
    Significance is the key (the opponent's score), then the value. Low cuts come first.
    """
    n = len(keys)
    # Least significant first; equal entries stay in round order.
    order = sorted(range(n), key=lambda i: (keys[i], values[i]))
    alive = [True] * n
    cuts: list[tuple[int, str]] = []
    for _ in range(min(low, n)):
        least = next(i for i in order if alive[i])
        # 16.5.1: the lowest *contribution* among the VURs (for Sonneborn-Berger a forfeit
        # loss contributes 0 whatever its dummy's score), then the least significant one
        vur = min((i for i in order if alive[i] and vurs[i]), key=values.__getitem__, default=None) if vurs else None
        if vur is None:
            victim, reason = least, LOWEST
        elif values[vur] >= values[least]:
            victim, reason = vur, VUR_FIRST
        else:
            victim, reason = least, VUR_SMALLER
        alive[victim] = False
        cuts.append((victim, reason))
    for _ in range(min(high, n - len(cuts))):
        top = next(i for i in reversed(order) if alive[i])
        alive[top] = False
        cuts.append((top, HIGHEST))
    return cuts


def cut_total(keys: Sequence[int], values: Sequence[int], vurs: Sequence[bool] | None,
              low: int, high: int) -> int:
    """The sum after Cut/Median; the same selection as `select_cuts`, faster without VURs."""
    total = sum(values)
    if not low and not high:
        return total
    if vurs and any(vurs):
        return total - sum(values[i] for i, _ in select_cuts(keys, values, vurs, low, high))
    n = len(values)
    if n <= low + high:
        return 0
    ordered = sorted(values) if values is keys else [v for _, v in sorted(zip(keys, values))]
    return total - sum(ordered[:low]) - (sum(ordered[n - high:]) if high else 0)


def with_cuts(contributions: list[Contribution], cuts: list[tuple[int, str]], label: str) -> list[Contribution]:
    """A copy of the list with the cut entries replaced by marked copies.

    The uncut entries are shared, so that rules over the same contributions (BH,
    BH/C1, BH/M1…) build each contribution once.
    """
    marked = contributions[:]
    for i, reason in cuts:
        marked[i] = marked[i].marked_cut(reason.format(label=label))
    return marked


def apply_cuts(contributions: Sequence[Contribution], low: int, high: int, label: str) -> int:
    """Mark the cut contributions in place (with their reason); return the sum of the rest."""
    keys = [c.key for c in contributions]
    values = [c.value for c in contributions]
    vurs = [c.vur for c in contributions]
    cuts = select_cuts(keys, values, vurs, low, high)
    for i, reason in cuts:
        contributions[i].cut_reason = reason.format(label=label)
    cut = {i for i, _ in cuts}
    return sum(v for i, v in enumerate(values) if i not in cut)
