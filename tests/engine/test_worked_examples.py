"""The published worked examples, with the figures as printed in their sources.

Sources (../shared/seeds/, Russian articles the product started from):
  seed 000 = 000_2bfa44182840a7d8.txt, "Коэффициент Бухгольца: как он считается"
             (checked against the 2026 text of C.07);
  seed 001 = 001_d5553b4ac79d97d0.txt, "Системы дополнительных показателей"; it has
             known errors (a "FIDE default order", "virtual opponent", SPEC 2.4), so only
             its Alekhine memorial figures are used, which SPEC 2.4 confirms.
Every expected number below is copied from the source, never produced by the code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tiebreak.engine import Regulations
from tiebreak.formats.trf import parse_trf
from tests.builders import F, exact, is_vur, contributions, crosstable, ranks, standings, values

FIXTURES = Path(__file__).parent.parent / "fixtures" / "conformance_fide"


def from_trf(name: str):
    return parse_trf((FIXTURES / name).read_text(encoding="utf-8")).tournament


# --- seed 001, "Мемориал Алехина": 8 players, 5 rounds, Swiss -------------------------

FISCHER, KASPAROV, TAL = 1, 2, 3


@pytest.fixture(scope="module")
def alekhine():
    return standings(from_trf("worked-a-alekhine-memorial.trf"), "BH", "BH/C1", "SB", "ARO", "DE", "WIN")


def test_alekhine_points_as_in_the_published_table(alekhine):
    # seed 001, table "Индивидуальные результаты": Fischer 4.0, Kasparov and Tal 3.5.
    pts = {pid: F(alekhine.table.scores[i]) / alekhine.table.scale for i, pid in enumerate(alekhine.table.ids)}
    assert pts == {
        1: F("4.0"),
        2: F("3.5"),
        3: F("3.5"),
        4: F("3.0"),
        5: F("2.0"),
        6: F("2.0"),
        7: F("1.5"),
        8: F("0.5"),
    }


def test_alekhine_buchholz(alekhine):
    # seed 001, "Расчет Бухгольца": Kasparov 2+3+4+3.5+2 = 14.5, Tal 1.5+4+2+3.5+0.5 = 11.5.
    bh = values(alekhine, "BH")
    assert (bh[KASPAROV], bh[TAL]) == (F("14.5"), F("11.5"))


def test_alekhine_buchholz_cut_1(alekhine):
    # seed 001, "Расчет усеченного Бухгольца-1": Kasparov drops 2.0 -> 12.5, Tal drops 0.5 -> 11.0.
    c1 = values(alekhine, "BH/C1")
    assert (c1[KASPAROV], c1[TAL]) == (F("12.5"), F("11.0"))


def test_alekhine_sonneborn_berger(alekhine):
    # seed 001, "Расчет коэффициента Зоннеборна-Бергера": 9.75 against 7.50.
    sb = values(alekhine, "SB")
    assert (sb[KASPAROV], sb[TAL]) == (F("9.75"), F("7.50"))


def test_alekhine_average_rating_of_opponents(alekhine):
    # seed 001, "Расчет ARO": 10600 / 5 = 2120 and 10380 / 5 = 2076.
    aro = values(alekhine, "ARO")
    assert (aro[KASPAROV], aro[TAL]) == (2120, 2076)


def test_alekhine_direct_encounter_and_wins_do_not_separate(alekhine):
    # seed 001: Kasparov-Tal drawn in round 4 (DE does not decide); 2 wins each.
    # With BH first they are no longer tied, so DE is asked of a group of one: 0 (C.07 6).
    assert values(alekhine, "DE")[KASPAROV] == values(alekhine, "DE")[TAL] == 0
    assert values(alekhine, "WIN")[KASPAROV] == values(alekhine, "WIN")[TAL] == 2
    pure_de = standings(from_trf("worked-a-alekhine-memorial.trf"), "DE")
    assert values(pure_de, "DE")[KASPAROV] == values(pure_de, "DE")[TAL] == 0


def test_alekhine_fischer_wins_and_kasparov_is_second_on_buchholz(alekhine):
    # seed 001: Fischer sole winner on 4.0; Kasparov 2nd, Tal 3rd by Buchholz.
    r = ranks(alekhine)
    assert (r[FISCHER], r[KASPAROV], r[TAL]) == (1, 2, 3)
    row = next(row for row in alekhine.rows if alekhine.table.ids[row.player] == KASPAROV)
    assert row.decided_by == "BH"


# --- seed 000, five-player round robin (section "Зоннеборн–Бергер") ----------------------

ANA, BO, CAI, DEV, ELI = 1, 2, 3, 4, 5


def five_player_round_robin():
    # The seed prints only the result grid; the round order is the fixture's
    # (worked-b-five-player-rr.trf). Z: the idle round of an odd round robin.
    return crosstable(
        {
            ANA: "Z   2w= 3b1 4w= 5b1",
            BO: "5w1 1b= Z   3w= 4b1",
            CAI: "4w1 5b1 1w0 2b= Z",
            DEV: "3b0 Z   5w1 1b= 2w0",
            ELI: "2b0 3w0 4b0 Z   1w0",
        },
        system=None,
    )


def test_five_player_round_robin_sonneborn_berger():
    # seed 000: Ana = ½×3 + 1×2½ + ½×1½ + 1×0 = 4.75; Bo = ½×3 + ½×2½ + 1×1½ + 1×0 = 4.25.
    result = standings(five_player_round_robin(), "DE", "SB")
    assert result.table.system.value == "round_robin"  # inferred: everyone met everyone
    pts = values(standings(five_player_round_robin(), "PTS"), "PTS")
    assert pts == {ANA: 3, BO: 3, CAI: F("2.5"), DEV: F("1.5"), ELI: 0}
    sb = values(result, "SB")
    assert (sb[ANA], sb[BO]) == (F("4.75"), F("4.25"))
    # seed 000: their game was drawn, so direct encounter decides nothing; SB does.
    assert values(result, "DE")[ANA] == values(result, "DE")[BO] == 0
    assert ranks(result)[ANA] == 1 and ranks(result)[BO] == 2
    assert result.rows[0].decided_by == "SB"


# --- seed 000 / SPEC 2.2, half-point bye and the capped dummy opponent (C.07 16.4.2) ------

HUGO = 1  # 5 rounds, four wins and a half-point bye in round 3: 4½; opponents 3½, 3, 2½, 2


def test_half_point_bye_buchholz_2026_with_capped_dummy():
    # seed 000, table "Расчет / Фиктивный соперник стоит / Бухгольц": capped at ½ × 5 = 2½ -> 13.5.
    result = standings(from_trf("worked-c-hpb-2026.trf"), "BH", "BH/C1", regulations=Regulations.FIDE_2026)
    assert values(result, "BH")[HUGO] == F("13.5")
    # seed 000, "Контринтуитивная часть (статья 16.5)": Cut-1 drops the bye's dummy: 11, not 11½.
    assert values(result, "BH/C1")[HUGO] == F("11")


def test_half_point_bye_buchholz_2024_with_uncapped_dummy():
    # seed 000: without the cap (the rule before 2026) the dummy is worth 4½ -> 15.5.
    result = standings(from_trf("worked-c-hpb-2024.trf"), "BH", "BH/C1", regulations=Regulations.FIDE_2024)
    assert values(result, "BH")[HUGO] == F("15.5")
    assert values(result, "BH/C1")[HUGO] == F("11")  # 16.5 cuts the dummy first here too


def test_half_point_bye_breakdown_shows_the_capped_dummy_cut_first():
    result = standings(from_trf("worked-c-hpb-2026.trf"), "BH/C1", regulations=Regulations.FIDE_2026)
    rows = contributions(result, "BH/C1", HUGO)
    assert sorted(exact(c.value) for c in rows if c.kind == "game") == [2, F("2.5"), 3, F("3.5")]
    (dummy,) = [c for c in rows if c.kind == "dummy"]
    assert dummy.round == 3
    assert exact(dummy.value) == F("2.5")
    assert is_vur(dummy)
    assert "16.4.2" in dummy.note
    assert [c for c in rows if c.cut] == [dummy]
    assert "16.5" in dummy.cut_reason


def test_half_point_bye_breakdown_2024_has_the_dummy_at_own_score():
    result = standings(from_trf("worked-c-hpb-2024.trf"), "BH/C1", regulations=Regulations.FIDE_2024)
    (dummy,) = [c for c in contributions(result, "BH/C1", HUGO) if c.kind == "dummy"]
    assert exact(dummy.value) == F("4.5")
    assert dummy.cut and "16.5" in dummy.cut_reason
    assert "16.4.2" not in (dummy.note or "")  # no cap before 2026


# --- seed 000, progressive (cumulative) score, C.07 7.5 -------------------------------------


def progressive_pair():
    # Two players on 4/5: A wins, wins, wins, loses, wins; B loses, then wins four.
    # Their opponents play only that one game (absent in the other rounds).
    return crosstable(
        {
            1: "3w1 4b1 5w1 6b0 7w1",  # A
            2: "8b0 9w1 10b1 11w1 12b1",  # B
            3: "1b0",
            4: ". 1w0",
            5: ". . 1b0",
            6: ". . . 1w1",
            7: ". . . . 1b0",
            8: "2w1",
            9: ". 2b0",
            10: ". . 2w0",
            11: ". . . 2b0",
            12: ". . . . 2w0",
        },
        rounds=5,
    )


def test_progressive_score_rewards_the_early_lead():
    # seed 000, "Кумулятивный": 1 + 2 + 3 + 3 + 4 = 13 and 0 + 1 + 2 + 3 + 4 = 10.
    ps = values(standings(progressive_pair(), "PS"), "PS")
    assert (ps[1], ps[2]) == (13, 10)


def test_progressive_score_after_four_rounds():
    # seed 000, FAQ "Что такое кумулятивный": 1 + 2 + 3 + 3 = 9 and 0 + 1 + 2 + 3 = 6.
    ps = values(standings(progressive_pair(), "PS", after_round=4), "PS")
    assert (ps[1], ps[2]) == (9, 6)


# --- seed 000, "Одна таблица результатов — три разных победителя" --------------------------

THREE_ANA, THREE_CAI, THREE_BO = 1, 2, 7  # start numbers in worked-d-*.trf


@pytest.mark.parametrize(
    "fixture, rule, expected, champion",
    [
        # seed 000: Ana 13.0 / 12.0 / 8.0, Bo 13.5 / 11.5 / 7.5, Cai 12.5 / 11.5 / 8.5;
        # plain Buchholz crowns Bo, Cut-1 Ana, Median-1 Cai.
        ("worked-d-bh.trf", "BH", {THREE_ANA: "13.0", THREE_BO: "13.5", THREE_CAI: "12.5"}, THREE_BO),
        ("worked-d-c1.trf", "BH/C1", {THREE_ANA: "12.0", THREE_BO: "11.5", THREE_CAI: "11.5"}, THREE_ANA),
        ("worked-d-m1.trf", "BH/M1", {THREE_ANA: "8.0", THREE_BO: "7.5", THREE_CAI: "8.5"}, THREE_CAI),
    ],
)
def test_one_table_three_champions(fixture, rule, expected, champion):
    result = standings(from_trf(fixture), rule)
    got = values(result, rule)
    assert {pid: got[pid] for pid in expected} == {pid: F(v) for pid, v in expected.items()}
    leaders = [result.table.ids[row.player] for row in result.rows if row.rank == 1]
    assert leaders == [champion]
