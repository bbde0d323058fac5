"""The rules of a list written as sums over rounds for the scenario solver, when a player's values
read more open games than a table of their combinations can hold (docs/scenarios.md, "The solver"
and "Rules as sums over rounds"; decisions 0221, 0270).

A round's contribution to a player's Buchholz is the score counted for that round's opponent: the
opponent's adjusted score (C.07 16.3), or a dummy's (16.4), which reads only the rows of the player
and of that opponent, so only their open games (one or two before the last round). Each round's
contribution is taken from the engine itself (`Context.opponent_columns`, the columns Buchholz and
Sonneborn-Berger sum), once per combination of those few games, and the model reads it as a table:
no rule is re-derived. Then
- BH is the sum of the contributions (C.07 8.1), FB the same on the engine's table with the last
  round drawn (8.3);
- a Cut-n or Median-n (14, 16.5) takes away the n least (and, for a median, the n greatest)
  contributions: a minimum (maximum) over the sums of every n of them; a player's voluntary
  unplayed rounds are cut first (16.5.1), a fixed set;
- SB sums the contribution times the player's points in the round (9.1): per round the engine's
  product, a table over the same games, so the product of two unknowns needs no constraint; its
  cuts order by the opponent's score, then the product, as the engine's do;
- a rule reading only the player's own row (points, wins, colours, progressive score, and the
  rating rules ARO, TPR, PTP, whose opponents' ratings are fixed) is the engine's value tabled
  over the player's own open games;
- AOB (8.4), APRO and APPO (10.5, 10.6), US Chess OPERF (34E11) are means over the opponents met
  over the board (a fixed set): the sum of the opponents' Buchholz terms (or their own-row
  performances), then the engine's rounding, halves up, as an integer division;
- Koya (9.2) sums per round the points scored against an opponent who reached the limit: the
  engine's cells (`koya_counted`), each reading the player's and the opponent's rows;
- US Chess Solkoff, Median, Modified Median, SB, OCUM (34E1, 34E2, 34E8, 34E9) the engine's cells
  likewise (`opposition_cells`); the Modified Median's ends are cut per outcome as the engine's
  `median_drops` says for the player's own score.
Anything else (direct encounter, another modifier, a round reading more than `MOST_PER_ROUND`
games, counted rounds that change with the results, an SB cut of two or more or an SB median with
unplayed rounds, a cut past `MOST_SUBSETS`) is not modelled: `formula_keys` returns None, lists
the rules in `refused`, and the caller refuses naming them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast
from dataclasses import dataclass, replace

import numpy as np
from ortools.sat.python import cp_model

from .context import Context
from .families.koya import koya_counted
from .families.uscf import median_drops, opposition_cells, performances
from .model import Regulations
from .ranking import sort_keys
from .registry import TIEBREAKS
from .rules import RuleSpec
from .scenario_parts import READS, Parts, covering_outcomes
from .scenarios import OpenGame, final_scores, loss_points, outcome_codes, stacked
from .table import IS_PLAYED, NO_OPPONENT, Table

MOST_PER_ROUND = 3  # open games one round's contribution may read (the player's and the opponent's)
MOST_SUBSETS = 400  # the cut's sums over every n of the rounds: C(rounds, n) expressions at most
SUMS = ("BH", "FB", "SB")  # opponents' scores summed per round (8.1, 8.3, 9.1)
USCF = ("SOLK", "MED", "MM", "SBUS", "OCUM")  # US Chess 34E1, 34E2, 34E8, 34E9: the same per-round sums
PER_ROUND = (*SUMS, "KS", *USCF)  # a contribution per round reading the player's and the opponent's rows
MEANS = ("AOB", "APRO", "APPO", "OPERF")  # means over the opponents met (8.4, 10.5, 10.6; US Chess 34E11)
# Rules whose value reads the player's own row only (scenario_parts.READS 0), and the rating rules
# that read the opponents' ratings, fixed, and the player's own results (C.07 10.1-10.3).
OWN_ROW = frozenset({*(code for code, reach in READS.items() if reach == 0), "ARO", "TPR", "PTP", "AROUS"})
Cell = Callable[[np.ndarray, int, int], "Term"]  # the engine's matrix at (player, round), tabled
OWN = -1  # the "round" under which a player's own open games are read, in the covering's keys


@dataclass(frozen=True, slots=True)
class Term:
    """One round's contribution: a table over the combinations of `games` (first most significant)."""

    games: list[int]
    value: np.ndarray

    def at(self, codes: np.ndarray) -> np.ndarray:
        """Per row of `codes` (outcomes, kept games), the contribution."""
        index = np.zeros(len(codes), dtype=np.int64)
        for g in self.games:
            index = index * 3 + codes[:, g]
        return self.value[index]

    def fixed(self, game: int, code: int) -> Term:
        """The contribution over the outcomes where kept game `game` has result `code`."""
        if game not in self.games:
            return self
        value = taken_at(self.value, self.games.index(game), code, len(self.games))
        return Term([g for g in self.games if g != game], value)


