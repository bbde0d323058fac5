"""An unexpected error (a 500) is logged once per request, with the request's id, however many
items of a batch or files of a check it hits (issue 21 item 10: a check of 2,000 team files
wrote 24,000 log lines, one traceback per file, without the request id)."""

from __future__ import annotations

import io
import json
import logging

import pytest
from litestar.testing import TestClient

from tiebreak.compute import logs
from tiebreak.compute.work import Job, failure
from tiebreak.http.app import create_app
from tiebreak.wire.limits import LIMITS
from tests.cli.test_check import ALEKHINE


def test_a_failure_s_answer_carries_its_traceback_instead_of_logging_it(caplog):
    try:
        raise RuntimeError("a bug")
    except RuntimeError as exc:
        raised = exc
    with caplog.at_level(logging.ERROR):
        answer = failure(raised, Job("standings", b"{}", LIMITS))
    assert answer.status == 500 and answer.faults == 1
    assert "RuntimeError: a bug" in (answer.fault or "") and "Traceback" in (answer.fault or "")
    assert not caplog.records  # the server logs it, under the request (compute/logs.note_faults)


def test_three_faults_of_one_request_are_one_traceback_and_one_count(caplog):
    faults = logs.Faults()
    token = logs.REQUEST_FAULTS.set(faults)
    try:
        with caplog.at_level(logging.ERROR, logger="tiebreak.faults"):
            for _ in range(3):
                logs.note_faults("Traceback ...\nRuntimeError: a bug\n", 1)
            logs.faults_ended(faults)
    finally:
        logs.REQUEST_FAULTS.reset(token)
    records = [r for r in caplog.records if r.name == "tiebreak.faults"]
    assert [r.getMessage() for r in records] == [
        "unexpected error in a computation",
        "more unexpected errors in this request",
    ]
    assert "RuntimeError: a bug" in records[0].traceback
    assert records[1].not_logged == 2


def test_a_check_whose_every_file_fails_logs_one_traceback_under_its_request_id(monkeypatch):
    import tiebreak.usecases.check as check

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the check")

    monkeypatch.setattr(check, "check_trf", broken)  # the files are small: checked on the event loop
    files = [{"id": i, "trf": ALEKHINE} for i in range(12)]
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    handler.setFormatter(logs.JsonFormatter())  # formats as the service's own log lines, request id included
    logging.getLogger("tiebreak.faults").addHandler(handler)
    try:
        with TestClient(create_app()) as client:
            response = client.post("/v1/check", json=files, headers={"x-request-id": "check-of-twelve"})
    finally:
        logging.getLogger("tiebreak.faults").removeHandler(handler)
    lines = [json.loads(line) for line in response.text.splitlines()]
    assert [line["status"] for line in lines] == [500] * 12
    faults = [json.loads(line) for line in written.getvalue().splitlines()]
    assert [entry["message"] for entry in faults] == [
        "unexpected error in a computation",
        "more unexpected errors in this request",
    ]
    assert all(entry.get("request_id") == "check-of-twelve" for entry in faults)
    assert "RuntimeError: a bug in the check" in faults[0]["traceback"]
    assert faults[1]["not_logged"] == 11


@pytest.fixture(autouse=True)
def _no_leftover_faults():
    yield
    assert logs.REQUEST_FAULTS.get() is None
