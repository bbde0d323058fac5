"""Every outcome's ranks from each player's rule values, each value computed once per result of
the few open games it can depend on (docs/scenarios.md, "Ranks by parts"; decision 0147).

A rule's value for a player reads only rows near that player in the graph of who played whom:
their own row (points, byes, colours), their opponents' rows (Buchholz, Sonneborn-Berger), their
opponents' opponents' (the average of the opponents' Buchholz). `READS` says how far each rule
reads. A row's contents change with an outcome only through that row's own open games, so a
player's values depend only on the open games of the rows within that distance: often 3 to 8 of
the 12 open, so 3**8 values stand for 3**12 outcomes. Those values come from the engine, ranking
whole outcomes (`ranks_of_blocks`' blocks), each outcome chosen so that it shows one player a
combination of their games not seen yet (`covering_outcomes`). An outcome's ranks then follow
from points and values alone: a player's shared rank is one more than the players with more
points, or as many and better values, which is what the standings' sort gives. A rule computed
inside the tie groups (direct encounter) reads whoever is tied, so a list with one is ranked whole
(engine/scenarios.py, `Ranker`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from .model import Regulations
from .rules import RuleSpec
from .scenarios import CHUNK_CELLS, OpenGame, blocks_per_pass, final_scores, loss_points, outcome_codes, rank_stacked
from .table import NO_OPPONENT, Table

# How far in the graph of opponents a rule's value reads results: 0 the player's own row, 1 their
# opponents' too, 2 their opponents' opponents'. Read off each rule's code in engine/families; a
# rule not listed (direct encounter, the drawing of lots) is ranked whole. Over-stating is safe.
READS = {
    **dict.fromkeys(("PTS", "WIN", "WON", "BPG", "BWG", "GE", "STD", "PS", "RTNG", "TPN"), 0),
    **dict.fromkeys(("CUM", "BLK", "KASH"), 0),
    **dict.fromkeys(("BH", "FB", "SB", "KS", "ARO", "TPR", "PTP"), 1),
    **dict.fromkeys(("MM", "MED", "SOLK", "SBUS", "OCUM", "AROUS"), 1),
    **dict.fromkeys(("AOB", "APRO", "APPO", "OPERF"), 2),
}


def reach_of(specs: list[RuleSpec]) -> int | None:
    """How far the rule list reads, or None when some rule must see whole outcomes."""
    reads = [READS.get(spec.code) for spec in specs]
    if any(r is None for r in reads):
        return None
    return max((r for r in reads if r is not None), default=0)


def games_read(table: Table, games: list[OpenGame], player: int, reach: int) -> list[int]:
    """The open games of the rows within `reach` opponents of `player` (open games included)."""
    game_of: dict[int, list[int]] = {}
    for g, game in enumerate(games):
        game_of.setdefault(game.white, []).append(g)
        game_of.setdefault(game.black, []).append(g)
    near, frontier = {player}, {player}
    for _ in range(reach):
        frontier = {int(o) for p in frontier for o in table.opp[p] if o != NO_OPPONENT} - near
        near |= frontier
    return sorted({g for p in near for g in game_of.get(p, [])})


def covering_outcomes(read: Mapping[int, list[int]], games: int) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """Outcomes (rows of result codes) in which every player sees every combination of the games
    they read, and per player, for each combination (in `outcome_codes` order over their games),
    an outcome showing it. The players reading most go first; each adds outcomes only for the
    combinations the earlier outcomes do not show, its other games drawn at random (a fixed seed)
    so that the outcomes added show later players many of their combinations too."""
    chosen = np.zeros((0, games), dtype=np.int8)
    shown: dict[int, np.ndarray] = {}
    fill = np.random.default_rng(0)
    for player in sorted(read, key=lambda p: (-len(read[p]), p)):
        own = read[player]
        combination = _combination(chosen, own)
        where = np.full(3 ** len(own), -1, dtype=np.int64)
        seen, first = np.unique(combination, return_index=True)
        where[seen] = first
        missing = np.flatnonzero(where < 0)
        if len(missing):
            added = fill.integers(0, 3, size=(len(missing), games), dtype=np.int8)
            added[:, own] = outcome_codes(len(own))[missing]
            where[missing] = len(chosen) + np.arange(len(missing))
            chosen = np.concatenate([chosen, added])
        shown[player] = where
    return chosen, shown


def _combination(codes: np.ndarray, own: list[int]) -> np.ndarray:
    """Per outcome, the index of its results in the games `own` (the first most significant)."""
    weights = 3 ** np.arange(len(own) - 1, -1, -1, dtype=np.int64)
    return codes[:, own].astype(np.int64) @ weights if own else np.zeros(len(codes), dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Parts:
    """What `ranks_by_parts` computes from: the open games that can change a reported player's
    rank (`kept`, indices of the open games; the others stay drawn), the players whose values
    count, the kept games each reads (indices into `kept`), the outcomes of the kept games the
    engine ranks for them and, per player, the one showing each combination of their games."""

    kept: list[int]
    valued: list[int]
    read: dict[int, list[int]]
    chosen: np.ndarray
    shown: dict[int, np.ndarray]


def parts_of(table: Table, games: list[OpenGame], reported: list[int], reach: int) -> Parts:
    low, high = _score_ranges(table, games)
    # only a player who can be equal on points with a reported one needs their values; any other
    # is ahead of that reported player in every outcome, or behind in every one
    valued = [j for j in range(table.size) if any(low[j] <= high[i] and low[i] <= high[j] for i in reported)]
    read = {j: games_read(table, games, j, reach) for j in valued}
    # a game between two players without values that no value reads changes no reported rank
    # (docs/scenarios.md, "Games set aside")
    counted = set(valued)
    needed = {g for own in read.values() for g in own}
    kept = [g for g, game in enumerate(games) if game.white in counted or game.black in counted or g in needed]
    position = {g: k for k, g in enumerate(kept)}
    read = {j: [position[g] for g in own] for j, own in read.items()}
    chosen, shown = covering_outcomes(read, len(kept))
    return Parts(kept, valued, read, chosen, shown)


def ranks_by_parts(
    table: Table,
    games: list[OpenGame],
    parts: Parts,
    specs: list[RuleSpec],
    regulations: Regulations,
    ratings: np.ndarray,
    dropped: Mapping[RuleSpec, str | None],
    reported: list[int],
    ranks: np.ndarray,
    between: Callable[[], None] = lambda: None,
) -> int:
    """Write into `ranks` (outcomes, reported) each reported player's shared rank in every outcome,
    as the standings rank it; return in how many outcomes a reported player is equal on points
    with another (those the rules decide)."""
    n = table.size
    all_games, games = games, [games[g] for g in parts.kept]
    values = _values(table, games, parts.chosen, specs, regulations, ratings, dropped, between)
    # one number per distinct list of values, larger is better (sort keys: smaller is better)
    listed = [values[parts.shown[j], j] for j in parts.valued]
    pairs = np.concatenate(listed) if listed else np.zeros((0, len(specs)), dtype=np.int64)
    distinct, dense = np.unique(pairs, axis=0, return_inverse=True)
    better = len(distinct) - 1 - dense.reshape(-1)
    value_of, start = {}, 0
    for j in parts.valued:
        value_of[j] = better[start : start + len(parts.shown[j])]
        start += len(parts.shown[j])
    span = max(1, len(distinct))
    codes = outcome_codes(len(games))
    step = max(1, CHUNK_CELLS // max(1, n))
    decided = 0
    every, ranks = ranks, np.empty((len(codes), len(reported)), dtype=ranks.dtype)
    for first in range(0, len(codes), step):
        part = codes[first : first + step]
        key = final_scores(table, games, part) * span
        for j in parts.valued:
            key[:, j] += value_of[j][_combination(part, parts.read[j])]
        if int(key.max(initial=0)) < 2**31 and int(key.min(initial=0)) >= 0:
            key = key.astype(np.int32)  # sorts faster
        shared, tied = _shared_ranks(key, span, None if len(reported) == n else reported)
        ranks[first : first + step] = shared[:, reported]
        decided += int(tied.sum())
        between()
    # the games set aside: the same ranks whatever their results
    shape = [3 if g in parts.kept else 1 for g in range(len(all_games))]
    full = np.broadcast_to(ranks.reshape((*shape, len(reported))), (3,) * len(all_games) + (len(reported),))
    every[...] = full.reshape(every.shape)
    return decided * int(3 ** (len(all_games) - len(games)))


def _score_ranges(table: Table, games: list[OpenGame]) -> tuple[np.ndarray, np.ndarray]:
    """Each player's least and greatest points over all outcomes."""
    results = (table.win, table.draw, loss_points(table))
    low, high = table.score.copy(), table.score.copy()
    for game in games:
        for player in (game.white, game.black):
            low[player] += min(results) - int(table.pts[player, game.round])
            high[player] += max(results) - int(table.pts[player, game.round])
    return low, high


