"""`tiebreak serve`: uvicorn with connection hygiene, JSON logs and graceful shutdown.

uvicorn bounds the time an idle keep-alive connection is kept, but not the time a
client takes to send its request line and headers, nor their size (with httptools),
nor the number of connections: one half-sent header kept a connection open forever,
and a 128 MB header was buffered whole. `GuardedHttpToolsProtocol` adds, per
connection:

- a **header timeout** (`TIEBREAK_HEADER_TIMEOUT_S`, 10 s): the request line and
  headers must be complete within it, from the connection's first byte (or from the
  first byte of the next request on a keep-alive connection); else the connection
  is closed;
- a **body timeout** (`TIEBREAK_BODY_TIMEOUT_S`, 60 s): the whole body must arrive
  within it once the headers are in; else 408 and close;
- a **header size limit** (`TIEBREAK_MAX_HEADER_BYTES`, 16 KiB): past it, 431 and
  close, after reading at most one more socket buffer;
- a **connection limit** (`TIEBREAK_MAX_CONNECTIONS`, 2048 per process): a new
  connection over it first evicts the connection that has waited longest for a
  complete request (a slow or idle client), so that probes and real clients still
  get in while idle sockets pile up; only when every connection is busy with a
  request is the new one closed at once.

The keep-alive timeout is uvicorn's (`TIEBREAK_KEEPALIVE_TIMEOUT_S`, 5 s). The
process also raises its soft open-file limit to the hard one.
"""

from __future__ import annotations

import asyncio
import os
import pathlib
import shutil
import socket
import tempfile

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from ..compute.logs import uvicorn_log_config
from ..wire.limits import env_float, env_int


# Every variable `tiebreak serve` reads besides HOST, PORT, WORKERS and the app's own (limits.ENV, ops.py).
SERVER_ENV = (
    "TIEBREAK_HEADER_TIMEOUT_S",
    "TIEBREAK_BODY_TIMEOUT_S",
    "TIEBREAK_MAX_HEADER_BYTES",
    "TIEBREAK_MAX_CONNECTIONS",
    "TIEBREAK_KEEPALIVE_TIMEOUT_S",
    "TIEBREAK_BACKLOG",
    "TIEBREAK_GRACEFUL_TIMEOUT_S",
    "TIEBREAK_ADMIN_PORT",
)


class ConnectionLimits:
    """Read from the environment once per process (uvicorn builds one protocol object per connection)."""

    def __init__(self) -> None:
        self.header_timeout_s = env_float("TIEBREAK_HEADER_TIMEOUT_S", 10.0)
        self.body_timeout_s = env_float("TIEBREAK_BODY_TIMEOUT_S", 60.0)
        self.max_header_bytes = env_int("TIEBREAK_MAX_HEADER_BYTES", 16 * 1024)
        self.max_connections = env_int("TIEBREAK_MAX_CONNECTIONS", 2048)
        self.keepalive_timeout_s = env_float("TIEBREAK_KEEPALIVE_TIMEOUT_S", 5.0)


