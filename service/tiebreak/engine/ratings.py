"""The ratings the rating-based rules read (C.07 10, US Chess 34E10), by the request's policy.

Per player, and per round when the policy asks for the rating in force in each round: the FIDE
rating, the national rating or the arbiter's estimate, chosen by `source`, and how an unrated
player is counted. Integers throughout; the source of each rating is kept for the breakdowns.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..texts.message import msg
from .decisions import RatingPolicy
from .errors import InvalidRequest, Issue
from .model import Tournament
from .table import Table

# The source of a rating, as a breakdown names it (index 0: none, the player is unrated).
SOURCE_NAMES = np.array([None, "fide", "national", "estimated", "unrated"], dtype=object)
NONE, FIDE, NATIONAL, ESTIMATED, ASSIGNED = range(5)


@dataclass(frozen=True, slots=True)
class RatingColumns:
    """`start`: each player's rating at the start (what RTNG reads, and every game without
    `per_round`); `by_round`: players × rounds counted, the rating in force in each round (None
    without `per_round`); `source`: the source code of each, same shape as `by_round` or one column;
    `unrated`: the start numbers of the players left unrated (a cell without a rating)."""

    start: np.ndarray
    by_round: np.ndarray | None
    source: np.ndarray
    unrated: list[int]


def plain(table: Table) -> tuple[np.ndarray, np.ndarray]:
    """The FIDE ratings as given: the values (0: unrated) and their source codes."""
    fide = np.fromiter((r or 0 for r in table.ratings), np.int64, table.size)
    return fide, np.where(fide > 0, FIDE, NONE)


def resolve(table: Table, tournament: Tournament | None, policy: RatingPolicy, needed: bool) -> RatingColumns:
    """The ratings by `policy`. `needed`: a rating-based rule is in the list, so an unrated player
    without an estimate under `unrated: estimated` is an error (SPEC 3.12)."""
    n, rounds = table.size, table.played_rounds
    columns = rounds if policy.per_round and rounds > 0 else 1
    fide0, _ = plain(table)
    fide = np.repeat(fide0[:, None], columns, axis=1)
    national = np.zeros((n, columns), dtype=np.int64)
    estimated = np.zeros(n, dtype=np.int64)
    extra = tournament.ratings if tournament is not None else None
    if extra is not None:
        at = table.index_of_id()
        for pid, given in extra.national.items():
            if pid in at:
                national[at[pid], :] = given
        for pid, given in extra.estimated.items():
            if pid in at:
                estimated[at[pid]] = given
        if policy.per_round:
            for pid, changes in extra.history.items():
                p = at.get(pid)
                for change in sorted(changes, key=lambda c: c.from_round) if p is not None else ():
                    first = max(change.from_round - 1, 0)  # column of the round it applies from
                    if change.rating is not None:
                        fide[p, first:] = change.rating
                    if change.national_rating is not None:
                        national[p, first:] = change.national_rating
    value, source = _chosen(policy, fide, national, np.repeat(estimated[:, None], columns, axis=1))
    unrated_cells = source == NONE
    if unrated_cells.any():
        if policy.unrated == "estimated":
            has = unrated_cells & (estimated[:, None] > 0)
            value = np.where(has, estimated[:, None], value)
            source = np.where(has, ESTIMATED, source)
            unrated_cells &= ~has
            missing = np.flatnonzero(unrated_cells.any(axis=1)).tolist()
            if missing and needed:
                raise InvalidRequest(
                    [
                        Issue(
                            ("tournament", "players", p, "estimated_rating"),
                            msg(
                                "player {id} is unrated and has no estimated_rating, which ratings.unrated "
                                '"estimated" needs',
                                id=table.ids[p],
                            ),
                        )
                        for p in missing[:20]
                    ]
                )
        elif policy.unrated != "drop":
            value = np.where(unrated_cells, int(policy.unrated), value)
            source = np.where(unrated_cells, ASSIGNED, source)
            unrated_cells[:] = False
    unrated = [table.ids[p] for p in np.flatnonzero(unrated_cells.any(axis=1)).tolist()]
    return RatingColumns(value[:, 0].copy(), value if policy.per_round else None, source, unrated)


def _chosen(
    policy: RatingPolicy, fide: np.ndarray, national: np.ndarray, estimated: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The rating `source` names, cell by cell, and where it came from (0 where none)."""
    has_fide, has_national = fide > 0, national > 0
    if policy.source == "fide":
        return fide, np.where(has_fide, FIDE, NONE)
    if policy.source == "national":
        return national, np.where(has_national, NATIONAL, NONE)
    if policy.source == "fide-else-national":  # TRF-26 172 FIDON
        return np.where(has_fide, fide, national), np.where(has_fide, FIDE, np.where(has_national, NATIONAL, NONE))
    if policy.source == "national-else-fide":  # TRF-26 172 NIDOF
        return (
            np.where(has_national, national, fide),
            np.where(has_national, NATIONAL, np.where(has_fide, FIDE, NONE)),
        )
    if policy.source == "lowest":  # TRF-26 172 LBFN: the lower of the two, either alone, FIDE on equal values
        national_lower = has_national & (~has_fide | (national < fide))
        return (
            np.where(national_lower, national, fide),
            np.where(national_lower, NATIONAL, np.where(has_fide, FIDE, NONE)),
        )
    # highest (TRF-26 172 HBFN, with the estimate too): the first of the highest, FIDE first
    stacked = np.stack([fide, national, estimated])
    best = stacked.argmax(axis=0)
    value = stacked.max(axis=0)
    return value, np.where(value > 0, best + FIDE, NONE)
