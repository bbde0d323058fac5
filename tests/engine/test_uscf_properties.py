"""Invariants of the US Chess rules for any consistent Swiss crosstable."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from tiebreak.engine import Regulations
from tiebreak.engine.registry import parse_spec
from tests.builders import all_values, assert_kept_contributions_add_up, ranks
from tests.engine.test_properties import FAST, compute
from tests.strategies import renumbered, renumberings, swiss_tournaments

USCF = Regulations.USCF
USCF_RULES = [
    parse_spec(t, USCF) for t in ("MM", "MED", "SOLK", "CUM", "OCUM", "KASH", "SBUS", "BLK", "RBT", "AROUS", "OPERF")
]
SUMMED = {"MM", "MED", "SOLK", "CUM", "OCUM", "KASH", "SBUS"}


def rule(result, code):
    outcome = next(o for o in result.outcomes if o.spec.code == code)
    return [None if v is None else Fraction(v, outcome.scale) for v in outcome.values]


@FAST
@given(drawn=swiss_tournaments(), data=st.data())
def test_renumbering_changes_no_uscf_value_and_no_rank(drawn, data):
    t = drawn.tournament
    mapping, order = data.draw(renumberings(t))
    before = compute(t, USCF_RULES, USCF, unrated_rating=1500, explain=False)
    after = compute(renumbered(t, mapping, order), USCF_RULES, USCF, unrated_rating=1500, explain=False)
    values_before, values_after = all_values(before), all_values(after)
    ranks_before, ranks_after = ranks(before), ranks(after)
    for old, new in mapping.items():
        assert values_after[new] == values_before[old]
        assert ranks_after[new] == ranks_before[old]


@FAST
@given(drawn=swiss_tournaments())
def test_median_le_modified_median_le_solkoff(drawn):
    # 34E1: the Median drops at both ends, the Modified Median at one or both, Solkoff at none.
    result = compute(drawn.tournament, USCF_RULES, USCF, unrated_rating=1500, explain=False)
    for med, mm, solk in zip(rule(result, "MED"), rule(result, "MM"), rule(result, "SOLK"), strict=True):
        assert med <= mm <= solk


@FAST
@given(drawn=swiss_tournaments())
def test_explaining_changes_no_uscf_value_and_the_breakdown_adds_up(drawn):
    quiet = compute(drawn.tournament, USCF_RULES, USCF, unrated_rating=1500, explain=False)
    loud = compute(drawn.tournament, USCF_RULES, USCF, unrated_rating=1500, explain=True)
    assert all_values(loud) == all_values(quiet)
    assert ranks(loud) == ranks(quiet)
    assert_kept_contributions_add_up(loud, SUMMED)
