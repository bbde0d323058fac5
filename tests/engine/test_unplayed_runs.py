"""C.07 16.2-16.3: the run of unplayed rounds after a player's last round that is not a VUR.

The boundary is the last round that is not a voluntary unplayed round. A forfeit loss
(and a double forfeit) is a VUR, so it does not end the run; a game, a forfeit win, a
full-point bye or the pairing-allocated bye does. After the boundary, byes and absences
(no scheduled opponent) count as a draw for the opponents; a forfeit loss keeps its 0.

Scores below are computed by hand. The scoring is 3-1-0 with a half-point bye worth ½,
so that "counts as a draw" (1) is visible for a half-point bye too.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tiebreak.engine import Regulations
from tiebreak.engine.table import build_crosstable
from tiebreak.engine.unplayed import adjusted_scores
from tests.builders import F, contributions, crosstable, exact, standings, three_one_zero, values

THREE_ONE_ZERO = three_one_zero(half_bye=F("1/2"))
BASE = ["W", "D", "W", "L"]  # 3 + 1 + 3 + 0 = 7 in four games


def row_for(tokens: list[str]) -> dict[int, str]:
    """Player 1 plays `tokens`; every game or forfeit is against a fresh opponent (ids 2, 3, ...)."""
    rows: dict[int, list[str]] = {1: []}
    n = len(tokens)
    for rnd, token in enumerate(tokens, start=1):
        opponent = len(rows) + 1
        mine, theirs = {
            "W": ("w1", "b0"),
            "D": ("w=", "b="),
            "L": ("w0", "b1"),
            "FL": ("w-", "b+"),
            "FW": ("w+", "b-"),
            "DF": ("w-", "b-"),
        }.get(token, (None, None))
        if mine is None:
            rows[1].append({"absent": "-"}.get(token, token))  # H Z U F and absences
            continue
        rows[1].append(f"{opponent}{mine}")
        rows[opponent] = ["."] * (rnd - 1) + [f"1{theirs}"] + ["."] * (n - rnd)
    return {pid: " ".join(row) for pid, row in rows.items()}


def adjusted_of_player_1(tokens: list[str], after_round: int | None = None) -> Fraction:
    t = crosstable(row_for(tokens), scoring=THREE_ONE_ZERO)
    table = build_crosstable(t, after_round)
    return Fraction(adjusted_scores(table)[table.ids.index(1)], table.scale)


# (closing pattern after the base games, face value of the whole row, what the opponents count)
CLOSINGS = [
    (["H", "FL"], F("7.5"), F(8)),  # the bye counts as a draw; the forfeit loss keeps 0
    (["Z", "FL"], F(7), F(8)),
    (["absent", "FL"], F(7), F(8)),
    (["FL", "H"], F("7.5"), F(8)),  # a forfeit loss does not end the run
    (["H", "DF"], F("7.5"), F(8)),  # a double forfeit is a forfeit loss: a VUR
    (["DF", "H"], F("7.5"), F(8)),
    (["H", "FW"], F("10.5"), F("10.5")),  # a forfeit win ends the run (16.2.3): the bye at face value
    (["Z", "F"], F(10), F(10)),  # so does a full-point bye
    (["U", "H"], F("10.5"), F(11)),  # the PAB ends the run before the closing bye
    (["H", "H", "FL"], F(8), F(9)),
    (["FL", "H", "FL"], F("7.5"), F(8)),
]


@pytest.mark.parametrize("closing, face, counted", CLOSINGS, ids=[" ".join(c[0]) for c in CLOSINGS])
def test_what_a_player_gives_for_each_closing_pattern(closing, face, counted):
    tokens = BASE + closing
    t = crosstable(row_for(tokens), scoring=THREE_ONE_ZERO)
    table = build_crosstable(t)
    assert Fraction(table.scores[table.ids.index(1)], table.scale) == face
    assert adjusted_of_player_1(tokens) == counted


@pytest.mark.parametrize("closing, face, counted", CLOSINGS, ids=[" ".join(c[0]) for c in CLOSINGS])
def test_the_same_patterns_closing_the_standings_after_round(closing, face, counted):
    # A game in the next round ends the run in the full standings, but the standings after
    # the pattern's last round do not see it: the pattern closes them as above.
    tokens = BASE + closing + ["W"]
    assert adjusted_of_player_1(tokens, after_round=len(BASE) + len(closing)) == counted
    # All rounds: the closing game is the boundary, every unplayed round counts at face value.
    assert adjusted_of_player_1(tokens) == face + 3


def test_the_issue_example_counts_three_in_the_opponents_buchholz():
    # 1 ½ 1 0 absent forfeit-loss: 2.5 points, counted as 3.0 (the absence as a draw).
    t = crosstable(row_for(["W", "D", "W", "L", "absent", "FL"]))
    result = standings(t, "BH")
    table = result.table
    assert Fraction(table.scores[table.ids.index(1)], table.scale) == F("2.5")
    # Player 2, beaten by 1 in round 1, counts 1's adjusted score.
    (first,) = [c for c in contributions(result, "BH", 2) if c.round == 1]
    assert exact(first.value) == 3


def test_the_16_4_1_cap_uses_the_adjusted_score():
    # 6 beat 1 by forfeit in round 6; 1 finished on 2.5 at face value, 3.0 as counted (the
    # closing absence as a draw). 6 scores 5 elsewhere, so its dummy is capped at 3.0, not 2.5.
    rows = row_for(["W", "D", "W", "L", "absent", "FL"])
    winner = 6
    assert rows[winner].split()[5] == "1b+"
    rows[winner] = "7w1 8b1 9w1 10b1 11w1 1b+"
    for opponent, rnd in zip(range(7, 12), range(1, 6), strict=True):
        rows[opponent] = " ".join(["."] * (rnd - 1) + [f"{winner}{'b' if rnd % 2 else 'w'}0"])
    result = standings(crosstable(rows), "BH", regulations=Regulations.FIDE_2026)
    (dummy,) = [c for c in contributions(result, "BH", winner) if c.round == 6]
    assert dummy.kind == "dummy"
    assert exact(dummy.value) == 3
    assert "16.4.1" in dummy.note
    # The opponent of round r lost and then missed 6 - r rounds, each counted as a draw:
    # 2.5 + 2 + 1.5 + 1 + 0.5 = 7.5, and the dummy 3.
    assert values(result, "BH")[winner] == F("10.5")


# --- 16.5: the Sonneborn-Berger cut with a forfeit loss and a half-point bye -------------


def forfeit_loss_and_half_bye():
    """Player 1: beat 2, beat 3, lost to 4 by forfeit, half-point bye, beat 6; 3½ points.

    Final scores (by hand): 2: 2½, 3: 1, 4: 5, 5: 1½, 6: 2. No one's score is adjusted (16.3):
    1's bye is followed by a game, 5's pairing-allocated bye is not voluntary.
    """
    return crosstable(
        {
            1: "2w1 3b1 4w- H   6w1",
            2: "1b0 6w= 3w1 4b0 5w1",
            3: "5w= 1w0 2b0 6w= 4w0",
            4: "6w1 5b1 1b+ 2w1 3b1",
            5: "3b= 4w0 6w0 U   2b0",
            6: "4b0 2b= 5b1 3b= 1b0",
        }
    )


def test_sonneborn_berger_cut_takes_the_least_significant_game_when_a_forfeit_loss_contributes_0():
    # fide-2026: forfeit loss dummy min(3½, 4's 5) = 3½ × 0 = 0; half-bye dummy min(3½, ½ × 5) = 2½ × ½ = 1¼.
    # SB = 2½ + 1 + 0 + 1¼ + 2 = 6¾. Cut-1: the lowest VUR contribution (0) is below the least
    # significant value (the win over 3, who scored 1: contribution 1), so that game goes: 5¾.
    # Cut-2: then 0 against the win over 6 (2): the win goes again: 3¾.
    result = standings(
        forfeit_loss_and_half_bye(), "SB", "SB/C1", "SB/C2", "BH", "BH/C1", "BH/C2", regulations=Regulations.FIDE_2026
    )
    got = {rule: values(result, rule)[1] for rule in ("SB", "SB/C1", "SB/C2", "BH", "BH/C1", "BH/C2")}
    # Buchholz: 2½ + 1 + 3½ + 2½ + 2 = 11½; the VURs go first (the bye's 2½, then the forfeit's 3½).
    assert got == {
        "SB": F("6.75"),
        "SB/C1": F("5.75"),
        "SB/C2": F("3.75"),
        "BH": F("11.5"),
        "BH/C1": F(9),
        "BH/C2": F("5.5"),
    }
    cut = [c.round for c in contributions(result, "SB/C1", 1) if c.cut]
    assert cut == [2]


def test_sonneborn_berger_cut_under_fide_2024():
    # Uncapped dummies: both at 3½; SB = 2½ + 1 + 0 + 1¾ + 2 = 7¼; Cut-1 removes the win over 3: 6¼.
    result = standings(forfeit_loss_and_half_bye(), "SB", "SB/C1", regulations=Regulations.FIDE_2024)
    assert (values(result, "SB")[1], values(result, "SB/C1")[1]) == (F("7.25"), F("6.25"))
