"""`tiebreak serve`: the HTTP service (the only command that imports tiebreak.http)."""

from __future__ import annotations

import argparse
import os

ADMIN_PORT = "TIEBREAK_ADMIN_PORT"


def run(args: argparse.Namespace) -> int:
    from ..http.server import run as serve  # JSON logs, graceful shutdown, metrics over workers, connection guards

    before = os.environ.get(ADMIN_PORT)
    if args.admin_port is not None:
        os.environ[ADMIN_PORT] = str(args.admin_port)  # read by the app and the server
    try:
        serve(args.host, args.port, args.workers)
    finally:  # as it was: `main` may run again in this process
        if before is None:
            os.environ.pop(ADMIN_PORT, None)
        else:
            os.environ[ADMIN_PORT] = before
    return 0
