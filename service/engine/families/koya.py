"""Koya system (C.07 9.2): points scored against opponents who reached the limit."""

from __future__ import annotations

from ..context import Context
from ..crosstable import NO_OPPONENT
from ..model import System
from ..contributions import Contribution, RuleOutcome
from ..rules import RuleSpec

DEFAULT_LIMIT = 50  # percent of the maximum possible score


def koya(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    table = ctx.table
    limit = DEFAULT_LIMIT if spec.limit is None else spec.limit
    if table.system is System.ROUND_ROBIN:
        # The idle round of an odd round robin is no game: the maximum is over the games scheduled.
        maxima = [table.win * sum(1 for q in row if q != NO_OPPONENT) for row in table.opponents]
    else:
        maxima = [table.win * table.played_rounds] * table.size
    values: list[int | None] = []
    all_contributions: list[list[Contribution]] | None = [] if ctx.explain else None
    scores = table.scores  # the opponents' final scores at face value
    for p in range(table.size):
        counted = [
            (r, kind, q, pts)
            for r, (kind, q, pts) in enumerate(zip(table.kinds[p], table.opponents[p], table.points[p]))
            if q != NO_OPPONENT and scores[q] * 100 >= limit * maxima[q]
        ]
        values.append(sum(pts for *_, pts in counted))
        if all_contributions is not None:
            all_contributions.append([
                Contribution(r + 1, kind.value, pts, scores[q], opponent=table.ids[q]) for r, kind, q, pts in counted
            ] if ctx.explains(p) else [])
    return RuleOutcome(spec, values, table.scale, all_contributions)
