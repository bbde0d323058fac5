"""Rule names of other programs (docs/interop.md): every C.07 rule of GET /v1/tiebreaks names its
TRF-26 acronym, and a TRF whose record 202 writes that acronym is ranked by that rule; the help
functions of the FIDE reference implementation are refused, each with its reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from tiebreak.engine.interop import NOT_TIEBREAKS
from tiebreak.http.examples import TRF

ROOT = Path(__file__).resolve().parents[2]
TEAM_TRF = (ROOT / "tests" / "fixtures" / "conformance_fide_team" / "tswiss-0001.trf").read_text()


def _with_rules(trf: str, record_202: str) -> str:
    lines = trf.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("142"))
    return "\n".join([*lines[: at + 1], f"202 {record_202}", *lines[at + 1 :]]) + "\n"


def _read_rules(client, trf: str) -> tuple[list[str], list[dict]]:
    answer = client.post("/v1/standings", json={"trf": trf, "explain": False, "top": 1})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    return [t["code"] for t in body["tiebreaks"]], body["warnings"]


def test_every_fide_rule_names_its_trf26_acronym_and_us_chess_rules_none(client):
    entries = client.get("/v1/tiebreaks").json()
    for entry in entries:
        if entry["regulations"] == ["uscf"]:
            assert entry["trf26"] is None, entry["code"]
        else:  # TRF-26: "codes from Mandatory Tie-Breaks", the C.07 acronyms themselves
            assert entry["trf26"] == entry["code"], entry["code"]


def test_each_trf26_acronym_of_the_catalogue_reads_back_as_its_rule(client):
    entries = [e for e in client.get("/v1/tiebreaks").json() if e["trf26"] and e["code"] != "PTS"]
    assert len(entries) > 30
    for entry in entries:
        event = TEAM_TRF if entry["events"] == ["team"] else TRF
        codes, warnings = _read_rules(client, _with_rules(event, entry["trf26"]))
        assert codes == [entry["code"]], (entry["code"], warnings)


@pytest.mark.parametrize("acronym", sorted(NOT_TIEBREAKS))
def test_a_help_function_of_the_reference_is_skipped_with_its_reason(client, acronym):
    codes, warnings = _read_rules(client, _with_rules(TRF, f"{acronym},BH"))
    assert codes == ["BH"]
    (skipped,) = [w for w in warnings if w["code"] == "trf-rule-skipped"]
    assert skipped["message"].endswith(NOT_TIEBREAKS[acronym])


def test_the_forms_real_exports_write_are_read(client):
    """Sharly Chess / echecs (grandmommys-cup-echecs.trf): EDET/P, EMGSB/C1/P, BH:MP/C1/P, MPvGP."""
    codes, _ = _read_rules(client, _with_rules(TEAM_TRF, "EDET/P,EMGSB/C1/P,BH:MP/C1/P,MPvGP"))
    assert codes == ["EDET", "EMGSB", "BH", "MPvGP"]


def test_the_reference_name_rep_and_the_old_spaced_list_are_read(client):
    assert _read_rules(client, _with_rules(TRF, "REP,BH"))[0] == ["GE", "BH"]
    assert _read_rules(client, _with_rules(TRF, "BH SB DE"))[0] == ["BH", "SB", "DE"]


@pytest.mark.parametrize(
    ("written", "spec"),
    [("MPTS", "PTS:MP"), ("GPTS", "PTS:GP"), ("gpts", "PTS:GP"), ("EDGE", "EDE"), ("EDGE/P", "EDE/P")],
)
def test_the_references_team_spellings_are_aliases_in_a_team_event(client, written, spec):
    """The FIDE reference's parse_tiebreak reads MPTS and GPTS as PTS on match and game points, EDGE as EDE."""
    answer = client.post("/v1/standings", json={"trf": TEAM_TRF, "tiebreaks": [written], "explain": False})
    assert answer.status_code == 200, answer.text
    assert [t["spec"] for t in answer.json()["tiebreaks"]] == [spec]
    same = client.post("/v1/standings", json={"trf": TEAM_TRF, "tiebreaks": [spec], "explain": False}).json()
    assert [r["values"] for r in answer.json()["standings"]] == [r["values"] for r in same["standings"]]


def test_a_team_spelling_of_the_reference_in_an_individual_event_says_why(client):
    answer = client.post("/v1/standings", json={"trf": TRF, "tiebreaks": ["MPTS"]})
    assert answer.status_code == 422
    assert "name for PTS:MP, a rule of team events; this is an individual event" in answer.json()["detail"]


@pytest.mark.parametrize("acronym", [*sorted(NOT_TIEBREAKS), "vur"])
@pytest.mark.parametrize("team", [False, True])
def test_a_help_function_in_a_request_is_a_422_with_its_reason(client, acronym, team):
    body = {"trf": TEAM_TRF if team else TRF, "tiebreaks": ["BH", acronym]}
    answer = client.post("/v1/standings", json=body)
    assert answer.status_code == 422, answer.text
    (error,) = answer.json()["errors"]
    assert error["path"] == "tiebreaks[1]"
    assert error["message"] == f"{acronym!r} is not a tie-break: {NOT_TIEBREAKS[acronym.upper()]}"
