"""The compute gate: every computation of the service goes through here.

Standings, compare, TRF conversion and every batch item are a `work.Job` (the raw
body and how to answer it). The gate

1. **prices** it: small bodies are decoded and read on the event loop and priced by
   the cost model (service/tiebreak/api/cost.py); a request over `max_cost_s` or
   `max_memory_mib` is refused at once (413);
2. **places** it: a request the model finds cheap (under `inline_max_cost_ms`) is
   computed on the event loop, one at a time (the `inline` lane: waiting requests
   queue on a lock, and the loop serves probes and I/O between two of them);
   everything else goes to the **pool** of `compute_workers` worker processes
   (service/tiebreak/api/worker.py) with at most `compute_queue` requests waiting;
3. **sheds**: when the pool and its queue are full the request is answered 503
   with `Retry-After` at once, and `/readyz` says not ready;
4. **kills**: past the deadline (`compute_deadline_s`, from the end of reading the
   body) or when the client disconnects, the worker process computing the
   request gets SIGKILL. Its slot stays taken until the process is really gone;
   then a fresh worker is started. Python cannot stop a thread, but a process
   can be killed: no computation outlives its request.

Why processes: the engine is pure Python, so a thread holds the GIL and the slot
it was given cannot be taken back; a process can be killed at any instruction
and its memory is returned to the system at once. The price is a copy of the
body to the worker and of the answer back (about 1 ms per MB), which is why
cheap requests stay on the loop (docs/operations.md, "Bounded work").
"""

from __future__ import annotations

import asyncio
import collections
import gzip
import logging
import os
import signal
import sys
from dataclasses import dataclass

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, InternalServerException

from . import cost, metrics, work
from .forked import write_all
from .limits import Deadline, Limits, Unavailable, deadline_exceeded
from .worker import FRAME

log = logging.getLogger("tiebreak.gate")

# Route handlers with this `opt` are not compressed by litestar: the gate gzips their
# answers itself, in the worker for pooled ones, so that no large answer is
# compressed on the event loop.
NO_COMPRESSION = {"skip_compression": True}
COMPRESSION_OPT_KEY = "skip_compression"

# Bodies up to this size (and whose decoding the cost model prices under the inline
# budget: about 200 KiB by default) are decoded and priced on the loop; larger ones go
# to a worker unread, which decodes and prices them there.
INLINE_BODY_BYTES = 256 * 1024
# Headroom of a worker's data segment over the cost model's memory ceiling.
WORKER_MEMORY_HEADROOM = 1.25
SHED_RETRY_AFTER_S = 1
POOL = "pool"  # run_at_once read the request and found it too costly for the loop: a worker computes it
UNPRICED = object()  # Gate.run: price_early not asked yet

_job_encoder = msgspec.msgpack.Encoder()
_answer_decoder = msgspec.msgpack.Decoder(work.Answer)


