"""The TRF reader: every record it reads, its located warnings and errors, encodings and line ends."""

from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest

from tiebreak.engine import Color, ResultKind, System, compute_standings
from tiebreak.engine.registry import valid_codes
from tiebreak.engine.rules import parse_rule
from tiebreak.formats.trf import TrfError, parse_trf, read_trf
from tests.formats.trf_lines import SMALL, player, trf

CONFORMANCE = Path(__file__).resolve().parents[1] / "fixtures" / "conformance_fide"
TRF_FILES = sorted(CONFORMANCE.glob("*.trf"))


def results_of(document, number):
    return {r.round: r for r in next(p for p in document.tournament.players if p.id == number).results}


def test_the_conformance_folder_is_all_here():
    assert len(TRF_FILES) == 67


@pytest.mark.parametrize("path", TRF_FILES, ids=[p.stem for p in TRF_FILES])
def test_every_conformance_trf_is_read_and_ranked(path):
    document = read_trf(path.read_bytes())
    assert document.warnings == []
    standings = compute_standings(document.tournament, [parse_rule(r, valid_codes()) for r in ("BH/C1", "SB", "DE")])
    assert sorted(row.rank for row in standings.rows)[0] == 1
    assert len(standings.rows) == len(document.tournament.players)


# ---- records 012, 042, 092, 142/XXR, 162, 202/212


def test_header_records():
    document = parse_trf(trf(*SMALL))
    t = document.tournament
    assert (t.name, t.start_date, t.system, t.rounds) == ("Small open", date(2026, 5, 1), System.SWISS, 2)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2026/05/01", date(2026, 5, 1)),
        ("26/05/01", date(2026, 5, 1)),
        ("98/12/31", date(1998, 12, 31)),
        ("2025.11.30", date(2025, 11, 30)),
        ("2026-1-9", date(2026, 1, 9)),
    ],
)
def test_start_date_in_four_and_two_digit_years(text, expected):
    assert parse_trf(trf(f"042 {text}", *SMALL[4:])).tournament.start_date == expected


@pytest.mark.parametrize("text", ["soon", "2026/02/30", "1/2"])
def test_an_unreadable_start_date_is_a_located_warning(text):
    document = parse_trf(trf(f"042 {text}", *SMALL[4:]))
    assert document.tournament.start_date is None
    [warning] = document.warnings
    assert (warning.line, warning.column) == (1, 5) and "auto" in warning.message


@pytest.mark.parametrize(
    "text, system",
    [
        ("Swiss System", System.SWISS),
        ("Individual: Swiss-System", System.SWISS),
        ("Round Robin", System.ROUND_ROBIN),
        ("Double round-robin", System.ROUND_ROBIN),
        ("RR", System.ROUND_ROBIN),
        ("Berger", System.ROUND_ROBIN),
    ],
)
def test_tournament_type(text, system):
    assert parse_trf(trf(f"092 {text}", *SMALL[4:])).tournament.system is system


def test_an_unknown_tournament_type_leaves_the_system_to_inference():
    document = parse_trf(trf("092 Scheveningen-ish", *SMALL[4:]))
    assert document.tournament.system is None and "inferred" in document.warnings[0].message


def test_xxr_is_the_number_of_rounds_too():
    assert parse_trf(trf("XXR 9", *SMALL[4:])).tournament.rounds == 9


def test_rounds_below_the_results_is_an_error_on_the_142_line():
    with pytest.raises(TrfError) as error:
        parse_trf(trf("012 x", "142 1", *SMALL[4:]))
    assert (error.value.line, error.value.column) == (2, 5)


def test_scoring_record_162_sets_every_result_it_names():
    document = parse_trf(trf("162  W 3.0    D 1.0    L 0.0    A 0.0", *SMALL[4:]))
    scoring = document.tournament.scoring
    assert (scoring.win, scoring.draw, scoring.forfeit_win, scoring.full_bye, scoring.half_bye) == (3, 1, 3, 3, 1)
    assert scoring.pairing_bye == 3  # P defaults to W
    standings = compute_standings(document.tournament, [])
    points = {standings.table.ids[p]: Fraction(standings.table.scores[p], standings.table.scale) for p in range(4)}
    assert points == {1: 4, 2: 3, 3: 4, 4: 0}


def test_scoring_record_162_without_a_scores_absence_zero_bye_and_forfeit_loss_0():
    # TRF-26 162: A has its own default 0.0; `L 1.0` is the loss over the board only.
    scoring = parse_trf(trf("162  W 3.0    D 2.0    L 1.0", *SMALL[4:])).tournament.scoring
    assert scoring.loss == 1
    assert scoring.zero_bye == scoring.forfeit_loss == scoring.absent == 0


def test_scoring_record_162_a_sets_what_it_names():
    scoring = parse_trf(trf("162  W 3.0    D 2.0    L 1.0    A 0.5", *SMALL[4:])).tournament.scoring
    assert (scoring.loss, scoring.zero_bye, scoring.forfeit_loss, scoring.absent) == (1, *[Fraction(1, 2)] * 3)


