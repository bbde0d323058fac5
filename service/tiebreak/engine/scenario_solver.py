"""Best and worst rank of each reported player over every outcome of many open games, by a CP-SAT
model (OR-Tools) instead of enumerating 3**games outcomes (SPEC 3.11.1; docs/scenarios.md,
"The solver"; decision 0220).

The model's unknowns are the open games' results: three booleans per game, exactly one true. Each
player's sort key (points, then the rules' values, as one integer: larger ranks first) is not
re-derived from the rules' formulas: it comes from the engine itself, computed once per
combination of the few open games it depends on (`scenario_parts._sort_keys`), and the model reads
it as a table indexed by those games' results (`AddElement`). So every rule the engine computes
outside the tie groups is modelled exactly, with no formula written twice; a rule list whose
values depend on too many open games per player is refused (`TooWide`), never approximated.

The ranking: a shared rank is one more than the players whose key is greater (C.07 4.1, the
standings' rank). For player j a boolean per rival k says "k is counted ahead". The best rank
minimises their count with k forced ahead whenever key_k > key_j; the worst rank maximises it with
k counted only when key_k > key_j. Rivals ahead or behind in every outcome (their least key above
j's greatest, or their greatest at most j's least) are counted as constants before solving.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from ortools.sat.python import cp_model

from .scenario_formulas import FormulaKey, lookup_expression
from .scenario_parts import Key, TooWide, compared
from .scenarios import outcome_codes

AnyKey = Key | FormulaKey  # a table over combinations, or sums over rounds (scenario_formulas)

# A player's key is a table of 3**games values: past this many games read per player, the model
# (and the engine's covering outcomes) would grow as enumeration does.
MOST_READ = 6
__all__ = ["MOST_READ", "TooWide", "solve_ranks"]
SECONDS_PER_QUESTION = 5.0  # per question, in CP-SAT deterministic time (about seconds): past it `undecided`
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
    per_question: list[float] = field(default_factory=list)


def solve_ranks(
    keys: list[AnyKey],
    games: int,
    reported: list[int],
    seconds_per_question: float | None = None,
    between: Callable[[], None] = lambda: None,
) -> tuple[list[PlayerRanks], Stats]:
    """Each reported player's best and worst rank over every outcome of `games` open games."""
    started = time.perf_counter()
    seconds = SECONDS_PER_QUESTION if seconds_per_question is None else seconds_per_question
    stats = Stats()
    low, high, least, most = (np.array(column, dtype=np.int64) for column in zip(*map(_bounds, keys), strict=True))
    answers = []
    for j in reported:
        c = compared(j, low, high, least, most)
        ahead = 1 + c.ahead
        stats.asked += 2
        if not c.ahead_if:  # nobody's place relative to j depends on the results
            stats.by_pruning += 2
            drawn = np.ones(games, dtype=np.int8)
            answers.append(PlayerRanks(Extreme(ahead, drawn, True), Extreme(ahead, drawn, True)))
            continue
        best = _extreme(keys, games, j, c.ahead_if, ahead, minimise=True, seconds=seconds)
        worst = _extreme(keys, games, j, c.ahead_if, ahead, minimise=False, seconds=seconds)
        for e in (best, worst):
            if e.proved:
                stats.by_solver += 1
            else:
                stats.undecided += 1
        answers.append(PlayerRanks(best, worst))
        between()
    stats.seconds = time.perf_counter() - started
    return answers, stats


def _bounds(key: AnyKey) -> tuple[int, int, int, int]:
    """The key's least and greatest value, and the points'."""
    if isinstance(key, FormulaKey):
        return key.low, key.high, key.least, key.most
    return int(key.value.min()), int(key.value.max()), int(key.points.min()), int(key.points.max())