class Lane:
    """`capacity` slots and at most `queue` waiters, first come first served."""

    def __init__(self, name: str, capacity: int, queue: int):
        self.name = name
        self.capacity = max(1, capacity)
        self.queue = max(0, queue)
        self.busy = 0
        self.waiters: collections.deque[asyncio.Future] = collections.deque()

    def full(self) -> bool:
        return self.busy >= self.capacity and len(self.waiters) >= self.queue

    def has_room(self) -> bool:
        """A slot free now, and nobody waiting for it."""
        return self.busy < self.capacity and not self.waiters

    def _publish(self) -> None:
        metrics.COMPUTE_BUSY.labels(self.name).set(self.busy)
        metrics.COMPUTE_WAITING.labels(self.name).set(len(self.waiters))

    async def acquire(self, deadline: Deadline, shed: bool) -> None:
        """Take a slot; with `shed`, fail at once (503) when every slot and the queue are taken."""
        if self.busy < self.capacity and not self.waiters:
            self.busy += 1
            self._publish()
            return
        if shed and len(self.waiters) >= self.queue:
            metrics.SHED.labels(self.name).inc()
            raise Unavailable("saturated", f"the service is at capacity ({self.name}: {self.busy} computing, "
                                           f"{len(self.waiters)} waiting); retry shortly", SHED_RETRY_AFTER_S)
        waiter = asyncio.get_running_loop().create_future()
        self.waiters.append(waiter)
        self._publish()
        try:
            await asyncio.wait_for(asyncio.shield(waiter), max(0.0, deadline.remaining()))
        except BaseException as exc:
            if waiter.done() and not waiter.cancelled():
                self.release()  # the slot was handed over just as we gave up: pass it on
            else:
                waiter.cancel()
                try:
                    self.waiters.remove(waiter)
                except ValueError:
                    pass
                self._publish()
            if isinstance(exc, asyncio.TimeoutError):
                raise deadline_exceeded(deadline.limits, "while waiting for a compute slot") from None
            raise

    def release(self) -> None:
        while self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)  # the slot goes to the next waiter; busy stays
                self._publish()
                return
        self.busy -= 1
        self._publish()


# Bodies from this size go to a worker through its body file: a memory file (memfd) both
# processes have open, written at once and read at once, where the 1 MiB pipe takes a turn
# between the processes per MiB; smaller ones fit the pipe in one write.
BODY_FILE_MIN_BYTES = 1 << 20


class WorkerProcess:
    """One `python -m tiebreak.api.worker` child, its two pipes and, where the system has memory
    files, the file large bodies are written to (`body_file`)."""

    def __init__(self, process: asyncio.subprocess.Process, body_file: int | None = None):
        self.process = process
        self.body_file = body_file

    @classmethod
    async def start(cls, memory_mib: int) -> WorkerProcess:
        env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}  # the parent counts
        body_file = os.memfd_create("tiebreak-body", os.MFD_CLOEXEC) if hasattr(os, "memfd_create") else None
        passed = () if body_file is None else ("--body-file", str(body_file))
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tiebreak.api.worker", "--memory-mib", str(memory_mib), *passed,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env,
                pass_fds=() if body_file is None else (body_file,))
        except BaseException:
            if body_file is not None:
                os.close(body_file)
            raise
        metrics.WORKER_STARTS.inc()
        worker = cls(process, body_file)
        try:
            (ready,) = FRAME.unpack(await process.stdout.readexactly(FRAME.size))  # imports done
        except BaseException:
            worker.kill()
            raise
        if ready != 0:
            worker.kill()
            raise RuntimeError("a compute worker did not start properly")
        return worker

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    async def call(self, job: work.Job) -> work.Answer:
        # The job without its body, then the body in a frame of its own (no copy of a large
        # body), or, from BODY_FILE_MIN_BYTES, in the body file and an empty frame.
        body = job.body
        in_file = self.body_file is not None and len(body) >= BODY_FILE_MIN_BYTES
        if in_file:
            # at the start of the file (what lies after it from a larger body is never read); the
            # worker reads nothing of it before the frame
            write_all(self.body_file, body, 0)
            body = b""
        head = _job_encoder.encode(msgspec.structs.replace(job, body=b"", body_in_file=len(job.body) if in_file else 0))
        stdin, stdout = self.process.stdin, self.process.stdout
        stdin.write(FRAME.pack(len(head)) + head + FRAME.pack(len(body)))
        stdin.write(body)
        await stdin.drain()
        (size,) = FRAME.unpack(await stdout.readexactly(FRAME.size))
        head = _answer_decoder.decode(await stdout.readexactly(size))
        (size,) = FRAME.unpack(await stdout.readexactly(FRAME.size))
        return msgspec.structs.replace(head, body=await stdout.readexactly(size))

    def kill(self) -> None:
        if self.alive:
            try:
                self.process.kill()
            except ProcessLookupError:
                pass
        self._close_body_file()

    async def stop(self) -> None:
        """Close its stdin (it exits at once when idle); kill it if it does not."""
        if self.process.stdin is not None and not self.process.stdin.is_closing():
            self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 2)
        except (asyncio.TimeoutError, ProcessLookupError):
            self.kill()
            await self.process.wait()
        self._close_body_file()

    def _close_body_file(self) -> None:
        body_file, self.body_file = self.body_file, None
        if body_file is not None:
            os.close(body_file)  # the memory is freed once the worker's copy is closed too


