"""Every case of the FIDE conformance corpora, to the last decimal (tests/fixtures/conformance_*)."""

import pytest

from testkit.conformance import CORPORA, all_cases, load_cases, mismatches

CASES = all_cases()


@pytest.mark.parametrize("corpus, size", [("fide", 67), ("fide-edge", 75)])
def test_the_whole_corpus_is_here(corpus, size):
    # The counts per the corpora's READMEs; a lost fixture must not silently shrink the suite.
    assert len(load_cases(CORPORA[corpus])) == size


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_conformance_case(case):
    assert mismatches(case) == []


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_conformance_case_with_explanations(case):
    # The explaining path builds every contribution; its values must be the same.
    assert mismatches(case, explain=True) == []
