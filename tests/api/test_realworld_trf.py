"""40 real TRF exports of other programs, read in place from ../shared/conformance/realworld-trf/.

The files belong to their authors and are never copied into the project (the folder's README);
without the folder these tests are skipped. Each file must be read by `POST /v1/trf` and
`POST /v1/standings`, `auto` must pick the edition of its start date, the standings must stop at
the last round played, and both runs' values must equal the independent reference's exactly. A
file with team records whose pairings are matches between its teams is a team event: its
standings rank the teams (the reference ranked the players, without the team records).
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from tiebreak.formats.trf import decode_trf

FOLDER = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "realworld-trf"
MISSING = f"the real-world TRF corpus is not at {FOLDER} (it lives in ../shared, beside the repository)"

# Cases that disagree with the reference for a reason other than reading the file. Strict: when the
# cause is fixed they pass, and the marker must go.
KNOWN = {
    "gros-2010-javafo-sample.trf": "reference: it reads '0000 - =' as a played draw (GE counts it, no VUR cut); "
    "9 players have it in round 3, so it is the half-point bye the service reads, "
    "and the -echecs copy of the same event, which writes 'H', agrees exactly",
}


def _expected_files() -> list[Path]:
    return sorted((FOLDER / "expected").glob("*.json")) if FOLDER.is_dir() else []


EXPECTED = _expected_files()
CASES = [json.loads(path.read_text()) for path in EXPECTED]
RUNS = [(case, run) for case in CASES for run in case["runs"]]
ABSENT = [pytest.param(None, id="corpus-absent", marks=pytest.mark.skip(reason=MISSING))]


def per_case():
    return [pytest.param(case, id=case["file"]) for case in CASES] or ABSENT


def _text(case: dict) -> str:
    text, _, _ = decode_trf((FOLDER / case["file"]).read_bytes())
    return text


def _run_id(item) -> str:
    case, run = item
    return f"{case['file']}-{run['name']}"


def _marked(item):
    case, run = item
    reason = KNOWN.get(case["file"])
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason and run["reference"]["ok"] else []
    return pytest.param(item, id=_run_id(item), marks=marks)


@pytest.fixture(autouse=True)
def _corpus_present():
    if not FOLDER.is_dir():
        pytest.skip(MISSING)


def test_the_corpus_is_all_here():
    assert len(CASES) == 40, MISSING


@pytest.mark.parametrize("case", per_case())
def test_each_file_converts_to_the_json_tournament(client, case):
    response = client.post("/v1/trf", json={"trf": _text(case)})
    assert response.status_code == 200, response.text
    tournament = response.json()["tournament"]
    assert tournament["start_date"] == case["start_date"]
    assert tournament["system"] in (case["system"], None)
    if case["declared_rounds"] is not None:
        assert tournament["rounds"] == case["declared_rounds"]


@pytest.mark.parametrize("item", [_marked(item) for item in RUNS] or ABSENT)
def test_each_run_agrees_with_the_reference(client, item):
    case, run = item
    body = {"trf": _text(case), "tiebreaks": [t for t in run["tiebreaks"] if t != "PTS"], "explain": False}
    if run["unrated_rating"] is not None:
        body["unrated_rating"] = run["unrated_rating"]
    response = client.post("/v1/standings", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    if data["team_size"] is not None:
        # A team event (SPEC 3.7, issue 9): its rows are the teams of its 310/013 records, ranked by
        # the team rules. The reference ranked the players of the 001 lines individually (its copy
        # had the team records removed): `participants: players` is that ranking.
        assert {row["id"] for row in data["standings"]} == _team_numbers(_text(case))
        assert all(row["match_points"] is not None and row["game_points"] is not None for row in data["standings"])
        response = client.post("/v1/standings", json={**body, "participants": "players"})
        assert response.status_code == 200, response.text
        data = response.json()
        assert data["team_size"] is None
    assert data["regulations"] == case["regulations"]
    assert data["after_round"] == case["after_round"]
    if not run["reference"]["ok"]:
        return  # the reference could not read the file: no values to compare
    assert data["system"] == case["system"]
    got = {row["id"]: row for row in data["standings"]}
    assert len(got) == len(run["reference"]["expected"])
    for expected in run["reference"]["expected"]:
        row = got[expected["id"]]
        mine = [row["points"], *row["values"]]
        want = [None if v is None else Decimal(v) for v in expected["values"]]
        assert [None if v is None else Decimal(repr(v)) for v in mine] == want, expected["id"]
        assert row["rank"] == expected["rank"], expected["id"]


@pytest.mark.parametrize("case", per_case())
def test_a_points_column_other_than_the_results_is_always_reported(client, case):
    """The file's own points column (81-84), read here from the raw lines, against the results."""
    text = _text(case)
    converted = client.post("/v1/trf", json={"trf": text}).json()
    scoring = converted["tournament"]["scoring"]
    computed = {
        p["id"]: sum(
            (Fraction(str(r["points"] if r["points"] is not None else scoring[r["result"]])) for r in p["results"]),
            Fraction(0),
        )
        for p in converted["tournament"]["players"]
    }
    column = {}
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if line.startswith("001") and line[80:84].strip():
            column[int(line[4:8])] = Fraction(line[80:84].strip())
    differing = set() if not any(column.values()) else {pid for pid, pts in column.items() if pts != computed[pid]}
    warned = {
        w["message"].split("player ")[1].split(":")[0]
        for w in converted["warnings"]
        if w["code"] == "trf-points-mismatch" and "player " in w["message"]
    }
    assert warned == {str(pid) for pid in differing}


@pytest.mark.parametrize("case", per_case())
def test_trf_to_json_to_trf_keeps_what_the_file_carries(client, case):
    """Read, write back, read again: the same JSON tournament, every 001 field and header record kept
    (or a trf-not-carried warning said what could not be)."""
    first = client.post("/v1/trf", json={"trf": _text(case)}).json()
    written = client.post("/v1/trf", json={"tournament": first["tournament"]})
    assert written.status_code == 200, written.text
    again = client.post("/v1/trf", json={"trf": written.json()["trf"]}).json()
    assert again["tournament"] == first["tournament"]
    assert not [w for w in again["warnings"] if w["code"] in ("trf-not-carried", "trf-line-ignored")]
    # The identity columns of every 001 line, compared as text with the original file.
    original = {int(line[4:8]): line for line in _lines(_text(case)) if line.startswith("001")}
    rewritten = {int(line[4:8]): line for line in _lines(written.json()["trf"]) if line.startswith("001")}
    for number, line in original.items():
        mine = rewritten[number]
        assert line[14:47].strip() == mine[14:47].strip(), number  # name
        assert line[53:56].strip() == mine[53:56].strip(), number  # federation
        assert int(line[48:52].strip() or 0) == int(mine[48:52].strip() or 0), number  # rating, 0000 = unrated
        fide_id = line[57:68].strip()
        assert fide_id == mine[57:68].strip() or fide_id.strip("-0") == "", number  # dashes, zeros: no FIDE ID
        sex, title = line[9].lower().replace("f", "w"), line[10:13].strip()
        assert (sex if sex in "mw" else " ", title) == (mine[9], mine[10:13].strip()), number


def _team_numbers(text: str) -> set[int]:
    """The team numbers of a team TRF: 310's columns 5-7, else the 013 records in order."""
    lines = _lines(text)
    numbers = {int(line[4:7]) for line in lines if line.startswith("310")}
    return numbers or set(range(1, 1 + sum(1 for line in lines if line.startswith("013"))))


def _lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
