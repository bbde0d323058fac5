"""Rating-based tie-breaks (C.07 10) on small tables computed by hand.

Tables used: FIDE Rating Regulations B.02 8.1(a) (percentage score -> dp) and 8.1(b)
(rating difference -> expected score). Rows quoted where used:
  8.1(a)  p 1.00 -> +800, 0.75 -> +193, 0.67 -> +125, 0.50 -> 0, 0.00 -> -800
  8.1(b)  difference 0-3 -> 0.50, 189-197 -> 0.75, 620-735 -> 0.99, above 735 -> 1.00
"""

from __future__ import annotations

import pytest

from tiebreak.engine import Scoring
from tiebreak.engine.errors import InvalidRequest
from tiebreak.engine.families.rating import expected_percent, perfect_performance, rating_difference
from tests.builders import F, crosstable, standings, values


def one_player_against(ratings: dict[int, int], row: str, own: int = 2000, **kw):
    """Player 1 (rated `own`) against players 2.. in the given rounds; the others play only 1."""
    tokens = row.split()
    rows = {1: row}
    for rnd, tok in enumerate(tokens, start=1):
        if tok[0].isdigit():
            opp, colour, res = int(tok[:-2]), tok[-2], tok[-1]
            back = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}[res]
            rows[opp] = ". " * (rnd - 1) + f"1{'b' if colour == 'w' else 'w'}{back}"
    return crosstable(rows, rounds=len(tokens), ratings={1: own, **ratings}, **kw)


# --- TPR (C.07 10.2): ARO + dp ---------------------------------------------------------------


@pytest.mark.parametrize(
    "opponents, row, tpr",
    [
        ({2: 1800, 3: 2200}, "2w1 3b0", 2000),  # 50 % -> dp 0
        ({2: 1900, 3: 2100}, "2w1 3b1", 2800),  # 100 % -> +800
        ({2: 1900, 3: 2100}, "2w0 3b0", 1200),  # 0 % -> -800
        ({2: 1900, 3: 2000, 4: 2100}, "2w1 3b1 4w0", 2125),  # 66.7 % rounds to 67 % -> +125
        ({2: 2000, 3: 2000, 4: 2000, 5: 2000}, "2w1 3b1 4w1 5b0", 2193),  # 75 % -> +193
        ({2: 2001, 3: 2000}, "2w= 3b=", 2001),  # ARO 2000.5 rounds half up
    ],
)
def test_tournament_performance_rating(opponents, row, tpr):
    t = one_player_against(opponents, row)
    assert values(standings(t, "TPR"), "TPR")[1] == tpr


def test_tpr_counts_only_games_played_over_the_board():
    # A forfeit win and a pairing-allocated bye are not games: 1/2 over the board = 50 %.
    t = one_player_against({2: 1800, 3: 2200, 4: 2400}, "2w1 3b0 4w+ U")
    result = standings(t, "ARO", "TPR")
    assert values(result, "ARO")[1] == 2000
    assert values(result, "TPR")[1] == 2000


def test_aro_and_aro_cut_1():
    t = one_player_against({2: 1900, 3: 2000, 4: 2100}, "2w1 3b0 4w=")
    result = standings(t, "ARO", "ARO/C1")
    assert values(result, "ARO")[1] == 2000
    assert values(result, "ARO/C1")[1] == 2050  # without the lowest-rated opponent (C.07 14)


def test_no_game_over_the_board_has_no_rating_value():
    t = crosstable({1: "2w1 .", 2: "1b0 .", 3: "U Z"}, ratings={1: 2000, 2: 1800, 3: 1900})
    result = standings(t, "ARO", "TPR", "PTP")
    for rule in ("ARO", "TPR", "PTP"):
        assert values(result, rule)[3] is None


# --- PTP (C.07 10.3): the lowest rating whose expected score reaches the score -------------


@pytest.mark.parametrize(
    "opponents, row, ptp",
    [
        ({2: 1900, 3: 2100}, "2w0 3b0", 1100),  # score 0: lowest opponent 1900 - 800
        ({2: 2000}, "2w1", 2736),  # 1/1 needs 1.00: a difference of 736 (735 is 0.99)
        ({2: 2000}, "2w=", 1997),  # ½/1 needs 0.50: reached 3 points below (0-3 -> 0.50)
        ({2: 2000, 3: 2000}, "2w1 3b=", 2189),  # 1½/2 needs 0.75 each: 189-197 -> 0.75
    ],
)
def test_perfect_tournament_performance(opponents, row, ptp):
    t = one_player_against(opponents, row)
    assert values(standings(t, "PTP"), "PTP")[1] == ptp


def test_b02_tables_at_their_edges():
    assert rating_difference(50) == 0
    assert rating_difference(100) == 800
    assert rating_difference(0) == -800
    assert rating_difference(75) == 193
    assert rating_difference(25) == -193
    assert rating_difference(67) == 125
    assert [expected_percent(d) for d in (0, 3, 4, 10, 11)] == [50, 50, 51, 51, 52]
    assert [expected_percent(d) for d in (189, 197, 198)] == [75, 75, 76]
    assert [expected_percent(d) for d in (735, 736, 800, 1500)] == [99, 100, 100, 100]
    assert [expected_percent(-d) for d in (4, 735, 736)] == [49, 1, 0]


