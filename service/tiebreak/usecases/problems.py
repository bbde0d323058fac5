"""The one place where a failure becomes an RFC 9457 problem (`wire.schemas.Problem`), without a
web framework: the HTTP layer, the compute workers and the command line all call `problem_of`.

400 means "the body does not match the OpenAPI document" (msgspec's errors and ShapeError); a
body that matches but whose content cannot be computed (a rule unknown under the rule set,
unreadable TRF text, a `player` not in the event, a crosstable that contradicts itself) is a
422. So a client can validate against the document and meet 400 never.
"""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Callable
from typing import Any

import msgspec

from .. import prizes as pz
from ..engine.errors import InconsistentCrosstable, InvalidRequest, format_path
from ..formats.trf import TrfError, located_warning
from ..texts.message import Joined, msg, msg_n
from ..wire.io import WRITING_ONLY
from ..wire.limits import LIMITS, LimitExceeded, TooManyOpenGames, Unavailable, name_schema_limit
from ..wire.schemas import Problem, ProblemItem, WarningOut

log = logging.getLogger("tiebreak.problems")

TITLES: dict[int, str] = {
    400: msg("Bad Request"),
    401: msg("Unauthorized"),
    404: msg("Not Found"),
    405: msg("Method Not Allowed"),
    413: msg("Content Too Large"),
    415: msg("Unsupported Media Type"),
    422: msg("Unprocessable Content"),
    429: msg("Too Many Requests"),
    500: msg("Internal Server Error"),
    503: msg("Service Unavailable"),
}
# msgspec's own messages, said in the reader's language (the rest stay as msgspec words them);
# in English each is msgspec's text unchanged.
_MSGSPEC_MESSAGES: tuple[tuple[re.Pattern[str], Callable[..., str]], ...] = (
    (
        re.compile(r"^Expected `(?P<expected>[^`]*)`, got `(?P<got>[^`]*)`$"),
        lambda **a: msg("Expected `{expected}`, got `{got}`", **a),
    ),
    (
        re.compile(r"^Object missing required field `(?P<field>[^`]*)`$"),
        lambda **a: msg("Object missing required field `{field}`", **a),
    ),
    (
        re.compile(r"^Expected `(?P<expected>[^`]*)` (?P<bound>[<>]=?) (?P<limit>-?\d+)$"),
        lambda **a: msg("Expected `{expected}` {bound} {limit}", **a),
    ),
    (
        re.compile(r"^Expected `(?P<expected>[^`]*)` of length (?P<bound>[<>]=?) (?P<limit>\d+)$"),
        lambda **a: msg("Expected `{expected}` of length {bound} {limit}", **a),
    ),
    (  # POST /v1/trf reading `trf` with fields that only writing takes (wire/io.py)
        re.compile(re.escape(WRITING_ONLY) + "$"),
        lambda: msg(
            "`tiebreaks`, `regulations`, `unrated_rating`, `seed`, `ratings`, `tiebreak_changes` and "
            "`swiss_manager_numbers` are for writing a `tournament` as TRF; they do not apply when reading `trf`"
        ),
    ),
    (
        re.compile(r"^Input starts with a UTF-8 byte order mark \(BOM\)$"),
        lambda **a: msg("the body starts with a UTF-8 byte order mark (BOM, bytes EF BB BF): send UTF-8 without it"),
    ),
    (
        re.compile(r"^Object repeats the key `(?P<key>[^`]*)`$"),
        lambda **a: msg("an object repeats the key `{key}` (RFC 8259 4): each key once, please", **a),
    ),
)


def _msgspec_message(message: str) -> str:
    for pattern, said in _MSGSPEC_MESSAGES:
        if m := pattern.match(message):
            return said(**m.groupdict())
    return message


