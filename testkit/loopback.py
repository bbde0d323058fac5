"""A real `tiebreak serve` on a loopback port, for the tools and tests that need a socket."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIEBREAK = Path(sys.executable).parent / "tiebreak"  # the venv's console script


def free_port() -> int:
    """A port free on 127.0.0.1 now (another process may take it before the caller binds it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_serve(
    workers: int,
    env: dict[str, str] | None = None,
    *,
    stderr=subprocess.DEVNULL,
    timeout: float = 60.0,
    root: Path | None = None,
) -> tuple[subprocess.Popen, str]:
    """`tiebreak serve` with `workers` compute workers on a free port, and its base URL once /readyz
    answers 200. RuntimeError when it exits or is not ready within `timeout` seconds (killed then;
    the tail of its stderr in the message when `stderr` is a pipe). `root`: another tree's
    `.venv/bin/tiebreak`, run in that tree (a baseline measured beside this one)."""
    import httpx

    port = free_port()
    environment = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WORKERS": str(workers),
        "PYTHONUNBUFFERED": "1",
        **(env or {}),
    }
    process = subprocess.Popen(
        [str(root / ".venv" / "bin" / "tiebreak" if root else TIEBREAK), "serve"],
        cwd=root or ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return process, base
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            said = process.stderr.read().decode(errors="replace")[-2000:] if process.stderr else ""
            raise RuntimeError(f"tiebreak serve did not start: {said}")
        time.sleep(0.1)
