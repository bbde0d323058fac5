"""The bounded version of `make hostile` (tools/hostile.py --quick): every case of issue 10 against a
real `tiebreak serve` on loopback, at smaller sizes.

The strict bounds (/healthz under 100 ms throughout) are `make hostile`'s; on the shared
2-core machine that runs the whole suite, the latency bound here is generous (the
figures in docs/operations.md come from `make hostile`). Everything else is asserted
as there: the answers, peak memory under the pod limit, CPU back to idle.
"""

from __future__ import annotations

import pytest

from tools import hostile

HEALTH_BOUND_IN_SUITE_S = 0.5


@pytest.mark.server
@pytest.mark.parametrize("case", list(hostile.CASES))
def test_hostile_case_within_its_bounds(case, tmp_path, monkeypatch):
    monkeypatch.setattr(hostile, "HEALTH_BOUND_S", HEALTH_BOUND_IN_SUITE_S)
    [outcome] = hostile.run(quick=True, only=[case], log=tmp_path / "server.log", progress=lambda text: None)
    failed = [what for what, ok in outcome.checks if not ok]
    assert not failed, hostile.format_outcome(outcome)
