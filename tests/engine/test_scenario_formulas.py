"""engine/scenario_formulas.py: Buchholz, its Cut-1 and Sonneborn-Berger as sums over rounds give
the solver the same best and worst ranks as enumeration (every outcome ranked by the engine) on
small random events, byes, forfeits and unplayed rounds included (tests/strategies via
test_scenario_parts' requests), under each edition's rules for the dummies (C.07 16.4)."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import tiebreak.engine.scenario_formulas as formulas
import tiebreak.usecases.scenarios as use
from tiebreak.engine.rules import RuleSpec
from tiebreak.engine.scenario_formulas import formula_keys, modelled
from tests.engine.test_scenario_parts import _request
from tests.engine.test_scenario_solver import _agree
from tests.profiles import examples

LISTS = [["BH/C1", "BH", "SB"], ["BH"], ["BH/C1"], ["SB"], ["SB", "BH/C1"], ["BH/C1/P", "SB/P"]]


@settings(max_examples=examples(40, "SCENARIO_FORMULAS_EXAMPLES"), deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    rules=st.sampled_from(LISTS),
    regulations=st.sampled_from(["fide-2024", "fide-2026", "fide-2009"]),
    model_only=st.booleans(),
)
def test_sums_over_rounds_agree_with_enumeration(seed, rules, regulations, model_only):
    """With the table model's bound at 0 every question goes through the sums; the ranks, places
    and certainties are enumeration's."""
    body = msgspec.structs.replace(_request(seed), tiebreaks=list(rules), regulations=regulations)
    taken = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(use, "formula_keys", lambda *a: taken.append(formula_keys(*a)) or taken[-1])
        _agree(body, model_only=model_only, most_read=0)
    assert all(keys is not None for keys in taken)
    event(f"sums taken: {bool(taken)}")


def test_the_sums_are_used_past_the_bound(monkeypatch):
    """The plan takes the sums (no covering outcomes) when the table model would refuse."""
    body = msgspec.structs.replace(_request(3), tiebreaks=["BH/C1", "BH", "SB"], regulations="fide-2024")
    monkeypatch.setattr(use, "_enumeration_fits", lambda counts, limits: False)
    monkeypatch.setattr(use, "MOST_READ", 0)
    plan = use.plan_scenarios(body)
    assert plan.parts is not None and not plan.parts.covered and len(plan.parts.chosen) == 0


def test_only_the_rules_written_as_sums_are_modelled():
    assert modelled([RuleSpec("BH", cut=1), RuleSpec("BH"), RuleSpec("SB"), RuleSpec("SB", forfeits_played=True)])
    for other in (RuleSpec("BH", cut=2), RuleSpec("BH", median=1), RuleSpec("SB", cut=1), RuleSpec("ARO")):
        assert not modelled([RuleSpec("BH"), other])


def test_a_case_the_sums_do_not_model_is_refused_naming_the_rules(monkeypatch):
    """A round reading more open games than the sums take: the 422 of the table model, never a
    guess."""
    body = msgspec.structs.replace(_request(3), tiebreaks=["BH/C1", "SB"], regulations="fide-2024")
    monkeypatch.setattr(use, "_enumeration_fits", lambda counts, limits: False)
    monkeypatch.setattr(use, "MOST_READ", 0)
    monkeypatch.setattr(formulas, "MOST_PER_ROUND", 0)
    plan = use.plan_scenarios(body)
    with pytest.raises(use.InvalidRequest) as caught:
        use.compute_scenarios(plan)
    issue = caught.value.issues[0]
    assert issue.path == ("tiebreaks", 0) and "BH, SB" in issue.message
