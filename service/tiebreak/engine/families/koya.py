"""Koya system (C.07 9.2): points scored against opponents who reached the limit."""

from __future__ import annotations

import numpy as np

from ..context import Context
from ..contributions import Contribution, RuleOutcome
from ..model import System
from ..rules import RuleSpec
from ..table import KINDS, NO_OPPONENT

DEFAULT_LIMIT = 50  # percent of the maximum possible score


def koya(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    table = ctx.table
    limit = DEFAULT_LIMIT if spec.limit is None else spec.limit
    has_opp = table.opp != NO_OPPONENT
    if table.system is System.ROUND_ROBIN:
        # The idle round of an odd round robin is no game: the maximum is over the games scheduled.
        maxima = table.win * has_opp.sum(axis=1)
    else:
        maxima = np.full(table.size, table.win * table.played_rounds, dtype=np.int64)
    # the opponents' final scores at face value against the limit of their maximum
    reached = table.score * 100 >= limit * maxima
    opp = np.where(has_opp, table.opp, 0)
    counted = has_opp & reached[opp]
    outcome = RuleOutcome.of(spec, np.where(counted, table.pts, 0).sum(axis=1), table.scale)

    def explain_row(p: int) -> list[Contribution]:
        kinds, opponents, points = table.kind[p].tolist(), opp[p].tolist(), table.pts[p].tolist()
        return [ctx.contribution(r + 1, KINDS[kinds[r]].value, table.ids[opponents[r]], points[r] / table.scale,
                             opponent_score=table.scores[opponents[r]] / table.scale)
                for r in np.flatnonzero(counted[p]).tolist()]

    outcome.explain_row = explain_row
    return outcome
