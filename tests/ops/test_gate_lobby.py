"""The pool lane's lobby (decision 0201): a request that finds the queue full waits its turn.

The lane is driven directly: a "job" is a slot taken with `acquire` and held until the test
calls `release`, so nothing here depends on how fast the machine is. The lobby's wait bound is
either far away (600 s: never reached) or zero (reached on the first turn of the loop).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from tiebreak.compute.gate import POOL_LOBBY, Lane, Pool
from tiebreak.wire.limits import LIMITS, Deadline, Unavailable

FAR = Deadline(replace(LIMITS, compute_deadline_s=600.0)).limits


async def settle() -> None:
    """Let every task that can run, run (each step of the lane is one turn of the loop)."""
    for _ in range(10):
        await asyncio.sleep(0)


def test_a_request_queued_first_in_the_lobby_is_admitted_before_later_ones():
    async def scenario() -> list[str]:
        lane = Lane("pool", capacity=1, queue=1, lobby=4, lobby_wait_s=600.0)
        admitted: list[str] = []

        async def request(name: str) -> None:
            await lane.acquire(Deadline(FAR), shed=True)
            admitted.append(name)

        tasks = [asyncio.create_task(request("small-1"))]  # takes the slot
        await settle()
        tasks.append(asyncio.create_task(request("small-2")))  # the queue's one place
        await settle()
        tasks.append(asyncio.create_task(request("large")))  # queue full: the lobby, not a 503
        await settle()
        for name in ("small-3", "small-4"):  # arrive after it, while places keep freeing
            tasks.append(asyncio.create_task(request(name)))
            await settle()
        assert admitted == ["small-1"] and len(lane.lobby) == 3
        for _ in range(4):
            lane.release()
            await settle()
        await asyncio.gather(*tasks)
        return admitted

    assert asyncio.run(scenario()) == ["small-1", "small-2", "large", "small-3", "small-4"]


def test_without_a_lobby_the_request_that_finds_the_queue_full_is_shed():
    async def scenario() -> None:
        lane = Lane("pool", capacity=1, queue=1)  # what the lane did before decision 0201
        await lane.acquire(Deadline(FAR), shed=True)
        queued = asyncio.create_task(lane.acquire(Deadline(FAR), shed=True))
        await settle()
        with pytest.raises(Unavailable):
            await lane.acquire(Deadline(FAR), shed=True)
        lane.release()
        await queued

    asyncio.run(scenario())


def test_a_full_lobby_sheds_at_once_with_retry_after():
    async def scenario() -> None:
        lane = Lane("pool", capacity=1, queue=1, lobby=1, lobby_wait_s=600.0)
        await lane.acquire(Deadline(FAR), shed=True)
        waiting = [asyncio.create_task(lane.acquire(Deadline(FAR), shed=True)) for _ in range(2)]
        await settle()
        assert len(lane.waiters) == 1 and len(lane.lobby) == 1
        with pytest.raises(Unavailable) as shed:
            await lane.acquire(Deadline(FAR), shed=True)
        assert shed.value.reason == "saturated" and shed.value.retry_after_s == 1
        for _ in range(3):
            lane.release()
            await settle()
        await asyncio.gather(*waiting)
        assert lane.busy == 0 and not lane.waiters and not lane.lobby

    asyncio.run(scenario())


def test_a_request_past_the_lobby_wait_gets_todays_503_and_leaves_the_lobby():
    async def scenario() -> None:
        lane = Lane("pool", capacity=1, queue=1, lobby=4, lobby_wait_s=0.0)
        await lane.acquire(Deadline(FAR), shed=True)
        queued = asyncio.create_task(lane.acquire(Deadline(FAR), shed=True))
        await settle()
        with pytest.raises(Unavailable) as shed:
            await lane.acquire(Deadline(FAR), shed=True)  # nobody releases: its wait is over
        assert shed.value.reason == "saturated" and shed.value.retry_after_s == 1
        assert not lane.lobby and len(lane.waiters) == 1
        lane.release()
        await queued
        lane.release()
        assert lane.busy == 0

    asyncio.run(scenario())


def test_a_waiting_request_whose_client_disconnects_leaves_the_queue_and_the_lobby():
    async def scenario() -> list[str]:
        lane = Lane("pool", capacity=1, queue=1, lobby=4, lobby_wait_s=600.0)
        admitted: list[str] = []

        async def request(name: str) -> None:
            await lane.acquire(Deadline(FAR), shed=True)
            admitted.append(name)

        await lane.acquire(Deadline(FAR), shed=True)
        tasks = {name: asyncio.create_task(request(name)) for name in ("queued", "lobby-1", "lobby-2", "lobby-3")}
        await settle()
        assert len(lane.waiters) == 1 and len(lane.lobby) == 3
        tasks["lobby-2"].cancel()  # the client left while in the lobby
        await settle()
        assert len(lane.lobby) == 2
        tasks["queued"].cancel()  # and one left while in the queue: the lobby's head moves up
        await settle()
        assert len(lane.waiters) == 1 and len(lane.lobby) == 1
        for _ in range(3):
            lane.release()
            await settle()
        await asyncio.gather(tasks["lobby-1"], tasks["lobby-3"])
        assert lane.busy == 0 and not lane.waiters and not lane.lobby
        return admitted

    assert asyncio.run(scenario()) == ["lobby-1", "lobby-3"]


def test_the_pool_lane_has_a_lobby():
    lane = Pool(LIMITS).lane
    assert lane.lobby_size == POOL_LOBBY > 0 and lane.lobby_wait_s > 0


def test_the_lobby_is_ordered_by_when_requests_began_and_an_older_one_displaces_the_youngest():
    # A large body's reading takes long: requests that began after it reach the gate first.
    async def scenario() -> tuple[list[str], list[str]]:
        lane = Lane("pool", capacity=1, queue=1, lobby=2, lobby_wait_s=600.0)
        admitted: list[str] = []
        shed: list[str] = []
        began = Deadline(FAR).since

        async def request(name: str, since: float) -> None:
            try:
                await lane.acquire(Deadline(FAR, since), shed=True)
            except Unavailable:
                shed.append(name)
            else:
                admitted.append(name)

        await lane.acquire(Deadline(FAR), shed=True)
        tasks = []
        for name, since in (("queued", began + 1), ("small-1", began + 2), ("small-2", began + 3)):
            tasks.append(asyncio.create_task(request(name, since)))
            await settle()
        tasks.append(asyncio.create_task(request("large", began)))  # began before all of them, arrives last
        await settle()
        assert shed == ["small-2"]  # the youngest gave its place to the older request
        for _ in range(3):
            lane.release()
            await settle()
        await asyncio.gather(*tasks)
        return admitted, shed

    assert asyncio.run(scenario()) == (["queued", "large", "small-1"], ["small-2"])
