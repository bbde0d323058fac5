"""Invariants of team events (SPEC 2.5) for any consistent random event."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tiebreak.engine import Regulations
from tiebreak.engine.teams.model import Board, BoardResult, Score
from tiebreak.engine.teams.registry import parse_team_rule
from tiebreak.engine.teams.standings import compute_team_standings
from tests.builders import all_values, assert_kept_contributions_add_up, ranks
from tests.team_builders import event, match
from tests.team_strategies import renumbered_teams, swapped_home_and_away, team_events
from tests.profiles import examples

FAST = settings(max_examples=examples(60, "TIEBREAK_PROPERTY_EXAMPLES"), deadline=None)
BOTH_EDITIONS = st.sampled_from([Regulations.FIDE_2026, Regulations.FIDE_2024])

RULES = [
    parse_team_rule(t, None)
    for t in (
        "PTS",
        "PTS:GP",
        "MPvGP",
        "BH:MP",
        "BH:GP/C1",
        "BH:MP/M1",
        "FB:MP",
        "AOB:MP",
        "SB:MP",
        "SB:GP/C1",
        "PS:GP",
        "KS:MP",
        "WIN",
        "WON",
        "STD",
        "GE",
        "EMMSB",
        "EMGSB",
        "EGMSB",
        "EGGSB/C1",
        "EMGSB/C2",
        "EMGSB/P",
        "ESB",
        "SSSC",
        "SSSC/P",
        "SSSC/F",
        "BC",
        "EDE",
        "DE",
        "TBR",
        "BBE",
        "EDEBT",
        "EDEBB",
        "EDEC",
    )
]
GROUP_RULES = {"DE", "EDE", "EDEBT", "EDEBB", "EDEC", "TBR", "BBE"}
# Rules whose value is the sum of the contributions left after the cuts.
SUMMED = {
    "PTS",
    "MPvGP",
    "WIN",
    "WON",
    "STD",
    "GE",
    "PS",
    "KS",
    "BH",
    "FB",
    "SB",
    "EMMSB",
    "EMGSB",
    "EGMSB",
    "EGGSB",
    "ESB",
    "BC",
}


def compute(event, rules=RULES, regulations=Regulations.FIDE_2026, **kw):
    return compute_team_standings(event, list(rules), regulations, **kw)


@FAST
@given(drawn=team_events(), regulations=BOTH_EDITIONS)
def test_swapping_home_and_away_changes_nothing(drawn, regulations):
    before = compute(drawn, regulations=regulations, explain=False)
    after = compute(swapped_home_and_away(drawn), regulations=regulations, explain=False)
    assert all_values(after) == all_values(before)
    assert ranks(after) == ranks(before)


@FAST
@given(drawn=team_events(), data=st.data(), regulations=BOTH_EDITIONS)
def test_renumbering_the_teams_changes_no_value_and_no_rank(drawn, data, regulations):
    renumbered, mapping = data.draw(renumbered_teams(drawn))
    before, after = compute(drawn, regulations=regulations), compute(renumbered, regulations=regulations)
    old, new = all_values(before), all_values(after)
    old_ranks, new_ranks = ranks(before), ranks(after)
    for tid, other in mapping.items():
        assert new[other] == old[tid], tid
        assert new_ranks[other] == old_ranks[tid], tid


@FAST
@given(drawn=team_events(), regulations=BOTH_EDITIONS)
def test_sb_on_a_score_is_the_extended_sb_on_that_score_twice(drawn, regulations):
    # C.07 13.2: SB:MP = EMMSB, SB:GP = EGGSB (cuts and P included)
    pairs = [
        ("SB:MP", "EMMSB"),
        ("SB:GP", "EGGSB"),
        ("SB:MP/C1", "EMMSB/C1"),
        ("SB:GP/C2", "EGGSB/C2"),
        ("SB:GP/P", "EGGSB/P"),
    ]
    rules = [parse_team_rule(t, None) for pair in pairs for t in pair]
    result = compute(drawn, rules, regulations, explain=False)
    for k in range(len(pairs)):
        sb, esb = result.outcomes[2 * k], result.outcomes[2 * k + 1]
        assert [Fraction(v, sb.scale) for v in sb.values] == [Fraction(v, esb.scale) for v in esb.values]


@FAST
@given(drawn=team_events(forfeits=False, min_teams=2), data=st.data())
def test_board_count_of_a_team_that_won_every_board(drawn, data):
    # C.07 12.1: board number × game points summed: 1 + 2 + ... + n per match won on every board
    hero = drawn.teams[0].id
    matches = []
    played = 0
    for m in drawn.matches:
        if hero in (m.home, m.away):
            boards = []
            for b in m.boards:
                white_is_hero = b.white in {p.id for p in drawn.teams[0].players}
                boards.append(
                    Board(
                        b.board, b.white, b.black, BoardResult.WHITE_WINS if white_is_hero else BoardResult.BLACK_WINS
                    )
                )
            m = replace(m, boards=tuple(boards))
            played += 1
        matches.append(m)
    drawn = replace(drawn, matches=tuple(matches), byes=tuple(b for b in drawn.byes if b.team != hero))
    result = compute(drawn, [parse_team_rule("BC", None)])
    bc = result.outcomes[0]
    n = drawn.team_size
    assert Fraction(bc.values[result.table.ids.index(hero)], bc.scale) == n * (n + 1) // 2 * played


@FAST
@given(drawn=team_events(), regulations=BOTH_EDITIONS)
def test_the_breakdown_adds_up_to_the_value(drawn, regulations):
    result = compute(drawn, regulations=regulations, explain=True)
    assert_kept_contributions_add_up(result, SUMMED)


@FAST
@given(drawn=team_events(), regulations=BOTH_EDITIONS)
def test_explaining_changes_no_value_and_cuts_never_raise_one(drawn, regulations):
    quiet, loud = compute(drawn, regulations=regulations, explain=False), compute(drawn, regulations=regulations)
    assert all_values(loud) == all_values(quiet)
    assert ranks(loud) == ranks(quiet)
    by_spec = {o.spec.canonical: o for o in quiet.outcomes}
    for plain, cut in (("EGGSB", "EGGSB/C1"), ("EMGSB", "EMGSB/C2"), ("BH:GP", "BH:GP/C1")):
        if plain in by_spec and cut in by_spec:
            for a, b in zip(by_spec[plain].values, by_spec[cut].values, strict=True):
                assert b <= a


@FAST
@given(drawn=team_events(), data=st.data(), regulations=BOTH_EDITIONS)
def test_every_rule_that_is_not_a_group_rule_stands_alone(drawn, data, regulations):
    # C.07 4.2; the primary score is the event's (a leading PTS:GP would choose it otherwise)
    drawn = replace(drawn, primary=data.draw(st.sampled_from(list(Score))))
    rules = data.draw(st.permutations(RULES))
    after_round = data.draw(st.none() | st.integers(1, drawn.rounds))
    together = compute(drawn, rules, regulations, after_round=after_round, explain=False)
    for spec in RULES:
        if spec.code in GROUP_RULES or spec.code == "PTS" and spec.score is None:
            continue
        alone = compute(drawn, [spec], regulations, after_round=after_round, explain=False)
        index = together.specs.index(spec)
        assert together.outcomes[index].values == alone.outcomes[0].values, spec.canonical


@FAST
@given(drawn=team_events())
def test_group_rules_give_a_place_inside_the_group_or_0(drawn):
    result = compute(drawn, [parse_team_rule(t, None) for t in ("EDE", "TBR", "BBE")], explain=False)
    table = result.table
    for outcome in result.outcomes:
        for p in range(table.size):
            group = sum(1 for q in range(table.size) if table.scores[q] == table.scores[p])
            assert 0 <= outcome.values[p] <= group
            if group == 1:
                assert outcome.values[p] == 0


@FAST
@given(drawn=team_events())
def test_match_points_follow_the_game_points_of_every_match(drawn):
    # C.07 11: more game points wins the match; the points handed out add up per round
    result = compute(drawn, [parse_team_rule("PTS", None)])
    mp, gp = result.tables.mp, result.tables.gp
    for m in drawn.matches:
        if m.forfeit is not None:
            continue
        h, a, r = mp.ids.index(m.home), mp.ids.index(m.away), m.round - 1
        if gp.pts[h, r] > gp.pts[a, r]:
            assert (mp.pts[h, r], mp.pts[a, r]) == (mp.win, 0)
        elif gp.pts[h, r] == gp.pts[a, r] and any(b.result is None or b.result.played for b in m.boards):
            assert mp.pts[h, r] == mp.pts[a, r] == mp.draw


def test_a_match_won_only_by_forfeited_boards_is_not_played():
    # SPEC 2.5: a match is played when at least one of its games was played over the board
    forfeited = compute(
        event(2, 4, 1, [match(1, 1, 2, "+ + + +")]), [parse_team_rule("WON", None), parse_team_rule("WIN", None)]
    )
    assert forfeited.outcomes[0].values == [0, 0] and forfeited.outcomes[1].values == [1, 0]
    played = compute(
        event(2, 4, 1, [match(1, 1, 2, "+ + + 0")]), [parse_team_rule("WON", None), parse_team_rule("WIN", None)]
    )
    assert played.outcomes[0].values == [1, 0] and played.outcomes[1].values == [1, 0]
