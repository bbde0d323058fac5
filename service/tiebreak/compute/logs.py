"""Log lines of the service and of its compute workers: JSON objects (the default, for log
collectors) or readable text (`TIEBREAK_LOG_FORMAT=text`), with the request id of the request
being handled. No web framework here: the worker processes log through it too."""

from __future__ import annotations

import contextvars
import json
import logging
import os
import re
import sys
import time
import uuid

REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)


class Faults:
    """The unexpected errors of one request: the first is logged with its traceback, the rest counted
    and logged as one line when the request ends (a check of 2,000 files is not 2,000 tracebacks)."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0


# Set per request by the HTTP middleware; its tasks (batch items) share the one object.
REQUEST_FAULTS: contextvars.ContextVar[Faults | None] = contextvars.ContextVar("request_faults", default=None)
fault_log = logging.getLogger("tiebreak.faults")


def note_faults(fault: str | None, count: int) -> None:
    """A computation's unexpected errors, logged under the request being handled: the first one only."""
    if not count:
        return
    faults = REQUEST_FAULTS.get()
    if faults is None or faults.count == 0:
        fault_log.error("unexpected error in a computation", extra={"traceback": fault})
    if faults is not None:
        faults.count += count


def faults_ended(faults: Faults) -> None:
    """At the end of a request: how many more unexpected errors it had than the one logged."""
    if faults.count > 1:
        fault_log.error(
            "more unexpected errors in this request", extra={"not_logged": faults.count - 1, "errors": faults.count}
        )


_VALID_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")


def request_id_from(value: str | None) -> str:
    """The client's X-Request-ID when it is a sane token, else a fresh one."""
    if value and _VALID_ID.match(value):
        return value
    return uuid.uuid4().hex


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request_id and any `extra` fields."""

    _STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
        "message",
        "asctime",
        "taskName",
        "color_message",
    }

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = REQUEST_ID.get()
        if request_id:
            entry["request_id"] = request_id
        for key, value in vars(record).items():
            if key not in self._STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


JsonFormatter.converter = time.gmtime


class TextFormatter(JsonFormatter):
    """One readable line per record, for a terminal (TIEBREAK_LOG_FORMAT=text, what `make run` uses):
    `12:01:02.345 INFO  service.access request method=POST path=/v1/standings status=200 ...`."""

    def format(self, record: logging.LogRecord) -> str:
        entry = json.loads(super().format(record))
        head = (
            f"{entry.pop('time')[11:23]} {entry.pop('level').upper():<5} {entry.pop('logger')} {entry.pop('message')}"
        )
        exception = entry.pop("exception", None)
        text = " ".join([head, *(f"{key}={value}" for key, value in entry.items())])
        return f"{text}\n{exception}" if exception else text


def log_format() -> str:
    """`json` (the default: one JSON object per line, for log collectors) or `text` (for people)."""
    return "text" if os.environ.get("TIEBREAK_LOG_FORMAT", "json").strip().lower() == "text" else "json"


def _formatter_class() -> type[logging.Formatter]:
    return TextFormatter if log_format() == "text" else JsonFormatter


def configure_logging(level: str = "INFO") -> None:
    """JSON lines on stderr for the service's loggers and uvicorn's (idempotent)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_formatter_class()())
    handler.set_name("tiebreak-json")
    for name in ("tiebreak", "uvicorn", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(h.get_name() == "tiebreak-json" for h in logger.handlers):
            for h in list(logger.handlers):
                logger.removeHandler(h)
            logger.addHandler(handler)
        logger.setLevel(level)
        logger.propagate = False
    # The middleware writes the access log (with the request id); uvicorn's would repeat it.
    logging.getLogger("uvicorn.access").disabled = True


def uvicorn_log_config() -> dict:
    """uvicorn's `log_config`: the same JSON lines from the first message on."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"tiebreak.compute.logs.{_formatter_class().__name__}"}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }
