"""Cut and Median for every family (C.07 14, 16.5), as passes over whole columns.

A family hands over, per player and round, the significance key (the opponent's score,
a rating, a round), the contribution value, which entries are voluntary unplayed rounds
and which are counted at all. The selection marks every cut entry with its reason; the
value is the sum of the rest, and the breakdown reads the same marks, so the two can
never disagree.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ..texts.message import msg

# Why an entry was cut, by code (0: kept).
KEPT, VUR_FIRST, VUR_SMALLER, LOWEST, HIGHEST = 0, 1, 2, 3, 4
REASONS = {
    VUR_FIRST: lambda label: msg("unplayed rounds are cut first (16.5)"),
    VUR_SMALLER: lambda label: msg("least significant value; the unplayed round contributes less, so it stays (16.5)"),
    LOWEST: lambda label: msg("least significant value ({label})", label=label),
    HIGHEST: lambda label: msg("most significant value ({label})", label=label),
}
REASON_CODES = {
    VUR_FIRST: "vur-cut-first",
    VUR_SMALLER: "least-significant-vur-smaller",
    LOWEST: "least-significant",
    HIGHEST: "most-significant",
}
_BIG = np.iinfo(np.int64).max
_SMALL = np.iinfo(np.int64).min


def cut_label(low: int, high: int) -> str:
    return f"Median-{high}" if high else f"Cut-{low}"


def reason_text(code: int, label: str) -> str:
    return REASONS[code](label)


def _first_min(alive: np.ndarray, *columns: np.ndarray) -> np.ndarray:
    """Per row, the first alive position whose columns are lexicographically smallest."""
    candidates = alive
    for i, column in enumerate(columns):
        if i and column is columns[i - 1]:
            continue  # Buchholz's value is its key: one comparison decides
        masked = np.where(candidates, column, _BIG)
        candidates = candidates & (masked == masked.min(axis=1, keepdims=True))
    first: np.ndarray = candidates.argmax(axis=1)
    return first


def _last_max(alive: np.ndarray, *columns: np.ndarray) -> np.ndarray:
    """Per row, the last alive position whose columns are lexicographically largest."""
    candidates = alive
    for i, column in enumerate(columns):
        if i and column is columns[i - 1]:
            continue  # Buchholz's value is its key: one comparison decides
        masked = np.where(candidates, column, _SMALL)
        candidates = candidates & (masked == masked.max(axis=1, keepdims=True))
    last: np.ndarray = alive.shape[1] - 1 - candidates[:, ::-1].argmax(axis=1)
    return last


def cut_reasons(
    key: np.ndarray,
    value: np.ndarray,
    vur: np.ndarray | None,
    counted: np.ndarray,
    low: int,
    high: int,
    memo: Memo | None = None,
) -> np.ndarray | None:
    """Which counted entries a Cut/Median removes, as a matrix of reason codes (None: no cut).

    C.07 16.5.1/16.5.2: at the low end the lowest contribution coming from a voluntary
    unplayed round (lowest value, then key, then round) is compared with the least
    significant value (lowest key, then value, then round); the higher of the two is cut,
    the unplayed round on equal values, so that an unplayed round never helps. For
    Buchholz the contribution is the key, so the unplayed round always goes first; for
    Sonneborn-Berger a forfeit loss contributes 0 and may stay. The upper cut of a Median
    takes the most significant values (highest key, then value, the latest round),
    unplayed or not. Low cuts come first.

    Rows without a voluntary unplayed round are sorted once; only the rows with one go
    through the cut-by-cut comparison. `memo` (a request's cache) keeps the sort for the
    other cuts of the same columns (BH/C1, BH/C2, BH/M1 sort once).
    """
    if not (low or high):
        return None
    reasons = np.zeros(key.shape, dtype=np.int8)
    with_vur = np.asarray(vur.any(axis=1)) if vur is not None else None
    order = _row_order(key, value, counted, memo)
    if with_vur is None or not with_vur.any():
        _sorted_cuts(reasons, order, low, high)
        return reasons
    _sorted_cuts(reasons, order, low, high, np.flatnonzero(~with_vur))
    assert vur is not None
    reasons[with_vur] = _vur_rows_cut(key, value, counted, vur, with_vur, low, high, memo)
    return reasons


def _vur_rows_cut(
    key: np.ndarray,
    value: np.ndarray,
    counted: np.ndarray,
    vur: np.ndarray,
    with_vur: np.ndarray,
    low: int,
    high: int,
    memo: Memo | None = None,
) -> np.ndarray:
    """The reason codes of the rows with a voluntary unplayed round, cut by cut (16.5); kept in
    `memo` under the columns' identities and the cut, for the breakdown's marks after the value."""
    token = ("vur-rows", id(key), id(value), id(counted), id(vur), low, high)
    if memo is not None and token in memo:
        return cast(np.ndarray, memo[token])  # only _vur_rows_cut writes it
    part = np.zeros((int(with_vur.sum()), key.shape[1]), dtype=np.int8)
    rows_key = key[with_vur]
    rows_value = rows_key if value is key else value[with_vur]  # one column stays one (_first_min)
    _stepwise_cuts(part, rows_key, rows_value, counted[with_vur], vur[with_vur], low, high)
    if memo is not None:
        part.flags.writeable = False  # shared by the value and the breakdown: only read
        memo[token] = part
    return part


class _SortedRows:
    """Each row's counted entries from the least significant (key, then value, then round), as
    one sorted int64 matrix: the significance with the round in the low digits, entries not
    counted last; `count` of them per row. The round and the value are read back from it."""

    __slots__ = ("packed", "count", "rounds", "span")

    def __init__(self, packed: np.ndarray, count: np.ndarray, rounds: int, span: int | None) -> None:
        self.packed, self.count, self.rounds, self.span = packed, count, rounds, span

    def order(self) -> np.ndarray:
        """The round of each sorted entry."""
        rounds: np.ndarray = self.packed % self.rounds
        return rounds

    def values(self, positions: np.ndarray, rows: np.ndarray) -> np.ndarray:
        significance: np.ndarray = self.packed[rows, positions] // self.rounds
        return significance % self.span if self.span else significance


# A request's cache of the rows sorted for the cuts, under the columns' identities.
Memo = dict[object, object]
# The rows sorted for the cuts, or the columns themselves (key, value, counted) when they do not pack.
RowOrder = _SortedRows | tuple[np.ndarray, np.ndarray, np.ndarray]


def _row_order(key: np.ndarray, value: np.ndarray, counted: np.ndarray, memo: Memo | None) -> RowOrder:
    """The rows sorted for the cuts (a _SortedRows), or the columns themselves when no single
    int64 can hold key, value and round (then the cuts go step by step); remembered in `memo`
    under the columns' identities (BH/C1, BH/C2, BH/M1 sort once)."""
    token = (id(key), id(value), id(counted))
    if memo is not None and token in memo:
        return cast(RowOrder, memo[token])  # only _row_order writes it
    rounds = max(key.shape[1], 1)
    span = None
    found: RowOrder | None = None
    if value is key or not key.size:
        significance = key
    else:
        span = int(value.max()) + 1
        if int(np.abs(key).max()) * span >= 2**62 or int(value.min()) < 0:
            found = (key, value, counted)
        else:
            significance = key * span + value
    if found is None and int(np.abs(significance).max(initial=0)) >= 2**62 // rounds:
        found = (key, value, counted)
    if found is None:
        packed = np.where(counted, significance * rounds + np.arange(rounds), _BIG)
        found = _SortedRows(np.sort(packed, axis=1), counted.sum(axis=1), rounds, span)
    if memo is not None:
        memo[token] = found
    return found


def _sorted_cuts(reasons: np.ndarray, order: RowOrder, low: int, high: int, rows: np.ndarray | None = None) -> None:
    """Cuts without unplayed rounds to prefer, from each row's sorted entries (only `rows`,
    when given: the others are cut step by step)."""
    if not isinstance(order, _SortedRows):
        key, value, counted = order
        if rows is not None:
            part = np.zeros((len(rows), reasons.shape[1]), dtype=np.int8)
            _stepwise_cuts(part, key[rows], value[rows], counted[rows], None, low, high)
            reasons[rows] = part
        else:
            _stepwise_cuts(reasons, key, value, counted, vur=None, low=low, high=high)
        return
    if not order.packed.size:
        return
    rounds_of = order.order()
    count = order.count
    rows = np.arange(reasons.shape[0]) if rows is None else rows
    for j in range(min(low, reasons.shape[1])):
        hit = rows[count[rows] > j]
        reasons[hit, rounds_of[hit, j]] = LOWEST
    for j in range(high):
        at = count[rows] - 1 - j  # the most significant alive entries, the latest round first
        keep = at >= low
        hit = rows[keep]
        reasons[hit, rounds_of[hit, at[keep]]] = HIGHEST


def _sorted_removed(value: np.ndarray, order: RowOrder, low: int, high: int) -> np.ndarray:
    """Per row, the sum of the values `_sorted_cuts` would mark."""
    if not isinstance(order, _SortedRows):
        reasons = np.zeros(value.shape, dtype=np.int8)
        _sorted_cuts(reasons, order, low, high)
        removed_cut: np.ndarray = np.where(reasons != KEPT, value, 0).sum(axis=1)
        return removed_cut
    count = order.count
    removed = np.zeros(value.shape[0], dtype=np.int64)
    if not order.packed.size:
        return removed
    rows = np.arange(value.shape[0])
    for j in range(min(low, value.shape[1])):
        hit = rows[count > j]
        removed[hit] += order.values(np.full(len(hit), j), hit)
    for j in range(high):
        at = count - 1 - j
        keep = at >= low
        hit = rows[keep]
        removed[hit] += order.values(at[keep], hit)
    return removed


def _stepwise_cuts(
    reasons: np.ndarray,
    key: np.ndarray,
    value: np.ndarray,
    counted: np.ndarray,
    vur: np.ndarray | None,
    low: int,
    high: int,
) -> None:
    """Cut by cut, comparing the lowest unplayed-round contribution with the least significant value."""
    alive = counted.copy()
    rows = np.arange(key.shape[0])
    for _ in range(low):
        some = alive.any(axis=1)
        least = _first_min(alive, key, value)
        code = np.full(len(rows), LOWEST, dtype=np.int8)
        victim = least
        if vur is not None:
            unplayed = alive & vur
            has_vur = unplayed.any(axis=1)
            lowest_vur = _first_min(unplayed, value, key)
            take_vur = has_vur & (value[rows, lowest_vur] >= value[rows, least])
            victim = np.where(take_vur, lowest_vur, least)
            code = np.where(take_vur, VUR_FIRST, np.where(has_vur, VUR_SMALLER, LOWEST)).astype(np.int8)
        hit = rows[some]
        reasons[hit, victim[some]] = code[some]
        alive[hit, victim[some]] = False
    for _ in range(high):
        some = alive.any(axis=1)
        top = _last_max(alive, key, value)
        hit = rows[some]
        reasons[hit, top[some]] = HIGHEST
        alive[hit, top[some]] = False


def cut_totals(
    key: np.ndarray,
    value: np.ndarray,
    vur: np.ndarray | None,
    counted: np.ndarray,
    low: int,
    high: int,
    memo: Memo | None = None,
    uncut: np.ndarray | None = None,
) -> np.ndarray:
    """Per row, the sum of the counted values left after the cuts: the selection of
    `cut_reasons`, taken from the same sorted orders, without a matrix of reasons (a
    breakdown asks `cut_reasons` for the marks). `uncut`: the rows' sums, when known."""
    if uncut is None:
        uncut = kept_total(value, counted, None)
    if not (low or high):
        return uncut
    with_vur = np.asarray(vur.any(axis=1)) if vur is not None else None
    removed = _sorted_removed(value, _row_order(key, value, counted, memo), low, high)
    if vur is not None and with_vur is not None and with_vur.any():
        part = _vur_rows_cut(key, value, counted, vur, with_vur, low, high, memo)
        removed[with_vur] = np.where(part != KEPT, value[with_vur], 0).sum(axis=1)
    kept: np.ndarray = uncut - removed
    return kept


def kept_total(value: np.ndarray, counted: np.ndarray, reasons: np.ndarray | None) -> np.ndarray:
    """Per row, the sum of the counted values left after the cuts."""
    kept = counted if reasons is None else counted & (reasons == KEPT)
    total: np.ndarray = np.where(kept, value, 0).sum(axis=1)
    return total


def apply_cuts(contributions: list[Any], low: int, high: int, label: str) -> int:
    """One row of entries (each with an integer `value`, its significance `key` and `vur`)
    through the same selection: mark the cut ones (`cut_reason`, `cut_code`) in place and
    return the sum of the rest."""
    if not contributions:
        return 0
    key = np.array([[c.key for c in contributions]], dtype=np.int64)
    value = np.array([[c.value for c in contributions]], dtype=np.int64)
    vur = np.array([[c.vur for c in contributions]], dtype=bool)
    counted = np.ones(key.shape, dtype=bool)
    reasons = cut_reasons(key, value, vur, counted, low, high)
    if reasons is not None:
        for i in np.flatnonzero(reasons[0]).tolist():
            contributions[i].cut_reason = reason_text(int(reasons[0, i]), label)
            contributions[i].cut_code = REASON_CODES[int(reasons[0, i])]
    return int(kept_total(value, counted, reasons)[0])