class Pool:
    """`size` worker processes; a job holds one from start to answer, or until the process has died."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.lane = Lane("pool", limits.compute_workers, limits.compute_queue)
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
        except asyncio.TimeoutError:
            self._kill(worker, "deadline")
            raise deadline_exceeded(self.limits, "by killing its worker process") from None
        except (asyncio.IncompleteReadError, ConnectionError):
            self._kill(worker, "crashed")
            log.error("a compute worker ended without answering", extra={"kind": job.kind})
            raise Unavailable("worker-lost", "the computation's worker process ended unexpectedly",
                              SHED_RETRY_AFTER_S) from None
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
    def __init__(self, limits: Limits, loop: asyncio.AbstractEventLoop | None):
        self.limits = limits
        self.loop = loop
        self.inline = Lane("inline", 1, limits.inline_queue)
        # An inline computation ran in this turn of the loop: the next one waits for the next turn,
        # so that the loop polls its sockets (probes, other requests' I/O) between any two.
        self.inline_ran = False
        self.pool = Pool(limits)
        # A body whose decoding alone the cost model prices over the inline budget goes to a
        # worker unread: reading it on the loop would only find out it belongs there.
        self.inline_body_bytes = min(INLINE_BODY_BYTES, int(limits.inline_max_cost_ms / 1000
                                                              / cost.SECONDS_PER_BODY_BYTE))

    def saturated(self) -> bool:
        """No room for one more pooled request: what /readyz reports as not ready."""
        return self.pool.lane.full()

    def _readable_here(self, job: work.Job, early) -> bool:
        """Whether the loop may read `job` (and compute it when its price allows): small, and not
        priced over the inline budget by its shape (then it goes to a worker unread)."""
        costly = early is not None and early.seconds * 1000 > self.limits.inline_max_cost_ms
        return not costly and len(job.body) <= self.inline_body_bytes

    def _inline(self, job: work.Job) -> work.Answer | None:
        """Holding the inline slot: read and price `job`, compute it when its price is within the
        inline budget. None: it belongs to the pool. The answer is not gzipped yet."""
        prepared = work.prepare(msgspec.structs.replace(job, gzip_min_bytes=0))
        if isinstance(prepared, work.Answer):
            return prepared
        if prepared.estimate.seconds * 1000 <= self.limits.inline_max_cost_ms:
            metrics.COMPUTED.labels("inline").inc()
            if not self.inline_ran:
                self.inline_ran = True
                asyncio.get_running_loop().call_soon(self._next_turn)
            return prepared.finish()
        return None

    def _next_turn(self) -> None:
        self.inline_ran = False

    def run_at_once(self, job: work.Job) -> tuple[work.Answer | None, object]:
        """The answer of a request that needs no waiting, computed now (no task, no await):
        one over a limit by its shape, or one for the inline lane while nobody holds it or waits
        for it and no inline computation ran in this turn of the loop. The inline answer is not
        gzipped yet (`gzipped`). Else (None, what `run` needs: the early price, or POOL when
        reading found it too costly for the loop).

        The same request through `run` would take the free slot at once as well and compute it
        on the loop; what is saved is the task, the disconnect watcher and the turn of the loop
        before computing (docs/decisions.md, "The inline lane without a task")."""
        early = work.price_early(job)
        if isinstance(early, work.Answer):  # over a limit by its shape alone: no slot, no worker
            return early, early
        inline = self.inline
        free = inline.busy < inline.capacity and not inline.waiters and not self.inline_ran
        if not (free and self._readable_here(job, early)):
            return None, early
        inline.busy += 1  # the free slot, taken and given back within this step
        try:
            answer = self._inline(job)
        finally:
            inline.release()
        return answer, (early if answer is not None else POOL)

    async def run(self, job: work.Job, deadline: Deadline, wait: bool = False, early=UNPRICED,
                  spill: bool = False) -> work.Answer:
        """The answer to `job`; raises Unavailable (503) when shed or past the deadline.

        `wait`: queue however long the queue is (batch items of a stream already admitted).
        `early`: what `run_at_once` found (the early price, or POOL), when it was asked first.
        `spill`: a cheap job goes to an idle worker (started, its slot free, nobody waiting)
        rather than onto the loop: a batch with items in flight keeps the loop and a worker
        busy at once (service/tiebreak/api/batch.py), and never takes a slot someone waits for.
        """
        if early is UNPRICED:
            early = work.price_early(job)
        if isinstance(early, work.Answer):  # over a limit by its shape alone: no slot, no worker
            return early
        inline = self.inline
        to_pool = early is POOL or (spill and self.pool.has_idle_worker())
        if not to_pool and self._readable_here(job, early) and (wait or not inline.full()):
            await inline.acquire(deadline, shed=False)
            released = False
            try:
                # Yield once while holding the slot: requests that arrived meanwhile queue
                # behind it, and probes and I/O run before the computation starts.
                await asyncio.sleep(0)
                answer = self._inline(job)
                if answer is not None:
                    inline.release()  # compressing does not need the loop: zlib lets go of the GIL
                    released = True
                    return await gzipped(answer, job.gzip_min_bytes, job.gzip_level)
            finally:
                if not released:
                    inline.release()
        answer = await self.pool.run(job, deadline, shed=not wait)
        metrics.COMPUTED.labels("pool").inc()
        # Counted here: the worker's own counters never reach /metrics.
        if answer.engine_seconds:
            metrics.ENGINE_SECONDS.observe(answer.engine_seconds)
        if answer.limit:
            metrics.LIMIT_REJECTIONS.labels(answer.limit).inc()
        return answer

    async def start(self) -> None:
        await self.pool.prestart()

    async def close(self) -> None:
        await self.pool.close()


GZIP_IN_THREAD_BYTES = 32 * 1024


async def gzipped(answer: work.Answer, minimum: int, level: int) -> work.Answer:
    """An inline answer gzipped when the client accepts it, larger ones in a thread."""
    if not minimum or len(answer.body) < minimum or answer.status != 200 or answer.media_type != work.JSON:
        return answer
    if len(answer.body) < GZIP_IN_THREAD_BYTES:
        data = gzip.compress(answer.body, level, mtime=0)
    else:
        data = await asyncio.to_thread(gzip.compress, answer.body, level, mtime=0)
    return msgspec.structs.replace(answer, body=data, gzipped=True)


def gate_of(app, create: bool = True) -> Gate | None:
    """The app's gate on the running event loop: one per loop, since worker pipes belong to a loop
    (`tiebreak serve` has one; each test client runs the app on a loop of its own)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    gates: dict = app.state.get("gates")
    if gates is None:
        gates = app.state["gates"] = {}
    gate = gates.get(loop)
    if gate is not None or not create:
        return gate
    for other, stale in list(gates.items()):  # loops closed without a lifespan shutdown
        if other is not None and other.is_closed():
            stale.pool.abandon()
            del gates[other]
    gate = gates[loop] = Gate(app.state.limits, loop)
    return gate