def _plain_response(status: int, message: str) -> bytes:
    body = (
        f'{{"type":"about:blank","title":"{STATUS_LINE[status].decode().split(" ", 2)[2].strip()}",'
        f'"status":{status},"detail":"{message}","errors":[]}}'
    ).encode()
    return b"".join(
        [
            STATUS_LINE[status],
            b"content-type: application/problem+json\r\n",
            b"content-length: ",
            str(len(body)).encode(),
            b"\r\n",
            b"connection: close\r\n\r\n",
            body,
        ]
    )


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with header/body timeouts, a header size limit and a connection limit."""

    limits: ConnectionLimits | None = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if GuardedHttpToolsProtocol.limits is None:
            GuardedHttpToolsProtocol.limits = ConnectionLimits()
        self.guard = GuardedHttpToolsProtocol.limits
        self.awaiting_headers = True
        self.header_bytes = 0
        self.refused = False  # answered 408/431 and closing: the parser's callbacks are ignored
        self.read_timer: asyncio.TimerHandle | None = None
        # Connections waiting for a complete request, oldest first (shared by the server's connections:
        # kept in its ServerState, an attribute of ours that uvicorn's class does not declare).
        self.waiting: dict[GuardedHttpToolsProtocol, None] = vars(self.server_state).setdefault("tiebreak_waiting", {})

    # -- timers --
    def _arm(self, seconds: float, on_expiry) -> None:
        self._disarm()
        self.read_timer = self.loop.call_later(seconds, on_expiry)

    def _disarm(self) -> None:
        if self.read_timer is not None:
            self.read_timer.cancel()
            self.read_timer = None

    def _header_timeout(self) -> None:
        self.read_timer = None
        if self.awaiting_headers and not self.transport.is_closing():
            self.transport.close()  # nothing was asked for: no answer owed

    def _body_timeout(self) -> None:
        self.read_timer = None
        if self.cycle is not None and self.cycle.more_body and not self.cycle.response_started:
            self._refuse(408, "the request body did not arrive in time")
        elif not self.transport.is_closing():
            self.transport.close()

    def _refuse(self, status: int, message: str) -> None:
        self.refused = True
        if not self.transport.is_closing():
            self.transport.write(_plain_response(status, message))
            self.transport.close()

    def _waiting_for_request(self) -> None:
        self.awaiting_headers = True
        self.header_bytes = 0
        self.waiting.pop(self, None)
        self.waiting[self] = None  # the newest

    # -- protocol interface --
    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        if len(self.connections) > self.guard.max_connections:
            oldest = next(iter(self.waiting), None)
            if oldest is not None:
                self.waiting.pop(oldest, None)
                oldest.transport.close()  # the longest-waiting idle or slow client makes room
            else:
                self.transport.close()  # every connection is busy with a request
                return
        self._waiting_for_request()
        self._arm(self.guard.header_timeout_s, self._header_timeout)

    def connection_lost(self, exc) -> None:
        self._disarm()
        self.waiting.pop(self, None)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
        if self.awaiting_headers:
            self.header_bytes += len(data)
        super().data_received(data)
        # All the bytes received so far are header bytes when the headers are still not complete.
        if self.awaiting_headers and self.header_bytes > self.guard.max_header_bytes:
            self._refuse(
                431,
                f"the request line and headers exceed {self.guard.max_header_bytes} bytes (TIEBREAK_MAX_HEADER_BYTES)",
            )

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.read_timer is None:  # the next request of a keep-alive connection starts
            self._arm(self.guard.header_timeout_s, self._header_timeout)

    def on_headers_complete(self) -> None:
        self.awaiting_headers = False
        self.waiting.pop(self, None)
        size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        if size > self.guard.max_header_bytes:  # they arrived in one read: refused here, before any task
            self._disarm()
            self._refuse(
                431,
                f"the request line and headers exceed {self.guard.max_header_bytes} bytes (TIEBREAK_MAX_HEADER_BYTES)",
            )
            return
        super().on_headers_complete()
        self._arm(self.guard.body_timeout_s, self._body_timeout)

    def on_body(self, body: bytes) -> None:
        if not self.refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._disarm()
        if not self.refused:
            super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._waiting_for_request()  # idle until the next request: evictable, keep-alive timer running


def _raise_open_file_limit() -> None:
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard == resource.RLIM_INFINITY or soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def run(host: str, port: int, workers: int = 1) -> None:
    """uvicorn as `tiebreak serve` (and the container) starts it.

    On SIGTERM uvicorn stops accepting connections, lets the requests in flight finish
    (at most TIEBREAK_GRACEFUL_TIMEOUT_S seconds, default 25: under Kubernetes' default
    30 s grace period) and exits. With TIEBREAK_ADMIN_PORT it listens on that port too
    (metrics and the API description; see OpsMiddleware). With several workers and no
    PROMETHEUS_MULTIPROC_DIR, a directory of its own for the run (removed at the end).
    """
    multiproc = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if multiproc:  # the metric files of an earlier run would be added to this one's
        directory = pathlib.Path(multiproc)
        directory.mkdir(parents=True, exist_ok=True)
        for stale in directory.glob("*.db"):
            stale.unlink()
    elif workers > 1:  # /metrics adds up every worker's only through shared files: ours for this run
        own = tempfile.mkdtemp(prefix="tiebreak-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = own
        try:
            _run(host, port, workers)
        finally:
            del os.environ["PROMETHEUS_MULTIPROC_DIR"]
            shutil.rmtree(own, ignore_errors=True)
        return
    _run(host, port, workers)


def _run(host: str, port: int, workers: int) -> None:
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    _raise_open_file_limit()
    os.environ.setdefault("TIEBREAK_PRESTART_WORKERS", "1")  # compute workers ready before the first request
    limits = ConnectionLimits()
    config = uvicorn.Config(
        "tiebreak.http.app:app",
        host=host,
        port=port,
        workers=workers,
        log_config=uvicorn_log_config(),
        access_log=False,
        http=GuardedHttpToolsProtocol,
        timeout_keep_alive=int(limits.keepalive_timeout_s) or 1,
        backlog=env_int("TIEBREAK_BACKLOG", 2048),
        # uvicorn says int but hands it to asyncio.wait_for, which takes seconds as a float
        timeout_graceful_shutdown=env_float("TIEBREAK_GRACEFUL_TIMEOUT_S", 25.0),  # type: ignore[arg-type]
    )
    admin = os.environ.get("TIEBREAK_ADMIN_PORT", "").strip()
    server = uvicorn.Server(config)
    if workers <= 1:
        config.load_app()
        if admin:
            server.run(sockets=[config.bind_socket(), _bind(host, int(admin))])
        else:
            server.run()
        if not server.started:
            raise SystemExit(3)  # uvicorn's STARTUP_FAILURE
        return
    sockets = [config.bind_socket()] + ([_bind(host, int(admin))] if admin else [])
    Multiprocess(config, sockets=sockets).run()
