"""engine/scenario_solver.py: the CP-SAT model's best and worst ranks agree with enumeration (every
outcome ranked, engine/scenarios.py and engine/scenario_parts.py) on small synthetic events, player
by player, over every rule family the solver takes; and its places follow from those ranks."""

from __future__ import annotations

import msgspec
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

import tiebreak.engine.scenario_formulas as formulas
import tiebreak.engine.scenario_solver as solver
import tiebreak.usecases.scenarios as use
from tiebreak.engine.errors import InvalidRequest
from tiebreak.engine.scenario_parts import compared
from tiebreak.engine.scenarios import outcome_codes
from tests.engine.test_scenario_parts import _request
from tests.profiles import examples


MODEL_LISTS = [[], ["PS", "WIN", "WON", "BPG", "BWG", "GE"], ["WIN", "TPN"], ["BH/C1", "BH"], ["SB"]]


def _by_solver(body, monkeypatch, most_read: int = 99, model_only: bool = False):
    """The answer as the solver gives it, whatever the number of open games; `model_only`: every
    question by the CP-SAT model, none by counting, and no time bound (the test is not timed)."""
    with monkeypatch.context() as patch:
        patch.setattr(use, "_enumeration_fits", lambda counts, limits: False)
        patch.setattr(use, "MOST_READ", most_read)
        if model_only:
            patch.setattr(solver, "ENUMERATE_UP_TO", 0)
            patch.setattr(solver, "SECONDS_PER_QUESTION", 3600.0)
        plan = use.plan_scenarios(body)
        assert plan.solver
        return use.compute_scenarios(plan)


