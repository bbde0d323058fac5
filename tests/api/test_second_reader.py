"""A large body's later players read by a second process (service/tiebreak/api/second_reader.py): the
answer, or the refusal, is exactly that of one process reading the whole body, and anything
out of the ordinary (a refused value, an arbiter's points, the process gone) falls back to it."""

from __future__ import annotations

import json
import os
import signal
from dataclasses import replace

import msgspec
import pytest
from litestar.testing import TestClient

from tiebreak.api import limits, second_reader, work
from tiebreak.api.app import create_app
from tiebreak.api.limits import LIMITS
from tiebreak.synthetic import swiss_wire

pytestmark = pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="the second reader needs fork and memfd")

RULES = ["BH/C1", "SB", "PS", "DE", "ARO", "WIN"]
LARGE = replace(LIMITS, max_cost_s=1e6, max_memory_mib=1 << 20, max_response_bytes=1 << 40)


def event(players: int = 60, rounds: int = 7, seed: int = 3) -> dict:
    tournament = swiss_wire(players, rounds, seed=seed)
    for i, p in enumerate(tournament["players"]):  # identities and keys ride along with the players
        if i % 3 == 0:
            p.update(key=f"key-{p['id']}", federation="NOR", title="FM")
    return tournament


@pytest.fixture
def second(monkeypatch):
    """The second process running, for bodies of 20 players and more, however small."""
    monkeypatch.setattr(second_reader, "MIN_PLAYERS", 20)
    monkeypatch.setattr(limits, "PRESCAN_BYTES", 0)
    assert second_reader.start()
    yield
    second_reader.stop()


def answered(body: bytes, two: bool) -> tuple[int, bytes, int]:
    """Status, body and how many bodies the two processes read, with the second process's help
    (`two`) or without."""
    before = second_reader.reads
    if two:
        answer = work.execute(work.Job(kind="standings", body=body, limits=LARGE))
    else:
        process, second_reader._second = second_reader._second, None
        try:
            answer = work.execute(work.Job(kind="standings", body=body, limits=LARGE))
        finally:
            second_reader._second = process
    return answer.status, bytes(answer.body), second_reader.reads - before


def same_as_one_process(body: bytes) -> tuple[int, int]:
    one = answered(body, two=False)
    two = answered(body, two=True)
    assert two[:2] == one[:2]
    assert one[2] == 0
    return two[0], two[2]


@pytest.mark.parametrize("selection", [{}, {"player": [7, 60]}, {"explain": False, "top": 9}])
@pytest.mark.parametrize("indent", [None, 2])
def test_two_processes_answer_as_one(second, selection, indent):
    request = {"tournament": event(), "tiebreaks": RULES, **selection}
    body = json.dumps(request, indent=indent).encode() if indent else msgspec.json.encode(request)
    assert same_as_one_process(body) == (200, 1)


def test_integral_floats_in_the_later_half_are_integers_there_too(second):
    tournament = event()
    tournament["players"][50]["results"][0]["round"] = 1.0
    tournament["players"][55]["rating"] = 2000.0
    body = msgspec.json.encode({"tournament": tournament, "tiebreaks": RULES})
    assert same_as_one_process(body) == (200, 1)


@pytest.mark.parametrize("where", [5, 50])
def test_a_value_refused_in_either_half_is_refused_as_one_process_refuses_it(second, where):
    tournament = event()
    tournament["players"][where]["results"][1]["result"] = "winn"
    status, reads = same_as_one_process(msgspec.json.encode({"tournament": tournament, "tiebreaks": RULES}))
    assert (status, reads) == (400, 0)
    refusal = json.loads(answered(msgspec.json.encode({"tournament": tournament}), two=True)[1])
    assert refusal["errors"][0]["path"] == f"tournament.players[{where}].results[1].result"


def test_a_field_after_the_players_is_checked_as_ever(second):
    request = {"tournament": event(), "tiebreaks": ["BH", 5]}
    assert same_as_one_process(msgspec.json.encode(request)) == (400, 0)


def test_an_arbiters_points_are_read_by_one_process(second):
    tournament = event()
    tournament["players"][52]["results"][0]["points"] = 0.25
    assert same_as_one_process(msgspec.json.encode({"tournament": tournament, "tiebreaks": RULES})) == (200, 0)
    tournament["players"][52]["results"][0]["points"] = 0.125  # more decimals than allowed: refused
    assert same_as_one_process(msgspec.json.encode({"tournament": tournament, "tiebreaks": RULES}))[0] == 422


def test_a_start_number_given_in_both_halves_is_refused_as_ever(second):
    tournament = event()
    tournament["players"][55]["id"] = tournament["players"][3]["id"]
    assert same_as_one_process(msgspec.json.encode({"tournament": tournament, "tiebreaks": RULES}))[0] == 422


def test_a_second_process_gone_leaves_the_worker_reading_alone(second, capfd):
    body = msgspec.json.encode({"tournament": event(), "tiebreaks": RULES, "player": 3})
    expected = answered(body, two=False)[:2]
    os.kill(second_reader._second.pid, signal.SIGKILL)
    assert answered(body, two=True) == (*expected, 0)
    assert not second_reader.available()
    assert "second reader lost" in capfd.readouterr().err


def test_too_few_players_are_read_by_one_process(second, monkeypatch):
    monkeypatch.setattr(second_reader, "MIN_PLAYERS", 61)
    assert same_as_one_process(msgspec.json.encode({"tournament": event(), "tiebreaks": RULES})) == (200, 0)


def test_the_real_worker_reads_a_large_body_as_one_process_does():
    """The gate's compute worker (a real process; its second process runs where the machine
    has two CPUs) answers a body over the pre-scan's size with thousands of players as one
    process does in this test's own process."""
    request = {"tournament": event(second_reader.MIN_PLAYERS + 200, 9, seed=5), "tiebreaks": RULES,
               "player": [1, 2000]}
    body = msgspec.json.encode(request)
    assert len(body) > limits.PRESCAN_BYTES
    expected = answered(body, two=False)
    with TestClient(create_app(LARGE)) as client:
        response = client.post("/v1/standings", content=body,
                               headers={"content-type": "application/json", "accept-encoding": "identity"})
    assert (response.status_code, response.content) == expected[:2]
