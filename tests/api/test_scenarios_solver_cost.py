"""The cost model prices a solver request by what it measures before the solver runs (usecases/cost.py,
decision 0268): its questions × the values of its model. A request clearly past `max_cost_s` is a
413 naming what to narrow in the request's own fields (`players`, `assume`, `places`), before any
question is asked; the narrowed request is answered."""

from __future__ import annotations

from dataclasses import replace
import math
import time

import msgspec
from litestar.testing import TestClient

from testkit.synthetic import swiss_wire
from tiebreak.http.app import create_app
from tiebreak.usecases.cost import estimate
from tiebreak.usecases.scenarios import compute_scenarios, plan_scenarios
from tiebreak.wire.limits import LIMITS, Deadline
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
    assert plan.solver and plan.counts.solver_questions and plan.counts.solver_model
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
        error = refused.json()["errors"][0]
        assert error["path"] == "players"
        message = error["message"]
        assert "questions to the solver" in message and "60 players" in message
        assert "`players`" in message and "`assume`" in message and "`places`" in message
        ru = client.post("/v1/scenarios", json=wide, headers={"Accept-Language": "ru"})
        assert ru.status_code == 413 and "вопросов решателю" in ru.json()["errors"][0]["message"]
        answered = client.post("/v1/scenarios", json=narrow)
        assert answered.status_code == 200, answered.text
        assert answered.json()["method"] == "solver"


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