@settings(max_examples=examples(120), deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_the_solver_agrees_with_enumeration(seed):
    """Every rule family of the parts' test; the small questions are counted, the others modelled."""
    _agree(_request(seed), model_only=False)


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**31 - 1), rules=st.sampled_from(MODEL_LISTS))
def test_the_model_agrees_with_enumeration(seed, rules):
    """Every question through the CP-SAT model (none counted), on the rule lists it is quick on."""
    body = msgspec.structs.replace(_request(seed), tiebreaks=list(rules), regulations="fide-2024")
    _agree(body, model_only=True)


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_manual_values_hold_in_the_solver_as_in_enumeration(seed):
    """MAN (checklist Q207): the arbiter's values reach the solver's keys as they reach every
    enumerated outcome (they were left out, a 422 asking values for the stacked outcomes' rows)."""
    body = _request(seed)
    ids = [p.id for p in body.tournament.players]
    manual = {str(pid): (pid * 7) % 5 for pid in ids}
    body = msgspec.structs.replace(body, tiebreaks=["MAN", "PS"], manual_values=manual, regulations="fide-2024")
    _agree(body, model_only=True)


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**31 - 1), rules=st.sampled_from(MODEL_LISTS))
def test_own_results_fixed_and_rivals_settled_as_every_outcome_says(seed, rules):
    """Decision 0260's pruning, against every outcome of the keys the solver is given: the best
    rank is reached with the player's most points and the worst with the least; where the player
    has those points, each rival counted as certain is ahead in every outcome, and each rival left
    out of the model is ahead in none."""
    body = msgspec.structs.replace(_request(seed), tiebreaks=list(rules), regulations="fide-2024")
    given_keys: dict = {}
    real = use.solve_ranks

    def capture(keys, games, reported, **options):
        given_keys.update(keys=keys, games=games, reported=reported)
        return real(keys, games, reported, **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(use, "solve_ranks", capture)
        _by_solver(body, patch, model_only=True)
    keys, games = given_keys["keys"], given_keys["games"]
    codes = outcome_codes(games)
    values = np.stack([solver._values_at(k, codes) for k in keys])  # (players, outcomes)
    points = np.stack([solver._points_at(k, codes) for k in keys])
    # the keys' own bounds (looser than every outcome's for sums over rounds), as the solver has them
    low, high, least, most = np.array([solver._bounds(k) for k in keys]).T
    for j in given_keys["reported"]:
        ranks = 1 + (values > values[j]).sum(axis=0)
        c = compared(j, low, high, least, most)
        for minimise in (True, False):
            q = solver._Question(keys, games, j, c.ahead_if, 1 + c.ahead, minimise, low, high, solver.Shared())
            at = points[j] == q.level
            whole, fixed = (ranks.min(), ranks[at].min()) if minimise else (ranks.max(), ranks[at].max())
            assert fixed == whole
            above = values[:, at] > values[j, at]
            assert all(above[k].all() for k in q.certain)
            assert not any(above[k].any() for k in set(c.ahead_if) - set(q.certain) - set(q.crossing))
            assert q.answer(3600.0)[0].rank == whole


def _first_solver_call(body, model_only: bool = True):
    """The keys, open games and reported players the use case hands the solver first."""
    given_keys: dict = {}
    real = use.solve_ranks

    def capture(keys, games, reported, **options):
        given_keys.setdefault("call", (keys, games, reported))
        return real(keys, games, reported, **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(use, "solve_ranks", capture)
        _by_solver(body, patch, model_only=model_only)
    return given_keys["call"]


def _agree(body, model_only: bool, most_read: int = 99) -> None:
    enumerated = use.compute_scenarios(use.plan_scenarios(body))
    assert enumerated.method == "enumeration"
    with pytest.MonkeyPatch.context() as patch:
        solved = _by_solver(body, patch, most_read=most_read, model_only=model_only)
    assert solved.method == "solver" and solved.undecided == 0
    assert solved.stats is not None and solved.stats.undecided == 0
    # a best and a worst rank per player, and again per own result (by_own_result, decision 0265)
    assert solved.stats.questions == solved.stats.by_pruning + solved.stats.by_solver >= 2 * len(solved.players)
    for mine, theirs in zip(solved.players, enumerated.players, strict=True):
        assert (mine.id, mine.best_rank, mine.worst_rank, mine.clinched) == (
            theirs.id,
            theirs.best_rank,
            theirs.worst_rank,
            theirs.clinched,
        )
        assert [p.place for p in mine.places] == [p.place for p in theirs.places]
        # certain exactly where enumeration's needs are "whatever the results"
        assert [p.certain for p in mine.places] == [p.needs == [[]] for p in theirs.places]
        assert all(p.example is not None and p.possible for p in mine.places)
        for place, needs in zip(mine.places, theirs.places, strict=True):
            # listed where it stays small (decision 0266): then enumeration's own minimal needs
            assert (place.needs is None) == (place.needs_omitted is not None), (mine.id, place.place)
            assert place.needs is None or place.needs == needs.needs, (mine.id, place.place)
        assert mine.undecided == []
        assert len(mine.best_example or []) == len(mine.worst_example or []) == len(solved.open_games)
    own_results_agree(solved, enumerated)


def own_results_agree(solved, enumerated) -> None:
    """by_own_result (decision 0265) is what enumeration's `needs` give once the player's own game
    has each result: certain when every such outcome satisfies them, impossible when none does."""
    games = [(g.round, g.white, g.black) for g in enumerated.open_games]
    codes = outcome_codes(len(games))
    column = {g: i for i, g in enumerate(games)}
    for mine, theirs in zip(solved.players, enumerated.players, strict=True):
        own = [(i, "white" if w == mine.id else "black") for i, (_, w, b) in enumerate(games) if mine.id in (w, b)]
        for place, needs in zip(mine.places, theirs.places, strict=True):
            assert (place.by_own_result is not None) == (len(own) == 1), mine.id
            if place.by_own_result is None:
                continue
            reached = np.zeros(len(codes), dtype=bool)
            for term in needs.needs:
                met = np.ones(len(codes), dtype=bool)
                for c in term:
                    allowed = [("white", "draw", "black").index(r) for r in c.results]
                    met &= np.isin(codes[:, column[(c.round, c.white, c.black)]], allowed)
                reached |= met
            g, side = own[0]
            for name, result in (("win", 0), ("draw", 1), ("loss", 2)):
                code = result if side == "white" else 2 - result
                sub = reached[codes[:, g] == code]
                expected = "certain" if sub.all() else "impossible" if not sub.any() else "possible"
                assert getattr(place.by_own_result, name) == expected, (mine.id, place.place, name)


def test_a_rule_reading_too_many_open_games_is_a_422_naming_it(monkeypatch):
    """A cut the sums do not take for this event (here: every cut of two rounds past the model's
    bound on sets) is refused naming that rule alone (WIN is modelled), never answered by a guess
    (decision 0270)."""
    body = msgspec.structs.replace(_request(11), tiebreaks=["WIN", "BH/C2"], regulations="fide-2024")
    monkeypatch.setattr(formulas, "MOST_SUBSETS", 0)
    with pytest.raises(InvalidRequest) as caught:
        _by_solver(body, monkeypatch, most_read=0)
    issue = caught.value.issues[0]
    assert issue.path == ("tiebreaks", 1)
    assert issue.message.startswith("BH/C2: not written as constraints") and "WIN" not in issue.message


REAL_SOLVER = cp_model.CpSolver


class _OutOfTime:
    """A CP-SAT solver whose time bound runs out before it finds anything."""

    def __init__(self) -> None:
        self.parameters = REAL_SOLVER().parameters

    def solve(self, model):
        return cp_model.UNKNOWN


def test_a_question_the_time_bound_does_not_settle_is_undecided_never_claimed(monkeypatch):
    """Each unsettled question is named in the player's `undecided` and counted; its rank is only
    the bound the keys' ranges give (no better than the true best, no worse than the true worst),
    and no place is claimed possible or certain from it."""
    body = _request(7)
    enumerated = {p.id: p for p in use.compute_scenarios(use.plan_scenarios(body)).players}
    monkeypatch.setattr(solver.cp_model, "CpSolver", _OutOfTime)
    solved = _by_solver(body, monkeypatch, model_only=True)
    assert solved.stats is not None and solved.undecided == solved.stats.undecided > 0
    assert solved.stats.by_solver == 0
    for player in solved.players:
        truth = enumerated[player.id]
        if not player.undecided:  # settled by the ranges alone
            assert (player.best_rank, player.worst_rank) == (truth.best_rank, truth.worst_rank)
            continue
        # a question is settled without the solver only when the ranges alone decide it (decision 0260)
        if "best_rank" in player.undecided:
            assert player.best_rank <= truth.best_rank
            assert player.places == [] and player.best_example is None
        else:
            assert player.best_rank == truth.best_rank
        if "worst_rank" in player.undecided:
            assert player.worst_rank >= truth.worst_rank
            assert all(p.certain is None for p in player.places) and player.clinched is None
            assert player.worst_example is None
        else:
            assert player.worst_rank == truth.worst_rank


def test_ranks_already_proved_are_used_as_given_not_asked_again(monkeypatch):
    """by_own_result's question with the player's own game won (lost) is the best (worst) rank
    already proved (decision 0260 fixes it so): `known` hands it over and no model is built."""
    body = msgspec.structs.replace(_request(3), tiebreaks=["BH/C1", "BH"], regulations="fide-2024")
    keys, games, reported = _first_solver_call(body)
    best, worst = solver.Extreme(-1, None, True), solver.Extreme(-2, None, True)

    def refused(*args, **kwargs):
        raise AssertionError("a question asked again")

    monkeypatch.setattr(solver, "_Question", refused)
    low, high, least, most = np.array([solver._bounds(k) for k in keys]).T
    j = next(j for j in reported if compared(j, low, high, least, most).ahead_if)  # not settled by pruning
    [ranks], stats = solver.solve_ranks(keys, games, [j], known=(best, worst))
    assert (ranks.best, ranks.worst) == (best, worst)
    assert (stats.asked, stats.by_solver) == (2, 2)


def _asked(body, monkeypatch, skip: bool):  # monkeypatch: the fixture or pytest.MonkeyPatch
    """The answer with every question by the model, and how many models were built; `skip`
    False: no question answered by an outcome at hand (`_found`, decision 0263) is left out."""
    built = [0]
    real = solver._Question.answer

    def counted(self, seconds):
        built[0] += 1
        return real(self, seconds)

    with monkeypatch.context() as patch:
        patch.setattr(solver._Question, "answer", counted)
        if not skip:
            patch.setattr(use, "_found", lambda *args: dict.fromkeys(args[5], (None, None)))  # per result code
        answer = _by_solver(body, patch, model_only=True)
    return answer, built[0]


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**31 - 1), rules=st.sampled_from(MODEL_LISTS))
def test_questions_an_outcome_at_hand_answers_are_not_asked(seed, rules):
    """by_own_result's questions left out because the main question's examples, with the own game
    at that result, already reach every open place (or none): the same answers as asking them, and
    as enumeration's needs."""
    body = msgspec.structs.replace(_request(seed), tiebreaks=list(rules), regulations="fide-2024")
    enumerated = use.compute_scenarios(use.plan_scenarios(body))
    skipped, fewer = _asked(body, pytest.MonkeyPatch, skip=True)
    asked, every = _asked(body, pytest.MonkeyPatch, skip=False)
    assert fewer <= every
    assert [p.places for p in skipped.players] == [p.places for p in asked.players]
    own_results_agree(skipped, enumerated)


