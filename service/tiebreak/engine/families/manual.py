"""MAN: values the arbiter gives (an external tie-break, a decision), higher is better (SPEC 3.12;
the checklist's questions 205 and 207)."""

from __future__ import annotations

import math

import numpy as np

from ...texts.message import msg
from ..context import Context
from ..contributions import Explanation, RuleOutcome, explanation
from ..errors import InvalidRequest, Issue
from ..rules import RuleSpec


def manual_values(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """Each player's value from the request's `manual_values`, exact (a common denominator as the
    scale); a player without one is an error, not a value that sorts last."""
    table, given = ctx.table, ctx.manual_values or {}
    missing = [pid for pid in table.ids if pid not in given]
    unknown = sorted(set(given) - set(table.ids))
    if unknown:
        raise InvalidRequest(
            [Issue(("manual_values", str(unknown[0])), msg("no player has start number {id}", id=unknown[0]))]
        )
    if missing:
        raise InvalidRequest(
            [
                Issue(
                    ("manual_values",),
                    msg(
                        "rule MAN needs a value for every player: {count} have none (e.g. id {id})",
                        count=len(missing),
                        id=missing[0],
                    ),
                )
            ]
        )
    values = [given[pid] for pid in table.ids]
    scale = math.lcm(1, *(v.denominator for v in values))
    column = np.array([int(v * scale) for v in values], dtype=np.int64)

    def explain(rows: list[int]) -> Explanation:
        return explanation(rows, notes=[msg("value given by the arbiter (manual_values)") for _ in rows])

    return RuleOutcome.of(spec, column, scale, explain=explain)
