"""Unplayed rounds (C.07 16): what a participant gives to others, what a participant gets.

Swiss only; in a round robin an unplayed game counts as played against the
scheduled opponent and the idle round of an odd field is ignored.
Every function here is a pass over the table's columns.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..texts.message import msg
from .model import Regulations, ResultKind, System
from .table import HAS_OPPONENT, IS_PLAYED, IS_VUR, NO_OPPONENT, Table

# Voluntary unplayed rounds without a scheduled opponent (byes and absences): after the
# player's last round that is not a VUR they count as a draw for the opponents (C.07 16.3).
NOT_PAIRED_VOLUNTARY = frozenset({ResultKind.HALF_BYE, ResultKind.ZERO_BYE, ResultKind.ABSENT})
IS_NOT_PAIRED_VUR = np.array([k in NOT_PAIRED_VOLUNTARY for k in ResultKind])

# How the stand-in for an own unplayed round got its score, by code.
OWN_SCORE, CAPPED_FORFEIT, CAPPED_BYE, VIRTUAL = 0, 1, 2, 3
DUMMY_ARTICLES = ("16.4", "16.4.1", "16.4.2", "C.02 13.15.2")
DUMMY_REASONS = ("dummy-own-score", "dummy-capped-at-opponent", "dummy-capped-at-half", "virtual-opponent")


@dataclass(frozen=True, slots=True)
class UnplayedPolicy:
    """What an edition of the FIDE rules answers about unplayed rounds (DESIGN: editions are
    policies); a family asks the policy, never the edition's name."""

    # What a player gives to others: only the closing byes and absences count as a draw
    # (C.07 16.3), or every round without a game over the board does (the 2009 rule).
    every_unplayed_round_a_draw: bool
    # What a player gets for an own unplayed round in a Swiss: a dummy opponent with the
    # own score (C.07 16.4), capped since 2026 (16.4.1, 16.4.2), or the 2009 virtual opponent.
    capped: bool
    virtual_opponent: bool
    # Cuts take voluntary unplayed rounds first (C.07 16.5); the 2009 rule had no priority.
    cuts_unplayed_first: bool
    article: str  # where what a player gives is written


POLICIES = {
    Regulations.FIDE_2026: UnplayedPolicy(False, True, False, True, "16.3"),
    Regulations.FIDE_2024: UnplayedPolicy(False, False, False, True, "16.3"),
    Regulations.FIDE_2009: UnplayedPolicy(True, False, True, False, "C.02 13.15"),
}


def policy_of(regulations: Regulations) -> UnplayedPolicy:
    return POLICIES.get(regulations, POLICIES[Regulations.FIDE_2026])


def last_non_vur_round(vur: np.ndarray) -> np.ndarray:
    """Per row, the 0-based index of the last round that is not a voluntary unplayed round, or -1.

    C.07 16.2: a forfeit loss (a double forfeit too) is a VUR, so it does not end the
    run of unplayed rounds after a player's last game; a game, a forfeit win, a
    full-point bye or the pairing-allocated bye does.
    """
    rounds = vur.shape[1]
    real = ~vur
    last = rounds - 1 - np.argmax(real[:, ::-1], axis=1)
    return np.where(real.any(axis=1), last, -1)


def counted_as_draw(table: Table, policy: UnplayedPolicy) -> np.ndarray:
    """The rounds a player's opponents count as a draw instead of their face value: a boolean matrix.

    C.07 16.3: the byes and absences after the player's last round that is not a VUR
    (16.2.5: followed only by VURs, or in the last round); forfeit losses in that run keep
    their face value (16.2.4). The 2009 rule: every round without a game over the board.
    None in a round robin.
    """
    if table.system is System.ROUND_ROBIN or not table.played_rounds:
        return np.zeros(table.kind.shape, dtype=bool)
    if policy.every_unplayed_round_a_draw:
        unplayed: np.ndarray = ~IS_PLAYED[table.kind]
        return unplayed
    boundary = last_non_vur_round(IS_VUR[table.kind])
    after = np.arange(table.played_rounds)[None, :] > boundary[:, None]
    closing: np.ndarray = after & IS_NOT_PAIRED_VUR[table.kind]
    return closing


def closing_run(table: Table) -> np.ndarray:
    """The C.07 16.3 rounds counted as a draw (see `counted_as_draw`)."""
    return counted_as_draw(table, POLICIES[Regulations.FIDE_2026])


def adjusted_scores(table: Table, run: np.ndarray | None = None) -> np.ndarray:
    """Each player's score as their opponents count it: face value, except the rounds of
    `run` (by default C.07 16.3's closing byes and absences), which count as a draw each."""
    if run is None:
        run = closing_run(table)
    adjusted: np.ndarray = table.score + np.where(run, table.draw - table.pts, 0).sum(axis=1)
    return adjusted