def test_an_outcome_at_hand_spares_a_model(monkeypatch):
    """On this event some by_own_result question is answered by a main example with the own game
    changed (the test above would pass with the shortcut never taken)."""
    body = msgspec.structs.replace(_request(0), tiebreaks=["BH/C1", "BH"], regulations="fide-2024")
    skipped, fewer = _asked(body, monkeypatch, skip=True)
    asked, every = _asked(body, monkeypatch, skip=False)
    assert fewer < every
    assert [p.places for p in skipped.players] == [p.places for p in asked.players]


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**31 - 1), rules=st.sampled_from(MODEL_LISTS))
def test_ranks_at_is_the_rank_in_each_outcome(seed, rules):
    """`ranks_at` (decision 0263) against every outcome of the keys the solver is given."""
    body = msgspec.structs.replace(_request(seed), tiebreaks=list(rules), regulations="fide-2024")
    keys, games, reported = _first_solver_call(body, model_only=False)
    codes = outcome_codes(games)
    values = np.stack([solver._values_at(k, codes) for k in keys])
    low, high, least, most = np.array([solver._bounds(k) for k in keys]).T
    for j in reported:
        c = compared(j, low, high, least, most)
        expected = 1 + (values > values[j]).sum(axis=0)  # C.07 4.1: one more than those with a greater key
        assert (solver.ranks_at(keys, j, c.ahead_if, c.ahead, codes) == expected).all()


