"""From an HTTP request to the compute gate and back: every computing handler is
`answer_request(request, kind)` (read the body, run the job through the gate, answer).

One gate per event loop and app (worker pipes belong to a loop: `tiebreak serve` has one loop,
each test client runs the app on a loop of its own)."""

from __future__ import annotations

import asyncio
import time
import gc
from typing import Literal, overload

from litestar import Request, Response
from litestar.exceptions import HTTPException, InternalServerException

from ..compute import work
from ..compute.gate import Gate
from ..usecases import requests
from ..texts.message import LANGUAGE
from ..wire.limits import Deadline

# Route handlers with this `opt` are not compressed by litestar: the gate gzips their answers
# itself, in the worker for pooled ones, so that no large answer is compressed on the event loop.
NO_COMPRESSION = {"skip_compression": True}
COMPRESSION_OPT_KEY = "skip_compression"
CLIENT_CLOSED = 499  # nginx's "client closed request": logged and counted, never seen by the client
# Raw TRF text is refused rather than guessed at: one strict JSON schema validates every request,
# and the rules, regulations and options travel beside the text.
TRF_AS_TEXT = (
    "send the body as application/json; to send a TRF file, wrap its text in JSON: "
    '{"trf": "<the file\'s text>", "tiebreaks": ["BH/C1", "BH"]} '
    "(for example: jq -Rs '{trf: .}' event.trf | curl --json @- URL)"
)


@overload
def gate_of(app, create: Literal[True] = True) -> Gate: ...


@overload
def gate_of(app, create: bool) -> Gate | None: ...


def gate_of(app, create: bool = True) -> Gate | None:
    """The app's gate on the running event loop (made when there is none, unless not `create`)."""
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
    gate = gates[loop] = Gate(app.state.limits, loop, app.state.get("admission"))
    return gate


async def start_gate(app) -> None:
    """Lifespan start: every kind's decoder made, the gate of the server's loop, its workers
    started when asked (`tiebreak serve`)."""
    requests.ready()
    gate = gate_of(app)
    if app.state.ops.prestart_workers:
        await gate.start()
        # Everything imported so far lives as long as the process: out of the cyclic collector's
        # reach, so that a full collection (thousands of connections open) stays short.
        gc.collect()
        gc.freeze()


async def stop_gate(app) -> None:
    gate = gate_of(app, create=False)
    if gate is not None:
        await gate.close()
        app.state.gates.pop(gate.loop, None)


def response_of(answer: work.Answer) -> Response:
    headers = {}
    if answer.gzipped:
        headers["content-encoding"] = "gzip"
    if answer.gzipped or answer.media_type == work.JSON:
        headers["vary"] = "Accept-Encoding"
    if answer.retry_after_s:
        headers["retry-after"] = str(answer.retry_after_s)
    return Response(content=answer.body, status_code=answer.status, media_type=answer.media_type, headers=headers)


def accepts_gzip(request: Request) -> bool:
    return "gzip" in request.headers.get("accept-encoding", "").lower()


def job_for(request: Request, kind: str, body: bytes, gzip_ok: bool = True, index: int = 0) -> work.Job:
    ops = request.app.state.ops
    gzip_min = ops.gzip_min_bytes if gzip_ok and ops.gzip_min_bytes > 0 and accepts_gzip(request) else 0
    return work.Job(
        kind=kind,
        body=body,
        limits=request.app.state.limits,
        gzip_min_bytes=gzip_min,
        gzip_level=ops.gzip_level,
        index=index,
        lang=LANGUAGE.get(),  # negotiated by the middleware (ops.py)
    )


async def read_body(request: Request) -> bytes | None:
    """The whole body (within max_body_bytes), or None when the client left while sending it."""
    try:
        return await request.body()
    except InternalServerException as exc:
        if "disconnected" in str(exc.detail):
            return None
        raise


def check_media_type(request: Request) -> None:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json" and not media.endswith("+json"):
        if media.startswith("text/") or not media:
            raise HTTPException(status_code=415, detail=TRF_AS_TEXT)
        raise HTTPException(status_code=415, detail=f"send the body as application/json, not {media}")


async def until_disconnect(request: Request) -> None:
    """Returns when the client has gone (the body has been read: the next ASGI message says so)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


async def answer_request(request: Request, kind: str) -> Response:
    """A JSON endpoint's whole handling: read the body, compute through the gate, answer. When the
    client leaves first, the computation is cancelled (its worker killed)."""
    check_media_type(request)
    since = time.monotonic()  # a large body's reading counts as waiting its turn (the gate's lobby)
    body = await read_body(request)
    if body is None:
        return Response(b"", status_code=CLIENT_CLOSED)
    deadline = Deadline(request.app.state.limits, since)
    gate = gate_of(request.app)
    computation = asyncio.ensure_future(gate.run(job_for(request, kind, body), deadline))
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
    return response_of(computation.result())  # re-raises Unavailable: answered 503 by http/problems.py