def _values(
    table: Table,
    games: list[OpenGame],
    chosen: np.ndarray,
    specs: list[RuleSpec],
    regulations: Regulations,
    ratings: np.ndarray,
    dropped: Mapping[RuleSpec, str | None],
    between: Callable[[], None],
) -> np.ndarray:
    """(outcomes chosen, players, rules): every player's sort keys in each chosen outcome."""
    n = table.size
    out = np.zeros((len(chosen), n, len(specs)), dtype=np.int64)
    step = blocks_per_pass(table)
    for first in range(0, len(chosen), step):
        part = chosen[first : first + step]
        _, _, keys, _ = rank_stacked(table, games, part, specs, regulations, ratings, dropped)
        for r, key in enumerate(keys[1:]):  # keys[0] is points
            out[first : first + step, :, r] = key.reshape(len(part), n)
        between()
    return out


def _shared_ranks(key: np.ndarray, span: int, reported: list[int] | None) -> tuple[np.ndarray, np.ndarray]:
    """Per row, each column's shared rank when larger keys rank first (one more than the keys above
    it), and whether a reported column (None: every one) has another with as many points
    (`key // span`)."""
    rows, n = key.shape
    order = np.argsort(-key, axis=1)
    ordered = np.take_along_axis(key, order, axis=1)
    position = np.arange(n, dtype=np.int32)
    starts = np.ones((rows, n), dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    first_of_run = np.maximum.accumulate(np.where(starts, position, 0), axis=1)
    ranks = np.empty((rows, n), dtype=np.int32)
    np.put_along_axis(ranks, order, first_of_run + 1, axis=1)
    points = ordered // span
    same = points[:, 1:] == points[:, :-1]
    if reported is None:
        return ranks, np.asarray(same.any(axis=1))
    shared_points = np.zeros((rows, n), dtype=bool)
    shared_points[:, 1:] |= same
    shared_points[:, :-1] |= same
    tied = np.empty((rows, n), dtype=bool)
    np.put_along_axis(tied, order, shared_points, axis=1)
    return ranks, np.asarray(tied[:, reported].any(axis=1))
