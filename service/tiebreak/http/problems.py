"""Problems as HTTP responses: litestar's exception handlers, each a thin wrapper over
usecases.problems (which decides every status, title and message), plus the errors only HTTP
has (unknown routes and methods, the body-size check, litestar's own validation)."""

from __future__ import annotations

import logging

import msgspec

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from ..compute import metrics
from ..texts.catalogue import enc_hook
from ..texts.message import msg
from ..usecases.problems import KNOWN, TITLES, limit_of, problem, problem_of
from ..wire.limits import LIMITS, LimitExceeded, Unavailable
from ..wire.schemas import Problem, ProblemItem

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger("tiebreak.problems")


_encoder = msgspec.json.Encoder(enc_hook=enc_hook)


def problem_response(body: Problem, headers: dict[str, str] | None = None) -> Response[Problem]:
    """The problem encoded here, its texts in the language of the request (SPEC 3.10)."""
    return Response(_encoder.encode(body), status_code=body.status, media_type=PROBLEM_JSON, headers=headers)  # type: ignore[arg-type]


def handle_known(_: Request, exc: Exception) -> Response[Problem]:
    """Every error usecases.problems maps; a limit it names is counted."""
    body = problem_of(exc)
    limit = limit_of(exc)
    if limit is not None:
        metrics.LIMIT_REJECTIONS.labels(limit).inc()
    headers = {"Retry-After": str(exc.retry_after_s)} if isinstance(exc, Unavailable) else None
    return problem_response(body, headers)


def handle_validation(_: Request, exc: ValidationException) -> Response[Problem]:
    items = [
        ProblemItem(path=str(entry.get("key", "")), message=str(entry.get("message", "")))
        for entry in (exc.extra if isinstance(exc.extra, list) else [])
        if isinstance(entry, dict)
    ]
    return problem_response(problem(400, exc.detail, items))


def handle_http(request: Request, exc: HTTPException) -> Response[Problem]:
    if exc.status_code == 413:  # litestar's body-size check (Content-Length, or the bytes actually received)
        limits = getattr(request.app.state, "limits", LIMITS)
        return handle_known(
            request, LimitExceeded("max_body_bytes", "body", msg("the request body is too large"), 413, limits)
        )
    response = problem_response(problem(exc.status_code, exc.detail or TITLES.get(exc.status_code, "error")))
    if exc.headers:
        response.headers.update(exc.headers)
    return response


def handle_unexpected(request: Request, exc: Exception) -> Response[Problem]:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return problem_response(problem(500, msg("an unexpected error occurred; it has been logged")))


EXCEPTION_HANDLERS: dict = dict.fromkeys(KNOWN, handle_known)
EXCEPTION_HANDLERS.update(
    {ValidationException: handle_validation, HTTPException: handle_http, Exception: handle_unexpected}
)
