"""Rating-based tie-breaks (C.07 10): ARO, TPR, PTP, APRO, APPO, and the 2026 RTNG.

Only games played over the board count. Averages are rounded to a whole number,
halves up, in integer arithmetic. The conversion tables are those of the FIDE
Rating Regulations (B.02 8.1): percentage score to rating difference, and rating
difference to expected score.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from ..context import Context
from ..contributions import Explain, Explanation, RuleOutcome, contribution_rows, explanation
from ..modifiers import REASON_CODES, cut_label, cut_reasons, kept_total, reason_text
from ...texts.message import ENGLISH, LANGUAGE, msg, pre
from ..ratings import SOURCE_NAMES
from ..rounding import mean_notes, round_half_up_div
from ..rules import RuleSpec
from ..table import DRAW, IS_PLAYED, NO_OPPONENT, WIN

# B.02 8.1(a): rating difference dp for a percentage score p = 50..100 (below 50: -dp(100-p)).
_DP_FROM_50 = (
    0,
    7,
    14,
    21,
    29,
    36,
    43,
    50,
    57,
    65,
    72,
    80,
    87,
    95,
    102,
    110,
    117,
    125,
    133,
    141,
    149,
    158,
    166,
    175,
    184,
    193,
    202,
    211,
    220,
    230,
    240,
    251,
    262,
    273,
    284,
    296,
    309,
    322,
    336,
    351,
    366,
    383,
    401,
    422,
    444,
    470,
    501,
    538,
    589,
    677,
    800,
)
# dp for every whole percentage 0..100
DP = np.array([-_DP_FROM_50[50 - p] if p < 50 else _DP_FROM_50[p - 50] for p in range(101)], dtype=np.int64)

# B.02 8.1(b): upper bound of each rating-difference band and the expected score (in %)
# of the higher-rated player in it; 736 and more: 100 %.
_PD_BAND_TOP = np.array(
    (
        3,
        10,
        17,
        25,
        32,
        39,
        46,
        53,
        61,
        68,
        76,
        83,
        91,
        98,
        106,
        113,
        121,
        129,
        137,
        145,
        153,
        162,
        170,
        179,
        188,
        197,
        206,
        215,
        225,
        235,
        245,
        256,
        267,
        278,
        290,
        302,
        315,
        328,
        344,
        357,
        374,
        391,
        411,
        432,
        456,
        484,
        517,
        559,
        619,
        735,
    ),
    dtype=np.int64,
)
MAX_DIFFERENCE = 800  # C.07 10.4: larger rating differences count as 800


def rating_difference(percent: int) -> int:
    """dp for a whole percentage score 0..100."""
    return int(DP[percent])


def expected_percent(difference: int | np.ndarray) -> int | np.ndarray:
    """Expected score, in percent, of a player `difference` points above the opponent.

    Works on whole arrays of differences; a plain int gives an int.
    """
    d = np.minimum(np.abs(difference), MAX_DIFFERENCE)
    higher = 50 + np.searchsorted(_PD_BAND_TOP, d, side="left")  # band 50 (above 735) gives 100
    result = np.where(np.asarray(difference) >= 0, higher, 100 - higher)
    return int(result) if result.ndim == 0 else np.asarray(result)


class Games:
    """The games a player played over the board: the columns every rating rule reads."""

    def __init__(self, ctx: Context) -> None:
        table = ctx.table
        self.table = table
        self.played = IS_PLAYED[table.kind] & (table.opp != NO_OPPONENT)
        self.count = self.played.sum(axis=1)
        self.opponent = np.where(self.played, table.opp, 0)
        if ctx.round_ratings is None:
            self.opponent_rating = np.where(self.played, ctx.ratings[self.opponent], 0)
        else:  # the opponent's rating in force in the round of the game (ratings.per_round)
            in_round = ctx.round_ratings[self.opponent, np.arange(table.played_rounds)]
            self.opponent_rating = np.where(self.played, in_round, 0)
        self.sources = _opponent_sources(ctx, self.opponent)
        self._halves: np.ndarray | None = None
        self._scored: np.ndarray | None = None

    @property
    def halves(self) -> np.ndarray:
        """Performance is measured in standard points, whatever the event's scoring (3-1-0, an
        arbiter's ½-0): a won game is 1, a draw ½, a loss 0. In half points (only the
        performance rules need it)."""
        if self._halves is None:
            kind = self.table.kind
            self._halves = np.where(self.played, np.where(kind == WIN, 2, np.where(kind == DRAW, 1, 0)), 0)
        return self._halves

    @property
    def scored_halves(self) -> np.ndarray:
        if self._scored is None:
            self._scored = self.halves.sum(axis=1)
        return self._scored


def _opponent_sources(ctx: Context, opponent: np.ndarray) -> np.ndarray | None:
    """Per game, the name of the source of the opponent's rating counted (`rating_source` in the
    breakdown); None when every rating is the FIDE rating as given."""
    sources = ctx.rating_sources
    if sources is None:
        return None
    column = np.arange(opponent.shape[1]) if sources.shape[1] > 1 else np.zeros(opponent.shape[1], dtype=np.int64)
    named: np.ndarray = SOURCE_NAMES[sources[opponent, column]]
    return named


def _games(ctx: Context) -> Games:
    return ctx.cached("games", lambda: Games(ctx))


def _mean(spec: RuleSpec, total: np.ndarray, count: np.ndarray, explain: Explain) -> RuleOutcome:
    """The outcome of a whole-number mean, halves up; no value where the count is 0."""
    return RuleOutcome.of(spec, round_half_up_div(total, np.maximum(count, 1)), 1, missing=count == 0, explain=explain)


def percent_scores(games: Games) -> np.ndarray:
    """The standard score over the board in whole percent, halves up (C.07 10.2)."""
    return round_half_up_div(100 * games.scored_halves, 2 * np.maximum(games.count, 1))


def average_rating_of_opponents(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """ARO (10.1), with Cut or Median on the opponents' ratings (14)."""
    games = _games(ctx)
    low = spec.cut or spec.median
    high = spec.median
    ratings = games.opponent_rating
    reasons = cut_reasons(ratings, ratings, None, games.played, low, high)
    total = kept_total(ratings, games.played, reasons)
    kept = games.count - np.minimum(games.count, low + high)
    uncut = kept_total(ratings, games.played, None) if reasons is not None else None
    label = cut_label(low, high)
    texts = {code: reason_text(code, label) for code in REASON_CODES}

    def explain(rows: list[int]) -> Explanation:
        at = np.asarray(rows, dtype=np.intp)  # one conversion for the takes below
        fields = {"kind": "game", "opponent": ctx.opponent_ids()[at], "value": ratings[at] / 1}
        if games.sources is not None:
            fields["rating_source"] = games.sources[at]
        made = contribution_rows(
            ctx.contribution, games.played[at], fields, None if reasons is None else reasons[at], texts
        )
        return explanation(
            rows,
            made,
            mean_notes(total[at], 1, kept[at], msg("mean rating of the opponents")),
            None if uncut is None else (uncut[at] / 1).tolist(),
        )

    return _mean(spec, total, kept, explain)


