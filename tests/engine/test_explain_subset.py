"""Breakdowns for chosen players only: the same contributions, built for fewer players."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tiebreak.engine import Regulations, compute_standings
from tiebreak.engine.registry import valid_codes
from tiebreak.engine.rules import parse_rule
from tests.strategies import swiss_tournaments
from tests.profiles import examples

FIDE = ["BH/C1", "BH", "BH/M1", "SB/C1", "FB", "AOB", "DE", "PS/C1", "KS", "WIN", "ARO/C1", "TPR", "APRO"]
USCF = ["MM", "SOLK", "CUM", "OCUM", "KASH", "SBUS", "BLK", "RBT", "AROUS", "OPERF"]


def breakdowns(result, ids):
    index = {pid: p for p, pid in enumerate(result.table.ids)}
    return {
        pid: [(o.contributions.get(index[pid]), (o.notes or {}).get(index[pid])) for o in result.outcomes]
        for pid in ids
    }


@settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))
@given(drawn=swiss_tournaments(), data=st.data(), uscf=st.booleans())
def test_chosen_players_get_the_full_breakdown_and_the_others_none(drawn, data, uscf):
    t = drawn.tournament
    regulations = Regulations.USCF if uscf else Regulations.FIDE_2026
    specs = [parse_rule(r, valid_codes(regulations)) for r in (USCF if uscf else FIDE)]
    ids = [p.id for p in t.players]
    chosen = data.draw(st.sets(st.sampled_from(ids), max_size=3))
    full = compute_standings(t, specs, regulations, unrated_rating=1500, explain=True)
    some = compute_standings(t, specs, regulations, unrated_rating=1500, explain=chosen)
    # Values and ranks do not depend on whose breakdown is built.
    assert [o.values for o in some.outcomes] == [o.values for o in full.outcomes]
    assert [(r.player, r.rank) for r in some.rows] == [(r.player, r.rank) for r in full.rows]
    assert breakdowns(some, chosen) == breakdowns(full, chosen)
    others = set(ids) - chosen
    for per_rule in breakdowns(some, others).values():
        assert all(rows is None and note is None for rows, note in per_rule)


def test_a_few_rows_of_a_large_event_are_cut_as_in_the_whole_breakdown():
    """Up to FEW_ROWS rows of a large event are marked on their own (buchholz.FEW_ROWS): the
    same cuts as when every player's marks are made, for players with and without voluntary
    unplayed rounds (16.5 compares those round by round)."""
    from tiebreak.engine.families.buchholz import FEW_ROWS
    from testkit.synthetic import swiss_tournament

    t = swiss_tournament(400, 9, seed=3)
    assert len(t.players) > 4 * FEW_ROWS
    specs = [parse_rule(r, valid_codes(Regulations.FIDE_2026)) for r in ["BH/C1", "BH/C2", "BH/M1", "SB/C1", "FB/C1"]]
    with_vur = [p.id for p in t.players if any(r.result.is_voluntary_unplayed for r in p.results)]
    without = [p.id for p in t.players if p.id not in with_vur]
    assert len(with_vur) >= 5
    chosen = with_vur[:5] + without[:5]
    full = compute_standings(t, specs, Regulations.FIDE_2026, explain=True)
    some = compute_standings(t, specs, Regulations.FIDE_2026, explain=chosen)
    assert breakdowns(some, chosen) == breakdowns(full, chosen)
    cut = [c for per_rule in breakdowns(some, chosen).values() for rows, _ in per_rule for c in rows or [] if c.cut]
    assert cut and any(c.unplayed for c in cut)  # the cuts were there to compare, unplayed rounds among them


@settings(max_examples=examples(30), deadline=None, suppress_health_check=list(HealthCheck))
@given(drawn=swiss_tournaments(), data=st.data())
def test_one_standings_explained_for_one_set_of_rows_after_another(drawn, data):
    """The rules that explain the same rows share what they make (Buchholz's and
    Sonneborn-Berger's cells and details, issue 40): rows asked one set after another, as an
    answer's chunks are, get what each set alone gets."""
    t = drawn.tournament
    specs = [parse_rule(r, valid_codes(Regulations.FIDE_2026)) for r in ("BH/C1", "SB", "BH", "FB", "SB/C1")]
    full = compute_standings(t, specs, Regulations.FIDE_2026, explain=True)
    lazy = compute_standings(t, specs, Regulations.FIDE_2026, explain=False)
    players = list(range(len(t.players)))
    for _ in range(3):
        rows = data.draw(st.lists(st.sampled_from(players), min_size=1, max_size=4, unique=True))
        for outcome, built in zip(full.outcomes, lazy.explain(rows), strict=True):
            assert built.contributions == [outcome.kept[p][0] for p in rows]
            assert built.notes == [outcome.kept[p][1] for p in rows]
