"""Team events through the real ASGI app (SPEC 3.7): standings from the JSON body and from
TRF, the breakdown, validation as problem+json, compare, batch, TRF both ways, catalogue."""

from __future__ import annotations

import copy
import json
from decimal import Decimal

import msgspec
import pytest

from testkit.conformance_teams import load_team_cases

CASES = load_team_cases()
CASE = {c.id: c for c in CASES}


def as_decimal(value):
    return None if value is None else Decimal(repr(value))


def check_expected(case, response):
    assert response.status_code == 200, response.text
    got = {row["id"]: row for row in response.json()["standings"]}
    for row in case.data["expected"]:
        mine = got[row["start_no"]]
        assert mine["rank"] == row["rank"], row["start_no"]
        assert [as_decimal(v) for v in mine["values"]] == [Decimal(v) for v in row["values"]], row["start_no"]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_over_http_from_the_json_body(client, case):
    body = case.body
    body["explain"] = False
    check_expected(case, client.post("/v1/standings", json=body))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_over_http_from_the_trf(client, case):
    data = case.data
    body = {
        "trf": case.trf_text,
        "tiebreaks": data["tiebreaks"],
        "regulations": data["regulations"],
        "after_round": data["after_round"],
    }
    check_expected(case, client.post("/v1/standings", json=body))


def standings(client, body, status=200):
    response = client.post("/v1/standings", json=body)
    assert response.status_code == status, response.text
    return response.json()


def test_rows_are_teams_with_both_scores(client):
    out = standings(client, CASE["tswiss-0003"].body)
    assert out["team_size"] == 4 and out["primary_score"] == "MP"
    first = out["standings"][0]
    assert (first["id"], first["name"], first["match_points"], first["game_points"]) == (2, "Bolivia", 12.0, 22.5)
    assert first["points"] == first["match_points"]
    assert [t["spec"] for t in out["tiebreaks"]] == ["PTS", "MPvGP", "EDE", "BH:MP/C1", "EMGSB"]
    assert out["tiebreaks"][3]["name"] == "Buchholz (match points) Cut-1"


def test_game_points_primary_from_a_leading_pts_gp(client):
    out = standings(client, CASE["tswiss-0008"].body)
    assert out["primary_score"] == "GP"
    first = out["standings"][0]
    assert first["points"] == first["game_points"]


def test_the_extended_sb_breakdown_shows_each_match_and_the_capped_dummy(client):
    row = standings(client, CASE["tswiss-0003"].body)["standings"][0]
    emgsb = row["breakdown"]["EMGSB"]
    assert emgsb["value"] == 152.5
    game = emgsb["contributions"][0]
    assert (game["kind"], game["opponent"], game["opponent_score"], game["result"], game["value"]) == (
        "match",
        1,
        12.0,
        1.5,
        18.0,
    )
    dummy = next(c for c in emgsb["contributions"] if c["kind"] == "dummy")
    # round 2: a forfeit won against Estonia (4 MP): own 12 MP capped at 4 (16.4.1), × 4 GP
    assert (dummy["round"], dummy["unplayed"], dummy["own_score"], dummy["capped_at"], dummy["article"]) == (
        2,
        "forfeit_win",
        12.0,
        4.0,
        "16.4.1",
    )
    assert dummy["value"] == 16.0


def test_cut_entries_say_why(client):
    body = CASE["tswiss-0001"].body
    row = standings(client, body)["standings"][0]
    cut = [c for c in row["breakdown"]["EMGSB/C1"]["contributions"] if c.get("cut")]
    assert len(cut) == 1 and cut[0]["cut_reason"] and cut[0]["cut_code"]
    assert row["breakdown"]["EMGSB/C1"]["total_before_cut"] is not None


def test_board_rules_show_every_board_and_which_one_decided(client):
    body = CASE["tworked-0001"].body
    out = standings(client, body)
    winner = out["standings"][0]
    assert winner["id"] == 1 and winner["decided_by"] == "TBR"
    tbr = winner["breakdown"]["TBR"]
    assert [c["kind"] for c in tbr["contributions"]] == ["board"] * 6
    assert [c["value"] for c in tbr["contributions"]] == [1.0, 0.0, 0.5, 0.0, 1.0, 0.5]
    assert "board 1" in tbr["note"]
    assert winner["breakdown"]["BC"]["value"] == 10.5
    assert any(w["code"] == "knockout-tiebreak-in-swiss" for w in out["warnings"])


def test_rating_rules_are_dropped_for_teams(client):
    body = CASE["tswiss-0003"].body
    body["tiebreaks"] = ["PTS", "ARO", "MPvGP"]
    out = standings(client, body)
    assert out["tiebreaks"][1]["dropped"]
    assert out["standings"][0]["values"][1] is None
    assert any(w["code"] == "rating-tiebreak-dropped" for w in out["warnings"])


def test_top_and_team_row(client):
    body = CASE["tswiss-0003"].body
    body |= {"top": 2, "player": 13}
    out = standings(client, body)
    assert [r["id"] for r in out["standings"]] == [2, 1, 13]
    assert out["total_players"] == 14