def taken_at(table: np.ndarray, axis: int, code: int, games: int) -> np.ndarray:
    """A table over the combinations of `games` games (the first most significant) at one result of one."""
    return np.ascontiguousarray(table.reshape((3,) * games).take(code, axis=axis).reshape(-1))


def _fixed_terms(terms: list[Term] | None, game: int, code: int) -> list[Term] | None:
    return None if terms is None else [t.fixed(game, code) for t in terms]


@dataclass(frozen=True, slots=True)
class Cut:
    """What a Cut-n / Median-n takes away (C.07 16.5): the least sum over `low_sets` of `pool`
    (every n of the rounds: the n least) and the greatest over `high_sets` of the same pool (a
    median's n greatest); `count` entries in all. With `keys` (Sonneborn-Berger) the pool orders
    by the opponent's score, then the value: each entry is key × span + value − least, and the
    values come back as the pool's sum less span times the keys' (the least n entries have the
    least n keys). With `unplayed` (SB Cut-1, 16.5.1): the least unplayed round's value is cut
    instead when it is not below the least significant entry's value: the greater of the two."""

    pool: list[Term]
    low_sets: list[tuple[int, ...]]
    high_sets: list[tuple[int, ...]]
    count: int
    keys: list[Term] | None = None
    span: int = 1
    least: int = 0
    unplayed: list[Term] | None = None
    # US Chess Modified Median (34E1): whether each end is cut, 0 or 1 per outcome of the player's
    # own games (a plus score keeps the greatest, a minus score the least); None: always
    low_if: Term | None = None
    high_if: Term | None = None

    @property
    def fewest(self) -> int:
        """The fewest entries cut in any outcome."""
        low = len(self.low_sets[0]) if self.low_if is None or self.low_if.value.min() else 0
        high = len(self.high_sets[0]) if self.high_if is None or self.high_if.value.min() else 0
        return min(self.count, low + high) if (self.low_if or self.high_if) else self.count

    def fixed(self, game: int, code: int) -> Cut:
        """The same cut over the outcomes where kept game `game` has result `code` (the keys'
        `span` and `least` still bound them: fewer outcomes)."""
        return replace(
            self,
            pool=[t.fixed(game, code) for t in self.pool],
            keys=_fixed_terms(self.keys, game, code),
            unplayed=_fixed_terms(self.unplayed, game, code),
            low_if=None if self.low_if is None else self.low_if.fixed(game, code),
            high_if=None if self.high_if is None else self.high_if.fixed(game, code),
        )

    def at(self, codes: np.ndarray) -> np.ndarray:
        values = np.stack([t.at(codes) for t in self.pool], axis=1)
        keys = None if self.keys is None else np.stack([t.at(codes) for t in self.keys], axis=1)
        removed = np.zeros(len(codes), dtype=np.int64)
        for sets, pick, when in ((self.low_sets, np.min, self.low_if), (self.high_sets, np.max, self.high_if)):
            if sets == [()]:  # nothing cut at this end
                continue
            end = pick(np.stack([values[:, list(c)].sum(axis=1) for c in sets], axis=1), axis=1)
            if keys is not None:
                chosen = pick(np.stack([keys[:, list(c)].sum(axis=1) for c in sets], axis=1), axis=1)
                end = end - self.span * chosen + len(sets[0]) * self.least
            removed = removed + (end if when is None else end * when.at(codes))
        if self.unplayed:
            removed = np.maximum(removed, np.min(np.stack([t.at(codes) for t in self.unplayed], axis=1), axis=1))
        return removed


def _subsets(indices: Sequence[int], n: int) -> list[tuple[int, ...]]:
    """Every n of the indices ([()] for none; [] when there are fewer than n)."""
    return list(itertools.combinations(indices, n))