def test_perfect_performance_directly():
    # The score is in standard points (games won), whatever the event's scoring.
    assert perfect_performance([1900, 2100], F(0)) == 1100
    assert perfect_performance([2000], F(1)) == 2736


def test_performance_counts_standard_points_under_3_1_0_scoring():
    # A draw is half a game for TPR whatever the scoring: 50 % gives dp 0, TPR = ARO.
    t = crosstable({1: "2w=", 2: "1b="}, ratings={1: 2000, 2: 1800}, scoring=Scoring(win=F(3), draw=F(1)))
    assert values(standings(t, "TPR"), "TPR") == {1: 1800, 2: 2000}


# --- APRO / APPO (C.07 10.5, 10.6) ---------------------------------------------------------------


def test_average_performance_of_opponents():
    # 1 (2000) beat 2 (1800): TPR 1 = 1800 + 800 = 2600, TPR 2 = 2000 - 800 = 1200;
    # PTP 1 = 1800 + 736 = 2536, PTP 2 = 2000 - 800 = 1200.
    t = crosstable({1: "2w1", 2: "1b0"}, ratings={1: 2000, 2: 1800})
    result = standings(t, "TPR", "PTP", "APRO", "APPO")
    assert values(result, "TPR") == {1: 2600, 2: 1200}
    assert values(result, "PTP") == {1: 2536, 2: 1200}
    assert values(result, "APRO") == {1: 1200, 2: 2600}
    assert values(result, "APPO") == {1: 1200, 2: 2536}


# --- unrated players (C.07 10) -------------------------------------------------------------------


def with_an_unrated_player(rating_of_3=None):
    return crosstable(
        {1: "2w1 3b= .", 2: "1b0 .   3w1", 3: ".   1w= 2b0"},
        ratings={1: 2000, 2: 1800, 3: rating_of_3},
    )


@pytest.mark.parametrize("unrated", [None, 0])
def test_unrated_players_drop_the_rating_rules_with_a_warning(unrated):
    result = standings(with_an_unrated_player(unrated), "ARO", "TPR", "BH")
    assert values(result, "ARO") == {1: None, 2: None, 3: None}
    assert values(result, "TPR") == {1: None, 2: None, 3: None}
    assert all(v is not None for v in values(result, "BH").values())
    (warning,) = [w for w in result.warnings if w.code == "rating-tiebreak-dropped"]
    assert "ARO" in warning.message and "TPR" in warning.message
    assert warning.rule == "C.07 10"
    assert result.outcomes[0].dropped_reason and result.outcomes[2].dropped_reason is None


def test_unrated_rating_keeps_the_rating_rules():
    # Player 3 counts as 1400: ARO 1 = (1800 + 1400) / 2 = 1600, ARO 3 = (2000 + 1800) / 2 = 1900;
    # TPR 1 = 1600 + dp(75 %) = 1600 + 193.
    result = standings(with_an_unrated_player(), "ARO", "TPR", unrated_rating=1400)
    assert values(result, "ARO") == {1: 1600, 2: 1700, 3: 1900}
    assert values(result, "TPR")[1] == 1793
    codes = [w.code for w in result.warnings]
    assert "rating-tiebreak-dropped" not in codes
    assert "unrated-rating-used" in codes


def test_no_warning_without_rating_rules():
    result = standings(with_an_unrated_player(), "BH", "SB")
    assert result.warnings == []


# --- unusual scoring must not crash the performance rating (SPEC 3.5: never a 500) -----------


@pytest.mark.parametrize(
    "rows, scoring",
    [
        ({1: "2w1@2", 2: "1b0@0"}, None),  # arbiter's override above a win: 200 %
        ({1: "2w=", 2: "1b="}, Scoring(win=F(1), draw=F(2))),  # a draw scored above a win: 200 % each
        (
            {1: "2w1", 2: "1b0"},
            Scoring(win=F(0), draw=F(0), forfeit_win=F(0), pairing_bye=F(0), full_bye=F(0), half_bye=F(0)),
        ),  # nothing to score: 0 / 0
    ],
    ids=["override-above-a-win", "draw-above-a-win", "win-worth-0"],
)
@pytest.mark.parametrize("rule", ["TPR", "APRO"])
def test_performance_rating_of_unusual_scores_answers_or_refuses_cleanly(rows, scoring, rule):
    # The API accepts these (points 0..100 per round, any scoring); the engine must either
    # compute a value or raise its own InvalidRequest, never IndexError / ZeroDivisionError.
    t = crosstable(rows, ratings={1: 2000, 2: 1800}, scoring=scoring)
    try:
        result = standings(t, rule)
    except InvalidRequest:
        return
    assert all(v is None or 1000 <= v <= 3000 for v in values(result, rule).values())
