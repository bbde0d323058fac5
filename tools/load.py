#!/usr/bin/env python3
"""Load test: a real `tiebreak serve` on loopback, at its capacity and at twice it, with shedding.

    .venv/bin/python -m tools.load           # docs/load.md says what it measures; figures in docs/benchmarks.md
    .venv/bin/python -m tools.load --quick   # a smoke run: short steps
    .venv/bin/python -m tools.load --sizes 300x11 --multiples 1 2 3 --seconds 30 --json out.json

For each tournament size it first measures the server's **capacity**: C clients in a
closed loop (each sends its next request when the last one was answered) for a few
seconds; capacity = the best throughput of C = 1, 2, 4. Then it offers **open-loop**
arrivals (a request every 1/rate seconds, whatever the answers do, as independent
users would) at 1× and 2× that capacity, and reports per step: requests answered
200, the share answered 503 (shed: pool and queue full, or the in-flight limit), the
p50/p99 latency of the accepted requests, the largest number of requests in flight on
the client side, how often `/readyz` said not ready, and `/healthz` latency (probed
every 50 ms from a separate process, on new connections). Any other status or a
transport error counts as an error (the run exits non-zero).

The server runs as the container does (`tiebreak serve`, one uvicorn worker with one
compute worker process by default: the Kubernetes pod's shape), on 127.0.0.1 only,
and is stopped with SIGTERM at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx
import msgspec

from testkit.loopback import start_serve
from testkit.synthetic import swiss_wire

RULES = ["BH/C1", "BH", "SB", "DE", "PS", "WIN"]


def start_server(workers: int, env: dict[str, str], root: Path | None = None) -> tuple[subprocess.Popen, str, int]:
    process, base = start_serve(workers, {"TIEBREAK_ACCESS_LOG": "0", **env}, root=root)
    time.sleep(0.3)
    return process, base, int(base.rsplit(":", 1)[1])


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


HEADERS = {"content-type": "application/json", "accept-encoding": "identity"}
IDLE_REUSE_S = 4.0  # under the server's 5 s keep-alive timeout


class RawClient:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams: the request bytes are built once,
    and an answer is read by its Content-Length. httpx costs several times more CPU per request,
    and on a 2-core machine the load client's CPU is the server's."""

    def __init__(self, port: int, body: bytes):
        self.port = port
        self.request = (
            b"POST /v1/standings HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            + f"accept-encoding: {HEADERS['accept-encoding']}\r\ncontent-length: {len(body)}\r\n\r\n".encode()
            + body
        )
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter, float]] = []

    async def post(self) -> int:
        # A connection idle for longer than the server's keep-alive (5 s) may be closing: not reused;
        # one the server closed just as it was reused is retried once on a new connection (what
        # HTTP clients do), and only a failure on a fresh connection counts.
        now = time.monotonic()
        while self.idle:
            reader, writer, since = self.idle.pop()
            if now - since < IDLE_REUSE_S and not reader.at_eof():
                try:
                    return await self._exchange(reader, writer)
                except (OSError, asyncio.IncompleteReadError) as exc:
                    if getattr(exc, "partial", b"") or not isinstance(
                        exc, (asyncio.IncompleteReadError, ConnectionError)
                    ):
                        raise
                break
            writer.close()
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 20)
        return await self._exchange(reader, writer)

    async def _exchange(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> int:
        try:
            writer.write(self.request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            length = 0
            close = False
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"connection" and value.strip().lower() == b"close":
                    close = True
            await reader.readexactly(length)
        except BaseException:
            writer.close()
            raise
        if close:
            writer.close()
        else:
            self.idle.append((reader, writer, time.monotonic()))
        return status

    def close(self) -> None:
        for _, writer, _ in self.idle:
            writer.close()


async def open_loop(base: str, body: bytes, rate: float, seconds: float) -> dict:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    errors = 0
    in_flight = peak = 0
    readiness: list[int] = []
    client = RawClient(int(base.rsplit(":", 1)[1]), body)

    async def one():
        nonlocal errors, in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        started = time.perf_counter()
        try:
            status = await client.post()
            statuses[status] = statuses.get(status, 0) + 1
            if status == 200:
                latencies.append(time.perf_counter() - started)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            errors += 1
        finally:
            in_flight -= 1

    async def ready_probe():
        async with httpx.AsyncClient(base_url=base, timeout=5) as probe:
            while True:
                try:
                    readiness.append((await probe.get("/readyz")).status_code)
                except httpx.HTTPError:
                    readiness.append(0)
                await asyncio.sleep(0.2)

    prober = asyncio.create_task(ready_probe())
    tasks = []
    began = time.perf_counter()
    n = 0
    while time.perf_counter() - began < seconds:
        due = began + n / rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        tasks.append(asyncio.create_task(one()))
        n += 1
    await asyncio.gather(*tasks)
    wall = time.perf_counter() - began
    prober.cancel()
    client.close()
    sent = len(tasks)
    ok = statuses.get(200, 0)
    return {
        "offered_rps": round(rate, 1),
        "sent": sent,
        "sent_rps": round(sent / seconds, 1),
        "seconds": round(wall, 1),
        "ok": ok,
        "ok_rps": round(ok / wall, 1),
        "shed_503": statuses.get(503, 0),
        "shed_share": round(statuses.get(503, 0) / max(1, sent), 3),
        "other_status": {k: v for k, v in statuses.items() if k not in (200, 503)},
        "errors": errors,
        "p50_ms": ms(percentile(latencies, 0.5)),
        "p90_ms": ms(percentile(latencies, 0.9)),
        "p99_ms": ms(percentile(latencies, 0.99)),
        "max_ms": ms(max(latencies, default=None)),
        "peak_in_flight": peak,
        "readyz_not_ready_share": round(sum(r != 200 for r in readiness) / max(1, len(readiness)), 2),
    }


async def closed_loop_raw(base: str, body: bytes, concurrency: int, seconds: float) -> float:
    client = RawClient(int(base.rsplit(":", 1)[1]), body)
    done = 0
    stop_at = time.monotonic() + seconds

    async def one():
        nonlocal done
        while time.monotonic() < stop_at:
            done += await client.post() == 200

    began = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(concurrency)))
    client.close()
    return done / (time.perf_counter() - began)


