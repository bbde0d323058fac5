"""The TRF writer: JSON -> TRF -> JSON is the identity on what TRF carries; points and rank are filled in."""

from dataclasses import replace
from datetime import date
from fractions import Fraction
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tiebreak.wire import schemas as s
from tiebreak.usecases.convert import tournament_from_wire, tournament_to_wire
from tiebreak.engine import ResultKind, RoundResult, Scoring, System, compute_standings
from tiebreak.engine.errors import InvalidRequest
from tiebreak.engine.registry import valid_codes
from tiebreak.engine.rules import parse_rule
from tiebreak.formats.trf import read_trf
from tiebreak.formats.trf_writer import standings_columns, write_trf
from tests.builders import three_one_zero
from tests.formats.trf_lines import player
from tests.strategies import swiss_tournaments
from tests.profiles import examples

CONFORMANCE = Path(__file__).resolve().parents[1] / "fixtures" / "conformance_fide"
SCORINGS = [
    Scoring(),
    three_one_zero(),
    Scoring(
        win=Fraction(2),
        forfeit_win=Fraction(2),
        full_bye=Fraction(2),
        pairing_bye=Fraction(3, 2),
        draw=Fraction(1),
        half_bye=Fraction(1),
    ),
]
NAME_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz ,.-'ÄÖÜäöüßéèçñŠšŽžØøÅåŁł"


def without_points_overrides(tournament):
    """TRF has no per-game points: turn the strategy's 0-0 into a double forfeit and ½-0 into a draw."""
    kinds = {(p.id, r.round): r.result for p in tournament.players for r in p.results}
    players = []
    for p in tournament.players:
        results = []
        for r in p.results:
            if r.points is not None:
                other = kinds[(r.opponent, r.round)]
                kind = ResultKind.DRAW if ResultKind.DRAW in (r.result, other) else ResultKind.FORFEIT_LOSS
                r = RoundResult(r.round, kind, r.opponent, r.color, None, r.rated)
            results.append(r)
        players.append(replace(p, results=tuple(results)))
    return replace(tournament, players=tuple(players))


@st.composite
def wire_tournaments(draw) -> bytes:
    """A consistent tournament as the JSON API takes it, within what TRF can carry."""
    tournament = without_points_overrides(draw(swiss_tournaments(max_players=12, max_rounds=7)).tournament)
    unrated_even_rounds = draw(st.booleans())
    names = st.text(NAME_CHARACTERS, max_size=33).map(str.strip)
    players = []
    for p in tournament.players:
        results = tuple(
            replace(r, rated=not (unrated_even_rounds and r.round % 2 == 0 and r.result.is_played)) for r in p.results
        )
        players.append(replace(p, name=draw(names), results=results))
    tournament = replace(
        tournament,
        players=tuple(players),
        name=draw(st.text(NAME_CHARACTERS, max_size=60).map(str.strip)),
        start_date=draw(st.none() | st.dates(date(1990, 1, 1), date(2040, 12, 31))),
        system=draw(st.sampled_from([None, System.SWISS, System.ROUND_ROBIN])),
        rounds=tournament.rounds + draw(st.integers(0, 2)),
        scoring=draw(st.sampled_from(SCORINGS)),
    )
    return msgspec.json.encode(tournament_to_wire(tournament))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wire_tournaments(), st.lists(st.sampled_from(["BH/C1", "BH", "SB", "WIN", "PS"]), max_size=3, unique=True))
def test_json_to_trf_to_json_is_the_identity(json_tournament, rules):
    wire = msgspec.json.decode(json_tournament, type=s.Tournament)
    tournament = tournament_from_wire(wire)
    standings = compute_standings(tournament, [parse_rule(r, valid_codes()) for r in rules])
    points, ranks = standings_columns(standings)
    output = write_trf(tournament, points, ranks, rules)
    assert output.warnings == []
    document = read_trf(output.text.encode("utf-8"))
    assert document.warnings == [] and document.tiebreaks == rules
    assert tournament_to_wire(document.tournament) == wire


@pytest.mark.parametrize("path", sorted(CONFORMANCE.glob("*.trf"))[:20], ids=lambda p: p.stem)
def test_conformance_files_survive_a_write_and_a_read(path):
    tournament = read_trf(path.read_bytes()).tournament
    assert read_trf(write_trf(tournament).text).tournament == tournament


def test_points_and_rank_after_tiebreaks_are_written_in_their_columns():
    tournament = read_trf((CONFORMANCE / "worked-a-alekhine-memorial.trf").read_bytes()).tournament
    standings = compute_standings(tournament, [parse_rule("BH", valid_codes())])
    points, ranks = standings_columns(standings)
    lines = {
        int(line[4:8]): line
        for line in write_trf(tournament, points, ranks, ["BH"]).text.splitlines()
        if line.startswith("001")
    }
    # Kasparov (2) and Tal (3) both have 3.5; Buchholz 14.5 to 11.5 puts Kasparov second.
    assert (lines[2][80:84], lines[2][85:89]) == (" 3.5", "   2")
    assert (lines[3][80:84], lines[3][85:89]) == (" 3.5", "   3")


