"""`regulations: "uscf"` over HTTP: codes, aliases, rule-set errors and the breakdown.

Figures: the [OCHESS] adjusted-score example (an opponent who won two, lost the third and
withdrew has adjusted score 1+1+0+0.5+0.5 = 3; the player's own unplayed games count as
opponents with adjusted score 0), US Chess Official Rules of Chess 7th ed. 34E1 as printed
at ochess.org/tiebreaks; see tests/engine/test_uscf.py for the sources.
"""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from tiebreak.http.app import app
from tiebreak.usecases.convert import tournament_to_wire
from tests.strategies import swiss_tournaments
from tests.profiles import examples


def game(rnd, opp, color, result):
    return {"round": rnd, "opponent": opp, "color": color, "result": result}


def withdrawn_opponent_tournament():
    # 1: half-point bye, beats 2 in round 2, beats 3 in round 3.
    # 2 (X of [OCHESS]) beats 4 and 5, loses to 1, withdraws: adjusted 3 (face value 2).
    return {
        "rounds": 5,
        "players": [
            {
                "id": 1,
                "name": "P",
                "results": [{"round": 1, "result": "half_bye"}, game(3, 2, "w", "win"), game(4, 3, "w", "win")],
            },
            {
                "id": 2,
                "name": "X",
                "results": [
                    game(1, 4, "w", "win"),
                    game(2, 5, "b", "win"),
                    game(3, 1, "b", "loss"),
                    {"round": 4, "result": "absent"},
                    {"round": 5, "result": "absent"},
                ],
            },
            {"id": 3, "name": "Y", "results": [game(4, 1, "b", "loss")]},
            {"id": 4, "name": "F1", "results": [game(1, 2, "b", "loss")]},
            {"id": 5, "name": "F2", "results": [game(2, 2, "w", "loss")]},
        ],
    }


def test_uscf_standings_echo_canonical_specs_and_articles(client):
    response = client.post(
        "/v1/standings",
        json={
            "tournament": withdrawn_opponent_tournament(),
            "regulations": "uscf",
            "tiebreaks": ["Modified Median", "solkoff", "Cumulative", "HARKNESS", {"code": "kashdan"}],
        },
    )
    body = response.json()
    assert response.status_code == 200, body
    assert body["regulations"] == "uscf"
    assert [t["spec"] for t in body["tiebreaks"]] == ["MM", "SOLK", "CUM", "MED", "KASH"]
    assert [t["article"] for t in body["tiebreaks"]] == [
        "US Chess 34E1",
        "US Chess 34E2",
        "US Chess 34E3",
        "US Chess 34E1",
        "US Chess 34E7",
    ]


def test_uscf_breakdown_shows_adjusted_scores_and_own_unplayed_rounds(client):
    body = client.post(
        "/v1/standings",
        json={
            "tournament": withdrawn_opponent_tournament(),
            "regulations": "uscf",
            "tiebreaks": ["SOLK", "MM"],
            "after_round": 5,
        },
    ).json()
    p = next(row for row in body["standings"] if row["id"] == 1)
    solk = {c["round"]: c for c in p["breakdown"]["SOLK"]["contributions"]}
    assert solk[3]["value"] == 3.0 and "adjusted score 3" in solk[3]["note"]  # [OCHESS]
    assert solk[1]["kind"] == "unplayed" and solk[1]["value"] == 0 and solk[1]["unplayed"] == "half_bye"
    assert solk[2]["kind"] == "unplayed" and solk[2]["unplayed"] == "absent"
    # P scored 2.5 of 5: an even score, both ends dropped (34E1).
    mm = p["breakdown"]["MM"]
    assert "even score" in mm["note"]
    assert sum(1 for c in mm["contributions"] if c.get("cut")) == 2


def test_fide_code_under_uscf_is_a_422_naming_the_rule_set(client):
    response = client.post(
        "/v1/standings",
        json={"tournament": withdrawn_opponent_tournament(), "regulations": "uscf", "tiebreaks": ["MM", "BH/C1"]},
    )
    assert response.status_code == 422
    error = response.json()["errors"][0]
    assert error["path"] == "tiebreaks[1]"
    assert "uscf" in error["message"] and "fide-2026" in error["message"] and "SOLK" in error["message"]


@pytest.mark.parametrize("alias", ["Solkoff", "Modified Median", "Harkness", "MM"])
def test_uscf_rule_under_fide_is_a_422(client, alias):
    response = client.post(
        "/v1/standings",
        json={"tournament": withdrawn_opponent_tournament(), "regulations": "fide-2026", "tiebreaks": [alias]},
    )
    assert response.status_code == 422
    message = response.json()["errors"][0]["message"]
    assert "uscf" in message and "fide-2026" in message and "BH" in message


@pytest.mark.parametrize(
    "alias, spec",
    [
        ("BH-C1", "BH/C1"),
        ("Buchholz Cut 1", "BH/C1"),
        ("bhc1", "BH/C1"),
        ("Median-1", "BH/M1"),
        ("Cumulative", "PS"),
        ("sonneborn-berger", "SB"),
    ],
)
def test_fide_aliases_echo_canonical(client, alias, spec):
    body = client.post(
        "/v1/standings", json={"tournament": withdrawn_opponent_tournament(), "tiebreaks": [alias]}
    ).json()
    assert body["tiebreaks"][0]["spec"] == spec


