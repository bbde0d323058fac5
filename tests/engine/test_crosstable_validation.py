"""A crosstable that contradicts itself is refused with the place of each contradiction (SPEC 3.1, 3.5)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from tiebreak.engine import Color, Player, ResultKind, RoundResult, Tournament
from tiebreak.engine.table import build_crosstable
from tiebreak.engine.errors import InconsistentCrosstable, InvalidRequest, format_path
from tests.builders import crosstable, standings


def issues_of(tournament: Tournament) -> list[tuple]:
    with pytest.raises(InconsistentCrosstable) as info:
        build_crosstable(tournament)
    return [issue.path for issue in info.value.issues]


def with_results(tournament: Tournament, pid: int, *results: RoundResult) -> Tournament:
    players = tuple(replace(p, results=results) if p.id == pid else p for p in tournament.players)
    return replace(tournament, players=players)


def test_a_consistent_table_is_accepted():
    table = build_crosstable(crosstable({1: "2w1 3b=", 2: "1b0 H", 3: "U 1w="}))
    assert table.ids == [1, 2, 3]
    assert table.scores == [3, 1, 3]  # half points


def test_opponent_missing_on_the_other_side():
    t = crosstable({1: "2w1", 2: "."}, rounds=1)
    assert issues_of(t) == [("players", 0, "results", 0, "opponent")]


def test_opponent_with_a_bye_on_the_other_side():
    t = crosstable({1: ". 2w1", 2: ". H"})
    assert issues_of(t) == [("players", 0, "results", 0, "opponent")]


def test_mismatching_opponent():
    # 1 says it played 2 in round 1; 2 says it played 3, and 3 agrees with 2.
    t = crosstable({1: "2w1", 2: "3w1", 3: "2b0"})
    assert issues_of(t) == [("players", 0, "results", 0, "opponent")]


def test_same_colour_on_both_sides():
    t = crosstable({1: "H 2w1", 2: "H 1w0"})
    assert issues_of(t) == [("players", 1, "results", 1, "color")]


def test_missing_colour_on_one_side_is_not_a_contradiction():
    build_crosstable(crosstable({1: "2w1", 2: "1-0"}))


@pytest.mark.parametrize(
    "first, second",
    [
        ("2w1", "1b1"),  # both won
        ("2w0", "1b0"),  # 0-0 without an override
        ("2w=", "1b0"),  # ½-0 without an override
        ("2w+", "1b0"),  # forfeit win against a played loss
        ("2w1", "1b-"),  # played win against a forfeit loss
    ],
)
def test_non_complementary_results_need_points(first, second):
    t = crosstable({1: first, 2: second})
    assert issues_of(t) == [("players", 0, "results", 0, "result")]


def test_points_on_only_one_entry_is_not_enough():
    t = crosstable({1: "2w0@0", 2: "1b0"})
    assert issues_of(t) == [("players", 1, "results", 0, "result")]


@pytest.mark.parametrize(
    "first, second, points",
    [
        ("2w0@0", "1b0@0", (0, 0)),  # 0-0 by an arbiter's decision
        ("2w=@1/2", "1b0@0", (1, 0)),  # ½-0 (in half points)
        ("2w1@1", "1b1@1/2", (2, 1)),  # 1-½
    ],
)
def test_non_complementary_results_with_points_on_both_entries_are_accepted(first, second, points):
    table = build_crosstable(crosstable({1: first, 2: second}))
    assert tuple(table.scores) == points


@pytest.mark.parametrize("first, second", [("2w1", "1b0"), ("2w=", "1b="), ("2w+", "1b-"), ("2w-", "1b+")])
def test_complementary_results_are_accepted(first, second):
    build_crosstable(crosstable({1: first, 2: second}))


def test_double_forfeit_is_accepted_and_scores_nothing():
    table = build_crosstable(crosstable({1: "2w-", 2: "1b-"}))
    assert table.scores == [0, 0]


def test_self_pairing():
    t = crosstable({1: "1w1", 2: "H"})
    assert issues_of(t) == [("players", 0, "results", 0, "opponent")]


def test_unknown_opponent():
    t = crosstable({1: "H 9w1", 2: "H H"})
    assert issues_of(t) == [("players", 0, "results", 1, "opponent")]


def test_duplicate_ids():
    t = crosstable([(1, "H"), (2, "H"), (1, "U")])
    assert issues_of(t) == [("players", 2, "id")]


def test_duplicate_round():
    t = with_results(
        crosstable({1: "H H", 2: "H H"}), 2, RoundResult(1, ResultKind.HALF_BYE), RoundResult(1, ResultKind.ZERO_BYE)
    )
    assert issues_of(t) == [("players", 1, "results", 1, "round")]


@pytest.mark.parametrize("bad_round", [0, -1, 3, 10**9])
def test_round_out_of_range(bad_round):
    t = with_results(
        crosstable({1: "H H", 2: "H H"}),
        1,
        RoundResult(1, ResultKind.HALF_BYE),
        RoundResult(bad_round, ResultKind.ZERO_BYE),
    )
    assert issues_of(t) == [("players", 0, "results", 1, "round")]


@pytest.mark.parametrize(
    "kind", [ResultKind.HALF_BYE, ResultKind.PAIRING_BYE, ResultKind.FULL_BYE, ResultKind.ZERO_BYE, ResultKind.ABSENT]
)
def test_bye_with_an_opponent(kind):
    t = with_results(crosstable({1: "H", 2: "H"}), 1, RoundResult(1, kind, opponent=2))
    assert issues_of(t) == [("players", 0, "results", 0, "opponent")]


def test_bye_with_a_colour():
    t = with_results(crosstable({1: "H", 2: "H"}), 1, RoundResult(1, ResultKind.HALF_BYE, color=Color.WHITE))
    assert issues_of(t) == [("players", 0, "results", 0, "color")]


@pytest.mark.parametrize(
    "kind", [ResultKind.WIN, ResultKind.DRAW, ResultKind.LOSS, ResultKind.FORFEIT_WIN, ResultKind.FORFEIT_LOSS]
)
def test_game_without_an_opponent(kind):
    t = with_results(crosstable({1: "H", 2: "H"}), 2, RoundResult(1, kind))
    assert issues_of(t) == [("players", 1, "results", 0, "opponent")]


def test_every_issue_is_reported_not_only_the_first():
    t = crosstable({1: "1w1 9b0", 2: "H H"})
    assert issues_of(t) == [("players", 0, "results", 0, "opponent"), ("players", 0, "results", 1, "opponent")]


def test_error_names_the_place_in_the_request():
    with pytest.raises(InconsistentCrosstable) as info:
        build_crosstable(crosstable({1: "H 2w1", 2: "H ."}))
    assert "players[0].results[1].opponent" in str(info.value)
    path = ("players", 3, "results", 2, "opponent")
    assert format_path(path, "tournament") == "tournament.players[3].results[2].opponent"


def test_compute_standings_refuses_an_inconsistent_table_too():
    with pytest.raises(InconsistentCrosstable):
        standings(crosstable({1: "2w1", 2: "1w0"}), "BH")


@pytest.mark.parametrize("after_round", [0, -1, 4])
def test_after_round_out_of_range(after_round):
    t = crosstable({1: "2w1 H H", 2: "1b0 H H"})
    with pytest.raises(InvalidRequest) as info:
        standings(t, "BH", after_round=after_round)
    assert not isinstance(info.value, InconsistentCrosstable)
    assert [i.path for i in info.value.issues] == [("after_round",)]


@pytest.mark.parametrize("after_round, points", [(1, [2, 0]), (2, [3, 1]), (3, [4, 2])])
def test_after_round_in_range_ignores_later_rounds(after_round, points):
    table = build_crosstable(crosstable({1: "2w1 H H", 2: "1b0 H H"}), after_round)
    assert table.played_rounds == after_round
    assert table.scores == points


def test_points_override_is_exact():
    t = crosstable({1: "2w1@1/4", 2: "1b0@0"})
    table = build_crosstable(t)
    assert table.scale == 4
    assert Fraction(table.scores[0], table.scale) == Fraction(1, 4)


def test_a_player_with_no_results_is_absent_throughout():
    t = Tournament(players=(Player(1, results=(RoundResult(1, ResultKind.PAIRING_BYE),)), Player(2)), rounds=1)
    table = build_crosstable(t)
    assert table.kind_of(1, 0) is ResultKind.ABSENT
    assert table.scores == [2, 0]
