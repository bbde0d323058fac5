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
points, or as many and better values, which is what the standings' sort gives. Those are counted,
not sorted: a player whose least key beats another's greatest is ahead in every outcome, and only
the pairs whose keys can cross are compared outcome by outcome (decision 0148). A rule computed
inside the tie groups (direct encounter) reads whoever is tied, so a list with one is ranked whole
(engine/scenarios.py, `Ranker`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from dataclasses import dataclass

import numpy as np

from .model import Regulations
from .rules import RuleSpec
from .scenarios import (
    OpenGame,
    blocks_per_pass,
    final_scores,
    loss_points,
    outcome_codes,
    rank_stacked,
    results_by_game,
)
from .table import NO_OPPONENT, Table

# How far in the graph of opponents a rule's value reads results: 0 the player's own row, 1 their
# opponents' too, 2 their opponents' opponents'. Read off each rule's code in engine/families; a
# rule not listed (direct encounter, the drawing of lots) is ranked whole. Over-stating is safe.
READS = {
    **dict.fromkeys(("PTS", "WIN", "WON", "BPG", "BWG", "GE", "STD", "PS", "RTNG", "TPN", "MAN"), 0),
    **dict.fromkeys(("CUM", "BLK", "KASH"), 0),
    **dict.fromkeys(("BH", "FB", "SB", "KS", "ARO", "TPR", "PTP"), 1),
    **dict.fromkeys(("MM", "MED", "SOLK", "SBUS", "OCUM", "AROUS"), 1),
    **dict.fromkeys(("AOB", "APRO", "APPO", "OPERF"), 2),
}
COMPARE_CELLS = 1_000_000  # players × outcomes of one pass comparing sort keys: bounded memory per pass


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
        seen, first = np.unique(combination(chosen, own), return_index=True)
        where = np.full(3 ** len(own), -1, dtype=np.int64)
        where[seen] = first
        missing = np.flatnonzero(where < 0)
        if len(missing):
            added = fill.integers(0, 3, size=(len(missing), games), dtype=np.int8)
            added[:, own] = outcome_codes(len(own))[missing]
            where[missing] = len(chosen) + np.arange(len(missing))
            chosen = np.concatenate([chosen, added])
        shown[player] = where
    return chosen, shown


def combination(codes: np.ndarray, own: list[int]) -> np.ndarray:
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
    covered: bool = True  # False: no covering outcomes (the solver's sums over rounds read the engine)


class TooWide(Exception):
    """A player's values depend on more open games than allowed (the solver's `MOST_READ`)."""

    def __init__(self, games: int) -> None:
        super().__init__(games)
        self.games = games


def parts_of(
    table: Table,
    games: list[OpenGame],
    reported: list[int],
    reach: int,
    most_read: int | None = None,
    cover: bool = True,
) -> Parts:
    low, high = score_ranges(table, games)
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
    widest = max((len(own) for own in read.values()), default=0)
    if most_read is not None and widest > most_read:  # before the covering outcomes grow as 3**widest
        raise TooWide(widest)
    if not cover:  # engine/scenario_formulas.py reads the engine per round, not per player
        return Parts(kept, valued, read, np.zeros((0, len(kept)), dtype=np.int8), {}, covered=False)
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
    manual: Mapping[int, Any] | None = None,
) -> int:
    """Write into `ranks` (outcomes, reported) each reported player's shared rank in every outcome,
    as the standings rank it; return in how many outcomes a reported player is equal on points
    with another (those the rules decide)."""
    all_games, games = games, [games[g] for g in parts.kept]
    keys = player_keys(table, all_games, parts, specs, regulations, ratings, dropped, between, manual)
    low, high = np.array([k.value.min() for k in keys]), np.array([k.value.max() for k in keys])
    least, most = np.array([k.points.min() for k in keys]), np.array([k.points.max() for k in keys])
    comparisons = [compared(j, low, high, least, most) for j in reported]
    level_always = any(c.level_always for c in comparisons)
    level_pairs = sorted(
        {(min(j, k), max(j, k)) for j, c in zip(reported, comparisons, strict=True) for k in c.level_if}
    )
    needed = sorted(
        {*reported, *(k for c in comparisons for k in c.ahead_if), *(k for pair in level_pairs for k in pair)}
    )
    codes = results_by_game(len(games))
    outcomes = 3 ** len(games)
    exact = ranks if len(games) == len(all_games) else np.empty((outcomes, len(reported)), ranks.dtype, order="F")
    step = max(1, COMPARE_CELLS // max(1, len(needed)))  # no player reported: nothing to compare
    decided = 0
    for first in range(0, outcomes, step):
        part = codes[:, first : first + step]
        key, points = _columns(keys, needed, part, with_points=not level_always)
        for column, (j, c) in enumerate(zip(reported, comparisons, strict=True)):
            rank = np.full(part.shape[1], 1 + c.ahead, dtype=ranks.dtype)
            for k in c.ahead_if:  # a shared rank: one more than the players with a greater key
                rank += key[k] > key[j]
            exact[first : first + step, column] = rank
        if level_always:
            decided += part.shape[1]
        else:
            level = np.zeros(part.shape[1], dtype=bool)
            for j, k in level_pairs:
                level |= points[k] == points[j]
            decided += int(level.sum())
        between()
    if exact is not ranks:  # the games set aside: the same ranks whatever their results
        shape = [3 if g in parts.kept else 1 for g in range(len(all_games))]
        for column in range(len(reported)):
            spread = np.broadcast_to(exact[:, column].reshape(shape), (3,) * len(all_games))
            ranks[:, column] = spread.reshape(-1)
    return decided * int(3 ** (len(all_games) - len(games)))


def player_keys(
    table: Table,
    games: list[OpenGame],
    parts: Parts,
    specs: list[RuleSpec],
    regulations: Regulations,
    ratings: np.ndarray,
    dropped: Mapping[RuleSpec, str | None],
    between: Callable[[], None] = lambda: None,
    manual: Mapping[int, Any] | None = None,
) -> list[Key]:
    """Every player's `Key` over the kept games (indices into `parts.kept`), the values computed
    by the engine in the covering outcomes: what the solver (engine/scenario_solver.py) reads."""
    kept = [games[g] for g in parts.kept]
    values = _values(table, kept, parts.chosen, specs, regulations, ratings, dropped, between, manual)
    return _sort_keys(table, kept, parts, values)


@dataclass(frozen=True, slots=True)
class Key:
    """A player's sort key (larger ranks first: points, then the values) and points, one of each
    per combination of the results of `games` (indices into the kept games), the first most
    significant."""

    games: list[int]
    value: np.ndarray
    points: np.ndarray


def _sort_keys(table: Table, games: list[OpenGame], parts: Parts, values: np.ndarray) -> list[Key]:
    """Every player's `Key`. A valued player's key reads the games they read (their own among
    them); any other player's only their own games: points alone set them apart from every
    reported player."""
    # one number per distinct list of values, larger is better (sort keys: smaller is better)
    listed = [values[parts.shown[j], j] for j in parts.valued]
    pairs = np.concatenate(listed) if listed else np.zeros((0, values.shape[2]), dtype=np.int64)
    distinct, dense = np.unique(pairs, axis=0, return_inverse=True)
    better, start = len(distinct) - 1 - dense.reshape(-1), 0
    value_of = {}
    for j in parts.valued:
        value_of[j] = better[start : start + len(parts.shown[j])]
        start += len(parts.shown[j])
    span = max(1, len(distinct))
    keys = []
    for p in range(table.size):
        own = [g for g, game in enumerate(games) if p in (game.white, game.black)]
        read = parts.read[p] if p in parts.read else own
        points = final_scores(table, [games[g] for g in read], outcome_codes(len(read)))[:, p]
        keys.append(Key(read, points * span + value_of.get(p, 0), points))
    if max(int(k.value.max()) for k in keys) < 2**31 and min(int(k.value.min()) for k in keys) >= 0:
        keys = [Key(k.games, k.value.astype(np.int32), k.points) for k in keys]  # compares faster
    return keys


@dataclass(frozen=True, slots=True)
class Comparison:
    """For a reported player: how many players are ahead of them in every outcome, who is ahead in
    some outcomes only, whether another player is on as many points in every outcome, and who is
    in some only."""

    ahead: int
    ahead_if: list[int]
    level_always: bool
    level_if: list[int]


def compared(j: int, low: np.ndarray, high: np.ndarray, least: np.ndarray, most: np.ndarray) -> Comparison:
    """`Comparison` of player `j` from each player's least and greatest sort key and points."""
    always = low > high[j]
    others = np.arange(len(low)) != j
    fixed = (least == most) & (least == least[j]) & (most[j] == least[j])
    level_if = others & (least <= most[j]) & (least[j] <= most) & ~fixed
    return Comparison(
        ahead=int(always.sum()),
        ahead_if=np.flatnonzero(others & ~always & (high > low[j])).tolist(),
        level_always=bool((fixed & others).any()),
        level_if=np.flatnonzero(level_if).tolist(),
    )


def _columns(
    keys: list[Key], players: list[int], codes: np.ndarray, with_points: bool
) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
    """For the outcomes whose results are `codes` (games, outcomes), each player's sort key and,
    if asked, points."""
    key, points = {}, {}
    for p in players:
        index = np.zeros(codes.shape[1], dtype=np.int32)
        for g in keys[p].games:
            index *= 3
            index += codes[g]
        key[p] = keys[p].value[index]
        if with_points:
            points[p] = keys[p].points[index]
    return key, points


def score_ranges(table: Table, games: list[OpenGame]) -> tuple[np.ndarray, np.ndarray]:
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
    manual: Mapping[int, Any] | None = None,
) -> np.ndarray:
    """(outcomes chosen, players, rules): every player's sort keys in each chosen outcome."""
    n = table.size
    out = np.zeros((len(chosen), n, len(specs)), dtype=np.int64)
    step = blocks_per_pass(table)
    for first in range(0, len(chosen), step):
        part = chosen[first : first + step]
        _, _, keys, _ = rank_stacked(table, games, part, specs, regulations, ratings, dropped, manual)
        for r, key in enumerate(keys[1:]):  # keys[0] is points
            out[first : first + step, :, r] = key.reshape(len(part), n)
        between()
    return out