def _plain_aro(ctx: Context) -> np.ndarray:
    """ARO without cuts for everyone (0 where there is no game)."""

    def compute() -> np.ndarray:
        games = _games(ctx)
        return round_half_up_div(games.opponent_rating.sum(axis=1), np.maximum(games.count, 1))

    return ctx.cached("plain-aro", compute)


def _tpr_values(ctx: Context) -> np.ndarray:
    """TPR for everyone (10.2): ARO + dp for the percentage scored; meaningless where no game."""
    return ctx.cached("tpr", lambda: _plain_aro(ctx) + DP[percent_scores(_games(ctx))])


def _ptp_values(ctx: Context) -> np.ndarray:
    """PTP for everyone (10.3), by bisection run on all players at once."""

    def compute() -> np.ndarray:
        games = _games(ctx)
        return perfect_performances(games.played, games.opponent_rating, games.scored_halves)

    return ctx.cached("ptp", compute)


def perfect_performances(played: np.ndarray, ratings: np.ndarray, scored_halves: np.ndarray) -> np.ndarray:
    """Per row, the smallest whole rating whose expected score reaches the score made (C.07 10.3).

    `played` marks the games over the board, `ratings` the opponents' ratings in them, and
    `scored_halves` the standard score in half points. Expected scores are summed in percent,
    with differences over 800 counted as 800; with 0 points it is the lowest opponent
    rating − 800. Rows without a game get 0 (they have no value).
    """
    has = played.any(axis=1)
    low = np.where(played, ratings, np.iinfo(np.int64).max).min(axis=1) - MAX_DIFFERENCE
    high = np.where(played, ratings, np.iinfo(np.int64).min).max(axis=1) + MAX_DIFFERENCE
    target = 50 * scored_halves  # 100 × score, in percent
    low = np.where(has, low, 0)
    high = np.where(has & (target > 0), high, low)
    while True:
        searching = low < high
        if not searching.any():
            return low
        mid = (low + high) // 2
        expected = np.where(played, expected_percent(mid[:, None] - ratings), 0).sum(axis=1)
        reaches = expected >= target
        high = np.where(searching & reaches, mid, high)
        low = np.where(searching & ~reaches, mid + 1, low)


def perfect_performance(opp_ratings: list[int], scored: Fraction) -> int:
    """PTP of one player: the opponents' ratings and the score made against them."""
    row = np.array([opp_ratings], dtype=np.int64)
    return int(perfect_performances(np.ones(row.shape, dtype=bool), row, np.array([int(2 * scored)]))[0])


# The standard result of a game, in half points, as a breakdown shows it.
_SCORED = np.empty(3, dtype=object)
_SCORED[:] = [msg("scored {points}", points=h / 2) for h in range(3)]
_SCORED_ENGLISH = np.array([str.__str__(text) for text in _SCORED], dtype=object)  # one per game: no hook each


