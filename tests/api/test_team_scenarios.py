"""POST /v1/scenarios on team events (issue 34, item 4): the open boards' results are the unknowns,
match points follow, the team rules rank every outcome, and the rows are teams.

SMALL is worked by hand: four teams of two boards (match points 2/1/0). Round 1: Alpha beat Beta
2-0, Gamma and Delta drew 1-1. Round 2 (filed as draws, reopened here): Alpha-Gamma on both boards
open, Beta-Delta 1-1 kept. Then Beta has 1 match point, Delta 2, and of Alpha (2 before) and Gamma
(1 before): Alpha ahead on match points when it wins or draws the match (4 or 3 against at most
2), Gamma alone first when it wins (3 against 2). Alpha's game points are its board 1 result as
white (Ann against Eve) plus its board 2 result as black (Bea against Fay); Alpha does not lose the
match exactly when they add to 1 or more: Ann wins; or Bea wins; or neither loses. Gamma wins the
match exactly when they add to less than 1: Fay wins and Ann does not; or Eve wins and Bea does not
lose... as the terms below say. Beta and Delta never finish first.
"""

from __future__ import annotations


import copy
import itertools

import pytest

from testkit.conformance import REALWORLD
from tiebreak.usecases.scenarios import file_request

CRETE = REALWORLD / "crete-team-cup-2024.trf"
SMALL = """\
012 Four teams, two boards
022 Torino
032 FID
042 2026/05/02
052 2026/05/03
062 8
072 8
082 4
092 Team Swiss System
102 IA Arbiter, Chief
122 90 min/40 moves + 30 sec/move
142 2
192 FIDE_TEAM_MP_GP
352 WB
001    1 m    Ann                               2000 FID                         1.5    1  0003 w 1  0005 w =
001    2 m    Bea                               2000 FID                         1.5    2  0004 b 1  0006 b =
001    3 m    Cid                               2000 FID                         0.5    3  0001 b 0  0007 w =
001    4 m    Dan                               2000 FID                         0.5    4  0002 w 0  0008 b =
001    5 m    Eve                               2000 FID                         1.5    5  0007 w 1  0001 b =
001    6 m    Fay                               2000 FID                         0.5    6  0008 b 0  0002 w =
001    7 m    Gil                               2000 FID                         0.5    7  0005 b 0  0003 b =
001    8 m    Hal                               2000 FID                         1.5    8  0006 w 1  0004 w =
310   1 Alpha                            ALP              3.0    3.0   1    1    2
310   2 Beta                             BET              1.0    1.0   2    3    4
310   3 Gamma                            GAM              2.0    2.0   3    5    6
310   4 Delta                            DEL              2.0    2.0   4    7    8

"""
OPEN = [{"round": 2, "white": 1, "black": 5}, {"round": 2, "white": 6, "black": 2}]
BOARD_1, BOARD_2 = (2, 1, 5), (2, 6, 2)


def _terms(place: dict) -> set[frozenset]:
    return {
        frozenset(((c["round"], c["white"], c["black"]), tuple(c["results"])) for c in term) for term in place["needs"]
    }


def test_a_small_team_event_worked_by_hand(client):
    response = client.post("/v1/scenarios", json={"trf": SMALL, "preset": "team-swiss", "pairings": OPEN})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["entrants"] == "teams" and answer["outcomes"] == 9
    assert [(g["white"], g["black"]) for g in answer["open_games"]] == [(1, 5), (6, 2)]
    teams = {p["id"]: p for p in answer["players"]}
    assert sorted(teams) == [1, 2, 3, 4] and teams[1]["name"] == "Alpha"
    (alpha,) = teams[1]["places"]
    assert _terms(alpha) == {
        frozenset({(BOARD_1, ("white",))}),
        frozenset({(BOARD_2, ("black",))}),
        frozenset({(BOARD_1, ("white", "draw")), (BOARD_2, ("draw", "black"))}),
    }
    (gamma,) = teams[3]["places"]
    assert _terms(gamma) == {
        frozenset({(BOARD_1, ("draw", "black")), (BOARD_2, ("white",))}),
        frozenset({(BOARD_1, ("black",)), (BOARD_2, ("white", "draw"))}),
    }
    assert teams[1]["best_rank"] == 1 and teams[3]["best_rank"] == 1
    assert teams[2]["places"] == [] and teams[4]["places"] == []
    assert teams[1]["clinched"] is None and teams[3]["clinched"] is None


