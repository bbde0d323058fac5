"""POST /v1/scenarios on events worked by hand, its errors and its bound (413)."""

from __future__ import annotations

import copy
from dataclasses import replace

from litestar.testing import TestClient

import tiebreak.engine.scenario_formulas as formulas
import tiebreak.usecases.scenarios as use
from tiebreak.http.app import create_app
from tiebreak.http.scenarios import EXAMPLE
from testkit.synthetic import swiss_wire
from tiebreak.wire.limits import LIMITS

# EXAMPLE: Kira (1) beat Hugo (2), Ana (3) beat Kira; before round 3 Ana has 2, Kira and Hugo 1, Bo 0.
# Round 3: Kira-Bo (game A), Hugo-Ana (game B).
A = {"round": 3, "white": 1, "black": 4}
B = {"round": 3, "white": 2, "black": 3}


def _post(client, body: dict) -> dict:
    response = client.post("/v1/scenarios", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def _by_id(answer: dict) -> dict[int, dict]:
    return {p["id"]: p for p in answer["players"]}


def _place(player: dict, place: int) -> list | None:
    return next((p["needs"] for p in player["places"] if p["place"] == place), None)


def test_direct_encounter_decides_first_place(client):
    """Kira reaches 2 only by winning; then Ana reaches 2 only if Hugo wins, and Kira, Ana and Hugo each
    beat one of the others: DE leaves them level, all three share 1st. If Kira does not win, Hugo
    and Ana can meet on 2 and Hugo, who beat Ana, is 1st alone. Ana is 1st unless Hugo beats her
    while Kira does not win."""
    players = _by_id(_post(client, EXAMPLE))
    assert players[1]["best_rank"] == 1 and players[1]["worst_rank"] == 4  # she loses, Bo beat her: last
    assert _place(players[1], 1) == [[{**A, "results": ["white"]}, {**B, "results": ["white"]}]]
    assert _place(players[2], 1) == [[{**B, "results": ["white"]}]]  # Kira's game never matters for Hugo
    assert _place(players[3], 1) == [[{**A, "results": ["white"]}], [{**B, "results": ["draw", "black"]}]]
    assert players[4]["places"] == [] and players[4]["best_rank"] == 2  # Kira, Hugo, Bo level on 1: DE all 1
    assert all(p["clinched"] is None for p in players.values())


def test_points_alone_a_shared_first_is_first(client):
    """Without tie-breaks players level on points share the rank: Ana (2 or more) is always 1st."""
    players = _by_id(_post(client, {**EXAMPLE, "tiebreaks": []}))
    assert players[3]["clinched"] == 1 and _place(players[3], 1) == [[]]
    assert _place(players[1], 1) == [[{**A, "results": ["white"]}, {**B, "results": ["white"]}]]
    assert _place(players[2], 1) == [[{**B, "results": ["white"]}]]


def test_an_assumed_result_closes_its_game(client):
    """Hugo and Ana drawn (assumed): Ana 2½ is 1st alone. Kira is 2nd if she does not lose (a win:
    2; a draw: level with Hugo on 1½, and she beat him); losing, she is last behind Bo, who beat her."""
    body = {**EXAMPLE, "places": 2, "assume": [{**B, "result": "draw"}]}
    answer = _post(client, body)
    assert answer["outcomes"] == 3 and answer["open_games"] == [A]
    players = _by_id(answer)
    assert players[3]["clinched"] == 1 and players[3]["best_rank"] == players[3]["worst_rank"] == 1
    assert _place(players[1], 1) is None
    assert _place(players[1], 2) == [[{**A, "results": ["white", "draw"]}]]
    assert (players[1]["best_rank"], players[1]["worst_rank"]) == (2, 4)


def test_players_chooses_the_rows(client):
    answer = _post(client, {**EXAMPLE, "players": [3, 1]})
    assert [p["id"] for p in answer["players"]] == [1, 3]


def _problem(client, body: dict, status: int = 422) -> dict:
    response = client.post("/v1/scenarios", json=body)
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    return response.json()


def test_bad_pairings_point_at_the_field(client):
    cases = [
        ({"pairings": [{"round": 3, "white": 1, "black": 9}]}, "pairings[0].black", "no player"),
        ({"pairings": [A, {"round": 3, "white": 2, "black": 1}]}, "pairings[1].black", "paired twice"),
        ({"pairings": [{"round": 2, "white": 1, "black": 4}]}, "pairings[0].white", "already has a result"),
        ({"pairings": [{"round": 4, "white": 1, "black": 4}]}, "pairings[0].round", "past the event"),
        ({"assume": [{**A, "white": 4, "black": 1, "result": "draw"}]}, "assume[0]", "no game 4-1"),
        ({"players": [1, 7]}, "players[1]", "no player"),
    ]
    for change, path, message in cases:
        problem = _problem(client, {**EXAMPLE, **change})
        assert problem["errors"][0]["path"] == path, problem
        assert message in problem["errors"][0]["message"]


def test_the_drawing_of_lots_takes_no_part_in_scenarios(client):
    problem = _problem(client, {**EXAMPLE, "tiebreaks": ["DE", "RND"]})
    assert problem["errors"][0]["path"] == "tiebreaks"
    assert "RND" in problem["errors"][0]["message"]


def test_a_pairing_is_a_game_or_a_bye(client):
    problem = _problem(client, {**EXAMPLE, "pairings": [{"round": 3, "white": 1}]}, 400)
    assert "a game" in str(problem)


def test_too_many_open_games_is_a_413_naming_them():
    """A 60-player event with its 30 boards open: 3^30 outcomes are refused before any is made when
    the rule list is one the solver does not take (DE reads whoever is tied: enumerated only)."""
    tournament = swiss_wire(60, 5, seed=2)
    tournament["rounds"] = 6
    pairings = [{"round": 6, "white": i, "black": i + 1} for i in range(1, 61, 2)]
    body = {"tournament": tournament, "tiebreaks": ["DE", "BH"], "pairings": pairings}
    with TestClient(create_app(replace(LIMITS, max_cost_s=5.0))) as c:
        problem = _problem(c, body, 413)
    message = problem["errors"][0]["message"]
    assert "30 games are open" in message and "`assume`" in message and "fewer players (`players`)" in message
    assert "max_cost_s" not in str(problem) and "TIEBREAK_" not in str(problem)  # read by an arbiter
    assert problem["detail"] == message.split("; fix")[0]  # the games and how many fit, without the fields
    admitted = int(message.split("at most ")[1].split(" ")[0])
    assert 0 < admitted < 30
    # one game more than it says fit is refused too: the count is not a guess past the limit
    more = copy.deepcopy(body)
    more["assume"] = [{**p, "result": "draw"} for p in pairings[admitted + 1 :]]
    with TestClient(create_app(replace(LIMITS, max_cost_s=5.0))) as c:
        problem = _problem(c, more, 413)
    assert f"{admitted + 1} games are open" in problem["errors"][0]["message"]


def test_the_request_errors_are_in_the_language_asked(client, monkeypatch):
    """Accept-Language: ru: each message naming a bad pairing, an assumed result or the solver's
    refusal reads in Russian (the catalogue, not an f-string)."""
    cases = [
        ({"pairings": [A, {"round": 3, "white": 2, "black": 1}]}, "дважды поставлен в пару"),
        ({"pairings": [{"round": 2, "white": 1, "black": 4}]}, "уже есть результат 2-го тура"),
        ({"pairings": [{"round": 4, "white": 1, "black": 4}]}, "за пределами 3 туров"),
        ({"pairings": [{"round": 3, "white": 1, "black": 1}]}, "сам с собой"),
        ({"pairings": [{"round": 3, "white": 1, "black": 9}]}, "нет стартового номера 9"),
        ({"assume": [{**A, "white": 4, "black": 1, "result": "draw"}]}, "нет партии 4-1"),
        ({"assume": [{**A, "result": "draw"}, {**A, "result": "white"}]}, "указана дважды"),
    ]
    for change, text in cases:
        response = client.post("/v1/scenarios", json={**EXAMPLE, **change}, headers={"Accept-Language": "ru"})
        assert response.status_code == 422 and response.headers["content-language"] == "ru", response.text
        assert text in response.json()["errors"][0]["message"], (text, response.text)
    # the solver's refusal: Buchholz's rounds read more open games than the sums over rounds take
    # (a bound of none, decision 0270)
    monkeypatch.setattr(use, "_enumeration_fits", lambda counts, limits: False)
    monkeypatch.setattr(use, "MOST_READ", 0)
    monkeypatch.setattr(formulas, "MOST_PER_ROUND", 0)
    body = {**EXAMPLE, "tiebreaks": ["BH", "WIN"]}
    # computed on the loop, where the patches hold: the solver's price (decision 0268) would send it
    # to a worker process, which plans again without them
    with TestClient(create_app(replace(LIMITS, inline_max_cost_ms=1e9))) as inline:
        response = inline.post("/v1/scenarios", json=body, headers={"Accept-Language": "ru"})
    assert response.status_code == 422, response.text
    error = response.json()["errors"][0]
    assert error["path"] == "tiebreaks[0]" and "решатель пока не записывает" in error["message"]
    assert "BH" in error["message"] and "`assume`" in error["message"]
