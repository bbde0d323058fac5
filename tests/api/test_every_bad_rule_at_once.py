"""Every bad rule of a list in one answer (issue 37, point 13): the arbiter fixed the first of two
misspelt rules and only then learnt of the second."""

from __future__ import annotations

import pytest

from testkit.conformance import REALWORLD
from tests.command import tiebreak

SAN_VIATOR = REALWORLD / "san-viator-madrid-2018.trf"
pytestmark = pytest.mark.skipif(not SAN_VIATOR.is_file(), reason=f"{SAN_VIATOR} is not here (../shared/conformance)")


def test_two_bad_rules_are_both_named(client):
    trf = SAN_VIATOR.read_text(encoding="utf-8")
    answer = client.post("/v1/standings", json={"trf": trf, "tiebreaks": ["XX", "BH", {"code": "YY"}]})
    assert answer.status_code == 422
    problem = answer.json()
    assert [e["path"] for e in problem["errors"]] == ["tiebreaks[0]", "tiebreaks[2]"]
    assert "'XX'" in problem["detail"] and "'YY'" in problem["detail"]


def test_one_bad_rule_is_answered_as_before(client):
    trf = SAN_VIATOR.read_text(encoding="utf-8")
    answer = client.post("/v1/standings", json={"trf": trf, "tiebreaks": ["BH", "XX"]})
    assert answer.status_code == 422 and [e["path"] for e in answer.json()["errors"]] == ["tiebreaks[1]"]


def test_the_command_line_names_both(tmp_path):
    done = tiebreak("standings", str(SAN_VIATOR), "-t", "XX", "BH", "YY")
    assert done.returncode != 0
    assert "'XX'" in done.stderr and "'YY'" in done.stderr, done.stderr
