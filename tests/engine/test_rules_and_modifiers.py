"""Rule specs (SPEC 3.3) and the Cut/Median modifiers (C.07 14, 16.5)."""

from __future__ import annotations

import pytest

from dataclasses import dataclass

from tiebreak.engine.errors import InvalidRequest, UnknownTiebreak
from tiebreak.engine.modifiers import apply_cuts
from tiebreak.engine.registry import valid_codes
from tiebreak.engine.rules import RuleSpec, parse_rule

CODES = valid_codes()


def parse(text: str) -> RuleSpec:
    return parse_rule(text, CODES)


# --- parsing --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("BH", "BH"),
        ("BH/C1", "BH/C1"),
        ("BH/C2", "BH/C2"),
        ("BH/M2", "BH/M2"),
        ("SB/C1", "SB/C1"),
        ("KS/L40", "KS/L40"),
        ("DE/P", "DE/P"),
        ("BH/C1/P", "BH/C1/P"),
        ("ARO/C1", "ARO/C1"),
        ("PS/C1", "PS/C1"),
        ("bh/c1", "BH/C1"),
        ("  BH / C1  ", "BH/C1"),
    ],
)
def test_canonical_specs(text, canonical):
    assert parse(text).canonical == canonical


@pytest.mark.parametrize(
    "alias, canonical",
    [
        ("bh-c1", "BH/C1"),
        ("BH-C1", "BH/C1"),
        ("BHC1", "BH/C1"),
        ("bhc2", "BH/C2"),
        ("BHM1", "BH/M1"),
        ("AROC1", "ARO/C1"),
        ("KS-L40", "KS/L40"),
        ("DE-P", "DE/P"),
        ("Buchholz", "BH"),
        ("Buchholz Cut 1", "BH/C1"),
        ("buchholz  cut-1", "BH/C1"),
        ("Buchholz Cut 2", "BH/C2"),
        ("Median-1", "BH/M1"),
        ("Median 2", "BH/M2"),
        ("Median Buchholz", "BH/M1"),  # the name before 2023 (seed 000)
        ("Sonneborn-Berger", "SB"),
        ("Progressive", "PS"),
        ("Direct Encounter", "DE"),
        ("Koya", "KS"),
        ("Fore Buchholz", "FB"),
        ("REP", "GE"),
    ],
)
def test_aliases_map_to_the_canonical_spec(alias, canonical):
    assert parse(alias).canonical == canonical


def test_parsed_fields():
    assert parse("BH/M2") == RuleSpec("BH", median=2)
    assert parse("BH/C1/P") == RuleSpec("BH", cut=1, forfeits_played=True)
    assert parse("KS/L40") == RuleSpec("KS", limit=40)
    assert parse("KS") == RuleSpec("KS")


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_round_trips_through_its_canonical_form(code):
    spec = parse(code)
    assert spec.code == code
    assert parse(spec.canonical) == spec


@pytest.mark.parametrize("text", ["XYZ", "Solkoff-ish", "BH2", "", "/C1", "BH//C1", "42"])
def test_unknown_code_lists_the_valid_ones(text):
    with pytest.raises(UnknownTiebreak) as info:
        parse_rule(text, CODES, path=("tiebreaks", 3))
    (issue,) = info.value.issues
    assert issue.path == ("tiebreaks", 3)
    for code in ("BH", "SB", "DE", "ARO", "PTS"):
        assert code in issue.message
    assert isinstance(info.value, InvalidRequest)  # a 400, like every bad request


@pytest.mark.parametrize(
    "text",
    [
        "PTS/C1",  # PTS takes no modifier
        "DE/C1",  # DE takes only P
        "BH/L40",  # the Koya limit is not a Buchholz modifier
        "BH/X1",  # no such modifier
        "BH/C",  # a cut needs a number
        "BH/M",
        "BH/C0",  # out of range
        "BH/C11",
        "BH/M11",
        "BH/C1/M1",  # Cut or Median, not both
        "KS/L101",  # a limit is a percentage
        "DE/P1",  # P takes no number
    ],
)
def test_bad_modifiers_are_invalid_requests_not_unknown_codes(text):
    with pytest.raises(InvalidRequest) as info:
        parse_rule(text, CODES, path=("tiebreaks", 0))
    assert type(info.value) is InvalidRequest
    assert info.value.issues[0].path == ("tiebreaks", 0)


