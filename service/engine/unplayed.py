"""Unplayed rounds (C.07 16): what a player gives to others, what a player gets.

Swiss only; in a round robin an unplayed game counts as played against the
scheduled opponent and the idle round of an odd field is ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

from .crosstable import NO_OPPONENT, Crosstable
from .model import Regulations, ResultKind, System


# Voluntary unplayed rounds without a scheduled opponent (byes and absences): after the
# player's last round that is not a VUR they count as a draw for the opponents (C.07 16.3).
NOT_PAIRED_VOLUNTARY = frozenset({ResultKind.HALF_BYE, ResultKind.ZERO_BYE, ResultKind.ABSENT})


def last_non_vur_round(kinds) -> int:
    """The 0-based index of the last round that is not a voluntary unplayed round, or -1.

    C.07 16.2: a forfeit loss (a double forfeit too) is a VUR, so it does not end
    the run of unplayed rounds after a player's last game; a game, a forfeit win, a
    full-point bye or the pairing-allocated bye does.
    """
    for r in range(len(kinds) - 1, -1, -1):
        if not kinds[r].is_voluntary_unplayed:
            return r
    return -1


def adjusted_scores(table: Crosstable) -> list[int]:
    """Each player's score as their opponents count it (C.07 16.3).

    Face value, forfeit and bye points included, except that the byes and absences
    after the player's last round that is not a VUR (16.2.5: followed only by VURs,
    or in the last round) count as a draw each; forfeit losses in that run keep
    their face value (16.2.4). In a round robin the score counts at face value.
    """
    if table.system is System.ROUND_ROBIN:
        return list(table.scores)
    adjusted = []
    draw = table.draw
    for kinds, points, score in zip(table.kinds, table.points, table.scores):
        boundary = last_non_vur_round(kinds)
        for r in range(boundary + 1, len(kinds)):
            if kinds[r] in NOT_PAIRED_VOLUNTARY:
                score += draw - points[r]  # C.07 16.3: counts as a draw
        adjusted.append(score)
    return adjusted


@dataclass(slots=True)
class OpponentRounds:
    """Per player, aligned lists of the rounds that feed Buchholz, Sonneborn-Berger, Fore Buchholz.

    A counted round is a game (or, in a round robin or with the P modifier, a
    forfeit) against a real opponent, or in a Swiss an own unplayed round against
    a dummy opponent (C.07 16.4), whose opponent index is NO_OPPONENT.
    """

    rounds: list[list[int]]  # 0-based round of each counted round
    opponents: list[list[int]]
    scores: list[list[int]]  # the opponent's adjusted score, or the dummy's (capped) score
    points: list[list[int]]  # what the player scored in that round
    vurs: list[list[bool]]  # voluntary unplayed rounds, cut first (16.5)
    any_vur: list[bool]
    dummies: dict[tuple[int, int], tuple[str, int, int]]  # (player, round) -> (article, own score, cap)


def opponent_rounds(
    table: Crosstable, adjusted: list[int], regulations: Regulations, forfeits_played: bool
) -> OpponentRounds:
    round_robin = table.system is System.ROUND_ROBIN
    counts_forfeits = round_robin or forfeits_played
    half_of_rounds = table.draw * table.played_rounds  # C.07 16.4.2: draw points × rounds
    capped = regulations is Regulations.FIDE_2026
    all_rounds = list(range(table.played_rounds))
    result = OpponentRounds([], [], [], [], [], [], {})
    dummies = result.dummies
    for p in range(table.size):
        kinds, opps = table.kinds[p], table.opponents[p]
        own = table.scores[p]
        scores: list[int] = []
        vurs: list[bool] = []
        skipped = False
        for r, kind in enumerate(kinds):
            q = opps[r]
            if q != NO_OPPONENT and (kind.is_played or (counts_forfeits and kind.has_opponent)):
                scores.append(adjusted[q])
                vurs.append(False)
                continue
            if round_robin:
                skipped = True  # the idle round of an odd round robin is no game
                continue
            # C.07 16.4: a dummy opponent with the player's own score ...
            dummy, article = own, "16.4"
            if capped:
                # ... capped at the scheduled opponent's score for a forfeit (16.4.1),
                # at 50 % of the rounds for a bye or an absence (16.4.2).
                cap, cap_article = (adjusted[q], "16.4.1") if q != NO_OPPONENT else (half_of_rounds, "16.4.2")
                if own > cap:
                    dummy, article = cap, cap_article
            dummies[(p, r)] = (article, own, dummy)
            scores.append(dummy)
            vurs.append(kind.is_voluntary_unplayed)
        if skipped:
            counted = [r for r in all_rounds if opps[r] != NO_OPPONENT]
            result.rounds.append(counted)
            result.points.append([table.points[p][r] for r in counted])
            result.opponents.append([opps[r] for r in counted])
        else:
            result.rounds.append(all_rounds)
            result.points.append(table.points[p])
            result.opponents.append(opps)
        result.scores.append(scores)
        result.vurs.append(vurs)
        result.any_vur.append(True in vurs)
    return result


def dummy_note(article: str, own: int, dummy: int, scale: int, scheduled: int | None = None) -> str:
    if article == "16.4.1":
        return (f"own score {_fmt(own, scale)} capped at {_fmt(dummy, scale)}, the score of the "
                f"scheduled opponent {scheduled} (16.4.1)")
    if article == "16.4.2":
        return f"own score {_fmt(own, scale)} capped at {_fmt(dummy, scale)} (16.4.2)"
    return f"dummy opponent with the player's own score {_fmt(own, scale)} (16.4)"


def _fmt(units: int, scale: int) -> str:
    return f"{units / scale:g}"
