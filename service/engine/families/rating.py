"""Rating-based tie-breaks (C.07 10): ARO, TPR, PTP, APRO, APPO.

Only games played over the board count. Averages are rounded to a whole
number, halves up. The conversion tables are those of the FIDE Rating
Regulations (B.02 8.1): percentage score to rating difference, and rating
difference to expected score.
"""

from __future__ import annotations

from bisect import bisect_left
from fractions import Fraction

from ..context import Context
from ..contributions import Contribution, RuleOutcome
from ..model import ResultKind
from ..modifiers import apply_cuts, cut_label, cut_total
from ..rounding import mean_note, round_half_up
from ..rules import RuleSpec

# B.02 8.1(a): rating difference dp for a percentage score p = 50..100 (below 50: -dp(100-p)).
_DP_FROM_50 = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322,
    336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)

# B.02 8.1(b): upper bound of each rating-difference band and the expected score (in %)
# of the higher-rated player in it; 736 and more: 100 %.
_PD_BAND_TOP = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153,
    162, 170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344,
    357, 374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)
MAX_DIFFERENCE = 800  # C.07 10.4: larger rating differences count as 800


def rating_difference(percent: int) -> int:
    """dp for a whole percentage score 0..100."""
    return _DP_FROM_50[percent - 50] if percent >= 50 else -_DP_FROM_50[50 - percent]


def expected_percent(difference: int) -> int:
    """Expected score, in percent, of a player `difference` points above the opponent."""
    d = min(abs(difference), MAX_DIFFERENCE)
    band = bisect_left(_PD_BAND_TOP, d)
    higher = 50 + band  # band 50 (above 735) gives 100
    return higher if difference >= 0 else 100 - higher


# Performance is measured in standard points, whatever the event's scoring
# (3-1-0, an arbiter's ½-0): a won game is 1, a draw ½, a loss 0. In half points:
_STANDARD_HALVES = {ResultKind.WIN: 2, ResultKind.DRAW: 1, ResultKind.LOSS: 0}


def _played(ctx: Context, p: int) -> list[tuple[int, int, int]]:
    """(round, opponent index, standard half points) of each game played over the board."""
    return ctx.cached("played-games", lambda: _all_played(ctx))[p]


def _all_played(ctx: Context) -> list[list[tuple[int, int, int]]]:
    table = ctx.table
    return [
        [(r + 1, q, _STANDARD_HALVES[kind]) for r, (kind, q) in enumerate(zip(kinds, opps)) if kind.is_played]
        for kinds, opps in zip(table.kinds, table.opponents)
    ]


def _percent_score(games: list[tuple[int, int, int]]) -> int:
    """The standard score over the board in whole percent, halves up (C.07 10.2)."""
    return round_half_up(Fraction(100 * sum(h for _, _, h in games), 2 * len(games)))


