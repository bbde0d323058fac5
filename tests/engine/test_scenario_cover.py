"""engine.scenarios.minimal_cover on random sets of outcomes: exactly the set, every term prime,
none redundant, and only the games the set depends on named."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tiebreak.engine.scenarios import covers, minimal_cover, outcome_codes
from tests.profiles import examples


@st.composite
def outcome_sets(draw):
    games = draw(st.integers(0, 4))
    cells = draw(st.lists(st.booleans(), min_size=3**games, max_size=3**games))
    return np.array(cells, dtype=bool).reshape((3,) * games)


def _set_of(terms, codes):
    return covers(terms, codes)


@settings(max_examples=examples(200), deadline=None)
@given(outcome_sets())
def test_the_cover_is_exact_and_minimal(winning):
    games = winning.ndim
    codes = outcome_codes(games)
    flat = winning.reshape(-1)
    terms = minimal_cover(winning)
    assert np.array_equal(_set_of(terms, codes), flat)
    if not flat.any():
        assert terms == []
        return
    if flat.all():
        assert terms == [{}]
        return
    for i, term in enumerate(terms):
        rest = terms[:i] + terms[i + 1 :]
        assert not np.array_equal(_set_of(rest, codes), flat)  # no term is redundant
        for game, values in term.items():
            assert 1 <= len(values) <= 2
            assert _depends(winning, game)
            dropped = {g: v for g, v in term.items() if g != game}
            assert not np.array_equal(_set_of([*rest, dropped], codes), flat)
            for extra in set(range(3)) - values:
                widened = {**term, game: values | {extra}}
                assert not np.array_equal(_set_of([*rest, widened], codes), flat)


def _depends(winning, game) -> bool:
    return any(
        winning[index] != winning[(*index[:game], other, *index[game + 1 :])]
        for index in itertools.product(range(3), repeat=winning.ndim)
        for other in range(3)
    )


def test_a_worked_cover():
    """Two games: reached when the first is won (0), or drawn (1) while the second is not lost (0 or 1)."""
    winning = np.zeros((3, 3), dtype=bool)
    winning[0, :] = True
    winning[1, 0:2] = True
    terms = minimal_cover(winning)
    assert sorted(terms, key=len) == [{0: frozenset({0})}, {0: frozenset({0, 1}), 1: frozenset({0, 1})}]
