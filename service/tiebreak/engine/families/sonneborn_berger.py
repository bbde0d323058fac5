"""Sonneborn-Berger (C.07 9.1): each opponent's score times the points scored against them."""

from __future__ import annotations

from ..context import Context
from ..contributions import RuleOutcome
from ..rules import RuleSpec
from .buchholz import opponent_score_sum


def sonneborn_berger(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    # C.07 16.4: an own unplayed round is a game against the dummy opponent, scored as it was.
    return opponent_score_sum(ctx, spec, weight_by_result=True)
