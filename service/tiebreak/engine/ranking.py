"""The ordered rule list as a fold: rank by points, then refine the tie groups rule by rule.

Values become sort keys (smaller sorts first); one lexicographic sort over the key
columns orders the standings. Rules computed inside tie groups (DE) see the groups
that the earlier rules leave.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np

from .contributions import RuleOutcome
from .registry import TIEBREAKS
from .rules import RuleSpec
from .table import Table


class RankingContext(Protocol):
    """What the ranking reads of a request's context (an individual or a team event's)."""

    @property
    def table(self) -> Table: ...


WORST = np.iinfo(np.int64).max  # no value sorts after every value


def sort_keys(outcome: RuleOutcome) -> np.ndarray:
    """Smaller sorts first: higher values first, except where lower is better; no value is worst."""
    sign = 1 if outcome.lower_is_better else -1
    keys = sign * outcome.column
    return keys if outcome.missing is None else np.where(outcome.missing, WORST, keys)


def _order(keys: list[np.ndarray]) -> np.ndarray:
    """Indices sorted by the keys, the first key most significant (a stable lexicographic sort)."""
    if len(keys[0]) < PACK_FROM_PLAYERS:  # small: packing would cost more than the passes it saves
        return np.lexsort(keys[::-1])
    return np.lexsort(_packed(keys)[::-1])


PACK_FROM_PLAYERS = 2048


_PACKED_SPAN = 2**62


def _packed(keys: list[np.ndarray]) -> list[np.ndarray]:
    """The same order in fewer keys: neighbouring keys whose ranges multiply to less than 2**62
    become one (k1 × span2 + (k2 − min2) sorts as (k1, k2) does); a lexicographic sort costs
    about one pass per key. A key with a value past every value (WORST) stays alone."""
    out: list[np.ndarray] = []
    packed, span_packed = None, 0
    for key in keys:
        if not len(key):
            return keys
        low = int(key.min())
        span = int(key.max()) - low + 1
        if span >= _PACKED_SPAN:  # cannot be shifted safely
            if packed is not None:
                out.append(packed)
                packed = None
            out.append(key)
        elif packed is not None and span_packed * span < _PACKED_SPAN:
            packed, span_packed = packed * span + (key - low), span_packed * span
        else:
            if packed is not None:
                out.append(packed)
            packed, span_packed = key - low, span
    if packed is not None:
        out.append(packed)
    return out


def _starts(keys: list[np.ndarray], order: np.ndarray) -> np.ndarray:
    """For each position of `order`, whether it starts a new group (differs from the previous one)."""
    starts = np.zeros(len(order), dtype=bool)
    if len(order):
        starts[0] = True
    for key in keys:
        ordered = key[order]
        starts[1:] |= ordered[1:] != ordered[:-1]
    return starts


def tie_groups(order: np.ndarray, starts: np.ndarray) -> list[list[int]]:
    """The groups of two or more players that `starts` leaves tied, in standing order."""
    bounds = np.flatnonzero(starts)
    sizes = np.diff(np.append(bounds, len(order)))
    members = order.tolist()
    return [
        members[a : a + size] for a, size in zip(bounds[sizes > 1].tolist(), sizes[sizes > 1].tolist(), strict=True)
    ]


def _dense(order: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Per player, the index of its tie group in standing order (all earlier keys in one column)."""
    group = np.empty(len(order), dtype=np.int64)
    group[order] = np.cumsum(starts) - 1
    return group


def rank(
    ctx: RankingContext,
    specs: list[RuleSpec],
    dropped: Mapping[RuleSpec, str | None],
    registry: Mapping[str, Any] = TIEBREAKS,
    within: np.ndarray | None = None,
    after_points: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray], list[RuleOutcome]]:
    """The standing order, where each tie group starts, every key column (points first) and one outcome per rule.

    Players equal on everything share a rank and are listed by start number. A rule that
    needs the groups sorts only the keys since the last such rule, behind the group index
    the earlier ones left; the final sort does the same. `registry`: the catalogue the
    codes are looked up in (team events have their own). `within`: a block per row, sorted before
    everything else, so that rows of different blocks are never tied (engine/scenarios.py ranks many
    outcomes of one event in one pass); the keys returned leave it out. `after_points`: a key sorted
    after the points and before every rule (the play-offs, C.07 3), returned after the points' key.
    """
    table = ctx.table
    first = [-table.score] if after_points is None else [-table.score, after_points]
    keys = list(first)
    # the keys since the last refinement, most significant first
    pending = list(first) if within is None else [within, *first]
    group: np.ndarray | None = None  # every key before `pending`, as one dense column
    outcomes: list[RuleOutcome] = []
    for spec in specs:
        entry = registry[spec.code]
        if spec in dropped:
            outcome = RuleOutcome.dropped(spec, table.size, dropped[spec])
        elif entry.needs_groups:
            so_far = ([group] if group is not None else []) + pending
            order = _order(so_far)
            starts = _starts(so_far, order)
            group, pending = _dense(order, starts), []
            outcome = entry.compute(ctx, spec, tie_groups(order, starts))
        else:
            outcome = entry.compute(ctx, spec)
        outcomes.append(outcome)
        keys.append(sort_keys(outcome))
        pending.append(keys[-1])
    final = ([group] if group is not None else []) + pending
    order = _order(final + [np.asarray(table.ids, dtype=np.int64)])
    return order, _starts(final, order), keys, outcomes
