"""A job: the bytes of a request's body in, the bytes of its answer out.

The same code runs on the event loop (requests the cost model finds cheap) and in a compute
worker process (compute/worker.py, everything else). A `Job` is the raw body and what is
needed to answer it, an `Answer` the status and encoded body. Every failure becomes the
problem+json the single request would get (usecases/problems.py), so a job never raises, and
a batch item is always one line.

`prepare` reads a job in the one order that holds everywhere: decode strictly (a body that
does not match the schema is a 400 whatever it asks for), read and check it, price it once;
the `Task` it returns then `finish`es the computation. The gate looks at the price between.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import msgspec

from ..texts.catalogue import json_encoder
from ..texts.message import ENGLISH, language, msg
from ..usecases.cost import Estimate, check_cost, estimate
from ..usecases.problems import as_known, problem_of
from ..usecases.requests import KINDS
from ..wire.decode import WireDecoder, decode
from ..wire.io import BatchResult, CheckLine, ItemId
from ..wire.limits import LimitExceeded, Limits, Unavailable
from .compress import gzip_bytes

JSON = "application/json"
PROBLEM_JSON = "application/problem+json"


class Job(msgspec.Struct, array_like=True):
    """A request to compute: which kind (usecases.requests.KINDS, or "items"), its raw body and
    what shapes the answer."""

    kind: str  # "item": one item of a batch (its answer is the NDJSON line); "items": consecutive
    # ones (the body: their raw JSON as a msgpack list; the answer: their lines)
    body: bytes
    limits: Limits
    gzip_min_bytes: int = 0  # gzip the answer from this size on; 0: never (client or config says no)
    gzip_level: int = 5
    index: int = 0  # a batch item's position
    priced: bool = False  # the gate priced it already (read on the event loop): not refused twice
    lang: str = ENGLISH  # the language of the answer's texts (texts.catalogue.LANGUAGES)


class Answer(msgspec.Struct, array_like=True):
    status: int
    body: bytes
    media_type: str = JSON
    gzipped: bool = False
    engine_seconds: float = 0.0
    limit: str | None = None  # the limit that refused the request, for /metrics
    retry_after_s: int | None = None  # for 503s
    estimate_s: float | None = None  # what the cost model said, for logs and calibration
    memory_exhausted: bool = False  # a MemoryError: the worker process starts afresh
    # An unexpected error (a 500): its traceback, logged by the server once per request
    # (compute/logs.note_faults), and how many there were (a group of batch items).
    fault: str | None = None
    faults: int = 0


@dataclass
class Task:
    """A request read, checked and priced; `finish` computes and encodes it."""

    estimate: Estimate
    compute: Callable[[], Answer]
    job: Job

    def finish(self) -> Answer:
        try:
            with language(self.job.lang):
                answer = self.compute()
        except Exception as exc:  # noqa: BLE001 - becomes the request's problem+json
            answer = failure(exc, self.job)
        answer.estimate_s = self.estimate.seconds
        return answer


class _IdOnly(msgspec.Struct):
    """Just the `id` of a batch item that failed to decode, if it has one that BatchResult's
    schema allows; an id outside it (too long, too large, a float) is not echoed."""

    id: ItemId | None = None


_id_decoder = WireDecoder(_IdOnly)
# The kinds answered by one NDJSON line per item (a batch item, an archived file to check).
LINE_KINDS: dict[str, type[BatchResult] | type[CheckLine]] = {"item": BatchResult, "check": CheckLine}


def item_id(raw: bytes) -> str | int | None:
    try:
        return _id_decoder.decode(raw).id
    except (msgspec.MsgspecError, ValueError, RecursionError):
        return None


def failure(exc: BaseException, job: Job) -> Answer:
    """The answer a failure gets: the problem+json, or the item's NDJSON line carrying it."""
    with language(job.lang):
        return _failure(exc, job)


