"""Every outcome of the games still to be played, ranked by the same engine as the standings,
and what each player needs for a place (SPEC 3.11; the proofs are in docs/scenarios.md).

An outcome gives each open game one of three results (0 white wins, 1 draw, 2 black wins).
Points decide most places without a tie-break: with `ahead` players on more points and `tied`
others on as many, a player's shared rank lies in [ahead + 1, ahead + tied + 1]. Only the
outcomes where that range leaves a question open are ranked in full, many at once: the table
is repeated once per outcome as blocks of rows that never meet (`stacked`), and one ranking
pass, whose first key is the block, ranks every block as the standings rank the event.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any
from dataclasses import dataclass, replace

import numpy as np

from .context import Context
from .contributions import RuleOutcome
from .model import Regulations
from .ranking import rank
from .rules import RuleSpec
from .table import DRAW, LOSS, NO_OPPONENT, WIN, Table

RESULTS = ("white", "draw", "black")  # the values of one open game, in this order
ALL_RESULTS = frozenset(range(3))
CHUNK_CELLS = 400_000  # rows × rounds of one stacked ranking pass: bounded memory per pass


@dataclass(frozen=True, slots=True)
class OpenGame:
    """A game still to be played: table indices of both players and the round (0-based)."""

    white: int
    black: int
    round: int


def outcome_codes(games: int) -> np.ndarray:
    """Every outcome as a row of results (0, 1, 2), the first game most significant: row i is
    i written in base 3, so that the rows reshape into a (3,) * games array."""
    return results_by_game(games).T.copy()


def results_by_game(games: int) -> np.ndarray:
    """`outcome_codes` turned over: (games, outcomes), each game's results side by side."""
    if not games:
        return np.zeros((0, 1), dtype=np.int8)
    return np.indices((3,) * games, dtype=np.int8).reshape(games, -1)


def _points_of(table: Table) -> np.ndarray:
    """The points of a win, a draw and a loss for white (index = result code), then for black."""
    loss = loss_points(table)
    return np.array([[table.win, table.draw, loss], [loss, table.draw, table.win]], dtype=np.int64)


def loss_points(table: Table) -> int:
    losses = table.kind == LOSS
    return int(table.pts[losses][0]) if losses.any() else 0


def final_scores(table: Table, games: list[OpenGame], codes: np.ndarray, loss: int | None = None) -> np.ndarray:
    """(outcomes, players): every player's points after each outcome, in units of 1/scale."""
    points = _points_of(table)
    if loss is not None:
        points[0, 2] = points[1, 0] = loss
    before = table.score.copy()  # without whatever the table holds in the open games' cells
    for game in games:
        before[game.white] -= table.pts[game.white, game.round]
        before[game.black] -= table.pts[game.black, game.round]
    scores = np.broadcast_to(before, (len(codes), table.size)).copy()
    for g, game in enumerate(games):
        scores[:, game.white] += points[0][codes[:, g]]
        scores[:, game.black] += points[1][codes[:, g]]
    return scores


def stacked(table: Table, games: list[OpenGame], codes: np.ndarray, loss: int) -> Table:
    """The table repeated once per outcome, each block with its open games' results filled in.
    Opponents point inside their own block, so no value of one block reads another's."""
    blocks, n = len(codes), table.size
    offset = (np.arange(blocks, dtype=np.int64) * n)[:, None, None]
    opp = np.broadcast_to(table.opp, (blocks, *table.opp.shape))
    opp = np.where(opp == NO_OPPONENT, NO_OPPONENT, opp + offset)
    kind = np.broadcast_to(table.kind, (blocks, *table.kind.shape)).copy()
    pts = np.broadcast_to(table.pts, (blocks, *table.pts.shape)).copy()
    white_kind = np.array([WIN, DRAW, LOSS], dtype=np.int8)
    white_pts = np.array([table.win, table.draw, loss], dtype=np.int64)
    for g, game in enumerate(games):
        result = codes[:, g]
        kind[:, game.white, game.round] = white_kind[result]
        kind[:, game.black, game.round] = white_kind[2 - result]
        pts[:, game.white, game.round] = white_pts[result]
        pts[:, game.black, game.round] = white_pts[2 - result]
    rows = blocks * n
    kind, pts = kind.reshape(rows, -1), pts.reshape(rows, -1)
    score = pts.sum(axis=1)
    return replace(
        table,
        ids=table.ids * blocks,  # the event's own numbers: the block key keeps the blocks apart
        names=table.names * blocks,
        ratings=table.ratings * blocks,
        opp=np.ascontiguousarray(opp.reshape(rows, -1)),
        kind=np.ascontiguousarray(kind),
        color=np.ascontiguousarray(np.tile(table.color, (blocks, 1))),
        pts=np.ascontiguousarray(pts),
        score=score,
        scores=score.tolist(),
    )