def test_scoring_record_162_pairing_bye_of_its_own():
    scoring = parse_trf(trf("162  W 2.0    P 1.5", *SMALL[4:])).tournament.scoring
    assert (scoring.win, scoring.pairing_bye, scoring.draw) == (2, Fraction(3, 2), Fraction(1, 2))


@pytest.mark.parametrize("record, column", [("162  Q 3.0", 6), ("162  W 3.0  junk", 13), ("162  W 300", 8)])
def test_a_broken_scoring_record_is_located(record, column):
    with pytest.raises(TrfError) as error:
        parse_trf(trf(record, *SMALL[4:]))
    assert (error.value.line, error.value.column) == (1, column)


@pytest.mark.parametrize(
    "lines, expected",
    [
        (["202 BH/C1, BH, SB"], ["BH/C1", "BH", "SB"]),
        (["202 BH/C1 BH SB"], ["BH/C1", "BH", "SB"]),
        (["212 PTS, DE, SB"], ["DE", "SB"]),
        (["212 PTS, DE", "202 BH"], ["BH"]),
    ],
)
def test_tiebreak_lists_202_and_212(lines, expected):
    assert parse_trf(trf(*lines, *SMALL[4:])).tiebreaks == expected


# ---- player records 001


@pytest.mark.parametrize(
    "code, kind, rated",
    [
        ("1", ResultKind.WIN, True),
        ("=", ResultKind.DRAW, True),
        ("0", ResultKind.LOSS, True),
        ("W", ResultKind.WIN, False),
        ("D", ResultKind.DRAW, False),
        ("L", ResultKind.LOSS, False),
        ("+", ResultKind.FORFEIT_WIN, True),
        ("-", ResultKind.FORFEIT_LOSS, True),
        ("w", ResultKind.WIN, False),
    ],
)
def test_result_codes_with_an_opponent(code, kind, rated):
    result = results_of(parse_trf(trf(player(1, "A", None, [(2, "b", code)]))), 1)[1]
    assert (result.result, result.rated, result.opponent, result.color) == (kind, rated, 2, Color.BLACK)


@pytest.mark.parametrize(
    "block, kind",
    [
        ((0, "-", "U"), ResultKind.PAIRING_BYE),
        ((0, "-", "F"), ResultKind.FULL_BYE),
        ((0, "-", "H"), ResultKind.HALF_BYE),
        ((0, "-", "Z"), ResultKind.ZERO_BYE),
        ((0, "-", "-"), ResultKind.ABSENT),
        ((0, " ", "h"), ResultKind.HALF_BYE),
    ],
)
def test_result_codes_without_an_opponent(block, kind):
    result = results_of(parse_trf(trf(player(1, "A", None, [block]))), 1)[1]
    assert (result.result, result.opponent, result.color) == (kind, None, None)


def test_a_blank_round_block_is_absent_and_a_short_line_ends_early():
    document = parse_trf(trf("142 4", player(1, "A", None, [None, (0, "-", "H")])))
    assert list(results_of(document, 1)) == [2]
    assert document.tournament.rounds == 4


def test_player_fields():
    p = parse_trf(trf(*SMALL)).tournament.players[0]
    assert (p.id, p.name, p.rating) == (1, "Anna", 2010)
    assert parse_trf(trf(*SMALL)).tournament.players[2].rating is None


@pytest.mark.parametrize(
    "line, column, words",
    [
        (player(1, "A", None, [(2, "x", "1")]), 97, "colour"),
        (player(1, "A", None, [(2, "w", "Q")]), 99, "result"),
        (player(1, "A", None, [(0, "-", "1")]), 99, "without an opponent"),
        (player(1, "A", None, [(2, "w", "1")]) + "    ab w 1", 102, "opponent"),
        ("001  x1      A", 5, "start number"),
        ("001    0      A", 5, "start number"),
        ("001    1      A" + " " * 33 + "2x00", 49, "rating"),
        (player(1, "A", None, [(2, "w", "1")]).replace(" 2 w 1", " 2 w 1x"), 100, "10 columns"),
    ],
)
def test_a_broken_player_line_is_an_error_with_line_and_column(line, column, words):
    with pytest.raises(TrfError) as error:
        parse_trf(trf("012 t", line))
    assert (error.value.line, error.value.column) == (2, column)
    assert words in error.value.message


def test_a_start_number_used_twice_names_both_lines():
    with pytest.raises(TrfError) as error:
        parse_trf(trf(player(1, "A"), player(1, "B")))
    assert (error.value.line, error.value.column) == (2, 5) and "line 1" in error.value.message


def test_no_player_is_an_error():
    with pytest.raises(TrfError):
        parse_trf(trf("012 empty"))


# ---- TRF-26 byes (240) and team records


def test_bye_record_240_fills_blank_rounds():
    document = parse_trf(
        trf(
            "142 2", player(1, "A", None, [(2, "w", "1")]), player(2, "B", None, [(1, "b", "0")]), "240 H 002    1    2"
        )
    )
    assert results_of(document, 1)[2].result is ResultKind.HALF_BYE
    assert results_of(document, 2)[2].result is ResultKind.HALF_BYE