def _failure(exc: BaseException, job: Job) -> Answer:
    exhausted = isinstance(exc, MemoryError)
    exc = as_known(exc)
    unexpected: list[BaseException] = []
    problem = problem_of(exc, unexpected.append)
    fault = "".join(traceback.format_exception(unexpected[0])) if unexpected else None
    limit = getattr(exc, "limit", None)
    retry = exc.retry_after_s if isinstance(exc, Unavailable) else None
    if job.kind in LINE_KINDS:
        line = LINE_KINDS[job.kind](
            index=job.index, id=item_id(job.body), status=problem.status, result=None, error=problem
        )
        return Answer(
            problem.status,
            json_encoder().encode(line) + b"\n",
            JSON,
            limit=limit,
            retry_after_s=retry,
            memory_exhausted=exhausted,
            fault=fault,
            faults=len(unexpected),
        )
    return Answer(
        problem.status,
        json_encoder().encode(problem),
        PROBLEM_JSON,
        limit=limit,
        retry_after_s=retry,
        memory_exhausted=exhausted,
        fault=fault,
        faults=len(unexpected),
    )


def encoded(value, job: Job, engine_seconds: float = 0.0, item: str | int | None = None) -> Answer:
    """The JSON answer, within max_response_bytes, gzipped when the client accepts it; a batch
    item's is its NDJSON line (with the item's `id`), the result spliced in as it was encoded."""
    limits = job.limits
    data = json_encoder().encode(value)
    if len(data) > limits.max_response_bytes:
        raise LimitExceeded(
            "max_response_bytes",
            "",
            msg("the response would be {size} bytes; ask for `explain: false`, `top` or `player`", size=len(data)),
            413,
            limits,
        )
    if job.kind in LINE_KINDS:
        # the result as the JSON just encoded (a Raw is written as its bytes); the field's type is the schema's
        line = LINE_KINDS[job.kind](
            index=job.index, id=item, status=200, result=cast(Any, msgspec.Raw(data)), error=None
        )
        return Answer(200, json_encoder().encode(line) + b"\n", JSON, engine_seconds=engine_seconds)
    if job.gzip_min_bytes and len(data) >= job.gzip_min_bytes:
        return Answer(200, gzip_bytes(data, job.gzip_level), JSON, gzipped=True, engine_seconds=engine_seconds)
    return Answer(200, data, JSON, engine_seconds=engine_seconds)


_items_decoder = msgspec.msgpack.Decoder(list[bytes])


def _prepare_items(job: Job) -> Task:
    """Consecutive small items of a batch sent to a worker at once (http/batch.py), so that the
    worker has the next one at hand instead of waiting for the event loop to send it. Each is
    read, checked, priced and answered as an "item" job of its own (its errors are its line);
    the answer is their lines in order, priced as their sum."""
    raws = _items_decoder.decode(job.body)
    tasks = [
        prepare(msgspec.structs.replace(job, kind="item", body=raw, index=job.index + i)) for i, raw in enumerate(raws)
    ]
    priced = [t.estimate for t in tasks if isinstance(t, Task)]
    total = Estimate(
        sum(e.seconds for e in priced),
        max((e.memory_bytes for e in priced), default=0),
        sum(e.answer_bytes for e in priced),
    )

    def compute() -> Answer:
        answers = [t if isinstance(t, Answer) else t.finish() for t in tasks]
        return Answer(
            200,
            b"".join(a.body for a in answers),
            JSON,
            engine_seconds=sum(a.engine_seconds for a in answers),
            memory_exhausted=any(a.memory_exhausted for a in answers),
            fault=next((a.fault for a in answers if a.fault), None),
            faults=sum(a.faults for a in answers),
        )

    return Task(total, compute, job)


def prepare(job: Job) -> Task | Answer:
    """Decode, read, check and price a job; an Answer when that already fails."""
    try:
        if job.kind == "items":
            return _prepare_items(job)
        kind = KINDS[job.kind]
        request = decode(job.body, kind.decoder, job.limits)
        with language(job.lang):
            plan = kind.plan(request, job.limits, len(job.body))
        price = estimate(plan.counts) if job.priced else check_cost(plan.counts, job.limits)
    except Exception as exc:  # noqa: BLE001 - becomes the request's problem+json (or the item's line)
        return failure(exc, job)
    item = getattr(request, "id", None)
    return Task(price, lambda: encoded(plan.run(), job, plan.engine_seconds(), item), job)


def execute(job: Job) -> Answer:
    """The whole job, as a compute worker runs it."""
    prepared = prepare(job)
    return prepared if isinstance(prepared, Answer) else prepared.finish()
