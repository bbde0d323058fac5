"""TRF-26 record 250 (accelerated rounds: virtual points for pairing) never reaches the standings:
points, every tie-break, the progression and the scenarios are those of the games alone.

Each answer for a file with acceleration is compared with the answer for the same file with the
acceleration lines taken out, and the points with the results added up by hand."""

from __future__ import annotations


import pytest

from tests.formats.trf_lines import player, trf
from testkit.conformance import REALWORLD

BAKU = REALWORLD / "cppdubov-baku-test.trf"

# Six players, two rounds of three played; 250 gives players 1-3 one virtual point in rounds 1-3
# (columns: 10-13 game points, 15-17 and 19-21 the rounds, 23-26 and 28-31 the players).
OWN = trf(
    "012 Accelerated club Swiss",
    "042 2026/04/01",
    "092 Swiss System Dutch Baku",
    "142 3",
    "250       1.0   1   3    1    3",
    player(1, "A", 2200, [(4, "w", "1"), (2, "b", "=")]),
    player(2, "B", 2100, [(5, "b", "0"), (1, "w", "=")]),
    player(3, "C", 2000, [(6, "w", "="), (4, "b", "0")]),
    player(4, "D", 1900, [(1, "b", "0"), (3, "w", "1")]),
    player(5, "E", 1800, [(2, "w", "1"), (6, "b", "1")]),
    player(6, "F", 1700, [(3, "b", "="), (5, "w", "0")]),
)
# By hand, the games only: A 1.5, B 0.5, C 0.5, D 1, E 2, F 0.5 (with the 250 points A would lead).
OWN_POINTS = {1: 1.5, 2: 0.5, 3: 0.5, 4: 1.0, 5: 2.0, 6: 0.5}


def _without_acceleration(text: str) -> str:
    """The file with its acceleration taken out: TRF-26 record 250, and CPPDubov's `ACC` line."""
    lines = text.replace("\r\n", "\n").split("\n")
    return "\n".join(line for line in lines if not line.startswith(("250", "ACC")))


def _every_rule(client) -> list[str]:
    """Every rule of the catalogue for individual FIDE events (the whole list C.07 offers)."""
    return [
        e["code"]
        for e in client.get("/v1/tiebreaks").json()
        if "individual" in e["events"] and "fide-2026" in e["regulations"] and e["code"] not in ("PTS", "MAN")
    ]


def _post(client, path: str, body: dict) -> dict:
    answer = client.post(path, json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _standings(client, text: str, rules: list[str]) -> dict:
    body = {"trf": text, "tiebreaks": rules, "regulations": "fide-2026", "unrated_rating": 1000, "seed": 7}
    answer = _post(client, "/v1/standings", body)
    return {"standings": answer["standings"], "tiebreaks": answer["tiebreaks"]}


def _cases() -> list:
    return [
        pytest.param(OWN, id="own-250"),
        pytest.param(
            BAKU,
            id="cppdubov-baku",
            marks=pytest.mark.skipif(not BAKU.is_file(), reason=f"{BAKU} is absent (the real exports)"),
        ),
    ]


@pytest.mark.parametrize("source", _cases())
def test_standings_and_every_tie_break_use_the_games_only(client, source):
    text = source if isinstance(source, str) else source.read_text()
    rules = _every_rule(client)
    assert len(rules) > 15
    accelerated = _standings(client, text, rules)
    assert accelerated == _standings(client, _without_acceleration(text), rules)
    if source is OWN:
        assert {row["id"]: row["points"] for row in accelerated["standings"]} == OWN_POINTS
        assert accelerated["standings"][0]["id"] == 5


@pytest.mark.parametrize("source", _cases())
def test_the_progression_uses_the_games_only(client, source):
    text = source if isinstance(source, str) else source.read_text()
    body = {"trf": text, "tiebreaks": ["BH/C1", "SB", "PS"], "regulations": "fide-2026"}
    accelerated = _post(client, "/v1/standings/progression", body)
    plain = _post(client, "/v1/standings/progression", {**body, "trf": _without_acceleration(text)})
    assert (accelerated["rounds"], accelerated["players"]) == (plain["rounds"], plain["players"])
    if source is OWN:
        by_round = {row["id"]: row["points"] for row in accelerated["players"]}
        # by hand: round 1, then round 2
        assert by_round == {1: [1.0, 1.5], 2: [0.0, 0.5], 3: [0.5, 0.5], 4: [0.0, 1.0], 5: [1.0, 2.0], 6: [0.5, 0.5]}


def test_the_scenarios_use_the_games_only(client):
    pairings = [
        {"round": 3, "white": 5, "black": 1},
        {"round": 3, "white": 2, "black": 4},
        {"round": 3, "white": 6, "black": 3},
    ]
    body = {"trf": OWN, "tiebreaks": ["BH", "SB"], "regulations": "fide-2026", "pairings": pairings, "places": 2}
    accelerated = _post(client, "/v1/scenarios", body)
    assert accelerated == _post(client, "/v1/scenarios", {**body, "trf": _without_acceleration(OWN)})
    assert accelerated["outcomes"] == 27  # three open games
