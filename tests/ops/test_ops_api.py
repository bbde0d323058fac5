"""Operations over the real ASGI app: metrics, request ids, JSON logs, API keys, CORS, gzip."""

from __future__ import annotations

import gzip
import io
import json
import logging

import pytest
from litestar.testing import TestClient

from tiebreak.http.app import create_app
from tiebreak.compute.logs import JsonFormatter, request_id_from
from tiebreak.http.ops import OpsConfig
from testkit.synthetic import swiss_wire

BODY = {"tournament": swiss_wire(30, 7, seed=3), "tiebreaks": ["BH/C1", "BH", "SB"]}


def metric(text: str, name: str, **labels) -> float:
    """The value of one sample of the Prometheus text format (0 when absent)."""
    for line in text.splitlines():
        if line.startswith("#") or not line.startswith(name):
            continue
        head, _, value = line.rpartition(" ")
        sample, _, label_text = head.partition("{")
        if sample != name:
            continue
        found = dict(part.split("=", 1) for part in label_text.rstrip("}").split(",") if part)
        if all(found.get(k) == f'"{v}"' for k, v in labels.items()):
            return float(value)
    return 0.0


def test_metrics_count_requests_by_route_and_status_with_latency_histograms(client):
    before = client.get("/metrics").text
    assert client.post("/v1/standings", json=BODY).status_code == 200
    assert client.post("/v1/standings", content=b"{", headers={"content-type": "application/json"}).status_code == 400
    assert client.get("/v1/nowhere").status_code == 404
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    after = response.text

    def delta(name, **labels):
        return metric(after, name, **labels) - metric(before, name, **labels)

    ok = {"route": "/v1/standings", "method": "POST", "status": "200"}
    bad = {"route": "/v1/standings", "method": "POST", "status": "400"}
    assert delta("tiebreak_http_requests_total", **ok) == 1
    assert delta("tiebreak_http_requests_total", **bad) == 1
    assert delta("tiebreak_http_requests_total", route="unmatched", method="GET", status="404") == 1
    assert delta("tiebreak_http_request_duration_seconds_count", **ok) == 1
    assert delta("tiebreak_http_request_duration_seconds_bucket", le="+Inf", **ok) == 1
    # the engine ran once (the malformed body never reached it)
    assert delta("tiebreak_engine_seconds_count") == 1
    assert delta("tiebreak_engine_seconds_sum") > 0
    assert "# TYPE tiebreak_batch_items_total counter" in after or "# TYPE tiebreak_batch_items counter" in after


def test_metrics_count_limit_rejections_by_limit(client):
    before = client.get("/metrics").text
    too_many = {**BODY, "tiebreaks": ["BH"] * 41}
    assert client.post("/v1/standings", json=too_many).status_code == 400
    after = client.get("/metrics").text
    # priced over the inline budget (41 rules, every breakdown), it is read by a compute worker,
    # whose own counters never reach /metrics: the gate counts the limit its answer names
    assert (
        metric(after, "tiebreak_limit_rejections_total", limit="max_rules")
        == metric(before, "tiebreak_limit_rejections_total", limit="max_rules") + 1
    )
    assert metric(after, "tiebreak_http_requests_total", route="/v1/standings", method="POST", status="400") > metric(
        before, "tiebreak_http_requests_total", route="/v1/standings", method="POST", status="400"
    )


@pytest.mark.parametrize("path", ["/healthz", "/v1/nowhere"])
def test_request_id_is_echoed_or_made(client, path):
    given = client.get(path, headers={"X-Request-ID": "req-42.a:b"})
    assert given.headers["x-request-id"] == "req-42.a:b"
    made = client.get(path)
    assert len(made.headers["x-request-id"]) == 32
    assert made.headers["x-request-id"] != client.get(path).headers["x-request-id"]


def test_request_id_on_problem_responses_and_hostile_ids_replaced(client):
    response = client.post(
        "/v1/standings", content=b"[", headers={"content-type": "application/json", "x-request-id": "abc"}
    )
    assert response.status_code == 400 and response.headers["x-request-id"] == "abc"
    for hostile in ["a b", "x" * 129, "id\u00e9", "<script>", ""]:
        assert request_id_from(hostile) != hostile
        assert len(request_id_from(hostile)) == 32


