"""Every case of the FIDE conformance set, to the last decimal (tests/fixtures/conformance_fide)."""

import pytest

from tests.conformance import load_cases, mismatches

CASES = load_cases()


def test_the_whole_conformance_set_is_here():
    # 67 cases per the set's README; a lost fixture must not silently shrink the suite.
    assert len(CASES) == 67


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_conformance_case(case):
    assert mismatches(case) == []


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_conformance_case_with_explanations(case):
    # The explaining path builds every contribution; its values must be the same.
    assert mismatches(case, explain=True) == []
