"""`tiebreak serve`: the HTTP service (the only command that imports tiebreak.http)."""

from __future__ import annotations

import argparse
import os
import sys

from ..texts.catalogue import current
from ..texts.message import msg

ADMIN_PORT = "TIEBREAK_ADMIN_PORT"
# Two server processes are what makes a 2-core machine serve small requests on both cores
# (decision 0285); more would multiply the compute workers and the admission ceilings again.
MOST_DEFAULT_WORKERS = 2


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, e.g. `taskset`), else the machine's."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def workers_of(given: int | None, environ: dict[str, str] | os._Environ, cores: int) -> int:
    """The uvicorn worker processes: --workers, else $WORKERS, else 2 with two cores or more, else 1.
    ValueError naming the setting when it is not a whole number of at least 1."""
    if given is not None:
        if given < 1:
            raise ValueError(current(msg("--workers must be at least 1")))
        return given
    text = environ.get("WORKERS", "").strip()
    if not text:
        return min(MOST_DEFAULT_WORKERS, max(1, cores))
    if not text.isdigit() or int(text) < 1:
        raise ValueError(current(msg("WORKERS must be a whole number, at least 1, not {value}", value=repr(text))))
    return int(text)


def run(args: argparse.Namespace) -> int:
    try:
        workers = workers_of(args.workers, os.environ, usable_cores())
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
