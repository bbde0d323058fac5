"""Points and counts of rounds (C.07 7.1-7.4, 7.6, 7.7): PTS, WIN, WON, BPG, BWG, GE, STD, and TPN."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...texts.message import msg
from ..context import Context
from ..contributions import Contribution, Explanation, RuleOutcome, contribution_rows, explanation
from ..rules import RuleSpec
from ..table import BLACK, COUNTS_AS_WIN, FORFEIT_WIN, FULL_BYE, IS_PLAYED, KINDS, PAIRING_BYE, WIN, Table

RoundTest = Callable[[Table], np.ndarray]  # the rounds a count counts, as a boolean matrix

# C.07 7.6: games elected to play: games played, and rounds won without play that the
# player did not decline (pairing-allocated bye, forfeit win, full-point bye).
_ELECTED_UNPLAYED = np.isin(np.arange(len(KINDS)), [PAIRING_BYE, FORFEIT_WIN, FULL_BYE])

ROUND_TESTS: dict[str, RoundTest] = {
    # 7.2: rounds where the player scored as many points as a win, played or not: unplayed wins
    # count, but a pairing-allocated bye worth less than a win (e.g. 0 points) does not.
    "WIN": lambda t: COUNTS_AS_WIN[t.kind] & (t.pts == t.win),
    "WON": lambda t: t.kind == WIN,  # 7.3: games won over the board
    "BPG": lambda t: IS_PLAYED[t.kind] & (t.color == BLACK),  # 7.4
    "BWG": lambda t: (t.kind == WIN) & (t.color == BLACK),  # 7.4
    "GE": lambda t: IS_PLAYED[t.kind] | _ELECTED_UNPLAYED[t.kind],  # 7.6
    # US Chess 34E5: most blacks; only games played over the board count.
    "BLK": lambda t: IS_PLAYED[t.kind] & (t.color == BLACK),
}


KIND_NAMES = np.array([k.value for k in KINDS], dtype=object)


def round_contributions(
    ctx: Context, players: list[int], values: np.ndarray | None, scale: int, chosen: np.ndarray | None
) -> list[list[Contribution]]:
    """Per player, one contribution per round chosen (every round when None): the result kind,
    the value in units of 1/scale (1 when `values` is None), the opponent if any. One slice of
    each column."""
    table = ctx.table
    kinds = table.kind[players]
    fields = {
        "kind": KIND_NAMES[kinds],
        "opponent": ctx.opponent_ids()[players],
        "value": values / scale if values is not None else 1.0,
    }
    return contribution_rows(
        ctx.contribution, chosen if chosen is not None else np.ones(kinds.shape, dtype=bool), fields
    )


def count_rounds(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    table = ctx.table
    counted = ROUND_TESTS[spec.code](table)

    def explain(rows: list[int]) -> Explanation:
        return explanation(rows, round_contributions(ctx, rows, None, 1, counted[rows]))

    return RuleOutcome.of(spec, counted.sum(axis=1), 1, explain=explain)


def points(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """The score itself (C.07 7.1)."""
    table = ctx.table

    def explain(rows: list[int]) -> Explanation:
        return explanation(rows, round_contributions(ctx, rows, table.pts[rows], table.scale, None))

    return RuleOutcome.of(spec, table.score, table.scale, explain=explain)


def standard_points(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """Standard points (C.07 7.7, 2026): per round 1 when the round scored more than a draw,
    ½ for a draw, 0 otherwise — a 1-½-0 score for events with other scoring (3-1-0).

    Every round counts as it was scored, byes and forfeits included. Values in half points.
    """
    table = ctx.table
    halves = np.where(table.pts > table.draw, 2, np.where(table.pts == table.draw, 1, 0))

    def explain(rows: list[int]) -> Explanation:
        return explanation(rows, round_contributions(ctx, rows, halves[rows], 2, None))

    return RuleOutcome.of(spec, halves.sum(axis=1), 2, explain=explain)


def pairing_number(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """The tournament pairing number (C.07 2026), lower is better: a last resort that always separates."""
    table = ctx.table

    def explain(rows: list[int]) -> Explanation:
        return explanation(rows, notes=[msg("pairing number {id}", id=table.ids[p]) for p in rows])

    return RuleOutcome.of(spec, np.asarray(table.ids, dtype=np.int64), 1, lower_is_better=True, explain=explain)
