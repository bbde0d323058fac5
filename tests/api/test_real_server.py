"""One real uvicorn process on a loopback port, as `make run` starts it."""

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from testkit.loopback import free_port
from tests.contract.real_server import healthy

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "conformance_fide"


@pytest.fixture(scope="module")
def server():
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "tiebreak.http.app:app", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    if not healthy(base, process, 20):
        process.kill()
        pytest.fail(f"uvicorn did not start: {process.stderr.read().decode()[-2000:]}")
    yield base
    process.terminate()
    process.wait(timeout=10)


@pytest.mark.server
def test_standings_over_a_real_socket(server):
    trf = (FIXTURES / "worked-a-alekhine-memorial.trf").read_text()
    response = httpx.post(f"{server}/v1/standings", json={"trf": trf, "tiebreaks": ["BH", "BH/C1", "SB", "ARO"]})
    assert response.status_code == 200
    rows = {row["id"]: row["values"] for row in response.json()["standings"]}
    # Seed 000's worked example: Kasparov (2) and Tal (3).
    assert rows[2] == [14.5, 12.5, 9.75, 2120]
    assert rows[3] == [11.5, 11.0, 7.5, 2076]


@pytest.mark.server
def test_errors_over_a_real_socket_are_problem_json(server):
    response = httpx.post(f"{server}/v1/standings", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("application/problem+json")
