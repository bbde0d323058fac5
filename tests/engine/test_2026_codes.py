"""The codes new in the 2026 list: STD (7.7), RTNG (own rating), TPN (pairing number). By hand."""

from __future__ import annotations

from tests.builders import F, contributions, crosstable, ranks, standings, three_one_zero, values

# 3-1-0 with a half-point bye worth a draw and byes worth a win.
THREE_ONE_ZERO = three_one_zero()


def seven_rounds():
    # 1: won, drew, lost, PAB, half-point bye, forfeit loss, forfeit win.
    return crosstable(
        {
            1: "2w1 3b= 4w0 U   H   5b- 6w+",
            2: "1b0",
            3: ". 1w=",
            4: ". . 1b1",
            5: ". . . . . 1w+",
            6: ". . . . . . 1b-",
        },
        scoring=THREE_ONE_ZERO,
    )


def test_standard_points_score_each_round_one_half_zero():
    # 1 + ½ + 0 + 1 + ½ + 0 + 1 = 4, whatever the 3-1-0 scoring gave (3+1+0+3+1+0+3 = 11).
    result = standings(seven_rounds(), "STD")
    assert result.table.scores[0] == 11 and result.table.scale == 1
    assert values(result, "STD")[1] == 4
    per_round = [(c.round, F(c.value)) for c in contributions(result, "STD", 1)]
    assert per_round == [(1, 1), (2, F("0.5")), (3, 0), (4, 1), (5, F("0.5")), (6, 0), (7, 1)]


def test_standard_points_with_the_usual_scoring_equal_the_points():
    t = crosstable({1: "2w1 3b= H", 2: "1b0 U 3w0", 3: "U 1w= 2b1"})
    result = standings(t, "STD")
    assert values(result, "STD") == {1: 2, 2: 1, 3: F("2.5")}


def tied_on_points():
    # 1 and 2 both win one game and lose one; 3 and 4 are the other sides.
    return crosstable(
        {1: "3w1 4b0", 2: "4w1 3b0", 3: "1b0 2w1", 4: "2b0 1w1"}, ratings={1: 1800, 2: 2100, 3: 1900, 4: None}
    )


def test_rating_orders_by_the_own_rating():
    result = standings(tied_on_points(), "RTNG", unrated_rating=1000)
    assert values(result, "RTNG") == {1: 1800, 2: 2100, 3: 1900, 4: 1000}
    assert ranks(result) == {2: 1, 3: 2, 1: 3, 4: 4}


def test_rating_is_dropped_without_a_rating_for_unrated_players():
    result = standings(tied_on_points(), "RTNG")
    assert result.outcomes[0].dropped_reason is not None
    assert values(result, "RTNG") == {1: None, 2: None, 3: None, 4: None}
    assert any(w.code == "rating-tiebreak-dropped" for w in result.warnings)


def test_pairing_number_separates_everyone_lower_first():
    result = standings(tied_on_points(), "TPN")
    assert values(result, "TPN") == {1: 1, 2: 2, 3: 3, 4: 4}
    assert ranks(result) == {1: 1, 2: 2, 3: 3, 4: 4}
    assert result.rows[0].decided_by == "TPN"
