"""TRF-26 record 299 in a team file: match points (columns 8-11) and game points (14-17) the arbiter
awards to named teams in a round, added to that round's match and game points (decision 0242)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from tiebreak.engine.teams.model import TeamAward
from tiebreak.formats.trf_teams import parse_team_trf
from tiebreak.formats.trf_teams_writer import write_team_trf

# Two teams of six, one round, the match drawn 3-3: 1 match point and 3 game points each.
TWORKED = (Path(__file__).resolve().parents[1] / "fixtures" / "conformance_fide_team" / "tworked-0001.trf").read_text()


def award(mp: str, gp: str, rnd: str, *teams: int) -> str:
    """A 299 line: column 5 blank, match points 8-11, game points 14-17, round 20-22, teams from 24."""
    return f"299    {mp:>4}  {gp:>4}  {rnd:>3}" + "".join(f" {t:>4}" for t in teams)


def _standings(client, text: str) -> list[dict]:
    body = {"trf": text, "tiebreaks": ["PTS", "MPvGP"], "explain": False}
    answer = client.post("/v1/standings", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_bonus_to_one_team_counts_in_its_match_and_game_points(client):
    # Team 2 gets 1 match point and ½ game point in round 1: 1 + 1 = 2 MP, 3 + ½ = 3½ GP, ahead of
    # team 1 (1 MP, 3 GP). 310 written with the awards agrees, so nothing is reported against it.
    text = TWORKED.replace(
        "310   2 Knotbury                         KNO             1.0    3.0",
        "310   2 Knotbury                         KNO             2.0    3.5",
    )
    body = _standings(client, text + award("1.0", "0.5", "1", 2) + "\n")
    rows = [(r["id"], r["rank"], r["match_points"], r["game_points"], r["values"]) for r in body["standings"]]
    assert rows == [(2, 1, 2.0, 3.5, [2.0, 3.5]), (1, 2, 1.0, 3.0, [1.0, 3.0])]
    assert [w["code"] for w in body["warnings"]] == ["trf-points-awarded"]
    assert "1 match points and 0.5 game points awarded by the arbiter to 2 in round 1" in body["warnings"][0]["message"]


def test_a_penalty_to_every_team_in_every_round(client):
    # Round 000 and no team named: every team, every round; -1 game point each: 2 GP each, MP unchanged.
    body = _standings(client, TWORKED + award("", "-1.0", "000") + "\n")
    assert sorted((r["id"], r["match_points"], r["game_points"]) for r in body["standings"]) == [
        (1, 1.0, 2.0),
        (2, 1.0, 2.0),
    ]
    assert "every team" in body["warnings"][0]["message"] and "every round" in body["warnings"][0]["message"]


def test_the_writer_writes_the_awards_back():
    text = TWORKED + award("1.0", "0.5", "1", 2) + "\n"
    event = parse_team_trf(text).event
    assert event.awards == (TeamAward(1, 2, Fraction(1), Fraction(1, 2)),)
    written = write_team_trf(event).text
    assert award("1.0", "0.5", "1", 2) in written.splitlines()
    assert parse_team_trf(written).event == event


def test_an_award_to_no_team_of_the_file_is_an_error_on_its_line(client):
    answer = client.post("/v1/standings", json={"trf": TWORKED + award("1.0", "", "1", 7) + "\n"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"][0]["path"] == "trf:29:24"  # the 28 lines of the file, then the 299
    assert "no team has pairing number 7" in answer.json()["errors"][0]["message"]


def test_reading_the_file_as_json_says_the_awards_are_not_carried(client):
    answer = client.post("/v1/trf", json={"trf": TWORKED + award("1.0", "0.5", "1", 2) + "\n"}).json()
    assert "trf-not-carried" in [w["code"] for w in answer["warnings"]]
