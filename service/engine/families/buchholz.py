"""Buchholz (C.07 8.1), Fore Buchholz (8.3) and Average of Opponents' Buchholz (8.4)."""

from __future__ import annotations

from fractions import Fraction

from ..context import Context
from ..contributions import Contribution, RuleOutcome
from ..modifiers import apply_cuts, cut_label
from ..rounding import mean_note, round_half_up
from ..rules import RuleSpec


def opponent_score_sum(ctx: Context, spec: RuleSpec, weight_by_result: bool) -> RuleOutcome:
    """Sum of opponents' scores (Buchholz), or of score × result (Sonneborn-Berger, 9.1)."""
    table = ctx.table
    low = spec.cut or spec.median
    high = spec.median
    label = cut_label(low, high)
    values: list[int | None] = []
    all_contributions: list[list[Contribution]] | None = [] if ctx.explain else None
    for rows in ctx.opponent_rounds(spec.forfeits_played):
        if not low and not ctx.explain:
            if weight_by_result:
                values.append(sum(row.opponent_score * row.points for row in rows))
            else:
                values.append(sum(row.opponent_score for row in rows))
            continue
        contributions = [
            Contribution(
                round=row.round,
                kind=row.kind,
                value=row.opponent_score * row.points if weight_by_result else row.opponent_score,
                key=row.opponent_score,
                vur=row.vur,
                opponent=table.ids[row.opponent] if row.kind != "dummy" else None,
                unplayed=row.unplayed,
                note=row.note,
            )
            for row in rows
        ]
        values.append(apply_cuts(contributions, low, high, label))
        if all_contributions is not None:
            all_contributions.append(contributions)
    scale = table.scale * table.scale if weight_by_result else table.scale
    return RuleOutcome(spec, values, scale, all_contributions)


def buchholz(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    return opponent_score_sum(ctx, spec, weight_by_result=False)


def fore_buchholz(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """Buchholz with every game of the tournament's last round counted as a draw (8.3).

    When the standings stop before the last round, that round has not been
    played yet and Fore Buchholz equals Buchholz.
    """
    table = ctx.table
    if table.played_rounds < table.rounds:
        return buchholz(ctx, spec)
    return buchholz(ctx.for_table(table.with_last_round_drawn()), spec)


def average_of_opponents_buchholz(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """Mean of the Buchholz of the opponents met over the board, to 2 decimals (8.4)."""
    table = ctx.table
    bh = ctx.cached("plain-bh", lambda: buchholz(ctx.quiet(), RuleSpec("BH")).values)
    notes: list[str | None] = []
    values: list[int | None] = []
    all_contributions: list[list[Contribution]] | None = [] if ctx.explain else None
    for p in range(table.size):
        contributions = [
            Contribution(r + 1, "opponent_value", bh[q], bh[q], opponent=table.ids[q])
            for r, (q, kind) in enumerate(zip(table.opponents[p], table.kinds[p]))
            if kind.is_played
        ]
        total = Fraction(sum(c.value for c in contributions), table.scale)
        values.append(round_half_up(total * 100 / len(contributions)) if contributions else None)
        if all_contributions is not None:
            all_contributions.append(contributions)
            notes.append(mean_note(total, len(contributions), "mean Buchholz of the opponents, to 2 decimals"))
    return RuleOutcome(spec, values, 100, all_contributions, contribution_scale=table.scale,
                       notes=notes if ctx.explain else None)
