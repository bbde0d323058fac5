"""The compute gate: every computation of the service goes through here.

Standings, compare, TRF conversion and every batch item are a `work.Job` (the raw
body and how to answer it). The gate

1. **places** it: a small body is decoded and checked on the event loop, and when its
   bound (what the request costs at most, from the decoded struct: usecases/bounds.py) is
   under `inline_max_cost_ms` it is read, priced and computed right there, one at a time
   (the `inline` lane: waiting requests queue, and the loop serves probes and I/O between
   two of them); everything else goes to the **pool** of `compute_workers` worker processes
   (compute/worker.py), with at most `compute_queue` requests waiting, and is read there;
2. **prices** it once, where its input is read, by the cost model (usecases/cost.py): a
   request over `max_cost_s` or `max_memory_mib` is refused at once (413);
3. **sheds**: when the pool and its queue are full `/readyz` says not ready and the
   request waits in a short FIFO lobby (a few places, a couple of seconds): a place freed
   in the queue goes to the lobby's head first; when the lobby is full, or its wait is
   over, the request is answered 503 with `Retry-After`;
4. **kills**: past the deadline (`compute_deadline_s`, from the end of reading the
   body) or when the client disconnects, the worker process computing the
   request gets SIGKILL. Its slot stays taken until the process is really gone;
   then a fresh worker is started. Python cannot stop a thread, but a process
   can be killed: no computation outlives its request.

Why processes: a thread cannot be stopped, a process can be killed at any instruction
and its memory is returned to the system at once. The price is a copy of the body to
the worker and of the answer back, which is why cheap requests stay on the loop
(docs/operations.md, "Bounded work"). No web framework here: the HTTP layer hands the
gate a Job and turns its Answer into a response.
"""

from __future__ import annotations

import asyncio
import bisect
import collections
import logging
import os
import signal
import sys
from dataclasses import dataclass

import msgspec

from ..usecases import cost
from ..wire.limits import Deadline, Limits, Unavailable, deadline_exceeded
from . import metrics, work
from .logs import note_faults
from .worker import FRAME

log = logging.getLogger("tiebreak.gate")

# Bodies up to this size (and whose decoding the cost model prices under the inline budget) are
# decoded on the loop for their bound; larger ones go to a worker unread, which decodes and reads
# them: decoding them on the loop would only find out they belong there.
INLINE_BODY_BYTES = 256 * 1024
# Headroom of a worker's data segment over the cost model's memory ceiling.
WORKER_MEMORY_HEADROOM = 1.25
SHED_RETRY_AFTER_S = 1
# Past a full pool queue, this many requests wait in FIFO order, each at most POOL_LOBBY_WAIT_S,
# for a place in the queue (decision 0201): a large request that waited its turn gets in.
POOL_LOBBY = 8
POOL_LOBBY_WAIT_S = 2.0

_job_encoder = msgspec.msgpack.Encoder()
_answer_decoder = msgspec.msgpack.Decoder(work.Answer)


