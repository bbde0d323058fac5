"""A job: the bytes of a request's body in, the bytes of its answer out.

The same code runs on the event loop (requests whose bound is cheap) and in a compute worker
process (compute/worker.py, everything else). A `Job` is the raw body and what is needed to
answer it, an `Answer` the status and encoded body. Every failure becomes the problem+json
the single request would get (usecases/problems.py), so a job never raises, and a batch item
is always one line.

A job goes through its use case (usecases/requests.py) in the one order that holds
everywhere: `read` decodes strictly (a body that does not match the schema is a 400 whatever it
asks for) and checks the limits the request shows; `planned` reads its input and prices it,
once; the `Task` it returns then `finish`es the computation and encodes it. The gate looks at
the reading's bound to choose where the plan is made (docs/decisions/0149-one-way-through-a-use-case.md).
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
from ..wire.scenarios import ScenariosResponse
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
    checked: bool = False  # read and checked on the event loop already: its limits are not checked again
    lang: str = ENGLISH  # the language of the answer's texts (texts.catalogue.LANGUAGES)


class Answer(msgspec.Struct, array_like=True):
    status: int
    body: bytes
    media_type: str = JSON
    gzipped: bool = False
    engine_seconds: float = 0.0
    # a scenario solver's `stats` (by pruning, by the solver, undecided, seconds), for /metrics:
    # the worker process that computed it keeps no counters the gate's /metrics reads
    solver: tuple[int, int, int, float] | None = None
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
    stats = value.stats if isinstance(value, ScenariosResponse) else None  # set by the solver only
    solver = None if stats is None else (stats.by_pruning, stats.by_solver, stats.undecided, stats.seconds)
    answer = Answer(200, data, JSON, engine_seconds=engine_seconds, solver=solver)
    return gzipped(answer, job.gzip_min_bytes, job.gzip_level)


def gzips(answer: Answer, minimum: int) -> bool:
    """Whether `gzipped` compresses this answer: a JSON 200 of `minimum` bytes or more (0: never)."""
    return bool(minimum) and len(answer.body) >= minimum and answer.status == 200 and answer.media_type == JSON


def gzipped(answer: Answer, minimum: int, level: int) -> Answer:
    """The answer gzipped at `level` when `gzips` says so: every gzipped answer of the service but
    a batch's stream, in a worker or (the gate's choice of thread) for the event loop."""
    if not gzips(answer, minimum):
        return answer
    return msgspec.structs.replace(answer, body=gzip_bytes(answer.body, level), gzipped=True)


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


@dataclass
class Reading:
    """A job's body decoded and its limits checked; `bound` what it costs at most (None: no bound
    short of reading its input), when the reader asked for it."""

    job: Job
    request: Any
    bound: Estimate | None = None


def read(job: Job, bounded: bool = False) -> Reading | Answer:
    """Decode and check a job (an Answer when that fails); with `bounded`, its bound too."""
    try:
        case = KINDS[job.kind]
        request = decode(job.body, case.decoder, job.limits)
        with language(job.lang):
            if not job.checked:
                case.check(request, job.limits)
            counts = case.bound(request, job.limits, len(job.body)) if bounded else None
    except Exception as exc:  # noqa: BLE001 - becomes the request's problem+json (or the item's line)
        return failure(exc, job)
    return Reading(job, request, None if counts is None else estimate(counts))


def planned(reading: Reading) -> Task | Answer:
    """Read a request's input and price it, once; an Answer when that already fails."""
    job = reading.job
    try:
        with language(job.lang):
            plan = KINDS[job.kind].plan(reading.request, job.limits, len(job.body))
        price = check_cost(plan.counts, job.limits)
    except Exception as exc:  # noqa: BLE001 - becomes the request's problem+json (or the item's line)
        return failure(exc, job)
    item = getattr(reading.request, "id", None)
    return Task(price, lambda: encoded(plan.run(True), job, plan.engine_seconds(), item), job)


def prepare(job: Job) -> Task | Answer:
    """Decode, check, read and price a job; an Answer when that already fails."""
    if job.kind == "items":
        return _prepare_items(job)
    reading = read(job)
    return reading if isinstance(reading, Answer) else planned(reading)


def execute(job: Job) -> Answer:
    """The whole job, as a compute worker runs it."""
    prepared = prepare(job)
    return prepared if isinstance(prepared, Answer) else prepared.finish()
