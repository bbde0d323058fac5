"""What real exports write that the TRF-26 text does not: read, with located warnings (issue 11, item 4-5)."""

from datetime import date
from fractions import Fraction

import pytest

from tiebreak.engine import ResultKind, System
from tiebreak.formats.trf import parse_date, parse_trf
from tests.formats.trf_lines import SMALL, player, trf


def warning_codes(document):
    return [w.code for w in document.warnings]


def results_of(document, number):
    return {r.round: r for r in next(p for p in document.tournament.players if p.id == number).results}


# ---- old bye spellings


@pytest.mark.parametrize("code, kind", [("+", ResultKind.FULL_BYE), ("=", ResultKind.HALF_BYE)])
def test_old_bye_spellings_are_read_with_one_located_warning(code, kind):
    document = parse_trf(
        trf(
            player(1, "A", rounds=[(2, "w", "1"), (0, "-", code)]),
            player(2, "B", rounds=[(1, "b", "0"), (0, "-", code)]),
        )
    )
    assert results_of(document, 1)[2].result is kind and results_of(document, 2)[2].result is kind
    [warning] = [w for w in document.warnings if w.code == "trf-unusual-spelling"]
    assert (warning.line, warning.column) == (1, 109)
    assert f"'0000 - {code}'" in warning.message and "2 round(s)" in warning.message


# ---- rounds paired but not played


@pytest.mark.parametrize("code", [" ", "*"])
def test_a_pairing_without_a_result_is_not_played(code):
    document = parse_trf(
        trf(
            "142 3",
            player(1, "A", rounds=[(2, "w", "1"), (3, "b", code)]),
            player(2, "B", rounds=[(1, "b", "0"), (0, "-", "U")]),
            player(3, "C", rounds=[(0, "-", "U"), (1, "w", code)]),
        )
    )
    assert 2 not in results_of(document, 1) and 2 not in results_of(document, 3)
    [warning] = [w for w in document.warnings if w.code == "trf-not-played"]
    assert warning.line == 2 and "round 2: 2 pairings" in warning.message


def test_without_142_a_round_only_paired_still_counts_as_a_round():
    document = parse_trf(
        trf(
            player(1, "A", rounds=[(2, "w", "1"), (2, "b", "*")]), player(2, "B", rounds=[(1, "b", "0"), (1, "w", "*")])
        )
    )
    assert document.tournament.rounds == 2


# ---- dates


@pytest.mark.parametrize(
    "text, expected",
    [
        ("24/09/2010", date(2010, 9, 24)),
        ("29/12/2023", date(2023, 12, 29)),
        ("28. 07. 2005", date(2005, 7, 28)),
        ("May 29, 2020", date(2020, 5, 29)),
        ("Jun 26, 2020", date(2020, 6, 26)),
        ("29 May 2020", date(2020, 5, 29)),
        ("12/31/2019", date(2019, 12, 31)),
        ("2026/05/01", date(2026, 5, 1)),
        ("26/05/01", date(2026, 5, 1)),
    ],
)
def test_start_dates_in_the_spellings_real_files_use(text, expected):
    assert parse_trf(trf(f"042 {text}", *SMALL[4:])).tournament.start_date == expected


def test_day_and_month_are_told_apart_by_the_round_dates():
    round_dates = "132" + " " * 88 + "18/04/08  18/04/15"
    document = parse_trf(trf("042 08/04/2018", round_dates, *SMALL[4:]))
    assert document.tournament.start_date == date(2018, 4, 8)
    assert document.header.round_dates == [date(2018, 4, 8), date(2018, 4, 15)]
    assert "round dates" in document.warnings[0].message


def test_an_ambiguous_date_without_round_dates_is_read_day_first_and_says_so():
    found, note = parse_date("03/04/2018")
    assert found == date(2018, 4, 3) and "day first" in note


# ---- header records


@pytest.mark.parametrize(
    "text, system",
    [
        ("Individual FIDE Dubov", System.SWISS),
        ("Swiss Dutch", System.SWISS),
        ("FIDE-TEAM-BAKU", System.SWISS),
        ("Individual: Swiss-System (Standard)", System.SWISS),
        ("Team Swiss System", System.SWISS),
    ],
)
def test_tournament_type_spellings(text, system):
    document = parse_trf(trf(f"092 {text}", *SMALL[4:]))
    assert document.tournament.system is system and document.warnings == []


def test_the_encoded_type_192_gives_the_system_when_092_is_absent():
    assert parse_trf(trf("192 FIDE_DUTCH_2026_BAKU", *SMALL[4:])).tournament.system is System.SWISS


def test_152_is_the_initial_colour_and_a_152_with_points_is_read_as_the_scoring():
    assert parse_trf(trf("152 B", *SMALL[4:])).header.initial_colour == "b"
    document = parse_trf(trf("152  W 3.0    D 1.0    L 0.0", *SMALL[4:]))
    assert document.tournament.scoring.win == 3 and document.tournament.scoring.full_bye == 3
    assert "trf-unusual-spelling" in warning_codes(document)