def test_bye_record_240_that_agrees_with_the_001_line_is_fine():
    document = parse_trf(trf(player(1, "A", None, [(0, "-", "F")]), "240 F 001    1"))
    assert results_of(document, 1)[1].result is ResultKind.FULL_BYE


@pytest.mark.parametrize(
    "record, column, words",
    [
        ("240 H 001    1", 14, "records win"),  # the column where the id is written
        ("240 H 001    9", 14, "no player"),
        ("240 Q 001    1", 5, "bye type"),
        ("240 H 0x1    1", 7, "round"),
        ("240 H 001", 11, "names no player"),
    ],
)
def test_a_bye_record_that_contradicts_or_cannot_be_read_is_located(record, column, words):
    with pytest.raises(TrfError) as error:
        parse_trf(trf(player(1, "A", None, [(2, "w", "1")]), player(2, "B", None, [(1, "b", "0")]), record))
    assert (error.value.line, error.value.column) == (3, column) and words in error.value.message


@pytest.mark.parametrize(
    "record",
    ["330 +- 001 001 002", "300 001 001 002 0001 0002", "320  2.0  2.0 000 001", "310   1 Team A", "013 Team A    1"],
)
def test_team_records_change_no_individual_result_and_say_so(record):
    plain = parse_trf(trf(*SMALL))
    document = parse_trf(trf(*SMALL, record))
    assert document.tournament == plain.tournament
    [warning] = document.warnings
    assert warning.line == len(SMALL) + 1 and "team record" in warning.message


def test_unknown_records_are_skipped_with_a_located_warning():
    document = parse_trf(trf("012 t", "999 what is this", *SMALL[4:], "### a comment", "FRA    1 national rating"))
    assert [(w.line, w.column) for w in document.warnings] == [(2, 1)]
    assert "999" in document.warnings[0].message


def test_abnormal_points_299_is_reported_not_applied():
    document = parse_trf(trf(*SMALL, "299 W      1.0 001 0001"))
    assert "299" in document.warnings[0].message


# ---- encodings and line ends

NAMED = trf(
    "012 Échecs à Zürich",
    player(1, "Müller, Jörg", 2000, [(2, "w", "1")]),
    player(2, "Šťastný, Ondřej", 1900, [(1, "b", "0")]),
)


def test_utf8_with_and_without_bom():
    plain = read_trf(NAMED.encode("utf-8"))
    with_bom = read_trf(b"\xef\xbb\xbf" + NAMED.encode("utf-8"))
    assert plain.tournament == with_bom.tournament and plain.warnings == with_bom.warnings == []
    assert plain.tournament.players[1].name == "Šťastný, Ondřej"


def test_windows_1252_is_recognised_with_a_warning():
    text = NAMED.replace("Šťastný, Ondřej", "Štastný, Ondrej")  # what cp1252 can hold
    document = read_trf(text.encode("cp1252"))
    assert document.encoding == "cp1252"
    assert document.tournament.name == "Échecs à Zürich"
    assert document.tournament.players[1].name == "Štastný, Ondrej"
    assert document.warnings[0].line == 1 and "Windows-1252" in document.warnings[0].message


def test_a_declared_encoding_is_used():
    text = "### encoding: latin-1\n" + trf(
        "012 Échecs à Zürich",
        player(1, "Müller, Jörg", 2000, [(2, "w", "1")]),
        player(2, "Ørsted, Hans", 1900, [(1, "b", "0")]),
    )
    document = read_trf(text.encode("latin-1"))
    assert document.encoding == "iso8859-1" and document.warnings == []
    assert document.tournament.players[0].name == "Müller, Jörg"


def test_bytes_that_break_the_declared_encoding_are_located():
    data = b"### encoding: utf-8\n012 ok\n012 caf" + b"\xe9\n"
    with pytest.raises(TrfError) as error:
        read_trf(data)
    assert (error.value.line, error.value.column) == (3, 8)


@pytest.mark.parametrize("codec", ["rot13", "base64", "utf-16", "idna"])
def test_a_declared_codec_that_is_no_text_encoding_is_a_trf_error(codec):
    with pytest.raises(TrfError):
        read_trf(f"### encoding: {codec}\n".encode() + b"\xff\xfe012 x\n" + NAMED.encode())


def test_pairing_program_extension_records_are_reported():
    document = parse_trf(trf(*SMALL, "XXS WW=1 BW=1 WD=0.5"))
    assert "XXS" in document.warnings[0].message


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_windows_and_old_mac_line_ends_read_the_same(newline):
    assert parse_trf(trf(*SMALL, newline=newline)).tournament == parse_trf(trf(*SMALL)).tournament


def test_conformance_file_with_windows_line_ends_reads_the_same():
    data = TRF_FILES[0].read_bytes()
    assert read_trf(data.replace(b"\n", b"\r\n")).tournament == read_trf(data).tournament
