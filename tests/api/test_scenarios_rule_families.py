"""POST /v1/scenarios on San Viator (137 players, the last round's 56 games open) with the rule
families the solver writes as sums over rounds since decision 0270: Buchholz cuts and medians, Fore
Buchholz, Sonneborn-Berger Cut-1, the average of the opponents' Buchholz, the rating rules, Koya. Every
best and worst example, posted to /v1/standings, ranks the player as claimed (tests/api/
test_scenarios_solver.py's `_checked`); a rule still not written is a 422 naming it alone."""

from __future__ import annotations

from dataclasses import replace

import msgspec
import pytest
from litestar.testing import TestClient

from tests.api.test_scenarios_realworld import _without_nulls
from tests.api.test_scenarios_solver import _checked
from testkit.conformance import REALWORLD
from tiebreak.http.app import create_app
from tiebreak.usecases.scenarios import file_request
from tiebreak.wire.limits import LIMITS

PATH = REALWORLD / "san-viator-madrid-2018.trf"
FAMILIES = [
    ["BH/C2", "BH/M1", "FB"],  # cuts and medians (16.5, unplayed rounds first), Fore Buchholz (8.3)
    ["BH/C1", "BH/C2", "SB"],  # the weekend-open preset
    ["SB/C1", "AOB"],  # SB's cut with unplayed rounds (16.5.1), the mean of the opponents' Buchholz (8.4)
    ["ARO", "TPR", "APRO", "PTP"],  # the rating rules (10.1-10.5)
    ["KS", "BH/C1"],  # Koya (9.2)
    ["MM", "SOLK", "SBUS"],  # US Chess 34E1, 34E2, 34E8 (regulations uscf)
    ["OCUM", "AROUS", "OPERF"],  # US Chess 34E9-34E11 (regulations uscf)
]


@pytest.fixture(scope="module")
def san_viator():
    if not PATH.exists():
        pytest.skip(f"{PATH} is not on this machine")
    text = PATH.read_text(encoding="utf-8", errors="replace")
    # a busy machine must not turn the answer into the deadline's 503: the bound is not what is tested
    with TestClient(create_app(replace(LIMITS, compute_deadline_s=600.0))) as client:
        request, _, _ = file_request(None, text, None, ["PS", "WIN"], places=10)
        probe = client.post("/v1/scenarios", json=_without_nulls(msgspec.to_builtins(request))).json()
        leaders = sorted(p["id"] for p in sorted(probe["players"], key=lambda p: p["best_rank"])[:4])
        yield client, text, leaders


def _body(text: str, rules: list[str], players: list[int]) -> dict:
    request, _, _ = file_request(None, text, None, rules, places=10)
    body = _without_nulls(msgspec.to_builtins(request))
    body["players"] = players
    return body


@pytest.mark.parametrize("rules", FAMILIES, ids=lambda rules: "+".join(rules))
def test_san_viator_rule_families_answer_with_examples_that_rank_as_claimed(san_viator, rules):
    client, text, leaders = san_viator
    body = _body(text, rules, leaders)
    if rules[0] in ("MM", "OCUM"):
        body["regulations"] = "uscf"
    body["unrated_rating"] = 1000  # 20 players are unrated: without it the rating rules are dropped (C.07 10)
    answer = _checked(client, body)
    assert len(answer["open_games"]) == 56 and len(answer["players"]) == 4
    assert [t["spec"] for t in answer["tiebreaks"]] == rules
    assert not any(t.get("dropped") for t in answer["tiebreaks"])  # every rule computed, none left out


@pytest.mark.parametrize(
    ("rules", "position", "named"),
    [
        # a median of SB with voluntary unplayed rounds (16.5.1 weighs them cut by cut): San Viator's
        # half-point byes make some
        (["BH/C1", "SB/M1"], 1, "SB/M1"),
    ],
)
def test_san_viator_a_rule_not_written_is_a_422_naming_it(san_viator, rules, position, named):
    client, text, leaders = san_viator
    body = _body(text, rules, leaders)
    response = client.post("/v1/scenarios", json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    error = response.json()["errors"][0]
    assert error["path"] == f"tiebreaks[{position}]"
    assert error["message"].startswith(f"{named}: not written as constraints")
