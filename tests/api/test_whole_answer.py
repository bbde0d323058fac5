"""A large answer is finished around its rows' buffer (convert.standings_to_wire, whole_answer):
the JSON must be exactly the answer's own encoding."""

from __future__ import annotations

import msgspec
import pytest

from tiebreak.api import convert, work
from tiebreak.api.limits import LIMITS
from tiebreak.synthetic import swiss_wire

RULES = ["BH/C1", "SB", "PS", "DE", "ARO", "WIN"]


@pytest.mark.parametrize("extra", [{}, {"top": 7}, {"player": [3, 9]}, {"explain": False}, {"offset": 5, "top": 4}])
def test_the_whole_answer_is_the_encoding_of_the_response(monkeypatch, extra):
    body = msgspec.json.encode({"tournament": swiss_wire(40, 7, 3), "tiebreaks": RULES, **extra})
    job = work.Job(kind="standings", body=body, limits=LIMITS)
    as_objects = work.execute(job)
    monkeypatch.setattr(convert, "IN_PLACE_MIN_BYTES", 0)  # every answer finished in place
    in_place = work.execute(job)
    assert in_place.status == as_objects.status == 200
    assert bytes(in_place.body) == as_objects.body
    assert msgspec.json.decode(in_place.body)["standings"]


def test_a_batch_item_never_carries_the_whole_answer(monkeypatch):
    monkeypatch.setattr(convert, "IN_PLACE_MIN_BYTES", 0)
    item = msgspec.json.encode({"id": "a", "tournament": swiss_wire(12, 5, 2), "tiebreaks": RULES})
    answer = work.execute(work.Job(kind="item", body=item, limits=LIMITS, index=0))
    line = msgspec.json.decode(answer.body)
    assert line["status"] == 200 and line["result"]["standings"][0]["breakdown"]


def test_a_job_can_leave_what_it_read_to_be_freed_after_its_answer():
    """work.execute's `held`: the worker frees the request as read once the answer is written."""
    body = msgspec.json.encode({"tournament": swiss_wire(30, 5, 4), "tiebreaks": RULES})
    job = work.Job(kind="standings", body=body, limits=LIMITS)
    held: list = []
    answer = work.execute(job, held)
    assert answer.body == work.execute(job).body
    assert len(held) == 1 and isinstance(held[0], work.Task)
    refused = work.execute(work.Job(kind="standings", body=b"{", limits=LIMITS), held)
    assert refused.status == 400 and len(held) == 1  # nothing was read: nothing held