# --- cuts on hand-made contributions (C.07 16.5) ---------------------------------------
# Values are in half points (scale 2): 7 stands for 3½.


@dataclass(eq=False)
class Entry:
    """One row entry as `apply_cuts` reads it: a value, its significance, whether it is a VUR."""

    round: int
    kind: str
    value: int
    key: int
    vur: bool = False
    cut_reason: str | None = None
    cut_code: str | None = None

    @property
    def cut(self) -> bool:
        return self.cut_reason is not None


def game(value: int, key: int | None = None, rnd: int = 1) -> Entry:
    return Entry(rnd, "game", value, value if key is None else key)


def vur(value: int, key: int | None = None, rnd: int = 9, kind: str = "dummy") -> Entry:
    return Entry(rnd, kind, value, value if key is None else key, vur=True)


def pab_dummy(value: int, rnd: int = 8) -> Entry:
    # An unplayed round that is not voluntary (pairing-allocated bye): no priority in cuts.
    return Entry(rnd, "dummy", value, value, vur=False)


def test_no_cut_sums_everything():
    rows = [game(7), game(6), vur(5)]
    assert apply_cuts(rows, 0, 0, "Cut-0") == 18
    assert not any(c.cut for c in rows)


def test_buchholz_cut_takes_the_unplayed_round_before_a_smaller_real_value():
    # The half-point bye example: games 3½, 3, 2½, 2 and the dummy at 2½; Cut-1 = 11, not 11½.
    dummy = vur(5)
    rows = [game(7), game(6), game(5), game(4), dummy]
    assert apply_cuts(rows, 1, 0, "Cut-1") == 22
    assert [c for c in rows if c.cut] == [dummy]
    assert "16.5" in dummy.cut_reason


def test_an_unplayed_round_equal_to_the_lowest_is_the_one_cut():
    dummy = vur(4)
    rows = [game(4), dummy, game(6)]
    assert apply_cuts(rows, 1, 0, "Cut-1") == 10
    assert [c for c in rows if c.cut] == [dummy]


def test_a_lowest_unplayed_round_is_cut_as_the_lowest():
    dummy = vur(2)
    rows = [game(4), dummy, game(6)]
    assert apply_cuts(rows, 1, 0, "Cut-1") == 10
    assert dummy.cut


def test_cut_2_takes_every_unplayed_round_first():
    first, second = vur(6, rnd=2), vur(8, rnd=4)
    rows = [game(2), first, game(3), second, game(9)]
    assert apply_cuts(rows, 2, 0, "Cut-2") == 14
    assert {id(c) for c in rows if c.cut} == {id(first), id(second)}


def test_cut_1_leaves_a_non_voluntary_unplayed_round_to_plain_order():
    # A pairing-allocated bye is not a VUR (16.2): only the lowest value goes.
    bye = pab_dummy(5)
    low = game(3)
    rows = [game(7), bye, low]
    assert apply_cuts(rows, 1, 0, "Cut-1") == 12
    assert [c for c in rows if c.cut] == [low]
    assert "16.5" not in low.cut_reason