_MSGSPEC_PATH = re.compile(r"^(?P<message>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)


class ShapeError(InvalidRequest):
    """The body does not have the shape the OpenAPI document describes (found outside msgspec)."""


class TrfCrosstableError(InconsistentCrosstable):
    """A crosstable read from TRF that contradicts itself: its errors located at `trf:LINE:COLUMN`,
    with the warnings the reader gave (a line skipped as unknown is often the cause)."""

    def __init__(self, issues, located: list[tuple[str, str]], warnings):
        super().__init__(issues)
        self.located = located
        self.warnings = warnings


def problem(
    status: int,
    detail: str,
    errors: list[ProblemItem] | None = None,
    title: str | None = None,
    warnings: list[WarningOut] | None = None,
) -> Problem:
    return Problem(
        type="about:blank",
        title=title or TITLES.get(status, "Error"),
        status=status,
        detail=detail,
        errors=errors or [],
        warnings=warnings or [],
    )


_PATH_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")
_UNKNOWN_FIELD = re.compile(r"Object contains unknown field `([^`]*)`")
_ENUM_VALUE = re.compile(r"Invalid enum value ('[^']*'|-?\d+)")
# Fields whose error deserves a word on what belongs there.
_PATH_HINTS = (
    (re.compile(r"players\[\d+\]\.id$"), "`id` is the start number (1 upwards); a FIDE ID goes in `fide_id`"),
)
# A decimal string of a prize request that does not match its pattern is said in words, not as the regex.
_DECIMAL_TEXT = {
    "hort_keep": 'not a part between 0 and 1: write a decimal string such as "0.5"',
    "amount": 'not an amount: write a non-negative decimal string such as "150" or "99.50" (at most 6 decimals)',
    "unit": 'not a currency unit: write a positive decimal string such as "0.01" or "1"',
}


def _type_at(root: type, path: str):
    """The msgspec type info of the value at `$path` inside `root` (None when it cannot be followed)."""
    info: msgspec.inspect.Type | None = msgspec.inspect.type_info(root)
    for name, _index in _PATH_PART.findall("." + path if path and not path.startswith("[") else path):
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
            names = [f.encode_name for f in getattr(_type_at(root, path), "fields", ())]
            if names:
                close = difflib.get_close_matches(m[1], names, n=1, cutoff=0.6)
                suggestion = f"; did you mean `{close[0]}`?" if close else ""
                return f"{message}{suggestion} (fields here: {', '.join(names)})"
        elif m := _ENUM_VALUE.match(message):
            values = [str(v) for v in getattr(_type_at(root, path), "values", ())]
            if values:
                close = difflib.get_close_matches(m[1].strip("'"), values, n=1, cutoff=0.6)
                suggestion = f"; did you mean '{close[0]}'?" if close else ""
                return f"{message}{suggestion} (valid values: {', '.join(values)})"
    except (TypeError, ValueError, AttributeError):  # a type msgspec cannot describe: the plain message
        return message
    return message


def msgspec_problem(exc: msgspec.MsgspecError, root: str = "", root_type: type | None = None) -> Problem:
    """A decoding or validation error of the body; msgspec names the path as `$.a.b[0]`.

    `root_type` (the struct the body was decoded as; else the one `wire.decode` noted on the
    exception) lets the message list the field names or enum values the schema allows. A schema
    limit it names is noted on the exception (`limit`), for /metrics."""
    m = _MSGSPEC_PATH.match(str(exc))
    message = _msgspec_message(m["message"] if m else str(exc))
    raw_path = (m["path"] or "") if m else ""
    path = raw_path.lstrip(".")
    message = _schema_hint(root_type or getattr(exc, "root_type", None), raw_path, message)
    for pattern, field_hint in _PATH_HINTS:
        if pattern.search(path) and "<=" in message:
            message = Joined(message, "; ", field_hint)
    if root:
        path = f"{root}.{path}" if path else root
    message, limit = name_schema_limit(path, message)
    if limit is not None:
        exc.limit = limit  # type: ignore[attr-defined]
    field = path.rsplit(".", 1)[-1]
    if "matching regex" in message and field in _DECIMAL_TEXT:
        message = _DECIMAL_TEXT[field]
    # msgspec.ValidationError subclasses DecodeError: test for it first.
    if isinstance(exc, msgspec.ValidationError):
        detail = msg("the request does not match the schema")
    elif getattr(exc, "empty_body", False):
        detail, message = (
            msg("the request body is empty"),
            msg('send a JSON object, e.g. {{"tournament": {{...}}}} or {{"trf": "..."}}'),
        )
    else:
        detail = msg("the request body is not valid JSON")
    return problem(400, detail, [ProblemItem(path=path, message=message)])


def _invalid_request(exc: InvalidRequest) -> Problem:
    root = getattr(exc, "root", "")  # a team event's paths are under `team_tournament`
    status = 400 if isinstance(exc, ShapeError) else 422
    return problem(
        status,
        _joined([i.message for i in exc.issues[:5]]),
        [ProblemItem(path=format_path(i.path, root), message=i.message) for i in exc.issues],
    )


def _joined(messages: list[str]) -> str:
    """Messages one after the other, each in the reader's language."""
    return Joined(*(part for k, text in enumerate(messages) for part in ("; " if k else "", text)))


def _inconsistent(exc: InconsistentCrosstable) -> Problem:
    count = len(exc.issues)
    detail = msg_n(
        "the crosstable contradicts itself ({n} problem)", "the crosstable contradicts itself ({n} problems)", count
    )
    if isinstance(exc, TrfCrosstableError):
        return problem(
            422,
            msg_n(
                "the crosstable contradicts itself ({n} problem; paths are trf:LINE:COLUMN of the TRF text)",
                "the crosstable contradicts itself ({n} problems; paths are trf:LINE:COLUMN of the TRF text)",
                count,
            ),
            [ProblemItem(path=path, message=message) for path, message in exc.located],
            warnings=[WarningOut(code=w.code, message=w.message, rule=w.rule) for w in exc.warnings],
        )
    return problem(
        422,
        detail,
        [
            ProblemItem(path=format_path(i.path, getattr(exc, "root", "tournament")), message=i.message)
            for i in exc.issues
        ],
    )


def _trf(exc: TrfError) -> Problem:
    warnings = [WarningOut(code=w.code, message=located_warning(w), rule=None) for w in getattr(exc, "warnings", [])]
    return problem(
        422,
        msg(
            "the TRF text cannot be read: {reason}",
            reason=msg(
                "line {line}, column {column}: {message}", line=exc.line, column=exc.column, message=exc.message
            ),
        ),
        [ProblemItem(path=f"trf:{exc.line}:{exc.column}", message=exc.message)],
        warnings=warnings,
    )


def _limit(exc: LimitExceeded) -> Problem:
    if isinstance(exc, TooManyOpenGames):  # read by an arbiter: no limit's name (decision 0230)
        detail = exc.summary
    else:
        detail = msg("the request exceeds a limit: {limit}", limit=exc.limit)
    return problem(
        exc.status,
        detail,
        [ProblemItem(path=exc.path, message=exc.message)],
    )


def _unavailable(exc: Unavailable) -> Problem:
    """503: shed at capacity, or stopped at the deadline; both worth retrying after `Retry-After`."""
    title = msg("Compute deadline exceeded") if exc.reason == "deadline" else None
    return problem(
        503,
        msg(
            "the service cannot answer now ({reason}); retry after {seconds} s",
            reason=exc.reason,
            seconds=exc.retry_after_s,
        ),
        [ProblemItem(path="", message=exc.message)],
        title=title,
    )


def _prizes(exc: pz.PrizeInputError) -> Problem:
    # The body matched the schema; what the prize rules refuse is content the schema cannot express
    # (an unknown category, an amount finer than the unit, standings out of order): a 422.
    count = len(exc.problems)
    detail = (
        msg_n(
            "the standings contradict themselves ({n} problem)",
            "the standings contradict themselves ({n} problems)",
            count,
        )
        if exc.status == 422
        else msg_n(
            "the prizes cannot be distributed as given ({n} problem)",
            "the prizes cannot be distributed as given ({n} problems)",
            count,
        )
    )
    return problem(
        422,
        detail,
        [ProblemItem(path=pz.format_path(p.path), message=p.message) for p in exc.problems],
    )


def out_of_memory(limits=LIMITS) -> LimitExceeded:
    """What a computation that ran out of a compute worker's memory is answered."""
    return LimitExceeded(
        "max_memory_mib", "", msg("the computation needed more memory than a compute worker may use"), 413, limits
    )


def as_known(exc: BaseException) -> BaseException:
    """Errors of the machine (memory, recursion) as the limits they hit."""
    if isinstance(exc, MemoryError):
        return out_of_memory()
    if isinstance(exc, RecursionError):
        return LimitExceeded("max_json_depth", "body", msg("the input nests too deeply"), 400)
    return exc


# Each handler takes the error of its own kind.
_MAPPING: tuple[tuple[type[Exception], Callable[[Any], Problem]], ...] = (
    (LimitExceeded, _limit),
    (Unavailable, _unavailable),
    (InconsistentCrosstable, _inconsistent),
    (InvalidRequest, _invalid_request),
    (TrfError, _trf),
    (msgspec.MsgspecError, msgspec_problem),
    (pz.PrizeInputError, _prizes),
)


KNOWN = tuple(kind for kind, _ in _MAPPING)  # the errors answered 4xx/503: the rest are bugs (500)


def problem_of(exc: BaseException, on_fault: Callable[[BaseException], None] | None = None) -> Problem:
    """The problem an error is answered with; anything unexpected is answered 500 and logged, or
    handed to `on_fault` (a compute job's answer carries it, and the server logs it once per request)."""
    exc = as_known(exc)
    for kind, mapped in _MAPPING:
        if isinstance(exc, kind):
            return mapped(exc)
    if on_fault is not None:
        on_fault(exc)
    else:
        log.error("unexpected error in a computation", exc_info=exc)
    return problem(500, msg("an unexpected error occurred; it has been logged"))


def limit_of(exc: BaseException) -> str | None:
    """The limit an error names, for /metrics."""
    return getattr(as_known(exc), "limit", None)