@dataclass(frozen=True, slots=True)
class Part:
    """One rule's value for a player: the sum of `terms` less what `cut` takes away; with a
    `divisor`, the mean times `times` to the nearest integer, halves up (the engine's rounding)."""

    terms: list[Term]
    cut: Cut | None = None
    times: int = 1
    divisor: int = 0

    def fixed(self, game: int, code: int) -> Part:
        terms = [t.fixed(game, code) for t in self.terms]
        return replace(self, terms=terms, cut=None if self.cut is None else self.cut.fixed(game, code))

    def at(self, codes: np.ndarray) -> np.ndarray:
        total = sum((t.at(codes) for t in self.terms), np.zeros(len(codes), dtype=np.int64))
        if self.cut is not None:
            total = total - self.cut.at(codes)
        return cast(np.ndarray, self._mean(total))

    def _mean(self, total: Any) -> Any:
        if not self.divisor:
            return total
        return (2 * self.times * total + self.divisor) // (2 * self.divisor)

    def sum_bounds(self) -> tuple[int, int]:
        """Bounds of the total before the mean: the kept entries are `kept` of the terms, each
        between its least and greatest value."""
        most = len(self.terms) - (self.cut.fewest if self.cut is not None else 0)
        fewest = len(self.terms) - (self.cut.count if self.cut is not None else 0)
        lows = sorted(int(t.value.min()) for t in self.terms)
        highs = sorted((int(t.value.max()) for t in self.terms), reverse=True)
        kept = range(fewest, most + 1)  # how many entries are kept, over the outcomes
        return min(sum(lows[:k]) for k in kept), max(sum(highs[:k]) for k in kept)

    def bounds(self) -> tuple[int, int]:
        low, high = self.sum_bounds()
        return int(self._mean(low)), int(self._mean(high))  # the rounding is monotone


@dataclass(frozen=True, slots=True)
class FormulaKey:
    """A player's sort key (larger ranks first): points, then each rule's value, combined as one
    integer with a radix per rule wide enough for every player's values (lexicographic order).
    `low`/`high` bound it, `least`/`most` bound the points."""

    games: list[int]  # every kept game the key reads
    points: Term
    parts: list[Part]
    offsets: list[int]  # per component (points first): the least over every player
    radix: list[int]  # per component after the points: the span over every player, plus one
    low: int
    high: int
    least: int
    most: int

    def fixed(self, game: int, code: int) -> FormulaKey:
        """The key over the outcomes where kept game `game` has result `code`, its bounds narrowed."""
        if game not in self.games:
            return self
        points = self.points.fixed(game, code)
        parts = [part.fixed(game, code) for part in self.parts]
        least, most = int(points.value.min()), int(points.value.max())
        low, high = least - self.offsets[0], most - self.offsets[0]
        for part, offset, radix in zip(parts, self.offsets[1:], self.radix, strict=True):
            a, b = part.bounds()
            low, high = low * radix + (a - offset), high * radix + (b - offset)
        games = [g for g in self.games if g != game]
        return FormulaKey(games, points, parts, self.offsets, self.radix, low, high, least, most)

    def at(self, codes: np.ndarray) -> np.ndarray:
        key = self.points.at(codes) - self.offsets[0]
        for part, offset, radix in zip(self.parts, self.offsets[1:], self.radix, strict=True):
            key = key * radix + (part.at(codes) - offset)
        return key

    # for the solver's comparison of players level on points (engine/scenario_solver.py, decision 0260)

    def values_bounds(self) -> tuple[int, int]:
        """The least and greatest of the key past the points (each rule's value in its radix)."""
        span = math.prod(self.radix)
        return self.low - (self.least - self.offsets[0]) * span, self.high - (self.most - self.offsets[0]) * span


def unmodelled(specs: list[RuleSpec]) -> list[int]:
    """The positions of the rules of the list this module does not write as sums (empty: every
    one is modelled)."""
    return [i for i, spec in enumerate(specs) if not _modelled(spec)]


def modelled(specs: list[RuleSpec]) -> bool:
    """Whether every rule of the list is one this module writes as sums over rounds."""
    return not unmodelled(specs)


def _modelled(spec: RuleSpec) -> bool:
    entry = TIEBREAKS.get(spec.code)
    if entry is None or entry.needs_groups:
        return False
    if spec.code in SUMS:  # Cut and Median, and the forfeits-played modifier (the engine's columns)
        plain = RuleSpec(code=spec.code, cut=spec.cut, median=spec.median, forfeits_played=spec.forfeits_played)
        return spec == plain  # a cut too wide for the model's sums is refused per player (MOST_SUBSETS)
    if spec.code in MEANS or spec.code in USCF:
        return spec == RuleSpec(code=spec.code)
    return spec.code in OWN_ROW or spec.code == "KS"  # Koya: its limit and /R are the engine's


