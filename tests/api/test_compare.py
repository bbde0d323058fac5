"""POST /v1/compare over the real ASGI app.

The "one table, three champions" case comes from the conformance set: the same 14-player
crosstable (tests/fixtures/conformance_fide/worked-d-*.trf) crowns Bo (7) under plain
Buchholz (13.5), Ana (1) under Buchholz Cut-1 (12.0) and Cai (2) under Median-1 (8.5); the
expected values are those of worked-d-bh.json, worked-d-c1.json and worked-d-m1.json
(computed by an independent implementation of C.07, not by this service).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent.parent / "fixtures" / "conformance_fide"
TRF = (FIXTURES / "worked-d-bh.trf").read_text(encoding="utf-8")

THREE_LISTS = [
    {"name": "Buchholz", "tiebreaks": ["BH"]},
    {"name": "Cut-1", "tiebreaks": ["Buchholz Cut 1"]},
    {"name": "Median-1", "tiebreaks": [{"code": "BH", "modifiers": {"median": 1}}]},
]


def expected_first(case: str) -> int:
    expected = json.loads((FIXTURES / f"worked-d-{case}.json").read_text())["expected"]
    return next(row["start_no"] for row in expected if row["rank"] == 1)


@pytest.fixture(scope="module")
def three(client):
    response = client.post("/v1/compare", json={"trf": TRF, "lists": THREE_LISTS})
    assert response.status_code == 200, response.text
    return response.json()


def test_one_table_three_champions(three):
    champions = {c["rule_list"]: c["ids"] for c in three["summary"]["champions"]}
    assert champions == {"Buchholz": [7], "Cut-1": [1], "Median-1": [2]}
    assert champions == {
        "Buchholz": [expected_first("bh")],
        "Cut-1": [expected_first("c1")],
        "Median-1": [expected_first("m1")],
    }
    assert three["summary"]["same_champion"] is False
    assert [c["names"] for c in three["summary"]["champions"]] == [["Bo"], ["Ana"], ["Cai"]]


def test_each_list_has_its_standings_with_the_published_values(three):
    lists = {item["name"]: item for item in three["lists"]}
    top = {name: item["standings"]["standings"][0] for name, item in lists.items()}
    assert (top["Buchholz"]["id"], top["Buchholz"]["values"]) == (7, [13.5])
    assert (top["Cut-1"]["id"], top["Cut-1"]["values"]) == (1, [12.0])
    assert (top["Median-1"]["id"], top["Median-1"]["values"]) == (2, [8.5])
    assert [item["standings"]["tiebreaks"][0]["spec"] for item in three["lists"]] == ["BH", "BH/C1", "BH/M1"]
    assert three["regulations"] == ["fide-2026"] * 3


def test_who_moves_and_by_how_much(three):
    # worked-d-*.json ranks: Bo 1 / 2 (shared with Cai) / 3; Cai 3 / 2 / 1; Ana 2 / 1 / 2.
    moves = {m["id"]: m for m in three["summary"]["moves"]}
    assert moves[7]["ranks"] == {"Buchholz": 1, "Cut-1": 2, "Median-1": 3}
    assert moves[2]["ranks"] == {"Buchholz": 3, "Cut-1": 2, "Median-1": 1}
    assert moves[1]["ranks"] == {"Buchholz": 2, "Cut-1": 1, "Median-1": 2}
    assert moves[7]["spread"] == moves[2]["spread"] == 2 and moves[1]["spread"] == 1
    assert 9 not in moves  # Ivy is 4th under every list
    median = next(s for s in three["summary"]["lists"] if s["name"] == "Median-1")
    change = {c["id"]: c["change"] for c in median["changes"]}
    assert change[2] == 2 and change[7] == -2


def test_lists_under_different_rule_sets_side_by_side(client):
    response = client.post(
        "/v1/compare",
        json={
            "trf": TRF,
            "lists": [
                {"name": "FIDE", "preset": "fide-swiss-traditional"},
                {"name": "US Chess", "preset": "uscf-default"},
            ],
        },
    )
    body = response.json()
    assert response.status_code == 200, body
    assert body["regulations"] == ["fide-2026", "uscf"]
    assert body["lists"][1]["standings"]["tiebreaks"][0]["article"] == "US Chess 34E1"


@pytest.mark.parametrize(
    "payload, path",
    [
        ({"lists": [{"name": "a", "tiebreaks": ["BH"]}, {"name": "b", "tiebreaks": ["XYZ"]}]}, "lists[1].tiebreaks[0]"),
        (
            {"lists": [{"name": "a", "tiebreaks": ["BH"]}, {"name": "b", "tiebreaks": ["Solkoff"]}]},
            "lists[1].tiebreaks[0]",
        ),
        ({"lists": [{"name": "a", "preset": "uscf-default", "regulations": "fide-2024"}]}, "lists[0].preset"),
        ({"lists": [{"name": "a", "preset": "no-such-preset"}]}, "lists[0].preset"),
    ],
)
def test_a_bad_list_is_a_422_naming_the_list(client, payload, path):
    response = client.post("/v1/compare", json={"trf": TRF, **payload})
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["errors"][0]["path"] == path


@pytest.mark.parametrize(
    "payload",
    [
        {"lists": []},
        {"lists": [{"name": "a", "tiebreaks": ["BH"], "preset": "school"}]},
        {"lists": [{"name": "a"}]},
        {"lists": [{"name": "a", "tiebreaks": ["BH"]}], "unknown": 1},
    ],
)
def test_malformed_compare_requests(client, payload):
    response = client.post("/v1/compare", json={"trf": TRF, **payload})
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/problem+json")


def test_two_lists_of_the_same_name_are_a_422_naming_the_second(client):
    # JSON Schema cannot say "unique by name", so the document accepts the body and the server answers 422
    lists = [{"name": "a", "tiebreaks": ["BH"]}, {"name": "a", "tiebreaks": ["SB"]}]
    response = client.post("/v1/compare", json={"trf": TRF, "lists": lists})
    assert response.status_code == 422
    assert response.json()["errors"][0]["path"] == "lists[1].name"
