"""`POST /v1/standings/batch`: many standings requests in, one NDJSON line per item out.

Items are computed one after another, each in a worker thread, and each result line
is sent as soon as it is ready, in input order: the server holds the request body
(bounded by the body limit) and one item's work, never the results. A bad item
becomes an error line with its problem+json body; the batch goes on. When the
client disconnects, the response stream is cancelled and no further item is started.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import anyio.to_thread
import msgspec
from litestar import Request, post
from litestar.exceptions import HTTPException
from litestar.openapi.spec import OpenAPIMediaType, OpenAPIResponse, Operation, RequestBody, Schema
from litestar.response import Stream

from ..engine.errors import Issue
from . import schemas as s
from .errors import EXCEPTION_HANDLERS, ShapeError, handle_unexpected, msgspec_problem
from .limits import LIMITS, Deadline, LimitExceeded, Limits, check_standings
from .pipeline import run_standings
from .metrics import count_batch_item
from .routes import PROBLEMS
from .schemas_io import BatchItem, BatchResult, ItemId
from .wire import WireDecoder

NDJSON = "application/x-ndjson"
NDJSON_ALIASES = frozenset({NDJSON, "application/ndjson", "application/jsonl", "application/x-jsonlines"})

_item_decoder = WireDecoder(BatchItem)
_array_decoder = msgspec.json.Decoder(list[msgspec.Raw])
_encoder = msgspec.json.Encoder()


class _IdOnly(msgspec.Struct):
    """Just the `id` of an item that failed to decode, if it has one that BatchResult's
    schema allows; an id outside it (too long, too large, a float) is not echoed."""

    id: ItemId | None = None


_id_decoder = WireDecoder(_IdOnly)


@dataclass
class BatchOperation(Operation):
    """Documents the two request media types and the NDJSON response (one BatchResult per line)."""

    def __post_init__(self) -> None:
        # Items are objects here, not BatchItem: an object that is not a valid BatchItem is
        # answered by an error line for that item (status 200 for the batch), by design.
        item = Schema(type="object", description="A standings request (schema BatchItem) with an optional `id`; "
                                                 "an item that does not match BatchItem gets an error line")
        self.request_body = RequestBody(required=True, content={
            "application/json": OpenAPIMediaType(schema=Schema(type="array", items=item,
                                                               max_items=LIMITS.max_batch_items)),
            NDJSON: OpenAPIMediaType(schema=item),
        }, description="A JSON array of standings requests, or NDJSON: one request per line. Each may carry an "
                       "`id`, echoed in its result line.")
        self.responses = dict(self.responses or {})
        self.responses["200"] = OpenAPIResponse(
            description="NDJSON, one line per item in input order: `{index, id, status, result, error}`",
            content={NDJSON: OpenAPIMediaType(schema={"$ref": "#/components/schemas/BatchResult"})},  # type: ignore[arg-type]
        )


def problem_of(request: Request | None, exc: Exception) -> s.Problem:
    """The problem+json body the error would get as a single request (errors.py decides).

    `request` is None outside HTTP (the command line's batch)."""
    if isinstance(exc, msgspec.MsgspecError):
        return msgspec_problem(exc).content
    for kind in type(exc).__mro__:
        handler = EXCEPTION_HANDLERS.get(kind)
        if handler is not None and kind is not Exception:
            return handler(request, exc).content
    if request is not None:
        return handle_unexpected(request, exc).content
    return s.Problem(type="about:blank", title="Internal Server Error", status=500,
                     detail=f"unexpected {type(exc).__name__}: {exc}", errors=[])


def _item_id(raw: bytes) -> str | int | None:
    try:
        return _id_decoder.decode(raw).id
    except (msgspec.MsgspecError, ValueError):
        return None


def run_item(index: int, raw: bytes, request: Request, limits: Limits) -> bytes:
    """One item to one NDJSON line; every failure becomes that item's error line."""
    try:
        item = _item_decoder.decode(raw)
        check_standings(item, limits)
        result = run_standings(item, limits, Deadline(limits))
        line = BatchResult(index=index, id=item.id, status=200, result=result, error=None)
    except Exception as exc:  # noqa: BLE001 - one bad item must not fail the batch
        problem = problem_of(request, exc)
        line = BatchResult(index=index, id=_item_id(raw), status=problem.status, result=None, error=problem)
    count_batch_item(line.status == 200)  # /metrics: tiebreak_batch_items_total{outcome}
    return _encoder.encode(line) + b"\n"


def _array_items(body: bytes) -> tuple[int, Iterator[bytes]]:
    """The items of a JSON array body; each must at least be an object (what the OpenAPI schema says)."""
    raws = _array_decoder.decode(body)
    for i, raw in enumerate(raws):
        if not bytes(raw).startswith(b"{"):
            raise ShapeError([Issue(("items", i), "each item of the array must be a JSON object")])
    return len(raws), (bytes(r) for r in raws)


def _error_line(index: int, request: Request, exc: Exception) -> bytes:
    problem = problem_of(request, exc)
    count_batch_item(False)
    return _encoder.encode(BatchResult(index=index, id=None, status=problem.status, result=None,
                                       error=problem)) + b"\n"


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


async def _ndjson_results(body: bytes, request: Request, limits: Limits) -> AsyncIterator[bytes]:
    for index, line in enumerate(ndjson_items(body)):
        if index == limits.max_batch_items:  # counted on the way: lines are not split up front
            yield _error_line(index, request, LimitExceeded(
                "max_batch_items", "items", f"more than {limits.max_batch_items} items; the rest is not read",
                400, limits))
            return
        yield await anyio.to_thread.run_sync(run_item, index, line, request, limits)


async def _results(items: Iterator[bytes], request: Request, limits: Limits) -> AsyncIterator[bytes]:
    for index, raw in enumerate(items):
        # A cancellation (client gone) lands here, between items: the rest is never started.
        yield await anyio.to_thread.run_sync(run_item, index, raw, request, limits)


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
)
async def standings_batch(request: Request) -> Stream:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    ndjson = media in NDJSON_ALIASES
    if not ndjson and media != "application/json":
        raise HTTPException(status_code=415, detail=f"send a JSON array (application/json) or NDJSON ({NDJSON})")
    limits: Limits = request.app.state.limits
    # The whole body is read first (within the body limit): HTTP clients commonly send
    # all of it before reading any response, so reading it while streaming could stall
    # both sides once the socket buffers fill. The results are never held.
    body = await request.body()
    if ndjson:
        return Stream(_ndjson_results(body, request, limits), media_type=NDJSON)
    count, items = _array_items(body)
    if count > limits.max_batch_items:
        raise LimitExceeded("max_batch_items", "items", f"{count} items", 400, limits)  # the schema's maxItems
    return Stream(_results(items, request, limits), media_type=NDJSON)


BATCH_ROUTES = [standings_batch]