def test_sonneborn_berger_forfeit_loss_contributing_zero_stays_and_the_lowest_game_is_cut():
    # SB contribution = opponent score × points scored; a forfeit loss scores 0 against an
    # opponent on 3, so it contributes 0. Cutting it would help the player: the real
    # least significant game goes instead (16.5).
    forfeit_loss = vur(0, key=6, kind="forfeit")
    win_vs_2 = game(4, key=4)  # opponent on 2, won: 2 × 1 (in quarter points: 4)
    draw_vs_4 = game(4, key=8)  # opponent on 4, drawn: 4 × ½
    win_vs_3 = game(6, key=6)  # opponent on 3, won
    rows = [forfeit_loss, win_vs_2, draw_vs_4, win_vs_3]
    assert apply_cuts(rows, 1, 0, "Cut-1") == 10
    assert not forfeit_loss.cut
    assert [c for c in rows if c.cut] == [win_vs_2]
    assert "16.5" in win_vs_2.cut_reason


def test_median_lower_cut_takes_the_unplayed_round_first_and_upper_cut_the_highest():
    dummy = vur(6)
    rows = [game(2), game(8), dummy, game(4)]
    assert apply_cuts(rows, 1, 1, "Median-1") == 6  # 2 + 4: the dummy (low end) and 8 (high end) go
    assert dummy.cut and "16.5" in dummy.cut_reason
    assert rows[1].cut and "most significant" in rows[1].cut_reason
    assert not rows[0].cut and not rows[3].cut


def test_median_upper_cut_takes_the_highest_even_if_it_is_a_voluntary_unplayed_round():
    low_dummy, high_dummy = vur(5, rnd=2), vur(9, rnd=5)
    rows = [game(3), low_dummy, game(4), high_dummy]
    # Low end: the VUR with the lowest value goes first (16.5); high end: the highest, VUR or not.
    assert apply_cuts(rows, 1, 1, "Median-1") == 7
    assert low_dummy.cut and "16.5" in low_dummy.cut_reason
    assert high_dummy.cut and "most significant" in high_dummy.cut_reason


def test_median_upper_cut_takes_a_highest_unplayed_win():
    bye = pab_dummy(9)
    rows = [game(3), game(5), bye, game(4)]
    assert apply_cuts(rows, 1, 1, "Median-1") == 9  # 5 + 4
    assert rows[0].cut and bye.cut


def test_cutting_more_values_than_there_are_leaves_nothing():
    rows = [game(3), vur(5)]
    assert apply_cuts(rows, 2, 2, "Median-2") == 0
    assert all(c.cut for c in rows)


def test_ties_on_the_key_cut_the_smaller_contribution():
    # Least significant = lowest key, then lowest contribution (conformance README).
    a, b = game(6, key=4), game(2, key=4)
    rows = [a, b, game(9, key=9)]
    assert apply_cuts(rows, 1, 0, "Cut-1") == 15
    assert b.cut and not a.cut


def test_sonneborn_berger_compares_the_lowest_vur_contribution_not_the_lowest_dummy_score():
    # C.07 16.5.1/16.5.2 (fide-2026 figures, quarter points): a forfeit loss whose dummy is
    # uncapped at 3½ contributes 3½ × 0 = 0; a half-point bye whose dummy is capped at 2½
    # contributes 2½ × ½ = 1¼. The lowest VUR *contribution* is the forfeit loss's 0, lower
    # than the least significant game (opponent on 1, won: 1), so that game is cut — not the
    # bye, which has the lower dummy score.
    forfeit_loss = vur(0, key=14, rnd=3, kind="forfeit")
    half_bye = vur(5, key=10, rnd=4)
    least = game(4, key=4, rnd=2)
    rows = [game(10, key=10, rnd=1), least, forfeit_loss, half_bye, game(8, key=8, rnd=5)]
    assert apply_cuts(rows, 1, 0, "Cut-1") == 23  # 27 - 4: 5¾
    assert [c for c in rows if c.cut] == [least]
    assert "unplayed round contributes less" in least.cut_reason


def test_a_vur_contribution_equal_to_the_least_significant_value_is_the_one_cut():
    half_bye = vur(4, key=8)
    rows = [game(4, key=4), half_bye, game(6, key=6)]
    assert apply_cuts(rows, 1, 0, "Cut-1") == 10
    assert [c for c in rows if c.cut] == [half_bye]