async def start_gate(app) -> None:
    """Lifespan start: the gate of the server's loop, its workers started when asked (`tiebreak serve`)."""
    gate = gate_of(app)
    if app.state.ops.prestart_workers:
        await gate.start()
        # Everything imported so far lives as long as the process: out of the cyclic collector's
        # reach, so that a full collection (thousands of connections open) stays short.
        import gc

        gc.collect()
        gc.freeze()


async def stop_gate(app) -> None:
    gate = gate_of(app, create=False)
    if gate is not None:
        await gate.close()
        app.state.gates.pop(gate.loop, None)


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
        reserve = self.limits.max_body_bytes if declared_length is None else min(declared_length,
                                                                                 self.limits.max_body_bytes)
        if reserve and self.body_bytes + reserve > self.limits.max_in_flight_body_bytes and self.in_flight:
            return "body_bytes", 0
        self.in_flight += 1
        self.body_bytes += reserve
        return None, reserve

    def leave(self, reserved: int) -> None:
        self.in_flight -= 1
        self.body_bytes -= reserved


# ---- HTTP ----

CLIENT_CLOSED = 499  # nginx's "client closed request": logged and counted, never seen by the client


def response_of(answer: work.Answer) -> Response:
    headers = {}
    if answer.gzipped:
        headers["content-encoding"] = "gzip"
    if answer.gzipped or answer.media_type == work.JSON:
        headers["vary"] = "Accept-Encoding"
    if answer.retry_after_s:
        headers["retry-after"] = str(answer.retry_after_s)
    body = answer.body
    if answer.more_body:  # pieces of a worker's answer (only a worker forks; here for completeness)
        body = b"".join([body, *answer.more_body])
    elif isinstance(body, bytearray):  # a large answer finished in place (computed inline: rare)
        body = bytes(body)
    return Response(content=body, status_code=answer.status, media_type=answer.media_type, headers=headers)


