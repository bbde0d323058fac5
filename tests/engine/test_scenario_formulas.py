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
from tiebreak.engine.scenario_formulas import formula_keys, modelled, unmodelled
from tests.engine.test_scenario_parts import _request
from tests.engine.test_scenario_solver import _agree
from tests.profiles import examples

LISTS = [["BH/C1", "BH", "SB"], ["BH"], ["BH/C1"], ["SB"], ["SB", "BH/C1"], ["BH/C1/P", "SB/P"]]
# decision 0270: cuts and medians, Fore Buchholz, the means over the opponents, the own-row rules
FAMILIES = {
    "cuts": [["BH/C2", "BH/M1"], ["BH/C1", "BH/C2", "SB"], ["BH/M2", "BH/C3/P"]],
    "sb-cuts": [["SB/C1"], ["SB/C1", "BH/M1"], ["SB/M1"], ["SB/C2/P"]],
    "unplayed": [["BH/M1"], ["BH/M2", "BH/C1"], ["FB/M1"]],
    "fore": [["FB", "BH"], ["FB/C1", "FB/M1"]],
    "aob": [["AOB"], ["PTS", "WIN", "BH", "AOB"]],
    "ratings": [["ARO", "TPR", "PTP"], ["ARO/C1", "ARO/M1"]],
    "performances": [["APRO", "APPO"]],
    "koya": [["KS"], ["KS/L40", "BH"], ["SB", "KS/L+1"]],
    "uscf": [["SOLK", "MED"], ["MM", "SBUS"], ["OCUM", "CUM", "MM"], ["AROUS", "OPERF"]],  # regulations uscf
    "own-row": [["PS", "WIN", "WON", "BPG", "BWG", "GE"], ["BH/C1", "PS", "STD", "TPN"]],
}


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
        patch.setattr(use, "formula_keys", lambda *a, **k: taken.append(formula_keys(*a, **k)) or taken[-1])
        _agree(body, model_only=model_only, most_read=0)
    assert all(keys is not None for keys in taken)
    event(f"sums taken: {bool(taken)}")


@pytest.mark.parametrize("family", sorted(FAMILIES))
@settings(max_examples=examples(15, "SCENARIO_FORMULAS_EXAMPLES"), deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    pick=st.integers(0, 9),
    regulations=st.sampled_from(["fide-2024", "fide-2026", "fide-2009"]),
    model_only=st.booleans(),
)
def test_each_rule_family_agrees_with_enumeration(family, seed, pick, regulations, model_only):
    """Every question through the sums (the table model's bound at 0): ranks, places and
    certainties are enumeration's, for each family the sums model (decision 0270). A case the
    family leaves unmodelled (a median with several unplayed rounds, say) may be refused (a 422),
    never answered otherwise."""
    lists = FAMILIES[family]
    regulations = "uscf" if family == "uscf" else regulations
    body = msgspec.structs.replace(_request(seed), tiebreaks=list(lists[pick % len(lists)]), regulations=regulations)
    taken = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(use, "formula_keys", lambda *a, **k: taken.append(formula_keys(*a, **k)) or taken[-1])
        try:
            _agree(body, model_only=model_only, most_read=0)
        except use.InvalidRequest:
            assert taken and taken[-1] is None  # refused only where the sums said so
    event(f"modelled: {all(keys is not None for keys in taken)}")


@settings(max_examples=examples(10, "SCENARIO_FORMULAS_EXAMPLES"), deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_manual_values_reach_the_sums(seed):
    """MAN beside Buchholz past the bound: the arbiter's values reach the engine's context the sums
    read (as rank_stacked gives them), so the ranks are enumeration's."""
    body = _request(seed)
    manual = {str(p.id): (p.id * 7) % 5 for p in body.tournament.players}
    body = msgspec.structs.replace(body, tiebreaks=["BH/C1", "MAN"], manual_values=manual, regulations="fide-2024")
    taken = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(use, "formula_keys", lambda *a, **k: taken.append(formula_keys(*a, **k)) or taken[-1])
        _agree(body, model_only=False, most_read=0)
    assert taken and all(keys is not None for keys in taken)


def test_the_sums_are_used_past_the_bound(monkeypatch):
    """The plan takes the sums (no covering outcomes) when the table model would refuse."""
    body = msgspec.structs.replace(_request(3), tiebreaks=["BH/C1", "BH", "SB"], regulations="fide-2024")
    monkeypatch.setattr(use, "_enumeration_fits", lambda counts, limits: False)
    monkeypatch.setattr(use, "MOST_READ", 0)
    plan = use.plan_scenarios(body)
    assert plan.parts is not None and not plan.parts.covered and len(plan.parts.chosen) == 0


def test_only_the_rules_written_as_sums_are_modelled():
    assert modelled([RuleSpec("BH", cut=1), RuleSpec("BH"), RuleSpec("SB"), RuleSpec("SB", forfeits_played=True)])
    for more in (RuleSpec("BH", cut=2), RuleSpec("BH", median=1), RuleSpec("SB", cut=1), RuleSpec("FB", cut=1)):
        assert modelled([RuleSpec("BH"), more])
    for more in (RuleSpec("ARO"), RuleSpec("TPR"), RuleSpec("AOB"), RuleSpec("APRO"), RuleSpec("WIN"), RuleSpec("PS")):
        assert modelled([RuleSpec("BH"), more])
    assert modelled([RuleSpec("KS"), RuleSpec("KS", limit=40)])
    assert modelled([RuleSpec("SOLK"), RuleSpec("MED"), RuleSpec("MM"), RuleSpec("SBUS"), RuleSpec("OCUM")])
    assert modelled([RuleSpec("AROUS"), RuleSpec("OPERF")])
    # direct encounter and result between tied players read whoever is tied; a modifier the sums
    # do not take
    for other in (RuleSpec("DE"), RuleSpec("RBT"), RuleSpec("AOB", cut=1)):
        assert not modelled([RuleSpec("BH"), other])
    assert unmodelled([RuleSpec("BH"), RuleSpec("DE"), RuleSpec("WIN"), RuleSpec("RBT")]) == [1, 3]


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
    assert issue.path == ("tiebreaks", 0) and issue.message.startswith("BH/C1, SB: not written as constraints")
