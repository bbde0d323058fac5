"""Paging for small clients: `offset` + `top` page through the standings, `player` takes one
start number or several; every row returned is the row of the full standings, unchanged."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from tiebreak.usecases import standings as pipeline
from tiebreak.http.app import app
from testkit.synthetic import swiss_wire
from tests.profiles import examples

TOURNAMENT = swiss_wire(30, 7, seed=11)
for i, p in enumerate(TOURNAMENT["players"]):  # some players' identities and keys: rows and breakdowns carry them
    if i % 3 == 0:
        p.update(key=f"key-{p['id']}", federation="NOR")
    if i % 4 == 1:
        p.update(title="FM", birth_date="1990")
RULES = ["BH/C1", "BH", "SB", "DE"]
CLIENT = TestClient(app)


def standings(**selection) -> dict:
    response = CLIENT.post("/v1/standings", json={"tournament": TOURNAMENT, "tiebreaks": RULES, **selection})
    assert response.status_code == 200, response.text
    return response.json()


FULL = standings()
ROWS = FULL["standings"]
IDS = [row["id"] for row in ROWS]


def without_breakdown(rows: list[dict]) -> list[dict]:
    return [{**row, "breakdown": None, "opponents": None} for row in rows]


@pytest.mark.parametrize("size", [1, 7, 10, 30])
def test_pages_put_together_are_the_full_standings(size):
    pages = [standings(offset=start, top=size) for start in range(0, len(ROWS), size)]
    assert [row for page in pages for row in page["standings"]] == ROWS
    assert {page["total_players"] for page in pages} == {30}


@settings(max_examples=examples(30), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    offset=st.integers(0, 35),
    top=st.none() | st.integers(1, 35),
    explain=st.booleans(),
    players=st.none() | st.lists(st.sampled_from(IDS), min_size=1, max_size=4),
)
def test_a_page_and_players_are_rows_of_the_full_standings(offset, top, explain, players):
    got = standings(offset=offset, top=top, explain=explain, player=players)["standings"]
    paged = top is not None or offset > 0
    page = (ROWS[offset : offset + top] if top is not None else ROWS[offset:]) if paged else []
    if players is None and not paged:
        page = ROWS
    shown = {row["id"] for row in page}
    expected = page + [row for row in ROWS if players and row["id"] in players and row["id"] not in shown]
    assert got == (expected if explain else without_breakdown(expected))


def test_one_id_or_a_list_of_one_are_the_same_request():
    assert standings(player=IDS[12]) == standings(player=[IDS[12]])


def test_players_come_in_standings_order_and_once():
    got = standings(player=[IDS[20], IDS[3], IDS[20]], explain=False)["standings"]
    assert [row["id"] for row in got] == [IDS[3], IDS[20]]


def test_a_player_ranked_above_the_page_follows_it():
    got = standings(offset=10, top=5, player=[IDS[0], IDS[12]], explain=False)["standings"]
    assert [row["id"] for row in got] == IDS[10:15] + [IDS[0]]


def test_an_offset_past_the_end_is_an_empty_page():
    body = standings(offset=30, top=10)
    assert body["standings"] == [] and body["total_players"] == 30


@pytest.mark.parametrize("player, path", [(999, "player"), ([IDS[0], 999], "player[1]")])
def test_an_unknown_player_is_a_422_naming_it(player, path):
    response = CLIENT.post("/v1/standings", json={"tournament": TOURNAMENT, "player": player})
    assert response.status_code == 422
    assert response.json()["errors"][0]["path"] == path


@pytest.mark.parametrize("field, value", [("player", []), ("player", [0]), ("offset", -1), ("offset", None)])
def test_a_malformed_selection_is_a_400(field, value):
    response = CLIENT.post("/v1/standings", json={"tournament": TOURNAMENT, field: value})
    assert response.status_code == 400
    assert response.json()["errors"][0]["path"].startswith(field)


def test_a_batch_item_pages_too():
    item = {"tournament": TOURNAMENT, "tiebreaks": RULES, "offset": 5, "top": 5, "player": [IDS[0]]}
    lines = CLIENT.post("/v1/standings/batch", json=[item]).content.splitlines()
    assert json.loads(lines[0])["result"]["standings"] == ROWS[5:10] + ROWS[:1]


@pytest.mark.parametrize(
    "selection",
    [
        {"explain": False, "offset": 10, "top": 5, "player": [1, 2]},
        {"player": [1, 2, 3]},
        {"top": 100},
        {"offset": 10, "top": 5, "player": [1]},
    ],
)
def test_one_engine_pass_builds_the_breakdowns_of_the_rows_returned_only(monkeypatch, selection):
    from tiebreak.engine.standings import Standings

    passes, explained = [], []
    real_compute, real_explain = pipeline.compute_standings, Standings.explain
    monkeypatch.setattr(pipeline, "compute_standings", lambda *a, **k: passes.append(a) or real_compute(*a, **k))

    def explain(self, players):
        players = list(players)
        explained.append([self.table.ids[p] for p in players])
        return real_explain(self, players)

    monkeypatch.setattr(Standings, "explain", explain)
    rows = standings(**selection)["standings"]
    assert len(passes) == 1
    if selection.get("explain", True):
        assert explained == [[row["id"] for row in rows]]  # the page and the players, nobody else
    else:
        assert explained == []