def formula_keys(
    table: Table,
    games: list[OpenGame],
    parts: Parts,
    specs: list[RuleSpec],
    regulations: Regulations,
    dropped: Mapping[RuleSpec, str | None],
    ratings: np.ndarray | None = None,
    manual: Mapping[int, Any] | None = None,
    refused: list[int] | None = None,
) -> list[FormulaKey] | None:
    """Every player's `FormulaKey` over the kept games (indices into `parts.kept`), or None when
    some valued player's values are not sums this module models exactly; then `refused` (when
    given) receives the positions of the rules that were not."""
    refused = [] if refused is None else refused
    missing = unmodelled(specs)
    if missing:
        refused += missing
        return None
    kept = [games[g] for g in parts.kept]
    own: dict[int, list[int]] = {}
    for g, game in enumerate(kept):
        own.setdefault(game.white, []).append(g)
        own.setdefault(game.black, []).append(g)
    n = table.size
    computed = [spec for spec in specs if spec not in dropped]
    means = {spec.code for spec in computed if spec.code in MEANS}
    # per (player, round) the open games its contribution reads: the player's and the round's
    # opponent's rows; per (player, OWN) the player's own
    read: dict[tuple[int, int], list[int]] = {}

    def near(p: int, r: int) -> bool:
        o = int(table.opp[p, r])
        read[(p, r)] = sorted(set(own.get(p, []) + (own.get(o, []) if o != NO_OPPONENT and o != p else [])))
        return len(read[(p, r)]) <= MOST_PER_ROUND

    for p in parts.valued:
        read[(p, OWN)] = own.get(p, [])
        if any(spec.code in PER_ROUND for spec in computed) and not all(near(p, r) for r in range(table.played_rounds)):
            refused += [i for i, spec in enumerate(specs) if spec.code in PER_ROUND]
            return None
        for q in {int(o) for o in table.opp[p] if o != NO_OPPONENT and o != p} if means else ():
            read[(q, OWN)] = own.get(q, [])
            if "AOB" in means and not all(near(q, r) for r in range(table.played_rounds)):
                refused += [i for i, spec in enumerate(specs) if spec.code == "AOB"]
                return None
    # the (player, round) pairs stand where covering_outcomes takes players: any hashable works
    chosen, covered = covering_outcomes(cast(Mapping[int, list[int]], read), len(kept))
    shown = cast(dict[Any, np.ndarray], covered)
    if not len(chosen):  # no round reads an open game: one outcome shows every value
        chosen = np.ones((1, len(kept)), dtype=np.int8)
    big = stacked(table, kept, chosen, loss_points(table))
    base = np.zeros(n, dtype=np.int64) if ratings is None else ratings
    # the engine's context as rank_stacked makes it: the same ratings and arbiter's values
    ctx = Context(big, regulations, np.tile(base, len(chosen)), manual_values=manual)
    rows_of = {p: np.arange(len(chosen)) * n + p for p in range(n)}

    memo: dict[tuple[int, int, int], tuple[np.ndarray, Term]] = {}

    def cell(matrix: np.ndarray, p: int, r: int) -> Term:
        """The engine's (rows, rounds) `matrix` at player p, round r (OWN: the per-row vector
        `matrix` at p) as a table over what it reads; one Term per cell, the matrix kept with it
        (the model reads a shared term once)."""
        if (id(matrix), p, r) not in memo:
            values = matrix[rows_of[p], r] if r != OWN else matrix[rows_of[p]]
            memo[(id(matrix), p, r)] = (matrix, reduced(read[(p, r)], values[shown[(p, r)]].astype(np.int64)))
        return memo[(id(matrix), p, r)][1]

    point_terms = []
    for p in range(n):
        games_p = own.get(p, [])
        points = final_scores(table, [kept[g] for g in games_p], outcome_codes(len(games_p)))[:, p]
        point_terms.append(Term(games_p, points.astype(np.int64)))
    rule_parts: dict[int, list[Part]] = {p: [] for p in parts.valued}
    remapped: list[bool] = []  # per rule: a single table per player, renumbered densely in order
    for i, spec in enumerate(specs):
        one = {p: _constant(0) for p in parts.valued} if spec in dropped else None  # the same for all
        if one is None and spec.code in SUMS:
            one = _sums(ctx, big, spec, parts.valued, rows_of, cell)
        elif one is None and spec.code in MEANS:
            one = _means(ctx, big, spec, parts.valued, rows_of, cell)
        elif one is None and spec.code in USCF:
            one = _uscf(ctx, big, spec, parts.valued, rows_of, cell)
        elif one is None and spec.code == "KS":
            # C.07 9.2: per round the points scored when the opponent reached the limit, the
            # engine's own cells (its final score: the opponent's row; the points: the player's)
            koya_points = np.where(koya_counted(big, spec), big.pts, 0)
            one = {p: Part([cell(koya_points, p, r) for r in range(big.played_rounds)]) for p in parts.valued}
        elif one is None:
            value = -sort_keys(TIEBREAKS[spec.code].compute(ctx, spec))  # larger ranks first; none worst
            one = {p: Part([cell(value, p, OWN)]) for p in parts.valued}
        if one is None:
            refused.append(i)
            return None
        remapped.append(spec in dropped or spec.code in OWN_ROW)
        for p, part in one.items():
            rule_parts[p].append(part)
    for i, dense in enumerate(remapped):
        if dense:  # only the order counts: no value past 2**62 (a missing one sorts worst)
            values = np.unique(np.concatenate([rule_parts[p][i].terms[0].value for p in parts.valued]))
            for p in parts.valued:
                t = rule_parts[p][i].terms[0]
                rule_parts[p][i] = Part([Term(t.games, np.searchsorted(values, t.value).astype(np.int64))])
    return _keys(n, parts, point_terms, rule_parts, len(specs))