def test_access_log_is_one_json_line_with_the_request_id(client):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("tiebreak.access")
    logger.addHandler(handler)
    try:
        client.post("/v1/standings", json=BODY, headers={"X-Request-ID": "log-me-1"})
    finally:
        logger.removeHandler(handler)
    [line] = [json.loads(x) for x in stream.getvalue().splitlines() if "log-me-1" in x]
    assert line["request_id"] == "log-me-1"
    assert line["route"] == "/v1/standings" and line["status"] == 200 and line["method"] == "POST"
    assert line["level"] == "info" and line["logger"] == "tiebreak.access"
    assert line["duration_ms"] > 0 and line["response_bytes"] > 0
    assert line["time"].endswith("Z")


def test_unexpected_error_log_carries_the_request_id():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("tiebreak.errors")
    logger.addHandler(handler)
    from tiebreak.compute.logs import REQUEST_ID

    token = REQUEST_ID.set("err-7")
    try:
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            logger.exception("unhandled error on %s", "/x")
    finally:
        REQUEST_ID.reset(token)
        logger.removeHandler(handler)
    entry = json.loads(stream.getvalue())
    assert entry["request_id"] == "err-7" and entry["level"] == "error" and "RuntimeError: boom" in entry["exception"]


# ---- API keys ----


@pytest.fixture(scope="module")
def keyed():
    with TestClient(create_app(ops=OpsConfig(api_keys=("k-one", "k-two")))) as c:
        yield c


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"X-API-Key": "wrong"},
        {"Authorization": "Bearer wrong"},
        {"Authorization": "Basic k-one"},
        {"X-API-Key": ""},
    ],
)
def test_api_key_missing_or_wrong_is_401_problem_json(keyed, headers):
    response = keyed.post("/v1/standings", json=BODY, headers=headers)
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/problem+json"
    assert "x-request-id" in response.headers and "www-authenticate" in response.headers
    problem = response.json()
    assert problem["status"] == 401 and problem["errors"][0]["path"] == "header:X-API-Key"
    assert keyed.get("/v1/tiebreaks", headers=headers).status_code == 401


@pytest.mark.parametrize(
    "headers",
    [
        {"X-API-Key": "k-one"},
        {"X-API-Key": "k-two"},
        {"Authorization": "Bearer k-two"},
        {"authorization": "bearer k-one"},
    ],
)
def test_api_key_accepted(keyed, headers):
    assert keyed.post("/v1/standings", json=BODY, headers=headers).status_code == 200


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/metrics", "/schema/openapi.json"])
def test_probes_metrics_and_docs_need_no_key(keyed, path):
    assert keyed.get(path).status_code == 200


def test_api_keys_are_off_by_default(client):
    assert OpsConfig().api_keys == () or OpsConfig().api_keys  # read from the environment
    assert client.post("/v1/standings", json=BODY).status_code == 200


# ---- CORS ----


def test_cors_is_off_by_default(client):
    response = client.options(
        "/v1/standings", headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"}
    )
    assert "access-control-allow-origin" not in response.headers
    assert (
        "access-control-allow-origin" not in client.get("/healthz", headers={"Origin": "https://app.example"}).headers
    )


def test_cors_allows_configured_origins_only():
    cors_app = create_app(ops=OpsConfig(cors_origins=("https://app.example",), api_keys=("k",)))
    with TestClient(cors_app) as c:
        preflight = c.options(
            "/v1/standings",
            headers={
                "Origin": "https://app.example",
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type, x-api-key",
            },
        )
        assert preflight.status_code in (200, 204)
        assert preflight.headers["access-control-allow-origin"] == "https://app.example"
        assert "x-api-key" in preflight.headers["access-control-allow-headers"].lower()
        response = c.post("/v1/standings", json=BODY, headers={"Origin": "https://app.example", "X-API-Key": "k"})
        assert response.headers["access-control-allow-origin"] == "https://app.example"
        assert "x-request-id" in response.headers["access-control-expose-headers"].lower()
        other = c.post("/v1/standings", json=BODY, headers={"Origin": "https://evil.example", "X-API-Key": "k"})
        assert "access-control-allow-origin" not in other.headers
        refused = c.post("/v1/standings", json=BODY, headers={"Origin": "https://app.example"})
        assert refused.status_code == 401
        assert refused.headers["access-control-allow-origin"] == "https://app.example"
        refused = c.post("/v1/standings", json=BODY, headers={"Origin": "https://evil.example"})
        assert refused.status_code == 401 and "access-control-allow-origin" not in refused.headers


