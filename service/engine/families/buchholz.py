"""Buchholz (C.07 8.1), Fore Buchholz (8.3) and Average of Opponents' Buchholz (8.4)."""

from __future__ import annotations

from fractions import Fraction

from ..context import Context
from ..contributions import Contribution, RuleOutcome
from ..crosstable import NO_OPPONENT
from ..modifiers import cut_label, cut_total, select_cuts, with_cuts
from ..rounding import mean_note, round_half_up
from ..rules import RuleSpec
from ..unplayed import dummy_note


def opponent_score_sum(ctx: Context, spec: RuleSpec, weight_by_result: bool) -> RuleOutcome:
    """Sum of opponents' scores (Buchholz), or of score × result (Sonneborn-Berger, 9.1)."""
    table = ctx.table
    low = spec.cut or spec.median
    high = spec.median
    rounds = ctx.opponent_rounds(spec.forfeits_played)
    values: list[int | None] = []
    for p in range(table.size):
        keys = rounds.scores[p]
        # For Buchholz the value is the key itself (cut_total relies on the identity).
        contributed = [k * pts for k, pts in zip(keys, rounds.points[p])] if weight_by_result else keys
        vurs = rounds.vurs[p] if rounds.any_vur[p] else None
        values.append(cut_total(keys, contributed, vurs, low, high))
    scale = table.scale * table.scale if weight_by_result else table.scale
    outcome = RuleOutcome(spec, values, scale)
    if ctx.explain:
        base = ctx.cached(("opponent-contributions", spec.forfeits_played, weight_by_result),
                          lambda: [_contributions(ctx, rounds, p, weight_by_result) if ctx.explains(p) else []
                                   for p in range(table.size)])
        if low or high:
            label = cut_label(low, high)
            outcome.contributions = [
                with_cuts(rows, select_cuts([c.key for c in rows], [c.value for c in rows],
                                            rounds.vurs[p], low, high), label) if rows else rows
                for p, rows in enumerate(base)
            ]
        else:
            outcome.contributions = base
    return outcome


def _contributions(ctx: Context, rounds, p: int, weight_by_result: bool) -> list[Contribution]:
    """One player's rounds as contributions, before any cut; shared by the rules of a family."""
    table = ctx.table
    contributions = []
    for r, q, key, pts, vur in zip(rounds.rounds[p], rounds.opponents[p], rounds.scores[p],
                                   rounds.points[p], rounds.vurs[p]):
        kind = table.kinds[p][r]
        dummy = rounds.dummies.get((p, r))
        if dummy is not None:
            article, own, capped = dummy
            scheduled = table.ids[q] if q != NO_OPPONENT else None
            contribution = Contribution(r + 1, "dummy", key, key, vur, None, kind,
                                        dummy_note(article, own, capped, table.scale, scheduled))
        else:
            contribution = Contribution(r + 1, "game" if kind.is_played else "forfeit", key, key,
                                        opponent=table.ids[q])
        if weight_by_result:
            contribution.value = key * pts
        contributions.append(contribution)
    return contributions


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
    drawn = ctx.cached("last-round-drawn", table.with_last_round_drawn)
    return buchholz(ctx.cached(("fore", ctx.explain), lambda: ctx.for_table(drawn)), spec)


def average_of_opponents_buchholz(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """Mean of the Buchholz of the opponents met over the board, to 2 decimals (8.4)."""
    table = ctx.table
    bh = ctx.cached("plain-bh", lambda: buchholz(ctx.quiet(), RuleSpec("BH")).values)
    values: list[int | None] = []
    notes: list[str | None] = []
    all_contributions: list[list[Contribution]] | None = [] if ctx.explain else None
    for p in range(table.size):
        opponents = [(r, q) for r, (q, kind) in enumerate(zip(table.opponents[p], table.kinds[p]))
                     if kind.is_played]
        total = sum(bh[q] for _, q in opponents)
        values.append(round_half_up(Fraction(100 * total, len(opponents) * table.scale)) if opponents else None)
        if all_contributions is not None:
            explained = ctx.explains(p)
            all_contributions.append([Contribution(r + 1, "opponent_value", bh[q], bh[q], opponent=table.ids[q])
                                      for r, q in opponents] if explained else [])
            notes.append(mean_note(Fraction(total, table.scale), len(opponents),
                                   "mean Buchholz of the opponents, to 2 decimals") if explained else None)
    return RuleOutcome(spec, values, 100, all_contributions, contribution_scale=table.scale,
                       notes=notes if ctx.explain else None)