def _games_as_contributions(ctx: Context, rows: list[int]) -> list[list[Any]]:
    """The games a performance is measured on: opponent's rating and the standard result."""
    games = _games(ctx)
    halves = games.halves[rows]
    fields = {
        "kind": "game",
        "opponent": ctx.opponent_ids()[rows],
        "value": games.opponent_rating[rows] / 1,
        "note": (_SCORED_ENGLISH if LANGUAGE.get() == ENGLISH else _SCORED)[halves],
        "result": halves / 2,
    }
    if games.sources is not None:
        fields["rating_source"] = games.sources[rows]
    return contribution_rows(ctx.contribution, games.played[rows], fields)


def _ptp_english(halves: int, games: int) -> str:
    return (
        f"the lowest rating whose expected score against these opponents reaches {halves / 2:g} "
        f"from {games} game(s) (C.07 10.3)"
    )


def _rating_outcome(
    ctx: Context, spec: RuleSpec, column: np.ndarray, describe: Callable[[list[int]], list[str]]
) -> RuleOutcome:
    """A performance: no value for a player without a game over the board."""
    games = _games(ctx)

    def explain(rows: list[int]) -> Explanation:
        notes = [
            None if not count else note for count, note in zip(games.count[rows].tolist(), describe(rows), strict=True)
        ]
        return explanation(rows, _games_as_contributions(ctx, rows), notes)

    return RuleOutcome.of(spec, column, 1, missing=games.count == 0, explain=explain)


def tournament_performance(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    games = _games(ctx)
    aro, percent = _plain_aro(ctx), percent_scores(games)

    def describe(rows: list[int]) -> list[str]:
        return [
            f"ARO {a} + dp {d} for {p} % over {n} game(s) (C.07 10.2)"
            for a, d, p, n in zip(
                aro[rows].tolist(),
                DP[percent[rows]].tolist(),
                percent[rows].tolist(),
                games.count[rows].tolist(),
                strict=True,
            )
        ]

    return _rating_outcome(ctx, spec, _tpr_values(ctx), describe)


def perfect_tournament_performance(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    games = _games(ctx)

    def describe(rows: list[int]) -> list[str]:
        return [
            pre(
                _ptp_english(h, n),
                "the lowest rating whose expected score against these opponents reaches {points} from {n} "
                "game(s) (C.07 10.3)",
                points=h / 2,
                n=n,
            )
            for h, n in zip(games.scored_halves[rows].tolist(), games.count[rows].tolist(), strict=True)
        ]

    return _rating_outcome(ctx, spec, _ptp_values(ctx), describe)


def _average_of_opponents(ctx: Context, spec: RuleSpec, per_player: np.ndarray) -> RuleOutcome:
    """The mean of a per-player value over the opponents met over the board who have one."""
    games = _games(ctx)
    has_value = games.count > 0
    counted = games.played & has_value[games.opponent]
    count = counted.sum(axis=1)
    total = np.where(counted, per_player[games.opponent], 0).sum(axis=1)
    what = msg("mean {rule} of the opponents", rule=spec.code[1:])

    def explain(rows: list[int]) -> Explanation:
        fields = {
            "kind": "opponent_value",
            "opponent": ctx.opponent_ids()[rows],
            "value": per_player[games.opponent[rows]] / 1,
        }
        return explanation(
            rows,
            contribution_rows(ctx.contribution, counted[rows], fields),
            mean_notes(total[rows], 1, count[rows], what),
        )

    return _mean(spec, total, count, explain)


def average_performance_of_opponents(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """APRO (10.5): mean of the opponents' TPR."""
    return _average_of_opponents(ctx, spec, _tpr_values(ctx))


def average_perfect_performance_of_opponents(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """APPO (10.6): mean of the opponents' PTP."""
    return _average_of_opponents(ctx, spec, _ptp_values(ctx))


def own_rating(ctx: Context, spec: RuleSpec) -> RuleOutcome:
    """RTNG (C.07 2026): the participant's own rating at the start, from the policy's source;
    unrated players count as the policy says (the rule is dropped like the other rating rules
    when it says nothing, C.07 10)."""
    table, ratings = ctx.table, ctx.ratings
    sources = ctx.rating_sources

    def explain(rows: list[int]) -> Explanation:
        notes: list[str | None] = []
        for p, r in zip(rows, ratings[rows].tolist(), strict=True):
            source = SOURCE_NAMES[sources[p, 0]] if sources is not None else "fide"
            if source == "fide" and table.ratings[p] is not None:
                notes.append(msg("own rating {rating}", rating=r))
            elif source in ("fide", "unrated"):
                notes.append(msg("unrated, counted as {rating}", rating=r))
            else:
                notes.append(msg("own rating {rating} ({source})", rating=r, source=source))
        return explanation(rows, notes=notes)

    return RuleOutcome.of(spec, ratings, 1, explain=explain)