def _constant(value: int) -> Part:
    return Part([Term([], np.array([value], dtype=np.int64))])


def _sums(
    ctx: Context, big: Table, spec: RuleSpec, valued: list[int], rows_of: dict[int, np.ndarray], cell: Cell
) -> dict[int, Part] | None:
    """BH, FB, SB with their cuts: per player the counted rounds' contributions (C.07 8.1, 8.3, 9.1)."""
    if spec.code == "FB" and big.played_rounds == big.rounds:  # 8.3: the last round counted as drawn
        ctx = ctx.cached("fore-context", lambda: ctx.for_table(big.with_last_round_drawn(), fore_buchholz=True))
    c = ctx.opponent_columns(spec.forfeits_played)
    product = spec.code == "SB"
    value = c.key * ctx.table.pts if product else c.key
    low, high = spec.cut or spec.median, spec.median
    made = {}
    for p in valued:
        rows = rows_of[p]
        counted, vur = c.counted[rows], c.vur[rows]
        # C.07 16.5's choices are fixed only when the counted and the unplayed rounds are
        if (counted != counted[0]).any() or (vur != vur[0]).any():
            return None
        rounds = np.flatnonzero(counted[0]).tolist()
        terms = [cell(value, p, r) for r in rounds]
        if not (low or high) or not terms:
            made[p] = Part(terms)
            continue
        if len(terms) <= low + high:  # every entry goes (16.5 cuts while some are left)
            made[p] = Part([])
            continue
        unplayed = [i for i, r in enumerate(rounds) if vur[0, r]]
        played = [i for i in range(len(terms)) if i not in unplayed]
        if max(math.comb(len(terms), low), math.comb(len(terms), high)) > MOST_SUBSETS:
            return None
        if not product:
            # C.07 16.5.1: the voluntary unplayed rounds are cut first (a Buchholz contribution
            # of one is never below the least); a median's upper cut then takes the greatest of
            # the rest: the unplayed rounds left are the greatest of theirs, at most v − low of them
            first = min(low, len(unplayed))
            tops = [
                u + q
                for k in range(min(high, len(unplayed) - first) + 1)
                for u in _subsets(unplayed, k)
                for q in _subsets(played, high - k)
            ]
            if len(tops) > MOST_SUBSETS:
                return None
            lows = [u + q for u in _subsets(unplayed, first) for q in _subsets(played, low - first)]
            if first == len(unplayed):  # every unplayed round cut: the rest cut as without them
                lows = [tuple(unplayed) + q for q in _subsets(played, low - first)]
                tops = _subsets(played, high)
            made[p] = Part(terms, Cut(terms, lows, tops, low + high))
            continue
        # Sonneborn-Berger's cut orders by the opponent's score, then the product (16.5)
        if unplayed and (high or low > 1):
            return None  # 16.5.1 weighs an unplayed round's product against the least, cut by cut
        keys = [cell(c.key, p, r) for r in rounds]
        least = min(int(t.value.min()) for t in terms)
        span = max(int(t.value.max()) for t in terms) - least + 1
        pool = [_merged(k, t, span, least) for k, t in zip(keys, terms, strict=True)]
        everyone = list(range(len(terms)))
        cut = Cut(pool, _subsets(everyone, low), _subsets(everyone, high), low + high, keys, span, least)
        if unplayed:  # Cut-1: the greater of the least unplayed round's value and the least's
            cut = Cut(pool, cut.low_sets, [()], 1, keys, span, least, [terms[i] for i in unplayed])
        made[p] = Part(terms, cut)
    return made


