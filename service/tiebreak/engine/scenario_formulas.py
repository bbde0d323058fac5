"""Buchholz, its Cut-1 and Sonneborn-Berger written as sums over rounds for the scenario solver,
when a player's values read more open games than a table of their combinations can hold
(docs/scenarios.md, "The solver"; decision 0221).

A round's contribution to a player's Buchholz is the score counted for that round's opponent: the
opponent's adjusted score (C.07 16.3), or a dummy's (16.4), which reads only the rows of the player
and of that opponent, so only their open games (one or two before the last round). Each round's
contribution is taken from the engine itself (`Context.opponent_columns`, the columns Buchholz and
Sonneborn-Berger sum), once per combination of those few games, and the model reads it as a table:
no rule is re-derived. Then
- BH is the sum of the contributions (C.07 8.1);
- BH/C1 is that sum less the least contribution (16.5), a minimum over the rounds; a player with
  voluntary unplayed rounds has the least of those cut (16.5.1), a minimum over them;
- SB sums the contribution times the player's points in the round (9.1): per round the engine's
  product, a table over the same games, so the product of two unknowns needs no constraint.
Anything else (another modifier, a round reading more than `MOST_PER_ROUND` games, counted rounds
that change with the results) is not modelled: `formula_keys` returns None and the caller refuses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast
from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from .context import Context
from .model import Regulations
from .rules import RuleSpec
from .scenario_parts import Parts, covering_outcomes
from .scenarios import OpenGame, final_scores, loss_points, outcome_codes, stacked
from .table import NO_OPPONENT, Table

MOST_PER_ROUND = 3  # open games one round's contribution may read (the player's and the opponent's)


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


@dataclass(frozen=True, slots=True)
class Part:
    """One rule's value for a player: the sum of `terms`, less the least of `cut_from` when cutting
    (C.07 16.5: the voluntary unplayed rounds when there are some, else every round)."""

    terms: list[Term]
    cut_from: list[Term] | None = None

    def at(self, codes: np.ndarray) -> np.ndarray:
        total = sum((t.at(codes) for t in self.terms), np.zeros(len(codes), dtype=np.int64))
        if self.cut_from:
            total = total - np.min(np.stack([t.at(codes) for t in self.cut_from]), axis=0)
        return total

    def bounds(self) -> tuple[int, int]:
        low = sum(int(t.value.min()) for t in self.terms)
        high = sum(int(t.value.max()) for t in self.terms)
        if self.cut_from:  # the least contribution lies between the least minimum and least maximum
            low -= min(int(t.value.max()) for t in self.cut_from)
            high -= min(int(t.value.min()) for t in self.cut_from)
        return low, high


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

    def at(self, codes: np.ndarray) -> np.ndarray:
        key = self.points.at(codes) - self.offsets[0]
        for part, offset, radix in zip(self.parts, self.offsets[1:], self.radix, strict=True):
            key = key * radix + (part.at(codes) - offset)
        return key

    def expression(self, model: cp_model.CpModel, result: Mapping[int, list[cp_model.IntVar]]) -> cp_model.LinearExprT:
        key: Any = _term_expr(model, self.points, result)
        key = key - self.offsets[0]
        for part, offset, radix in zip(self.parts, self.offsets[1:], self.radix, strict=True):
            key = key * radix + (_part_expr(model, part, result) - offset)
        return cast(cp_model.LinearExprT, key)

    # for the solver's comparison of players level on points (engine/scenario_solver.py, decision 0260)

    def values_bounds(self) -> tuple[int, int]:
        """The least and greatest of the key past the points (each rule's value in its radix)."""
        span = 1
        for r in self.radix:
            span *= r
        return self.low - (self.least - self.offsets[0]) * span, self.high - (self.most - self.offsets[0]) * span


def modelled(specs: list[RuleSpec]) -> bool:
    """Whether every rule of the list is one this module writes as sums: BH, BH/C1, SB (each with
    or without the forfeits-played modifier, which only changes the engine's columns)."""
    return all(
        spec.code in ("BH", "SB")
        and spec.cut <= (1 if spec.code == "BH" else 0)
        and spec == RuleSpec(code=spec.code, cut=spec.cut, forfeits_played=spec.forfeits_played)
        for spec in specs
    )


def formula_keys(
    table: Table,
    games: list[OpenGame],
    parts: Parts,
    specs: list[RuleSpec],
    regulations: Regulations,
    dropped: Mapping[RuleSpec, str | None],
) -> list[FormulaKey] | None:
    """Every player's `FormulaKey` over the kept games (indices into `parts.kept`), or None when
    some valued player's values are not sums this module models exactly."""
    if not modelled(specs) or any(dropped.get(spec) for spec in specs):
        return None
    kept = [games[g] for g in parts.kept]
    own: dict[int, list[int]] = {}
    for g, game in enumerate(kept):
        own.setdefault(game.white, []).append(g)
        own.setdefault(game.black, []).append(g)
    # per valued player and round, the open games its contribution reads: the player's and the
    # round's opponent's rows
    read: dict[tuple[int, int], list[int]] = {}
    for p in parts.valued:
        for r in range(table.played_rounds):
            o = int(table.opp[p, r])
            near = own.get(p, []) + (own.get(o, []) if o != NO_OPPONENT and o != p else [])
            read[(p, r)] = sorted(set(near))
            if len(read[(p, r)]) > MOST_PER_ROUND:
                return None
    # the (player, round) pairs stand where covering_outcomes takes players: any hashable works
    chosen, covered = covering_outcomes(cast(Mapping[int, list[int]], read), len(kept))
    shown = cast(dict[Any, np.ndarray], covered)
    if not len(chosen):  # no round reads an open game: one outcome shows every value
        chosen = np.ones((1, len(kept)), dtype=np.int8)
    n = table.size
    big = stacked(table, kept, chosen, loss_points(table))
    ctx = Context(big, regulations, np.zeros(big.size, dtype=np.int64))
    flags = sorted({spec.forfeits_played for spec in specs})
    columns = {f: ctx.opponent_columns(f) for f in flags}
    point_terms = []
    for p in range(n):
        mine = own.get(p, [])
        points = final_scores(table, [kept[g] for g in mine], outcome_codes(len(mine)))[:, p]
        point_terms.append(Term(mine, points.astype(np.int64)))
    rule_parts: dict[int, list[Part]] = {}
    for p in parts.valued:
        rows = np.arange(len(chosen)) * n + p
        made = []
        for spec in specs:
            c = columns[spec.forfeits_played]
            counted, vur = c.counted[rows], c.vur[rows]
            # C.07 16.5's choices are fixed only when the counted and the unplayed rounds are
            if (counted != counted[0]).any() or (vur != vur[0]).any():
                return None
            terms = []
            for r in np.flatnonzero(counted[0]).tolist():
                value = c.key[rows, r] * (big.pts[rows, r] if spec.code == "SB" else 1)
                terms.append(_reduced(read[(p, r)], value[shown[(p, r)]].astype(np.int64)))
            part = Part(terms)
            if spec.cut and terms:
                rounds = np.flatnonzero(counted[0]).tolist()
                unplayed = [t for t, r in zip(terms, rounds, strict=True) if vur[0, r]]
                # C.07 16.5.1: the least voluntary unplayed round is cut when there is one (its
                # value is never below the least of all rounds, so it is the higher of the two)
                part = Part(terms, cut_from=unplayed or terms)
            made.append(part)
        rule_parts[p] = made
    # one radix per rule: every valued player's values fit in it, so the combined key orders as
    # the engine's sort does (points, then each rule in turn)
    bounds = [[rule_parts[p][i].bounds() for p in parts.valued] for i in range(len(specs))]
    offsets = [min(int(t.value.min()) for t in point_terms)]
    radix = []
    for per_rule in bounds:
        low = min((b[0] for b in per_rule), default=0)
        high = max((b[1] for b in per_rule), default=0)
        offsets.append(low)
        radix.append(high - low + 1)
    span = 1
    for r in radix:
        span *= r
    if (max(int(t.value.max()) for t in point_terms) - offsets[0] + 1) * span >= 2**62:
        return None
    keys = []
    for p in range(n):
        made = rule_parts.get(p, [])
        if p not in rule_parts:  # points alone set this player apart from every reported one
            made = [Part([Term([], np.array([offsets[i + 1]], dtype=np.int64))]) for i in range(len(specs))]
        read_all = sorted({g for part in made for t in part.terms for g in t.games} | set(point_terms[p].games))
        least, most = int(point_terms[p].value.min()), int(point_terms[p].value.max())
        low, high = least - offsets[0], most - offsets[0]
        for part, offset, r in zip(made, offsets[1:], radix, strict=True):
            a, b = part.bounds()
            low, high = low * r + (a - offset), high * r + (b - offset)
        keys.append(FormulaKey(read_all, point_terms[p], made, offsets, radix, low, high, least, most))
    return keys


def _reduced(games: list[int], value: np.ndarray) -> Term:
    """The table without the games it does not vary with (a forfeit's scheduled opponent's, say)."""
    cube = value.reshape((3,) * len(games))
    keep = []
    for axis, g in enumerate(games):
        if (np.diff(cube, axis=axis) != 0).any():
            keep.append(g)
        else:
            cube = cube.take([0], axis=axis)
    return Term(keep, cube.reshape(-1))


def _term_expr(
    model: cp_model.CpModel, term: Term, result: Mapping[int, list[cp_model.IntVar]]
) -> cp_model.LinearExprT:
    return lookup_expression(model, term.games, [int(v) for v in term.value], result)


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


def _part_expr(
    model: cp_model.CpModel, part: Part, result: Mapping[int, list[cp_model.IntVar]]
) -> cp_model.LinearExprT:
    exprs = [_term_expr(model, t, result) for t in part.terms]
    total: Any = sum(exprs)
    if part.cut_from:
        least = model.new_int_var(
            min(int(t.value.min()) for t in part.cut_from), max(int(t.value.max()) for t in part.cut_from), ""
        )
        cut = exprs if part.cut_from is part.terms else [_term_expr(model, t, result) for t in part.cut_from]
        model.add_min_equality(least, cut)  # C.07 16.5: the least contribution of those is cut
        total = total - least
    return cast(cp_model.LinearExprT, total)