class _HalfProved:
    """A real CP-SAT solve reported as no pass alone proving it (decision 0290's pooling): the quick
    pass and level 2 give the optimal outcome with a bound one off, level 1 proves the bound but
    reports its outcome one worse. Only the best outcome and the tightest bound together prove it."""

    def __init__(self) -> None:
        self.real = REAL_SOLVER()
        self.parameters = self.real.parameters

    def solve(self, model):
        status = self.real.solve(model)
        assert status == cp_model.OPTIMAL  # no time bound in this test: every model solved
        self.minimise = model.proto.objective.scaling_factor >= 0  # CP-SAT negates a maximisation
        return cp_model.FEASIBLE

    @property
    def _off(self) -> float:
        return -1.0 if self.minimise else 1.0  # one on the side of the optimum no outcome reaches

    @property
    def objective_value(self) -> float:
        best = self.real.objective_value
        return best - self._off if self.parameters.linearization_level == 1 else best

    @property
    def best_objective_bound(self) -> float:
        best = self.real.objective_value
        return best if self.parameters.linearization_level == 1 else best + self._off

    def value(self, literal):
        return self.real.value(literal)


def test_the_best_outcome_and_the_tightest_bound_of_different_passes_prove_a_question(monkeypatch):
    """No pass proves a question alone here (`_HalfProved`); the best outcome of one and the bound
    of another still do, and the ranks are enumeration's. Without pooling every modelled question
    would be `undecided`."""
    body = msgspec.structs.replace(_request(2), tiebreaks=["BH/C1", "BH"], regulations="fide-2024")
    enumerated = {p.id: p for p in use.compute_scenarios(use.plan_scenarios(body)).players}
    monkeypatch.setattr(solver.cp_model, "CpSolver", _HalfProved)
    solved = _by_solver(body, monkeypatch, model_only=True)
    assert solved.stats is not None and solved.stats.by_solver > 0 and solved.undecided == 0
    for player in solved.players:
        truth = enumerated[player.id]
        assert (player.best_rank, player.worst_rank, player.undecided) == (truth.best_rank, truth.worst_rank, [])


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**31 - 1), rules=st.sampled_from(MODEL_LISTS))
@example(seed=101, rules=["BH/C1", "BH"])  # CP-SAT's bound 5.000000000000001 once made a floor of 6
def test_the_worst_ranks_floor_is_the_players_least_value(seed, rules):
    """Decision 0291's floor against every outcome: with the player's own results fixed as the
    worst rank fixes them, `_least` is the least first value (the rules combined, or the table's
    dense rank) the player takes, so a rival counted above the player is above it too."""
    body = msgspec.structs.replace(_request(seed), tiebreaks=list(rules), regulations="fide-2024")
    keys, games, reported = _first_solver_call(body)
    codes = outcome_codes(games)
    low, high, least, most = np.array([solver._bounds(k) for k in keys]).T
    for j in reported:
        c = compared(j, low, high, least, most)
        q = solver._Question(keys, games, j, c.ahead_if, 1 + c.ahead, False, low, high, solver.Shared())
        mine = (codes[:, q.own] == q.own_codes).all(axis=1)  # the outcomes with j's own results fixed
        dense = solver._dense(keys, [j, *q.crossing], q.level)
        key = keys[j]
        if isinstance(key, solver.FormulaKey):
            if not key.parts:  # points alone: nothing past them to bound
                assert q._least(dense) is None
                continue
            span = int(np.prod(key.radix))
            first = solver._values_at(key, codes[mine]) - (q.level - key.offsets[0]) * span
        else:
            first = np.array([dense[int(v)] for v in solver._values_at(key, codes[mine])])
        assert q._least(dense) == first.min()


def test_the_floor_reaches_the_worst_ranks_model(monkeypatch):
    """The floor is stated in the model (not only computed): one claimed above every value the
    player takes leaves only the rivals above on points counted, and some worst rank then differs
    from enumeration's. (With the floor left out of the model this answer would be enumeration's.)"""
    body = msgspec.structs.replace(_request(2), tiebreaks=["BH/C1", "BH"], regulations="fide-2024")
    enumerated = {p.id: p.worst_rank for p in use.compute_scenarios(use.plan_scenarios(body)).players}
    monkeypatch.setattr(solver._Question, "_least", lambda self, dense: 2**30)
    solved = _by_solver(body, monkeypatch, model_only=True)
    assert any(p.worst_rank < enumerated[p.id] for p in solved.players)