def _uscf(
    ctx: Context, big: Table, spec: RuleSpec, valued: list[int], rows_of: dict[int, np.ndarray], cell: Cell
) -> dict[int, Part] | None:
    """US Chess Solkoff (34E2), Median and Modified Median (34E1), SB (34E8): per counted round the
    engine's opponent's adjusted score (times the points for SB); the Medians drop the least and
    greatest by value, as many as the engine says for the player, which must be the same in every
    outcome (a Modified Median whose plus/minus/even score turns on the open games is refused).
    OCUM (34E9): per round the opponent's cumulative score, the engine's CUM column."""
    key, counted = opposition_cells(ctx)
    if spec.code == "OCUM":
        cumulative = TIEBREAKS["CUM"].compute(ctx, RuleSpec("CUM")).column
        played = IS_PLAYED[big.kind] & (big.opp != NO_OPPONENT)
        key, counted = np.where(played, cumulative[np.where(played, big.opp, 0)], 0), np.ones_like(played)
    value = key * big.pts if spec.code == "SBUS" else key
    drops = median_drops(big, spec.code == "MM") if spec.code in ("MED", "MM") else None
    made = {}
    for p in valued:
        rows = rows_of[p]
        if (counted[rows] != counted[rows][0]).any():
            return None
        rounds = np.flatnonzero(counted[rows][0]).tolist()
        terms = [cell(value, p, r) for r in rounds]
        if drops is None:
            made[p] = Part(terms)
            continue
        # how many each end drops: a table over the player's own games (the Modified Median's
        # plus, minus or even score), 0 or n
        low, high = cell(drops[0], p, OWN), cell(drops[1], p, OWN)
        lo, hi = int(low.value.max()), int(high.value.max())
        if len(terms) <= int(low.value.min()) + int(high.value.min()):  # every entry goes in every outcome
            made[p] = Part([])
            continue
        if len(terms) <= lo + hi:
            return None  # all or some, by the outcome: not modelled
        everyone = range(len(terms))
        low_if = None if low.value.min() == lo else Term(low.games, (low.value > 0).astype(np.int64))
        high_if = None if high.value.min() == hi else Term(high.games, (high.value > 0).astype(np.int64))
        cut = Cut(terms, _subsets(everyone, lo), _subsets(everyone, hi), lo + hi, low_if=low_if, high_if=high_if)
        made[p] = Part(terms, cut)
    return made


def _merged(key: Term, value: Term, span: int, least: int) -> Term:
    """key × span + value − least as one table over the games either reads."""
    games = sorted(set(key.games) | set(value.games))
    codes = outcome_codes(len(games))
    full = np.zeros((len(codes), max(games, default=0) + 1), dtype=np.int8)
    if games:
        full[:, games] = codes
    return reduced(games, key.at(full) * span + value.at(full) - least)