def blocks_per_pass(table: Table) -> int:
    """How many outcomes one stacked ranking pass holds (`CHUNK_CELLS` rows × rounds)."""
    return max(1, CHUNK_CELLS // max(1, table.size * max(1, table.played_rounds)))


def rank_stacked(
    table: Table,
    games: list[OpenGame],
    codes: np.ndarray,
    specs: list[RuleSpec],
    regulations: Regulations,
    ratings: np.ndarray,
    dropped: Mapping[RuleSpec, str | None],
    manual: Mapping[int, Any] | None = None,
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray], list[RuleOutcome]]:
    """`ranking.rank` over the outcomes `codes`, each a block of one stacked table; `manual`: MAN's
    values by start number (the blocks keep the event's numbers, so they hold in every block)."""
    big = stacked(table, games, codes, loss_points(table))
    ctx = Context(big, regulations, np.tile(ratings, len(codes)), manual_values=manual)
    block = np.repeat(np.arange(len(codes), dtype=np.int64), table.size)
    return rank(ctx, specs, dropped, within=block)


def ranks_of_blocks(
    table: Table,
    games: list[OpenGame],
    codes: np.ndarray,
    specs: list[RuleSpec],
    regulations: Regulations,
    ratings: np.ndarray,
    dropped: Mapping[RuleSpec, str | None],
    manual: Mapping[int, Any] | None = None,
) -> np.ndarray:
    """(outcomes, players): each player's shared rank in each outcome, as the standings rank it."""
    n = table.size
    order, starts, _, _ = rank_stacked(table, games, codes, specs, regulations, ratings, dropped, manual)
    position = np.arange(len(order))
    group_start = np.maximum.accumulate(np.where(starts, position, 0))
    ranks = np.empty(len(order), dtype=np.int32)
    ranks[order] = group_start - (position // n) * n + 1  # each block fills n positions, in block order
    return ranks.reshape(len(codes), n)


def bounds_by_points(table: Table, games: list[OpenGame], reported: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Per outcome (in `outcome_codes` order) and reported player (table index), the range of ranks
    points alone leave: `ahead` players on more points and `tied` others on as many give
    [ahead + 1, ahead + tied + 1], since the rules only order players equal on points."""
    codes = outcome_codes(len(games))
    loss = loss_points(table)
    low = np.empty((len(codes), len(reported)), dtype=np.int16 if table.size < 2**15 - 1 else np.int32)
    high = np.empty_like(low)
    step = max(1, CHUNK_CELLS // max(1, table.size))
    for start in range(0, len(codes), step):
        scores = final_scores(table, games, codes[start : start + step], loss)
        top = int(scores.max(initial=0)) - min(0, int(scores.min(initial=0))) + 2
        shifted = scores - min(0, int(scores.min(initial=0)))
        rows = len(scores)
        count = np.bincount((np.arange(rows)[:, None] * top + shifted).ravel(), minlength=rows * top)
        count = count.reshape(rows, top)
        at_least = np.cumsum(count[:, ::-1], axis=1)[:, ::-1]  # at_least[s]: players on s or more
        own = shifted[:, reported]
        ahead = np.take_along_axis(at_least, own + 1, axis=1)
        tied = np.take_along_axis(count, own, axis=1) - 1
        low[start : start + step] = ahead + 1
        high[start : start + step] = ahead + tied + 1
    return low, high


def open_places(low: np.ndarray, high: np.ndarray, places: int) -> np.ndarray:
    """The outcomes to rank in full for the places: those where, for a reported player, points
    leave a range (low < high) that starts within `places`. Elsewhere the range answers every
    place up to `places` alone: all of it past them, or a single rank (docs/scenarios.md)."""
    if not len(low):
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(((low < high) & (low <= places)).any(axis=1))


def open_outcomes(low: np.ndarray, high: np.ndarray, places: int) -> int:
    """How many outcomes can need ranking in full at most: those of `open_places`, and those where
    a reported player's range could hold a better rank than the least `high` or a worse one than
    the greatest `low` (what `Ranker.extremes` may look at; it ranks no other)."""
    if not len(low):
        return 0
    best_bound, worst_bound = high.min(axis=0), low.max(axis=0)
    question = (low < high) & ((low <= places) | (low < best_bound) | (high > worst_bound))
    return int(question.any(axis=1).sum())


EXTREMES_BATCH = 256  # outcomes ranked at a time while the best and worst ranks are looked for


class Ranker:
    """Ranks chosen outcomes in full, a bounded number at a time, writing the reported players'
    exact ranks into `low` and `high` (both, so that low == high marks a rank known exactly)."""

    def __init__(
        self,
        table: Table,
        games: list[OpenGame],
        specs: list[RuleSpec],
        regulations: Regulations,
        ratings: np.ndarray,
        dropped: Mapping[RuleSpec, str | None],
        reported: list[int],
        low: np.ndarray,
        high: np.ndarray,
        between: Callable[[], None] = lambda: None,
        manual: Mapping[int, Any] | None = None,
    ) -> None:
        self.table, self.games, self.specs, self.regulations = table, games, specs, regulations
        self.manual = manual
        self.ratings, self.dropped, self.reported = ratings, dropped, reported
        self.low, self.high, self.between = low, high, between
        self.codes = outcome_codes(len(games))
        self.ranked = np.zeros(len(self.codes), dtype=bool)
        self.step = blocks_per_pass(table)

    def rank(self, wanted: np.ndarray) -> None:
        wanted = wanted[~self.ranked[wanted]]
        for start in range(0, len(wanted), self.step):
            chosen = wanted[start : start + self.step]
            exact = ranks_of_blocks(
                self.table,
                self.games,
                self.codes[chosen],
                self.specs,
                self.regulations,
                self.ratings,
                self.dropped,
                self.manual,
            )[:, self.reported]
            self.low[chosen] = exact
            self.high[chosen] = exact
            self.ranked[chosen] = True
            self.between()

    def extremes(self) -> None:
        """Make each reported player's least `low` and greatest `high` their best and worst ranks.
        Best: the least `high` is a rank some outcome reaches or beats, so only an outcome whose
        `low` is below it can do better; those are ranked, lowest `low` first, until none is left
        below the least `high`. Worst: the same, mirrored."""
        for column in range(self.low.shape[1]):
            for sign in (1, -1):  # 1: the best rank, -1: the worst
                self._search(column, sign)

    def _search(self, column: int, sign: int) -> None:
        """Rank, least `near` first, the outcomes whose `near` is below the least `far` (both signed so
        that less is better), the bound tightening as ranked outcomes give their exact rank. Sorted
        once: an outcome's `near` only changes when it is ranked, and then it leaves the search."""
        near_of, far_of = (self.low, self.high) if sign == 1 else (self.high, self.low)
        near, far = sign * near_of[:, column], sign * far_of[:, column]
        bound = int(far.min())
        candidates = np.flatnonzero((near != far) & (near < bound))
        candidates = candidates[np.argsort(near[candidates], kind="stable")]
        signed = near[candidates]
        start = 0
        while True:
            stop = min(int(np.searchsorted(signed, bound, side="left")), start + 64 * EXTREMES_BATCH)
            if start >= stop:
                return
            fresh = start + np.flatnonzero(~self.ranked[candidates[start:stop]])[:EXTREMES_BATCH]
            if len(fresh):
                chosen = candidates[fresh]
                self.rank(chosen)
                bound = min(bound, int((sign * far_of[chosen, column]).min()))
                start = int(fresh[-1]) + 1
            else:
                start = stop


# ---- needs: the winning outcomes as a minimal disjunction of conjunctions ----

Term = dict[int, frozenset[int]]  # game index -> the results allowed; a game not named: any result


def minimal_cover(winning: np.ndarray) -> list[Term]:
    """A minimal disjunction of conjunctions whose outcomes are exactly `winning` (a boolean
    (3,) * games array): each term is prime (no condition can be widened or dropped without
    taking in a losing outcome) and none can be dropped (the others miss one of its outcomes).
    Games on which `winning` does not depend appear in no term."""
    games = winning.ndim
    if not winning.any():
        return []
    if winning.all():
        return [{}]
    relevant = [g for g in range(games) if _depends_on(winning, g)]
    reduced = winning[tuple(slice(None) if g in relevant else 0 for g in range(games))]
    terms = list(_seeds(reduced))
    terms = _irredundant(reduced, terms)
    return [
        {relevant[axis]: frozenset(values) for axis, values in enumerate(term) if len(values) < 3}
        for term in sorted(terms, key=_reading_order)
    ]


def _depends_on(winning: np.ndarray, game: int) -> bool:
    first = np.take(winning, 0, axis=game)
    return any(not np.array_equal(first, np.take(winning, r, axis=game)) for r in (1, 2))


# Every set of results of one game as a slice of its axis, so that a cube is a view, not a copy.
_SLICE = {
    frozenset({0}): slice(0, 1),
    frozenset({1}): slice(1, 2),
    frozenset({2}): slice(2, 3),
    frozenset({0, 1}): slice(0, 2),
    frozenset({1, 2}): slice(1, 3),
    frozenset({0, 2}): slice(0, 3, 2),
    ALL_RESULTS: slice(0, 3),
}


def _view(cube: list[frozenset[int]]) -> tuple[slice, ...]:
    return tuple(_SLICE[values] for values in cube)


def _inside(winning: np.ndarray, cube: list[frozenset[int]]) -> bool:
    return bool(winning[_view(cube)].all())


def _seeds(winning: np.ndarray) -> Iterator[list[frozenset[int]]]:
    """Each time, the first winning outcome no term so far covers, made into a prime term."""
    left = winning.copy()
    while left.any():
        point = np.unravel_index(int(np.argmax(left)), winning.shape)
        cube = _expanded(winning, [frozenset({int(r)}) for r in point])
        left[_view(cube)] = False
        yield cube


def _expanded(winning: np.ndarray, cube: list[frozenset[int]]) -> list[frozenset[int]]:
    """The cube widened while it stays inside `winning`: first whole games dropped, then single
    results added. A cube that no single widening keeps inside is prime: any larger implicant
    contains one single widening, which would then be inside too."""
    cube = list(cube)
    for axis in range(len(cube)):
        trial = [*cube[:axis], ALL_RESULTS, *cube[axis + 1 :]]
        if _inside(winning, trial):
            cube = trial
    for axis, result in itertools.product(range(len(cube)), range(3)):
        if result not in cube[axis]:
            trial = [*cube[:axis], cube[axis] | {result}, *cube[axis + 1 :]]
            if _inside(winning, trial):
                cube = trial
    return cube


def _irredundant(winning: np.ndarray, terms: list[list[frozenset[int]]]) -> list[list[frozenset[int]]]:
    """Drop terms that the others cover, smallest first so that broad terms stay: a term is
    covered by the others when each of its outcomes is covered at least twice."""
    kept = sorted({tuple(t): t for t in terms}.values(), key=_size, reverse=True)
    times_covered = np.zeros(winning.shape, dtype=np.int32)
    for term in kept:
        times_covered[_view(term)] += 1
    for term in sorted(kept, key=_size):
        if times_covered[_view(term)].min() >= 2:
            times_covered[_view(term)] -= 1
            kept = [t for t in kept if t is not term]
    return kept


def _size(term: list[frozenset[int]]) -> int:
    return int(np.prod([len(v) for v in term]))


def _reading_order(term: list[frozenset[int]]) -> tuple[int, list[tuple[int, tuple[int, ...]]]]:
    """Fewest conditions first, then by game and results."""
    named = [(axis, tuple(sorted(v))) for axis, v in enumerate(term) if len(v) < 3]
    return (len(named), named)


def covers(terms: list[Term], codes: np.ndarray) -> np.ndarray:
    """Which outcomes (rows of result codes) satisfy the disjunction."""
    out = np.zeros(len(codes), dtype=bool)
    for term in terms:
        ok = np.ones(len(codes), dtype=bool)
        for game, values in term.items():
            ok &= np.isin(codes[:, game], sorted(values))
        out |= ok
    return out


def reached(low: np.ndarray, column: int, place: int, games: int) -> np.ndarray:
    """The outcomes (as a (3,) * games array) in which the reported player `column` reaches `place`."""
    return (low[:, column] <= place).reshape((3,) * games)


def results_named(values: Collection[int]) -> list[str]:
    return [RESULTS[v] for v in sorted(values)]
