"""Unplayed rounds (C.07 16): what a player gives to others, what a player gets.

Swiss only; in a round robin an unplayed game counts as played against the
scheduled opponent and the idle round of an odd field is ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

from .crosstable import NO_OPPONENT, Crosstable
from .model import Regulations, ResultKind, System


# Voluntary unplayed rounds in which the player was not paired. A forfeit loss is
# voluntary too, but the player was paired that round and it counts at face value.
NOT_PAIRED_VOLUNTARY = frozenset({ResultKind.HALF_BYE, ResultKind.ZERO_BYE, ResultKind.ABSENT})


def adjusted_scores(table: Crosstable) -> list[int]:
    """Each player's score as their opponents count it (C.07 16.3).

    Face value, forfeit and bye points included, except that byes and absences
    after the player's last round that was neither (withdrawal, a closing bye)
    count as a draw each. A closing forfeit loss stays at face value.
    In a round robin the score counts at face value.
    """
    if table.system is System.ROUND_ROBIN:
        return list(table.scores)
    adjusted = []
    draw = table.draw
    for kinds, points in zip(table.kinds, table.points):
        last_real = -1
        for r in range(len(kinds) - 1, -1, -1):
            if kinds[r] not in NOT_PAIRED_VOLUNTARY:
                last_real = r
                break
        trailing = len(kinds) - 1 - last_real
        adjusted.append(sum(points[: last_real + 1]) + trailing * draw)  # C.07 16.3
    return adjusted


@dataclass(slots=True)
class Pairing:
    """One round of a player as the opponent-score tie-breaks see it."""

    round: int  # 1-based
    opponent: int  # index, or NO_OPPONENT for a dummy
    opponent_score: int  # the opponent's adjusted score, or the dummy's (capped) score
    points: int  # what the player scored in that round
    vur: bool
    kind: str  # game, forfeit, dummy
    unplayed: ResultKind | None
    note: str | None


def opponent_rounds(
    table: Crosstable, adjusted: list[int], regulations: Regulations, forfeits_played: bool
) -> list[list[Pairing]]:
    """Per player, the rounds that feed Buchholz, Sonneborn-Berger and Fore Buchholz."""
    round_robin = table.system is System.ROUND_ROBIN
    half_of_rounds = table.draw * table.played_rounds  # C.07 16.4.2: draw points × rounds
    capped = regulations is Regulations.FIDE_2026
    result: list[list[Pairing]] = []
    for p in range(table.size):
        kinds, opps, points = table.kinds[p], table.opponents[p], table.points[p]
        own = table.scores[p]
        rows: list[Pairing] = []
        for r, kind in enumerate(kinds):
            q = opps[r]
            if q != NO_OPPONENT and (kind.is_played or round_robin or forfeits_played):
                rows.append(Pairing(r + 1, q, adjusted[q], points[r], False,
                                    "game" if kind.is_played else "forfeit", None, None))
                continue
            if round_robin:
                continue  # the idle round of an odd round robin is no game
            # C.07 16.4: a dummy opponent with the player's own score.
            dummy = own
            note = f"dummy opponent with the player's own score {_fmt(own, table.scale)} (16.4)"
            if capped and q != NO_OPPONENT:
                cap = adjusted[q]  # C.07 16.4.1: forfeits, at the scheduled opponent's score
                if own > cap:
                    dummy = cap
                    note = (f"own score {_fmt(own, table.scale)} capped at {_fmt(cap, table.scale)}, "
                            f"the scheduled opponent's score (16.4.1)")
            elif capped:
                cap = half_of_rounds  # C.07 16.4.2: byes and absences, at 50 %
                if own > cap:
                    dummy = cap
                    note = f"own score {_fmt(own, table.scale)} capped at {_fmt(cap, table.scale)} (16.4.2)"
            rows.append(Pairing(r + 1, NO_OPPONENT, dummy, points[r], kind.is_voluntary_unplayed,
                                "dummy", kind, note))
        result.append(rows)
    return result


def _fmt(units: int, scale: int) -> str:
    value = units / scale
    return f"{value:g}"
