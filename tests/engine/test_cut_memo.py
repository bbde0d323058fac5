"""Cut and Median (C.07 14, 16.5) through a request's memo: the value (`cut_totals`) and the
breakdown's marks (`cut_reasons`) share the sorted rows and the unplayed-round rows' cuts
(issue 40), and read the same with the memo as without it, whatever cut came first."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.profiles import examples
from tiebreak.engine.modifiers import cut_reasons, cut_totals, kept_total


@st.composite
def columns(draw):
    rows = draw(st.integers(1, 6))
    rounds = draw(st.integers(1, 7))
    cells = rows * rounds
    key = np.array(draw(st.lists(st.integers(0, 20), min_size=cells, max_size=cells)), dtype=np.int64)
    counted = np.array(draw(st.lists(st.booleans(), min_size=cells, max_size=cells)))
    vur = np.array(draw(st.lists(st.booleans(), min_size=cells, max_size=cells))) & counted
    key, counted, vur = key.reshape(rows, rounds), counted.reshape(rows, rounds), vur.reshape(rows, rounds)
    # Buchholz: the value is the key itself; Sonneborn-Berger: key × the points scored
    value = (
        key
        if draw(st.booleans())
        else key * np.array(draw(st.lists(st.integers(0, 2), min_size=cells, max_size=cells))).reshape(rows, rounds)
    )
    return key, value, (vur if vur.any() else None), counted


CUTS = st.sampled_from([(1, 0), (2, 0), (1, 1), (0, 0)])


@given(columns(), st.lists(CUTS, min_size=1, max_size=4))
@settings(max_examples=examples(200))
def test_values_and_marks_through_one_memo_are_those_without_it(drawn, cuts):
    key, value, vur, counted = drawn
    memo: dict[object, object] = {}
    for low, high in cuts:  # BH/C1, BH/C2, BH/M1 ... of one request, in any order
        alone = cut_reasons(key, value, vur, counted, low, high)
        assert (cut_totals(key, value, vur, counted, low, high, memo) == kept_total(value, counted, alone)).all()
        marks = cut_reasons(key, value, vur, counted, low, high, memo)
        assert (marks is None and alone is None) or (marks == alone).all()