class Lane:
    """`capacity` slots and at most `queue` waiters, first come first served; past the queue, a
    bounded `lobby` where a request waits at most `lobby_wait_s` for a place in the queue.

    The lobby is what lets a large request that waited its turn in: without it, a request that
    finds the queue full is shed, and under saturation the queue's free place goes to whoever
    arrives first after it frees, which is nearly always a frequent small request (issue 39,
    point 14; decision 0201). The lobby is FIFO and always moves up into the queue before a
    newcomer may enter it.
    """

    def __init__(self, name: str, capacity: int, queue: int, lobby: int = 0, lobby_wait_s: float = 0.0):
        self.name = name
        self.capacity = max(1, capacity)
        self.queue = max(0, queue)
        self.lobby_size = max(0, lobby)
        self.lobby_wait_s = lobby_wait_s
        self.busy = 0
        self.waiters: collections.deque[asyncio.Future] = collections.deque()
        # (since, arrival number, waiter), oldest first: the request that began first goes first.
        self.lobby: list[tuple[float, asyncio.Future]] = []
        # The lane's gauges, looked up once: _publish runs four times a request.
        self._busy_gauge = metrics.COMPUTE_BUSY.labels(name)
        self._waiting_gauge = metrics.COMPUTE_WAITING.labels(name)

    def full(self) -> bool:
        """Every slot and the queue taken (what /readyz reports): a newcomer waits in the lobby or is shed."""
        return self.busy >= self.capacity and len(self.waiters) >= self.queue

    def has_room(self) -> bool:
        """A slot free now, and nobody waiting for it."""
        return self.busy < self.capacity and not self.waiters and not self.lobby

    def in_lobby(self, waiter: asyncio.Future) -> bool:
        return any(entry[1] is waiter for entry in self.lobby)

    def _publish(self) -> None:
        self._busy_gauge.set(self.busy)
        self._waiting_gauge.set(len(self.waiters) + len(self.lobby))

    def _shed(self) -> Unavailable:
        metrics.SHED.labels(self.name).inc()
        return Unavailable(
            "saturated",
            f"the service is at capacity ({self.name}: {self.busy} computing, "
            f"{len(self.waiters) + len(self.lobby)} waiting); retry shortly",
            SHED_RETRY_AFTER_S,
        )

    def _promote(self) -> None:
        """The lobby's oldest into the queue's free places."""
        while self.lobby and len(self.waiters) < self.queue:
            self.waiters.append(self.lobby.pop(0)[1])

    async def acquire(self, deadline: Deadline, shed: bool) -> None:
        """Take a slot; with `shed`, wait in the lobby past a full queue, and fail (503) when the
        lobby is full of older requests or after `lobby_wait_s` in it."""
        if self.has_room():
            self.busy += 1
            self._publish()
            return
        waiter = asyncio.get_running_loop().create_future()
        if shed and (len(self.waiters) >= self.queue or self.lobby):
            if len(self.lobby) >= self.lobby_size:
                if not self.lobby or self.lobby[-1][0] <= deadline.since:
                    raise self._shed()
                # older than the youngest in the lobby: it takes its place, the youngest is shed
                self.lobby.pop()[1].set_exception(self._shed())
            # by when reading began; insort puts it after its equals, so equals keep their arrival order
            bisect.insort(self.lobby, (deadline.since, waiter), key=lambda entry: entry[0])
        else:
            self.waiters.append(waiter)
        self._publish()
        try:
            if self.in_lobby(waiter):
                try:
                    await asyncio.wait_for(asyncio.shield(waiter), min(self.lobby_wait_s, deadline.remaining()))
                except TimeoutError:
                    if self.in_lobby(waiter):  # still no place in the queue: today's 503
                        if deadline.remaining() <= 0:
                            raise
                        self._leave(waiter)
                        raise self._shed() from None
            if not waiter.done():  # in the queue: wait for a slot until the deadline
                await asyncio.wait_for(asyncio.shield(waiter), max(0.0, deadline.remaining()))
        except BaseException as exc:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self.release()  # the slot was handed over just as we gave up: pass it on
            elif not waiter.done():
                self._leave(waiter)
            if isinstance(exc, asyncio.TimeoutError):
                raise deadline_exceeded(deadline.limits, "while waiting for a compute slot") from None
            raise

    def _leave(self, waiter: asyncio.Future) -> None:
        """A waiter gone (timed out, or its client disconnected): out of the queue or lobby."""
        waiter.cancel()
        try:
            self.waiters.remove(waiter)
        except ValueError:
            pass
        self.lobby = [entry for entry in self.lobby if entry[1] is not waiter]
        self._promote()
        self._publish()

    def release(self) -> None:
        self._promote()
        while self.waiters or self.lobby:  # the lobby directly only when there is no queue (compute_queue=0)
            waiter = self.waiters.popleft() if self.waiters else self.lobby.pop(0)[1]
            if not waiter.done():
                waiter.set_result(None)  # the slot goes to the next waiter; busy stays
                self._promote()
                self._publish()
                return
        self.busy -= 1
        self._publish()


