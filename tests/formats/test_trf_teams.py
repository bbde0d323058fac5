"""TRF-26 team records: reading each record, the cross-checks, located errors, and the writer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings

from tiebreak.usecases.convert_teams import team_tournament_from_wire, team_tournament_to_wire
from tiebreak.engine import Regulations
from tiebreak.engine.teams.model import Score
from tiebreak.engine.teams.registry import parse_team_rule
from tiebreak.engine.teams.standings import compute_team_standings
from tiebreak.formats.trf import TrfError
from tiebreak.formats.trf_teams import is_team_trf, parse_team_trf, read_team_trf
from tiebreak.formats.trf_teams_writer import write_team_trf
from testkit.conformance_teams import event_from_json, load_team_cases, run_team_case, team_mismatches
from tests.team_strategies import team_events
from tests.profiles import examples

CASES = {c.id: c for c in load_team_cases()}
RULES = [
    parse_team_rule(t, None)
    for t in ("PTS", "MPvGP", "BH:MP/C1", "EMGSB/C1", "EGGSB", "SSSC", "BC", "EDE", "TBR", "BBE", "STD", "WIN")
]


def text_of(case_id: str) -> str:
    return CASES[case_id].trf_text


def edited(case_id: str, edit) -> str:
    return "\n".join(edit(line) for line in text_of(case_id).splitlines()) + "\n"


def values(event, rules=RULES, after_round=None):
    result = compute_team_standings(event, rules, Regulations.FIDE_2026, after_round, explain=False)
    return {
        result.table.ids[row.player]: (row.rank, [o.values[row.player] for o in result.outcomes]) for row in result.rows
    }


def messages(document) -> list[str]:
    return [w.message for w in document.warnings]


def test_a_team_trf_is_recognised_by_its_team_records():
    assert is_team_trf(text_of("tswiss-0001"))
    individual = (CASES["tswiss-0001"].folder.parent / "conformance_fide" / "worked-d-bh.trf").read_text()
    assert not is_team_trf(individual)
    assert not is_team_trf(individual + "013 Team A                               1    2\n")
    assert is_team_trf("092 Team Swiss System\n" + individual + "013 Team A                               1    2\n")


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_team_records_are_found_whatever_ends_the_lines(newline):
    """310 after LF, CR LF or a lone CR (TRF-26 remark 1): a team event; none of them, not one."""
    team = text_of("tswiss-0001").replace("\r\n", "\n").replace("\n", newline)
    assert team.splitlines()[0][:3] != "310"  # found after a line end, not at the start
    assert is_team_trf(team)
    individual = (CASES["tswiss-0001"].folder.parent / "conformance_fide" / "worked-d-bh.trf").read_text()
    assert not is_team_trf(individual.replace("\n", newline))


def test_the_old_013_records_give_the_same_event():
    def to_013(line: str) -> str:
        if not line.startswith("310"):
            return line
        players = line[73:]
        return f"013 {line[8:40]}" + players

    text = edited("tswiss-0004", to_013)
    assert "310" not in text
    assert values(parse_team_trf(text).event) == values(parse_team_trf(text_of("tswiss-0004")).event)


@pytest.mark.parametrize("record", ["362 TW  2.0 TD  1.0 TL  0.0", "362  W 2.0    D 1.0    L 0.0"])
def test_match_scoring_in_both_layouts(record):
    text = text_of("tswiss-0003").replace("352 WBWB", f"352 WBWB\n{record.replace('2.0', '3.0')}")
    event = parse_team_trf(text).event
    assert (event.scoring.match_win, event.scoring.match_draw, event.scoring.match_loss) == (3, 1, 0)
    result = compute_team_standings(event, [parse_team_rule("PTS", None)], Regulations.FIDE_2026)
    assert result.tables.mp.win == 3 * result.tables.mp.scale


def test_a_forfeited_match_whose_absent_team_is_not_written():
    # tswiss-0003 round 2: 330 -+ 002 013 002: Estonia (13) did not come; drop its "0000 - -" entries
    def drop_absent(line: str) -> str:
        if line.startswith("001") and line[4:8].strip() in {"61", "62", "63", "64"}:
            return line[:101] + "        " + line[109:]
        return line

    text = edited("tswiss-0003", drop_absent)
    assert text != text_of("tswiss-0003")
    case = CASES["tswiss-0003"]
    assert team_mismatches(case, parse_team_trf(text).event) == []


def test_totals_of_310_and_the_informative_802_records_are_cross_checked():
    text = text_of("tworked-0001").replace(
        "310   2 Knotbury                         KNO             1.0    3.0",
        "310   2 Knotbury                         KNO             2.0    3.0",
    )
    # 802: team 5-7, nickname 9-13, match points 15-20, game points 22-27, then the rounds
    text += f"802 {1:>3} {'GIF':<5} {'1.0':>6} {'3.0':>6}    2 w  3.0\n"
    text += f"802 {2:>3} {'KNO':<5} {'1.0':>6} {'3.5':>6}    1 b  3.0\n"
    found = messages(parse_team_trf(text))
    assert found == [
        "record 310: team 2 has 2 match points in columns 55-67, the results give 1",
        "record 802: team 2 has 3.5 game points in record 802, the results give 3",
    ]
    assert messages(parse_team_trf(text_of("tworked-0001"))) == []


def test_the_primary_score_and_the_system_come_from_192():
    assert parse_team_trf(text_of("tswiss-0008")).event.primary is Score.GP
    assert parse_team_trf(text_of("tswiss-0001")).event.primary is Score.MP
    assert parse_team_trf(text_of("trr-0002")).event.system.value == "round_robin"


def test_212_keeps_its_leading_pts():
    text = text_of("tworked-0001").replace("352 WBWBWB", "352 WBWBWB\n212 PTS, MPvGP, BC, TBR")
    assert parse_team_trf(text).tiebreaks == ["PTS", "MPvGP", "BC", "TBR"]


def test_bytes_in_another_encoding():
    document = read_team_trf(text_of("tworked-0001").replace("Gifford's", "Giffórd's").encode("cp1252"))
    assert document.encoding == "cp1252" and document.event.teams[0].name == "Giffórd's Cross"


@pytest.mark.parametrize(
    "edit, line, message",
    [
        (
            lambda t: t.replace("330 -+ 002 013 002", "330 -+ 002 013 099"),
            20,
            "no record 330 or 300 names the opponent",
        ),
        (
            lambda t: t.replace(
                "310   2 Bolivia                          BOL            12.0   22.5   1     6",
                "310   2 Bolivia                          BOL            12.0   22.5   1     1",
            ),
            86,
            "player 1 is on team 2 and on team 1",
        ),
        (lambda t: t.replace("330 -+ 002 013 002\n", ""), 20, "no record 330 or 300 names the opponent"),
        (
            lambda t: re.sub(r"^(001    1 .{82})0006 b 0", r"\g<1>0007 b 0", t, flags=re.M),
            15,
            "round 1: player 1 is paired with player 7, whose line says player 2",
        ),
    ],
)
def test_errors_name_the_line(edit, line, message):
    with pytest.raises(TrfError) as error:
        parse_team_trf(edit(text_of("tswiss-0003")))
    assert error.value.line == line and message in error.value.message, (error.value.line, error.value.message)


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_the_writer_writes_every_case_back(case_id):
    case = CASES[case_id]
    document = parse_team_trf(case.trf_text)
    standings = run_team_case(case, document.event)
    output = write_team_trf(document.event, standings, case.data["tiebreaks"])
    again = parse_team_trf(output.text)
    assert again.warnings == [] and output.warnings == []
    assert again.tiebreaks == case.data["tiebreaks"]
    assert team_mismatches(case, again.event) == []


def test_the_json_body_and_the_trf_describe_the_same_event():
    for case in CASES.values():
        from_trf, from_json = parse_team_trf(case.trf_text).event, event_from_json(case)
        key = lambda e: sorted((m.round, m.home, m.away, m.boards, m.forfeit) for m in e.matches)  # noqa: E731
        assert key(from_trf) == key(from_json), case.id
        assert sorted(from_trf.byes, key=str) == sorted(from_json.byes, key=str), case.id


FAST = settings(max_examples=examples(60, "TIEBREAK_PROPERTY_EXAMPLES"), deadline=None)


@FAST
@given(event=team_events())
def test_any_event_survives_trf_and_json(event):
    before = values(event)
    written = write_team_trf(event)
    assert written.warnings == []
    assert values(parse_team_trf(written.text).event) == before
    assert values(team_tournament_from_wire(team_tournament_to_wire(event))) == before


REALWORLD = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "realworld-trf"
TEC_SAMPLE = REALWORLD / "grandmommys-cup-trf26-team.trf"


def test_the_fide_tec_team_sample_is_read_in_place():
    """The FIDE TEC's TRF-26 team sample (Grandmommy's Cup), read from ../shared without copying it:
    every team's totals of 310 agree with the matches read, but Denmark's (47), whose 801 record
    shows a half-point bye in round 3 that no 240 record gives."""
    if not TEC_SAMPLE.is_file():
        pytest.skip(f"the real-world TRF corpus is not at {REALWORLD} (it lives in ../shared)")
    document = read_team_trf(TEC_SAMPLE.read_bytes())
    event = document.event
    assert (len(event.teams), event.rounds, event.team_size, event.board_colours) == (50, 14, 4, "WBWB")
    assert sum(1 for m in event.matches if m.forfeit) == 22  # every record 330
    disagreeing = {re.search(r"team (\d+) has", m)[1] for m in messages(document) if "the results give" in m}
    assert disagreeing == {"47"}