def _means(
    ctx: Context, big: Table, spec: RuleSpec, valued: list[int], rows_of: dict[int, np.ndarray], cell: Cell
) -> dict[int, Part] | None:
    """AOB (8.4): the opponents' Buchholz, summed per round of theirs; APRO, APPO (10.5, 10.6):
    the opponents' performances, each read from the opponent's own row; then the mean, rounded as
    the engine rounds it (halves up)."""
    played = IS_PLAYED[big.kind] & (big.opp != NO_OPPONENT)
    if spec.code == "AOB":
        c = ctx.opponent_columns(False)  # the plain Buchholz the engine's AOB reads
    elif spec.code == "OPERF":  # 34E11: every opponent met over the board, each with a performance
        performance = performances(ctx)
    else:
        code = "TPR" if spec.code == "APRO" else "PTP"
        performance = TIEBREAKS[code].compute(ctx, RuleSpec(code)).column

    def fixed(q: int) -> np.ndarray | None:
        """The rounds q played over the board, when the same in every outcome."""
        mask = played[rows_of[q]]
        return None if (mask != mask[0]).any() else mask[0]

    made: dict[int, Part] = {}
    for p in valued:
        mask = fixed(p)
        if mask is None:
            return None
        met = [int(big.opp[p, r]) for r in np.flatnonzero(mask).tolist()]  # block 0: the event's rows
        terms: list[Term] = []
        if spec.code == "AOB":
            for q in met:
                counted = c.counted[rows_of[q]]
                if (counted != counted[0]).any():
                    return None
                terms += [cell(c.key, q, r) for r in np.flatnonzero(counted[0]).tolist()]
            divisor, times = len(met) * big.scale, 100
        else:
            masks = [fixed(q) for q in met]
            if any(m is None for m in masks):
                return None
            if spec.code != "OPERF":  # 10.5, 10.6: the opponents with a value
                met = [q for q, m in zip(met, masks, strict=True) if m is not None and m.any()]
            terms = [cell(performance, q, OWN) for q in met]
            divisor, times = len(met), 1
        if met:
            made[p] = Part(terms, times=times, divisor=divisor)
    # no opponent over the board: no value, which sorts after every value
    least = min((part.bounds()[0] for part in made.values()), default=0)
    return {p: made.get(p, _constant(least - 1)) for p in valued}


def _keys(
    n: int, parts: Parts, point_terms: list[Term], rule_parts: dict[int, list[Part]], rules: int
) -> list[FormulaKey] | None:
    """The combined keys: one radix per rule, so that every valued player's values fit in it and
    the combined key orders as the engine's sort does (points, then each rule in turn)."""
    bounds = [[rule_parts[p][i].bounds() for p in parts.valued] for i in range(rules)]
    offsets = [min(int(t.value.min()) for t in point_terms)]
    radix = []
    for per_rule in bounds:
        low = min((b[0] for b in per_rule), default=0)
        high = max((b[1] for b in per_rule), default=0)
        offsets.append(low)
        radix.append(high - low + 1)
    span = math.prod(radix)
    if (max(int(t.value.max()) for t in point_terms) - offsets[0] + 1) * span >= 2**62:
        return None
    keys = []
    for p in range(n):
        # a player without values: points alone set them apart from every reported one
        made = rule_parts.get(p) or [_constant(offsets[i + 1]) for i in range(rules)]
        read_all = {g for part in made for t in _tables(part) for g in t.games}
        least, most = int(point_terms[p].value.min()), int(point_terms[p].value.max())
        low, high = least - offsets[0], most - offsets[0]
        for part, offset, r in zip(made, offsets[1:], radix, strict=True):
            a, b = part.bounds()
            low, high = low * r + (a - offset), high * r + (b - offset)
        games = sorted(read_all | set(point_terms[p].games))
        keys.append(FormulaKey(games, point_terms[p], made, offsets, radix, low, high, least, most))
    return keys


def _tables(part: Part) -> list[Term]:
    cut = part.cut
    return [*part.terms, *(cut.pool if cut else []), *((cut.keys or []) if cut else [])]


def reduced(games: list[int], value: np.ndarray) -> Term:
    """The table without the games it does not vary with (a forfeit's scheduled opponent's, say)."""
    cube = value.reshape((3,) * len(games))
    keep = []
    for axis, g in enumerate(games):
        if (np.diff(cube, axis=axis) != 0).any():
            keep.append(g)
        else:
            cube = cube.take([0], axis=axis)
    return Term(keep, cube.reshape(-1))


def _expressions(model: cp_model.CpModel) -> dict[int, tuple[Term, cp_model.LinearExprT]]:
    """The model's expressions of the terms already read: a term shared by several keys (an
    opponent's Buchholz round in AOB, a round in BH and BH/C1) is one constraint."""
    cache: dict[int, tuple[Term, cp_model.LinearExprT]] = model.__dict__.setdefault("_scenario_terms", {})
    return cache


def _term_expr(
    model: cp_model.CpModel, term: Term, result: Mapping[int, list[cp_model.IntVar]]
) -> cp_model.LinearExprT:
    cache = _expressions(model)
    if id(term) not in cache:  # the term is kept with its expression: its id stays its own
        cache[id(term)] = (term, lookup_expression(model, term.games, [int(v) for v in term.value], result))
    return cache[id(term)][1]


