"""The work a request asks for, from the bytes of its body to the bytes of its answer.

The same code runs on the event loop (requests the cost model finds cheap) and in
a compute worker process (service/tiebreak/api/worker.py, everything else): a `Job` is the
raw body and what is needed to answer it, an `Answer` the status and encoded body.
Every failure becomes the problem+json the single request would get (errors.py
decides), so a worker never raises, and a batch item is always one line.

Each kind is read in two steps: `prepare` decodes the body (nesting bounded
first), reads the input (JSON or TRF), applies the limits and prices the work
with the cost model; the `Task` it returns then `finish`es the computation. The
gate looks at the price in between.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from . import schemas as s
from . import second_reader
from ..engine.model import ResultColumns
from .compress import gzip_bytes
from .convert import AnswerPieces
from .cost import Counts, Estimate, check_cost, explained_rows, returned_rows
from .limits import LIMITS, LimitExceeded, Limits, Unavailable, check_json_depth, check_standings, prescan
from .check import CheckItem, CheckLine, check_trf
from .schemas_io import BatchItem, BatchResult, ItemId
from .wire import WireDecoder

JSON = "application/json"
PROBLEM_JSON = "application/problem+json"
log = logging.getLogger("tiebreak.work")

KINDS = ("standings", "compare", "trf", "item", "items", "prizes", "check")


class Job(msgspec.Struct, array_like=True):
    """A request to compute: which endpoint, its raw body and what shapes the answer."""

    kind: str  # one of KINDS; "item" is one item of a batch (its answer is the NDJSON line); "items"
    # consecutive ones (the body: their raw JSON as a msgpack list; the answer: their lines)
    body: bytes
    limits: Limits
    gzip_min_bytes: int = 0  # gzip the answer from this size on; 0: never (client or config says no)
    gzip_level: int = 5
    index: int = 0  # a batch item's position
    body_in_file: int = 0  # the body's size when the gate wrote it to the worker's body file, not the pipe


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
    # The rest of the body, written after `body` (a worker's answer whose rows forked copies
    # built: convert.AnswerPieces); never sent to the gate as such: the worker writes the pieces
    # as one body frame.
    more_body: list | None = None


@dataclass
class Task:
    """A request read, checked and priced; `finish` computes and encodes it."""

    estimate: Estimate
    compute: Callable[[], Answer]
    job: Job

    def finish(self) -> Answer:
        try:
            answer = self.compute()
        except Exception as exc:  # noqa: BLE001 - becomes the request's problem+json
            answer = failure(exc, self.job.index, self.job.kind, self.job.body)
        answer.estimate_s = self.estimate.seconds
        return answer


# ---- errors ----

def problem_of(request, exc: Exception) -> s.Problem:
    """The problem+json body the error would get as a single request (errors.py decides).

    `request` is None outside HTTP (compute workers, the command line's batch)."""
    from .errors import EXCEPTION_HANDLERS, handle_unexpected, msgspec_problem

    if isinstance(exc, msgspec.MsgspecError):
        return msgspec_problem(exc).content
    for kind in type(exc).__mro__:
        handler = EXCEPTION_HANDLERS.get(kind)
        if handler is not None and kind is not Exception:
            return handler(request, exc).content
    if request is not None:
        return handle_unexpected(request, exc).content
    log.error("unexpected error in a computation", exc_info=exc)
    return s.Problem(type="about:blank", title="Internal Server Error", status=500,
                     detail="an unexpected error occurred; it has been logged", errors=[])


class _IdOnly(msgspec.Struct):
    """Just the `id` of a batch item that failed to decode, if it has one that BatchResult's
    schema allows; an id outside it (too long, too large, a float) is not echoed."""

    id: ItemId | None = None


_id_decoder = WireDecoder(_IdOnly)


def item_id(raw: bytes) -> str | int | None:
    try:
        return _id_decoder.decode(raw).id
    except (msgspec.MsgspecError, ValueError, RecursionError):
        return None


_encoder = msgspec.json.Encoder()


# The kinds answered by one NDJSON line per item (a batch item, an archived file to check).
LINE_KINDS = {"item": BatchResult, "check": CheckLine}


def out_of_memory(limits: Limits = LIMITS) -> LimitExceeded:
    """What a computation that ran out of a compute worker's memory is answered."""
    return LimitExceeded("max_memory_mib", "", "the computation needed more memory than a compute worker may use",
                         413, limits)


def failure(exc: BaseException, index: int = 0, kind: str = "standings", raw: bytes = b"") -> Answer:
    exhausted = isinstance(exc, MemoryError)
    if exhausted:
        exc = out_of_memory()
    elif isinstance(exc, RecursionError):
        exc = LimitExceeded("max_json_depth", "body", "the input nests too deeply", 400)
    problem = problem_of(None, exc)  # type: ignore[arg-type]
    limit = getattr(exc, "limit", None)
    retry = exc.retry_after_s if isinstance(exc, Unavailable) else None
    if kind in LINE_KINDS:
        line = LINE_KINDS[kind](index=index, id=item_id(raw), status=problem.status, result=None, error=problem)
        return Answer(problem.status, _encoder.encode(line) + b"\n", JSON, limit=limit, retry_after_s=retry,
                      memory_exhausted=exhausted)
    return Answer(problem.status, _encoder.encode(problem), PROBLEM_JSON, limit=limit, retry_after_s=retry,
                  memory_exhausted=exhausted)


# ---- decoding ----

# WireDecoder: strict, with `1.0` read as an integer as JSON Schema does (service/tiebreak/api/wire.py).
_standings_decoder = WireDecoder(s.StandingsRequest)
_item_decoder = WireDecoder(BatchItem)


def decode(data: bytes, decoder: WireDecoder, limits: Limits, shape_prescan: bool = True, two_readers: bool = False):
    """Strictly decode a body: nesting bounded, large bodies' lists counted before they are built.

    The nesting is checked before decoding when the decoder's schema could hold a body nested
    deeper than max_json_depth (wire.schema_depth). Every request schema is shallower than the
    limit, and msgspec stops at the first value out of place, so a body that decodes nests no
    deeper than its schema and one nested deeper fails within a few levels: the nesting is then
    checked only when reading fails, before the failure is reported, so that a body nested too
    deep is refused as such whatever else is wrong with it, as when it was checked first. (The
    check reads every byte: 23 ms of a 12.9 MB body.)

    `two_readers`: a large body's later players may be read by a second process
    (second_reader.py); the answer is then a second_reader.Read, the results as columns."""
    deep = decoder.depth is None or decoder.depth > limits.max_json_depth
    if deep:
        check_json_depth(data, limits)
    try:
        if shape_prescan:
            shape = prescan(data, limits)
            if two_readers and shape is not None:  # a large body's later players read by a second process
                read = second_reader.read(data, shape, decoder)
                if read is not None:
                    return read
        return decoder.decode(data)
    except Exception as exc:
        if not deep:
            check_json_depth(data, limits)
        if isinstance(exc, RecursionError):  # a second line of defence: check_json_depth should refuse it
            raise LimitExceeded("max_json_depth", "body", "the JSON nests too deeply", 400, limits) from None
        if isinstance(exc, msgspec.MsgspecError):
            exc.root_type = decoder.type  # errors.py lists the fields or values the schema allows there
            exc.empty_body = not data.strip()
        raise


def encoded(value, job: Job, status: int = 200, engine_seconds: float = 0.0) -> Answer:
    """The JSON answer, within max_response_bytes, gzipped when the client accepts it (`value`
    may be the answer's JSON already, as standings_to_wire returns a large one)."""
    pieces = value if isinstance(value, AnswerPieces) else None
    data = pieces[0] if pieces else value if isinstance(value, bytearray) else _encoder.encode(value)
    size = pieces.size() if pieces else len(data)
    limits = job.limits
    if size > limits.max_response_bytes:
        raise LimitExceeded("max_response_bytes", "", f"the response would be {size} bytes; ask for "
                            f"`explain: false`, `top` or `player`", 413, limits)
    if job.gzip_min_bytes and size >= job.gzip_min_bytes:
        return Answer(status, gzip_bytes(b"".join(pieces) if pieces else data, job.gzip_level), JSON, gzipped=True,
                      engine_seconds=engine_seconds)
    return Answer(status, data, JSON, engine_seconds=engine_seconds, more_body=pieces[1:] if pieces else None)


# ---- the kinds ----

def _standings_task(job: Job, request: s.StandingsRequest, read: ResultColumns | None = None) -> Task:
    from .pipeline import compute_plan, plan_standings

    limits = job.limits
    check_standings(request, limits)
    plan = plan_standings(request, limits, len(job.body), read=read)
    cost = check_cost(plan.counts, limits)

    def compute() -> Answer:
        response = compute_plan(plan, encode_rows=True, whole_answer=True)
        return encoded(response, job, engine_seconds=plan.engine_seconds)

    return Task(cost, compute, job)


def _prepare_standings(job: Job) -> Task:
    from ..engine.standings import cyclic_gc_paused

    # Decoding a large body makes a list per player: the cyclic collector would rescan the
    # players decoded so far again and again (5 ms of 45 for 20,000 players). JSON has no cycles.
    with cyclic_gc_paused():
        request = decode(job.body, _standings_decoder, job.limits, two_readers=True)
        if isinstance(request, second_reader.Read):  # its results are columns already
            return _standings_task(job, request.request, request.columns)
        return _standings_task(job, request)


def _prepare_item(job: Job) -> Task:
    """One batch item: the answer is its NDJSON line, the standings spliced in as raw JSON."""
    from .pipeline import compute_plan, plan_standings

    limits = job.limits
    item = decode(job.body, _item_decoder, limits)
    check_standings(item, limits)
    plan = plan_standings(item, limits, len(job.body))
    cost = check_cost(plan.counts, limits)

    def compute() -> Answer:
        response = _encoder.encode(compute_plan(plan, encode_rows=True))
        if len(response) > limits.max_response_bytes:
            raise LimitExceeded("max_response_bytes", "", f"the result would be {len(response)} bytes; ask for "
                                f"`explain: false`, `top` or `player`", 413, limits)
        line = BatchResult(index=job.index, id=item.id, status=200, result=msgspec.Raw(response), error=None)
        return Answer(200, _encoder.encode(line) + b"\n", JSON, engine_seconds=plan.engine_seconds)

    return Task(cost, compute, job)


def _prepare_compare(job: Job) -> Task:
    from .compare import _decoder, compute_compare, plan_compare

    limits = job.limits
    body = decode(job.body, _decoder, limits)
    if body.tournament is not None:
        from .limits import check_tournament

        check_tournament(len(body.tournament.players), body.tournament.rounds, limits)
    plan = plan_compare(body, limits, len(job.body))
    cost = check_cost(plan.counts, limits)

    def compute() -> Answer:
        return encoded(compute_compare(plan), job)  # tiebreak_engine_seconds counts standings only

    return Task(cost, compute, job)


def _prepare_trf(job: Job) -> Task:
    from .trf_routes import _convert_decoder, read_to_wire, write_from_wire

    limits = job.limits
    body = decode(job.body, _convert_decoder, limits)
    if body.trf is not None:
        if len(body.trf) > limits.max_trf_chars:
            raise LimitExceeded("max_trf_chars", "trf", f"{len(body.trf)} characters", 413, limits)
        # Reading is the work: priced from the text (a player line holds 10 characters per round).
        lines = body.trf.count("\n") + 1
        counts = Counts(players=lines, rounds=max(1, len(body.trf) // (10 * lines)), rule_passes=0,
                        body_bytes=len(job.body))
        cost = check_cost(counts, limits)
        return Task(cost, lambda: encoded(read_to_wire(body.trf, limits), job), job)
    from .limits import check_tournament
    from .pipeline import team_counts

    rules = len(body.tiebreaks or [])
    if rules > limits.max_rules:
        raise LimitExceeded("max_rules", "tiebreaks", f"{rules} rules", limits=limits)
    tournament = body.tournament
    if tournament is None:  # a team event (docs/teams.md)
        counts = team_counts(body, rules, False, len(job.body))
    else:
        check_tournament(len(tournament.players), tournament.rounds, limits)
        counts = Counts(players=len(tournament.players), rounds=tournament.rounds, rule_passes=max(1, rules),
                        body_bytes=len(job.body))
    cost = check_cost(counts, limits)
    return Task(cost, lambda: encoded(write_from_wire(body, limits), job), job)


# ---- refusing early: the price from the body's shape ----

class _TournamentShape(msgspec.Struct):
    players: list[msgspec.Raw] = []
    rounds: int = 1


class _StandingsShape(msgspec.Struct):
    tournament: _TournamentShape | None = None
    tiebreaks: list[msgspec.Raw] | None = None
    explain: bool = True
    top: int | None = None
    player: int | list[msgspec.Raw] | None = None
    after_round: int | None = None


class _ListShape(msgspec.Struct):
    tiebreaks: list[msgspec.Raw] | None = None


class _CompareShape(msgspec.Struct):
    tournament: _TournamentShape | None = None
    lists: list[_ListShape] = []
    explain: bool = True
    after_round: int | None = None


_SHAPES = {"standings": msgspec.json.Decoder(_StandingsShape), "item": msgspec.json.Decoder(_StandingsShape),
           "compare": msgspec.json.Decoder(_CompareShape)}
SHAPE_BYTES = 1024 * 1024


def _shape_counts(job: Job) -> Counts | None:
    try:
        shape = _SHAPES[job.kind].decode(job.body)
    except msgspec.MsgspecError:
        return None  # the strict decoder says what is wrong (RecursionError: price_early refuses it)
    if shape.tournament is None:
        return None  # TRF text: its size is known only once read
    players = len(shape.tournament.players)
    rounds = max(1, min(shape.after_round or shape.tournament.rounds, shape.tournament.rounds))
    if job.kind == "compare":
        rules = sum(max(1, len(item.tiebreaks or [])) for item in shape.lists) or 1
        explained = players * rules if shape.explain else 0
        lists, rows = max(1, len(shape.lists)), players
    else:
        rules = max(1, len(shape.tiebreaks or []))
        explained = explained_rows(shape.explain, players, shape.top, shape.player) * len(shape.tiebreaks or [])
        lists, rows = 1, returned_rows(players, shape.top, shape.player)
    return Counts(players=players, rounds=rounds, rule_passes=rules, explained_rules=explained,
                  body_bytes=len(job.body), lists=lists, rows=rows)


def price_early(job: Job) -> Answer | Estimate | None:
    """For a JSON body up to 1 MiB, before building it (msgspec skips the players as raw JSON;
    about 1 ms for 600 KB): the answer when its nesting or its price is over a limit, else the
    price when its shape tells it, else None. The counts are those the full reading gives (a
    preset counts as one rule), so the price is a lower bound: nothing the full check would admit
    is refused here, and a request priced over the inline budget here is over it after reading.
    The nesting is checked when something is wrong (the shape decoder recursed too deep, a
    price over a limit), so that a body nested too deep is refused as such, as `decode` does;
    one the shape decoder reads is read again strictly, which checks it if that fails."""
    if job.kind not in _SHAPES or len(job.body) > SHAPE_BYTES:
        return None
    try:
        counts = _shape_counts(job)
        return None if counts is None else check_cost(counts, job.limits)
    except Exception as exc:  # noqa: BLE001 - the limit's problem+json (or the item's line)
        try:  # a body nested too deep is refused as such first, as `decode` does
            check_json_depth(job.body, job.limits)
        except LimitExceeded as deep:
            exc = deep
        return failure(exc, job.index, job.kind, job.body)


def _prepare_prizes(job: Job) -> Task | Answer:
    from .. import prizes as pz
    from .prizes_pipeline import check_prizes, run_prizes
    from .prizes_routes import _decoder, _prescan, _problem_of, _schema_problem

    limits = job.limits
    check_json_depth(job.body, limits)
    _prescan(job.body, limits)
    try:
        body = decode(job.body, _decoder, limits, shape_prescan=False)
    except msgspec.ValidationError as exc:
        return _answer_of(_schema_problem(exc))
    check_prizes(body, limits)
    inner = body.standings_request
    if inner is not None and inner.tournament is not None:
        counts = Counts(players=len(inner.tournament.players), rounds=inner.tournament.rounds,
                        rule_passes=max(1, len(inner.tiebreaks or [])), body_bytes=len(job.body))
    elif inner is not None and inner.team_tournament is not None:  # teams as the rows (found by tests/contract)
        event = inner.team_tournament
        counts = Counts(players=len(event.teams), rounds=event.rounds,
                        rule_passes=max(1, len(inner.tiebreaks or [])), body_bytes=len(job.body))
    elif inner is not None:  # TRF text: priced from its size, as a conversion is
        lines = inner.trf.count("\n") + 1
        counts = Counts(players=lines, rounds=max(1, len(inner.trf) // (10 * lines)),
                        rule_passes=max(1, len(inner.tiebreaks or [])), body_bytes=len(job.body))
    else:
        counts = Counts(players=len(body.standings), rounds=1, body_bytes=len(job.body))
    cost = check_cost(counts, limits)

    def compute() -> Answer:
        try:
            return encoded(run_prizes(body, limits), job)
        except pz.PrizeInputError as exc:
            return _answer_of(_problem_of(exc))

    return Task(cost, compute, job)


def _answer_of(response) -> Answer:
    """A litestar problem Response built by a route's own helper, as an Answer."""
    return Answer(response.status_code, _encoder.encode(response.content), PROBLEM_JSON)


def _prepare_check(job: Job) -> Task:
    """One archived file of `POST /v1/check`: the answer is its NDJSON line (service/tiebreak/api/check.py)."""
    limits = job.limits
    item = decode(job.body, _check_decoder, limits)
    if len(item.trf) > limits.max_trf_chars:
        raise LimitExceeded("max_trf_chars", "trf", f"{len(item.trf)} characters", 413, limits)
    # Reading and ranking the file: priced from the text (a player line holds 10 characters per round).
    lines = item.trf.count("\n") + 1
    counts = Counts(players=lines, rounds=max(1, len(item.trf) // (10 * lines)), rule_passes=limits.max_rules,
                    body_bytes=len(job.body))
    cost = check_cost(counts, limits)

    def compute() -> Answer:
        line = CheckLine(index=job.index, id=item.id, status=200, result=check_trf(item.trf), error=None)
        return Answer(200, _encoder.encode(line) + b"\n", JSON)

    return Task(cost, compute, job)


_check_decoder = WireDecoder(CheckItem)
_items_decoder = msgspec.msgpack.Decoder(list[bytes])


def _prepare_items(job: Job) -> Task:
    """Consecutive small items of a batch sent to a worker at once (service/tiebreak/api/batch.py), so
    that the worker has the next one at hand instead of waiting for the event loop to send it.
    Each is read, checked, priced and answered as an "item" job of its own (its errors are its
    line); the answer is their lines in order, priced as their sum."""
    raws = _items_decoder.decode(job.body)
    tasks = [prepare(msgspec.structs.replace(job, kind="item", body=raw, index=job.index + i))
             for i, raw in enumerate(raws)]
    priced = [t.estimate for t in tasks if isinstance(t, Task)]
    estimate = Estimate(sum(e.seconds for e in priced), max((e.memory_bytes for e in priced), default=0),
                        sum(e.answer_bytes for e in priced))

    def compute() -> Answer:
        answers = [t if isinstance(t, Answer) else t.finish() for t in tasks]
        return Answer(200, b"".join(a.body for a in answers), JSON,
                      engine_seconds=sum(a.engine_seconds for a in answers),
                      memory_exhausted=any(a.memory_exhausted for a in answers))

    return Task(estimate, compute, job)


_PREPARE = {"standings": _prepare_standings, "compare": _prepare_compare, "trf": _prepare_trf,
            "item": _prepare_item, "items": _prepare_items, "prizes": _prepare_prizes, "check": _prepare_check}


def prepare(job: Job) -> Task | Answer:
    """Decode, read, check and price a job; an Answer when that already fails."""
    try:
        return _PREPARE[job.kind](job)
    except Exception as exc:  # noqa: BLE001 - becomes the request's problem+json (or the item's line)
        return failure(exc, job.index, job.kind, job.body)


def execute(job: Job, held: list | None = None) -> Answer:
    """The whole job, as a compute worker runs it.

    With `held`, the task (the request as read: for a large body, hundreds of thousands of
    objects) is appended to it instead of being freed on return: the worker frees it once the
    answer is written, so that the client does not wait for it."""
    prepared = prepare(job)
    if isinstance(prepared, Answer):
        return prepared
    if held is not None:
        held.append(prepared)
    return prepared.finish()
