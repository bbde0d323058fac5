"""`tiebreak serve`'s server processes (decision 0285): one unless WORKERS or --workers say more,
a bad setting refused by name, and with two the guarantees of one: /metrics adds up both
(a directory of the run's own when PROMETHEUS_MULTIPROC_DIR is unset), each process has its own
killable compute worker, a computation past its deadline is killed and answered 503."""

from __future__ import annotations

import json
import signal
import subprocess
import time

import httpx
import pytest

from testkit.loopback import start_serve
from testkit.synthetic import swiss_wire
from tiebreak.cli.serve import workers_of
from tests.command import tiebreak
from tests.ops.test_ops_api import metric

ALEKHINE = "tests/fixtures/conformance_fide/worked-a-alekhine-memorial.trf"


def test_the_option_then_the_variable_choose_the_count_else_one_process():
    assert workers_of(3, {"WORKERS": "5"}) == 3
    assert workers_of(None, {"WORKERS": "5"}) == 5
    assert workers_of(None, {}) == workers_of(None, {"WORKERS": " "}) == 1


@pytest.mark.parametrize("value", ["0", "-1", "2.5", "two", "1e3"])
def test_a_variable_that_is_no_count_of_processes_is_refused_by_name(value):
    with pytest.raises(ValueError, match=f"WORKERS must be a whole number, at least 1, not '{value}'"):
        workers_of(None, {"WORKERS": value})


def test_an_option_below_one_is_refused_by_name():
    with pytest.raises(ValueError, match="--workers must be at least 1"):
        workers_of(0, {})


def test_serve_with_a_bad_variable_says_so_and_other_commands_ignore_it():
    result = tiebreak("serve", env={"WORKERS": "many"})
    assert result.returncode == 2
    assert "WORKERS must be a whole number, at least 1, not 'many'" in result.stderr
    assert "Traceback" not in result.stderr
    # the variable is the server's: before, every command's parser read it and failed with a traceback
    other = tiebreak("standings", ALEKHINE, env={"WORKERS": "many"})
    assert other.returncode == 0, other.stderr


def test_serve_with_a_bad_variable_in_another_language():
    result = tiebreak("serve", "--lang", "ru", env={"WORKERS": "0"})
    assert result.returncode == 2
    assert "WORKERS должно быть целым числом не меньше 1, а не '0'" in result.stderr


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            return [int(each) for each in listing.read().split()]
    except FileNotFoundError:
        return []


def command_line(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as text:
            return text.read().replace(b"\0", b" ").decode()
    except FileNotFoundError:
        return ""


SLOW = {  # far past a deadline of half a second on any machine (as tests/ops/test_gate.py's)
    "tournament": {"rounds": 100, "players": [{"id": i + 1, "rating": 1500 + i % 700} for i in range(40_000)]},
    "tiebreaks": ["BH/C1", "BH", "SB", "ARO", "PS", "WIN"],
    "explain": False,
}


@pytest.mark.server
def test_two_server_processes_keep_the_guarantees_of_one(tmp_path):
    # No PROMETHEUS_MULTIPROC_DIR: the server makes its own, under TMPDIR, and removes it at the end.
    env = {"TMPDIR": str(tmp_path), "TIEBREAK_COMPUTE_DEADLINE_S": "0.5", "TIEBREAK_MAX_COST_S": "1000"}
    env["TIEBREAK_MAX_MEMORY_MIB"] = "4096"
    try:
        process, base = start_serve(2, env, stderr=subprocess.PIPE, timeout=60)
    except RuntimeError as error:
        pytest.fail(str(error))
    try:
        assert len(list(tmp_path.glob("tiebreak-metrics-*"))) == 1
        body = {"tournament": swiss_wire(30, 5, seed=1), "tiebreaks": ["BH", "SB"]}
        n = 30
        for i in range(n):  # a new connection each time, so both processes get some
            r = httpx.post(f"{base}/v1/standings", json=body, headers={"x-request-id": f"two-{i}"}, timeout=60)
            assert r.status_code == 200
        slow = httpx.post(f"{base}/v1/standings", json=SLOW, timeout=60)
        assert slow.status_code == 503 and slow.json()["title"] == "Compute deadline exceeded", slow.text
        # each server process has its own compute worker, started with it (and one replaced after the kill)
        servers = [p for p in children(process.pid) if "multiprocessing-fork" in command_line(p)]
        assert len(servers) == 2
        for server in servers:
            end = time.monotonic() + 30
            while time.monotonic() < end and not any(
                "tiebreak.compute.worker" in command_line(c) for c in children(server)
            ):
                time.sleep(0.1)
            assert [c for c in children(server) if "tiebreak.compute.worker" in command_line(c)]
        with httpx.Client(base_url=base, timeout=30) as client:
            # counts are written once each answer is sent: asked again until the last is in (or 30 s pass)
            for _ in range(300):
                text = client.get("/metrics").text
                if (
                    metric(text, "tiebreak_http_requests_total", route="/v1/standings", method="POST", status="200")
                    == n
                    and metric(text, "tiebreak_compute_killed_total", reason="deadline") == 1
                ):
                    break
                time.sleep(0.1)
        assert metric(text, "tiebreak_http_requests_total", route="/v1/standings", method="POST", status="200") == n
        assert metric(text, "tiebreak_compute_killed_total", reason="deadline") == 1
        assert metric(text, "tiebreak_compute_worker_starts_total") >= 3  # two at the start, one replacement
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    lines = [json.loads(line) for line in process.stderr.read().decode().splitlines() if line.startswith("{")]
    started = {e.get("message") for e in lines if "Started server process" in e.get("message", "")}
    assert len(started) == 2  # two processes served
    assert list(tmp_path.glob("tiebreak-metrics-*")) == []  # the run's metric files are gone with it
