"""`tiebreak serve` as the container starts it, as a real process on a loopback port:
graceful shutdown, JSON logs with request ids, metrics added up over two workers."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import time

import httpx
import msgspec
import pytest

from testkit.loopback import start_serve
from testkit.synthetic import swiss_wire
from tests.ops.test_ops_api import metric


def start(workers: int, extra_env: dict | None = None):
    try:
        return start_serve(workers, extra_env, stderr=subprocess.PIPE, timeout=30)
    except RuntimeError as error:
        pytest.fail(str(error))


@pytest.mark.server
@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_lets_the_request_in_flight_finish_then_exits(workers):
    process, base = start(workers)
    body = msgspec.json.encode({"tournament": swiss_wire(3000, 11, seed=4), "tiebreaks": ["BH/C1", "BH", "SB", "PS"]})
    outcome = {}
    half_sent, go_on = threading.Event(), threading.Event()

    def in_two_halves():
        # The request is in flight for sure when the signal comes: half of its body is sent,
        # the rest follows only after the signal (the engine alone is too fast to rely on).
        yield body[: len(body) // 2]
        half_sent.set()
        go_on.wait(30)
        yield body[len(body) // 2 :]

    def slow_request():
        try:
            r = httpx.post(
                f"{base}/v1/standings",
                content=in_two_halves(),
                timeout=120,
                headers={
                    "content-type": "application/json",
                    "x-request-id": "in-flight-1",
                    "content-length": str(len(body)),
                },
            )
            outcome["status"], outcome["rows"] = r.status_code, len(r.json()["standings"])
        except Exception as exc:  # noqa: BLE001 - reported below
            outcome["error"] = repr(exc)
        outcome["done"] = time.monotonic()

    try:
        worker = threading.Thread(target=slow_request)
        worker.start()
        assert half_sent.wait(30)
        time.sleep(0.3)  # the first half has reached the server
        assert "done" not in outcome
        signalled = time.monotonic()
        process.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        go_on.set()
        worker.join(timeout=120)
        # uvicorn re-raises the signal it caught once it has shut down (a single-process
        # server then ends "by SIGTERM"); with workers its supervisor exits 0.
        assert process.wait(timeout=60) in (0, -signal.SIGTERM)
    finally:
        go_on.set()
        if process.poll() is None:
            process.kill()
    assert outcome.get("status") == 200 and outcome["rows"] == 3000, outcome
    assert outcome["done"] > signalled
    log = process.stderr.read().decode()
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    served = [e for e in lines if e.get("request_id") == "in-flight-1"]
    assert served and served[0]["status"] == 200 and served[0]["route"] == "/v1/standings"


@pytest.mark.server
def test_two_workers_json_logs_and_metrics_over_both(tmp_path):
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    (metrics_dir / "counter_stale.db").write_bytes(b"left over from an earlier run")
    process, base = start(2, {"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)})
    try:
        body = {"tournament": swiss_wire(30, 5, seed=1), "tiebreaks": ["BH", "SB"], "explain": False}
        n = 40
        with httpx.Client(base_url=base, timeout=30) as client:
            for i in range(n):
                # a new connection each time, so both workers get some
                r = httpx.post(f"{base}/v1/standings", json=body, headers={"x-request-id": f"multi-{i}"})
                assert r.status_code == 200 and r.headers["x-request-id"] == f"multi-{i}"
            # a request is counted once its answer is sent (ops.py `_record`): the client can read the
            # answer first, so /metrics is asked again until the last count is written (or 30 s pass)
            for _ in range(300):
                text = client.get("/metrics").text
                if metric(text, "tiebreak_engine_seconds_count") == n and (
                    metric(text, "tiebreak_http_requests_total", route="/v1/standings", method="POST", status="200")
                    == n
                ):
                    break
                time.sleep(0.1)
        assert metric(text, "tiebreak_http_requests_total", route="/v1/standings", method="POST", status="200") == n
        assert metric(text, "tiebreak_engine_seconds_count") == n
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    lines = [json.loads(line) for line in process.stderr.read().decode().splitlines() if line.strip()]
    access = [e for e in lines if e["logger"] == "tiebreak.access" and e.get("request_id", "").startswith("multi-")]
    assert len(access) == n
    assert {e["status"] for e in access} == {200}
    # uvicorn's own messages are JSON lines too, and they came from two worker processes
    assert all({"time", "level", "logger", "message"} <= e.keys() for e in lines)
    started = [e for e in lines if "Started server process" in e["message"]]
    assert len(started) == 2
