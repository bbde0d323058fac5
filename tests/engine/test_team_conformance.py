"""The FIDE team corpus (tests/fixtures/conformance_fide_team/): every value of every case, to
the last decimal, read from its TRF-26 file and from its JSON request body."""

from __future__ import annotations

import pytest

from tiebreak.engine import Regulations
from tiebreak.engine.teams.registry import parse_team_rule
from tiebreak.engine.teams.standings import compute_team_standings
from testkit.conformance_teams import event_from_json, event_from_trf, load_team_cases, team_mismatches

CASES = load_team_cases()


def test_the_corpus_is_all_there():
    assert len(CASES) == 15
    assert sum(len(c.data["expected"]) * len(c.data["tiebreaks"]) for c in CASES) == 1864


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_from_the_trf(case):
    assert team_mismatches(case, event_from_trf(case), explain=True) == []


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_from_the_json_body(case):
    assert team_mismatches(case, event_from_json(case)) == []


def _final(case_id: str):
    case = next(c for c in CASES if c.id == case_id)
    return case, event_from_trf(case)


def test_the_knockout_final_where_board_count_ties_and_the_elimination_rules_crown_different_teams():
    # Staffordshire guide: Gifford's Cross (1) - Knotbury (2), 3-3 on six boards. Board count is
    # 10.5 each; the top-board result crowns Gifford's Cross, bottom-board elimination Knotbury.
    _, final = _final("tworked-0001")
    rules = [parse_team_rule(t, None) for t in ("PTS", "MPvGP", "BC")]
    by_tbr = compute_team_standings(final, rules + [parse_team_rule("TBR", None)], Regulations.FIDE_2026)
    by_bbe = compute_team_standings(final, rules + [parse_team_rule("BBE", None)], Regulations.FIDE_2026)
    bc = by_tbr.outcomes[2]
    assert bc.values == [21, 21] and bc.scale == 2  # 10.5 each
    assert [by_tbr.table.ids[r.player] for r in by_tbr.rows] == [1, 2]
    assert [by_bbe.table.ids[r.player] for r in by_bbe.rows] == [2, 1]
    assert by_tbr.rows[0].decided_by == "TBR" and by_bbe.rows[0].decided_by == "BBE"
    assert "board 1" in by_tbr.explain([0])[3].notes[0]
    assert "all boards but the last 2" in by_bbe.explain([1])[3].notes[0]
