"""The commands' worker processes: `work(item)` for many items in a process pool, the results in
the items' order, and a run that stops naming the item whose worker died."""

from __future__ import annotations

import os
import signal

from ..texts.catalogue import current
from ..texts.message import msg


def chunk_size(count: int, jobs: int, largest: int) -> int:
    """Items per message: at most `largest` (the output keeps flowing), and at least four
    messages per worker, so that the workers share the last ones and finish close together."""
    return max(1, min(largest, count // (jobs * 4)))


class WorkerDied(RuntimeError):
    """A worker process ended without answering (killed, out of memory): the run stops."""


# Set in each worker process by its initializer, never in the command's own process.
_slots = None  # worker processes: the item each one is on (-1: none), by slot
_slot = -1
_work = None


def _start_worker(slots, taken, work, initializer, initargs) -> None:
    global _slots, _slot, _work
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the parent stops the run
    with taken.get_lock():
        _slot, taken.value = taken.value, taken.value + 1
    _slots, _work = slots, work

    def stopped(signum, frame) -> None:
        """When one worker died, the pool stops the others with SIGTERM: their items are not the lost one."""
        slots[_slot] = -1
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stopped)
    if initializer is not None:
        initializer(*initargs)


def _tracked(index: int, item):
    assert _slots is not None and _work is not None  # set by _start_worker, before any item
    _slots[_slot] = index
    result = _work(item)
    _slots[_slot] = -1
    return result


def in_processes(work, items: list, jobs: int, chunksize: int, name_of, initializer=None, initargs=()):
    """`work(item)` for every item in `jobs` worker processes (concurrent.futures'
    ProcessPoolExecutor, forked where the system can: the workers start with what the command
    has imported), yielded in the items' order as they come.

    A worker that dies ends the run with WorkerDied naming its item (`name_of(item)`), instead
    of waiting for it: each worker notes the item it is on in shared memory, and the others,
    which the pool then stops with SIGTERM, clear theirs as they go."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    jobs = max(1, min(jobs, len(items)))
    slots = context.Array("q", [-1] * jobs, lock=False)
    taken = context.Value("i", 0)
    pool = ProcessPoolExecutor(jobs, context, _start_worker, (slots, taken, work, initializer, initargs))
    done = 0
    try:
        for result in pool.map(_tracked, range(len(items)), items, chunksize=chunksize):
            yield result
            done += 1
    except BrokenProcessPool:
        pool.shutdown(wait=True)  # every worker gone: the stopped ones have cleared their slots
        lost = [index for index in slots if index >= 0] or [done]
        raise WorkerDied(
            current(
                msg(
                    "a worker process died (killed, or out of memory) while working on {name} (item {item} of "
                    "{count}); the run stopped after {done} results, in order",
                    name=name_of(items[lost[0]]),
                    item=lost[0] + 1,
                    count=len(items),
                    done=done,
                )
            )
        ) from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # an error or Ctrl-C: only the running chunks finish
