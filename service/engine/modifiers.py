"""Cut and Median for every family (C.07 14, 16.5), as passes over whole columns.

A family hands over, per player and round, the significance key (the opponent's score,
a rating, a round), the contribution value, which entries are voluntary unplayed rounds
and which are counted at all. The selection marks every cut entry with its reason; the
value is the sum of the rest, and the breakdown reads the same marks, so the two can
never disagree.
"""

from __future__ import annotations

import numpy as np

# Why an entry was cut, by code (0: kept).
KEPT, VUR_FIRST, VUR_SMALLER, LOWEST, HIGHEST = 0, 1, 2, 3, 4
REASONS = {
    VUR_FIRST: "unplayed rounds are cut first (16.5)",
    VUR_SMALLER: "least significant value; the unplayed round contributes less, so it stays (16.5)",
    LOWEST: "least significant value ({label})",
    HIGHEST: "most significant value ({label})",
}
REASON_CODES = {VUR_FIRST: "vur-cut-first", VUR_SMALLER: "least-significant-vur-smaller",
                LOWEST: "least-significant", HIGHEST: "most-significant"}
_BIG = np.iinfo(np.int64).max
_SMALL = np.iinfo(np.int64).min


def cut_label(low: int, high: int) -> str:
    return f"Median-{high}" if high else f"Cut-{low}"


def reason_text(code: int, label: str) -> str:
    return REASONS[code].format(label=label)


def _first_min(alive: np.ndarray, *columns: np.ndarray) -> np.ndarray:
    """Per row, the first alive position whose columns are lexicographically smallest."""
    candidates = alive
    for column in columns:
        masked = np.where(candidates, column, _BIG)
        candidates = candidates & (masked == masked.min(axis=1, keepdims=True))
    return candidates.argmax(axis=1)


def _last_max(alive: np.ndarray, *columns: np.ndarray) -> np.ndarray:
    """Per row, the last alive position whose columns are lexicographically largest."""
    candidates = alive
    for column in columns:
        masked = np.where(candidates, column, _SMALL)
        candidates = candidates & (masked == masked.max(axis=1, keepdims=True))
    return alive.shape[1] - 1 - candidates[:, ::-1].argmax(axis=1)


def cut_reasons(key: np.ndarray, value: np.ndarray, vur: np.ndarray | None, counted: np.ndarray,
                low: int, high: int, memo: dict | None = None) -> np.ndarray | None:
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
    with_vur = vur.any(axis=1) if vur is not None else None
    if with_vur is None or not with_vur.any():
        _sorted_cuts(reasons, _row_order(key, value, counted, None, memo), low, high)
        return reasons
    plain = ~with_vur
    if plain.any():
        part = np.zeros((int(plain.sum()), key.shape[1]), dtype=np.int8)
        _sorted_cuts(part, _row_order(key, value, counted, plain, memo, id(vur)), low, high)
        reasons[plain] = part
    part = np.zeros((int(with_vur.sum()), key.shape[1]), dtype=np.int8)
    _stepwise_cuts(part, key[with_vur], value[with_vur], counted[with_vur], vur[with_vur], low, high)
    reasons[with_vur] = part
    return reasons


def _row_order(key: np.ndarray, value: np.ndarray, counted: np.ndarray, rows: np.ndarray | None,
               memo: dict | None, rows_from: int = 0) -> tuple:
    """Each row's counted entries from the least significant (key, then value, then round), and
    how many there are; remembered in `memo` under the columns' identities (`rows_from`: the
    identity of what chose `rows`)."""
    token = (id(key), id(value), id(counted), rows is None, rows_from)
    if memo is not None and token in memo:
        return memo[token]
    if rows is not None:
        key, value, counted = key[rows], value[rows], counted[rows]
    if value is key or not key.size:
        significance = key
    else:
        span = int(value.max()) + 1
        if int(np.abs(key).max()) * span >= 2 ** 62 or int(value.min()) < 0:
            found = (key, value, counted)  # no safe single column: cut step by step
            if memo is not None:
                memo[token] = found
            return found
        significance = key * span + value
    significance = np.where(counted, significance, _BIG)  # entries not counted sort last
    found = (np.argsort(significance, axis=1, kind="stable"), counted.sum(axis=1))  # equal: round order
    if memo is not None:
        memo[token] = found
    return found


def _sorted_cuts(reasons: np.ndarray, order, low: int, high: int) -> None:
    """Cuts without unplayed rounds to prefer, from each row's sorted entries."""
    if len(order) == 3:
        _stepwise_cuts(reasons, *order, vur=None, low=low, high=high)
        return
    order, count = order
    if not order.size:
        return
    rows = np.arange(order.shape[0])
    for j in range(min(low, order.shape[1])):
        hit = count > j
        reasons[rows[hit], order[hit, j]] = LOWEST
    for j in range(high):
        at = count - 1 - j  # the most significant alive entries, the latest round first
        hit = at >= low
        reasons[rows[hit], order[rows[hit], at[hit]]] = HIGHEST


def _stepwise_cuts(reasons: np.ndarray, key: np.ndarray, value: np.ndarray, counted: np.ndarray,
                   vur: np.ndarray | None, low: int, high: int) -> None:
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


def kept_total(value: np.ndarray, counted: np.ndarray, reasons: np.ndarray | None) -> np.ndarray:
    """Per row, the sum of the counted values left after the cuts."""
    kept = counted if reasons is None else counted & (reasons == KEPT)
    return np.where(kept, value, 0).sum(axis=1)


def apply_cuts(contributions: list, low: int, high: int, label: str) -> int:
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