def test_an_assumed_board_fixes_the_match(client):
    """Bea beating Fay gives Alpha 1 game point at least: Alpha first whatever Ann and Eve play."""
    body = {"trf": SMALL, "preset": "team-swiss", "pairings": OPEN, "assume": [{**OPEN[1], "result": "black"}]}
    answer = client.post("/v1/scenarios", json=body).json()
    teams = {p["id"]: p for p in answer["players"]}
    assert answer["outcomes"] == 3
    assert teams[1]["clinched"] == 1
    assert [{k: p[k] for k in ("place", "needs")} for p in teams[1]["places"]] == [{"place": 1, "needs": [[]]}]
    assert teams[3]["places"] == []


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"pairings": [{"round": 2, "white": 5, "black": 1}]}, "pairings[0]"),
        ({"pairings": OPEN, "players": [9]}, "players[0]"),
        ({"pairings": OPEN, "assume": [{"round": 2, "white": 3, "black": 7, "result": "draw"}]}, "assume[0]"),
    ],
)
def test_a_pairing_or_team_the_file_does_not_have_is_a_422_naming_it(client, body, path):
    response = client.post("/v1/scenarios", json={"trf": SMALL, "preset": "team-swiss", **body})
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["path"] == path


def _crete_open(open_boards: int) -> tuple[list[dict], list[dict]]:
    """The Crete cup's last round reopened (its 40 boards) and the file's own results of all but
    `open_boards` of them assumed."""
    request, _, played = file_request(None, CRETE.read_text(encoding="utf-8"), None, None)
    pairings = [{"round": p.round, "white": p.white, "black": p.black} for p in request.pairings if p.white]
    kept = [{"round": a.round, "white": a.white, "black": a.black, "result": a.result} for a in played]
    return pairings, kept[open_boards:]


@pytest.mark.skipif(not CRETE.is_file(), reason=f"{CRETE} is not here (../shared/conformance)")
def test_the_crete_cup_with_no_board_open_ranks_as_the_standings(client):
    """Every played board of the last round reopened and given its filed result (the one forfeit
    stays as filed): the one outcome ranks each team where POST /v1/standings ranks the event."""
    text = CRETE.read_text(encoding="utf-8")
    _, assume = _crete_open(0)
    pairings = [{k: a[k] for k in ("round", "white", "black")} for a in assume]
    body = {"trf": text, "preset": "team-swiss", "pairings": pairings, "assume": assume, "places": 3}
    answer = client.post("/v1/scenarios", json=body).json()
    assert answer["entrants"] == "teams" and answer["open_games"] == [] and answer["outcomes"] == 1
    assert len(pairings) == 39
    standings = client.post("/v1/standings", json={"trf": text, "preset": "team-swiss"}).json()
    ranks = {row["id"]: row["rank"] for row in standings["standings"]}
    assert len(answer["players"]) == len(ranks) == 15
    for team in answer["players"]:
        assert team["best_rank"] == team["worst_rank"] == ranks[team["id"]]


@pytest.mark.skipif(not CRETE.is_file(), reason=f"{CRETE} is not here (../shared/conformance)")
def test_the_crete_cup_enumerates_a_few_boards_and_solves_them_all(client):
    """Five boards open: every outcome enumerated (with `needs`); all 40 open: past enumeration, the
    team solver answers (tests/api/test_team_scenarios_solver.py checks its examples)."""
    text = CRETE.read_text(encoding="utf-8")
    pairings, assume = _crete_open(5)
    body = {"trf": text, "preset": "team-swiss", "pairings": pairings, "places": 3}
    answer = client.post("/v1/scenarios", json={**body, "assume": assume}).json()
    assert answer["entrants"] == "teams" and answer["outcomes"] == 3 ** len(answer["open_games"])
    assert answer["method"] == "enumeration"
    assert {p["id"] for p in answer["players"]} == set(range(1, 16))
    assert any(p["places"] for p in answer["players"])
    solved = client.post("/v1/scenarios", json=body)
    assert solved.status_code == 200, solved.text
    assert solved.json()["method"] == "solver" and len(solved.json()["open_games"]) == 40


