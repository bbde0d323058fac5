"""`POST /v1/standings/batch`: many standings requests in, one NDJSON line per item out.

Items are computed one after another, each through the compute gate (cheap ones on
the event loop, the others in a worker process, killed at the item's deadline), and
each result line is sent as soon as it is ready, in input order: the server holds
the request body (bounded by the body limit) and one item's work, never the results.
A bad item becomes an error line with its problem+json body (a 503 line when it ran
past its deadline); the batch goes on to the end. When the client disconnects, the
response stream is cancelled: the item being computed is killed and no further item
is started.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import anyio.to_thread
import msgspec
from litestar import Request, post
from litestar.exceptions import HTTPException
from litestar.openapi.spec import (
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Reference,
    RequestBody,
    Schema,
)
from litestar.response import Stream

from ..engine.errors import Issue
from ..texts.catalogue import enc_hook

from ..compute.compress import GzipStream
from ..compute.metrics import count_batch_item
from ..compute.work import PROBLEM_JSON, Job, failure
from ..usecases.problems import ShapeError, out_of_memory
from ..wire.decode import json_depth_exceeds
from ..wire.limits import LIMITS, Deadline, LimitExceeded, Limits, Unavailable
from .handling import NO_COMPRESSION, accepts_gzip, gate_of, job_for, read_body
from .routes import PROBLEMS
from ..texts.message import msg, msg_n

NDJSON = "application/x-ndjson"
NDJSON_ALIASES = frozenset({NDJSON, "application/ndjson", "application/jsonl", "application/x-jsonlines"})
# A JSON array body is split into its items by a decoder that recurses into them: its
# nesting is bounded well below the recursion limit here, each item's by the usual
# max_json_depth when it is computed (deeper items are error lines).
SPLIT_DEPTH = 256
# Lines at least this long are gzipped in a thread (zlib lets go of the GIL), not on the loop.
GZIP_IN_THREAD_BYTES = 64 * 1024
SPLIT_IN_THREAD_BYTES = 256 * 1024

_array_decoder = msgspec.json.Decoder(list[msgspec.Raw])
_encoder = msgspec.json.Encoder(enc_hook=enc_hook)


def items_operation(item: str, what: str, body: str, line: str, lines: str) -> type[Operation]:
    """An Operation documenting a body of items (a JSON array, or NDJSON) and its NDJSON answer.

    Items are objects in the document, not `item`: an object that is not a valid `item` is
    answered by an error line for it (status 200 for the whole), by design."""

    @dataclass
    class ItemsOperation(Operation):
        def __post_init__(self) -> None:
            one = Schema(
                type=OpenAPIType.OBJECT,
                description=f"{what} (schema {item}); an item that does not match {item} gets an error line",
            )
            self.request_body = RequestBody(
                required=True,
                content={
                    "application/json": OpenAPIMediaType(
                        schema=Schema(type=OpenAPIType.ARRAY, items=one, max_items=LIMITS.max_batch_items)
                    ),
                    NDJSON: OpenAPIMediaType(schema=one),
                },
                description=body,
            )
            self.responses = dict(self.responses or {})
            self.responses["200"] = OpenAPIResponse(
                description=lines,
                content={NDJSON: OpenAPIMediaType(schema=Reference(ref=f"#/components/schemas/{line}"))},
            )

    return ItemsOperation


BatchOperation = items_operation(
    "BatchItem",
    "A standings request with an optional `id`",
    "A JSON array of standings requests, or NDJSON: one request per line. Each may carry an `id`, echoed in its "
    "result line.",
    "BatchResult",
    "NDJSON, one line per item in input order: `{index, id, status, result, error}`",
)


async def run_item(
    index: int, raw: bytes, request: Request, limits: Limits, kind: str = "item", spill: bool = False
) -> bytes:
    """One item to one NDJSON line, through the gate; every failure becomes that item's error line.

    `kind`: "item" (a standings request of the batch) or "check" (an archived file to check).
    `spill`: to an idle compute worker rather than onto the event loop (see `in_order`)."""
    gate = gate_of(request.app)
    try:
        answer = await gate.run(
            job_for(request, kind, raw, gzip_ok=False, index=index), Deadline(limits), wait=True, spill=spill
        )
        if answer.media_type == PROBLEM_JSON:  # a worker that ran out of memory answers a bare problem
            answer = failure(out_of_memory(limits), Job(kind, raw, limits, index=index))
    except Unavailable as exc:  # past its deadline (waiting or computing): a 503 line, and on to the next
        answer = failure(exc, Job(kind, raw, limits, index=index))
    count_batch_item(answer.status == 200)  # /metrics: tiebreak_batch_items_total{outcome}
    return answer.body


# Small standings items go to an idle compute worker a few at a time (one "items" job): the
# worker then has the next one at hand, where one at a time it waited for the event loop to
# finish the item it was computing itself before its answer was read and the next item sent.
CHUNK_ITEMS = 16
CHUNK_ITEM_BYTES = 16 * 1024  # a 40-player TRF is about 5 KB; a larger item goes alone


class _Status(msgspec.Struct):
    status: int


_status_decoder = msgspec.json.Decoder(_Status)


async def run_items(first: int, raws: list[bytes], request: Request, limits: Limits) -> list[bytes]:
    """Consecutive standings items to their NDJSON lines, computed together by an idle compute
    worker (else item by item on the event loop); one deadline for them all: an item past it
    makes every line of the group a 503 line (the items are small: CHUNK_ITEM_BYTES)."""
    gate = gate_of(request.app)
    job = job_for(request, "items", msgspec.msgpack.encode(raws), gzip_ok=False, index=first)
    failed: Exception | None
    try:
        answer = await gate.run(job, Deadline(limits), wait=True, spill=True)
        failed = out_of_memory(limits) if answer.media_type == PROBLEM_JSON else None  # a worker's bare problem
    except Unavailable as exc:
        failed = exc
    if failed is None:
        lines = answer.body.splitlines(keepends=True)  # encoded JSON holds no raw newline
    else:  # the same error line for each item of the group
        lines = [failure(failed, Job("item", raw, limits, index=first + i)).body for i, raw in enumerate(raws)]
    for line in lines:
        count_batch_item(_status_decoder.decode(line).status == 200)
    return lines


def _array_items(body: bytes, limits: Limits) -> tuple[int, Iterator[bytes]]:
    """The items of a JSON array body; each must at least be an object (what the OpenAPI schema says)."""
    if json_depth_exceeds(body, max(SPLIT_DEPTH, limits.max_json_depth)):
        raise LimitExceeded(
            "max_json_depth",
            "body",
            msg("the JSON array nests deeper than {depth} levels and cannot be split into items", depth=SPLIT_DEPTH),
            400,
            limits,
        )
    raws = _array_decoder.decode(body)
    for i, raw in enumerate(raws):
        if not bytes(raw).startswith(b"{"):
            raise ShapeError([Issue(("items", i), "each item of the array must be a JSON object")])
    return len(raws), iter([bytes(r) for r in raws])


def _error_line(index: int, exc: Exception, kind: str) -> bytes:
    count_batch_item(False)
    return failure(exc, Job(kind, b"", LIMITS, index=index)).body


def ndjson_items(body: bytes) -> Iterator[bytes]:
    """The non-blank lines of an NDJSON body (LF or CR LF), one at a time."""
    start = 0
    while start < len(body):
        end = body.find(b"\n", start)
        if end < 0:
            end = len(body)
        line = body[start:end].strip()
        if line:
            yield line
        start = end + 1


def items_in_flight(limits: Limits) -> int:
    """Items of one batch computed at once: one on the event loop and up to half the compute
    workers (at least one), so that single requests still find a worker free or next in line."""
    return 1 + max(1, limits.compute_workers // 2)


class _Runners:
    """The state `in_order`'s runners and sender share: the items, the lines computed ahead of the
    one to send, and two signals. `ready` wakes the sender only when the line it awaits (or the
    end) is there, `room` wakes the runners when they may take more. A sender woken by every item
    computed ahead would never be found waiting when a disconnect's cancellation is delivered
    (anyio skips a task whose wait has just ended), and the runners would go on for as long."""

    def __init__(self, items: Iterator[bytes], request: Request, limits: Limits, kind: str, max_items: int | None):
        self.request, self.limits, self.kind, self.max_items = request, limits, kind, max_items
        self.count = items_in_flight(limits)
        self.grouped = kind == "item"  # small standings items go to a worker a few at a time (CHUNK_ITEMS)
        # Items taken beyond the next line to send (`may_take` adds room while a worker computes a
        # group: only for small items, so a disconnect wastes at most two groups of them more).
        self.ahead = self.count + 1
        self.gate = gate_of(request.app)
        self.source = enumerate(items)
        self.lines: dict[int, bytes] = {}
        self.next = 0  # the next line to send
        self.taken = 0  # items taken
        self.end: int | None = None  # the index of the end, once known
        self.in_group = 0  # items in a worker's group now
        self.ready = asyncio.Event()
        self.room = asyncio.Event()
        self.failed: list[Exception] = []  # what broke a runner (a worker that cannot start): ends the stream
        self.looked_at: list[tuple[int, bytes | None]] = []  # the next item, read but not taken yet

    def next_is_small(self) -> bool:
        if not self.looked_at:
            self.looked_at.append(next(self.source, (self.taken, None)))
        raw = self.looked_at[0][1]
        return raw is not None and len(raw) <= CHUNK_ITEM_BYTES

    def may_take(self) -> bool:
        """Within `ahead`; or, while a worker computes a group, as many small items past it as
        the group holds (the loop computes those meanwhile; a large one waits for the group)."""
        beyond = self.taken - self.next
        return beyond < self.ahead or (beyond < self.ahead + 2 * self.in_group and self.next_is_small())

    def take(self) -> tuple[int, bytes] | None:
        if self.end is not None:
            return None
        index, raw = self.looked_at.pop() if self.looked_at else next(self.source, (self.taken, None))
        if raw is None:
            self.end = index
            return None
        if index == self.max_items:  # counted on the way: NDJSON lines are not split up front
            limit = LimitExceeded(
                "max_batch_items",
                "items",
                msg("more than {count} items; the rest is not read", count=self.max_items),
                400,
                self.limits,
            )
            self.lines[index] = _error_line(index, limit, self.kind)
            self.end = index + 1
            return None
        self.taken = index + 1
        return index, raw

    def stop(self, at: int | None = None) -> None:
        if at is not None:
            self.end = at
        self.ready.set()
        self.room.set()

    async def run(self, spill: bool) -> None:
        """One runner: the next item (or group of small items) as soon as there is room, until the end."""
        while True:
            while not self.may_take() and self.end is None:
                self.room.clear()
                await self.room.wait()
            item = self.take()
            if item is None:
                self.stop()
                return
            index, raw = item
            group = [raw]
            if self.grouped and spill and len(raw) <= CHUNK_ITEM_BYTES and self.gate.pool.has_idle_worker():
                while len(group) < CHUNK_ITEMS and self.next_is_small() and (more := self.take()) is not None:
                    group.append(more[1])
            try:
                await self._compute(index, group, spill)
            except Exception as exc:  # noqa: BLE001 - not an item's error (those are lines): the stream's
                self.failed.append(exc)
                self.stop(at=index)
                return
            if self.next in self.lines:
                self.ready.set()

    async def _compute(self, index: int, group: list[bytes], spill: bool) -> None:
        if len(group) == 1:
            self.lines[index] = await run_item(index, group[0], self.request, self.limits, self.kind, spill)
            return
        self.in_group = len(group)
        self.room.set()  # the loop's runner may go on past the group
        try:
            self.lines.update(enumerate(await run_items(index, group, self.request, self.limits), start=index))
        finally:
            self.in_group = 0

    def ready_lines(self) -> bytes | None:
        """Every line ready in order, at once (a worker's group): one chunk to write and, gzipped,
        one flush, where each line cost its own."""
        chunk = []
        while (line := self.lines.pop(self.next, None)) is not None:
            chunk.append(line)
            self.next += 1
        if not chunk:
            return None
        self.room.set()
        return chunk[0] if len(chunk) == 1 else b"".join(chunk)


async def in_order(
    items: Iterator[bytes], request: Request, limits: Limits, kind: str, max_items: int | None = None
) -> AsyncIterator[bytes]:
    """One line per item, in input order, computed by `items_in_flight` runners that each take
    the next item as soon as they are free: one computes on the event loop, the others send
    theirs to an idle compute worker (else onto the loop as well); small standings items go to
    the worker up to CHUNK_ITEMS at a time (`run_items`). So the loop and a worker stay busy
    together whichever is the faster. At most one item more than the runners is computed ahead
    of the line awaited, and while a worker computes a group, the group and as many small items
    again past it. The lines ready in order are yielded together.

    With `max_items`, the item after that many is an error line naming the limit, and the end.
    A cancellation (client gone) lands in the line awaited: every runner is cancelled (a worker
    computing an item is killed) and no further item is started."""
    state = _Runners(items, request, limits, kind, max_items)
    tasks = [asyncio.ensure_future(state.run(spill=i > 0)) for i in range(state.count)]
    try:
        while True:
            if state.failed:
                raise state.failed[0]
            chunk = state.ready_lines()
            if chunk is not None:
                yield chunk
            elif state.end is not None and state.next >= state.end:
                return
            else:
                state.ready.clear()
                if state.next not in state.lines and not state.failed:
                    await state.ready.wait()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _ndjson_results(body: bytes, request: Request, limits: Limits, kind: str) -> AsyncIterator[bytes]:
    async for line in in_order(ndjson_items(body), request, limits, kind, max_items=limits.max_batch_items):
        yield line


async def _results(items: Iterator[bytes], request: Request, limits: Limits, kind: str) -> AsyncIterator[bytes]:
    async for line in in_order(items, request, limits, kind):
        yield line


async def _gzipped(lines: AsyncIterator[bytes], level: int) -> AsyncIterator[bytes]:
    """One gzip stream, flushed after every chunk of lines so that each arrives as soon as it is computed."""
    stream = GzipStream(level)
    async for line in lines:
        if len(line) >= GZIP_IN_THREAD_BYTES:
            yield await anyio.to_thread.run_sync(stream.chunk, line)
        else:
            yield stream.chunk(line)
    yield stream.end()


def _stream(lines: AsyncIterator[bytes], request: Request) -> Stream:
    ops = request.app.state.ops
    if ops.gzip_min_bytes > 0 and accepts_gzip(request):
        return Stream(
            _gzipped(lines, ops.batch_gzip_level),
            media_type=NDJSON,
            headers={"content-encoding": "gzip", "vary": "Accept-Encoding"},
        )
    return Stream(lines, media_type=NDJSON)


@post(
    "/v1/standings/batch",
    operation_id="computeStandingsBatch",
    summary="Standings for many tournaments; streams one NDJSON result line per item, in input order",
    description="A JSON array or NDJSON of standings requests, each with an optional `id`. The answer is "
    "NDJSON (`application/x-ndjson`): one BatchResult per item, sent as soon as it is computed, "
    "in input order, with the item's standings (`status` 200) or its problem (the status a "
    "single request would get). A bad item never fails the batch.",
    status_code=200,
    operation_class=BatchOperation,
    responses={code: spec for code, spec in PROBLEMS.items() if code != 422},  # item errors are lines
    opt=NO_COMPRESSION,
)
async def standings_batch(request: Request) -> Stream:
    return await _item_stream(request, "item")


async def _item_stream(request: Request, kind: str) -> Stream:
    """A body of items (a JSON array or NDJSON) to a stream of one NDJSON line per item, in order."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    ndjson = media in NDJSON_ALIASES
    if not ndjson and media != "application/json":
        raise HTTPException(status_code=415, detail=f"send a JSON array (application/json) or NDJSON ({NDJSON})")
    limits: Limits = request.app.state.limits
    # The whole body is read first (within the body limit): HTTP clients commonly send
    # all of it before reading any response, so reading it while streaming could stall
    # both sides once the socket buffers fill. The results are never held.
    body = await read_body(request)
    if body is None:
        raise HTTPException(status_code=400, detail="the client left before sending the whole body")
    gate = gate_of(request.app)
    if gate.saturated():  # admitted as a whole, or not at all; its items then wait their turn
        raise Unavailable("saturated", "the service is at capacity; retry shortly", 1)
    if ndjson:
        return _stream(_ndjson_results(body, request, limits, kind), request)
    if len(body) > SPLIT_IN_THREAD_BYTES:  # splitting a large array: off the event loop
        count, items = await anyio.to_thread.run_sync(_array_items, body, limits)
    else:
        count, items = _array_items(body, limits)
    if count > limits.max_batch_items:
        raise LimitExceeded(
            "max_batch_items", "items", msg_n("{n} item", "{n} items", count), 400, limits
        )  # the schema's maxItems
    return _stream(_results(items, request, limits, kind), request)


CheckOperation = items_operation(
    "CheckItem",
    "An archived file: `trf` and an optional `id`",
    "Archived TRF files to check: a JSON array of `{trf, id?}`, or NDJSON, one per line.",
    "CheckLine",
    "NDJSON, one line per file in input order: `{index, id, status, result, error}`, the result a report "
    "(consistent or inconsistent, and each disagreement)",
)


@post(
    "/v1/check",
    operation_id="checkArchive",
    summary="Check archived TRF files: their points and ranks against the standings under the edition of "
    "each file's date; streams one NDJSON report per file",
    description="What each file says (points column 81-84, rank column 86-89) against what the service "
    "computes under `auto-historic` (docs/archives.md). A file that cannot be read is that "
    "line's error; the check goes on to the end.",
    status_code=200,
    operation_class=CheckOperation,
    responses={code: spec for code, spec in PROBLEMS.items() if code != 422},  # file errors are lines
    opt=NO_COMPRESSION,
)
async def check_archive(request: Request) -> Stream:
    return await _item_stream(request, "check")


BATCH_ROUTES = [standings_batch, check_archive]
