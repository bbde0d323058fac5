"""Every breakdown of a large event, built by forked copies of the worker (service/tiebreak/api/forked.py):
the answer's bytes are exactly those one process builds, a copy that fails is made up for,
and the real compute worker of the gate answers through them."""

from __future__ import annotations

import os
from dataclasses import replace

import msgspec
import pytest
from litestar.testing import TestClient

from tiebreak.api import forked, work
from tiebreak.api.app import create_app
from tiebreak.api.limits import LIMITS
from tiebreak.synthetic import swiss_wire

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forked copies need os.fork (POSIX)")

RULES = ["BH/C1", "BH/M1", "SB/C1", "FB", "PS", "DE", "ARO", "WIN", "KS"]
LARGE = replace(LIMITS, max_cost_s=1e6, max_memory_mib=1 << 20, max_response_bytes=1 << 40)


def whole(answer: work.Answer) -> bytes:
    return b"".join([bytes(answer.body), *map(bytes, answer.more_body or ())])


@pytest.fixture
def helpers(monkeypatch):
    """Forking on (two helpers, three processes in all), with shares of 10 rows and up."""
    monkeypatch.setattr(forked, "MIN_ROWS_PER_PART", 10)
    monkeypatch.setattr(forked, "_HELPERS", 2)


def one_process_answer(body: bytes, monkeypatch) -> bytes:
    with monkeypatch.context() as m:
        m.setattr(forked, "_HELPERS", 0)
        answer = work.execute(work.Job(kind="standings", body=body, limits=LARGE))
    assert answer.status == 200 and not answer.more_body
    return whole(answer)


@pytest.mark.parametrize("players,extra", [(45, {}), (61, {"offset": 3}), (40, {"player": [1, 7, 40]})])
def test_the_answer_built_by_copies_is_the_answer_of_one_process(helpers, monkeypatch, players, extra):
    body = msgspec.json.encode({"tournament": swiss_wire(players, 7, seed=players), "tiebreaks": RULES, **extra})
    single = one_process_answer(body, monkeypatch)
    answer = work.execute(work.Job(kind="standings", body=body, limits=LARGE))
    assert answer.status == 200
    if "player" not in extra:  # (three rows are too few to share out)
        assert len(answer.more_body) == 4  # its own rows, the two copies' and the tail (the head is the body)
    assert whole(answer) == single
    assert msgspec.json.decode(whole(answer))["standings"][0]["breakdown"]


def test_a_copy_that_fails_has_its_rows_built_by_the_worker(helpers, monkeypatch, capfd):
    body = msgspec.json.encode({"tournament": swiss_wire(50, 7, seed=8), "tiebreaks": RULES})
    single = one_process_answer(body, monkeypatch)

    def failing():  # runs first thing in each copy
        raise MemoryError("a copy that runs out of memory")

    monkeypatch.setattr(forked, "die_with_parent", failing)
    answer = work.execute(work.Job(kind="standings", body=body, limits=LARGE))
    assert whole(answer) == single
    assert "a copy that runs out of memory" in capfd.readouterr().err  # the worker's log says why


def test_a_gzipped_answer_joins_the_pieces(helpers, monkeypatch):
    import gzip

    body = msgspec.json.encode({"tournament": swiss_wire(45, 7, seed=2), "tiebreaks": RULES})
    single = one_process_answer(body, monkeypatch)
    answer = work.execute(work.Job(kind="standings", body=body, limits=LARGE, gzip_min_bytes=1))
    assert answer.gzipped and not answer.more_body
    assert gzip.decompress(answer.body) == single


def test_too_few_rows_or_no_helper_make_one_share():
    rows = list(range(2500))
    assert forked.shares(rows, helpers=0) == [rows]
    assert forked.shares([], helpers=1) == [[]]
    assert forked.shares(rows[:1999], helpers=1) == [rows[:1999]]  # under two shares' worth
    assert forked.shares(rows, helpers=1) == [rows[:1250], rows[1250:]]
    assert forked.shares(rows, helpers=5) == [rows[:1250], rows[1250:]]


def test_the_real_worker_answers_every_breakdown_of_thousands_of_players_as_one_process_does():
    """The gate's compute worker (a real process, TIEBREAK_BREAKDOWN_PROCESSES's default of 2
    where the machine has two CPUs) answers as one process does in this test's own process."""
    tournament = swiss_wire(2 * forked.MIN_ROWS_PER_PART + 100, 5, seed=4)
    request = {"tournament": tournament, "tiebreaks": ["BH/C1", "SB", "PS"]}
    expected = work.execute(work.Job(kind="standings", body=msgspec.json.encode(request), limits=LARGE))
    assert not expected.more_body  # forking is not enabled in this process
    with TestClient(create_app(LARGE)) as client:
        response = client.post("/v1/standings", json=request, headers={"accept-encoding": "identity"})
    assert response.status_code == 200
    assert response.content == whole(expected)
