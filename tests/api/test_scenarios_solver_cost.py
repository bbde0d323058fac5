"""The cost model prices a solver request by what it measures before the solver runs (usecases/cost.py,
decision 0268): its questions' rivals, values and games (decisions 0300, 0302). A request clearly past `max_cost_s` is a
413 naming what to narrow in the request's own fields (`players`, `assume`, `places`), before any
question is asked; the narrowed request is answered. Sums over rounds are priced at their own,
lower rate (decision 0262)."""

from __future__ import annotations

from dataclasses import replace
import math
import time

import msgspec
import pytest
from litestar.testing import TestClient

from tests.api.test_scenarios_realworld import _without_nulls
from testkit.conformance import REALWORLD
from testkit.synthetic import swiss_wire
from tiebreak.http.app import create_app
from tiebreak.usecases.cost import (
    SOLVER_SECONDS_PER_RIVAL,
    SOLVER_SECONDS_PER_SUM_RIVAL,
    SOLVER_SECONDS_PER_SUM_UNIT,
    SOLVER_SECONDS_PER_UNIT,
    estimate,
)
from tiebreak.usecases.scenarios import compute_scenarios, file_request, plan_scenarios
from tiebreak.wire.limits import LIMITS, Deadline, TooManyOpenGames
from tiebreak.wire.scenarios import ScenariosRequest


def _body(players: list[int], places: int) -> dict:
    tournament = swiss_wire(60, 5, seed=2)
    tournament["rounds"] = 6
    pairings = [{"round": 6, "white": i, "black": i + 1} for i in range(1, 61, 2)]
    return {
        "tournament": tournament,
        "tiebreaks": ["WIN", "PS"],
        "pairings": pairings,
        "places": places,
        "players": players,
    }


def _seconds(body: dict) -> float:
    plan = plan_scenarios(msgspec.convert(body, ScenariosRequest))
    assert plan.solver and plan.counts.solver_questions and plan.counts.solver_units
    assert plan.counts.solver_sums == 0  # WIN, PS: a table per player, priced at the tables' rate
    return estimate(plan.counts).seconds


def test_a_solver_request_past_the_bound_is_a_413_that_says_what_to_narrow():
    wide, narrow = _body(list(range(1, 61)), 10), _body([1, 2], 1)
    # more players and places: more questions (by_own_result for each possible contender)
    assert _seconds(wide) > 4 * _seconds(narrow)
    bound = math.sqrt(_seconds(wide) * _seconds(narrow))  # between the two
    with TestClient(create_app(replace(LIMITS, max_cost_s=bound))) as client:
        refused = client.post("/v1/scenarios", json=wide)
        assert refused.status_code == 413, refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")
        problem = refused.json()
        error = problem["errors"][0]
        assert error["path"] == "players"
        # in the arbiter's words (decision 0300): how long, against what bound, and what narrows it
        assert problem["detail"].startswith("answering 60 players with 30 games open would take the solver about")
        message = error["message"]
        assert "`players`" in message and "`assume`" in message and "`places`" in message
        assert "`contenders_only: true`" in message
        assert "max_cost_s" not in problem["detail"]
        ru = client.post("/v1/scenarios", json=wide, headers={"Accept-Language": "ru"})
        assert ru.status_code == 413 and ru.json()["detail"].startswith("ответ для 60 игроков (открытых партий: 30)")
        answered = client.post("/v1/scenarios", json=narrow)
        assert answered.status_code == 200, answered.text
        assert answered.json()["method"] == "solver"


