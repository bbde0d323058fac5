"""`top` and `player`: the rows a mobile app asks for, identical to those of the full standings."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from tiebreak.http.app import app
from testkit.synthetic import swiss_wire
from tests.profiles import examples

TOURNAMENT = swiss_wire(40, 7, seed=5)
RULES = ["BH/C1", "BH", "SB", "DE"]
CLIENT = TestClient(app)


def standings(**selection):
    response = CLIENT.post("/v1/standings", json={"tournament": TOURNAMENT, "tiebreaks": RULES, **selection})
    assert response.status_code == 200, response.text
    return response.json()


FULL = standings()
IDS = [row["id"] for row in FULL["standings"]]


def test_full_standings_report_the_number_of_players():
    assert FULL["total_players"] == len(FULL["standings"]) == 40


@settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
@given(top=st.integers(1, 45), explain=st.booleans())
def test_top_returns_the_first_rows_unchanged(top, explain):
    got = standings(top=top, explain=explain)
    expected = FULL["standings"][:top]
    if not explain:
        expected = [{**row, "breakdown": None, "opponents": None} for row in expected]
    assert got["standings"] == expected
    assert got["total_players"] == 40
    assert {k: v for k, v in got.items() if k != "standings"} == {k: v for k, v in FULL.items() if k != "standings"}


@pytest.mark.parametrize("position", [0, 17, 39])
def test_player_returns_that_row_with_its_breakdown(position):
    pid = IDS[position]
    got = standings(player=pid)
    assert got["standings"] == [FULL["standings"][position]]
    assert got["standings"][0]["breakdown"]


def test_top_and_player_together():
    inside = standings(top=5, player=IDS[2])["standings"]
    assert inside == FULL["standings"][:5]
    outside = standings(top=3, player=IDS[30])["standings"]
    assert outside == FULL["standings"][:3] + [FULL["standings"][30]]


def test_unknown_player_is_a_422_naming_the_field():
    response = CLIENT.post("/v1/standings", json={"tournament": TOURNAMENT, "tiebreaks": RULES, "player": max(IDS) + 1})
    assert response.status_code == 422
    assert response.json()["errors"][0]["path"] == "player"


@pytest.mark.parametrize("field,value", [("top", 0), ("top", -1), ("top", "3"), ("player", 0), ("player", 1.5)])
def test_invalid_selection_is_a_400(field, value):
    response = CLIENT.post("/v1/standings", json={"tournament": TOURNAMENT, "tiebreaks": RULES, field: value})
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"] == field
