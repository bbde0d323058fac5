"""Best and worst rank of each team over every outcome of the open matches, by a CP-SAT model
(SPEC 3.11.1, team events; docs/scenarios.md, "Team events"; decision 0295).

The unknown of an open match is its game points: one value per way its open boards can add up
(with 1-½-0 boards, 2 × boards + 1 values, home's game points from 0 to all), a boolean per value,
exactly one true. Everything the rules read follows from those values: a team's game points in
the round, the match points (more game points wins the match, C.07 11; the event's own values),
each team's totals, and from the totals the opponents' scores that Buchholz and the extended
Sonneborn-Berger family add up. What does not depend on the open matches (the rounds played, byes,
forfeits, the closing runs of C.07 16.3, which rounds count a dummy opponent) is read from the
team engine's own columns, built once with the open boards drawn: only the open matches vary.

The values are written as affine forms over those booleans (`Lin`); a dummy's cap (C.07 16.4.1),
a cut (16.5) and a product whose factors depend on two matches are the few nodes that need a
variable of their own. A team's sort key is its primary score then each rule's value (larger ranks
first), compared column by column in the model and read as one integer for the ranges that settle
rivals before solving; the rank is one more than the teams with a greater key (C.07 4.1), asked as
in engine/scenario_solver.py: the best rank minimises the rivals counted ahead, the worst
maximises them. Rules not written here are refused by the caller, never approximated
(`unmodelled`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from ..model import Regulations
from ..rules import RuleSpec
from ..scenario_solver import Extreme, PlayerRanks, Stats
from ..table import NO_OPPONENT
from ..unplayed import policy_of
from .build import build_team_tables
from .context import TeamContext
from .families import esb_scores
from .model import Score, TeamTournament
from .registry import TEAM_TIEBREAKS
from .standings import primary_score

SECONDS_PER_QUESTION = 5.0  # CP-SAT deterministic time per question: past it, `undecided`
ESB_CODES = frozenset({"ESB", "EMMSB", "EMGSB", "EGMSB", "EGGSB"})
MODELLED = frozenset({"PTS", "MPvGP", "BH", "SB", *ESB_CODES})


def unmodelled(specs: Sequence[RuleSpec]) -> list[int]:
    """The indices of the rules this model does not write (a 422 names them): the board rules, the
    group rules (EDE and its chains), cuts past one and medians, and what else is not above. Rules
    dropped for teams (no team meaning) change no rank and are skipped."""
    refused = []
    for i, spec in enumerate(specs):
        entry = TEAM_TIEBREAKS[spec.code]
        if entry.dropped_why:
            continue
        if spec.code not in MODELLED or spec.cut > 1 or spec.median or spec.fore or spec.limit is not None:
            refused.append(i)
    return refused


# ---- affine forms over the open matches' values, and the few nodes that need a variable ----


class Lin:
    """const + Σ over open matches of a coefficient per value (exactly one value of each is true)."""

    __slots__ = ("const", "coef")

    def __init__(self, const: int = 0, coef: dict[int, tuple[int, ...]] | None = None) -> None:
        self.const = int(const)
        self.coef: dict[int, tuple[int, ...]] = {}
        for m, row in (coef or {}).items():  # each match's least coefficient moved into the constant
            least = min(row)
            self.const += least
            if any(v != least for v in row):
                self.coef[m] = tuple(v - least for v in row)

    def __add__(self, other: Lin) -> Lin:
        coef = dict(self.coef)
        for m, row in other.coef.items():
            mine = coef.get(m)
            coef[m] = row if mine is None else tuple(a + b for a, b in zip(mine, row, strict=True))
        return Lin(self.const + other.const, coef)

    def scaled(self, k: int) -> Lin:
        return Lin(self.const * k, {m: tuple(v * k for v in row) for m, row in self.coef.items()})

    def low(self) -> int:
        return self.const

    def high(self) -> int:
        return self.const + sum(max(row) for row in self.coef.values())

    def at(self, x: Sequence[int]) -> int:
        return self.const + sum(row[x[m]] for m, row in self.coef.items())

    def within(self, choice: dict[int, list[int]]) -> tuple[int, int]:
        """Its least and greatest value where each match takes only the values `choice` allows."""
        low = high = self.const
        for m, row in self.coef.items():
            allowed = [row[v] for v in choice[m]]
            low += min(allowed)
            high += max(allowed)
        return low, high

    def matches(self) -> set[int]:
        return set(self.coef)

    def table(self, m: int, size: int) -> list[int]:
        """Its value per value of match `m` (it reads no other match)."""
        row = self.coef.get(m, (0,) * size)
        return [self.const + v for v in row]


class Node:
    """A value that is no affine form: the least or greatest of some, a product, a weighted sum."""

    def low(self) -> int:
        raise NotImplementedError

    def high(self) -> int:
        raise NotImplementedError

    def at(self, x: Sequence[int]) -> int:
        raise NotImplementedError

    def within(self, choice: dict[int, list[int]]) -> tuple[int, int]:
        raise NotImplementedError


Expr = Lin | Node


class Least(Node):
    def __init__(self, items: list[Expr], greatest: bool = False) -> None:
        self.items, self.greatest = items, greatest

    def low(self) -> int:
        pick = max if self.greatest else min
        return pick(e.low() for e in self.items)

    def high(self) -> int:
        pick = max if self.greatest else min
        return pick(e.high() for e in self.items)

    def at(self, x: Sequence[int]) -> int:
        pick = max if self.greatest else min
        return pick(e.at(x) for e in self.items)

    def within(self, choice: dict[int, list[int]]) -> tuple[int, int]:
        pick = max if self.greatest else min
        bounds = [e.within(choice) for e in self.items]
        return pick(b[0] for b in bounds), pick(b[1] for b in bounds)


class Product(Node):
    def __init__(self, a: Expr, b: Expr) -> None:
        self.a, self.b = a, b
        corners = [p * q for p in (a.low(), a.high()) for q in (b.low(), b.high())]
        self._low, self._high = min(corners), max(corners)

    def low(self) -> int:
        return self._low

    def high(self) -> int:
        return self._high

    def at(self, x: Sequence[int]) -> int:
        return self.a.at(x) * self.b.at(x)

    def within(self, choice: dict[int, list[int]]) -> tuple[int, int]:
        a, b = self.a.within(choice), self.b.within(choice)
        corners = [p * q for p in a for q in b]
        return min(corners), max(corners)


class Weighted(Node):
    """Σ weight × item + const."""

    def __init__(self, terms: list[tuple[int, Expr]], const: int = 0) -> None:
        self.terms, self.const = terms, const

    def low(self) -> int:
        return self.const + sum(w * (e.low() if w > 0 else e.high()) for w, e in self.terms)

    def high(self) -> int:
        return self.const + sum(w * (e.high() if w > 0 else e.low()) for w, e in self.terms)

    def at(self, x: Sequence[int]) -> int:
        return self.const + sum(w * e.at(x) for w, e in self.terms)

    def within(self, choice: dict[int, list[int]]) -> tuple[int, int]:
        low = high = self.const
        for w, e in self.terms:
            a, b = e.within(choice)
            low += w * (a if w > 0 else b)
            high += w * (b if w > 0 else a)
        return low, high


def _constant(e: Expr) -> bool:
    return isinstance(e, Lin) and not e.coef


def least(items: list[Expr], greatest: bool = False) -> Expr:
    """The least (greatest) of the items; constants folded, and one item is itself."""
    pick = max if greatest else min
    fixed = [e.const for e in items if isinstance(e, Lin) and not e.coef]
    rest = [e for e in items if not _constant(e)]
    if fixed:
        rest.append(Lin(pick(fixed)))
    if len(rest) == 1:
        return rest[0]
    return Least(rest, greatest)


def product(a: Expr, b: Expr, sizes: Sequence[int]) -> Expr:
    """a × b: an affine form when a factor is constant or both read the same one match."""
    if _constant(a):
        return _times(b, a.const)  # type: ignore[union-attr]
    if _constant(b):
        return _times(a, b.const)  # type: ignore[union-attr]
    if isinstance(a, Lin) and isinstance(b, Lin) and len(a.matches() | b.matches()) == 1:
        (m,) = a.matches() | b.matches()
        return Lin(0, {m: tuple(p * q for p, q in zip(a.table(m, sizes[m]), b.table(m, sizes[m]), strict=True))})
    return Product(a, b)


def _times(e: Expr, k: int) -> Expr:
    return e.scaled(k) if isinstance(e, Lin) else Weighted([(k, e)])


def added(items: Iterable[tuple[int, Expr]], const: int = 0) -> Expr:
    """Σ weight × item + const, an affine form while every item is one."""
    lin = Lin(const)
    nodes: list[tuple[int, Expr]] = []
    for w, e in items:
        if isinstance(e, Lin):
            lin = lin + e.scaled(w)
        else:
            nodes.append((w, e))
    if not nodes:
        return lin
    return Weighted([*nodes, (1, lin)])


# ---- the event as the model reads it ----


@dataclass(frozen=True, slots=True)
class MatchValue:
    """One way an open match's open boards add up: home's open boards won, drawn, lost (the
    first such split found: any split with these game points gives the same ranks)."""

    home_gp: int  # units, every board of the match (the fixed ones too)
    away_gp: int
    home_mp: int  # units, the match's match points (awards added)
    away_mp: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True, slots=True)
class OpenMatch:
    match: int  # index in the event's matches
    round: int  # 0-based
    home: int  # team rows
    away: int
    values: tuple[MatchValue, ...]


class NotModelled(Exception):
    """A case this model does not write exactly (the caller refuses it, naming why)."""


@dataclass
class TeamModel:
    """Each team's sort key as expressions of the open matches' values."""

    opened: list[OpenMatch]
    columns: list[list[Expr]]  # per column (the primary score, then each rule), per team row
    keys: list[Expr]  # per team row: the columns as one integer (larger ranks first), for bounds and checks
    own_first: bool = False  # a team's own matches can be fixed first (`_own_fixed`)
    forms: _Forms = field(default_factory=lambda: _Forms())
    reads: list[set[int]] = field(default_factory=list)  # per team row: the open matches its key reads
    bounds: list[tuple[int, int]] = field(default_factory=list)  # per team row: its key's range

    @property
    def sizes(self) -> list[int]:
        return [len(o.values) for o in self.opened]


def match_values(event: TeamTournament, scale: int, open_boards: int, fixed: tuple[int, int]) -> list[MatchValue]:
    """Every distinct (home, away) game points of a match whose `open_boards` are open, the other
    boards adding up to `fixed` (units); the match points each gives (C.07 11: more game points
    win the match; the event's values)."""
    s = event.scoring

    def units(v: Fraction) -> int:
        return int(Fraction(v) * scale)

    gw, gd, gl = units(s.game_win), units(s.game_draw), units(s.game_loss)
    mw, md, ml = units(s.match_win), units(s.match_draw), units(s.match_loss)
    seen: dict[tuple[int, int], MatchValue] = {}
    for wins in range(open_boards, -1, -1):
        for draws in range(open_boards - wins, -1, -1):
            losses = open_boards - wins - draws
            home = fixed[0] + wins * gw + draws * gd + losses * gl
            away = fixed[1] + wins * gl + draws * gd + losses * gw
            if (home, away) in seen:
                continue
            mp = (mw, ml) if home > away else (ml, mw) if home < away else (md, md)
            seen[(home, away)] = MatchValue(home, away, mp[0], mp[1], wins, draws, losses)
    return sorted(seen.values(), key=lambda v: (v.home_gp, -v.away_gp))


def team_model(
    event: TeamTournament,
    specs: list[RuleSpec],
    regulations: Regulations,
    after_round: int,
    open_boards: dict[int, int],
) -> TeamModel:
    """The model of `event` (its open boards drawn) whose matches `open_boards` (match index ->
    how many of its boards are open) are the unknowns."""
    tables = build_team_tables(event, after_round)
    primary = primary_score(event, specs)
    ctx = TeamContext.of(tables, regulations, primary)
    mp_table = tables.mp
    scale = mp_table.scale
    n, rounds = mp_table.size, mp_table.played_rounds
    row = {tid: i for i, tid in enumerate(mp_table.ids)}
    award = {Score.MP: np.zeros((n, event.rounds), np.int64), Score.GP: np.zeros((n, event.rounds), np.int64)}
    for given in event.awards:  # TRF-26 299: added to the round's points, the match's result unchanged
        award[Score.MP][row[given.team], given.round - 1] += int(given.match_points * scale)
        award[Score.GP][row[given.team], given.round - 1] += int(given.game_points * scale)
    draw = int(event.scoring.game_draw * scale)
    opened: list[OpenMatch] = []
    pts: dict[Score, list[list[Lin]]] = {
        score: [[Lin(int(v)) for v in line] for line in tables.table(score).pts.tolist()] for score in Score
    }
    for k, count in sorted(open_boards.items()):
        match = event.matches[k]
        r = match.round - 1
        if r >= rounds:
            continue  # after the rounds ranked: changes nothing
        h, a = row[match.home], row[match.away]
        gp = tables.gp.pts
        # the boards' own points: the round's less the awards, less the open boards (drawn here)
        fixed = (
            int(gp[h, r]) - int(award[Score.GP][h, r]) - count * draw,
            int(gp[a, r]) - int(award[Score.GP][a, r]) - count * draw,
        )
        values = tuple(match_values(event, scale, count, fixed))
        m = len(opened)
        opened.append(OpenMatch(k, r, h, a, values))
        for score, side in ((Score.MP, "mp"), (Score.GP, "gp")):
            home = tuple(int(getattr(v, f"home_{side}")) for v in values)
            away = tuple(int(getattr(v, f"away_{side}")) for v in values)
            pts[score][h][r] = Lin(int(award[score][h, r]), {m: home})
            pts[score][a][r] = Lin(int(award[score][a, r]), {m: away})
    sizes = [len(o.values) for o in opened]
    total = {score: [added((1, p) for p in line[:rounds]) for line in pts[score]] for score in Score}
    adjusted = {}
    for score in Score:
        table = tables.table(score)
        shift = ctx.on(score).adjusted() - table.score  # C.07 16.3: fixed, the open rounds are games
        adjusted[score] = [added([(1, total[score][t])], int(shift[t])) for t in range(n)]
    columns: list[list[Expr]] = [[total[primary][t] for t in range(n)]]
    keyed: list[Score] = []  # the scores the opponents' keys are read on
    policy = policy_of(regulations)
    assert not policy.virtual_opponent, (
        "team events refuse fide-2009 when they are read (engine/teams: resolve_team_regulations)"
    )
    for spec in specs:
        entry = TEAM_TIEBREAKS[spec.code]
        if entry.dropped_why:
            continue  # dropped for teams: the same for every team in every outcome
        if spec.code == "PTS":
            if ctx.score_of(spec) is not primary:  # on the primary score it repeats the first column
                columns.append([total[ctx.score_of(spec)][t] for t in range(n)])
            continue
        if spec.code == "MPvGP":  # C.07 13.1: the secondary score
            columns.append([total[ctx.secondary][t] for t in range(n)])
            continue
        if spec.code == "BH":
            first = second = ctx.score_of(spec)
            weighted = False
        elif spec.code == "SB":
            first = second = ctx.score_of(spec)
            weighted = True
        elif spec.code in ESB_CODES:
            first, second = esb_scores(spec.code, primary)  # C.07 13.2
            weighted = True
        else:
            raise NotModelled(spec.canonical)
        keyed.append(first)
        fctx = ctx.on(first)
        oc = fctx.opponent_columns(spec.forfeits_played)
        ftable = fctx.table
        column = []
        for t in range(n):
            items: list[tuple[Expr, Expr, bool]] = []  # (key, value, voluntary unplayed) per counted round
            for r in range(rounds):
                if not oc.counted[t, r]:
                    continue
                opp = int(ftable.opp[t, r])
                if not oc.dummy[t, r]:
                    key: Expr = adjusted[first][opp]
                else:  # C.07 16.4: a dummy opponent with the team's own score ...
                    key = total[first][t]
                    if policy.capped:  # ... capped (16.4.1 a forfeit's scheduled opponent, 16.4.2 a bye)
                        cap = adjusted[first][opp] if opp != NO_OPPONENT else Lin(ftable.draw * rounds)
                        key = least([key, cap])
                value = product(key, pts[second][t][r], sizes) if weighted else key
                items.append((key, value, bool(oc.vur[t, r])))
            kept = added((1, v) for _, v, _ in items)
            if spec.cut and items:
                kept = added([(1, kept), (-1, _cut(items, weighted))])
            column.append(kept)
        columns.append(column)
    s = event.scoring
    own_first = (
        primary is Score.MP
        and s.match_win > s.match_draw > s.match_loss
        and s.game_win > s.game_draw > s.game_loss
        and s.game_win + s.game_loss == 2 * s.game_draw  # home's game points decide away's
        and all(first is Score.MP for first in keyed)
    )
    keys = _combined(columns)
    found = TeamModel(opened, columns, keys, own_first)
    memo: dict[int, set[int]] = {}
    found.reads = [_reads(k, memo) for k in keys]
    found.bounds = [(k.low(), k.high()) for k in keys]
    return found


def _reads(e: Expr, memo: dict[int, set[int]]) -> set[int]:
    """The open matches an expression reads."""
    if id(e) not in memo:
        if isinstance(e, Lin):
            memo[id(e)] = set(e.coef)
        elif isinstance(e, Least):
            memo[id(e)] = set().union(*(_reads(i, memo) for i in e.items))
        elif isinstance(e, Product):
            memo[id(e)] = _reads(e.a, memo) | _reads(e.b, memo)
        else:
            assert isinstance(e, Weighted)
            memo[id(e)] = set().union(*(_reads(i, memo) for _, i in e.terms))
    return memo[id(e)]


def _cut(items: list[tuple[Expr, Expr, bool]], weighted: bool) -> Expr:
    """What Cut-1 removes (C.07 16.5, engine/modifiers.py `cut_reasons`): the least significant
    entry's value (lowest key, then value), or the lowest voluntary unplayed round's value when it
    is not smaller (an unplayed round never helps)."""
    keys = [k for k, _, _ in items]
    if not weighted:  # Buchholz: the value is the key
        lowest = least(keys)
    else:
        if any(v.low() < 0 or k.low() < 0 for k, v, _ in items):
            raise NotModelled("a negative value under a cut")
        span = max(v.high() for _, v, _ in items) + 1
        # the value at the least (key, value): min(key × span + value) − span × min(key)
        lowest = added([(1, least([added([(span, k), (1, v)]) for k, v, _ in items])), (-span, least(keys))])
    unplayed = [v for _, v, vur in items if vur]
    if not unplayed:
        return lowest
    return least([least(unplayed), lowest], greatest=True)


def _combined(columns: list[list[Expr]]) -> list[Expr]:
    """Per team, the columns as one integer, the first most significant (each column shifted to
    start at 0 and weighted by the spans of the later ones)."""
    n = len(columns[0])
    weight = 1
    terms: list[list[tuple[int, Expr]]] = [[] for _ in range(n)]
    shift = [0] * n
    for column in reversed(columns):
        lo = min(e.low() for e in column)
        hi = max(e.high() for e in column)
        for t, e in enumerate(column):
            terms[t].append((weight, e))
            shift[t] -= weight * lo
        weight *= hi - lo + 1
    return [added(terms[t], shift[t]) for t in range(n)]


# ---- the questions ----


class _Forms:
    """Each expression as (match, value, weight) terms over the booleans, node terms and a constant:
    the same for every question's model, so computed once per TeamModel."""

    def __init__(self) -> None:
        self.found: dict[int, tuple[list[tuple[int, int, int]], list[tuple[Node, int]], int]] = {}

    def of(self, e: Expr) -> tuple[list[tuple[int, int, int]], list[tuple[Node, int]], int]:
        if id(e) in self.found:
            return self.found[id(e)]
        if isinstance(e, Lin):
            pairs = [(m, v, row[v]) for m, row in e.coef.items() for v in range(len(row)) if row[v]]
            found: tuple[list[tuple[int, int, int]], list[tuple[Node, int]], int] = (pairs, [], e.const)
        elif isinstance(e, Weighted):
            merged: dict[tuple[int, int], int] = {}
            nodes: dict[int, list[Any]] = {}
            const = e.const
            for w, item in e.terms:
                pairs, inner, c = self.of(item)
                const += w * c
                for m, v, weight in pairs:
                    merged[(m, v)] = merged.get((m, v), 0) + w * weight
                for node, weight in inner:
                    nodes.setdefault(id(node), [node, 0])[1] += w * weight
            found = ([(m, v, k) for (m, v), k in merged.items() if k], [(n, k) for n, k in nodes.values() if k], const)
        else:
            assert isinstance(e, Node)
            found = ([], [(e, 1)], 0)
        self.found[id(e)] = found
        return found


@dataclass
class _Builder:
    """One CP-SAT model: the booleans of the open matches' values and a variable per node."""

    model: cp_model.CpModel
    bools: list[list[Any]]
    forms: _Forms
    nodes: dict[int, Any] = field(default_factory=dict)
    flats: dict[int, tuple[list[Any], list[int], int]] = field(default_factory=dict)

    def linear(self, e: Expr) -> Any:
        variables, weights, const = self.flat(e)
        return cp_model.LinearExpr.weighted_sum(variables, weights) + const

    def flat(self, e: Expr) -> tuple[list[Any], list[int], int]:
        """The expression as variables, their weights and a constant (written once per model)."""
        if id(e) in self.flats:
            return self.flats[id(e)]
        pairs, nodes, const = self.forms.of(e)
        variables = [self.bools[m][v] for m, v, _ in pairs] + [self.var(node) for node, _ in nodes]
        weights = [w for _, _, w in pairs] + [w for _, w in nodes]
        found = (variables, weights, const)
        self.flats[id(e)] = found
        return found

    def var(self, e: Expr) -> Any:
        if id(e) in self.nodes:
            return self.nodes[id(e)]
        v = self.model.new_int_var(e.low(), e.high(), "")
        if isinstance(e, Least):
            parts = [self.linear(item) for item in e.items]
            if e.greatest:
                self.model.add_max_equality(v, parts)
            else:
                self.model.add_min_equality(v, parts)
        elif isinstance(e, Product):
            self.model.add_multiplication_equality(v, [self.var_of(e.a), self.var_of(e.b)])
        else:
            self.model.add(v == self.linear(e))
        self.nodes[id(e)] = v
        return v

    def var_of(self, e: Expr) -> Any:
        if isinstance(e, Lin | Weighted):
            if id(e) not in self.nodes:
                v = self.model.new_int_var(e.low(), e.high(), "")
                self.model.add(v == self.linear(e))
                self.nodes[id(e)] = v
            return self.nodes[id(e)]
        return self.var(e)


def solve_team_ranks(
    model: TeamModel,
    reported: list[int],
    allowed: dict[int, list[int]] | None = None,
    seconds_per_question: float = SECONDS_PER_QUESTION,
    between: Callable[[], None] = lambda: None,
    stats: Stats | None = None,
    known: Sequence[Extreme | None] = (None, None),
) -> tuple[list[PlayerRanks], Stats]:
    """Each reported team's best and worst rank over every outcome; `allowed` narrows some open
    matches (open-match index -> the values they may take), as by_own_result asks, and `known`
    (one reported team) gives a best, a worst already proved over these outcomes."""
    started = time.perf_counter()
    stats = stats if stats is not None else Stats()
    keys = model.keys
    sizes = model.sizes
    choice = {m: list(range(size)) for m, size in enumerate(sizes)}
    choice.update(allowed or {})
    answers = []
    for j in reported:
        extremes = []
        for minimise, given in zip((True, False), known, strict=True):
            stats.asked += 1
            if given is not None:
                stats.by_solver += 1
                extremes.append(given)
                continue
            narrowed = _own_fixed(model, j, choice, minimise)
            # the keys' ranges over the outcomes asked about: rivals above j's every key are ahead,
            # those at most j's least are not, whatever the results (C.07 4.1)
            changed = {m for m, values in narrowed.items() if len(values) < sizes[m]}
            low, high = zip(
                *(key.within(narrowed) if model.reads[k] & changed else model.bounds[k] for k, key in enumerate(keys)),
                strict=True,
            )
            ahead = sum(1 for k in range(len(keys)) if k != j and low[k] > high[j])
            crossing = [k for k in range(len(keys)) if k != j and low[k] <= high[j] and high[k] > low[j]]
            if not crossing:  # nobody's place relative to j depends on the results
                stats.by_pruning += 1
                example = np.array([c[len(c) // 2] for _, c in sorted(narrowed.items())], dtype=np.int64)
                extremes.append(Extreme(1 + ahead, example, True))
                continue
            extreme = _question(model, j, crossing, ahead, minimise, narrowed, seconds_per_question)
            if extreme.proved:
                stats.by_solver += 1
            else:
                stats.undecided += 1
            extremes.append(extreme)
        answers.append(PlayerRanks(*extremes))
        between()
    stats.seconds += time.perf_counter() - started
    return answers, stats


def _own_fixed(model: TeamModel, j: int, choice: dict[int, list[int]], minimise: bool) -> dict[int, list[int]]:
    """With `model.own_first`, team j's own open matches taken at j's most game points for its best
    rank and its least for its worst (decision 0295): more game points in its own match never move
    a rival ahead of j. Its match points only rise with them (the rivals level or above j with more
    are above it with fewer), the opponent's only fall, and within one match result what changes is
    j's own game points (its secondary score, its Sonneborn-Berger products: higher, cuts included)
    and its opponent's (lower); the opponents' keys read match points, which stay."""
    if not model.own_first:
        return choice
    narrowed = dict(choice)
    for m, o in enumerate(model.opened):
        if j in (o.home, o.away):
            mine = [o.values[v].home_gp if j == o.home else o.values[v].away_gp for v in choice[m]]
            pick = max(mine) if minimise else min(mine)
            narrowed[m] = [v for v, g in zip(choice[m], mine, strict=True) if g == pick][:1]
    return narrowed


def _lexicographic(cp: cp_model.CpModel, theirs: list[Any], mine: list[Any], when: Any, strict: bool) -> None:
    """`when` implies theirs > mine (strict) or theirs <= mine, column by column: the first column
    that differs decides (the standings' order, C.07 4.1). Column by column rather than one wide
    integer: small coefficients, a tight relaxation."""
    level = when  # every earlier column equal
    last = len(mine) - 1
    for c in range(last):
        decided = cp.new_bool_var("")  # this column decides
        cp.add_implication(decided, level)
        if strict:
            cp.add(theirs[c] >= mine[c] + 1).only_enforce_if(decided)
        else:
            cp.add(theirs[c] <= mine[c] - 1).only_enforce_if(decided)
        cp.add(theirs[c] == mine[c]).only_enforce_if([level, ~decided])
        further = cp.new_bool_var("")  # level on this column too
        cp.add_bool_and([level, ~decided]).only_enforce_if(further)
        cp.add_bool_or([~level, decided, further])
        level = further
    if strict:
        cp.add(theirs[last] >= mine[last] + 1).only_enforce_if(level)
    else:
        cp.add(theirs[last] <= mine[last]).only_enforce_if(level)


def rank_at(model: TeamModel, j: int, x: Sequence[int], rivals: Sequence[int] | None = None, ahead: int = 0) -> int:
    """Team j's rank in one outcome: one more than the teams with a greater key (C.07 4.1); with
    `rivals`, only those are compared, `ahead` others being above j in every outcome asked about."""
    mine = model.keys[j].at(x)
    compared = (k for k in range(len(model.keys)) if k != j) if rivals is None else rivals
    return 1 + ahead + sum(1 for k in compared if model.keys[k].at(x) > mine)


def _question(
    model: TeamModel,
    j: int,
    crossing: list[int],
    ahead: int,
    minimise: bool,
    choice: dict[int, list[int]],
    seconds: float,
) -> Extreme:
    cp = cp_model.CpModel()
    bools = []
    for m, size in enumerate(model.sizes):
        row = [cp.new_bool_var(f"m{m}v{v}") for v in range(size)]
        cp.add_exactly_one(row)
        for v in range(size):
            if v not in choice[m]:
                cp.add(row[v] == 0)
        bools.append(row)
    b = _Builder(cp, bools, model.forms)
    mine = [b.var_of(column[j]) for column in model.columns]
    counted = []
    for k in crossing:
        theirs = [b.linear(column[k]) for column in model.columns]
        a = cp.new_bool_var(f"ahead{k}")
        if minimise:  # not counted: not above j
            _lexicographic(cp, theirs, mine, ~a, strict=False)
        else:  # counted only when above j (level teams share the rank)
            _lexicographic(cp, theirs, mine, a, strict=True)
        counted.append(a)
    if minimise:
        cp.minimize(sum(counted))
    else:
        cp.maximize(sum(counted))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic, and the machine's other core stays free
    # deterministic time, not the clock's: a busy machine gives the same answer
    solver.parameters.max_deterministic_time = seconds
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.symmetry_level = 0
    status = solver.solve(cp)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        rank = 1 + ahead if minimise else 1 + ahead + len(crossing)  # the bound the ranges give
        return Extreme(rank, None, False)
    example = np.array([next(v for v in range(len(row)) if solver.value(row[v])) for row in bools], dtype=np.int64)
    # the rank recounted from every key at the outcome found: what /v1/standings gives for it
    return Extreme(rank_at(model, j, example.tolist(), crossing, ahead), example, status == cp_model.OPTIMAL)
