"""tests/profiles.py: the quick and ci profiles' example counts, and no test that bypasses them."""

import re
from pathlib import Path

from hypothesis import settings

from tests import profiles

TESTS = Path(__file__).resolve().parent
# make fuzz's own counts (TIEBREAK_FUZZ_EXAMPLES) stay as they are.
OWN_COUNTS = {TESTS / "ops" / "test_fuzz.py"}


def test_every_written_count_goes_through_the_profile():
    """A literal max_examples would run as many examples under quick as under ci."""
    literal = re.compile(r"max_examples\s*=\s*\d")
    found = [
        f"{path.relative_to(TESTS)}:{number}"
        for path in sorted(TESTS.rglob("*.py"))
        if path not in OWN_COUNTS
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if literal.search(line)
    ]
    assert found == []


def test_the_loaded_profile_scales_a_count_to_its_own_share():
    loaded = settings.default.max_examples
    assert loaded in (profiles.CI_EXAMPLES, profiles.QUICK_EXAMPLES)
    assert profiles.examples(300) == 300 * loaded // profiles.CI_EXAMPLES
    assert profiles.examples(3) == 3  # a count under the minimum is kept
    assert profiles.examples(12) >= min(12, profiles.MINIMUM)
    assert profiles.thorough() == (loaded == profiles.CI_EXAMPLES)
