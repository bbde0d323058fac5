"""SPEC 3.13: the rule list given both ways — POST /v1/trf answers each rule's Swiss-Manager number
and parameters, and with `swiss_manager_numbers` the TRF writer records them in a `###` line
(the numbering and the parameters' order: shared/interop/swiss-manager-tiebreaks.md)."""

from __future__ import annotations

import pytest

from tests.api.test_checklist import _swiss_tournament
from tiebreak.engine.registry import _swiss_manager_forms, parse_spec

RULES = ["BH/C1/P", "SB", "KS/L40", "TPR", "RTNG"]
# Worked from the table: 84's parameters are type (0: game points), strongest and weakest results
# discarded, - or P, Fore Buchholz, MP calc, valid-from (- : no edition named); 85's: 0, strongest,
# weakest, - or P; 87's: type, limit in %; 88's: type (0: TPR), minimum rating. RTNG: none.
NUMBERS = [
    {"number": 84, "parameters": "0,0,1,P,-,0,-"},
    {"number": 85, "parameters": "0,0,0,-"},
    {"number": 87, "parameters": "0,40"},
    {"number": 88, "parameters": "0,0"},
    None,
]
LINE = "### Swiss-Manager tie-breaks: BH/C1/P = 84 0,0,1,P,-,0,-; SB = 85 0,0,0,-; KS/L40 = 87 0,40; TPR = 88 0,0; RTNG = none"


def test_writing_a_trf_gives_the_list_both_ways(client):
    body = {"tournament": _swiss_tournament(), "tiebreaks": RULES, "swiss_manager_numbers": True}
    written = client.post("/v1/trf", json=body)
    assert written.status_code == 200, written.text
    answer = written.json()
    assert answer["tiebreaks"] == RULES and answer["swiss_manager"] == NUMBERS
    lines = answer["trf"].splitlines()
    assert lines[lines.index("202 " + ", ".join(RULES)) + 1] == LINE
    # the comment line is no record: reading the file back reads 202 and warns of nothing
    read = client.post("/v1/trf", json={"trf": answer["trf"]}).json()
    assert read["tiebreaks"] == RULES and read["swiss_manager"] == NUMBERS
    assert "trf-line-ignored" not in [w["code"] for w in read["warnings"]]


def test_without_the_option_the_file_has_no_comment_line(client):
    written = client.post("/v1/trf", json={"tournament": _swiss_tournament(), "tiebreaks": ["BH/C1/P"]}).json()
    assert "Swiss-Manager" not in written["trf"]
    assert written["swiss_manager"] == NUMBERS[:1]


def test_the_numbers_given_rank_as_the_rules_they_stand_for(client):
    items = [{"swiss_manager": n["number"], "parameters": n["parameters"]} for n in NUMBERS[:4]]
    body = {"tournament": _swiss_tournament(), "tiebreaks": items, "explain": False}
    answer = client.post("/v1/standings", json=body)
    assert answer.status_code == 200, answer.text
    assert [t["spec"] for t in answer.json()["tiebreaks"]] == RULES[:4]


@pytest.mark.parametrize(("spec", "written"), sorted(_swiss_manager_forms().items()))
def test_every_written_form_reads_back_as_its_rule(spec, written):
    number, parameters = written
    assert parse_spec(f"SM{number}:{parameters}", None).canonical == spec
