"""Best and worst rank of each reported player over every outcome of many open games, by a CP-SAT
model (OR-Tools) instead of enumerating 3**games outcomes (SPEC 3.11.1; docs/scenarios.md,
"The solver"; decision 0220).

The model's unknowns are the open games' results: three booleans per game, exactly one true. Each
player's sort key (points, then the rules' values, as one integer: larger ranks first) is not
re-derived from the rules' formulas: it comes from the engine itself, computed once per
combination of the few open games it depends on (`scenario_parts._sort_keys`), and the model reads
it as a table indexed by those games' results (`AddElement`). So every rule the engine computes
outside the tie groups is modelled exactly, with no formula written twice. Past `MOST_READ` games
per player, the rules engine/scenario_formulas.py writes as sums over rounds are read so
(`FormulaKey`, decision 0270); any other list is refused by the use case, never approximated.

The ranking: a shared rank is one more than the players whose key is greater (C.07 4.1, the
standings' rank). For player j a boolean per rival k says "k is counted ahead". The best rank
minimises their count with k forced ahead whenever key_k > key_j; the worst rank maximises it with
k counted only when key_k > key_j. Rivals ahead or behind in every outcome (their least key above
j's greatest, or their greatest at most j's least) are counted as constants before solving. j's
own results are fixed first (most points for the best rank, least for the worst), which settles
more rivals, and the others are compared on points, then on the values alone (decision 0260).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from .scenario_formulas import Cut, FormulaKey, Part, Term, lookup_expression, part_expression, reduced
from .scenario_parts import Key, TooWide, combination, compared
from .scenarios import outcome_codes

AnyKey = Key | FormulaKey  # a table over combinations, or sums over rounds (scenario_formulas)

# A player's key is a table of 3**games values: past this many games read per player, the model
# (and the engine's covering outcomes) would grow as enumeration does.
MOST_READ = 6
__all__ = ["MOST_READ", "Shared", "TooWide", "solve_ranks"]
SECONDS_PER_QUESTION = 5.0  # per question, in CP-SAT deterministic time (about seconds): past it `undecided`
# The first, quick pass of each question (no LP relaxation), in deterministic time; the rest of
# SECONDS_PER_QUESTION goes to the passes with the LP when the quick one leaves it open:
# (linearization level, share of the rest), in turn until one proves it (decision 0290).
QUICK_SECONDS = 0.25
# The worst rank's floor (decision 0291): j's least value, by a small model over j's own games.
LEAST_SECONDS = 0.05
FULL_PASSES = ((2, 0.3), (1, 0.7))
# A question whose rivals' keys read at most this many outcomes of open games (3**8) is answered by
# counting them all, which beats the model at that size; the model takes the larger ones.
ENUMERATE_UP_TO = 3**8


@dataclass(slots=True)
class Extreme:
    """One question's answer: the rank, an outcome giving it (a result code per kept game), and
    whether the solver proved it (False: the time bound ran out; `rank` is then what the outcome
    found gives, or with none found the bound the keys' ranges give)."""

    rank: int
    example: np.ndarray | None
    proved: bool


@dataclass(slots=True)
class PlayerRanks:
    best: Extreme
    worst: Extreme


@dataclass(slots=True)
class Stats:
    asked: int = 0  # questions (a best or a worst rank per reported player)
    by_pruning: int = 0  # settled by the keys' ranges alone
    by_solver: int = 0  # settled by the solver, proved optimal
    undecided: int = 0  # not settled within the per-question time bound
    seconds: float = 0.0


def solve_ranks(
    keys: list[AnyKey],
    games: int,
    reported: list[int],
    seconds_per_question: float | None = None,
    between: Callable[[], None] = lambda: None,
    known: tuple[Extreme | None, Extreme | None] = (None, None),
    shared: Shared | None = None,
) -> tuple[list[PlayerRanks], Stats]:
    """Each reported player's best and worst rank over every outcome of `games` open games.
    `known` (one reported player): a best, a worst rank already proved over these same outcomes,
    used as it is instead of asked again (counted as settled by the solver), or an outcome found
    without a model that answers the caller's question (not proved: counted as by pruning).
    `shared`: what an earlier call over keys of the same request computed (`Shared`)."""
    started = time.perf_counter()
    seconds = SECONDS_PER_QUESTION if seconds_per_question is None else seconds_per_question
    stats = Stats()
    low, high, least, most = key_bounds(keys)
    answers = []
    shared = Shared() if shared is None else shared
    for j in reported:
        c = compared(j, low, high, least, most)
        stats.asked += 2
        if not c.ahead_if:  # nobody's place relative to j depends on the results
            stats.by_pruning += 2
            drawn = np.ones(games, dtype=np.int8)
            answers.append(PlayerRanks(Extreme(1 + c.ahead, drawn, True), Extreme(1 + c.ahead, drawn, True)))
            continue
        extremes = []
        for minimise, given in zip((True, False), known, strict=True):
            if given is not None:
                extremes.append(given)
                if given.proved:
                    stats.by_solver += 1
                else:  # an outcome at hand that answers what the caller asks (decision 0263)
                    stats.by_pruning += 1
                continue
            question = _Question(keys, games, j, c.ahead_if, 1 + c.ahead, minimise, low, high, shared)
            extreme, pruned = question.answer(seconds)
            extremes.append(extreme)
            if pruned:
                stats.by_pruning += 1
            elif extreme.proved:
                stats.by_solver += 1
            else:
                stats.undecided += 1
        answers.append(PlayerRanks(*extremes))
        between()
    stats.seconds = time.perf_counter() - started
    return answers, stats


def key_bounds(keys: list[AnyKey]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each key's least and greatest value, and its points' (what `compared` sets rivals apart by)."""
    low, high, least, most = (np.array(column, dtype=np.int64) for column in zip(*map(_bounds, keys), strict=True))
    return low, high, least, most


def _bounds(key: AnyKey) -> tuple[int, int, int, int]:
    """The key's least and greatest value, and the points'."""
    if isinstance(key, FormulaKey):
        return key.low, key.high, key.least, key.most
    return int(key.value.min()), int(key.value.max()), int(key.points.min()), int(key.points.max())


class _Question:
    """Player j's best (`minimise`) or worst rank. j's own results are fixed first: the best rank is
    reached with j's most points and the worst with j's least (decision 0260: more points for j
    only moves players out of j's points group, and the values that j's games change are only
    compared inside that group, where those players stood ahead already). With j's points known,
    a rival whose key is above j's every key at those points is ahead, one at most j's least is
    not: constants. The others are compared points first (a boolean per result of the rival's
    own games) and, when level on points, by the values alone (small coefficients: a tight
    relaxation)."""

    def __init__(
        self,
        keys: list[AnyKey],
        games: int,
        j: int,
        rivals: list[int],
        ahead: int,
        minimise: bool,
        low: np.ndarray,
        high: np.ndarray,
        shared: Shared,
    ) -> None:
        self.shared = shared
        self.keys, self.games, self.j, self.ahead, self.minimise = keys, games, j, ahead, minimise
        own, points = shared.points_of(keys[j])
        self.level = int(points.max() if minimise else points.min())
        self.own = own
        self.own_codes = outcome_codes(len(own))[int(np.flatnonzero(points == self.level)[0])]
        least, most = _range_at(keys[j], self.level)
        self.certain = [k for k in rivals if low[k] > most]
        self.crossing = [k for k in rivals if low[k] <= most and high[k] > least]

    def answer(self, seconds: float) -> tuple[Extreme, bool]:
        """The extreme, and whether the ranges alone settled it (no rival left to compare)."""
        base = self.ahead + len(self.certain)
        if not self.crossing:
            example = np.ones(self.games, dtype=np.int8)
            example[self.own] = self.own_codes
            return self._checked(Extreme(base, example, True), base), True
        used = sorted({g for k in (self.j, *self.crossing) for g in self.keys[k].games})
        if 3 ** len(used) <= ENUMERATE_UP_TO:
            return self._checked(self._enumerated(used), base), False
        return self._checked(self._modelled(used, seconds), base), False

    def _checked(self, extreme: Extreme, base: int) -> Extreme:
        """The rank of the outcome found recounted from every rival's key (not from the objective):
        what a client checking `example` through /v1/standings sees."""
        if extreme.example is None:  # nothing found in time: the bound by pruning
            extreme.rank = base if self.minimise else base + len(self.crossing)
            return extreme
        mine = _value(self.keys[self.j], extreme.example)
        extreme.rank = base + sum(_value(self.keys[k], extreme.example) > mine for k in self.crossing)
        return extreme

    def _enumerated(self, used: list[int]) -> Extreme:
        """Counted in every combination of the few games the question depends on (j's at its level)."""
        keys, j = self.keys, self.j
        codes = outcome_codes(len(used))  # (combinations, used games)
        full = np.ones((len(codes), self.games), dtype=np.int8)
        full[:, used] = codes
        mine = _values_at(keys[j], full)
        count = np.zeros(len(codes), dtype=np.int64)
        for k in self.crossing:
            count += _values_at(keys[k], full) > mine  # a shared rank: one more than the players with a greater key
        off_level = _points_at(keys[j], full) != self.level
        count[off_level] = np.iinfo(np.int64).max if self.minimise else -1
        best = int(np.argmin(count) if self.minimise else np.argmax(count))
        return Extreme(0, full[best], True)

    def _least(self, dense: dict[int, int]) -> int | None:
        """A proved lower bound of j's first value (the rules combined) with j's own results
        fixed: the least it takes when solved in time; None when there is nothing to bound."""
        key = self.keys[self.j]
        model = _Model()
        result = {g: [model.new_bool_var("") for _ in range(3)] for g in key.games}
        for bools in result.values():
            model.add_exactly_one(bools)
        for g, code in zip(self.own, self.own_codes, strict=True):
            model.add(result[g][int(code)] == 1)
        values = _values_expr(model, key, self.level, dense, result, _Terms(model, result, self.shared))
        if not values:
            return None
        model.minimize(values[0])
        solver = _solver(LEAST_SECONDS, 0)
        status = solver.solve(model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        # the value is an integer: a float bound's noise (5.000000000000001) must not lift it to 6
        return math.ceil(solver.best_objective_bound - 1e-6)

    def _modelled(self, used: list[int], seconds: float) -> Extreme:
        keys, j, level = self.keys, self.j, self.level
        model = _Model()
        # one boolean per result of each game (white, draw, black), exactly one true
        result = {g: [model.new_bool_var(f"g{g}r{r}") for r in range(3)] for g in used}
        for bools in result.values():
            model.add_exactly_one(bools)
        for g, code in zip(self.own, self.own_codes, strict=True):  # j's own results (the class's note)
            model.add(result[g][int(code)] == 1)
        terms = _Terms(model, result, self.shared)
        dense = _dense(keys, [j, *self.crossing], level)
        # j's values as variables: each is compared with every rival's, written out once
        values_j = [_as_var(model, e) for e in _values_expr(model, keys[j], level, dense, result, terms)]
        # the worst rank: a rival counted level with j is above j's least value too (implied; its
        # big-M is the rival's own range, not j's as well: a tighter LP; decision 0291)
        floor = None if self.minimise else self._least(dense)
        counted = []
        for k in self.crossing:
            own, more, level_truth = self.shared.at_level(keys[k], level)
            above = lookup_expression(model, own, more, result)
            level_with = _literal(model, own, level_truth, result)
            b = model.new_bool_var(f"ahead{k}")
            if self.minimise:  # more points: counted; level and not counted: values not above j's
                model.add(b >= above)
                if level_with is not False:
                    values_k = _values_expr(model, keys[k], level, dense, result, terms)
                    # the values at most j's; the first rule's alone too (implied, a tighter bound)
                    for mine, theirs in zip(values_j, values_k, strict=True):
                        model.add(theirs <= mine).only_enforce_if(_enforced(~b, level_with))
            else:  # counted only when above j (C.07 4.1: level players share the rank)
                if level_with is False:
                    model.add(b <= above)
                else:
                    level_expr = 1 if level_with is True else level_with
                    model.add(b <= above + level_expr)
                    values_k = _values_expr(model, keys[k], level, dense, result, terms)
                    model.add(values_k[0] >= values_j[0] + 1).only_enforce_if(_enforced(b, level_with))
                    if floor is not None:
                        model.add(values_k[0] >= floor + 1).only_enforce_if(_enforced(b, level_with))
                    # the first rule's alone at least j's (implied, a tighter bound)
                    for mine, theirs in zip(values_j[1:], values_k[1:], strict=True):
                        model.add(theirs >= mine).only_enforce_if(_enforced(b, level_with))
            counted.append(b)
        self._hint(model, result)
        total = sum(counted)
        if self.minimise:
            model.minimize(total)
        else:
            model.maximize(total)
        # the bound in CP-SAT's deterministic time, not the clock's: a busy machine gives the same answer
        # (the same `undecided`); the request's deadline still bounds the wall time (killable workers).
        # First without the LP relaxation, probing and symmetries: most questions are settled by a
        # short search, for which those passes cost more than they save; a question it leaves open
        # (the worst rank of a leader among ninety rivals, say) is asked again with the LP (decision
        # 0260): two passes, linearization levels 2 then 1 (each proves bounds the other misses: a
        # Karl-Mala leader's worst rank), both from the quick pass's outcome; the best outcome of
        # any pass and the tightest bound of any are kept, proved when they meet (decision 0290)
        solver = _solver(min(QUICK_SECONDS, seconds), 0)
        status = solver.solve(model)
        found = self._found(solver, status, result)
        if status == cp_model.OPTIMAL or seconds <= QUICK_SECONDS:
            return Extreme(0, found[1], status == cp_model.OPTIMAL)
        first = [int(solver.value(b)) for bools in result.values() for b in bools] if found[1] is not None else None
        bound = solver.best_objective_bound if status == cp_model.FEASIBLE else math.inf * (-1 if self.minimise else 1)
        rest = seconds - QUICK_SECONDS
        for level, share in FULL_PASSES:
            # level 2 starts from the quick pass's outcome, level 1 from the first hint (`_hint`):
            # each measured to prove more that way (decision 0290)
            self._hint(model, result, first if level == 2 else None)
            solver = _solver(rest * share, level)
            status = solver.solve(model)
            if status == cp_model.OPTIMAL:
                return Extreme(0, self._found(solver, status, result)[1], True)
            better = self._found(solver, status, result)
            if better[1] is not None and (found[1] is None or (better[0] < found[0]) == self.minimise):
                found = better
            if status == cp_model.FEASIBLE:  # a bound proved by this pass holds for every pass
                tighter = solver.best_objective_bound
                bound = max(bound, tighter) if self.minimise else min(bound, tighter)
            if found[1] is not None and found[0] == bound:
                return Extreme(0, found[1], True)
        return Extreme(0, found[1], False)

    def _found(self, solver: cp_model.CpSolver, status: Any, result: dict[int, list[Any]]) -> tuple[float, Any]:
        """The objective and the outcome (a result code per kept game) of the solution found, if any."""
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return 0.0, None
        example = np.ones(self.games, dtype=np.int8)  # games no key reads: any result, drawn here
        for g, bools in result.items():
            example[g] = next(r for r in range(3) if solver.value(bools[r]))
        return solver.objective_value, example

    def _hint(
        self, model: cp_model.CpModel, result: dict[int, list[cp_model.IntVar]], values: list[int] | None = None
    ) -> None:
        """A first outcome to start from: for the best rank every rival scores least, for the worst
        most (a rival's own games set last wins); the other games drawn. With `values`: that
        outcome (a 0/1 per result boolean, in `result`'s order) instead."""
        hint = model.proto.solution_hint
        hint.vars.clear()
        hint.values.clear()
        hint.vars.extend([b.index for bools in result.values() for b in bools])
        if values is not None:
            hint.values.extend(values)
            return
        code = dict.fromkeys(result, 1)
        for k in self.crossing:
            code.update(self.shared.scoring(self.keys[k], self.minimise))
        code.update(zip(self.own, self.own_codes.tolist(), strict=True))
        # written to the proto in two calls (what add_hint does one boolean at a time)
        hint.values.extend([int(r == code[g]) for g in result for r in range(3)])


class Shared:
    """What every question reads of the keys, computed once per request (the main questions and
    by_own_result's share it: most keys stay the same objects when one game is fixed): each
    player's points table, a name per distinct round table (so that a model writes each once),
    and each sum of rounds and each key's values as plain coefficient lists over the results'
    booleans (so that a model adds each in one call). Cached by the objects' ids, each object
    held in `kept` so that no id is reused while the cache lives."""

    def __init__(self) -> None:
        self.kept: list[Any] = []
        self.points: dict[int, tuple[list[int], np.ndarray]] = {}
        self.names: dict[int, int] = {}
        self.distinct: dict[tuple[tuple[int, ...], bytes], int] = {}
        self.tables: list[Term] = []  # by name
        self.lists: dict[int, tuple[int, ...]] = {}  # id of a list of terms: their names
        self.sets: dict[tuple[int, bool], list[tuple[int, ...]]] = {}  # a cut's end: each set's names
        self.linear: dict[tuple[int, ...], tuple[list[tuple[int, int]], list[int], list[int], int]] = {}
        self.hints: dict[tuple[int, bool], list[tuple[int, int]]] = {}
        self.levels: dict[tuple[int, int], tuple[list[int], list[int], Any]] = {}
        self.ranges: dict[tuple[tuple[int, ...], ...], tuple[int, int]] = {}
        self.forms: dict[int, list[Form]] = {}

    def points_of(self, key: AnyKey) -> tuple[list[int], np.ndarray]:
        if id(key) not in self.points:
            self.kept.append(key)
            self.points[id(key)] = _points_table(key)
        return self.points[id(key)]

    def scoring(self, key: AnyKey, least: bool) -> list[tuple[int, int]]:
        """The player's own games' results giving them their least (greatest) points."""
        if (id(key), least) not in self.hints:
            own, points = self.points_of(key)
            wanted = int(np.argmin(points) if least else np.argmax(points))
            self.hints[id(key), least] = (
                list(zip(own, outcome_codes(len(own))[wanted].tolist(), strict=True)) if own else []
            )
        return self.hints[id(key), least]

    def at_level(self, key: AnyKey, level: int) -> tuple[list[int], list[int], Any]:
        """Over the player's own games: whether they have more points than `level` (0/1 per
        combination), and having exactly `level` as `_literal` reads it (True, False, a single
        (game, result), or the 0/1 table)."""
        if (id(key), level) not in self.levels:
            own, points = self.points_of(key)
            truth = points == level
            if not truth.any() or truth.all():
                level_with: Any = bool(truth.all())
            elif len(own) == 1 and truth.sum() == 1:
                level_with = (own[0], int(np.flatnonzero(truth)[0]))
            else:
                level_with = truth.astype(int).tolist()
            self.levels[id(key), level] = (own, (points > level).astype(int).tolist(), level_with)
        return self.levels[id(key), level]

    def name(self, term: Term) -> int:
        if id(term) not in self.names:
            self.kept.append(term)
            name = self.distinct.setdefault((tuple(term.games), term.value.tobytes()), len(self.distinct))
            if name == len(self.tables):
                self.tables.append(term)
            self.names[id(term)] = name
        return self.names[id(term)]

    def names_of(self, terms: list[Term]) -> tuple[int, ...]:
        """The names of a part's terms (the list lives as long as its key: its id stays its own)."""
        if id(terms) not in self.lists:
            self.kept.append(terms)
            self.lists[id(terms)] = tuple(self.name(t) for t in terms)
        return self.lists[id(terms)]

    def sets_of(self, cut: Cut, lowest: bool) -> list[tuple[int, ...]]:
        if (id(cut), lowest) not in self.sets:
            self.kept.append(cut)
            pool = self.names_of(cut.pool)
            self.sets[id(cut), lowest] = [
                tuple(pool[i] for i in c) for c in (cut.low_sets if lowest else cut.high_sets)
            ]
        return self.sets[id(cut), lowest]

    def range_of(self, named: list[tuple[int, ...]]) -> tuple[int, int]:
        """The least and greatest of the sums over each set of named tables."""
        name = tuple(named)
        if name not in self.ranges:
            low = min(sum(int(self.tables[n].value.min()) for n in names) for names in named)
            high = max(sum(int(self.tables[n].value.max()) for n in names) for names in named)
            self.ranges[name] = (low, high)
        return self.ranges[name]

    def forms_of(self, key: FormulaKey) -> list[Form]:
        """The key's values past the points as weighted sums, built once per call: the rules
        combined in their radixes, then the first rule alone (when there are two or more)."""
        if id(key) not in self.forms:
            self.kept.append(key)
            parts = [self._part_form(part, offset) for part, offset in zip(key.parts, key.offsets[1:], strict=True)]
            combined = Form()
            for part, weight in zip(parts, _weights(key.radix), strict=True):
                combined.add(part, weight)
            self.forms[id(key)] = [combined, parts[0]] if len(parts) > 1 else parts
        return self.forms[id(key)]

    def _part_form(self, part: Part, offset: int) -> Form:
        """One rule's value less `offset`: the sum of its rounds less what a plain Cut-n / Median-n
        takes away (C.07 16.5: the least, greatest sums over every n of the rounds); the other cuts
        and the means (8.4, 10.5) as scenario_formulas writes them, one term."""
        form = Form(constant=-offset)
        cut = part.cut
        if part.divisor or (cut is not None and not _plain(cut)):
            form.others[id(part)] = (part, 1)
            return form
        pairs, coefficients, lookups, constant = self.linear_of(self.names_of(part.terms))
        form.constant += constant
        for pair, c in zip(pairs, coefficients, strict=True):
            form.pairs[pair] = c
        for name in lookups:
            form.lookups[name] = form.lookups.get(name, 0) + 1
        if cut is not None:
            for sets, lowest in ((cut.low_sets, True), (cut.high_sets, False)):
                if sets != [()]:  # [()]: nothing cut at this end
                    form.extremes[id(cut), lowest] = (cut, lowest, -1)
        return form

    def linear_of(self, names: tuple[int, ...]) -> tuple[list[tuple[int, int]], list[int], list[int], int]:
        """The sum of the named tables: (game, result) pairs and their coefficients, the tables
        over two or more games (a lookup each), and a constant. Each game's least coefficient is
        moved into the constant (exactly one result is true): fewer, non-negative terms."""
        if names not in self.linear:
            per_game: dict[int, list[int]] = {}
            lookups, constant = [], 0
            for name in names:
                term = self.tables[name]
                if not term.games:
                    constant += int(term.value[0])
                elif len(term.games) == 1:
                    row = per_game.setdefault(term.games[0], [0, 0, 0])
                    for r, v in enumerate(term.value.tolist()):
                        row[r] += int(v)
                else:
                    lookups.append(name)
            pairs, coefficients = [], []
            for g, row in per_game.items():
                least = min(row)
                constant += least
                for r, v in enumerate(row):
                    if v != least:
                        pairs.append((g, r))
                        coefficients.append(v - least)
            self.linear[names] = (pairs, coefficients, lookups, constant)
        return self.linear[names]


@dataclass(slots=True)
class Form:
    """A weighted sum over a model's variables, kept as plain lists (what `_Terms.form` adds in
    one call): result booleans by (game, result), round tables over two or more games by name,
    cut ends, the parts scenario_formulas writes itself, and a constant."""

    pairs: dict[tuple[int, int], int] = field(default_factory=dict)
    lookups: dict[int, int] = field(default_factory=dict)
    extremes: dict[tuple[int, bool], tuple[Cut, bool, int]] = field(default_factory=dict)
    others: dict[int, tuple[Part, int]] = field(default_factory=dict)
    constant: int = 0

    def add(self, other: Form, weight: int) -> None:
        for pair, c in other.pairs.items():
            self.pairs[pair] = self.pairs.get(pair, 0) + weight * c
        for name, c in other.lookups.items():
            self.lookups[name] = self.lookups.get(name, 0) + weight * c
        for at, (cut, lowest, c) in other.extremes.items():
            self.extremes[at] = (cut, lowest, self.extremes.get(at, (cut, lowest, 0))[2] + weight * c)
        for held, (part, c) in other.others.items():
            self.others[held] = (part, self.others.get(held, (part, 0))[1] + weight * c)
        self.constant += weight * other.constant


def _weights(radix: list[int]) -> list[int]:
    """Each rule's weight in the combined key: the product of the radixes after it."""
    weights = [1]
    for r in reversed(radix[1:]):
        weights.append(weights[-1] * r)
    return weights[::-1]


class _Terms:
    """The rounds' contributions (engine/scenario_formulas.py) as weighted sums of the model's
    variables, each distinct table and sum written once per model (BH/C1 and BH sum the same
    rounds), from the coefficient lists `Shared` keeps for every question."""

    def __init__(self, model: cp_model.CpModel, result: dict[int, list[cp_model.IntVar]], shared: Shared) -> None:
        self.model, self.result, self.shared = model, result, shared
        self.lookups: dict[int, Any] = {}
        self.sums: dict[tuple[int, ...], Any] = {}
        self.extremes: dict[tuple[Any, ...], Any] = {}
        self.others: dict[int, Any] = {}

    def lookup(self, name: int) -> Any:
        if name not in self.lookups:
            term = self.shared.tables[name]
            self.lookups[name] = lookup_expression(self.model, term.games, term.value.tolist(), self.result)
        return self.lookups[name]

    def expression(self, names: tuple[int, ...]) -> Any:
        if names not in self.sums:
            pairs, coefficients, lookups, constant = self.shared.linear_of(names)
            result = self.result
            variables = [result[g][r] for g, r in pairs]
            if lookups:
                variables += [self.lookup(n) for n in lookups]
                coefficients = coefficients + [1] * len(lookups)
            self.sums[names] = cp_model.LinearExpr.weighted_sum(variables, coefficients) + constant
        return self.sums[names]

    def form(self, form: Form) -> Any:
        """The form as one weighted sum of this model's variables."""
        result = self.result
        variables = [result[g][r] for g, r in form.pairs]
        coefficients = list(form.pairs.values())
        for name, c in form.lookups.items():
            variables.append(self.lookup(name))
            coefficients.append(c)
        for cut, lowest, c in form.extremes.values():
            variables.append(self._extreme(cut, lowest))
            coefficients.append(c)
        for part, c in form.others.values():
            if id(part) not in self.others:
                self.others[id(part)] = part_expression(self.model, part, result)
            variables.append(self.others[id(part)])
            coefficients.append(c)
        return cp_model.LinearExpr.weighted_sum(variables, coefficients) + form.constant

    def _extreme(self, cut: Cut, lowest: bool) -> Any:
        """The least (greatest) of the pool's sums over each set, one variable per distinct one."""
        named = self.shared.sets_of(cut, lowest)
        name = (lowest, *named)
        if name not in self.extremes:
            sums = [self.expression(names) for names in named]
            if len(sums) == 1:
                self.extremes[name] = sums[0]
            else:
                low, high = self.shared.range_of(named)
                var = self.model.new_int_var(low, high, "")
                if lowest:
                    self.model.add_min_equality(var, sums)
                else:
                    self.model.add_max_equality(var, sums)
                self.extremes[name] = var
        return self.extremes[name]


class _Model(cp_model.CpModel):
    """A CpModel without the camel-case aliases OR-Tools adds to every new model (a third of a
    millisecond's work each, hundreds of models a request); only the snake-case names are used."""

    def _add_pre_pep8_methods(self) -> None:
        pass


def _dense(keys: list[AnyKey], players: list[int], level: int) -> dict[int, int]:
    """The table keys' values with `level` points renumbered densely in their order: small domains."""
    tables = [key for key in (keys[k] for k in players) if isinstance(key, Key)]
    at_level = [t.value[t.points == level] for t in tables]
    return {v: i for i, v in enumerate(np.unique(np.concatenate(at_level)).tolist())} if tables else {}


def _plain(cut: Cut) -> bool:
    """A cut by value alone (Buchholz's): no keys, unplayed rounds or ends cut per outcome."""
    return cut.keys is None and not cut.unplayed and cut.low_if is None and cut.high_if is None


def _as_var(model: cp_model.CpModel, expr: Any) -> Any:
    if isinstance(expr, int | cp_model.IntVar):
        return expr
    bounds = model.new_int_var(-(2**40), 2**40, "")  # loose: presolve narrows it from the equality
    model.add(bounds == expr)
    return bounds


def _solver(seconds: float, linearization: int) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic, and the machine's other core stays free
    solver.parameters.max_deterministic_time = seconds
    solver.parameters.linearization_level = linearization
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.symmetry_level = 0
    if linearization == 0:
        # the quick pass: one presolve round and no SAT inprocessing (these small models are
        # mostly settled by the search itself; about a quarter less CPU on San Viator, decision 0290)
        solver.parameters.max_presolve_iterations = 1
        solver.parameters.use_sat_inprocessing = False
    return solver


def _enforced(literal: Any, level_with: Any) -> list[Any]:
    return [literal] if level_with is True else [literal, level_with]


def _points_table(key: AnyKey) -> tuple[list[int], np.ndarray]:
    """The player's points as a table over the games they vary with (the player's own)."""
    term = reduced(*((key.points.games, key.points.value) if isinstance(key, FormulaKey) else (key.games, key.points)))
    return term.games, term.value


def _range_at(key: AnyKey, level: int) -> tuple[int, int]:
    """The least and greatest key the player can have with `level` points."""
    if isinstance(key, FormulaKey):
        span = math.prod(key.radix)
        least, most = key.values_bounds()
        return (level - key.offsets[0]) * span + least, (level - key.offsets[0]) * span + most
    at = key.value[key.points == level]
    return int(at.min()), int(at.max())


def _literal(model: cp_model.CpModel, games: list[int], truth: Any, result: dict[int, list[Any]]) -> Any:
    """A table of truths over a few games' results (`Shared.at_level`) as a literal: True/False
    when constant, a result's own boolean when it is one game's one result."""
    if isinstance(truth, bool):
        return truth
    if isinstance(truth, tuple):  # the result's own boolean
        return result[truth[0]][truth[1]]
    b = model.new_bool_var("")
    model.add(b == lookup_expression(model, games, truth, result))
    return b


def _values_expr(
    model: cp_model.CpModel,
    key: AnyKey,
    level: int,
    dense: dict[int, int],
    result: dict[int, list[cp_model.IntVar]],
    terms: _Terms,
) -> list[Any]:
    """What orders the player among those level on points, as expressions of the results: the
    rules' values combined (sums over rounds) then the first rule's alone, or the key's rank among
    the keys at that level (tables); only compared where the player has `level` points."""
    if isinstance(key, FormulaKey):
        return [terms.form(form) for form in terms.shared.forms_of(key)]
    table = np.where(key.points == level, key.value, -1)
    renumbered = np.array([dense.get(int(v), 0) for v in table.tolist()], dtype=np.int64)
    term = reduced(key.games, renumbered)
    games, values = term.games, term.value
    return [lookup_expression(model, games, [int(v) for v in values], result)]


def _values_at(key: AnyKey, codes: np.ndarray) -> np.ndarray:
    """Per outcome (rows of result codes over every kept game), the player's key."""
    if isinstance(key, FormulaKey):
        return key.at(codes)
    return np.asarray(key.value[combination(codes, key.games)])


def ranks_at(keys: list[AnyKey], j: int, rivals: list[int], ahead: int, codes: np.ndarray) -> np.ndarray:
    """Player `j`'s rank in each outcome (rows of result codes over every kept game): `ahead`
    players always ahead, plus the `rivals` with a greater key there (C.07 4.1: a shared rank)."""
    mine = _values_at(keys[j], codes)
    rank = np.full(len(codes), 1 + ahead, dtype=np.int64)
    for k in rivals:
        rank += _values_at(keys[k], codes) > mine
    return rank


def _points_at(key: AnyKey, codes: np.ndarray) -> np.ndarray:
    if isinstance(key, FormulaKey):
        return key.points.at(codes)
    return np.asarray(key.points[combination(codes, key.games)])


def _value(key: AnyKey, codes: np.ndarray) -> int:
    """The player's key in one outcome (the same as `_values_at`, one row, without arrays)."""
    if not isinstance(key, FormulaKey):
        return int(_values_at(key, codes[None, :])[0])
    ex = codes.tolist()

    def at(term: Term) -> int:
        index = 0
        for g in term.games:
            index = index * 3 + ex[g]
        return int(term.value.item(index))

    value = at(key.points) - key.offsets[0]
    for part, offset, radix in zip(key.parts, key.offsets[1:], key.radix, strict=True):
        cut = part.cut
        if part.divisor or (cut is not None and not _plain(cut)):  # the engine's types' own reading
            total = int(part.at(codes[None, :])[0])
        else:
            total = sum(at(t) for t in part.terms)
            if cut is not None:
                pool = [at(t) for t in cut.pool]
                for sets, pick in ((cut.low_sets, min), (cut.high_sets, max)):
                    if sets != [()]:
                        total -= pick(sum(pool[i] for i in c) for c in sets)
        value = value * radix + (total - offset)
    return value
