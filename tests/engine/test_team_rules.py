"""Team rules on small events written inline (tests/team_builders.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tiebreak.engine import Regulations
from tiebreak.engine.errors import InvalidRequest
from tiebreak.engine.model import System
from tiebreak.engine.teams.model import TeamScoring
from tiebreak.engine.teams.registry import parse_team_rule
from tiebreak.engine.teams.standings import compute_team_standings
from tests.team_builders import bye, event, match


def run(ev, *rules, regulations=Regulations.FIDE_2026, **kw):
    result = compute_team_standings(ev, [parse_team_rule(r, regulations) for r in rules], regulations, **kw)
    index = {tid: p for p, tid in enumerate(result.table.ids)}
    return result, {
        spec: {tid: None if o.values[p] is None else Fraction(o.values[p], o.scale) for tid, p in index.items()}
        for spec, o in zip(rules, result.outcomes, strict=True)
    }


# Four teams of two boards, two rounds: 1 beats 2 and 3, 4 draws twice.
SMALL = event(4, 2, 2, [match(1, 1, 2, "1 ="), match(1, 3, 4, "= ="), match(2, 1, 3, "1 1"), match(2, 4, 2, "= =")])


def test_scores_and_the_secondary_score():
    _, v = run(SMALL, "PTS", "PTS:GP", "MPvGP")
    assert v["PTS"] == {1: 4, 2: 1, 3: 1, 4: 2}
    assert v["PTS:GP"] == {1: Fraction(7, 2), 2: Fraction(3, 2), 3: 1, 4: 2}
    assert v["MPvGP"] == v["PTS:GP"]


def test_the_extended_sonneborn_berger_multiplies_the_opponents_score_by_the_match():
    _, v = run(SMALL, "EMGSB", "EGMSB", "EMMSB", "EGGSB")
    # team 1: against 2 (1 MP, 1.5 GP) scored 1.5 GP / 2 MP, against 3 (1 MP, 1 GP) scored 2 GP / 2 MP
    assert v["EMGSB"][1] == 1 * Fraction(3, 2) + 1 * 2
    assert v["EGMSB"][1] == Fraction(3, 2) * 2 + 1 * 2
    assert v["EMMSB"][1] == 1 * 2 + 1 * 2
    assert v["EGGSB"][1] == Fraction(3, 2) * Fraction(3, 2) + 1 * 2


def test_sssc_with_its_factor_and_fore_buchholz():
    _, v = run(SMALL, "SSSC", "SSSC/K2", "BH:MP")
    # factor: floor(2 MP x 2 rounds / 2 boards) = 2
    assert v["SSSC"][1] == Fraction(7, 2) + v["BH:MP"][1] / 2 == v["SSSC/K2"][1]
    _, k1 = run(SMALL, "SSSC/K1")
    assert k1["SSSC/K1"][1] == Fraction(7, 2) + v["BH:MP"][1]
    assert parse_team_rule("sssc/k3/p/f", None).canonical == "SSSC/K3/P/F"


def test_a_half_point_bye_is_capped_at_the_draw_on_every_board_in_game_points():
    # team 1 scores 2 GP in round 1, takes a half-point bye (1 GP on two boards) in round 2:
    # the dummy is min(own 3 GP, ½ × 2 boards × 2 rounds = 2 GP) under fide-2026 (16.4.2)
    ev = event(2, 2, 2, [match(1, 1, 2, "1 1")], [bye(2, 1, "half_bye"), bye(2, 2, "zero_bye")])
    result, v = run(ev, "BH:GP", "BH:MP", explain=True)
    dummy = result.outcomes[0].contributions[0][1]
    assert (dummy.kind, dummy.own_score, dummy.capped_at, dummy.article) == ("dummy", 3, 2, "16.4.2")
    # team 2 scored 0 GP; its closing zero-point bye counts as a draw for its opponents (16.3): 1 GP
    assert v["BH:GP"][1] == 1 + 2
    _, old = run(ev, "BH:GP", regulations=Regulations.FIDE_2024)
    assert old["BH:GP"][1] == 1 + 3  # uncapped: own 3 GP


def test_win_counts_a_pairing_bye_only_when_it_is_worth_a_win():
    ev = event(3, 2, 1, [match(1, 1, 2, "1 1")], [bye(1, 3, "pairing_bye")])
    _, v = run(ev, "WIN", "WON", "STD")
    assert v["WIN"] == {1: 1, 2: 0, 3: 0} and v["WON"] == {1: 1, 2: 0, 3: 0}
    assert v["STD"][3] == Fraction(1, 2)  # 1 MP: a draw's match points
    rich = event(
        3,
        2,
        1,
        [match(1, 1, 2, "1 1")],
        [bye(1, 3, "pairing_bye")],
        scoring=TeamScoring(pab_match=Fraction(2), pab_game=Fraction(2)),
    )
    _, v = run(rich, "WIN", "WON")
    assert v["WIN"][3] == 1 and v["WON"][3] == 0


def test_ede_goes_on_to_game_points_when_the_match_points_between_them_are_equal():
    # a three-team round robin: each team won one match and lost one (2 MP each, 2 each between
    # them), by 1.5-0.5, 1.5-0.5 and 2-0: game points between them 1.5, 2, 2.5
    ev = event(
        3, 2, 3, [match(1, 1, 2, "1 ="), match(2, 2, 3, "1 ="), match(3, 3, 1, "1 1")], system=System.ROUND_ROBIN
    )
    result, v = run(ev, "PTS", "DE", explain=True)
    assert v["PTS"] == {1: 2, 2: 2, 3: 2}
    assert v["DE"] == {1: 0, 2: 0, 3: 0}
    result, v = run(ev, "PTS", "EDE", explain=True)
    assert v["EDE"] == {3: 1, 2: 2, 1: 3}
    assert "secondary score: 2.5" in result.outcomes[1].notes[result.table.ids.index(3)]


def test_ede_board_count_step_for_exactly_two_teams():
    # 1 and 2 draw 2-2: equal on MP and GP; 1 scored on boards 1 and 2, 2 on boards 3 and 4.
    ev = event(2, 4, 1, [match(1, 1, 2, "1 1 0 0")])
    assert run(ev, "PTS", "EDE")[1]["EDE"] == {1: 0, 2: 0}
    # board count 1 + 2 = 3 against 3 + 4 = 7: lower is better (12.1); board 1; without board 4: 2 against 1
    for chain in ("EDEC", "EDET", "EDEB", "EDEBT", "EDEBB"):
        assert run(ev, "PTS", chain)[1][chain] == {1: 1, 2: 2}, chain
    # won the other way round, bottom-board elimination still looks at the top boards first
    ev = event(2, 4, 1, [match(1, 1, 2, "0 0 1 1")])
    assert run(ev, "PTS", "EDEB")[1]["EDEB"] == {1: 2, 2: 1}


def test_board_rules_count_forfeits_and_byes_as_12_says():
    ev = event(
        3,
        2,
        2,
        [match(1, 1, 2, forfeit="+-"), match(2, 2, 3, "+ -")],
        [bye(1, 3, "pairing_bye"), bye(2, 1, "half_bye")],
    )
    result, v = run(ev, "BC", explain=True)
    # team 1: forfeit won (1 per board) + half bye (½ per board): boards 1.5 and 1.5 -> 1.5 + 3
    assert v["BC"][1] == Fraction(9, 2)
    # team 3: the PAB counts a win on every board (1 + 2), then board 2 won by forfeit (2)
    assert v["BC"][3] == 3 + 2
    notes = [c.note for c in result.outcomes[0].contributions[0]]
    assert "forfeited match" in notes[0] and "bye" in notes[0]


def test_the_reference_score_is_refused_where_a_rule_takes_none():
    with pytest.raises(InvalidRequest):
        parse_team_rule("EMGSB:MP", None)
    with pytest.raises(InvalidRequest):
        parse_team_rule("MPvGP:GP", None)
    assert parse_team_rule("mpvgp", None).canonical == "MPvGP"
    assert parse_team_rule("Board Count", None).canonical == "BC"
    assert parse_team_rule("game points", None).canonical == "PTS:GP"


def test_teams_that_met_twice_count_the_average_of_their_matches():
    # C.07 6.1.2 for teams. Six teams of two boards, four rounds; 1, 2 and 3 end on 3 MP, the
    # others on 6, 5 and 4. Between 1, 2 and 3: 1 and 2 met twice (1 won, then 2 won), 3 beat 1,
    # 2 and 3 drew. Averaged: 1 has 1 (vs 2: (2+0)/2) + 0 = 1, 2 has 1 + 1 = 2, 3 has 2 + 1 = 3,
    # so 3, 2, 1. Summed, 2 and 3 would share the top with 3 each (and stay tied between them).
    ev = event(
        6,
        2,
        4,
        [
            match(1, 1, 2, "1 1"),
            match(1, 3, 4, "0 0"),
            match(1, 5, 6, "= ="),
            match(2, 1, 3, "0 0"),
            match(2, 2, 4, "0 0"),
            match(2, 5, 6, "= ="),
            match(3, 2, 3, "= ="),
            match(3, 1, 5, "= ="),
            match(3, 4, 6, "= ="),
            match(4, 1, 2, "0 0"),
            match(4, 3, 5, "0 0"),
            match(4, 4, 6, "= ="),
        ],
    )
    _, v = run(ev, "PTS", "DE")
    assert v["PTS"] == {1: 3, 2: 3, 3: 3, 4: 6, 5: 5, 6: 4}
    assert {t: v["DE"][t] for t in (1, 2, 3)} == {3: 1, 2: 2, 1: 3}
    # EDE: the match points between them first (13.3), averaged the same way
    result, v = run(ev, "PTS", "EDE", explain=True)
    assert {t: v["EDE"][t] for t in (1, 2, 3)} == {3: 1, 2: 2, 1: 3}
    note = result.outcomes[1].notes[result.table.ids.index(1)]
    assert note.startswith("place 3: primary score: 1 in the matches between 1, 2, 3"), note
