"""A function over a list of items in forked worker processes, the results in order: what
`tiebreak batch --jobs N` and `tiebreak check --jobs N` run their chunks of files with.

multiprocessing's Pool does the same with three threads in the parent (tasks, results,
workers) taking turns at the interpreter with the one writing the output: about 80 ms of the
parent's CPU for 1,000 small files on a 2-core machine, CPU the workers then lack. Here the
parent is one thread: the workers are forked with the items already in their memory, told
which one to do next by its index (4 bytes), and answer with the pickled result; the parent
waits on all their pipes at once (selectors) and hands each worker the next index as soon
as it answers, so the work is shared as it goes, as with Pool.imap.

A worker that dies (killed, out of memory) ends the map with a RuntimeError naming its
item, instead of waiting for it forever; the others are killed. Without os.fork (Windows),
multiprocessing's spawn Pool does the work.
"""

from __future__ import annotations

import os
import pickle
import selectors
import signal
import struct
from collections.abc import Callable, Iterator

_INDEX = struct.Struct(">I")
_LENGTH = struct.Struct(">Q")
_STOP = 0xFFFFFFFF


def ordered_map(function: Callable, items: list, jobs: int, initializer: Callable | None = None,
                initargs: tuple = ()) -> Iterator:
    """`function(item)` for every item, in `jobs` worker processes; yielded in the items' order."""
    if not hasattr(os, "fork"):  # pragma: no cover - Windows
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(jobs, initializer, initargs) as pool:
            yield from pool.imap(function, items)
        return
    workers: list[_Worker] = []
    for _ in range(min(jobs, len(items))):
        workers.append(_start(function, items, initializer, initargs, workers))
    selector = selectors.DefaultSelector()
    finished = False
    try:
        next_item = 0
        for worker in workers:
            next_item = _assign(worker, next_item, len(items))
            selector.register(worker.results, selectors.EVENT_READ, worker)
        done: dict[int, object] = {}
        emitted = 0
        while emitted < len(items):
            while emitted in done:
                yield done.pop(emitted)
                emitted += 1
            if emitted == len(items):
                break
            for key, _ in selector.select():
                worker = key.data
                done[worker.item] = _receive(worker)
                next_item = _assign(worker, next_item, len(items))
        finished = True
    finally:
        selector.close()
        for worker in workers:  # idle after a whole map; otherwise (an error, Ctrl-C) killed at once
            worker.stop(kill=not finished)


class _Worker:
    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid, self.tasks, self.results = pid, tasks, results
        self.item = -1  # the item it is working on

    def stop(self, kill: bool) -> None:
        """Tell it to exit (kill it when it cannot be told, or `kill`) and wait for it."""
        try:
            if kill:
                raise OSError
            os.write(self.tasks, _INDEX.pack(_STOP))
        except OSError:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for fd in (self.tasks, self.results):
            try:
                os.close(fd)
            except OSError:
                pass
        os.waitpid(self.pid, 0)


def _start(function: Callable, items: list, initializer, initargs, earlier: list[_Worker]) -> _Worker:
    task_read, task_write = os.pipe()
    result_read, result_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker
        status = 1
        try:
            for fd in (task_write, result_read, *(fd for w in earlier for fd in (w.tasks, w.results))):
                os.close(fd)  # the other workers' pipes: each sees the end of its own when the parent closes it
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the parent stops the workers
            if initializer is not None:
                initializer(*initargs)
            with open(task_read, "rb", buffering=0) as tasks, open(result_write, "wb", buffering=0) as results:
                while len(head := tasks.read(_INDEX.size)) == _INDEX.size:
                    (index,) = _INDEX.unpack(head)
                    if index == _STOP:
                        break
                    data = pickle.dumps(function(items[index]), pickle.HIGHEST_PROTOCOL)
                    results.write(_LENGTH.pack(len(data)) + data)
            status = 0
        finally:
            os._exit(status)
    os.close(task_read)
    os.close(result_write)
    return _Worker(pid, task_write, result_read)


def _assign(worker: _Worker, next_item: int, count: int) -> int:
    if next_item < count:
        worker.item = next_item
        os.write(worker.tasks, _INDEX.pack(next_item))
        return next_item + 1
    worker.item = -1
    return next_item


def _receive(worker: _Worker) -> object:
    head = read_exactly(worker.results, _LENGTH.size)
    if head is None:
        raise RuntimeError(f"a worker process died while working on item {worker.item}")
    data = read_exactly(worker.results, _LENGTH.unpack(head)[0])
    if data is None:
        raise RuntimeError(f"a worker process died while answering item {worker.item}")
    return pickle.loads(data)


def read_exactly(fd: int, size: int) -> bytes | None:
    parts, left = [], size
    while left:
        part = os.read(fd, min(left, 1 << 20))
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)