def lookup_expression(
    model: cp_model.CpModel, games: Sequence[int], values: list[int], result: Mapping[int, list[cp_model.IntVar]]
) -> cp_model.LinearExprT:
    """A value given for every combination of a few games' results (`outcome_codes` order, the first
    game most significant) as an expression of their result booleans: exact, one entry per outcome."""
    if not games:
        return values[0]
    if len(games) == 1:  # linear: one boolean per result
        g = games[0]
        return sum(values[r] * result[g][r] for r in range(3))
    index = model.new_int_var(0, len(values) - 1, "")
    weights = [3 ** (len(games) - 1 - i) for i in range(len(games))]
    model.add(index == sum(w * (result[g][1] + 2 * result[g][2]) for w, g in zip(weights, games, strict=True)))
    var = model.new_int_var(min(values), max(values), "")
    model.add_element(index, values, var)
    return var


def part_expression(
    model: cp_model.CpModel, part: Part, result: Mapping[int, list[cp_model.IntVar]]
) -> cp_model.LinearExprT:
    total: Any = sum(_term_expr(model, t, result) for t in part.terms)
    cut = part.cut
    if cut is not None:
        total = total - _cut_expr(model, cut, result)
    if not part.divisor:
        return cast(cp_model.LinearExprT, total)
    # the mean, halves up: floor((2 × times × total + d) / 2d), the numerator shifted by whole
    # divisors to be non-negative (CP-SAT's division truncates towards zero)
    d2 = 2 * part.divisor
    low, high = part.sum_bounds()
    low, high = 2 * part.times * low + part.divisor, 2 * part.times * high + part.divisor
    shift = -(low // d2) if low < 0 else 0
    numerator = model.new_int_var(low + shift * d2, high + shift * d2, "")
    model.add(numerator == 2 * part.times * total + part.divisor + shift * d2)
    mean = model.new_int_var((low + shift * d2) // d2, (high + shift * d2) // d2, "")
    model.add_division_equality(mean, numerator, d2)
    return cast(cp_model.LinearExprT, mean - shift)


def _cut_expr(model: cp_model.CpModel, cut: Cut, result: Mapping[int, list[cp_model.IntVar]]) -> Any:
    """What the cut takes away (C.07 16.5): the least sum over the low sets, the greatest over the
    high ones (AddMin/MaxEquality over every n of the rounds), exact whatever the ties."""
    pool = [_term_expr(model, t, result) for t in cut.pool]
    keys = None if cut.keys is None else [_term_expr(model, t, result) for t in cut.keys]
    removed: Any = 0
    for sets, lowest, when in ((cut.low_sets, True, cut.low_if), (cut.high_sets, False, cut.high_if)):
        if sets == [()]:
            continue
        end: Any = _extreme_sum(model, cut.pool, pool, sets, lowest)
        if keys is not None and cut.keys is not None:
            end = end - cut.span * _extreme_sum(model, cut.keys, keys, sets, lowest) + len(sets[0]) * cut.least
        if when is not None:  # 34E1: this end is cut only in the outcomes the player's score says
            cut_here = model.new_bool_var("")
            model.add(cut_here == _term_expr(model, when, result))
            low = min(0, min(sum(int(cut.pool[i].value.min()) for i in c) for c in sets))
            high = max(0, max(sum(int(cut.pool[i].value.max()) for i in c) for c in sets))
            taken = model.new_int_var(low, high, "")
            model.add(taken == end).only_enforce_if(cut_here)
            model.add(taken == 0).only_enforce_if(~cut_here)
            end = taken
        removed = removed + end
    if cut.unplayed:  # SB Cut-1 (16.5.1): the greater of the least unplayed value and the least's
        exprs = [_term_expr(model, t, result) for t in cut.unplayed]
        least_unplayed = _extreme_sum(model, cut.unplayed, exprs, _subsets(range(len(exprs)), 1), True)
        greater = model.new_int_var(cut.least, cut.least + cut.span - 1, "")  # some round's value
        model.add_max_equality(greater, [removed, least_unplayed])
        removed = greater
    return removed


def _extreme_sum(
    model: cp_model.CpModel, terms: list[Term], exprs: list[Any], sets: list[tuple[int, ...]], lowest: bool
) -> Any:
    """The least (greatest) of the sums of the terms over each set."""
    if len(sets) == 1:
        return sum(exprs[i] for i in sets[0])
    low = min(sum(int(terms[i].value.min()) for i in c) for c in sets)
    high = max(sum(int(terms[i].value.max()) for i in c) for c in sets)
    var = model.new_int_var(low, high, "")
    sums = [sum(exprs[i] for i in c) for c in sets]
    if lowest:
        model.add_min_equality(var, sums)
    else:
        model.add_max_equality(var, sums)
    return var