class WorkerProcess:
    """One `python -m tiebreak.compute.worker` child and its two pipes."""

    def __init__(self, process: asyncio.subprocess.Process):
        self.process = process

    @classmethod
    async def start(cls, memory_mib: int) -> WorkerProcess:
        env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}  # the parent counts
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tiebreak.compute.worker",
            "--memory-mib",
            str(memory_mib),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
        )
        metrics.WORKER_STARTS.inc()
        worker = cls(process)
        assert process.stdout is not None  # stdout=PIPE
        try:
            (ready,) = FRAME.unpack(await process.stdout.readexactly(FRAME.size))  # imports done
        except BaseException:  # cancelled (the client left, the server stops) or it died starting
            worker.kill_starting()
            raise
        if ready != 0:
            worker.kill_starting()
            raise RuntimeError("a compute worker did not start properly")
        return worker

    def kill_starting(self) -> None:
        """A worker given up before it was ready: killed, and counted as every killed worker is."""
        if self.alive:
            metrics.KILLED.labels("starting").inc()
        self.kill()

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    async def call(self, job: work.Job) -> work.Answer:
        # The job without its body, then the body in a frame of its own (no copy of a large body).
        head = _job_encoder.encode(msgspec.structs.replace(job, body=b""))
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None  # `start` opens both pipes
        stdin.write(FRAME.pack(len(head)) + head + FRAME.pack(len(job.body)))
        stdin.write(job.body)
        await stdin.drain()
        (size,) = FRAME.unpack(await stdout.readexactly(FRAME.size))
        answer = _answer_decoder.decode(await stdout.readexactly(size))
        (size,) = FRAME.unpack(await stdout.readexactly(FRAME.size))
        return msgspec.structs.replace(answer, body=await stdout.readexactly(size))

    def kill(self) -> None:
        if self.alive:
            try:
                self.process.kill()
            except ProcessLookupError:
                pass

    async def stop(self) -> None:
        """Close its stdin (it exits at once when idle); kill it if it does not."""
        if self.process.stdin is not None and not self.process.stdin.is_closing():
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 2)
        except (TimeoutError, ProcessLookupError):
            self.kill()
            await self.process.wait()


