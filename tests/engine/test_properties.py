"""Invariants that hold for any consistent Swiss crosstable (SPEC 4, "Correct")."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tiebreak.engine import Regulations, compute_standings
from tiebreak.engine.registry import valid_codes
from tiebreak.engine.rules import parse_rule
from tests.builders import all_values, assert_kept_contributions_add_up, ranks
from tests.strategies import renumbered, renumberings, swiss_tournaments
from tests.profiles import examples

# 100 examples under the ci profile (tests/profiles.py); TIEBREAK_PROPERTY_EXAMPLES=5000 for a deeper hunt.
FAST = settings(max_examples=examples(100, "TIEBREAK_PROPERTY_EXAMPLES"), deadline=None)
CODES = valid_codes()

# Every code, and the usual modifiers; DE both early (inside the point groups) and late.
ALL_RULES = [
    parse_rule(t, CODES)
    for t in (
        "PTS",
        "DE",
        "WIN",
        "WON",
        "BPG",
        "BWG",
        "GE",
        "PS",
        "PS/C1",
        "KS",
        "KS/L40",
        "BH",
        "BH/C1",
        "BH/C2",
        "BH/M1",
        "BH/M2",
        "BH/P",
        "FB",
        "FB/C1",
        "AOB",
        "SB",
        "SB/C1",
        "SB/P",
        "ARO",
        "ARO/C1",
        "TPR",
        "PTP",
        "APRO",
        "APPO",
        "DE/P",
        "STD",
        "RTNG",
        "TPN",
    )
]
# Every rule but the pairing number, whose value is the start number itself.
BY_RESULTS = [s for s in ALL_RULES if s.code != "TPN"]
# Rules whose value is the sum of the contributions left after the cuts.
SUMMED = {"PTS", "WIN", "WON", "BPG", "BWG", "GE", "PS", "KS", "BH", "FB", "SB", "STD"}

BOTH_EDITIONS = st.sampled_from([Regulations.FIDE_2026, Regulations.FIDE_2024])
UNRATED_RATING = st.none() | st.integers(1000, 2000)


def compute(tournament, rules, regulations, **kw):
    return compute_standings(tournament, list(rules), regulations=regulations, **kw)


def rule_values(result, text: str) -> list[Fraction | None]:
    spec = parse_rule(text, CODES)
    outcome = next(o for o in result.outcomes if o.spec == spec)
    return [None if v is None else Fraction(v, outcome.scale) for v in outcome.values]


@FAST
@given(drawn=swiss_tournaments(), data=st.data(), regulations=BOTH_EDITIONS, unrated_rating=UNRATED_RATING)
def test_renumbering_the_players_changes_no_value_and_no_rank(drawn, data, regulations, unrated_rating):
    t = drawn.tournament
    mapping, order = data.draw(renumberings(t))
    before = compute(t, BY_RESULTS, regulations, unrated_rating=unrated_rating, explain=False)
    after = compute(
        renumbered(t, mapping, order), BY_RESULTS, regulations, unrated_rating=unrated_rating, explain=False
    )
    values_before, values_after = all_values(before), all_values(after)
    ranks_before, ranks_after = ranks(before), ranks(after)
    for old, new in mapping.items():
        assert values_after[new] == values_before[old], (old, new)
        assert ranks_after[new] == ranks_before[old], (old, new)


@FAST
@given(drawn=swiss_tournaments(), regulations=BOTH_EDITIONS)
def test_cuts_never_raise_a_value(drawn, regulations):
    # C.07 14: a cut removes non-negative contributions, so Median-1 <= Cut-1 <= the plain sum.
    result = compute(drawn.tournament, ALL_RULES, regulations, explain=False)
    bh, c1, c2 = rule_values(result, "BH"), rule_values(result, "BH/C1"), rule_values(result, "BH/C2")
    m1, m2 = rule_values(result, "BH/M1"), rule_values(result, "BH/M2")
    sb, sb_c1 = rule_values(result, "SB"), rule_values(result, "SB/C1")
    fb, fb_c1 = rule_values(result, "FB"), rule_values(result, "FB/C1")
    ps, ps_c1 = rule_values(result, "PS"), rule_values(result, "PS/C1")
    for p in range(result.table.size):
        assert c1[p] <= bh[p]
        assert m1[p] <= c1[p]
        assert c2[p] <= c1[p]
        assert m2[p] <= m1[p]
        assert sb_c1[p] <= sb[p]
        assert fb_c1[p] <= fb[p]
        assert ps_c1[p] <= ps[p]


@FAST
@given(drawn=swiss_tournaments())
def test_the_points_of_all_players_are_the_points_handed_out(drawn):
    # Per round: 1 per game decided or drawn, forfeit points, bye points as scored.
    result = compute(drawn.tournament, [parse_rule("PTS", CODES)], Regulations.FIDE_2026)
    assert sum(rule_values(result, "PTS")) == drawn.distributed
    assert Fraction(sum(result.table.scores), result.table.scale) == drawn.distributed


@FAST
@given(drawn=swiss_tournaments())
def test_the_2026_cap_only_lowers_opponent_score_values(drawn):
    # C.07 16.4 (2026) caps the dummy opponent at min(own score, cap); before 2026 it was the own score.
    rules = [parse_rule(t, CODES) for t in ("BH", "SB", "FB")]
    capped = compute(drawn.tournament, rules, Regulations.FIDE_2026, explain=False)
    uncapped = compute(drawn.tournament, rules, Regulations.FIDE_2024, explain=False)
    for text in ("BH", "SB", "FB"):
        for new, old in zip(rule_values(capped, text), rule_values(uncapped, text), strict=True):
            assert new <= old, text


@FAST
@given(drawn=swiss_tournaments(), regulations=BOTH_EDITIONS, unrated_rating=UNRATED_RATING)
def test_explaining_changes_no_value(drawn, regulations, unrated_rating):
    quiet = compute(drawn.tournament, ALL_RULES, regulations, unrated_rating=unrated_rating, explain=False)
    loud = compute(drawn.tournament, ALL_RULES, regulations, unrated_rating=unrated_rating, explain=True)
    assert all_values(loud) == all_values(quiet)
    assert ranks(loud) == ranks(quiet)
    assert [row.decided_by for row in loud.rows] == [row.decided_by for row in quiet.rows]


@FAST
@given(drawn=swiss_tournaments(), regulations=BOTH_EDITIONS)
def test_the_breakdown_adds_up_to_the_value(drawn, regulations):
    # SPEC 1: an arbiter audits every number from its contributions.
    result = compute(drawn.tournament, ALL_RULES, regulations, explain=True)
    assert_kept_contributions_add_up(result, SUMMED)
    for outcome in result.outcomes:
        if outcome.spec.code not in SUMMED:
            continue
        for rows in outcome.contributions.values():
            cut = sum(1 for c in rows if c.cut)
            asked = (outcome.spec.cut or outcome.spec.median) + outcome.spec.median
            assert cut == min(len(rows), asked)


@FAST
@given(drawn=swiss_tournaments())
def test_ranks_follow_the_values(drawn):
    # Ranks are 1, 2, 2, 4, ...: equal only when points and every rule are equal.
    rules = [parse_rule(t, CODES) for t in ("BH/C1", "BH", "SB", "DE")]
    result = compute(drawn.tournament, rules, Regulations.FIDE_2026, explain=False)
    values = all_values(result)
    table = result.table
    rows = result.rows
    assert rows[0].rank == 1
    for position, (a, b) in enumerate(zip(rows, rows[1:], strict=False), start=2):
        pa, pb = table.ids[a.player], table.ids[b.player]
        same = table.scores[a.player] == table.scores[b.player] and values[pa] == values[pb]
        assert b.rank == (a.rank if same else position)
        assert (a.decided_by is None) == same


@FAST
@given(drawn=swiss_tournaments())
def test_direct_encounter_is_a_place_inside_the_group_or_0(drawn):
    result = compute(drawn.tournament, [parse_rule("DE", CODES)], Regulations.FIDE_2026, explain=False)
    table = result.table
    de = result.outcomes[0].values
    for p in range(table.size):
        group = sum(1 for q in range(table.size) if table.scores[q] == table.scores[p])
        assert 0 <= de[p] <= group
        if group == 1:
            assert de[p] == 0


# Rules computed inside the tie groups of the earlier rules (DE) depend on their place in the
# list by design (C.07 6); every other rule stands alone (C.07 4.2).
GROUP_RULES = {"DE"}
STANDALONE = [s for s in ALL_RULES if s.code not in GROUP_RULES]


@FAST
@given(
    drawn=swiss_tournaments(),
    data=st.data(),
    regulations=BOTH_EDITIONS,
    unrated_rating=UNRATED_RATING,
    explain=st.booleans(),
)
def test_every_rule_stands_alone(drawn, data, regulations, unrated_rating, explain):
    # C.07 4.2: a value never depends on the rules before it (FB before BH must not change BH).
    t = drawn.tournament
    rules = data.draw(st.permutations(ALL_RULES))
    after_round = data.draw(st.none() | st.integers(1, t.rounds))
    kw = {"unrated_rating": unrated_rating, "explain": explain, "after_round": after_round}
    together = compute(t, rules, regulations, **kw)
    for spec in STANDALONE:
        alone = compute(t, [spec], regulations, **kw)
        index = together.specs.index(spec)
        assert together.outcomes[index].values == alone.outcomes[0].values, spec.canonical
        assert together.outcomes[index].scale == alone.outcomes[0].scale, spec.canonical


@settings(max_examples=examples(200), deadline=None)
@given(
    columns=st.lists(
        st.lists(st.sampled_from([-3, -1, 0, 2, 7, 10**12, 2**62, np.iinfo(np.int64).max]), min_size=6, max_size=6),
        min_size=1,
        max_size=7,
    )
)
def test_packed_keys_sort_as_the_keys_do(columns):
    # ranking._order packs neighbouring keys into one; the order must be the lexicographic one.
    from tiebreak.engine.ranking import _order, _packed

    keys = [np.array(c, dtype=np.int64) for c in columns]
    assert np.lexsort(_packed(keys)[::-1]).tolist() == np.lexsort(keys[::-1]).tolist()
    assert _order(keys).tolist() == np.lexsort(keys[::-1]).tolist()