def test_swiss_manager_ruler_lines_are_ignored_silently():
    ruler = [
        " " * 9 + "1         2         3",
        "1234567890" * 11,
        "DDD SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF IIIIIIIIIII BBBB/BB/BB PPPP RRRR  1111 1 1",
    ]
    document = parse_trf(trf(*SMALL[:4], *ruler, *SMALL[4:]))
    assert document.warnings == []


def test_in_a_team_event_240_names_teams_and_is_skipped_with_a_warning():
    document = parse_trf(
        trf(
            *SMALL,
            "310   1 Russia                           RUS   2793      4.0    7.5   1     1    2",
            "240 H   1    1",
        )
    )
    assert all(r.result is not ResultKind.HALF_BYE for p in document.tournament.players for r in p.results)
    assert any("240" in w.message and "teams" in w.message for w in document.warnings)


# ---- the points column


def test_a_points_column_that_disagrees_with_the_results_is_a_warning_per_player():
    document = parse_trf(
        trf(
            player(1, "A", rounds=[(2, "w", "1"), (3, "b", "=")], points="4.0"),
            player(2, "B", rounds=[(1, "b", "0"), (3, "w", "1")], points="3.0"),
            player(3, "C", rounds=[(0, "-", "U"), (1, "w", "="), (2, "b", "0")], points="4.0"),
        )
    )
    mismatches = [w for w in document.warnings if w.code == "trf-points-mismatch"]
    assert [(w.line, w.column) for w in mismatches[:3]] == [(1, 81), (2, 81), (3, 81)]
    assert "player 1: the points column says 4, the results give 1.5" in mismatches[0].message
    assert "3-1-0" in mismatches[-1].message  # every column fits 3-1-0 scoring: the hint says so


def test_a_column_of_zeros_is_not_compared():
    document = parse_trf(
        trf(player(1, "A", rounds=[(2, "w", "1")], points="0.0"), player(2, "B", rounds=[(1, "b", "0")], points="0.0"))
    )
    assert "trf-points-mismatch" not in warning_codes(document)


def test_points_that_agree_give_no_warning():
    document = parse_trf(
        trf(
            *SMALL[:4],
            player(1, "A", rounds=[(2, "w", "1")], points="1.0"),
            player(2, "B", rounds=[(1, "b", "0")], points="0.0"),
        )
    )
    assert "trf-points-mismatch" not in warning_codes(document)


# ---- 001 identity fields


def identity_line(number, sex, title, name, rating, federation, fide_id, birth, points, rounds):
    """An 001 line with every TRF-16 column of the player section."""
    head = (
        f"001 {number:>4} {sex:1}{title:>3} {name:<33} {rating:>4} {federation:<3} {fide_id:>11} {birth:<10} "
        f"{points:>4} {number:>4}  "
    )
    assert len(head) == 91
    return head + "".join(f"{o:>4} {c} {r}  " for o, c, r in rounds).rstrip()


def test_sex_title_federation_fide_id_and_birth_date_are_read():
    judit = identity_line(1, "w", "IM", "Polgar, Judith", 2735, "HUN", "735463", "1976/07/23", "1.0", [(2, "w", "1")])
    other = identity_line(2, "m", "", "Other", 2000, "NOR", "4100018363", "1959", "0.0", [(1, "b", "0")])
    [a, b] = parse_trf(trf(judit, other)).tournament.players
    assert (a.sex, a.title, a.federation, a.fide_id, a.birth_date) == ("f", "IM", "HUN", 735463, "1976-07-23")
    assert (b.sex, b.title, b.fide_id, b.birth_date) == ("m", None, 4100018363, "1959")


@pytest.mark.parametrize("fide_id, birth", [("-----------", "2014/00/00"), ("00000000", "0000/00/00")])
def test_placeholders_for_no_fide_id_and_year_only_birth_dates(fide_id, birth):
    line = identity_line(1, "", "", "A", 2000, "NOR", fide_id, birth, "1.0", [(2, "w", "1")])
    document = parse_trf(trf(line, player(2, "B", rounds=[(1, "b", "0")])))
    a = document.tournament.players[0]
    assert a.fide_id is None and a.birth_date == ("2014" if birth.startswith("2014") else None)
    assert "trf-not-carried" not in warning_codes(document)


def test_a_scoring_without_some_values_follows_win_and_draw():
    scoring = parse_trf(trf("162  W 3.0    D 1.0    L 0.0", *SMALL[4:])).tournament.scoring
    assert (scoring.forfeit_win, scoring.full_bye, scoring.pairing_bye, scoring.half_bye) == (3, 3, 3, 1)
    assert scoring.zero_bye == scoring.forfeit_loss == scoring.absent == Fraction(0)
