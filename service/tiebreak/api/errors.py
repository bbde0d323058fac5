"""The one place where failures become RFC 9457 problem+json responses."""

from __future__ import annotations

import difflib
import logging
import re

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from ..engine.errors import InconsistentCrosstable, InvalidRequest, format_path
from ..formats.trf import TrfError
from .limits import LIMITS, LimitExceeded, Unavailable, name_schema_limit
from .schemas import Problem, ProblemItem, WarningOut

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger("tiebreak.errors")

_TITLES = {
    400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 405: "Method Not Allowed",
    413: "Content Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Content",
    429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable",
}
_MSGSPEC_PATH = re.compile(r"^(?P<message>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)


class TrfCrosstableError(InconsistentCrosstable):
    """A crosstable read from TRF that contradicts itself: its errors located at `trf:LINE:COLUMN`,
    with the warnings the reader gave (a line skipped as unknown is often the cause)."""

    def __init__(self, issues, located: list[tuple[str, str]], warnings):
        super().__init__(issues)
        self.located = located
        self.warnings = warnings


def problem(status: int, detail: str, errors: list[ProblemItem] | None = None,
            title: str | None = None, warnings: list[WarningOut] | None = None) -> Response[Problem]:
    body = Problem(
        type="about:blank",
        title=title or _TITLES.get(status, "Error"),
        status=status,
        detail=detail,
        errors=errors or [],
        warnings=warnings or [],
    )
    return Response(body, status_code=status, media_type=PROBLEM_JSON)


_PATH_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")
_UNKNOWN_FIELD = re.compile(r"Object contains unknown field `([^`]*)`")
_ENUM_VALUE = re.compile(r"Invalid enum value ('[^']*'|-?\d+)")
# Fields whose error deserves a word on what belongs there.
_PATH_HINTS = ((re.compile(r"players\[\d+\]\.id$"), "`id` is the start number (1 upwards); a FIDE ID goes in `fide_id`"),)


def _type_at(root: type, path: str):
    """The msgspec type info of the value at `$path` inside `root` (None when it cannot be followed)."""
    info = msgspec.inspect.type_info(root)
    for name, index in _PATH_PART.findall("." + path if path and not path.startswith("[") else path):
        info = _unwrap(info, struct=bool(name))
        if name:
            fields = {f.encode_name: f for f in getattr(info, "fields", ())}
            if name not in fields:
                return None
            info = fields[name].type
        else:
            info = getattr(info, "item_type", None)
            if info is None:
                return None
    return _unwrap(info, struct=True)


def _unwrap(info, struct: bool):
    """A union's member that can hold what the path goes on with (a struct, else a list)."""
    while isinstance(info, msgspec.inspect.Metadata):  # a field's description or bounds around its type
        info = info.type
    if isinstance(info, msgspec.inspect.UnionType):
        wanted = msgspec.inspect.StructType if struct else msgspec.inspect.ListType
        members = [m.type if isinstance(m, msgspec.inspect.Metadata) else m for m in info.types]
        for member in members:
            if isinstance(member, wanted):
                return member
        for member in members:
            if not isinstance(member, msgspec.inspect.NoneType):
                return member
    return info


def _schema_hint(root: type | None, path: str, message: str) -> str:
    """What the schema allows where the error is: the field names of an object, the values of an enum."""
    if root is None:
        return message
    try:
        if m := _UNKNOWN_FIELD.match(message):
            info = _type_at(root, path)
            names = [f.encode_name for f in getattr(info, "fields", ())]
            if names:
                close = difflib.get_close_matches(m[1], names, n=1, cutoff=0.6)
                suggestion = f"; did you mean `{close[0]}`?" if close else ""
                return f"{message}{suggestion} (fields here: {', '.join(names)})"
        elif m := _ENUM_VALUE.match(message):
            info = _type_at(root, path)
            values = [str(v) for v in getattr(info, "values", ())]
            if values:
                close = difflib.get_close_matches(m[1].strip("'"), values, n=1, cutoff=0.6)
                suggestion = f"; did you mean '{close[0]}'?" if close else ""
                return f"{message}{suggestion} (valid values: {', '.join(values)})"
    except (TypeError, ValueError, AttributeError):  # a type msgspec cannot describe: the plain message
        return message
    return message


def msgspec_problem(exc: msgspec.MsgspecError, root: str = "", root_type: type | None = None) -> Response[Problem]:
    """A decoding or validation error of the body; msgspec names the path as `$.a.b[0]`.

    `root_type` (the struct the body was decoded as; else the one `decode_json` noted on the
    exception) lets the message list the field names or enum values the schema allows."""
    m = _MSGSPEC_PATH.match(str(exc))
    message = m["message"] if m else str(exc)
    raw_path = (m["path"] or "") if m else ""
    path = raw_path.lstrip(".")
    message = _schema_hint(root_type or getattr(exc, "root_type", None), raw_path, message)
    for pattern, field_hint in _PATH_HINTS:
        if pattern.search(path) and "<=" in message:
            message = f"{message}; {field_hint}"
    if root:
        path = f"{root}.{path}" if path else root
    message, limit = name_schema_limit(path, message)
    if limit is not None:
        from .metrics import LIMIT_REJECTIONS

        LIMIT_REJECTIONS.labels(limit).inc()
        exc.limit = limit  # a compute worker's answer carries it to the gate, which counts it (work.failure)
    # msgspec.ValidationError subclasses DecodeError: test for it first.
    if isinstance(exc, msgspec.ValidationError):
        detail = "the request does not match the schema"
    elif getattr(exc, "empty_body", False):
        detail, message = "the request body is empty", "send a JSON object, e.g. {\"tournament\": {...}} or {\"trf\": \"...\"}"
    else:
        detail = "the request body is not valid JSON"
    return problem(400, detail, [ProblemItem(path=path, message=message)])


class ShapeError(InvalidRequest):
    """The body does not have the shape the OpenAPI document describes (found outside msgspec)."""


# 400 means "the body does not match the OpenAPI document" (msgspec's errors and ShapeError);
# a body that matches but whose content cannot be computed (a rule unknown under the rule
# set, unreadable TRF text, a `player` not in the event, a crosstable that contradicts
# itself) is a 422. So a client can validate against the document and meet 400 never.
def handle_invalid_request(_: Request, exc: InvalidRequest) -> Response[Problem]:
    root = getattr(exc, "root", "")  # a team event's paths are under `team_tournament`
    status = 400 if isinstance(exc, ShapeError) else 422
    return problem(status, str(exc), [ProblemItem(path=format_path(i.path, root), message=i.message)
                                      for i in exc.issues])


def handle_inconsistent(_: Request, exc: InconsistentCrosstable) -> Response[Problem]:
    detail = f"the crosstable contradicts itself ({len(exc.issues)} problem(s))"
    if isinstance(exc, TrfCrosstableError):
        return problem(422, detail + " (paths are trf:LINE:COLUMN of the TRF text)",
                       [ProblemItem(path=path, message=message) for path, message in exc.located],
                       warnings=[WarningOut(code=w.code, message=w.message, rule=w.rule) for w in exc.warnings])
    return problem(
        422, detail,
        [ProblemItem(path=format_path(i.path, getattr(exc, "root", "tournament")), message=i.message)
         for i in exc.issues],  # a team event's paths are under `team_tournament`
    )


def handle_trf(_: Request, exc: TrfError) -> Response[Problem]:
    warnings = [WarningOut(code=w.code, message=f"line {w.line}, column {w.column}: {w.message}", rule=None)
                for w in getattr(exc, "warnings", [])]
    return problem(422, f"the TRF text cannot be read: {exc}",
                   [ProblemItem(path=f"trf:{exc.line}:{exc.column}", message=exc.message)], warnings=warnings)


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
