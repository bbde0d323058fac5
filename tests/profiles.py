"""Hypothesis' profiles: how many examples the property tests try (docs/development.md, "The test suite").

- `ci`: every count as the tests write it. `.ci/run` selects it (TIEBREAK_HYPOTHESIS_PROFILE=ci).
- `quick`, the default (`make test` on a developer's machine): a quarter of each count, and never
  fewer than MINIMUM (or the count itself, when it is smaller).

A test writes its count for the ci profile through `examples(count)`; a test that gives none runs
the profile's own (100 or 25). Both profiles turn the deadline and the too_slow health check off:
on a busy 2-core machine a slow example is the machine's doing, and time is never a test's verdict.
`pytest --hypothesis-profile=ci` picks a profile for one run too. `make fuzz` keeps its own counts
(TIEBREAK_FUZZ_EXAMPLES, tests/ops/test_fuzz.py).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

ENV = "TIEBREAK_HYPOTHESIS_PROFILE"
CI_EXAMPLES = 100  # hypothesis' own default: the scale the tests' counts are written in
QUICK_EXAMPLES = 25
MINIMUM = 5

settings.register_profile(
    "ci", max_examples=CI_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile(
    "quick", max_examples=QUICK_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def load() -> None:
    """The profile TIEBREAK_HYPOTHESIS_PROFILE names, else quick (tests/conftest.py, before any test module)."""
    settings.load_profile(os.environ.get(ENV, "quick"))


def thorough() -> bool:
    """Whether the loaded profile runs the counts as written (ci)."""
    return settings.default.max_examples >= CI_EXAMPLES


def examples(count: int, override: str | None = None) -> int:
    """A test's number of examples: `count` as written for the ci profile, scaled to the loaded one.
    `override` names an environment variable whose value, when set, is taken as it is (a deeper hunt)."""
    if override is not None and override in os.environ:
        return int(os.environ[override])
    return max(min(count, MINIMUM), count * settings.default.max_examples // CI_EXAMPLES)
