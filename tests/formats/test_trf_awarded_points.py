"""TRF-26 record 299: points the arbiter awards (a bonus or a penalty) in a round to named participants,
counted in their score, and written back by the writer (docs/trf.md, decision 0180).

Layout read: column 5 blank, the points in 14-17, the round in 20-22 (blank or 000: every round), the
participants from 24, four columns every five (blank or 0000: everyone)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from tests.formats.trf_lines import SMALL, player, trf
from tiebreak.formats.trf import TrfError, parse_trf
from tiebreak.formats.trf_writer import write_trf
from testkit.conformance import REALWORLD

needs_corpus = pytest.mark.skipif(not REALWORLD.is_dir(), reason=f"{REALWORLD} is absent (the real exports)")


def _standings(client, text: str, rules: list[str]) -> dict:
    answer = client.post(
        "/v1/standings", json={"trf": text, "tiebreaks": rules, "explain": False, "regulations": "fide-2026"}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def _points_column(text: str) -> dict[int, Fraction]:
    """Columns 81-84 of each 001 line, read here from the raw text."""
    return {int(line[4:8]): Fraction(line[80:84].strip()) for line in text.splitlines() if line.startswith("001")}


@needs_corpus
@pytest.mark.parametrize(
    ("name", "buchholz"),
    [
        # P4 lost to P3 and is awarded 2 points in round 1: 2; P3's Buchholz is P4's score, 2
        ("sharly-bbp-indiv-299-bonus.trf", {1: 0.0, 3: 2.0}),
        # P2 drew with P1 and loses half a point in round 1: 0; P1's Buchholz is P2's score, 0
        ("sharly-bbp-indiv-299-penalty.trf", {1: 0.0, 3: 0.5}),
    ],
)
def test_the_real_exports_rank_by_the_points_their_columns_state(client, name, buchholz):
    text = (REALWORLD / name).read_text()
    body = _standings(client, text, ["BH"])
    assert {row["id"]: Fraction(str(row["points"])) for row in body["standings"]} == _points_column(text)
    assert not [w for w in body["warnings"] if w["code"] == "trf-points-mismatch"]
    (awarded,) = [w for w in body["warnings"] if w["code"] == "trf-points-awarded"]
    assert "awarded by the arbiter" in awarded["message"] and awarded["message"].startswith("line 4, column 14")
    values = {row["id"]: row["values"][0] for row in body["standings"]}
    assert {pid: values[pid] for pid in buchholz} == buchholz
    points = [row["points"] for row in body["standings"]]
    assert points == sorted(points, reverse=True)


def test_a_record_for_every_round_and_everyone_adds_per_round():
    # 299 with round 000 and no participant: every player, each of the two rounds
    document = parse_trf(trf(*SMALL, "299          -0.5  000"))
    for p in document.tournament.players:
        assert [r.points for r in p.results] == [
            document.tournament.scoring.points_for(r.result) - Fraction(1, 2) for r in p.results
        ]


def test_several_participants_in_one_record():
    document = parse_trf(trf(*SMALL, "299           1.0    2    1    4"))
    by_id = {p.id: p for p in document.tournament.players}
    assert [r.points for r in by_id[1].results] == [None, Fraction(3, 2)]  # round 2: a draw, + 1
    assert [r.points for r in by_id[4].results] == [None, Fraction(1)]  # round 2: a forfeit lost, + 1
    assert all(r.points is None for r in by_id[2].results + by_id[3].results)


def test_a_participant_without_a_result_in_the_round_is_reported():
    lines = [*SMALL[:4], player(1, "Anna", 2010, [(2, "w", "1")]), player(2, "Boris", 1950, [(1, "b", "0")])]
    document = parse_trf(trf(*lines, "299           1.0    2    1"))
    assert any("player 1 has no result in round 2" in w.message for w in document.warnings)


def test_an_unknown_participant_is_an_error_on_its_line():
    with pytest.raises(TrfError) as error:
        parse_trf(trf(*SMALL, "299           1.0    1   77"))
    assert error.value.line == len(SMALL) + 1
    assert "no player 77" in error.value.message


def test_a_result_assigned_instead_of_points_is_reported_not_applied():
    document = parse_trf(trf(*SMALL, "299 W         1.0    1    1"))
    assert all(r.points is None for p in document.tournament.players for r in p.results)
    assert any("record 299" in w.message and "not applied" in w.message for w in document.warnings)


def test_the_writer_writes_the_points_back_as_record_299():
    text = trf(*SMALL, "299           2.0    1    4", "299          -0.5    2    1")
    first = parse_trf(text).tournament
    written = write_trf(first)
    assert "299           2.0    1    4" in written.text.splitlines()
    assert "299          -0.5    2    1" in written.text.splitlines()
    assert not written.warnings
    assert parse_trf(written.text).tournament.players == first.players


def test_the_json_answer_carries_the_points_and_the_api_writes_them_back(client):
    text = trf(*SMALL, "299           2.0    1    4")
    converted = client.post("/v1/trf", json={"trf": text}).json()
    (dana,) = [p for p in converted["tournament"]["players"] if p["id"] == 4]
    assert dana["results"][0]["points"] == 2.0  # a loss, plus 2
    again = client.post("/v1/trf", json={"tournament": converted["tournament"]}).json()
    assert "299           2.0    1    4" in again["trf"].splitlines()


def test_a_team_files_299_names_teams_not_players():
    from tiebreak.engine.teams.model import TeamAward
    from tiebreak.formats.trf_teams import parse_team_trf

    team = (Path(__file__).resolve().parents[1] / "fixtures" / "conformance_fide_team" / "tswiss-0001.trf").read_text()
    lines = team.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("142"))
    with_299 = "\n".join([*lines[: at + 1], "299           2.0    1    1", *lines[at + 1 :]]) + "\n"
    document = parse_team_trf(with_299)
    plain = parse_team_trf(team).event
    assert document.event.matches == plain.matches  # player 1's games untouched
    # game points 2 to team 1 (not player 1) in round 1 (tests/formats/test_trf_team_awards.py applies them)
    assert document.event.awards == (TeamAward(1, 1, Fraction(0), Fraction(2)),)
