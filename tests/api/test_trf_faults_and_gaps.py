"""Issue 21 items 10 and 7: numbers the readers cannot hold and short line-ups are located 422s, never a 5xx; a forgotten round is warned."""

from __future__ import annotations

import pytest

from tiebreak.formats.trf import TrfError, parse_trf
from tiebreak.formats.trf_teams import parse_team_trf
from testkit.conformance_teams import load_team_cases
from tests.formats.trf_lines import player, trf

TEAM_TEXT = {c.id: c for c in load_team_cases()}["tswiss-0003"].trf_text
HUGE = "9" * 400


def with_line(text: str, line: str) -> tuple[str, int]:
    """The text with one more record at its end, and that record's line number."""
    lines = text.rstrip("\n").splitlines()
    return "\n".join([*lines, line]) + "\n", len(lines) + 1


def infinite_points_column(points: str) -> str:
    return trf(
        "012 Infinite points",
        "142 1",
        player(1, "Anna", 2010, [(2, "w", "1")], points=points),
        player(2, "Boris", 1950, [(1, "b", "0")], points="0.0"),
    )


def test_362_match_points_beyond_any_event_are_refused_at_their_column():
    text, lineno = with_line(TEAM_TEXT, "362 TW 9999999999999999999 TD 1.0 TL 0.0")
    with pytest.raises(TrfError) as error:
        parse_team_trf(text)
    # "362 TW " is columns 1-7: the number starts in column 8
    assert (error.value.line, error.value.column) == (lineno, 8)
    assert "record 362: match points 9999999999999999999 out of range 0-100" in error.value.message


def test_801_totals_with_hundreds_of_digits_are_refused_at_their_column():
    text, lineno = with_line(TEAM_TEXT, f"801    1 PAN {HUGE} 10.0")
    with pytest.raises(TrfError) as error:
        parse_team_trf(text)
    # "801    1 PAN " is columns 1-13: the match points start in column 14
    assert (error.value.line, error.value.column) == (lineno, 14)
    assert "record 801: points out of range" in error.value.message


@pytest.mark.parametrize("points", ["inf", "-inf"])
def test_an_infinite_points_column_is_not_compared(points):
    # columns 81-84 are informative: like any text that is no number, a warning, and the event is read
    document = parse_trf(infinite_points_column(points))
    assert [w.message for w in document.warnings if "81-84" in w.message] == [
        f"points {points!r} (columns 81-84) are not a number; not compared"
    ]


@pytest.mark.parametrize("endpoint", ["/v1/standings", "/v1/trf"])
def test_the_team_faults_are_422_problems_over_http(client, endpoint):
    for extra, where in (("362 TW 9999999999999999999", ":8"), (f"801    1 PAN {HUGE} 10.0", ":14")):
        text, lineno = with_line(TEAM_TEXT, extra)
        response = client.post(endpoint, json={"trf": text})
        assert response.status_code == 422, response.text
        assert response.headers["content-type"].startswith("application/problem+json")
        assert f"trf:{lineno}{where}" in response.text


@pytest.mark.parametrize("points", ["inf", "-inf"])
def test_an_infinite_points_column_is_no_5xx_over_http(client, points):
    response = client.post("/v1/standings", json={"trf": infinite_points_column(points)})
    assert response.status_code == 200, response.text


SHORT_LINEUP_TEXT = {c.id: c for c in load_team_cases()}["tswiss-0002"].trf_text.replace(
    "300 002 002 010 0007 0008 0009 0000", "300 002 002 010 0007 0008"
)


def test_a_300_lineup_shorter_than_the_games_is_refused_at_the_player_and_round():
    with pytest.raises(TrfError) as error:
        parse_team_trf(SHORT_LINEUP_TEXT)
    assert "but the other line-up (record 300) has nobody there" in error.value.message
    assert error.value.message.startswith("round 2, teams 2 and 10: player ")
    # round 2's block starts 10 columns after round 1's at column 92
    assert error.value.column == 102


@pytest.mark.parametrize("endpoint", ["/v1/standings", "/v1/trf"])
def test_a_short_300_lineup_is_a_422_problem_over_http(client, endpoint):
    response = client.post(endpoint, json={"trf": SHORT_LINEUP_TEXT})
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert ":102" in response.json()["errors"][0]["path"]


def test_a_forgotten_round_is_warned_over_http(client):
    # players 1 and 2 have no round 2 block, 3 and 4 played each other in round 2 (issue 21 item 7)
    text = trf(
        "012 Forgotten round",
        "142 3",
        player(1, "Anna", 2010, [(3, "w", "1"), None, (4, "b", "1")]),
        player(2, "Boris", 1950, [(4, "b", "1"), None, (3, "w", "=")]),
        player(3, "Chen", 1900, [(1, "b", "0"), (4, "w", "1"), (2, "b", "=")]),
        player(4, "Dana", 1800, [(2, "w", "0"), (3, "b", "0"), (1, "w", "0")]),
    )
    response = client.post("/v1/standings", json={"trf": text})
    assert response.status_code == 200, response.text
    missing = [w for w in response.json()["warnings"] if w["code"] == "round-missing"]
    assert [w["message"][:40] for w in missing] == ["round 2 has no entry for player(s) 1, 2,"]