# ---- gzip ----


def test_large_responses_are_gzipped_for_clients_that_accept_it(client):
    response = client.post("/v1/standings", json=BODY, headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    assert int(response.headers["content-length"]) < len(response.content) / 3
    assert response.json()["standings"]
    plain = client.post("/v1/standings", json=BODY, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.json() == response.json()
    small = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in small.headers


def test_gzip_can_be_turned_off():
    with TestClient(create_app(ops=OpsConfig(gzip_min_bytes=0))) as c:
        response = c.post("/v1/standings", json=BODY, headers={"Accept-Encoding": "gzip"})
        assert "content-encoding" not in response.headers


def batch_gzipped(c) -> bytes:
    items = [{"tournament": swiss_wire(30, 7, seed=seed), "tiebreaks": ["BH"]} for seed in range(3)]
    with c.stream("POST", "/v1/standings/batch", json=items, headers={"Accept-Encoding": "gzip"}) as response:
        assert response.headers["content-encoding"] == "gzip"
        return b"".join(response.iter_raw())


def test_the_batch_stream_is_gzipped_at_its_own_level_one_by_default(client):
    """Decision 0310: the NDJSON stream at level 1 (byte 8 of a gzip header, XFL, is 4 for zlib's
    fastest level and 0 for levels 2-8), whatever TIEBREAK_GZIP_LEVEL says; the lines the same."""
    fast = batch_gzipped(client)
    with TestClient(create_app(ops=OpsConfig(batch_gzip_level=5))) as c:
        level_5 = batch_gzipped(c)
    assert fast[:2] == b"\x1f\x8b" and fast[8] == 4 and level_5[8] == 0
    assert gzip.decompress(fast) == gzip.decompress(level_5)
    assert len(gzip.decompress(fast).splitlines()) == 3


def test_batch_items_are_counted_by_outcome(client):
    before = client.get("/metrics").text
    good = {"tournament": swiss_wire(8, 3, seed=1), "tiebreaks": ["BH"]}
    bad = {"tournament": {"rounds": 1, "players": []}}
    response = client.post("/v1/standings/batch", json=[good, bad, good])
    assert response.status_code == 200
    assert [json.loads(line)["status"] for line in response.text.splitlines()] == [200, 400, 200]
    after = client.get("/metrics").text
    assert (
        metric(after, "tiebreak_batch_items_total", outcome="ok")
        - metric(before, "tiebreak_batch_items_total", outcome="ok")
        == 2
    )
    assert (
        metric(after, "tiebreak_batch_items_total", outcome="error")
        - metric(before, "tiebreak_batch_items_total", outcome="error")
        == 1
    )


def test_metric_labels_stay_bounded_under_probing(client):
    for i in range(5):
        client.request(f"PROBE{i}", f"/v1/random-{i}")
        client.get(f"/wp-admin/{i}.php")
    text = client.get("/metrics").text
    assert "random-" not in text and "wp-admin" not in text and "PROBE" not in text
    assert metric(text, "tiebreak_http_requests_total", route="unmatched", method="OTHER", status="404") >= 5


@pytest.mark.parametrize("variable", ["TIEBREAK_GZIP_LEVEL", "TIEBREAK_BATCH_GZIP_LEVEL"])
def test_a_gzip_level_outside_zero_to_nine_is_refused_at_start_up_naming_its_variable(monkeypatch, variable):
    """zlib would refuse it only when the first large answer or batch stream is compressed."""
    monkeypatch.setenv(variable, "12")
    with pytest.raises(ValueError, match=f"{variable} must be a gzip level from 0 to 9, not 12"):
        OpsConfig()
    monkeypatch.setenv(variable, "9")
    assert OpsConfig() is not None
