"""Progressive (cumulative) score (C.07 7.5): the running score after each round, summed."""

from __future__ import annotations

import numpy as np

from ..context import Context
from ..contributions import Explanation, RuleOutcome, contribution_rows, explanation
from ..modifiers import REASON_CODES, cut_label, cut_reasons, kept_total, reason_text
from ..rules import RuleSpec


def progressive(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    table = ctx.table
    low = spec.cut or spec.median
    high = spec.median
    running = np.cumsum(table.pts, axis=1)
    counted = np.ones(running.shape, dtype=bool)
    # C.07 14: for the progressive score the least significant values are the first rounds.
    order = np.broadcast_to(np.arange(table.played_rounds), running.shape)
    reasons = cut_reasons(order, running, None, counted, low, high)
    uncut = running.sum(axis=1) if reasons is not None else None
    label = cut_label(low, high)
    texts = {code: reason_text(code, label) for code in REASON_CODES}

    def explain(rows: list[int]) -> Explanation:
        fields = {"kind": "running_score", "opponent": None, "value": running[rows] / table.scale}
        made = contribution_rows(
            ctx.contribution, counted[rows], fields, None if reasons is None else reasons[rows], texts
        )
        return explanation(rows, made, before_cut=None if uncut is None else (uncut[rows] / table.scale).tolist())

    return RuleOutcome.of(spec, kept_total(running, counted, reasons), table.scale, explain=explain)