class Pool:
    """`size` worker processes; a job holds one from start to answer, or until the process has died."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.lane = Lane("pool", limits.compute_workers, limits.compute_queue, POOL_LOBBY, POOL_LOBBY_WAIT_S)
        self.idle: list[WorkerProcess] = []
        self.running: set[WorkerProcess] = set()  # computing a job now
        self.starting: list[asyncio.Task] = []  # replacements being started
        self.memory_mib = int(limits.max_memory_mib * WORKER_MEMORY_HEADROOM)
        self.reaping: set[asyncio.Task] = set()
        self.closed = False

    def has_idle_worker(self) -> bool:
        """A slot free and a worker started and waiting in it: a job sent now starts at once."""
        return self.lane.has_room() and any(worker.alive for worker in self.idle)

    async def prestart(self) -> None:
        while len(self.idle) < self.lane.capacity:
            self.idle.append(await WorkerProcess.start(self.memory_mib))

    async def _worker(self) -> WorkerProcess:
        while self.idle:
            worker = self.idle.pop()
            if worker.alive:
                return worker
        if self.starting:  # a replacement is on its way: take it rather than start another
            return await self.starting.pop()
        return await WorkerProcess.start(self.memory_mib)

    def _start_replacement(self) -> None:
        """Start a worker in the background; the next job takes it (idle once ready)."""
        task = asyncio.get_running_loop().create_task(WorkerProcess.start(self.memory_mib))
        self.starting.append(task)

        def ready(done: asyncio.Task) -> None:
            if done in self.starting:  # nobody took it while it started
                self.starting.remove(done)
                if not done.cancelled() and done.exception() is None:
                    worker = done.result()
                    if self.closed:
                        worker.kill()
                    else:
                        self.idle.append(worker)
            elif not done.cancelled() and done.exception() is not None:
                log.error("could not start a compute worker", exc_info=done.exception())

        task.add_done_callback(ready)

    async def run(self, job: work.Job, deadline: Deadline, shed: bool) -> work.Answer:
        await self.lane.acquire(deadline, shed)
        worker: WorkerProcess | None = None
        try:
            worker = await self._worker()
            self.running.add(worker)
            answer = await asyncio.wait_for(worker.call(job), max(0.001, deadline.remaining()))
        except TimeoutError:
            self._kill(worker, "deadline")
            raise deadline_exceeded(self.limits, "by killing its worker process") from None
        except (asyncio.IncompleteReadError, ConnectionError):
            self._kill(worker, "crashed")
            log.error("a compute worker ended without answering", extra={"kind": job.kind})
            raise Unavailable(
                "worker-lost", "the computation's worker process ended unexpectedly", SHED_RETRY_AFTER_S
            ) from None
        except BaseException:  # cancelled: the client left (or the server stops)
            self._kill(worker, "cancelled")
            raise
        if answer.memory_exhausted:
            self._kill(worker, "memory")  # it exits by itself; reap it and start afresh
        else:
            self.running.discard(worker)
            self.idle.append(worker)
            self.lane.release()
        return answer

    def _kill(self, worker: WorkerProcess | None, reason: str) -> None:
        """SIGKILL now; the slot is released once the process is gone, and a fresh worker is started."""
        if worker is None:
            self.lane.release()
            return
        self.running.discard(worker)
        if reason != "memory":
            metrics.KILLED.labels(reason).inc()
        worker.kill()
        if not self.closed:
            self._start_replacement()  # importing meanwhile: the next job need not wait for it
        task = asyncio.get_running_loop().create_task(self._reap(worker))
        self.reaping.add(task)
        task.add_done_callback(self.reaping.discard)

    async def _reap(self, worker: WorkerProcess) -> None:
        try:
            await worker.process.wait()  # the slot is free once the process is really gone
        finally:
            self.lane.release()

    async def close(self) -> None:
        self.closed = True
        for task in list(self.starting):
            try:
                self.idle.append(await task)
            except Exception:  # noqa: BLE001 - it did not start: nothing to stop
                pass
        self.starting.clear()
        for worker in self.idle:
            await worker.stop()
        self.idle.clear()
        for task in list(self.reaping):
            await task

    def abandon(self) -> None:
        """Its event loop is gone (a test client's): kill what it started without awaiting."""
        self.closed = True
        for worker in self.idle:
            try:
                os.kill(worker.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.idle.clear()


class Gate:
    """The inline lane and the pool of one event loop."""

    def __init__(self, limits: Limits, loop: asyncio.AbstractEventLoop | None, admission: Admission | None = None):
        self.limits = limits
        self.loop = loop
        self.admission = admission  # the requests in flight in this process (the middleware's)
        self.inline = Lane("inline", 1, limits.inline_queue)
        self.pool = Pool(limits)
        self.inline_body_bytes = min(
            INLINE_BODY_BYTES, int(limits.inline_max_cost_ms / 1000 / cost.SECONDS_PER_BODY_BYTE)
        )
        self._computed_inline = metrics.COMPUTED.labels("inline")
        self._computed_pool = metrics.COMPUTED.labels("pool")

    def saturated(self) -> bool:
        """No room for one more pooled request: what /readyz reports as not ready."""
        return self.pool.lane.full()

    async def run(self, job: work.Job, deadline: Deadline, wait: bool = False, spill: bool = False) -> work.Answer:
        """The answer to `job`; raises Unavailable (503) when shed or past the deadline.

        `wait`: queue however long the queue is (batch items of a stream already admitted).
        `spill`: a cheap job goes to an idle worker (started, its slot free, nobody waiting)
        rather than onto the loop: a batch with items in flight keeps the loop and a worker
        busy at once (http/batch.py), and never takes a slot someone waits for. Any cheap job
        spills so while the loop is computing another, or while other requests are in flight,
        which the loop must read and answer: small requests use every core (decision 0285).
        """
        small = len(job.body) <= self.inline_body_bytes and job.kind != "items"  # a group is for a worker
        spill = spill or not self.inline.has_room() or (self.admission is not None and self.admission.in_flight > 1)
        if small and not (spill and self.pool.has_idle_worker()) and (wait or not self.inline.full()):
            answer = await self._on_the_loop(job, deadline)
            if answer is not None:
                return answer
            job = msgspec.structs.replace(job, checked=True)  # decoded and checked here: bound over the budget
        answer = await self.pool.run(job, deadline, shed=not wait)
        self._computed_pool.inc()
        return counted(answer)

    async def _on_the_loop(self, job: work.Job, deadline: Deadline) -> work.Answer | None:
        """Holding the inline slot: decode and check `job`, and when its bound is within the inline
        budget, read, price and compute it. None: it belongs to the pool, which reads it."""
        await self.inline.acquire(deadline, shed=False)
        try:
            # Yield once while holding the slot: requests that arrived meanwhile queue behind it,
            # and probes and I/O run before the computation starts.
            await asyncio.sleep(0)
            budget_s = self.limits.inline_max_cost_ms / 1000
            reading = work.read(msgspec.structs.replace(job, gzip_min_bytes=0), bounded=True)
            if isinstance(reading, work.Answer):
                answer = reading
            elif reading.bound is None or reading.bound.seconds > budget_s:
                return None
            else:
                task = work.planned(reading)
                if isinstance(task, work.Answer):
                    answer = task
                elif task.estimate.seconds > budget_s:  # the bound was short of the plan: not computed here
                    log.warning("a bound under its plan's price", extra={"kind": job.kind})
                    return None
                else:
                    self._computed_inline.inc()
                    answer = task.finish()
        finally:
            self.inline.release()
        answer = counted(answer)
        if len(answer.body) >= GZIP_IN_THREAD_BYTES and work.gzips(answer, job.gzip_min_bytes):
            return await asyncio.to_thread(work.gzipped, answer, job.gzip_min_bytes, job.gzip_level)
        return work.gzipped(answer, job.gzip_min_bytes, job.gzip_level)

    async def start(self) -> None:
        await self.pool.prestart()

    async def close(self) -> None:
        await self.pool.close()


def counted(answer: work.Answer) -> work.Answer:
    """Engine time and a limit's refusal into /metrics, wherever the answer was computed."""
    if answer.engine_seconds:
        metrics.ENGINE_SECONDS.observe(answer.engine_seconds)
    if answer.solver is not None:
        metrics.count_solver(answer.solver)
    if answer.limit:
        metrics.LIMIT_REJECTIONS.labels(answer.limit).inc()
    note_faults(answer.fault, answer.faults)
    return answer


GZIP_IN_THREAD_BYTES = 32 * 1024  # an inline answer this large is gzipped in a thread, off the loop


# ---- admission of whole requests (the middleware) ----


@dataclass
class Admission:
    """Requests in flight and the request bodies they may hold; past either the request is shed."""

    limits: Limits
    in_flight: int = 0
    body_bytes: int = 0

    def full(self) -> bool:
        return self.in_flight >= self.limits.max_in_flight

    def enter(self, declared_length: int | None) -> tuple[str | None, int]:
        """(reason to refuse or None, bytes reserved)."""
        if self.in_flight >= self.limits.max_in_flight:
            return "in_flight", 0
        reserve = (
            self.limits.max_body_bytes if declared_length is None else min(declared_length, self.limits.max_body_bytes)
        )
        if reserve and self.body_bytes + reserve > self.limits.max_in_flight_body_bytes and self.in_flight:
            return "body_bytes", 0
        self.in_flight += 1
        self.body_bytes += reserve
        return None, reserve

    def leave(self, reserved: int) -> None:
        self.in_flight -= 1
        self.body_bytes -= reserved
