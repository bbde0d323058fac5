"""Every limit: a problem+json 4xx whose errors name the limit and its environment variable."""

from __future__ import annotations

import msgspec
import pytest
from litestar.testing import TestClient

from tiebreak.http.app import create_app
from tiebreak.wire.limits import ENV, LIMITS, Limits
from testkit.synthetic import swiss_wire

SMALL = Limits(
    max_body_bytes=20_000,
    max_players=20,
    max_rounds=7,
    max_rules=3,
    max_trf_chars=2_000,
    compute_deadline_s=LIMITS.compute_deadline_s,
)


@pytest.fixture(scope="module")
def small():
    with TestClient(create_app(SMALL)) as c:
        yield c


def assert_names_limit(response, status: int, limit: str, path: str | None = None):
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["status"] == status
    messages = " ".join(e["message"] for e in problem["errors"])
    assert f"limit {limit} = " in messages, problem
    assert ENV.get(limit, "") in messages
    if path is not None:
        assert [e["path"] for e in problem["errors"]] == [path]


def body(players=8, rounds=5, **extra):
    return {"tournament": swiss_wire(players, rounds, seed=2), "tiebreaks": ["BH"], **extra}


def test_body_size_413(small):
    payload = msgspec.json.encode(body(60, 7))
    assert len(payload) > SMALL.max_body_bytes
    assert_names_limit(
        small.post("/v1/standings", content=payload, headers={"content-type": "application/json"}),
        413,
        "max_body_bytes",
        "body",
    )


def test_body_size_413_without_content_length(small):
    def chunks():
        for _ in range(30):
            yield b" " * 5000
        yield b"{}"

    response = small.post("/v1/standings", content=chunks(), headers={"content-type": "application/json"})
    assert_names_limit(response, 413, "max_body_bytes")


def test_players_rounds_rules_and_trf_of_the_app(small):
    assert_names_limit(small.post("/v1/standings", json=body(21, 5)), 400, "max_players", "tournament.players")
    assert_names_limit(small.post("/v1/standings", json=body(8, 8)), 400, "max_rounds", "tournament.rounds")
    assert_names_limit(
        small.post("/v1/standings", json={**body(), "tiebreaks": ["BH", "SB", "DE", "WIN"]}),
        400,
        "max_rules",
        "tiebreaks",
    )
    assert_names_limit(small.post("/v1/standings", json={**body(), "after_round": 8}), 400, "max_rounds", "after_round")
    assert_names_limit(small.post("/v1/standings", json={"trf": "012 x\n" * 400}), 413, "max_trf_chars", "trf")
    assert small.post("/v1/standings", json=body(20, 7)).status_code == 200


def test_trf_players_are_checked_once_read(small):
    from pathlib import Path

    trf = (
        Path(__file__).resolve().parents[1] / "fixtures" / "conformance_fide" / "worked-a-alekhine-memorial.trf"
    ).read_text()
    tight = Limits(max_players=3, max_trf_chars=len(trf) + 1)
    with TestClient(create_app(tight)) as c:
        assert_names_limit(c.post("/v1/standings", json={"trf": trf}), 400, "max_players", "trf.players")


def test_schema_bounds_name_their_limit(client):
    """Past the limits the service started with, msgspec stops decoding; the error still names the limit."""
    rules = ["BH"] * (LIMITS.max_rules + 1)
    assert_names_limit(client.post("/v1/standings", json={**body(), "tiebreaks": rules}), 400, "max_rules", "tiebreaks")
    t = body()
    t["tournament"]["rounds"] = LIMITS.max_rounds + 1
    assert_names_limit(client.post("/v1/standings", json=t), 400, "max_rounds", "tournament.rounds")
    players = [{"id": i + 1} for i in range(LIMITS.max_players + 1)]
    response = client.post("/v1/standings", json={"tournament": {"rounds": 1, "players": players}})
    assert_names_limit(response, 400, "max_players", "tournament.players")
    t = body()
    t["tournament"]["players"][0]["id"] = LIMITS.max_player_id + 1
    assert_names_limit(client.post("/v1/standings", json=t), 400, "max_player_id", "tournament.players[0].id")


def test_compute_deadline_is_a_503_naming_it_with_retry_after():
    """Past the deadline the computation is killed and the answer says when to retry (docs/decisions/0107-compute-deadline-and-client-gone.md)."""
    quick = Limits(compute_deadline_s=0.3, inline_max_cost_ms=0)  # every computation in a worker process
    large = body(2200, 11)
    large["tiebreaks"] = ["BH/C1", "BH", "SB", "ARO"]
    with TestClient(create_app(quick)) as c:
        response = c.post("/v1/standings", json=large)
        assert_names_limit(response, 503, "compute_deadline_s", "")
        assert response.json()["title"] == "Compute deadline exceeded"
        assert int(response.headers["retry-after"]) >= 1
        # the service is still answering
        assert c.get("/healthz").status_code == 200


def test_limits_read_from_the_environment():
    """In a fresh interpreter (reloading the module here would split its exception class in two)."""
    import os
    import subprocess
    import sys

    env = {
        **os.environ,
        "TIEBREAK_MAX_PLAYERS": "77",
        "TIEBREAK_COMPUTE_DEADLINE_S": "1.5",
        "TIEBREAK_MAX_BATCH_ITEMS": "9",
    }
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "from tiebreak.wire.limits import LIMITS as L; "
            "print(L.max_players, L.compute_deadline_s, L.max_batch_items, L.max_rules)",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out == ["77", "1.5", "9", str(LIMITS.max_rules)]


def test_batch_items():
    with TestClient(create_app(Limits(max_batch_items=2))) as c:
        items = [body(), body(), body()]
        assert_names_limit(c.post("/v1/standings/batch", json=items), 400, "max_batch_items", "items")
        ndjson = b"".join(msgspec.json.encode(i) + b"\n" for i in items)
        # NDJSON is streamed: the items within the limit are answered, then one error line names it
        response = c.post("/v1/standings/batch", content=ndjson, headers={"content-type": "application/x-ndjson"})
        lines = [msgspec.json.decode(line) for line in response.content.splitlines()]
        assert [line["status"] for line in lines] == [200, 200, 400]
        assert "limit max_batch_items = 2 (TIEBREAK_MAX_BATCH_ITEMS)" in lines[-1]["error"]["errors"][0]["message"]
        assert c.post("/v1/standings/batch", json=items[:2]).status_code == 200


def test_large_bodies_are_counted_before_they_are_built(client):
    """Over 1 MiB, players and rules are counted (msgspec.Raw) before the strict decode builds them."""
    from tiebreak.wire.decode import PRESCAN_BYTES

    n = PRESCAN_BYTES // 9 + 1
    players = b'{"tournament":{"rounds":1,"players":[' + b",".join([b'{"id":1}'] * n) + b"]}}"
    response = client.post("/v1/standings", content=players, headers={"content-type": "application/json"})
    assert_names_limit(response, 400, "max_players", "tournament.players")
    assert response.json()["errors"][0]["message"].startswith(f"{n} players; ")
    rules = b'{"trf":"x","tiebreaks":[' + b",".join([b'"BH"'] * (PRESCAN_BYTES // 5 + 1)) + b"]}"
    response = client.post("/v1/standings", content=rules, headers={"content-type": "application/json"})
    assert_names_limit(response, 400, "max_rules", "tiebreaks")
    malformed = players[:-3]
    response = client.post("/v1/standings", content=malformed, headers={"content-type": "application/json"})
    assert response.status_code == 400 and response.json()["detail"] == "the request body is not valid JSON"
