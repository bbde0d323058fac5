"""fide-2009: the virtual opponent (C.02 13.15.2, 2009 Congress) against its published examples.

Sources and their quotations: tests/fixtures/fide_2009/README.md.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiebreak.engine import Regulations
from tests.builders import F, exact, contributions, crosstable, standings, values
from tests.strategies import swiss_tournaments
from tests.profiles import examples

FIDE_2009 = Regulations.FIDE_2009


def rows_for(tokens: list[str]) -> dict[int, str]:
    """Player 1 plays `tokens` (W D L, FW forfeit win, FL forfeit loss, - absent, H Z U F byes);
    every game or forfeit is against a fresh opponent who does nothing else."""
    rows: dict[int, list[str]] = {1: []}
    n = len(tokens)
    for rnd, token in enumerate(tokens, start=1):
        pair = {"W": ("w1", "b0"), "D": ("w=", "b="), "L": ("w0", "b1"), "FW": ("w+", "b-"), "FL": ("w-", "b+")}.get(
            token
        )
        if pair is None:
            rows[1].append(token)
            continue
        opponent = len(rows) + 1
        rows[1].append(f"{opponent}{pair[0]}")
        rows[opponent] = ["."] * (rnd - 1) + [f"1{pair[1]}"] + ["."] * (n - rnd)
    return {pid: " ".join(row) for pid, row in rows.items()}


def round_of(result, rule: str, pid: int, rnd: int):
    (c,) = [c for c in contributions(result, rule, pid) if c.round == rnd]
    return c, exact(c.value)


@pytest.mark.parametrize("after_round, expected", [(None, F("5.5")), (3, F("2.5"))])
def test_handbook_example_1_absent_in_round_3(after_round, expected):
    # C.02 13.15.2, example 1: 1.5 after two rounds, absent in round 3 of 9:
    # 1.5 + (1 - 0) + 0.5 x (9 - 3) = 5.5 at the end, 2.5 after round 3.
    t = crosstable(rows_for(["W", "D", "-", "W", "L", "D", "W", "L", "D"]))
    result = standings(t, "BH", regulations=FIDE_2009, after_round=after_round)
    c, value = round_of(result, "BH", 1, 3)
    assert c.kind == "virtual" and value == expected
    assert "C.02 13.15.2" in c.note and "1.5 + (W 1 - s(R) 0)" in c.note


@pytest.mark.parametrize("after_round, expected", [(None, F(5)), (6, F("3.5"))])
def test_handbook_example_2_opponent_absent_in_round_6(after_round, expected):
    # C.02 13.15.2, example 2: 3.5 after five rounds, the opponent does not show up in round 6
    # of 9: 3.5 + (1 - 1) + 0.5 x (9 - 6) = 5.0 at the end, 3.5 after round 6.
    t = crosstable(rows_for(["W", "W", "W", "D", "L", "FW", "L", "D", "W"]))
    c, value = round_of(standings(t, "BH", regulations=FIDE_2009, after_round=after_round), "BH", 1, 6)
    assert c.kind == "virtual" and c.opponent is not None and value == expected


def congress_example_1():
    # A scores 6 in 9 rounds, 2 after round 2, a win by default in round 3.
    return crosstable(rows_for(["W", "W", "FW", "D", "D", "L", "W", "D", "D"]))


def test_congress_example_1_a_default_win():
    t = congress_example_1()
    result = standings(t, "BH", regulations=FIDE_2009)
    assert Fraction(result.table.scores[0], result.table.scale) == 6
    # "the contribution of round 3 for A is 2 + 0 + 6 x 0.5 = 5 points Buchholz"
    assert round_of(result, "BH", 1, 3)[1] == 5
    # "the contribution of A for his opponents' Buchholz is 5.5" (player 2 lost to A in round 1)
    c, value = round_of(result, "BH", 2, 1)
    assert value == F("5.5") and c.counted_score is not None
    assert "counted as a draw (C.02 13.15)" in c.note


def test_congress_example_2_absent_in_round_7():
    # B: 4 after round 6, absent in round 7, 6 after round 9: "4 + 1 + 2 x 0.5 = 6"; contributes 6.5.
    t = crosstable(rows_for(["W", "W", "D", "D", "W", "L", "-", "W", "W"]))
    result = standings(t, "BH", regulations=FIDE_2009)
    assert Fraction(result.table.scores[0], result.table.scale) == 6
    assert round_of(result, "BH", 1, 7)[1] == 6
    assert round_of(result, "BH", 2, 1)[1] == F("6.5")


def test_sonneborn_berger_scores_the_virtual_opponent_like_a_game():
    # SB: virtual opponent × the points of the round; a loss by default earns nothing
    # (Gijssen, as quoted in the Vega appendix). Default win in round 3: 5 × 1.
    result = standings(congress_example_1(), "SB", regulations=FIDE_2009)
    assert round_of(result, "SB", 1, 3)[1] == 5
    absent = crosstable(rows_for(["W", "W", "D", "D", "W", "L", "-", "W", "W"]))
    assert round_of(standings(absent, "SB", regulations=FIDE_2009), "SB", 1, 7)[1] == 0


def test_cuts_have_no_priority_for_unplayed_rounds():
    # Absent in round 3: virtual opponent 1.5 + 1 + 0.5 x 6 = 5.5. Each fresh opponent plays
    # only player 1 and counts a draw for each of its 8 other rounds (C.02 13.15): beaten
    # ones 0 + 4, drawn ones 4.5, winners 5. BH = 4 + 4.5 + 5.5 + 4 + 5 + 4.5 + 4 + 5 + 4.5 = 41;
    # Cut-1 removes the lowest value, a real game (round 1, 4), not the virtual opponent: 37.
    t = crosstable(rows_for(["W", "D", "-", "W", "L", "D", "W", "L", "D"]))
    bh = standings(t, "BH", "BH/C1", regulations=FIDE_2009)
    assert (values(bh, "BH")[1], values(bh, "BH/C1")[1]) == (41, 37)
    assert [(c.round, c.kind) for c in contributions(bh, "BH/C1", 1) if c.cut] == [(1, "game")]
    # Under fide-2024 the absence (a VUR) is cut first.
    later = standings(t, "BH/C1", regulations=Regulations.FIDE_2024)
    assert [c.round for c in contributions(later, "BH/C1", 1) if c.cut] == [3]


def test_a_round_robin_counts_forfeits_as_played():
    from tiebreak.engine import System

    rows = {1: "2w+ 3b1 4w=", 2: "1b- 4w= 3b1", 3: "4w1 1w0 2w0", 4: "3b0 2b= 1b="}
    rr = crosstable(rows, system=System.ROUND_ROBIN)
    c, _ = round_of(standings(rr, "SB", regulations=FIDE_2009), "SB", 1, 1)
    assert c.kind == "forfeit" and c.opponent == 2


@st.composite
def fully_played(draw):
    """A Swiss-like event where everybody plays every round: circle-method pairings of an
    even field, random results, and the system given as Swiss."""
    n = 2 * draw(st.integers(1, 7))
    rounds = draw(st.integers(1, n - 1))
    rows: dict[int, list[str]] = {p: [] for p in range(1, n + 1)}
    circle = list(range(2, n + 1))
    for _ in range(rounds):
        seats = [1] + circle
        for a, b in zip(seats[: n // 2], reversed(seats[n // 2 :]), strict=False):
            mine, theirs = draw(st.sampled_from([("1", "0"), ("=", "="), ("0", "1")]))
            rows[a].append(f"{b}w{mine}")
            rows[b].append(f"{a}b{theirs}")
        circle = circle[-1:] + circle[:-1]
    return crosstable(rows)


@settings(max_examples=examples(60), deadline=None)
@given(t=fully_played())
def test_without_unplayed_rounds_all_editions_agree(t):
    rules = ("BH", "BH/C1", "BH/M1", "SB", "SB/C1", "FB", "AOB")
    results = [
        standings(t, *rules, regulations=r, explain=False)
        for r in (Regulations.FIDE_2009, Regulations.FIDE_2024, Regulations.FIDE_2026)
    ]
    assert len({tuple(tuple(o.values) for o in r.outcomes) for r in results}) == 1
    assert len({tuple(row.player for row in r.rows) for r in results}) == 1


@settings(max_examples=examples(80), deadline=None)
@given(drawn=swiss_tournaments())
def test_a_virtual_opponent_never_exceeds_a_win_every_round(drawn):
    result = standings(drawn.tournament, "BH", regulations=FIDE_2009)
    ceiling = result.table.win * result.table.played_rounds / result.table.scale
    for rows in result.outcomes[0].contributions.values():
        assert all(c.value <= ceiling for c in rows if c.kind == "virtual")