def test_catalogue_lists_both_rule_sets(client):
    entries = {e["code"]: e for e in client.get("/v1/tiebreaks").json()}
    assert entries["MM"]["regulations"] == ["uscf"] and entries["MM"]["article"] == "US Chess 34E1"
    assert "modified median" in entries["MM"]["aliases"]
    assert (
        entries["BH"]["regulations"] == ["fide-2009", "fide-2024", "fide-2026"]
        and entries["BH"]["article"] == "C.07 8.1"
    )
    assert entries["BH"]["modifiers"] == ["C", "M", "P"]
    assert entries["DE"]["lower_is_better"] is True
    assert entries["OPERF"]["rating_based"] is True
    for code in ("MM", "MED", "SOLK", "CUM", "OCUM", "KASH", "SBUS", "BLK", "RBT", "AROUS", "OPERF"):
        assert code in entries


def test_rule_list_warnings_over_http(client):
    body = client.post(
        "/v1/standings",
        json={
            "tournament": withdrawn_opponent_tournament(),
            "tiebreaks": ["BH/C1", "BH", "BH/C1", "PTS"],
            "after_round": 5,
        },
    ).json()
    codes = {w["code"]: w for w in body["warnings"]}
    assert "duplicate-tiebreak" in codes and "tiebreaks[2]" in codes["duplicate-tiebreak"]["message"]
    assert "redundant-tiebreak" in codes
    # round 5 has no result but absences
    assert codes["after-round-beyond-results"]["rule"] == "C.07 16"


def test_arbiters_example(client):
    # docs/arbiters.md: SPEC 2.2's half-point-bye example under the three rule sets. Hugo's
    # real opponents finished 2, 3, 3.5 and 2.5 (11), all with every round played.
    # Published: BH 13.5 (2026, dummy capped at 2.5) and 15.5 (2024, dummy 4.5), BH/C1 11
    # (worked-c-hpb-2026.json, worked-c-hpb-2024.json). US Chess 34E1 by hand: the bye is an
    # opponent with adjusted score 0: Solkoff 11; plus score, Modified Median drops the 0: 11.
    from pathlib import Path

    trf = (Path(__file__).parent.parent / "fixtures" / "conformance_fide" / "worked-c-hpb-2026.trf").read_text()
    lists = [
        {"name": "FIDE 2026", "regulations": "fide-2026", "tiebreaks": ["BH", "BH/C1"]},
        {"name": "FIDE 2024", "regulations": "fide-2024", "tiebreaks": ["BH", "BH/C1"]},
        {"name": "US Chess", "regulations": "uscf", "tiebreaks": ["SOLK", "MM"]},
    ]
    body = client.post("/v1/compare", json={"trf": trf, "lists": lists, "explain": True}).json()
    hugo = {item["name"]: next(r for r in item["standings"]["standings"] if r["id"] == 1) for item in body["lists"]}
    assert hugo["FIDE 2026"]["values"] == [13.5, 11.0]
    assert hugo["FIDE 2024"]["values"] == [15.5, 11.0]
    assert hugo["US Chess"]["values"] == [11.0, 11.0]
    bye = next(c for c in hugo["US Chess"]["breakdown"]["MM"]["contributions"] if c["round"] == 3)
    assert bye["value"] == 0 and bye["cut"] and "plus score" in bye["cut_reason"]


# ---- random crosstables under uscf and through /v1/compare: always a 200 -----------------

RANDOM_RULES = ["MM", "SOLK", "CUM", "OCUM", "MED", "SBUS", "KASH", "BLK", "RBT", "AROUS", "OPERF"]
CLIENT = TestClient(app)  # no lifespan hooks to run; one client for every example


@settings(max_examples=examples(30), deadline=None, suppress_health_check=list(HealthCheck))
@given(drawn=swiss_tournaments(), explain=st.booleans())
def test_random_crosstables_under_uscf_and_compare(drawn, explain):
    tournament = msgspec.to_builtins(tournament_to_wire(drawn.tournament))
    response = CLIENT.post(
        "/v1/standings",
        json={
            "tournament": tournament,
            "regulations": "uscf",
            "tiebreaks": RANDOM_RULES,
            "explain": explain,
            "unrated_rating": 1500,
        },
    )
    assert response.status_code == 200, response.text
    assert len(response.json()["standings"]) == len(drawn.tournament.players)
    response = CLIENT.post(
        "/v1/compare",
        json={
            "tournament": tournament,
            "explain": explain,
            "lists": [
                {"name": "fide", "preset": "club-swiss-5-7"},
                {"name": "us", "preset": "uscf-default"},
                {"name": "us-all", "tiebreaks": RANDOM_RULES, "regulations": "uscf"},
            ],
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert [c["rule_list"] for c in body["summary"]["champions"]] == ["fide", "us", "us-all"]
    assert body["regulations"][1:] == ["uscf", "uscf"]
