"""Koya limit in half points (C.07 14.5; issue 21 item 3): `KS/L+1`, `KS/L-1`, `KS/L1` move the
50 % limit by half points; `KS/L40` and `KS/L40%` stay the limit in percent (decision 0059)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tiebreak.engine import System
from tiebreak.engine.errors import InvalidRequest
from tiebreak.engine.rules import RuleSpec
from tests.builders import crosstable, specs, standings, values


def four_player_round_robin():
    # Berger order. 1 beat 4, 2 beat 3, every other game drawn: 1 and 2 score 2, 3 and 4 score 1.
    # Each plays 3 games, so the maximum is 3 and 50 % of it is 1½.
    return crosstable(
        {
            1: "4w1 2w= 3b=",
            2: "3w1 1b= 4w=",
            3: "2b0 4b= 1w=",
            4: "1b0 3w= 2b=",
        },
        system=System.ROUND_ROBIN,
    )


def koya(rule: str) -> dict[int, Fraction | None]:
    return values(standings(four_player_round_robin(), rule), 0)


def test_the_default_limit_is_half_the_maximum():
    # C.07 9.2: limit 1½; opponents reaching it: 1 and 2 (2 points each).
    # 1: ½ vs 2 = ½; 2: ½ vs 1 = ½; 3: ½ vs 1 + 0 vs 2 = ½; 4: 0 vs 1 + ½ vs 2 = ½.
    half = Fraction(1, 2)
    assert koya("KS") == {1: half, 2: half, 3: half, 4: half}


def test_minus_one_lowers_the_limit_by_half_a_point():
    # C.07 14.5: 1½ - ½ = 1; every player reaches it, so Koya is each one's whole score.
    # 1: 1 + ½ + ½ = 2; 2: 1 + ½ + ½ = 2; 3: 0 + ½ + ½ = 1; 4: 0 + ½ + ½ = 1.
    assert koya("KS/L-1") == {1: 2, 2: 2, 3: 1, 4: 1}


def test_plus_one_and_the_bare_one_raise_the_limit_by_half_a_point():
    # C.07 14.5: 1½ + ½ = 2; 1 and 2 still reach it: ½ each as under the default limit.
    # Read as 1 % (the old fault) every opponent would count: 2, 2, 1, 1.
    half = Fraction(1, 2)
    assert koya("KS/L+1") == {1: half, 2: half, 3: half, 4: half}
    assert koya("KS/L1") == {1: half, 2: half, 3: half, 4: half}


def test_plus_two_raises_the_limit_by_a_point():
    # C.07 14.5: 1½ + 2 × ½ = 2½; nobody reaches it, so every Koya is 0 (the old reading, 2 %, gave 2, 2, 1, 1).
    assert koya("KS/L2") == {1: 0, 2: 0, 3: 0, 4: 0}
    assert koya("KS/L+2") == {1: 0, 2: 0, 3: 0, 4: 0}


def test_a_limit_in_percent_is_an_alias():
    # 67 % of 3 = 2.01: nobody reaches it (0 each); 66 % of 3 = 1.98: 1 and 2 do (½ each).
    half = Fraction(1, 2)
    assert koya("KS/L67") == {1: 0, 2: 0, 3: 0, 4: 0}
    assert koya("KS/L66%") == {1: half, 2: half, 3: half, 4: half}
    # 5 % written with its sign: 0.15, everyone reaches it.
    assert koya("KS/L5%") == {1: 2, 2: 2, 3: 1, 4: 1}


@pytest.mark.parametrize(
    "text, spec, canonical",
    [
        ("KS/L+1", RuleSpec("KS", limit_steps=1), "KS/L+1"),
        ("KS/L1", RuleSpec("KS", limit_steps=1), "KS/L+1"),
        ("KS/L-1", RuleSpec("KS", limit_steps=-1), "KS/L-1"),
        ("KS/L-2", RuleSpec("KS", limit_steps=-2), "KS/L-2"),
        ("KS/L+0", RuleSpec("KS", limit_steps=0), "KS/L+0"),
        ("KS/L0", RuleSpec("KS", limit=0), "KS/L0"),
        ("KS-L-1", RuleSpec("KS", limit_steps=-1), "KS/L-1"),
        ("KS/L40", RuleSpec("KS", limit=40), "KS/L40"),
        ("KS/L40%", RuleSpec("KS", limit=40), "KS/L40"),
        ("KS/L5%", RuleSpec("KS", limit=5), "KS/L5%"),
    ],
)
def test_the_limit_notations_parse_and_print_back(text, spec, canonical):
    [parsed] = specs(text)
    assert parsed == spec
    assert parsed.canonical == canonical
    assert specs(parsed.canonical) == [spec]


@pytest.mark.parametrize("text", ["KS/L101", "KS/L101%", "KS/L+401", "KS/L", "KS/L+", "BH/L+1"])
def test_bad_limits_are_invalid_requests(text):
    with pytest.raises(InvalidRequest):
        specs(text)


# ---- an odd round robin stopped between idle rounds (issue 21 item 4a, decision 0060)


def three_player_round_robin_after_round_two():
    # Berger order with an idle seat: round 1 2-3 drawn, 1 idle; round 2 1 beat 2, 3 idle.
    # Scores: 1 has 1, 2 has ½, 3 has ½.
    return crosstable({1: ".   2w1", 2: "3w= 1b0", 3: "2b= .  "}, system=System.ROUND_ROBIN)


def test_koya_in_an_odd_round_robin_takes_each_opponents_own_games_by_default():
    # C.07 9.2: 50 % of each opponent's maximum over the games it was scheduled to play:
    # 1 played 1 game (limit ½, reached by 1), 2 played 2 (limit 1, not reached by ½),
    # 3 played 1 (limit ½, reached by ½).
    # 1: vs 2 not counted = 0; 2: ½ vs 3 + 0 vs 1 = ½; 3: vs 2 not counted = 0.
    result = standings(three_player_round_robin_after_round_two(), "KS")
    assert values(result, 0) == {1: 0, 2: Fraction(1, 2), 3: 0}


def test_koya_over_all_rounds_takes_half_of_the_rounds_for_everyone():
    # /R: 50 % of the 2 rounds = 1 for every opponent; only 1 reaches it.
    # 1: vs 2 not counted = 0; 2: vs 3 not counted, 0 vs 1 = 0; 3: vs 2 not counted = 0.
    result = standings(three_player_round_robin_after_round_two(), "KS/R")
    assert values(result, 0) == {1: 0, 2: 0, 3: 0}
    assert specs("KS/L-1/R")[0].canonical == "KS/L-1/R"


def test_all_rounds_is_a_koya_modifier_only():
    with pytest.raises(InvalidRequest):
        specs("BH/R")
    with pytest.raises(InvalidRequest):
        specs("KS/R1")
