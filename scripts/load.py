"""Load test: a real `tiebreak serve` (uvicorn, 2 workers) on loopback, driven by an async httpx client.

    .venv/bin/python scripts/load.py                 # the figures in docs/load.md (about 3 minutes)
    .venv/bin/python scripts/load.py --quick         # a smoke run: few requests per step
    .venv/bin/python scripts/load.py --json out.json # also write the results as JSON

For each tournament size and each concurrency (closed loop: C clients, each sending
its next request when the last one was answered), it reports throughput, p50/p90/p99
latency and the number of errors (anything but a 200, or a transport error). Every
step stops after --requests responses or --step-seconds seconds, whichever is first,
so the whole run is bounded; the server is stopped with SIGTERM at the end. The
server listens on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx
import msgspec

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.synthetic import swiss_wire  # noqa: E402

RULES = ["BH/C1", "BH", "SB", "DE", "PS", "WIN"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(workers: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "WORKERS": str(workers)}
    tiebreak = Path(sys.executable).parent / "tiebreak"
    process = subprocess.Popen([str(tiebreak), "serve"], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return process, base
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def step(base: str, body: bytes, concurrency: int, requests: int, seconds: float) -> dict:
    latencies: list[float] = []
    errors = 0
    sent = 0
    stop_at = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    headers = {"content-type": "application/json", "accept-encoding": "gzip"}
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:

        async def one_client():
            nonlocal errors, sent
            while sent < requests and time.monotonic() < stop_at:
                sent += 1
                started = time.perf_counter()
                try:
                    response = await client.post("/v1/standings", content=body, headers=headers)
                    await response.aread()
                    if response.status_code != 200:
                        errors += 1
                except httpx.HTTPError:
                    errors += 1
                latencies.append(time.perf_counter() - started)

        began = time.perf_counter()
        await asyncio.gather(*(one_client() for _ in range(concurrency)))
        wall = time.perf_counter() - began
    return {
        "concurrency": concurrency, "requests": len(latencies), "errors": errors, "seconds": round(wall, 2),
        "throughput_rps": round(len(latencies) / wall, 1),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 1),
        "p90_ms": round(percentile(latencies, 0.90) * 1000, 1),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
        "mean_ms": round(statistics.fmean(latencies) * 1000, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sizes", nargs="*", default=["30x9", "300x11"], help="players x rounds")
    parser.add_argument("--concurrency", nargs="*", type=int, default=[1, 2, 4, 8, 16])
    parser.add_argument("--requests", type=int, default=0, help="responses per step (default: by size)")
    parser.add_argument("--step-seconds", type=float, default=20.0, help="time cap per step")
    parser.add_argument("--explain", choices=["true", "false"], default="true")
    parser.add_argument("--quick", action="store_true", help="smoke run: 20 requests per step, 5 s cap")
    parser.add_argument("--json", help="write the results to this file as JSON")
    args = parser.parse_args(argv)
    if args.quick:
        args.requests, args.step_seconds = 20, 5.0

    process, base = start_server(args.workers)
    results = []
    try:
        for size in args.sizes:
            players, rounds = map(int, size.split("x"))
            body = msgspec.json.encode({"tournament": swiss_wire(players, rounds, seed=1), "tiebreaks": RULES,
                                        "explain": args.explain == "true"})
            response = httpx.post(f"{base}/v1/standings", content=body, headers={"content-type": "application/json"},
                                  timeout=60)
            assert response.status_code == 200, response.text[:500]
            requests = args.requests or (600 if players <= 100 else 150)
            asyncio.run(step(base, body, 2, 10, 10))  # warm-up: both workers
            for concurrency in args.concurrency:
                row = asyncio.run(step(base, body, concurrency, requests, args.step_seconds))
                row.update(size=size, request_kb=round(len(body) / 1024), response_kb=round(len(response.content) / 1024))
                results.append(row)
                print(f"{size:>7}  c={concurrency:<3} n={row['requests']:<4} {row['throughput_rps']:>7.1f} req/s  "
                      f"p50 {row['p50_ms']:>7.1f} ms  p99 {row['p99_ms']:>7.1f} ms  errors {row['errors']}",
                      flush=True)
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=60)
    print(f"server stopped with SIGTERM, exit code {code}")
    print(f"machine: {os.cpu_count()} CPUs, {platform.platform()}, Python {platform.python_version()}; "
          f"load average {os.getloadavg()[0]:.2f} at the end")
    if args.json:
        Path(args.json).write_text(json.dumps({"workers": args.workers, "rules": RULES, "explain": args.explain,
                                               "results": results}, indent=2) + "\n")
    return 1 if any(r["errors"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
