"""`regulations`: fide-2009 and auto-historic over HTTP (issue 13)."""

from __future__ import annotations

import json

import pytest


def body(start_date: str, regulations: str) -> dict:
    return {
        "tournament": {
            "rounds": 2,
            "start_date": start_date,
            "system": "swiss",
            "players": [
                {
                    "id": 1,
                    "results": [
                        {"round": 1, "opponent": 2, "color": "w", "result": "win"},
                        {"round": 2, "result": "absent"},
                    ],
                },
                {
                    "id": 2,
                    "results": [
                        {"round": 1, "opponent": 1, "color": "b", "result": "loss"},
                        {"round": 2, "result": "pairing_bye"},
                    ],
                },
            ],
        },
        "tiebreaks": ["BH"],
        "regulations": regulations,
    }


@pytest.mark.parametrize(
    "start_date, regulations, applied",
    [
        ("2019-06-01", "auto-historic", "fide-2009"),
        ("2024-03-31", "auto-historic", "fide-2009"),
        ("2024-04-01", "auto-historic", "fide-2024"),
        ("2026-02-28", "auto-historic", "fide-2024"),
        ("2026-03-01", "auto-historic", "fide-2026"),
        ("2019-06-01", "auto", "fide-2024"),
        ("2019-06-01", "fide-2009", "fide-2009"),
    ],
)
def test_the_edition_follows_the_start_date(client, start_date, regulations, applied):
    response = client.post("/v1/standings", json=body(start_date, regulations))
    assert response.status_code == 200, response.text
    assert response.json()["regulations"] == applied


def test_auto_historic_says_it_applied_the_2009_rule(client):
    warnings = client.post("/v1/standings", json=body("2019-06-01", "auto-historic")).json()["warnings"]
    (w,) = [w for w in warnings if w["code"] == "fide-2009-applied"]
    assert "virtual opponent" in w["message"] and "1 September 2023" in w["message"]


def test_plain_auto_before_2024_names_auto_historic(client):
    warnings = client.post("/v1/standings", json=body("2019-06-01", "auto")).json()["warnings"]
    (w,) = [w for w in warnings if w["code"] == "pre-2024-event"]
    assert "auto-historic" in w["message"]
    later = client.post("/v1/standings", json=body("2025-06-01", "auto")).json()["warnings"]
    assert not [w for w in later if w["code"] == "pre-2024-event"]


def test_the_virtual_opponent_in_the_breakdown(client):
    # Player 1: won round 1 (1 point), absent in round 2: 1 + (1 - 0) + 0 = 2. Round 2 has no game
    # (a pairing bye and an absence), so it is counted only when asked: after_round 2.
    request = {**body("2019-06-01", "fide-2009"), "after_round": 2}
    standings = client.post("/v1/standings", json=request).json()["standings"]
    one = next(row for row in standings if row["id"] == 1)
    virtual = next(c for c in one["breakdown"]["BH"]["contributions"] if c["round"] == 2)
    assert virtual["kind"] == "virtual" and virtual["value"] == 2.0
    assert virtual["article"] == "C.02 13.15.2" and virtual["reason_code"] == "virtual-opponent"


def test_compare_shows_one_event_under_three_editions(client):
    # The 2026 worked example (SPEC 2.2): Hugo 4½ with a half-point bye in round 3.
    from pathlib import Path

    trf = (Path(__file__).parent.parent / "fixtures" / "conformance_fide" / "worked-c-hpb-2026.trf").read_text()
    response = client.post(
        "/v1/compare",
        json={
            "trf": trf,
            "lists": [
                {"name": "2009", "regulations": "fide-2009", "tiebreaks": ["BH"]},
                {"name": "2024", "regulations": "fide-2024", "tiebreaks": ["BH"]},
                {"name": "2026", "regulations": "fide-2026", "tiebreaks": ["BH"]},
            ],
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["regulations"] == ["fide-2009", "fide-2024", "fide-2026"]
    hugo = [next(r for r in lst["standings"]["standings"] if r["id"] == 1)["values"] for lst in body["lists"]]
    # docs/arbiters.md: virtual opponent 3½ (14.5), uncapped dummy 4½ (15.5), capped 2½ (13.5)
    assert hugo == [[14.5], [15.5], [13.5]]


def test_a_team_trf_ranks_its_teams_or_on_request_its_players(client):
    from pathlib import Path

    trf = (Path(__file__).parent.parent / "fixtures" / "conformance_fide_team" / "tswiss-0001.trf").read_text()
    teams = client.post("/v1/standings", json={"trf": trf, "tiebreaks": ["BH:MP"], "explain": False}).json()
    assert teams["team_size"] is not None
    players = client.post(
        "/v1/standings", json={"trf": trf, "tiebreaks": ["BH"], "explain": False, "participants": "players"}
    )
    assert players.status_code == 200, players.text
    body = players.json()
    assert body["team_size"] is None and len(body["standings"]) > len(teams["standings"])


def test_players_of_a_team_tournament_body_are_refused(client):
    from pathlib import Path

    event = json.loads(
        (Path(__file__).parent.parent / "fixtures" / "conformance_fide_team" / "tswiss-0001.input.json").read_text()
    )
    response = client.post("/v1/standings", json={**event, "participants": "players"})
    assert response.status_code == 400
