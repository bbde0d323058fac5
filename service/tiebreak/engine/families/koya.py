"""Koya system (C.07 9.2): points scored against opponents who reached the limit."""

from __future__ import annotations

import numpy as np

from ..context import Context
from ..contributions import Explanation, RuleOutcome, contribution_rows, explanation
from ..model import System
from ..rules import RuleSpec
from ..table import NO_OPPONENT, Table
from .counts import KIND_NAMES

DEFAULT_LIMIT = 50  # percent of the maximum possible score


def koya_counted(table: Table, spec: RuleSpec) -> np.ndarray:
    """Per player and round, whether the round's points count for Koya: a game against an opponent
    whose final score reached the limit (9.2). The scenario solver sums the same cells per round
    (engine/scenario_formulas.py)."""
    has_opp = table.opp != NO_OPPONENT
    if table.system is System.ROUND_ROBIN and not spec.all_rounds:
        # The idle round of an odd round robin is no game: the maximum is over the games scheduled
        # (decision 0060; /R takes every round, as the FIDE reference does).
        maxima = table.win * has_opp.sum(axis=1)
    else:
        maxima = np.full(table.size, table.win * table.played_rounds, dtype=np.int64)
    # the opponents' final scores at face value against the limit of their maximum
    if spec.limit_steps is not None:
        # C.07 14.5: half of the maximum moved by half points; doubled to stay in whole units
        reached = table.score * 2 >= maxima + spec.limit_steps * table.scale
    else:
        limit = DEFAULT_LIMIT if spec.limit is None else spec.limit
        reached = table.score * 100 >= limit * maxima
    opp = np.where(has_opp, table.opp, 0)
    counted: np.ndarray = has_opp & reached[opp]
    return counted


def koya(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    table = ctx.table
    opp = np.where(table.opp != NO_OPPONENT, table.opp, 0)
    counted = koya_counted(table, spec)

    def explain(rows: list[int]) -> Explanation:
        fields = {
            "kind": KIND_NAMES[table.kind[rows]],
            "opponent": ctx.opponent_ids()[rows],
            "value": table.pts[rows] / table.scale,
            "opponent_score": table.score[opp[rows]] / table.scale,
        }
        return explanation(rows, contribution_rows(ctx.contribution, counted[rows], fields))

    return RuleOutcome.of(spec, np.where(counted, table.pts, 0).sum(axis=1), table.scale, explain=explain)
