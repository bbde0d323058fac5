"""A real uvicorn serving the app on a free loopback port, for the tests that need a socket
(a browser, the schemathesis command line)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def healthy(base: str, process: subprocess.Popen, timeout: float) -> bool:
    """Wait until the server at `base` answers /healthz (True), or its process ends or
    `timeout` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return True
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.1)


@contextlib.contextmanager
def uvicorn_server(env: dict[str, str] | None = None) -> Iterator[str]:
    """The base URL of a uvicorn started for the block, stopped after it.

    The listening socket is bound here and handed to uvicorn (`--fd`): a port chosen and
    released before the server binds it could be taken by another process meanwhile."""
    listener = socket.socket()
    # uvicorn takes an inherited socket for a Unix one and leaves Nagle's algorithm on: set
    # TCP_NODELAY here (accepted connections inherit it), or every small answer waits for the peer's delayed ACK.
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    port = listener.getsockname()[1]
    # The server's log goes to a file: a pipe nobody reads fills up (64 KiB) and the server
    # then blocks on its next log line, every request with it.
    log = tempfile.TemporaryFile()
    try:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "tiebreak.http.app:app",
                "--fd",
                str(listener.fileno()),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=log,
            pass_fds=(listener.fileno(),),
            env={**os.environ, "PYTHONUNBUFFERED": "1", "TIEBREAK_ACCESS_LOG": "0", **(env or {})},
        )
    finally:
        listener.close()  # the server has its own copy
    base = f"http://127.0.0.1:{port}"
    try:
        if not healthy(base, process, 30):
            log.seek(0)
            raise RuntimeError(f"uvicorn did not start: {log.read().decode(errors='replace')[-2000:]}")
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()