def test_the_olympiad_order_preset(client):
    body = CASE["tswiss-0001"].body
    del body["tiebreaks"]
    out = standings(client, body | {"preset": "team-swiss-emgsb"})
    assert [t["spec"] for t in out["tiebreaks"]] == ["PTS", "EMGSB/C1", "MPvGP", "BH:MP/C1"]
    problem = standings(client, body | {"preset": "uscf-default"}, 422)  # content: docs/contract.md
    assert problem["errors"][0]["path"] == "preset" and "team-swiss-emgsb" in problem["errors"][0]["message"]


def test_the_old_olympiad_name_says_what_the_preset_is_now(client):
    """Decision 0179: `olympiad` named a regulation the preset does not compute."""
    body = CASE["tswiss-0001"].body
    del body["tiebreaks"]
    problem = standings(client, body | {"preset": "olympiad"}, 422)
    (error,) = problem["errors"]
    assert error["path"] == "preset"
    assert "now 'team-swiss-emgsb'" in error["message"] and "not the Olympiad regulations' own" in error["message"]


def test_team_codes_are_refused_for_individuals_and_back(client):
    body = CASE["tswiss-0003"].body
    problem = standings(client, body | {"tiebreaks": ["PTS", "XYZ"]}, 422)
    assert problem["errors"][0]["path"] == "tiebreaks[1]" and "EMGSB" in problem["errors"][0]["message"]
    problem = standings(client, body | {"regulations": "uscf"}, 422)
    assert problem["errors"][0]["path"] == "regulations"
    individual = {"tournament": {"rounds": 1, "players": [{"id": 1}, {"id": 2}]}, "tiebreaks": ["EMGSB"]}
    assert standings(client, individual, 422)["errors"][0]["path"] == "tiebreaks[0]"
    individual["tiebreaks"] = ["BH:MP"]
    assert "team score" in standings(client, individual, 422)["errors"][0]["message"]


# ---------------------------------------------------------------- validation


def small_event() -> dict:
    return copy.deepcopy(CASE["tworked-0001"].body)


def problem_paths(client, body, status):
    out = standings(client, body, status)
    return [(e["path"], e["message"]) for e in out["errors"]]


def test_a_player_on_two_teams(client):
    body = small_event()
    body["team_tournament"]["teams"][1]["players"][0]["id"] = 3
    [(path, message)] = problem_paths(client, body, 422)
    assert path == "team_tournament.teams[1].players[0].id" and "also on team 1" in message


def test_a_board_out_of_range(client):
    body = small_event()
    body["team_tournament"]["matches"][0]["boards"][5]["board"] = 7
    paths = problem_paths(client, body, 422)
    assert paths[0][0] == "team_tournament.matches[0].boards[5].board" and "1..6" in paths[0][1]


def test_a_team_paired_twice_in_a_round(client):
    body = small_event()
    body["team_tournament"]["byes"] = [{"round": 1, "team": 2, "type": "half_bye"}]
    [(path, message)] = problem_paths(client, body, 422)
    assert path == "team_tournament.byes[0].team" and "paired twice in round 1" in message


def test_a_match_result_that_disagrees_with_its_boards(client):
    body = small_event()
    body["team_tournament"]["matches"][0]["game_points"] = [3.5, 2.5]
    [(path, message)] = problem_paths(client, body, 422)
    assert path == "team_tournament.matches[0].game_points" and "3-3" in message
    body["team_tournament"]["matches"][0]["game_points"] = [3, 3]
    standings(client, body)


def test_a_board_player_of_another_team_and_unknown_teams(client):
    body = small_event()
    body["team_tournament"]["matches"][0]["boards"][0]["black"] = 2  # Gifford's Cross's own board 2
    paths = problem_paths(client, body, 422)
    assert "team_tournament.matches[0].boards[0].black" in [p for p, _ in paths]
    body = small_event()
    body["team_tournament"]["matches"][0]["away"] = 9
    assert problem_paths(client, body, 422)[0][0] == "team_tournament.matches[0].away"


def test_shape_errors_are_400s(client):
    body = small_event()
    del body["team_tournament"]["matches"][0]["boards"]
    [(path, message)] = problem_paths(client, body, 400)
    assert path == "team_tournament.matches[0]" and "forfeit" in message
    body = small_event()
    body["team_tournament"]["board_colours"] = "WBW"  # matches the pattern, not the team size: content
    assert problem_paths(client, body, 422)[0][0] == "team_tournament.board_colours"
    body = small_event()
    body["tournament"] = {"rounds": 1, "players": [{"id": 1}]}
    assert "exactly one" in problem_paths(client, body, 400)[0][1]


# ---------------------------------------------------------------- everywhere a tournament goes


