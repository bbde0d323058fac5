"""Direct encounter (C.07 6): the place inside the group tied on all earlier rules, 0 if not separated."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tiebreak.engine import System
from tests.builders import crosstable, ranks, specs, standings, values
from tests.profiles import examples


def de_values(tournament, *rules: str, **kw) -> dict[int, int]:
    result = standings(tournament, *rules, **kw)
    return values(result, len(rules) - 1)


def three_tied_all_met():
    # 1 beat 2, 2 beat 3, 1 and 3 drew; one outside game each brings all three to 1½.
    return crosstable(
        {
            1: "2w1 .   3w= 4b0",
            2: "1b0 3w1 .   5w=",
            3: ".   2b0 1b= 6w1",
            4: ".   .   .   1w1",
            5: ".   .   .   2b=",
            6: ".   .   .   3b0",
        }
    )


def test_all_met_places_follow_the_points_between_them():
    # C.07 6.1: among themselves 1 scored 1½, 2 scored 1, 3 scored ½.
    t = three_tied_all_met()
    assert {p: de_values(t, "DE")[p] for p in (1, 2, 3)} == {1: 1, 2: 2, 3: 3}
    result = standings(t, "DE")
    assert [ranks(result)[p] for p in (1, 2, 3)] == [1, 2, 3]
    assert result.rows[0].decided_by == "DE"


def one_ahead_two_level():
    # 1 beat 2 and 3, who drew; byes and one outside game bring all three to 2.
    return crosstable(
        {
            1: "2w1 3b1 .   4b0 Z",
            2: "1b0 .   3w= 5w1 H",
            3: ".   1w0 2b= 6b1 H",
            4: ".   .   .   1w1",
            5: ".   .   .   2b0",
            6: ".   .   .   3w0",
        }
    )


def test_all_met_players_it_leaves_tied_share_a_place():
    t = one_ahead_two_level()
    assert {p: de_values(t, "DE")[p] for p in (1, 2, 3)} == {1: 1, 2: 2, 3: 2}
    r = ranks(standings(t, "DE"))
    assert (r[1], r[2], r[3]) == (1, 2, 2)


def test_direct_encounter_is_computed_inside_the_groups_of_the_earlier_rules():
    # WIN first: 1 (two wins) is alone; 2 and 3 (one win each) drew: nothing to separate.
    t = one_ahead_two_level()
    assert {p: de_values(t, "WIN", "DE")[p] for p in (1, 2, 3)} == {1: 0, 2: 0, 3: 0}


def test_a_cycle_does_not_separate():
    # 1 beat 2, 2 beat 3, 3 beat 1: one point each among themselves.
    t = crosstable({1: "2w1 .   3b0", 2: "1b0 3w1 .", 3: ".   2b0 1w1"})
    result = standings(t, "DE")
    assert values(result, "DE") == {1: 0, 2: 0, 3: 0}
    assert set(ranks(result).values()) == {1}
    assert all(row.decided_by is None for row in result.rows)


def leader_met_everyone():
    # 1 beat 2 and 3; 2 and 3 never met. All three finish on 2.
    return crosstable(
        {
            1: "2w1 3b1 4w0",
            2: "1b0 5w1 6b1",
            3: "7w1 1w0 8b1",
            4: ".   .   1b1",
            5: ".   2b0",
            6: ".   .   2w0",
            7: "3b0",
            8: ".   .   3w0",
        }
    )


def test_not_all_met_an_undisputed_leader_is_placed_first():
    # C.07 6.3: 1 met both others and scored 2; neither 2 nor 3 could reach more than 1
    # even by winning the game they did not play. 2 and 3 stay level behind.
    t = leader_met_everyone()
    result = standings(t, "DE")
    assert {p: values(result, "DE")[p] for p in (1, 2, 3)} == {1: 1, 2: 2, 3: 2}
    notes = result.outcomes[0].notes
    assert "6.3" in notes[result.table.ids.index(1)]


def test_not_all_met_no_undisputed_leader_is_not_separated():
    # 1 beat 2 and drew 3 (1½ among them); 3 never met 2 and could still reach 1½. Nobody is
    # ahead whatever the missing game, so DE is 0 for all three (C.07 6.3).
    t = crosstable(
        {
            1: "2w1 3b= 4w0",
            2: "1b0 5w1 6b=",
            3: "7w= 1w= 8b=",
            4: ".   .   1b1",
            5: ".   2b0",
            6: ".   .   2w=",
            7: "3b=",
            8: ".   .   3w=",
        }
    )
    result = standings(t, "DE")
    assert {p: values(result, "DE")[p] for p in (1, 2, 3)} == {1: 0, 2: 0, 3: 0}
    assert "6.3" in result.outcomes[0].notes[0]


def test_nobody_met_anybody():
    t = crosstable({1: "3w1", 2: "4w1", 3: "1b0", 4: "2b0"})
    assert values(standings(t, "DE"), "DE") == {1: 0, 2: 0, 3: 0, 4: 0}


def test_a_player_alone_in_the_group_gets_0():
    t = crosstable({1: "2w1", 2: "1b0"})
    assert values(standings(t, "DE"), "DE") == {1: 0, 2: 0}


def forfeit_between_the_tied():
    # 1 won against 2 by forfeit; 1 took a zero-point bye, 2 the pairing-allocated bye.
    return crosstable({1: "2w+ Z", 2: "1b- U"})


def test_a_forfeit_is_not_an_encounter():
    assert values(standings(forfeit_between_the_tied(), "DE"), "DE") == {1: 0, 2: 0}


def test_with_p_a_forfeit_counts_as_a_game_between_them():
    assert values(standings(forfeit_between_the_tied(), "DE/P"), "DE/P") == {1: 1, 2: 2}


def test_in_a_round_robin_forfeits_count_without_p():
    # 4-player round robin; 1 beat 2 by forfeit and both finish on 1½.
    rows = {
        1: "2w+ 3b0 4w=",
        2: "1b- 4w= 3b1",
        3: "4w1 1w1 2w0",
        4: "3b0 2b= 1b=",
    }
    rr = values(standings(crosstable(rows, system=System.ROUND_ROBIN), "DE"), "DE")
    assert (rr[1], rr[2]) == (1, 2)
    swiss = values(standings(crosstable(rows, system=System.SWISS), "DE"), "DE")
    assert (swiss[1], swiss[2]) == (0, 0)


def test_lower_is_better_in_the_ranking():
    result = standings(three_tied_all_met(), "DE", "BH")
    order = [result.table.ids[row.player] for row in result.rows]
    assert order[:3] == [1, 2, 3]


def four_tied_all_met_two_and_two():
    """1-4 all met and all finish on 3 points (outside games against 5-12 fill the rest).

    Among themselves: 1 beat 2 and 3, lost to 4 (2 points); 2 beat 3 and 4 (2); 3 beat 4 (1);
    4 beat 1 (1). Mutual scores 2, 2, 1, 1; the pairs on equal mutual scores played each
    other decisively.
    """
    return crosstable(
        {
            1: "2w1 3w1 4b0 5w= 6b=",
            2: "1b0 4w1 3w1 7b= 8w=",
            3: "4w1 1b0 2b0 9w1 10b1",
            4: "3b0 2b0 1w1 11w1 12b1",
            5: ".   .   .   1b=",
            6: ".   .   .   .   1w=",
            7: ".   .   .   2w=",
            8: ".   .   .   .   2b=",
            9: ".   .   .   3b0",
            10: ".  .   .   .   3w0",
            11: ".  .   .   4b0",
            12: ".  .   .   .   4w0",
        }
    )


def test_sub_groups_left_tied_are_separated_by_their_own_games():
    # C.07 6.2: places 1, 2, 3, 4 — not 1, 1, 3, 3.
    result = standings(four_tied_all_met_two_and_two(), "DE")
    assert {p: values(result, "DE")[p] for p in (1, 2, 3, 4)} == {1: 1, 2: 2, 3: 3, 4: 4}
    assert [ranks(result)[p] for p in (1, 2, 3, 4)] == [1, 2, 3, 4]
    note = result.outcomes[0].notes[result.table.ids.index(2)]
    assert "6.2" in note and "place 2" in note


def leader_who_did_not_meet_everyone():
    """1-4 finish on 3. 1 beat 2 and 3 and never met 4; 2 and 3 drew and both beat 4.

    Mutual scores: 1: 2 (at least 2 whatever the game against 4 would give); 2: 1½, 3: 1½,
    4: 0 (at most 1 with the game against 1 won).
    """
    return crosstable(
        {
            1: "2w1 3b1 5w0 6b1 14w0",
            2: "1b0 4w1 3w= 7b1 8w=",
            3: "4w1 1w0 2b= 9w1 10b=",
            4: "3b0 2b0 11w1 12b1 13w1",
            5: ".   .   1b1",
            6: ".   .   .   1w0",
            7: ".   .   .   2w0",
            8: ".   .   .   .   2b=",
            9: ".   .   .   3b0",
            10: ".  .   .   .   3w=",
            11: ".  .   4b0",
            12: ".  .   .   4w0",
            13: ".  .   .   .   4b0",
            14: ".  .   .   .   1b1",
        }
    )


def test_a_swiss_leader_is_placed_first_without_having_met_everyone():
    # C.07 6.3: 1's lowest possible 2 beats everyone else's highest: 2 and 3 met all the
    # others (1½ each), 4 could reach 0 + 1 = 1 by winning the missing game against 1.
    # The rest all met: 2 and 3 on 1½, 4 on 0; 2 and 3 drew, so they share place 2 (6.2).
    result = standings(leader_who_did_not_meet_everyone(), "DE")
    assert {p: values(result, "DE")[p] for p in (1, 2, 3, 4)} == {1: 1, 2: 2, 3: 2, 4: 4}
    r = ranks(result)
    assert (r[1], r[2], r[3], r[4]) == (1, 2, 2, 4)
    notes = result.outcomes[0].notes
    assert "6.3" in notes[result.table.ids.index(1)]
    assert "place 4" in notes[result.table.ids.index(4)]


# ---- players who met more than once: the average of their games (C.07 6.1.2, issue 21 item 2)


def test_a_double_round_robin_averages_the_games_of_players_who_met_twice():
    # 4-player double round robin after round 5 (Berger order). 1 beat 2 twice, 2 beat 3 twice,
    # 3 beat 1 in their one game so far; the games against 4 bring 1, 2 and 3 to 3 points each.
    # Averaged: 1 scores 1 (vs 2) + 0 (vs 3) = 1, 2 scores 0 + 1 = 1, 3 scores 0 + 1 = 1: equal,
    # so DE does not separate them. Added up (the old fault) 1 had 2 and 2, 3 had 1 each: 1, 2, 3.
    rows = {
        1: "4w= 2w1 3b0 4b= 2b1",
        2: "3w1 1b0 4w1 3b1 1w0",
        3: "2b0 4b1 1w1 2w0 4w1",
        4: "1b= 3w0 2b0 1w= 3b0",
    }
    result = standings(crosstable(rows, system=System.ROUND_ROBIN), "DE")
    assert {p: values(result, "DE")[p] for p in (1, 2, 3)} == {1: 0, 2: 0, 3: 0}
    assert [ranks(result)[p] for p in (1, 2, 3)] == [1, 1, 1]


def test_a_swiss_where_two_tied_players_met_twice_averages_their_games():
    # 1 beat 2 in rounds 1 and 4, 2 beat 3, 3 beat 1; all three finish on 3 points.
    # Averaged: 1 scores 1 + 0, 2 scores 0 + 1, 3 scores 1 + 0: 1 each, not separated.
    rows = {
        1: "2w1 5b1 3b0 2b1 6w0",
        2: "1b0 3w1 6b1 1w0 4w1",
        3: "4w1 2b0 1w1 5w1 5b0",
        4: "3b0 6w= 5b= 6b= 2b0",
        5: "6w= 1w0 4w= 3b0 3w1",
        6: "5b= 4b= 2w0 4w= 1b1",
    }
    result = standings(crosstable(rows), "DE")
    assert {p: values(result, "DE")[p] for p in (1, 2, 3)} == {1: 0, 2: 0, 3: 0}


def _one_group_rows(games: dict[tuple[int, int], list[str]], total: int) -> dict[int, str]:
    """Every meeting of `games` in a round of its own (the others absent), then full- and
    half-point byes that bring every player to `total` half points: one group tied on points."""
    players = sorted({p for pair in games for p in pair})
    rows: dict[int, list[str]] = {p: [] for p in players}
    halves = dict.fromkeys(players, 0)
    other = {"1": "0", "0": "1", "=": "="}
    worth = {"1": 2, "0": 0, "=": 1}
    for (a, b), results in games.items():
        for result in results:
            halves[a] += worth[result]
            halves[b] += worth[other[result]]
            for p in players:
                rows[p].append(f"{b}w{result}" if p == a else f"{a}b{other[result]}" if p == b else ".")
    for p in players:
        missing = total - halves[p]
        rows[p] += ["F"] * (missing // 2) + ["H"] * (missing % 2)
    return {p: " ".join(tokens) for p, tokens in rows.items()}


# Two meetings averaging to one game's result: a win twice, a loss twice, or (for a draw) a win and
# a loss either way round or two draws.
_TWICE = {"1": [["1", "1"]], "0": [["0", "0"]], "=": [["1", "0"], ["0", "1"], ["=", "="]]}


@settings(max_examples=examples(80), deadline=None)
@given(data=st.data(), size=st.integers(3, 5))
def test_direct_encounter_over_repeated_meetings_equals_it_over_their_averages(data, size):
    # C.07 6.1.2: players who met more than once count the average of their games. Some pairs of a
    # round robin meet twice, with games averaging to the single round robin's result; byes put
    # everyone on the same points, so DE places the whole field in both, and must place it alike.
    pairs = [(a, b) for a in range(1, size + 1) for b in range(a + 1, size + 1)]
    once = {pair: [data.draw(st.sampled_from(["1", "0", "="]))] for pair in pairs}
    repeated = {pair: data.draw(st.sampled_from([results, *_TWICE[results[0]]])) for pair, results in once.items()}
    total = 4 * len(pairs)  # in half points: more than any player's games give
    single = standings(crosstable(_one_group_rows(once, total), system=System.ROUND_ROBIN), "DE")
    double = standings(crosstable(_one_group_rows(repeated, total), system=System.ROUND_ROBIN), "DE")
    assert values(double, "DE") == values(single, "DE")


# ---- 6.3 after the uncatchable player is placed (issue 21 item 4b, decision 0061)


def four_tied_leader_uncatchable():
    # 1, 2, 3 and 4 finish on 3 points. Between them: 1 beat 2 and 3 and drew 4, 2 and 4 drew,
    # 4 beat 3; 2 and 3 never met. Everyone else plays one game and scores below 3.
    return crosstable(
        {
            1: "2w1 3w1 4w= 7w= 11w0",
            2: "1b0 4w= 5w1 8w1 12w=",
            3: "4w0 1b0 6w1 9w1 13w1",
            4: "3b1 2b= 1b= 10w1 14w0",
            5: ".   .   2b0 .   .  ",
            6: ".   .   3b0 .   .  ",
            7: ".   .   .   1b= .  ",
            8: ".   .   .   2b0 .  ",
            9: ".   .   .   3b0 .  ",
            10: ".   .   .   4b0 .  ",
            11: ".   .   .   .   1b1",
            12: ".   .   .   .   2b=",
            13: ".   .   .   .   3b0",
            14: ".   .   .   .   4b1",
        }
    )


def test_after_a_6_3_placement_the_rest_are_ordered_on_their_own_games_by_default():
    # C.07 6.3: mutual scores 1: 2½, 2: ½, 3: 0, 4: 2; 2-3 missing, so 2 and 3 could reach at
    # most ½ + 1 = 1½ and 0 + 1 = 1, 4 (met all) 2: 1 is placed first (2½ > 2).
    # Article 6 again on 2, 3, 4 alone: 2: ½, 3: 0, 4: 1½; 2-3 missing: at most 1½, 1, 1½.
    # 4's 1½ does not beat 2's possible 1½, nobody else is ahead: 2, 3 and 4 share place 2.
    result = standings(four_tied_leader_uncatchable(), "DE")
    assert {p: values(result, "DE")[p] for p in (1, 2, 3, 4)} == {1: 1, 2: 2, 3: 2, 4: 2}


def test_after_a_6_3_placement_the_whole_group_table_can_be_kept():
    # DE/W: 2, 3, 4 keep the games against 1: 2: ½, 3: 0, 4: ½ + 1½ = 2; at most 1½, 1, 2.
    # 4's 2 beats 2's possible 1½ and 3's 1: 4 is second. Then 2 and 3, on the whole table:
    # ½ and 0, at most 1½ and 1, still unmet: they share place 3.
    result = standings(four_tied_leader_uncatchable(), "DE/W")
    assert {p: values(result, 0)[p] for p in (1, 2, 3, 4)} == {1: 1, 2: 3, 3: 3, 4: 2}
    assert specs("DE/P/W")[0].canonical == "DE/P/W"
