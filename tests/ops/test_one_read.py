"""Each body is read once on whatever path it takes through the gate (decision 0149): a cheap one
is decoded, planned and priced on the event loop; one bounded over the inline budget is decoded
there for its bound and planned only by the worker that computes it; a large one is decoded and
planned by the worker alone. A team event is read once, in its plan, for every round of a
progression. The worker is this process here (`Pool.run` runs the job as the worker would), so
that the reads can be counted where they happen."""

from __future__ import annotations

import asyncio
import collections
import gzip
from dataclasses import replace

import msgspec
import pytest

import tiebreak
from tiebreak.compute import work
from tiebreak.compute.gate import Gate, Pool
from testkit.synthetic import swiss_wire
from tiebreak.usecases import requests, teams
from tiebreak.wire.limits import LIMITS, Deadline
from testkit.conformance_teams import load_team_cases

RULES = ["BH/C1", "BH", "SB", "PS", "DE"]


@pytest.fixture
def reads(monkeypatch):
    """Decodes and plans counted by where they happen: "loop", or "worker" inside Pool.run."""
    counted: collections.Counter[tuple[str, str]] = collections.Counter()
    where = ["loop"]

    def decode(*args, **kwargs):
        counted["decode", where[0]] += 1
        return decoding(*args, **kwargs)

    decoding = work.decode
    monkeypatch.setattr(work, "decode", decode)
    for kind, case in list(requests.KINDS.items()):

        def plan(*args, _plan=case.plan, **kwargs):
            counted["plan", where[0]] += 1
            return _plan(*args, **kwargs)

        monkeypatch.setitem(requests.KINDS, kind, replace(case, plan=plan))

    async def in_the_worker(self, job, deadline, shed):
        where[0] = "worker"
        try:
            return work.execute(job)
        finally:
            where[0] = "loop"

    monkeypatch.setattr(Pool, "run", in_the_worker)
    return counted


def answered(body: bytes, kind: str = "standings") -> work.Answer:
    async def run() -> work.Answer:
        return await Gate(LIMITS, asyncio.get_running_loop()).run(work.Job(kind, body, LIMITS), Deadline(LIMITS))

    return asyncio.run(run())


def trf_body(players: int, rounds: int, explain: bool) -> bytes:
    text = tiebreak.write_trf(swiss_wire(players, rounds, seed=7))
    return msgspec.json.encode({"trf": text, "tiebreaks": RULES, "explain": explain})


def price_ms(body: bytes) -> float:
    """What the plan prices the body at, in milliseconds."""
    reading = work.read(work.Job("standings", body, LIMITS))
    assert isinstance(reading, work.Reading)
    task = work.planned(reading)
    assert isinstance(task, work.Task)
    return task.estimate.seconds * 1000


def test_a_cheap_body_is_decoded_planned_and_computed_on_the_loop_once(reads):
    body = trf_body(12, 5, explain=False)
    assert price_ms(body) < LIMITS.inline_max_cost_ms
    reads.clear()
    assert answered(body).status == 200
    assert reads == {("decode", "loop"): 1, ("plan", "loop"): 1}


def test_a_small_body_bounded_over_the_inline_budget_is_planned_by_the_worker_alone(reads):
    body = trf_body(80, 9, explain=True)  # every breakdown: over the inline budget
    assert len(body) < Gate(LIMITS, None).inline_body_bytes and price_ms(body) > LIMITS.inline_max_cost_ms
    reads.clear()
    assert answered(body).status == 200
    # decoded on the loop for its bound, then by the worker, which plans and prices it
    assert reads == {("decode", "loop"): 1, ("decode", "worker"): 1, ("plan", "worker"): 1}


def test_a_large_body_is_read_by_the_worker_alone(reads):
    body = msgspec.json.encode({"tournament": swiss_wire(800, 9, seed=3), "tiebreaks": RULES, "explain": False})
    assert len(body) > Gate(LIMITS, None).inline_body_bytes
    assert answered(body).status == 200
    assert reads == {("decode", "worker"): 1, ("plan", "worker"): 1}


def test_a_body_that_breaks_the_schema_is_answered_on_the_loop_unplanned(reads):
    answer = answered(b'{"trf": 5}')
    assert answer.status == 400
    assert reads == {("decode", "loop"): 1}


def test_the_bound_placing_a_body_is_no_less_than_its_price():
    """The loop computes what its bound finds cheap: the plan must never price it higher."""
    for players, rounds, explain in [(12, 5, False), (40, 9, True), (40, 9, False), (150, 11, False)]:
        body = trf_body(players, rounds, explain)
        reading = work.read(work.Job("standings", body, LIMITS), bounded=True)
        assert isinstance(reading, work.Reading) and reading.bound is not None
        assert reading.bound.seconds * 1000 >= price_ms(body), (players, rounds, explain)


def test_a_team_event_is_read_once_for_every_round_of_its_progression(monkeypatch):
    case = next(c for c in load_team_cases() if c.data["kind"] == "team")
    calls = collections.Counter()
    reading = teams.read_team_event

    def read_team_event(body):
        calls["read"] += 1
        return reading(body)

    monkeypatch.setattr(teams, "read_team_event", read_team_event)  # what prepare_team reads with
    body = msgspec.json.encode(case.body)
    answer = work.execute(work.Job("progression", body, LIMITS))
    assert answer.status == 200, answer.body
    rounds = msgspec.json.decode(answer.body)["rounds"]
    assert len(rounds) > 1 and calls["read"] == 1


def test_the_gate_gzips_an_inline_answer_as_the_worker_does():
    """One gzip: work.gzipped, on the loop (in a thread when large) and in a worker alike."""
    body = trf_body(12, 5, explain=False)
    job = work.Job("standings", body, LIMITS, gzip_min_bytes=1, gzip_level=5)
    worker = work.execute(job)

    async def inline() -> work.Answer:
        return await Gate(LIMITS, asyncio.get_running_loop()).run(job, Deadline(LIMITS))

    on_the_loop = asyncio.run(inline())
    assert on_the_loop.gzipped and worker.gzipped
    assert on_the_loop.body == worker.body  # the same compressor, level and header
    assert gzip.decompress(on_the_loop.body) == work.execute(msgspec.structs.replace(job, gzip_min_bytes=0)).body