def test_a_sums_model_is_priced_at_the_sums_rate_and_the_bound_is_its_price():
    """San Viator, its last round reopened, BH/C1 BH SB (sums over rounds, engine/scenario_formulas.py)
    for 8 players: every unit and rival of the model is a sum's, priced at SOLVER_SECONDS_PER_SUM_UNIT
    and SOLVER_SECONDS_PER_SUM_RIVAL (decisions 0300, 0302); a bound just over that price answers,
    one just under it is the 413 at `players`. The deadline is raised: the test is not timed."""
    path = REALWORLD / "san-viator-madrid-2018.trf"
    if not path.exists():  # read in place from ../shared, never copied (as the other real-event tests)
        pytest.skip(f"{path} is not on this machine")
    text = path.read_text(encoding="utf-8", errors="replace")
    request, _, _ = file_request(None, text, None, ["BH/C1", "BH", "SB"], places=10)
    request = msgspec.structs.replace(request, players=list(range(1, 9)))
    plan = plan_scenarios(request)
    counts = plan.counts
    assert plan.solver and counts.solver_questions and counts.solver_sums == counts.solver_units > 0
    assert counts.solver_sum_rivals == counts.solver_rivals > 0
    priced = estimate(counts).seconds
    as_tables = estimate(replace(counts, solver_sums=0, solver_sum_rivals=0)).seconds
    # the whole difference is the rates: the sums' units and rivals at the sums' rates, not the tables'
    assert math.isclose(
        priced - as_tables,
        (SOLVER_SECONDS_PER_SUM_UNIT - SOLVER_SECONDS_PER_UNIT) * counts.solver_units
        + (SOLVER_SECONDS_PER_SUM_RIVAL - SOLVER_SECONDS_PER_RIVAL) * counts.solver_rivals,
    )
    body = _without_nulls(msgspec.to_builtins(request))
    with TestClient(create_app(replace(LIMITS, max_cost_s=priced * 1.01, compute_deadline_s=600.0))) as client:
        answered = client.post("/v1/scenarios", json=body)
        assert answered.status_code == 200, answered.text
        assert answered.json()["method"] == "solver" and len(answered.json()["players"]) == 8
    with TestClient(create_app(replace(LIMITS, max_cost_s=priced * 0.99, compute_deadline_s=600.0))) as client:
        refused = client.post("/v1/scenarios", json=body)
        assert refused.status_code == 413 and refused.json()["errors"][0]["path"] == "players"


def test_by_own_result_is_undecided_not_guessed_when_the_request_time_runs_short():
    """With less than a quarter of the request's time bound left (the deadline set so here, far from
    running out), no by_own_result question is asked: each is `undecided` and counted, and the
    best and worst ranks are answered as before."""
    body = msgspec.convert(_body([1, 2, 3, 4], 3), ScenariosRequest)
    full = compute_scenarios(plan_scenarios(body))
    limits = replace(LIMITS, compute_deadline_s=4000.0)
    deadline = Deadline(limits)
    deadline.at = time.monotonic() + 600.0  # 600 s left of 4000: past three quarters spent
    short = compute_scenarios(plan_scenarios(body), deadline)
    assert full.undecided == 0 and short.stats is not None and short.undecided == short.stats.undecided > 0
    owned = 0
    for mine, whole in zip(short.players, full.players, strict=True):
        assert (mine.best_rank, mine.worst_rank, mine.undecided) == (whole.best_rank, whole.worst_rank, [])
        for place, before in zip(mine.places, whole.places, strict=True):
            if before.by_own_result is None:
                assert place.by_own_result is None
                continue
            statuses = set(msgspec.to_builtins(place.by_own_result).values())
            # a place certain whatever the results needs no question; any other is not settled
            assert statuses == {"certain"} if before.certain else statuses == {"undecided"}
            owned += 1
    assert owned


def test_a_list_the_solver_cannot_take_is_refused_past_enumeration_without_limits_too():
    """DE is ranked inside the tie groups, so the solver does not take it: with 30 games open and no
    limits (the Python API), the answer is the 413 the limits give (the games, how many fit, what
    to narrow, at `pairings`), not numpy's ValueError on 3^30 outcomes."""
    body = _body(list(range(1, 61)), 10)
    body["tiebreaks"] = ["DE", "BH"]
    request = msgspec.convert(body, ScenariosRequest)
    with pytest.raises(TooManyOpenGames) as unlimited:
        plan_scenarios(request)
    with pytest.raises(TooManyOpenGames) as limited:
        plan_scenarios(request, LIMITS)
    for refused in (unlimited.value, limited.value):
        assert refused.status == 413 and refused.path == "pairings"
        assert "30 games are open" in str(refused) and "`assume`" in str(refused)
    assert "at most 12 open games fit" in str(unlimited.value)