async def mixed(port: int, bodies: dict[str, bytes], clients: dict[str, int], seconds: float) -> dict:
    """Closed-loop clients of several classes at once, each honouring Retry-After after a 503:
    per class, the tries, the answers 200 and 503, and the longest wait between a client's first
    try of a request and its answer 200 (how long a request that kept its turn waited)."""
    counts = {name: {"tries": 0, "ok": 0, "shed": 0, "other": 0, "longest_wait_s": 0.0} for name in bodies}
    end = time.monotonic() + seconds

    async def client(name: str) -> None:
        raw = RawClient(port, bodies[name])
        first = None
        try:
            while time.monotonic() < end:
                first = first or time.monotonic()
                try:
                    status = await raw.post()
                except (OSError, asyncio.IncompleteReadError):
                    status = 0
                row = counts[name]
                row["tries"] += 1
                if status == 200:
                    row["ok"] += 1
                    row["longest_wait_s"] = round(max(row["longest_wait_s"], time.monotonic() - first), 1)
                    first = None
                elif status == 503:
                    row["shed"] += 1
                    await asyncio.sleep(1.0)  # Retry-After: 1
                else:
                    row["other"] += 1
        finally:
            raw.close()

    await asyncio.gather(*(client(name) for name, n in clients.items() for _ in range(n)))
    return counts