def test_compare_ranks_a_team_event_under_several_lists(client):
    case = CASE["tworked-0001"]
    body = {
        "trf": case.trf_text,
        "lists": [
            {"name": "top board", "tiebreaks": ["PTS", "MPvGP", "BC", "TBR"]},
            {"name": "bottom boards", "tiebreaks": ["PTS", "MPvGP", "BC", "BBE"]},
        ],
    }
    response = client.post("/v1/compare", json=body)
    assert response.status_code == 200, response.text
    summary = response.json()["summary"]
    assert [c["ids"] for c in summary["champions"]] == [[1], [2]]
    assert summary["same_champion"] is False
    body = {"team_tournament": case.body["team_tournament"], "lists": body["lists"]}
    assert client.post("/v1/compare", json=body).json()["summary"] == summary


def test_batch_takes_team_events(client):
    items = [
        CASE["tswiss-0003"].body | {"id": "json", "explain": False},
        {
            "id": "trf",
            "trf": CASE["trr-0001"].trf_text,
            "tiebreaks": CASE["trr-0001"].data["tiebreaks"],
            "explain": False,
        },
        {"id": "bad", "team_tournament": {"teams": [], "rounds": 1, "team_size": 4}},
    ]
    response = client.post("/v1/standings/batch", json=items)
    lines = [json.loads(line) for line in response.text.splitlines()]
    assert [(line["id"], line["status"]) for line in lines] == [("json", 200), ("trf", 200), ("bad", 400)]
    assert lines[1]["result"]["standings"][0]["match_points"] is not None


def test_trf_both_ways(client):
    case = CASE["tswiss-0002"]
    read = client.post("/v1/trf", json={"trf": case.trf_text})
    assert read.status_code == 200, read.text
    out = read.json()
    assert out["team_tournament"]["team_size"] == 4
    assert len(out["tournament"]["players"]) == 60  # the player lines, as an individual crosstable
    assert len(out["team_tournament"]["matches"]) == 42
    unoccupied = [
        b for m in out["team_tournament"]["matches"] for b in m["boards"] if b["white"] is None or b["black"] is None
    ]
    assert len(unoccupied) == 2
    written = client.post(
        "/v1/trf", json={"team_tournament": out["team_tournament"], "tiebreaks": case.data["tiebreaks"]}
    )
    assert written.status_code == 200, written.text
    text = written.json()["trf"]
    assert "300 002 002 010 0007 0008 0009 0000" in text and "\n310   1 Peru" in text
    again = client.post("/v1/standings", json={"trf": text, "explain": False})
    check_expected(case, again)  # the rule list came back from record 212


def test_catalogue_and_presets_list_the_team_rules(client):
    catalogue = {e["code"]: e for e in client.get("/v1/tiebreaks").json()}
    assert catalogue["EMGSB"]["events"] == ["team"] and catalogue["EMGSB"]["article"] == "C.07 13.2"
    assert catalogue["BH"]["events"] == ["individual", "team"]
    assert catalogue["MM"]["events"] == ["individual"]
    for code in (
        "MPvGP",
        "ESB",
        "EMMSB",
        "EGMSB",
        "EGGSB",
        "EDE",
        "EDEC",
        "EDET",
        "EDEB",
        "EDEBT",
        "EDEBB",
        "BC",
        "TBR",
        "BBE",
        "SSSC",
    ):
        assert code in catalogue
    presets = {p["name"]: p for p in client.get("/v1/presets").json()}
    assert presets["team-swiss-emgsb"]["event"] == "team" and presets["team-swiss-emgsb"]["tiebreaks"][1] == "EMGSB/C1"
    assert presets["uscf-default"]["event"] == "individual"


def test_every_team_request_validates_against_the_schema(client):
    schema = client.get("/schema/openapi.json").json()
    assert "team_tournament" in schema["components"]["schemas"]["StandingsRequest"]["properties"]
    body = msgspec.json.decode(json.dumps(CASE["tswiss-0004"].body))
    assert standings(client, body)["standings"]


def test_a_team_event_in_progress_is_ranked_after_its_last_round_with_matches(client):
    body = CASE["tworked-0001"].body
    body["team_tournament"]["rounds"] = 3
    out = standings(client, body)
    assert out["after_round"] == 1
    assert any(w["code"] == "after-round-defaulted" for w in out["warnings"])
    body["after_round"] = 3
    out = standings(client, body)
    assert out["after_round"] is None and any(w["code"] == "after-round-beyond-results" for w in out["warnings"])


def test_team_records_over_individual_pairings_leave_an_individual_event(client):
    # an open with team records for a team prize: teammates meet, so the pairings are no team matches
    lines = [
        "012 Club open",
        "142 1",
        "001    1      A                                 2000                             1.0    1     2 w 1",
        "001    2      B                                 1900                             0.0    2     1 b 0",
        "310   1 Club                             CLB             0.0    0.0   1     1    2",
    ]
    text = "\n".join(lines) + "\n"
    out = standings(client, {"trf": text, "tiebreaks": ["BH"]})
    assert out["team_size"] is None and [r["id"] for r in out["standings"]] == [1, 2]
    assert out["warnings"][0]["code"] == "trf-team-records-ignored"
    assert "line 3, column 92" in out["warnings"][0]["message"]
    read = client.post("/v1/trf", json={"trf": text}).json()
    assert read["team_tournament"] is None and read["warnings"][0]["code"] == "trf-team-records-ignored"
