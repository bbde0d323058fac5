"""The one place where failures become RFC 9457 problem+json responses."""

from __future__ import annotations

import logging
import re

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from ..engine.errors import InconsistentCrosstable, InvalidRequest, format_path
from ..formats.trf import TrfError
from .limits import LIMITS, LimitExceeded, Unavailable, name_schema_limit
from .schemas import Problem, ProblemItem

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger("service.errors")

_TITLES = {
    400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 405: "Method Not Allowed",
    413: "Content Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Content",
    429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable",
}
_MSGSPEC_PATH = re.compile(r"^(?P<message>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)


def problem(status: int, detail: str, errors: list[ProblemItem] | None = None,
            title: str | None = None) -> Response[Problem]:
    body = Problem(
        type="about:blank",
        title=title or _TITLES.get(status, "Error"),
        status=status,
        detail=detail,
        errors=errors or [],
    )
    return Response(body, status_code=status, media_type=PROBLEM_JSON)


def msgspec_problem(exc: msgspec.MsgspecError, root: str = "") -> Response[Problem]:
    """A decoding or validation error of the body; msgspec names the path as `$.a.b[0]`."""
    m = _MSGSPEC_PATH.match(str(exc))
    message = m["message"] if m else str(exc)
    path = (m["path"] or "").lstrip(".") if m else ""
    if root:
        path = f"{root}.{path}" if path else root
    message, limit = name_schema_limit(path, message)
    if limit is not None:
        from .metrics import LIMIT_REJECTIONS

        LIMIT_REJECTIONS.labels(limit).inc()
    # msgspec.ValidationError subclasses DecodeError: test for it first.
    detail = ("the request does not match the schema" if isinstance(exc, msgspec.ValidationError)
              else "the request body is not valid JSON")
    return problem(400, detail, [ProblemItem(path=path, message=message)])


def handle_invalid_request(_: Request, exc: InvalidRequest) -> Response[Problem]:
    return problem(400, str(exc), [ProblemItem(path=format_path(i.path), message=i.message) for i in exc.issues])


def handle_inconsistent(_: Request, exc: InconsistentCrosstable) -> Response[Problem]:
    return problem(
        422,
        f"the crosstable contradicts itself ({len(exc.issues)} problem(s))",
        [ProblemItem(path=format_path(i.path, "tournament"), message=i.message) for i in exc.issues],
    )


def handle_trf(_: Request, exc: TrfError) -> Response[Problem]:
    return problem(400, f"the TRF text cannot be read: {exc}",
                   [ProblemItem(path=f"trf:{exc.line}:{exc.column}", message=exc.message)])


def handle_msgspec(_: Request, exc: msgspec.MsgspecError) -> Response[Problem]:
    return msgspec_problem(exc)


def handle_validation(_: Request, exc: ValidationException) -> Response[Problem]:
    items = []
    for entry in exc.extra if isinstance(exc.extra, list) else []:
        if isinstance(entry, dict):
            items.append(ProblemItem(path=str(entry.get("key", "")), message=str(entry.get("message", ""))))
    return problem(400, exc.detail, items)


def handle_limit(_: Request, exc: LimitExceeded) -> Response[Problem]:
    from .metrics import LIMIT_REJECTIONS

    LIMIT_REJECTIONS.labels(exc.limit).inc()
    return problem(exc.status, f"the request exceeds a limit: {exc.limit}",
                   [ProblemItem(path=exc.path, message=exc.message)],
                   title=None)


def handle_unavailable(_: Request, exc: Unavailable) -> Response[Problem]:
    """503: shed at capacity, or stopped at the deadline; both worth retrying after `Retry-After`."""
    if exc.limit:
        from .metrics import LIMIT_REJECTIONS

        LIMIT_REJECTIONS.labels(exc.limit).inc()
    title = "Compute deadline exceeded" if exc.reason == "deadline" else None
    response = problem(503, f"the service cannot answer now ({exc.reason}); retry after {exc.retry_after_s} s",
                       [ProblemItem(path="", message=exc.message)], title=title)
    response.headers["Retry-After"] = str(exc.retry_after_s)
    return response


def handle_http(request: Request, exc: HTTPException) -> Response[Problem]:
    status = exc.status_code
    if status == 413:
        # litestar's body-size check (Content-Length, or the bytes actually received)
        limits = getattr(request.app.state, "limits", LIMITS)
        return handle_limit(request, LimitExceeded("max_body_bytes", "body", "the request body is too large",
                                                   413, limits))
    detail = exc.detail or _TITLES.get(status, "error")
    response = problem(status, detail)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


def handle_unexpected(request: Request, exc: Exception) -> Response[Problem]:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return problem(500, "an unexpected error occurred; it has been logged")


EXCEPTION_HANDLERS = {
    LimitExceeded: handle_limit,
    Unavailable: handle_unavailable,
    InconsistentCrosstable: handle_inconsistent,
    InvalidRequest: handle_invalid_request,
    TrfError: handle_trf,
    msgspec.MsgspecError: handle_msgspec,
    ValidationException: handle_validation,
    HTTPException: handle_http,
    Exception: handle_unexpected,
}
