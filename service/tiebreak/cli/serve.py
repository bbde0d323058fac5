"""`tiebreak serve`: the HTTP service (the only command that imports tiebreak.http)."""

from __future__ import annotations

import argparse
import os
import sys

from ..texts.catalogue import current
from ..texts.message import msg

ADMIN_PORT = "TIEBREAK_ADMIN_PORT"


def workers_of(given: int | None, environ: dict[str, str] | os._Environ) -> int:
    """The uvicorn worker processes: --workers, else $WORKERS, else 1 (one process uses both cores of
    two through its compute worker: decision 0285). ValueError naming the setting when it is not a
    whole number of at least 1."""
    if given is not None:
        if given < 1:
            raise ValueError(current(msg("--workers must be at least 1")))
        return given
    text = environ.get("WORKERS", "").strip()
    if not text:
        return 1
    if not text.isdigit() or int(text) < 1:
        raise ValueError(current(msg("WORKERS must be a whole number, at least 1, not {value}", value=repr(text))))
    return int(text)


def run(args: argparse.Namespace) -> int:
    try:
        workers = workers_of(args.workers, os.environ)
    except ValueError as exc:
        print(f"tiebreak: {exc}", file=sys.stderr)
        return 2
    from ..http.server import run as serve  # JSON logs, graceful shutdown, metrics over workers, connection guards

    before = os.environ.get(ADMIN_PORT)
    if args.admin_port is not None:
        os.environ[ADMIN_PORT] = str(args.admin_port)  # read by the app and the server
    try:
        serve(args.host, args.port, workers)
    finally:  # as it was: `main` may run again in this process
        if before is None:
            os.environ.pop(ADMIN_PORT, None)
        else:
            os.environ[ADMIN_PORT] = before
    return 0