@dataclass(slots=True, eq=False)
class OpponentColumns:
    """Per player and round, what feeds Buchholz, Sonneborn-Berger and Fore Buchholz.

    A counted round is a game (or, in a round robin or with the P modifier, a forfeit)
    against a real opponent, or in a Swiss an own unplayed round against a dummy opponent
    (C.07 16.4). `key` is the opponent's adjusted score or the dummy's (capped) score.
    """

    counted: np.ndarray  # bool (players, rounds)
    key: np.ndarray  # int64: the score counted for that round (0 where not counted)
    vur: np.ndarray  # bool: a voluntary unplayed round (16.2), cut first (16.5)
    dummy: np.ndarray  # bool: a dummy opponent stands in for the round
    how: np.ndarray  # int8: OWN_SCORE, CAPPED_FORFEIT, CAPPED_BYE or VIRTUAL where dummy
    any_vur: bool


def opponent_columns(
    table: Table, adjusted: np.ndarray, regulations: Regulations, forfeits_played: bool
) -> OpponentColumns:
    policy = policy_of(regulations)
    round_robin = table.system is System.ROUND_ROBIN
    kind, opp = table.kind, table.opp
    has_opp = opp != NO_OPPONENT
    counts_forfeits = round_robin or forfeits_played
    game = has_opp & (IS_PLAYED[kind] | (HAS_OPPONENT[kind] if counts_forfeits else False))
    opponent_score = adjusted[np.where(has_opp, opp, 0)] if table.size else np.zeros(opp.shape, np.int64)
    if round_robin:
        # the idle round of an odd round robin is no game, and nothing stands in for it
        zeros = np.zeros(kind.shape, dtype=bool)
        return OpponentColumns(
            game, np.where(game, opponent_score, 0), zeros, zeros, np.zeros(kind.shape, np.int8), False
        )
    dummy = ~game
    if policy.virtual_opponent:
        # C.02 13.15.2: an opponent who started the round on the player's score, got the
        # opposite result and drew every later round: Sv = S(R-1) + (W - s(R)) + D (n - R).
        before = np.cumsum(table.pts, axis=1) - table.pts
        later = table.played_rounds - np.arange(1, table.played_rounds + 1)
        stand_in = before + (table.win - table.pts) + table.draw * later[None, :]
        how = np.where(dummy, VIRTUAL, OWN_SCORE).astype(np.int8)
    else:
        own = table.score[:, None]  # C.07 16.4: a dummy opponent with the player's own score ...
        how = np.zeros(kind.shape, dtype=np.int8)
        stand_in = np.broadcast_to(own, kind.shape)
        if policy.capped:
            # ... capped at the scheduled opponent's adjusted score for a forfeit (16.4.1), at
            # draw points × rounds counted for a bye or an absence (16.4.2).
            cap = np.where(has_opp, opponent_score, table.draw * table.played_rounds)
            capped = dummy & (own > cap)
            how = np.where(capped, np.where(has_opp, CAPPED_FORFEIT, CAPPED_BYE), 0).astype(np.int8)
            stand_in = np.minimum(own, cap)
    key = np.where(game, opponent_score, stand_in)
    vur = dummy & IS_VUR[kind] if policy.cuts_unplayed_first else np.zeros(kind.shape, dtype=bool)
    return OpponentColumns(np.ones(kind.shape, dtype=bool), key, vur, dummy, how, bool(vur.any()))


@functools.lru_cache(maxsize=4096)  # the same few scores and caps recur row after row
def dummy_note(how: int, own: int, dummy: int, scale: int, scheduled: int | None = None) -> str:
    if how == CAPPED_FORFEIT:
        return msg(
            "own score {own} capped at {cap}, the score of the scheduled opponent {opponent} (16.4.1)",
            own=own / scale,
            cap=dummy / scale,
            opponent=scheduled,
        )
    if how == CAPPED_BYE:
        return msg("own score {own} capped at {cap} (16.4.2)", own=own / scale, cap=dummy / scale)
    return msg("dummy opponent with the player's own score {own} (16.4)", own=own / scale)


def virtual_note(table: Table, p: int, r: int, value: int) -> str:
    """The virtual opponent's formula with its numbers (C.02 13.15.2)."""
    scale = table.scale
    before = int(table.pts[p, :r].sum())
    scored = int(table.pts[p, r])
    return msg(
        "virtual opponent: S(R-1) {before} + (W {win} - s(R) {scored}) + D {draw} x (n {rounds} - R {round}) "
        "= {value} (C.02 13.15.2)",
        before=before / scale,
        win=table.win / scale,
        scored=scored / scale,
        draw=table.draw / scale,
        rounds=table.played_rounds,
        round=r + 1,
        value=value / scale,
    )
