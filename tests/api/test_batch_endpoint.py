"""`POST /v1/standings/batch`: NDJSON out in input order, bad items as error lines, disconnect stops work."""

import json
from pathlib import Path

from dataclasses import replace

import anyio
import msgspec
import pytest
from litestar.testing import TestClient

from tiebreak.http import batch
from tiebreak.http.app import app, create_app
from tiebreak.wire.limits import LIMITS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "conformance_fide"
ALEKHINE = (FIXTURES / "worked-a-alekhine-memorial.trf").read_text()
NDJSON = "application/x-ndjson"


def lines_of(response) -> list[dict]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith(NDJSON)
    return [json.loads(line) for line in response.text.splitlines()]


MIXED = [
    {"id": "good-trf", "trf": ALEKHINE, "tiebreaks": ["BH"], "explain": False},
    {"id": "broken-trf", "trf": "001  xx"},
    {"id": 3, "trf": ALEKHINE, "tiebreaks": ["NOPE"]},
    {
        "id": "contradiction",
        "tournament": {
            "rounds": 1,
            "players": [{"id": 1, "results": [{"round": 1, "opponent": 2, "result": "win"}]}, {"id": 2}],
        },
    },
    {"id": "unknown-field", "trf": ALEKHINE, "tiebreak": ["BH"]},
    {"trf": ALEKHINE, "tiebreaks": ["SB"], "explain": False},
]


def check_mixed(results: list[dict]) -> None:
    assert [r["index"] for r in results] == list(range(len(MIXED)))
    assert [r["id"] for r in results] == ["good-trf", "broken-trf", 3, "contradiction", "unknown-field", None]
    assert [r["status"] for r in results] == [200, 422, 422, 422, 400, 200]
    assert results[0]["result"]["standings"][1]["values"] == [14.5] and results[0]["error"] is None
    assert results[1]["error"]["errors"][0]["path"] == "trf:1:5" and results[1]["result"] is None
    assert "unknown tie-break" in results[2]["error"]["detail"]
    assert "unknown field `tiebreak`" in results[4]["error"]["errors"][0]["message"]
    assert results[5]["result"]["standings"][1]["values"] == [9.75]