def accepts_gzip(request: Request) -> bool:
    return "gzip" in request.headers.get("accept-encoding", "").lower()


def job_for(request: Request, kind: str, body: bytes, gzip_ok: bool = True, index: int = 0) -> work.Job:
    ops = request.app.state.ops
    gzip_min = ops.gzip_min_bytes if gzip_ok and ops.gzip_min_bytes > 0 and accepts_gzip(request) else 0
    return work.Job(kind=kind, body=body, limits=request.app.state.limits, gzip_min_bytes=gzip_min,
                    gzip_level=ops.gzip_level, index=index)


async def read_body(request: Request) -> bytes | None:
    """The whole body (within max_body_bytes), or None when the client left while sending it."""
    try:
        return await request.body()
    except InternalServerException as exc:
        if "disconnected" in str(exc.detail):
            return None
        raise


async def until_disconnect(request: Request) -> None:
    """Returns when the client has gone (the body has been read: the next ASGI message says so)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


async def answer_request(request: Request, kind: str) -> Response:
    """A JSON endpoint's whole handling: read the body, compute through the gate, answer."""
    from .routes import TRF_AS_TEXT

    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json" and not media.endswith("+json"):
        if media.startswith("text/") or not media:
            raise HTTPException(status_code=415, detail=TRF_AS_TEXT)
        raise HTTPException(status_code=415, detail=f"send the body as application/json, not {media}")
    body = await read_body(request)
    if body is None:
        return Response(b"", status_code=CLIENT_CLOSED)
    deadline = Deadline(request.app.state.limits)
    gate = gate_of(request.app)
    job = job_for(request, kind, body)
    answer, early = gate.run_at_once(job)
    if answer is not None:
        return response_of(await gzipped(answer, job.gzip_min_bytes, job.gzip_level))
    computation = asyncio.ensure_future(gate.run(job, deadline, early=early))
    watcher = asyncio.ensure_future(until_disconnect(request))
    try:
        await asyncio.wait({computation, watcher}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not computation.done():
            computation.cancel()  # the client left (or this handler was cancelled): the worker is killed
        watcher.cancel()
    if not computation.done() or computation.cancelled():
        try:
            await computation
        except BaseException:  # noqa: BLE001 - cancelled on purpose
            pass
        return Response(b"", status_code=CLIENT_CLOSED)
    return response_of(computation.result())  # re-raises Unavailable: errors.py answers 503