def _extreme(
    keys: list[AnyKey], games: int, j: int, rivals: list[int], ahead: int, minimise: bool, seconds: float
) -> Extreme:
    used = sorted({g for k in (j, *rivals) for g in keys[k].games})
    if 3 ** len(used) <= ENUMERATE_UP_TO:
        return _enumerated(keys, games, j, rivals, ahead, minimise, used)
    model = cp_model.CpModel()
    # one boolean per result of each game (white, draw, black), exactly one true
    result = {g: [model.new_bool_var(f"g{g}r{r}") for r in range(3)] for g in used}
    for bools in result.values():
        model.add_exactly_one(bools)
    # keys renumbered densely in their order (the same comparisons): small domains for the solver
    tables = [key for key in (keys[k] for k in (j, *rivals)) if isinstance(key, Key)]
    dense = (
        {v: i for i, v in enumerate(np.unique(np.concatenate([t.value for t in tables])).tolist())} if tables else {}
    )
    key_j = _key_var(model, keys[j], result, dense)
    counted = []
    for k in rivals:
        key_k = _key_var(model, keys[k], result, dense)
        b = model.new_bool_var(f"ahead{k}")
        if minimise:  # k not counted only when not above j: k above j forces it counted
            model.add(key_k <= key_j).only_enforce_if(~b)
        else:  # k counted only when above j (C.07 4.1: level players share the rank)
            model.add(key_k >= key_j + 1).only_enforce_if(b)
        counted.append(b)
    total = sum(counted)
    if minimise:
        model.minimize(total)
    else:
        model.maximize(total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic, and the machine's other core stays free
    # the bound in CP-SAT's deterministic time, not the clock's: a busy machine gives the same answer
    # (the same `undecided`); the request's deadline still bounds the wall time (killable workers)
    solver.parameters.max_deterministic_time = seconds
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):  # nothing found in time: the bound by pruning
        return Extreme(ahead if minimise else ahead + len(rivals), None, False)
    example = np.ones(games, dtype=np.int8)  # games no key reads: any result, drawn here
    for g, bools in result.items():
        example[g] = next(r for r in range(3) if solver.value(bools[r]))
    # the rank of the outcome found, counted from the keys (not from the objective): what a client
    # checking `example` through /v1/standings sees
    rank = ahead + sum(_value(keys[k], example) > _value(keys[j], example) for k in rivals)
    return Extreme(int(rank), example, status == cp_model.OPTIMAL)


def _enumerated(
    keys: list[AnyKey], games: int, j: int, rivals: list[int], ahead: int, minimise: bool, used: list[int]
) -> Extreme:
    """The question answered by counting, in every combination of the few games it depends on."""
    codes = outcome_codes(len(used))  # (combinations, used games)
    column = {g: i for i, g in enumerate(used)}

    def values(k: int) -> np.ndarray:
        key = keys[k]
        if isinstance(key, FormulaKey):
            full = np.ones((len(codes), games), dtype=np.int8)
            full[:, used] = codes
            return key.at(full)
        index = np.zeros(len(codes), dtype=np.int64)
        for g in keys[k].games:
            index = index * 3 + codes[:, column[g]]
        return key.value[index]

    mine = values(j)
    count = np.zeros(len(codes), dtype=np.int64)
    for k in rivals:
        count += values(k) > mine  # a shared rank: one more than the players with a greater key
    best = int(np.argmin(count) if minimise else np.argmax(count))
    example = np.ones(games, dtype=np.int8)
    example[used] = codes[best]
    return Extreme(ahead + int(count[best]), example, True)


def _key_var(
    model: cp_model.CpModel, key: AnyKey, result: dict[int, list[cp_model.IntVar]], dense: dict[int, int]
) -> cp_model.LinearExprT:
    """The player's key as an expression of the results of the games it reads."""
    if isinstance(key, FormulaKey):  # sums over rounds (scenario_formulas), not renumbered
        return key.expression(model, result)
    return lookup_expression(model, key.games, [dense[int(v)] for v in key.value], result)


def _value(key: AnyKey, codes: np.ndarray) -> int:
    if isinstance(key, FormulaKey):
        return int(key.at(codes[None, :])[0])
    index = 0
    for g in key.games:
        index = index * 3 + int(codes[g])
    return int(key.value[index])
