"""Progressive (cumulative) score (C.07 7.5): the running score after each round, summed."""

from __future__ import annotations

from itertools import accumulate

from ..context import Context
from ..contributions import Contribution, RuleOutcome
from ..modifiers import apply_cuts, cut_label, cut_total
from ..rules import RuleSpec


def progressive(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    table = ctx.table
    low = spec.cut or spec.median
    high = spec.median
    values: list[int | None] = []
    all_contributions: list[list[Contribution]] | None = [] if ctx.explain else None
    for p in range(table.size):
        running = list(accumulate(table.points[p]))
        if not ctx.explains(p):
            # C.07 14: for the progressive score the least significant values are the first rounds.
            values.append(cut_total(range(len(running)), running, None, low, high))
            if all_contributions is not None:
                all_contributions.append([])
            continue
        # C.07 14: for the progressive score the least significant values are the first rounds.
        contributions = [Contribution(r + 1, "running_score", v, r) for r, v in enumerate(running)]
        values.append(apply_cuts(contributions, low, high, cut_label(low, high)))
        if all_contributions is not None:
            all_contributions.append(contributions)
    return RuleOutcome(spec, values, table.scale, all_contributions)