def batch_scope(body: bytes) -> dict:
    """The raw ASGI scope of an NDJSON POST to /v1/standings/batch (the disconnect tests drive the app directly)."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/standings/batch",
        "raw_path": b"/v1/standings/batch",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", NDJSON.encode()), (b"content-length", str(len(body)).encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        "state": {},
    }


def test_a_json_array_with_good_and_bad_items(client):
    check_mixed(lines_of(client.post("/v1/standings/batch", json=MIXED)))


def test_ndjson_with_good_and_bad_items_and_a_line_that_is_not_json(client):
    body = "\n".join(json.dumps(item) for item in MIXED[:3]) + "\n{not json\r\n\n" + json.dumps(MIXED[5]) + "\n"
    results = lines_of(client.post("/v1/standings/batch", content=body.encode(), headers={"content-type": NDJSON}))
    assert [r["status"] for r in results] == [200, 422, 422, 400, 200]
    assert results[3]["id"] is None and results[3]["error"]["detail"] == "the request body is not valid JSON"
    assert results[4]["index"] == 4


def test_an_empty_batch_is_an_empty_stream(client):
    assert lines_of(client.post("/v1/standings/batch", json=[])) == []


@pytest.mark.parametrize(
    "content, media, status",
    [
        (b"{}", "application/json", 400),  # not an array
        (b"[1, 2]", "application/json", 400),  # items must be objects
        (b"[{", "application/json", 400),  # not JSON
        (b"[]", "text/plain", 415),
    ],
)
def test_a_body_that_is_no_batch_at_all_is_a_problem(client, content, media, status):
    response = client.post("/v1/standings/batch", content=content, headers={"content-type": media})
    assert response.status_code == status
    assert response.headers["content-type"] == "application/problem+json"


@pytest.fixture(scope="module")
def client_with_three_items_at_most():
    with TestClient(create_app(replace(LIMITS, max_batch_items=3, max_body_bytes=4000))) as client:
        yield client


def test_a_json_array_with_too_many_items_is_refused_before_any_work(client_with_three_items_at_most):
    response = client_with_three_items_at_most.post("/v1/standings/batch", json=[{}] * 4)
    assert response.status_code == 400
    assert "max_batch_items" in response.json()["errors"][0]["message"]


def test_ndjson_with_too_many_items_ends_with_an_error_line(client_with_three_items_at_most):
    small = {"tournament": {"rounds": 1, "players": [{"id": 1}]}, "explain": False}
    body = "".join(json.dumps(small) + "\n" for _ in range(5)).encode()
    results = lines_of(
        client_with_three_items_at_most.post("/v1/standings/batch", content=body, headers={"content-type": NDJSON})
    )
    assert [r["status"] for r in results] == [200, 200, 200, 400]
    assert "max_batch_items" in results[3]["error"]["errors"][0]["message"]


def test_a_body_over_the_body_limit_is_refused_before_any_work(client_with_three_items_at_most):
    small = json.dumps({"id": "small", "tournament": {"rounds": 1, "players": [{"id": 1}]}}).encode()
    response = client_with_three_items_at_most.post(
        "/v1/standings/batch", content=(small + b"\n") * 60, headers={"content-type": NDJSON}
    )
    assert response.status_code == 413
    assert response.headers["content-type"] == "application/problem+json"


def test_ten_thousand_items_stream_in_order(client):
    small = {
        "tournament": {
            "rounds": 1,
            "players": [
                {"id": 1, "results": [{"round": 1, "opponent": 2, "color": "w", "result": "win"}]},
                {"id": 2, "results": [{"round": 1, "opponent": 1, "color": "b", "result": "loss"}]},
            ],
        },
        "tiebreaks": ["SB"],
        "explain": False,
    }
    body = b"".join(json.dumps({**small, "id": i}).encode() + b"\n" for i in range(10_000))
    with client.stream("POST", "/v1/standings/batch", content=body, headers={"content-type": NDJSON}) as response:
        count = 0
        for count, line in enumerate(response.iter_lines(), start=1):
            item = json.loads(line)
            assert item["id"] == item["index"] == count - 1 and item["status"] == 200
    assert count == 10_000


class LeavesAfterTheFirstLine:
    """A raw ASGI client of a batch: it sends `body` (in chunks of `chunk_size` bytes), and goes away
    once the first line of the answer came back."""

    def __init__(self, body: bytes, chunk_size: int | None = None):
        size = chunk_size or len(body)
        self.chunks = [body[i : i + size] for i in range(0, len(body), size)]
        self.first_line_sent = anyio.Event()
        self.lines: list[bytes] = []
        self.gone = False  # the disconnect handed to the app

    async def receive(self) -> dict:
        if self.chunks and not self.first_line_sent.is_set():
            chunk = self.chunks.pop(0)
            return {"type": "http.request", "body": chunk, "more_body": bool(self.chunks)}
        await self.first_line_sent.wait()
        self.gone = True
        return {"type": "http.disconnect"}

    async def send(self, message: dict) -> None:
        if message["type"] == "http.response.body" and message.get("body"):
            self.lines.append(message["body"])
            self.first_line_sent.set()


@pytest.mark.parametrize("chunk_size", [None, 4096], ids=["body-in-one-message", "body-in-chunks"])
def test_a_client_disconnect_stops_the_work(monkeypatch, chunk_size):
    """The real app over raw ASGI: the client goes away after the first line; no further item is computed."""
    started = []
    original = batch.run_item

    def counting_run_item(*args):
        started.append(args[0])
        return original(*args)

    monkeypatch.setattr(batch, "run_item", counting_run_item)
    items = 300
    body = b"".join(
        json.dumps({"id": i, "trf": ALEKHINE, "tiebreaks": ["BH", "SB"]}).encode() + b"\n" for i in range(items)
    )
    client = LeavesAfterTheFirstLine(body, chunk_size)
    scope = batch_scope(body)

    async def main():
        with anyio.fail_after(30):
            await app(scope, client.receive, client.send)
        await anyio.sleep(0.2)  # nothing keeps running in the background

    anyio.run(main)
    assert 1 <= len(client.lines) < 5
    assert len(started) < 5, f"{len(started)} of {items} items were started after the client left"


# ---- items in flight: the event loop and an idle compute worker together ----


def test_with_a_worker_started_items_are_computed_on_the_loop_and_in_the_worker_and_stay_in_order():
    """As `tiebreak serve` runs it (a worker started with the app): the batch keeps the loop and
    the idle worker busy together; the lines are the same as one at a time, in input order."""
    from tiebreak.http.ops import OpsConfig

    items = [{**MIXED[i % len(MIXED)], "id": i} for i in range(60)]
    with TestClient(app) as one_at_a_time:
        expected = lines_of(one_at_a_time.post("/v1/standings/batch", json=items))
    with TestClient(create_app(LIMITS, OpsConfig(prestart_workers=True))) as c:
        got = lines_of(c.post("/v1/standings/batch", json=items))
        metrics = c.get("/metrics").text
    assert got == expected
    assert [line["index"] for line in got] == list(range(60))
    computed = {
        lane: float(line.rsplit(" ", 1)[1])
        for line in metrics.splitlines()
        if line.startswith("tiebreak_compute_total{")
        for lane in ("inline", "pool")
        if f'"{lane}"' in line
    }
    assert computed.get("pool", 0) >= 1 and computed.get("inline", 0) >= 1, computed


def test_items_in_flight_leave_workers_for_single_requests():
    assert batch.items_in_flight(replace(LIMITS, compute_workers=1)) == 2
    assert batch.items_in_flight(replace(LIMITS, compute_workers=4)) == 3


def test_a_disconnect_with_items_in_a_worker_stops_the_work():
    """With a worker started: the client goes away after the first line; the items in flight are
    cancelled (a worker computing one or a group is killed and replaced) and no more items are
    started than may be taken ahead of the line awaited."""
    from tiebreak.http.ops import OpsConfig

    started = []  # items started once the disconnect was handed to the app
    original, original_group = batch.run_item, batch.run_items

    def counting_run_item(*args):
        if client.gone:
            started.append(args[0])
        return original(*args)

    def counting_run_items(first, raws, *args):  # a group of items for the worker
        if client.gone:
            started.extend(range(first, first + len(raws)))
        return original_group(first, raws, *args)

    items = 200
    body = b"".join(
        json.dumps({"id": i, "trf": ALEKHINE, "tiebreaks": ["BH", "SB"]}).encode() + b"\n" for i in range(items)
    )
    client = LeavesAfterTheFirstLine(body)
    test_app = create_app(LIMITS, OpsConfig(prestart_workers=True))
    scope = batch_scope(body)

    async def main():
        from tiebreak.http.handling import start_gate, stop_gate

        await start_gate(test_app)
        try:
            with anyio.fail_after(30):
                await test_app(scope, client.receive, client.send)
            await anyio.sleep(0.2)  # nothing keeps running in the background
            # at most what may be taken ahead of the line awaited: the runners and one more, and
            # while the worker computes a group of small items, the group and as many again
            window = batch.items_in_flight(LIMITS) + 1 + 2 * batch.CHUNK_ITEMS
            assert len(started) <= window, f"{len(started)} of {items} items were started after the client left"
        finally:
            await stop_gate(test_app)

    import unittest.mock

    with (
        unittest.mock.patch.object(batch, "run_item", counting_run_item),
        unittest.mock.patch.object(batch, "run_items", counting_run_items),
    ):
        anyio.run(main)
    assert 1 <= len(client.lines) < 5


def test_a_group_of_items_answers_each_as_it_would_alone():
    """The "items" job a worker gets for a group of small items (batch.run_items): each item is
    read, priced and answered as an "item" job of its own, errors included, in order."""
    from tiebreak.compute import work

    raws = [json.dumps({**MIXED[i % len(MIXED)], "id": i}).encode() for i in range(7)]
    alone = b"".join(
        work.execute(work.Job(kind="item", body=raw, limits=LIMITS, index=10 + i)).body for i, raw in enumerate(raws)
    )
    grouped = work.execute(work.Job(kind="items", body=msgspec.msgpack.encode(raws), limits=LIMITS, index=10))
    assert grouped.status == 200 and grouped.body == alone
    assert [json.loads(line)["index"] for line in grouped.body.splitlines()] == list(range(10, 17))
    assert {json.loads(line)["status"] for line in grouped.body.splitlines()} > {200}  # bad items are lines