def test_what_trf_cannot_carry_is_a_warning():
    tournament = read_trf(
        ("\n".join([player(1, "A", None, [(2, "w", "0")]), player(2, "B", None, [(1, "b", "0")])]) + "\n").encode()
    )
    first, second = tournament.tournament.players
    # 1/8 beyond a loss's points: record 299 writes two decimals at most
    first = replace(first, name="A" * 40, results=(replace(first.results[0], points=Fraction(1, 8)),))
    output = write_trf(replace(tournament.tournament, players=(first, second)))
    assert any("name cut to 33" in w for w in output.warnings)
    assert any("points override" in w for w in output.warnings)


def test_scoring_that_record_162_cannot_hold_is_a_warning():
    tournament = read_trf(player(1, "A", None, [(0, "-", "U")]) + "\n").tournament
    output = write_trf(replace(tournament, scoring=Scoring(win=Fraction(3), forfeit_win=Fraction(1))))
    assert any("162" in w for w in output.warnings)
    assert "162  W 3.0" in output.text


def test_a_start_number_above_9999_cannot_be_written():
    tournament = read_trf(player(1, "A") + "\n").tournament
    with pytest.raises(InvalidRequest) as error:
        write_trf(replace(tournament, players=(replace(tournament.players[0], id=10_000),)))
    assert error.value.issues[0].path == ("tournament", "players", 0, "id")


# ---- every field of the player section and the header (issue 11, item 5)

FULL_HEADER = """012 Spring Open
022 Oslo
032 NOR
042 2026/04/01
052 2026/04/05
092 Individual: Swiss-System
102 Chief Arbiter Name
112 First Deputy
112 Second Deputy
122 90 min + 30 s
132                                                                                        26/04/01  26/04/02
142 2
152 W
192 FIDE_DUTCH_2026_BAKU
222 5400+30
"""


def full_line(number, sex, title, name, rating, federation, fide_id, birth, rounds):
    head = (
        f"001 {number:>4} {sex:1}{title:>3} {name:<33} {rating:>4} {federation:<3} {fide_id:>11} {birth:<10} "
        f"{'':>4} {'':>4}  "
    )
    return head + "".join(f"{o:>4} {c} {r}  " for o, c, r in rounds).rstrip()


FULL = (
    FULL_HEADER
    + "\n".join(
        [
            full_line(
                1, "w", "WGM", "Berg, Anna", 2301, "NOR", "1500000", "1990/11/30", [(2, "w", "1"), (0, "-", "H")]
            ),
            full_line(2, "m", "", "Dahl, Per", 0, "SWE", "1503014", "1961", [(1, "b", "0"), (0, "-", "U")]),
        ]
    )
    + "\n"
)


def test_the_player_section_and_header_are_written_back_column_for_column():
    document = read_trf(FULL)
    output = write_trf(document.tournament, tiebreaks=["BH"], header=document.header)
    lines = output.text.splitlines()
    for record in ("012", "022", "032", "042", "052", "092", "102", "122", "132", "142", "152", "192", "222"):
        [original] = [line for line in FULL.splitlines() if line.startswith(record)]
        assert original in lines, record
    assert [line for line in lines if line.startswith("112")] == ["112 First Deputy", "112 Second Deputy"]
    [anna] = [line for line in lines if line.startswith("001    1")]
    assert (anna[9], anna[10:13], anna[53:56], anna[57:68], anna[69:79]) == (
        "w",
        "WGM",
        "NOR",
        "    1500000",
        "1990/11/30",
    )
    [per] = [line for line in lines if line.startswith("001    2")]
    assert (per[9], per[48:52], per[69:79]) == ("m", "    ", "1961/00/00")
    assert "062 2" in lines and "072 1" in lines
    assert read_trf(output.text).tournament == document.tournament


def test_what_a_rating_report_needs_and_the_json_lacks_is_listed():
    document = read_trf(FULL)
    assert write_trf(document.tournament, header=document.header).rating_report_gaps == []
    gaps = write_trf(document.tournament).rating_report_gaps
    assert "city (022)" in gaps and "round_dates (132)" in gaps and "chief_arbiter (102)" in gaps


def test_keys_are_reported_as_not_carried():
    document = read_trf(FULL)
    players = tuple(replace(p, key=f"k{p.id}") for p in document.tournament.players)
    output = write_trf(replace(document.tournament, players=players), header=document.header)
    assert any("2 player key(s)" in w for w in output.warnings)


def test_a_verbatim_record_may_not_be_one_the_writer_writes():
    document = read_trf(FULL)
    header = replace(document.header, other_records=["142 9"])
    with pytest.raises(InvalidRequest) as error:
        write_trf(document.tournament, header=header)
    assert error.value.issues[0].path == ("tournament", "trf_records", 0)