def average_rating_of_opponents(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """ARO (10.1), with Cut or Median on the opponents' ratings (14)."""
    table, ratings = ctx.table, ctx.ratings
    notes: list[str | None] = []
    low = spec.cut or spec.median
    high = spec.median
    values: list[int | None] = []
    all_contributions: list[list[Contribution]] | None = [] if ctx.explain else None
    for p in range(table.size):
        games = _played(ctx, p)
        opponent_ratings = [ratings[q] for _, q, _ in games]
        kept = len(games) - min(len(games), low + high)
        total = cut_total(opponent_ratings, opponent_ratings, None, low, high)
        values.append(round_half_up(Fraction(total, kept)) if kept else None)
        if all_contributions is None:
            continue
        if not ctx.explains(p):
            all_contributions.append([])
            notes.append(None)
            continue
        contributions = [Contribution(rnd, "game", ratings[q], ratings[q], opponent=table.ids[q])
                         for rnd, q, _ in games]
        apply_cuts(contributions, low, high, cut_label(low, high))
        all_contributions.append(contributions)
        notes.append(mean_note(Fraction(total), kept, "mean rating of the opponents"))
    return RuleOutcome(spec, values, 1, all_contributions, notes=notes if ctx.explain else None)


def _plain_aro(ctx: Context) -> list[int | None]:
    return ctx.cached("plain-aro", lambda: average_rating_of_opponents(ctx.quiet(), RuleSpec("ARO")).values)


def _tpr_values(ctx: Context) -> list[int | None]:
    def compute() -> list[int | None]:
        table = ctx.table
        aro = _plain_aro(ctx)
        values: list[int | None] = []
        for p in range(table.size):
            games = _played(ctx, p)
            if not games:
                values.append(None)
                continue
            values.append(aro[p] + rating_difference(_percent_score(games)))  # C.07 10.2
        return values

    return ctx.cached("tpr", compute)


def _ptp_values(ctx: Context) -> list[int | None]:
    def compute() -> list[int | None]:
        table, ratings = ctx.table, ctx.ratings
        values: list[int | None] = []
        for p in range(table.size):
            games = _played(ctx, p)
            if not games:
                values.append(None)
                continue
            opp_ratings = [ratings[q] for _, q, _ in games]
            halves = sum(h for _, _, h in games)
            values.append(perfect_performance(opp_ratings, Fraction(halves, 2)))
        return values

    return ctx.cached("ptp", compute)


def perfect_performance(opp_ratings: list[int], scored: Fraction) -> int:
    """The smallest whole rating whose expected score reaches `scored` games (C.07 10.3)."""
    low, high = min(opp_ratings) - MAX_DIFFERENCE, max(opp_ratings) + MAX_DIFFERENCE
    if scored <= 0:
        return low
    target = 100 * scored  # expected scores are summed in percent

    def reaches(rating: int) -> bool:
        return sum(expected_percent(rating - r) for r in opp_ratings) >= target

    while low < high:
        mid = (low + high) // 2
        if reaches(mid):
            high = mid
        else:
            low = mid + 1
    return low


def _games_as_contributions(ctx: Context, p: int) -> list[Contribution]:
    """The games a performance is measured on: opponent's rating and the standard result."""
    table, ratings = ctx.table, ctx.ratings
    return [
        Contribution(rnd, "game", ratings[q], ratings[q], opponent=table.ids[q],
                     note=f"scored {halves / 2:g}")
        for rnd, q, halves in _played(ctx, p)
    ]


def _rating_outcome(ctx: Context, spec: RuleSpec, values: list[int | None], describe) -> RuleOutcome:
    outcome = RuleOutcome(spec, values, 1, None)
    if ctx.explain:
        players = range(ctx.table.size)
        outcome.contributions = [_games_as_contributions(ctx, p) if ctx.explains(p) else [] for p in players]
        outcome.notes = [describe(p) if values[p] is not None and ctx.explains(p) else None for p in players]
    return outcome


def tournament_performance(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    aro, values = _plain_aro(ctx), _tpr_values(ctx)

    def describe(p: int) -> str:
        games = _played(ctx, p)
        percent = _percent_score(games)
        return (f"ARO {aro[p]} + dp {rating_difference(percent)} for {percent} % "
                f"over {len(games)} game(s) (C.07 10.2)")

    return _rating_outcome(ctx, spec, values, describe)


def perfect_tournament_performance(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    values = _ptp_values(ctx)

    def describe(p: int) -> str:
        games = _played(ctx, p)
        scored = sum(h for _, _, h in games) / 2
        return (f"the lowest rating whose expected score against these opponents reaches "
                f"{scored:g} from {len(games)} game(s) (C.07 10.3)")

    return _rating_outcome(ctx, spec, values, describe)


def _average_of_opponents(ctx: Context, spec: RuleSpec, per_player: list[int | None]) -> RuleOutcome:
    table = ctx.table
    notes: list[str | None] = []
    values: list[int | None] = []
    all_contributions: list[list[Contribution]] | None = [] if ctx.explain else None
    for p in range(table.size):
        counted = [(rnd, q) for rnd, q, _ in _played(ctx, p) if per_player[q] is not None]
        total = sum(per_player[q] for _, q in counted)
        values.append(round_half_up(Fraction(total, len(counted))) if counted else None)
        if all_contributions is None:
            continue
        if not ctx.explains(p):
            all_contributions.append([])
            notes.append(None)
            continue
        all_contributions.append([Contribution(rnd, "opponent_value", per_player[q], per_player[q],
                                               opponent=table.ids[q]) for rnd, q in counted])
        notes.append(mean_note(Fraction(total), len(counted), f"mean {spec.code[1:]} of the opponents"))
    return RuleOutcome(spec, values, 1, all_contributions, notes=notes if ctx.explain else None)


def average_performance_of_opponents(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """APRO (10.5): mean of the opponents' TPR."""
    return _average_of_opponents(ctx, spec, _tpr_values(ctx))


def average_perfect_performance_of_opponents(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """APPO (10.6): mean of the opponents' PTP."""
    return _average_of_opponents(ctx, spec, _ptp_values(ctx))


def own_rating(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """RTNG (C.07 2026): the participant's own rating; unrated players count `unrated_rating`
    (the rule is dropped like the other rating rules when there is none, C.07 10)."""
    table, ratings = ctx.table, ctx.ratings
    notes = None
    if ctx.explain:
        notes = [(f"own rating {ratings[p]}" if table.ratings[p] is not None
                  else f"unrated, counted as {ratings[p]}") if ctx.explains(p) else None
                 for p in range(table.size)]
    return RuleOutcome(spec, list(ratings), 1, [[] for _ in range(table.size)] if ctx.explain else None,
                       notes=notes)
