"""Unplayed rounds (C.07 16, SPEC 2.2) on small tables computed by hand."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from tiebreak.engine import Regulations, System
from tiebreak.formats.trf import parse_trf
from tests.builders import F, contributions, crosstable, exact, is_vur, standings, three_one_zero, values

FIXTURES = Path(__file__).parent.parent / "fixtures" / "conformance_fide"
HPB = parse_trf((FIXTURES / "worked-c-hpb-2026.trf").read_text(encoding="utf-8")).tournament
HUGO = 1

FIDE_2026, FIDE_2024 = Regulations.FIDE_2026, Regulations.FIDE_2024


def contribution_of(result, rule: str, pid: int, rnd: int) -> Fraction:
    (c,) = [c for c in contributions(result, rule, pid) if c.round == rnd]
    return exact(c.value)


# --- 16.3: what a player gives to the opponents ---------------------------------------------


@pytest.mark.parametrize(
    "last_round, given",
    [
        ("H", F("1.5")),  # closing half-point bye: a draw, ½ as scored
        ("Z", F("1.5")),  # closing zero-point bye: counts as a draw
        ("-", F("1.5")),  # absent (withdrawn): counts as a draw
        (".", F("1.5")),  # nothing submitted: absent, a draw
        ("U", F("2")),  # pairing-allocated bye: not voluntary, face value
        ("F", F("2")),  # full-point bye: face value
        ("4b-", F("1")),  # closing forfeit loss: face value (as the conformance reference counts it)
    ],
)
def test_what_a_player_gives_after_the_last_real_round(last_round, given):
    # Player 2 lost to 1, beat 3, and then `last_round`; 1 counts 2's adjusted score.
    rows = {1: "2w1", 2: f"1b0 3w1 {last_round}", 3: ". 2b0"}
    if last_round == "4b-":
        rows[4] = ". . 2w+"
    t = crosstable(rows, rounds=3)
    assert contribution_of(standings(t, "BH"), "BH", 1, 1) == given


def test_a_bye_followed_by_a_game_counts_at_face_value():
    t = crosstable({1: "2w1", 2: "1b0 Z 3w1", 3: ". . 2b0"})
    assert contribution_of(standings(t, "BH"), "BH", 1, 1) == 1


def test_a_withdrawn_opponent_counts_a_draw_for_each_round_missed():
    # 2 lost to 1, beat 3, then withdrew for rounds 3 and 4: 1 + ½ + ½ = 2.
    t = crosstable({1: "2w1", 2: "1b0 3w1 - .", 3: ". 2b0"}, rounds=4)
    result = standings(t, "BH")
    assert contribution_of(result, "BH", 1, 1) == 2
    # 1's own three absences: dummies at 1's own score 1 (below the cap ½ × 4 = 2).
    assert values(result, "BH")[1] == 2 + 3 * 1


def test_missed_rounds_count_as_the_configured_draw():
    # 3-1-0 scoring: the two rounds missed after withdrawing count 1 each: 0 + 3 + 1 + 1 = 5.
    scoring = three_one_zero()
    t = crosstable({1: "2w1", 2: "1b0 3w1 - .", 3: ". 2b0"}, rounds=4, scoring=scoring)
    assert contribution_of(standings(t, "BH"), "BH", 1, 1) == 5


# --- 16.4.1: own forfeits, the dummy capped at the scheduled opponent's score ---------------


def forfeit_win_against_a_weak_opponent():
    # 1 wins by forfeit against 2, who never plays: 2's adjusted score is 0 + ½ + ½ = 1.
    return crosstable({1: "2w+ 3b1 4w1", 2: "1b- . .", 3: ". 1w0", 4: ". . 1b0"})


def test_forfeit_dummy_is_capped_at_the_opponents_adjusted_score_in_2026():
    result = standings(forfeit_win_against_a_weak_opponent(), "BH", "BH/C1", regulations=FIDE_2026)
    (dummy,) = [c for c in contributions(result, "BH", 1) if c.round == 1]
    assert dummy.kind == "dummy" and not is_vur(dummy)  # a forfeit win is no VUR (16.2)
    assert exact(dummy.value) == 1
    assert "16.4.1" in dummy.note
    # 3 gives ½ (absent in round 3 after the game), 4 gives 0.
    assert values(result, "BH")[1] == F("1.5")
    assert values(result, "BH/C1")[1] == F("1.5")  # the 0 goes, not the forfeit


def test_forfeit_dummy_is_the_own_score_in_2024():
    result = standings(forfeit_win_against_a_weak_opponent(), "BH", regulations=FIDE_2024)
    assert contribution_of(result, "BH", 1, 1) == 3
    assert values(result, "BH")[1] == F("3.5")


def test_with_p_the_forfeit_counts_as_a_game_against_the_scheduled_opponent():
    for regulations in (FIDE_2026, FIDE_2024):
        result = standings(forfeit_win_against_a_weak_opponent(), "BH/P", regulations=regulations)
        (row,) = [c for c in contributions(result, "BH/P", 1) if c.round == 1]
        assert row.kind == "forfeit" and row.opponent == 2
        assert values(result, "BH/P")[1] == F("1.5")


# --- 16.4.2: own byes and absences, the dummy capped at 50 % of the rounds counted --------


def test_pairing_allocated_bye_is_capped_but_not_cut_first():
    # 1: won, PAB, lost (2 points); cap ½ × 3 = 1½. Opponents give 1 (2 withdrew) and 1.
    t = crosstable({1: "2w1 U 3b0", 2: "1b0", 3: ". . 1w1"}, rounds=3)
    result = standings(t, "BH", "BH/C1", regulations=FIDE_2026)
    (dummy,) = [c for c in contributions(result, "BH", 1) if c.kind == "dummy"]
    assert not is_vur(dummy)
    assert values(result, "BH")[1] == F("3.5")
    assert values(result, "BH/C1")[1] == F("2.5")  # a real 1 is cut, the PAB's 1½ stays
    assert values(standings(t, "BH", regulations=FIDE_2024), "BH")[1] == 4


def test_the_cap_counts_the_rounds_of_the_standings_after_round():
    # Half-point bye example after round 3: Hugo W, W, bye = 2½; cap ½ × 3 = 1½.
    # Opponents after round 3: Mona 1½, Kira 1. BH = 1½ + 1 + 1½ = 4 (2024: 1½ + 1 + 2½ = 5).
    capped = standings(HPB, "BH", "FB", regulations=FIDE_2026, after_round=3)
    assert values(capped, "BH")[HUGO] == 4
    assert contribution_of(capped, "BH", HUGO, 3) == F("1.5")
    uncapped = standings(HPB, "BH", regulations=FIDE_2024, after_round=3)
    assert values(uncapped, "BH")[HUGO] == 5
    # C.07 8.3: before the last round is played, Fore Buchholz is the Buchholz.
    assert values(capped, "FB")[HUGO] == 4


def test_fore_buchholz_of_the_half_point_bye_example():
    # Last round drawn: Hugo 4 (dummy capped at 2½), Ines 3½, Jon 3, Kira 2½, Mona 2½.
    assert values(standings(HPB, "FB", regulations=FIDE_2026), "FB")[HUGO] == 14
    assert values(standings(HPB, "FB", regulations=FIDE_2024), "FB")[HUGO] == F("15.5")


def test_the_cap_uses_the_configured_draw():
    # 3-1-0, half-point bye worth 1: Hugo 4 × 3 + 1 = 13; cap 1 × 5 = 5.
    # Opponents: Ines 10, Kira 9, Jon 7, Mona 5. BH = 31 + 5 = 36 (2024: 31 + 13 = 44).
    scoring = three_one_zero()
    t = replace(HPB, scoring=scoring)
    result = standings(t, "BH", "BH/C1", regulations=FIDE_2026)
    assert values(result, "BH")[HUGO] == 36
    assert values(result, "BH/C1")[HUGO] == 31
    assert values(standings(t, "BH", regulations=FIDE_2024), "BH")[HUGO] == 44


# --- round robins: an unplayed game counts as played against the scheduled opponent ----------


def test_round_robin_forfeit_counts_as_a_game():
    t = crosstable(
        {
            1: "2w+ 3b0 4w=",
            2: "1b- 4w= 3b1",
            3: "4w1 1w1 2w0",
            4: "3b0 2b= 1b=",
        },
        system=System.ROUND_ROBIN,
    )
    result = standings(t, "SB")
    rows = contributions(result, "SB", 1)
    assert [(c.round, c.kind, c.opponent) for c in rows] == [(1, "forfeit", 2), (2, "game", 3), (3, "game", 4)]
    # 1½ × 1 (forfeit win over 2) + 2 × 0 + 1 × ½ = 2
    assert values(result, "SB")[1] == 2


def test_idle_round_of_an_odd_round_robin_contributes_nothing():
    t = crosstable({1: "Z 2w1 3b=", 2: "3w= 1b0 Z", 3: "2b= Z 1w="}, system=System.ROUND_ROBIN)
    result = standings(t, "BH", "SB")
    assert [c.round for c in contributions(result, "SB", 1)] == [2, 3]
    assert values(result, "BH")[1] == F("1.5")  # 2 (½) + 3 (1), no dummy for the idle round
