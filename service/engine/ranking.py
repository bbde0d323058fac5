"""The ordered rule list as a fold: rank by points, then refine the tie groups rule by rule.

Values become sort keys (smaller sorts first); one lexicographic sort over the key
columns orders the standings. Rules computed inside tie groups (DE) see the groups
that the earlier rules leave.
"""

from __future__ import annotations

import numpy as np

from .context import Context
from .contributions import RuleOutcome
from .registry import TIEBREAKS
from .rules import RuleSpec

WORST = np.iinfo(np.int64).max  # no value sorts after every value


def sort_keys(outcome: RuleOutcome) -> np.ndarray:
    """Smaller sorts first: higher values first, except where lower is better; no value is worst."""
    sign = 1 if outcome.lower_is_better else -1
    if outcome.column is not None:
        keys = sign * outcome.column
        return keys if outcome.missing is None else np.where(outcome.missing, WORST, keys)
    return np.array([WORST if v is None else sign * v for v in outcome.values], dtype=np.int64)


def _order(keys: list[np.ndarray]) -> np.ndarray:
    """Indices sorted by the keys, the first key most significant (a stable lexicographic sort)."""
    return np.lexsort(keys[::-1])


def _starts(keys: list[np.ndarray], order: np.ndarray) -> np.ndarray:
    """For each position of `order`, whether it starts a new group (differs from the previous one)."""
    starts = np.zeros(len(order), dtype=bool)
    if len(order):
        starts[0] = True
    for key in keys:
        ordered = key[order]
        starts[1:] |= ordered[1:] != ordered[:-1]
    return starts


def groups_of(keys: list[np.ndarray]) -> list[list[int]]:
    """The tie groups the keys leave, in standing order."""
    order = _order(keys)
    bounds = np.flatnonzero(_starts(keys, order)).tolist() + [len(order)]
    members = order.tolist()
    return [members[a:b] for a, b in zip(bounds, bounds[1:])]


def rank(ctx: Context, specs: list[RuleSpec], dropped: dict[RuleSpec, str],
         registry=TIEBREAKS) -> tuple[np.ndarray, np.ndarray, list[np.ndarray], list[RuleOutcome]]:
    """The standing order, where each tie group starts, every key column (points first) and one outcome per rule.

    Players equal on everything share a rank and are listed by start number. `registry`:
    the catalogue the codes are looked up in (team events have their own).
    """
    table = ctx.table
    keys = [-table.score]
    outcomes: list[RuleOutcome] = []
    for spec in specs:
        entry = registry[spec.code]
        if spec in dropped:
            outcome = RuleOutcome(spec, [None] * table.size, dropped_reason=dropped[spec])
        elif entry.needs_groups:
            outcome = entry.compute(ctx, spec, [g for g in groups_of(keys) if len(g) > 1])
        else:
            outcome = entry.compute(ctx, spec)
        outcomes.append(outcome)
        keys.append(sort_keys(outcome))
    order = _order(keys + [np.asarray(table.ids, dtype=np.int64)])
    return order, _starts(keys, order), keys, outcomes