def health_prober(port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tools.hostile", "--poll", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def health_summary(prober: subprocess.Popen) -> dict:
    prober.terminate()
    out, _ = prober.communicate(timeout=10)
    values = [json.loads(line)[1] for line in out.splitlines() if line.startswith("[")]
    ok = [v for v in values if v is not None]
    return {
        "healthz_probes": len(values),
        "healthz_failed": len(values) - len(ok),
        "healthz_p50_ms": ms(statistics.median(ok)) if ok else None,
        "healthz_max_ms": ms(max(ok, default=None)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers (WORKERS)")
    parser.add_argument("--sizes", nargs="*", default=["30x9", "300x11"], help="players x rounds")
    parser.add_argument("--explain", choices=["true", "false"], default="true")
    parser.add_argument("--multiples", nargs="*", type=float, default=[1.0, 2.0], help="of the capacity")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each open-loop step")
    parser.add_argument("--quick", action="store_true", help="smoke run: 4 s steps, 2 s capacity runs")
    parser.add_argument(
        "--gzip",
        action="store_true",
        help="ask for gzipped answers (the client then spends CPU on the same cores decompressing them)",
    )
    parser.add_argument(
        "--mixed",
        action="store_true",
        help="instead: large bodies against frequent pooled requests under saturation (issue 39, point 14)",
    )
    parser.add_argument("--json", help="write the results to this file as JSON")
    args = parser.parse_args(argv)
    if args.mixed:
        return mixed_run(args)
    if args.gzip:
        HEADERS["accept-encoding"] = "gzip"
    capacity_seconds = 2.0 if args.quick else 5.0
    if args.quick:
        args.seconds = 4.0

    process, base, port = start_server(args.workers, {})
    results = []
    failed = False
    try:
        for size in args.sizes:
            players, rounds = map(int, size.split("x"))
            body = msgspec.json.encode(
                {
                    "tournament": swiss_wire(players, rounds, seed=1),
                    "tiebreaks": RULES,
                    "explain": args.explain == "true",
                }
            )
            response = httpx.post(f"{base}/v1/standings", content=body, headers=HEADERS, timeout=60)
            assert response.status_code == 200, response.text[:500]
            asyncio.run(closed_loop_raw(base, body, 2, 1.0))  # warm-up
            capacity = max(asyncio.run(closed_loop_raw(base, body, c, capacity_seconds)) for c in (1, 2, 4))
            print(f"{size:>7}  capacity {capacity:.1f} req/s (closed loop, best of 1, 2, 4 clients)", flush=True)
            for multiple in args.multiples:
                prober = health_prober(port)
                row = asyncio.run(open_loop(base, body, capacity * multiple, args.seconds))
                row.update(health_summary(prober))
                row.update(
                    size=size,
                    multiple=multiple,
                    capacity_rps=round(capacity, 1),
                    request_kb=round(len(body) / 1024),
                    response_kb=round(len(response.content) / 1024),
                )
                results.append(row)
                failed |= bool(row["errors"] or row["other_status"])
                print(
                    f"{size:>7}  {multiple:g}x = {row['offered_rps']:>6.1f} req/s offered ({row['sent_rps']} sent): "
                    f"{row['ok_rps']:>6.1f} ok/s, "
                    f"503 {row['shed_share'] * 100:4.1f} %, accepted p50 {row['p50_ms']} ms p99 {row['p99_ms']} ms, "
                    f"peak in flight {row['peak_in_flight']}, not ready {row['readyz_not_ready_share'] * 100:.0f} %, "
                    f"/healthz max {row['healthz_max_ms']} ms, errors {row['errors']} {row['other_status'] or ''}",
                    flush=True,
                )
                time.sleep(1.0)  # let the queue drain between steps
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=60)
    print(f"server stopped with SIGTERM, exit code {code}")
    print(
        f"machine: {os.cpu_count()} CPUs, {platform.platform()}, Python {platform.python_version()}; "
        f"load average {os.getloadavg()[0]:.2f} at the end"
    )
    if args.json:
        Path(args.json).write_text(
            json.dumps({"workers": args.workers, "rules": RULES, "explain": args.explain, "results": results}, indent=2)
            + "\n"
        )
    return 1 if failed else 0


# The mixed run: two clients sending ~12.7 MB bodies (23,000 players, 9 rounds, no breakdowns)
# against twelve sending 1,000-player requests (priced for a worker), all in closed loops.
MIXED = {"large": ((23_000, 9), 2), "frequent": ((1_000, 9), 12)}


def mixed_run(args) -> int:
    bodies = {
        name: msgspec.json.encode(
            {"tournament": swiss_wire(players, rounds, seed=1), "tiebreaks": RULES, "explain": False}
        )
        for name, ((players, rounds), _) in MIXED.items()
    }
    process, base, port = start_server(args.workers, {})
    try:
        for name, body in bodies.items():
            response = httpx.post(f"{base}/v1/standings", content=body, headers=HEADERS, timeout=120)
            assert response.status_code == 200, response.text[:500]
            print(f"{name:>9}: {len(body) / 1e6:.1f} MB body, {MIXED[name][1]} clients", flush=True)
        counts = asyncio.run(mixed(port, bodies, {name: n for name, (_, n) in MIXED.items()}, args.seconds))
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
    for name, row in counts.items():
        print(
            f"{name:>9}: {row['ok']} answered 200 of {row['tries']} tries, {row['shed']} shed (503), "
            f"{row['other']} other; longest wait for a 200 {row['longest_wait_s']} s",
            flush=True,
        )
    print(
        f"machine: {os.cpu_count()} CPUs, {platform.platform()}, Python {platform.python_version()}; "
        f"load average {os.getloadavg()[0]:.2f} at the end"
    )
    if args.json:
        Path(args.json).write_text(json.dumps({"mixed": counts}, indent=2) + "\n")
    return 1 if any(row["other"] for row in counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
