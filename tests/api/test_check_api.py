"""POST /v1/check: archived TRF files, one NDJSON report per file, through the real app."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_check import ALEKHINE, with_columns

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def lines_of(response) -> list[dict]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines()]


def test_each_file_gets_its_report_in_order(client):
    bad = with_columns(ALEKHINE, 1, points="9.5")
    lines = lines_of(client.post("/v1/check", json=[{"id": "good", "trf": ALEKHINE}, {"id": 7, "trf": bad}]))
    assert [(line["index"], line["id"], line["status"]) for line in lines] == [(0, "good", 200), (1, 7, 200)]
    assert lines[0]["result"]["status"] == "consistent"
    report = lines[1]["result"]
    assert report["status"] == "inconsistent" and report["regulations"] == "fide-2026"
    assert {"player": 1, "field": "points", "file": "9.5"}.items() <= report["disagreements"][0].items()


def test_an_unreadable_file_is_its_line_and_the_check_goes_on(client):
    body = "\n".join(json.dumps(item) for item in [{"id": "x", "trf": "not a TRF"}, {"trf": ALEKHINE}])
    lines = lines_of(client.post("/v1/check", content=body, headers={"content-type": "application/x-ndjson"}))
    assert lines[0]["status"] == 422 and lines[0]["result"] is None and lines[0]["error"]["errors"]
    assert lines[1]["status"] == 200 and lines[1]["result"]["status"] == "consistent"


def test_a_line_that_is_not_a_check_item_is_an_error_line(client):
    lines = lines_of(client.post("/v1/check", json=[{"trf": ALEKHINE, "preset": "fide-swiss"}]))
    assert lines[0]["status"] == 400 and "preset" in json.dumps(lines[0]["error"])


def test_the_conformance_files_are_all_consistent_over_http(client):
    files = sorted((FIXTURES / "conformance_fide").glob("*.trf"))
    lines = lines_of(client.post("/v1/check", json=[{"id": f.name, "trf": f.read_text()} for f in files]))
    assert len(lines) == len(files) and {line["result"]["status"] for line in lines} == {"consistent"}


def test_not_json_is_a_415(client):
    response = client.post("/v1/check", content=ALEKHINE, headers={"content-type": "text/plain"})
    assert response.status_code == 415
