"""Rule-list checks: warnings with their article; they never change a number."""

from __future__ import annotations

from tiebreak.engine import Regulations, System
from tests.builders import crosstable, standings, values


def codes(result):
    return [w.code for w in result.warnings]


SWISS = {
    1: "2w1 3b= 4w1",
    2: "1b0 4w1 3b1",
    3: "4w= 1w= 2w0",
    4: "3b= 2b0 1b0",
}


def test_bh_after_bh_c1_is_fine_but_a_repeat_is_reported():
    t = crosstable(SWISS)
    assert "duplicate-tiebreak" not in codes(standings(t, "BH/C1", "BH"))
    result = standings(t, "BH/C1", "BH", "BH/C1")
    [warning] = [w for w in result.warnings if w.code == "duplicate-tiebreak"]
    assert "tiebreaks[2]" in warning.message and "tiebreaks[0]" in warning.message
    assert warning.rule == "C.07 4.1"
    assert values(result, 0) == values(result, 2)  # computed all the same


def test_koya_with_its_default_limit_is_the_same_rule():
    assert "duplicate-tiebreak" in codes(standings(crosstable(SWISS), "KS", "KS/L50"))
    assert "duplicate-tiebreak" not in codes(standings(crosstable(SWISS), "KS", "KS/L40"))


def test_pts_in_the_list_cannot_separate():
    assert "redundant-tiebreak" in codes(standings(crosstable(SWISS), "PTS", "BH"))


def test_buchholz_in_a_round_robin_warns_with_the_note_to_article_8():
    t = crosstable(SWISS, system=System.ROUND_ROBIN)
    [warning] = [w for w in standings(t, "SB", "BH").warnings if w.code == "buchholz-in-round-robin"]
    assert warning.rule == "C.07 8, note"


def test_direct_encounter_not_applicable_is_one_warning_naming_every_group():
    # 1 and 2 tie on 1.5 without having met; 3 and 4 tie on 0.5 without having met.
    t = crosstable(
        {
            1: "3w1 4b=",
            2: "4w1 3b=",
            3: "1b0 2w=",
            4: "2b0 1w=",
        }
    )
    result = standings(t, "DE")
    [warning] = [w for w in result.warnings if w.code == "direct-encounter-not-applicable"]
    assert "2 tie groups" in warning.message and "players 1, 2; players 3, 4" in warning.message
    assert warning.rule == "C.07 6"


def test_after_round_beyond_the_last_round_with_results():
    t = crosstable({1: "2w1 . .", 2: "1b0 . ."}, rounds=3)
    result = standings(t, "BH", after_round=2)
    [warning] = [w for w in result.warnings if w.code == "after-round-beyond-results"]
    assert "last round with results is 1" in warning.message
    result = standings(t, "BH")
    [warning] = [w for w in result.warnings if w.code == "rounds-without-results"]
    assert "after_round 1" in warning.message
    assert not [w for w in standings(t, "BH", after_round=1).warnings if "results" in w.code]


def test_uscf_rule_list_checks_cite_us_chess():
    t = crosstable({1: "2w1 . .", 2: "1b0 . ."}, rounds=3)
    result = standings(t, "MM", "MM", regulations=Regulations.USCF)
    articles = {w.code: w.rule for w in result.warnings}
    assert articles["duplicate-tiebreak"] == "US Chess 34E"
    assert articles["rounds-without-results"] == "US Chess 34E1"
