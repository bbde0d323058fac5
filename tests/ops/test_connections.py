"""Connection hygiene of `tiebreak serve` (service/tiebreak/http/server.py), over raw sockets on loopback.

One real server with short timeouts; every test talks HTTP/1.1 by hand, because the
point is what a client that does not follow the protocol can do.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from testkit.loopback import free_port
from tests.contract.real_server import healthy

ROOT = Path(__file__).resolve().parents[2]
TIEBREAK = Path(sys.executable).parent / "tiebreak"
MAX_CONNECTIONS = 64


@pytest.fixture(scope="module")
def server():
    port, admin = free_port(), free_port()
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WORKERS": "1",
        "TIEBREAK_ACCESS_LOG": "0",
        "TIEBREAK_HEADER_TIMEOUT_S": "1",
        "TIEBREAK_BODY_TIMEOUT_S": "1",
        "TIEBREAK_KEEPALIVE_TIMEOUT_S": "1",
        "TIEBREAK_MAX_CONNECTIONS": str(MAX_CONNECTIONS),
        "TIEBREAK_ADMIN_PORT": str(admin),
    }
    process = subprocess.Popen(
        [str(TIEBREAK), "serve"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    if not healthy(base, process, 30):
        process.kill()
        pytest.fail("tiebreak serve did not start")
    yield port, admin
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    return sock


def closed_within(sock: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Whether the server closes the connection within `seconds`, and what it sent before."""
    sock.settimeout(seconds)
    received = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return True, received
            received += chunk
    except TimeoutError:
        return False, received
    except ConnectionResetError:
        return True, received


@pytest.mark.server
def test_a_half_sent_header_is_closed_after_the_header_timeout(server):
    port, _ = server
    sock = connect(port)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # never finished
    started = time.monotonic()
    closed, sent = closed_within(sock, 10)
    assert closed and sent == b""
    assert 0.8 < time.monotonic() - started < 5


@pytest.mark.server
def test_a_silent_connection_is_closed_too(server):
    port, _ = server
    closed, _ = closed_within(connect(port), 10)
    assert closed


@pytest.mark.server
@pytest.mark.parametrize("streamed", [False, True], ids=["in-one-read", "streamed"])
def test_a_header_over_the_limit_is_a_431(server, streamed):
    port, _ = server
    sock = connect(port)
    header = b"GET /healthz HTTP/1.1\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n"
    if streamed:
        for i in range(0, len(header), 1000):
            try:
                sock.sendall(header[i : i + 1000])
            except OSError:
                break
    else:
        sock.sendall(header)
    closed, sent = closed_within(sock, 5)
    assert closed and sent.startswith(b"HTTP/1.1 431 ")
    assert b"TIEBREAK_MAX_HEADER_BYTES" in sent


@pytest.mark.server
def test_a_slow_body_is_a_408(server):
    port, _ = server
    sock = connect(port)
    sock.sendall(
        b"POST /v1/standings HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"
    )
    closed, sent = closed_within(sock, 10)
    assert closed and sent.startswith(b"HTTP/1.1 408 ")


@pytest.mark.server
def test_an_idle_keep_alive_connection_is_closed(server):
    port, _ = server
    sock = connect(port)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    time.sleep(0.2)
    assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
    started = time.monotonic()
    closed, _ = closed_within(sock, 10)
    assert closed and time.monotonic() - started < 5


@pytest.mark.server
def test_idle_connections_past_the_limit_make_room_for_new_clients(server):
    """Four times the connection limit of silent sockets: the oldest are closed as new ones come,
    and a health check on a new connection is still answered at once."""
    port, _ = server
    idle = [connect(port) for _ in range(4 * MAX_CONNECTIONS)]
    try:
        time.sleep(0.3)
        started = time.monotonic()
        response = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5)
        assert response.status_code == 200 and time.monotonic() - started < 1.0
        closed = 0
        for sock in idle:
            sock.setblocking(False)
            try:
                closed += sock.recv(1) == b""
            except BlockingIOError:
                pass
            except ConnectionResetError:
                closed += 1
        assert closed >= 3 * MAX_CONNECTIONS - 8, f"only {closed} of {len(idle)} idle connections were closed"
    finally:
        for sock in idle:
            sock.close()


@pytest.mark.server
def test_metrics_and_docs_only_on_the_admin_port(server):
    port, admin = server
    public, private = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{admin}"
    assert httpx.get(f"{public}/metrics").status_code == 404
    assert httpx.get(f"{public}/schema/openapi.json").status_code == 404
    assert httpx.get(f"{private}/metrics").status_code == 200
    assert httpx.get(f"{private}/schema/openapi.json").status_code == 200
    assert httpx.get(f"{private}/v1/tiebreaks").status_code == 404
    for base in (public, private):
        assert httpx.get(f"{base}/healthz").status_code == 200
        assert httpx.get(f"{base}/readyz").status_code == 200
    assert httpx.get(f"{public}/v1/tiebreaks").status_code == 200


def holders_of_listening_socket(port: int) -> set[int]:
    """The processes holding the socket listening on 127.0.0.1:`port` (from /proc)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1].endswith(f":{port:04X}") and fields[3] == "0A":  # 0A: LISTEN
            inodes.add(fields[9])
    assert inodes, f"nothing listens on {port}"
    holders = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            links = [os.readlink(fd) for fd in (entry / "fd").iterdir()]
        except OSError:  # gone, or not ours to read
            continue
        if any(link.startswith("socket:[") and link[8:-1] in inodes for link in links):
            holders.add(int(entry.name))
    return holders


def test_only_the_server_holds_its_listening_sockets(server):
    # Issue 39 point 3: a compute worker that inherited them kept the ports open past SIGTERM,
    # so new connections hung for the drain instead of being refused at once.
    port, admin = server
    assert httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=10).status_code == 200  # workers started
    main, other = holders_of_listening_socket(port), holders_of_listening_socket(admin)
    assert len(main) == 1 and main == other, (main, other)
