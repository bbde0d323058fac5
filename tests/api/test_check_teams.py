"""The archive check of team files (records 310): by team by default, by player when asked, and
the columns it cannot read named in a warning instead of a 500 (issue 21 items 5 and 10)."""

from __future__ import annotations

import json

from tests.cli.test_check import ALEKHINE, with_columns
from tiebreak.usecases.check import check_trf


def _at(columns: dict[int, str], width: int) -> str:
    """A line with each text placed at its 1-based column."""
    line = [" "] * width
    for first, text in columns.items():
        line[first - 1 : first - 1 + len(text)] = text
    return "".join(line).rstrip()


def _player(number: int, name: str, points: str, rank: str, opponent: int, colour: str, result: str) -> str:
    return _at(
        {
            1: "001",
            5: f"{number:>4}",
            15: name,
            81: f"{points:>4}",
            86: f"{rank:>4}",
            92: f"{opponent:>4}",
            97: colour,
            99: result,
        },
        100,
    )


def _team(number: int, name: str, match_points: str, game_points: str, rank: str, players: list[int]) -> str:
    columns = {
        1: "310",
        5: f"{number:>3}",
        9: name,
        55: f"{match_points:>6}",
        62: f"{game_points:>6}",
        69: f"{rank:>3}",
    }
    columns.update({74 + 5 * i: f"{p:>4}" for i, p in enumerate(players)})
    return _at(columns, 120)


def team_match(a_points: str = "2", a_rank: str = "1") -> str:
    """Two teams of two boards, one round. Board 1: 1 (A, white) beats 3; board 2: 4 (B, white)
    draws 2. A wins the match 1.5-0.5: match points A 2, B 0 (2 for a won match); game points
    A 1 + 0.5 = 1.5, B 0 + 0.5 = 0.5; ranks A 1, B 2."""
    return (
        "\n".join(
            [
                "012 Mini team match",
                "062 4",
                _player(1, "Alpha One", "1.0", "1", 3, "w", "1"),
                _player(2, "Alpha Two", "0.5", "2", 4, "b", "="),
                _player(3, "Beta One", "0.0", "4", 1, "b", "0"),
                _player(4, "Beta Two", "0.5", "2", 2, "w", "="),
                _team(1, "Alpha", a_points, "1.5", a_rank, [1, 2]),
                _team(2, "Beta", "0", "0.5", "2", [3, 4]),
            ]
        )
        + "\n"
    )


def test_a_team_file_is_checked_by_team_and_agrees():
    report = check_trf(team_match())
    assert report.status == "consistent", report
    # and the players' points columns (001, 81-84) too (issue 37, 11)
    assert report.compared == ["match_points", "game_points", "rank", "points"]


def test_a_team_match_points_column_that_differs_is_reported():
    # A won match is 2 match points (C.07 team events: MP 2 / 1 / 0); the file says 3.
    report = check_trf(team_match(a_points="3"))
    (d,) = report.disagreements
    assert (d.player, d.field, d.file, d.computed) == (1, "match_points", "3", "2.0")


def test_a_team_file_checked_by_player_compares_the_001_columns():
    # Points 1 + 0 = 1, 0.5, 0, 0.5: as written; ranks 1; 2 and 4 share 2-3; 3 is 4th.
    report = check_trf(team_match(), participants="players")
    assert report.status == "consistent" and report.compared == ["points", "rank"]


def test_a_nan_rank_is_a_warning_naming_the_record_not_an_error():
    report = check_trf(team_match(a_rank="NaN"))
    (note,) = [w for w in report.warnings if w.code == "check-value-unreadable"]
    assert "record 310 at trf:7:69" in note.message and "'NaN'" in note.message
    report = check_trf(with_columns(ALEKHINE, 1, rank="sNaN"))
    (note,) = [w for w in report.warnings if w.code == "check-value-unreadable"]
    assert "player 1" in note.message and "rank column (86-89)" in note.message


def test_check_items_take_tiebreaks_regulations_and_participants(client):
    body = [
        {"id": "teams", "trf": team_match()},
        {
            "id": "players",
            "trf": team_match(),
            "participants": "players",
            "tiebreaks": ["BH"],
            "regulations": "fide-2024",
        },
    ]
    response = client.post("/v1/check", json=body)
    assert response.status_code == 200, response.text
    teams, players = (json.loads(line) for line in response.text.splitlines())
    assert teams["status"] == 200 and teams["result"]["compared"] == ["match_points", "game_points", "rank", "points"]
    assert players["status"] == 200, players
    assert players["result"]["tiebreaks"] == ["BH"] and players["result"]["regulations"] == "fide-2024"


def test_a_team_files_own_edet_p_is_computed_without_p_and_named_not_refused(client):
    # Issue 21 item 6: `202 EDET/P` sent alone was a 422 at tiebreaks[0], a list the client never
    # wrote. The rule is kept and the modifier it does not take is left out, the warning naming
    # record 202's line and the column of the rule (line 3, column 5: after "202 ").
    lines = team_match().splitlines()
    text = "\n".join([*lines[:2], "202 EDET/P,BH:MP/C1/P", *lines[2:]]) + "\n"
    response = client.post("/v1/standings", json={"trf": text, "explain": False})
    assert response.status_code == 200, response.text
    body = response.json()
    assert [t["spec"] for t in body["tiebreaks"]] == ["EDET", "BH:MP/C1/P"]
    (note,) = [w for w in body["warnings"] if w["code"] == "trf-modifier-dropped"]
    assert note["message"].startswith("record 202 at trf:3:5: rule 'EDET/P' computed as 'EDET'")
    report = check_trf(text)
    assert report.tiebreaks == ["EDET", "BH:MP/C1/P"] and report.status == "consistent"


def test_a_team_files_rule_that_cannot_be_read_is_skipped_with_its_place():
    lines = team_match().splitlines()
    text = "\n".join([*lines[:2], "202 NOSUCH,BH:MP", *lines[2:]]) + "\n"
    report = check_trf(text)
    assert report.tiebreaks == ["BH:MP"]
    (note,) = [w for w in report.warnings if w.code == "trf-rule-skipped"]
    assert note.message.startswith("record 202 at trf:3:5: rule 'NOSUCH' skipped")
