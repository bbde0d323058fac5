"""service/tiebreak/process_pool.py: the batch's worker processes (results in order, shared as they go,
a dead worker reported, no process left behind)."""

from __future__ import annotations

import os
import signal
import time

import pytest

from tiebreak.process_pool import ordered_map

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forked workers need os.fork (POSIX)")

_factor = 1


def _set_factor(value: int) -> None:
    global _factor
    _factor = value


def _work(item: int) -> tuple[int, int, int]:
    time.sleep(0.002 * (item % 3))  # uneven items: the answers come back out of order
    return item, item * _factor, os.getpid()


def _children() -> set[int]:
    """This process's live children."""
    me = str(os.getpid())
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me and fields[0] != "Z":
                found.add(int(entry))
    return found


def test_every_result_comes_back_in_order_from_several_workers_with_their_initializer():
    before = _children()
    results = list(ordered_map(_work, list(range(60)), 3, _set_factor, (7,)))
    assert [(item, value) for item, value, _ in results] == [(i, 7 * i) for i in range(60)]
    assert len({pid for _, _, pid in results}) == 3 and os.getpid() not in {pid for _, _, pid in results}
    assert _children() == before  # every worker has exited and been waited for


def test_more_workers_than_items_and_no_items():
    assert [r[0] for r in ordered_map(_work, [5, 6], 8)] == [5, 6]
    assert list(ordered_map(_work, [], 4)) == []


def _dies_on_13(item: int) -> int:
    if item == 13:
        os.kill(os.getpid(), signal.SIGKILL)
    return item


def test_a_worker_that_dies_ends_the_map_naming_its_item_and_the_others_are_stopped():
    before = _children()
    got = []
    with pytest.raises(RuntimeError, match="item 13"):
        for value in ordered_map(_dies_on_13, list(range(40)), 2):
            got.append(value)
    assert got == list(range(len(got))) and len(got) <= 13  # in order, up to the lost item at most
    assert _children() == before


def test_a_consumer_that_stops_early_leaves_no_worker_behind():
    before = _children()
    results = ordered_map(_work, list(range(100)), 2)
    assert next(results)[0] == 0
    results.close()
    assert _children() == before