BOARD_RESULT = {"white": "1-0", "draw": "1/2-1/2", "black": "0-1"}


@pytest.mark.parametrize("places", [1, 2, 3])
def test_every_outcome_agrees_with_the_standings_of_that_outcome(client, places):
    """All four round-2 boards open (81 outcomes): each outcome written into the event as JSON and
    ranked by POST /v1/standings; a team's `needs` holds in that outcome exactly when the standings
    put it at `places` or better, and its best and worst ranks are the standings' extremes."""
    pairings = [*OPEN, {"round": 2, "white": 3, "black": 7}, {"round": 2, "white": 8, "black": 4}]
    body = {"trf": SMALL, "preset": "team-swiss", "pairings": pairings, "places": places}
    answer = client.post("/v1/scenarios", json=body).json()
    assert answer["outcomes"] == 81
    event = client.post("/v1/trf", json={"trf": SMALL}).json()["team_tournament"]
    games = [(g["round"], g["white"], g["black"]) for g in answer["open_games"]]
    seen: dict[int, list[int]] = {}
    for outcome in itertools.product(("white", "draw", "black"), repeat=len(games)):
        result = dict(zip(games, outcome, strict=True))
        matches = copy.deepcopy(event["matches"])
        for match in matches:
            for board in match["boards"]:
                key = (match["round"], board["white"], board["black"])
                if key in result:
                    board["result"] = BOARD_RESULT[result[key]]
        standings = client.post(
            "/v1/standings", json={"team_tournament": {**event, "matches": matches}, "preset": "team-swiss"}
        ).json()
        ranks = {row["id"]: row["rank"] for row in standings["standings"]}
        for team in answer["players"]:
            seen.setdefault(team["id"], []).append(ranks[team["id"]])
            for place in range(1, places + 1):
                needs = next((p["needs"] for p in team["places"] if p["place"] == place), [])
                holds = any(
                    all(result[(c["round"], c["white"], c["black"])] in c["results"] for c in term) for term in needs
                )
                assert holds == (ranks[team["id"]] <= place), (team["id"], place, outcome)
    for team in answer["players"]:
        assert (team["best_rank"], team["worst_rank"]) == (min(seen[team["id"]]), max(seen[team["id"]]))


def test_a_board_given_twice_is_named_in_the_language_asked(client):
    """The same board twice in `pairings`: a 422 at the second, from the catalogue (Accept-Language)."""
    body = {"trf": SMALL, "preset": "team-swiss", "pairings": [*OPEN, OPEN[0]]}
    response = client.post("/v1/scenarios", json=body, headers={"Accept-Language": "ru"})
    assert response.status_code == 422 and response.headers["content-language"] == "ru", response.text
    error = response.json()["errors"][0]
    assert error["path"] == "pairings[2]" and "1-5" in error["message"] and "дважды" in error["message"]


@pytest.mark.parametrize(("rules", "rankings"), [(["PTS", "MPvGP", "BH:MP/C1", "EMGSB"], 25), (["PTS", "BC"], 81)])
def test_enumeration_ranks_each_set_of_match_scores_once(monkeypatch, rules, rankings):
    """All four round-2 boards open (81 outcomes, two matches of two boards): when no rule reads
    which board made the points, outcomes giving both matches the same game points rank alike, so
    5 × 5 team rankings are made, not 81 (decision 0295); BC reads the boards: every outcome. The
    answers are those checked outcome by outcome against /v1/standings above."""
    import msgspec

    from tiebreak.usecases import team_scenarios
    from tiebreak.wire import scenarios as w

    made = []
    ranked = team_scenarios._ranked
    monkeypatch.setattr(team_scenarios, "_ranked", lambda plan, row: made.append(1) or ranked(plan, row))
    pairings = [*OPEN, {"round": 2, "white": 3, "black": 7}, {"round": 2, "white": 8, "black": 4}]
    body = msgspec.convert({"trf": SMALL, "tiebreaks": rules, "pairings": pairings, "places": 2}, w.ScenariosRequest)
    answer = team_scenarios.compute_team_scenarios(team_scenarios.plan_team_scenarios(body, method="enumeration"))
    assert answer.outcomes == 81 and len(made) == rankings
