"""`python -m tools.probe` (issue 39's list again, docs/operations.md): its checks on the shipped
defaults, against a real `tiebreak serve` on loopback, all pass and name the points they probe; the
table has one line per check. The other servers and the browser rows: the tests each row names."""

from __future__ import annotations

import pytest

from tools.probe import Probe, probe_defaults, table


@pytest.mark.server
def test_the_probe_of_the_defaults_passes_and_prints_a_row_per_check():
    probe = Probe()
    probe_defaults(probe)
    assert {row.point for row in probe.rows} == {1, 4, 6, 7, 9, 10, 13}
    assert [row.sends for row in probe.rows if not row.ok] == []
    lines = table(probe.rows).splitlines()
    assert len(lines) == 2 + len(probe.rows) and all(line.endswith("| pass |") for line in lines[2:])
