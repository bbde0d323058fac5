#!/usr/bin/env python3
"""Batch re-ranking throughput: `tiebreak batch` with 1 and 2 jobs, and `POST /v1/standings/batch`.

    .venv/bin/python -m bench.batch                          # 1,000 files of 40 players x 9 rounds
    .venv/bin/python -m bench.batch --files 200 --players 30 --rounds 7
    .venv/bin/python -m bench.batch --repeat 5 --skip-http   # CLI only, best of 5 runs each
    .venv/bin/python -m bench.batch --explain                # with every player's breakdown

The files are synthetic Swiss tournaments (testkit.synthetic, seeded), written as
TRF by the service's own writer into a temporary folder before any clock starts.

CLI: `tiebreak batch FOLDER -t BH/C1 BH SB --no-explain --out /dev/null --jobs N`, timed
from process start to exit (interpreter start-up included, as a user sees it; the service's
modules byte-compiled first, as an installed package has them). Both the
CLI and the endpoint leave the breakdowns out (what a re-ranking job asks for; `--explain`
includes them in both). With `--repeat`, each figure is the best of that many runs: the
machine is shared, and the minimum is the steadier figure.

HTTP: a real uvicorn process on a free 127.0.0.1 port (its compute worker started with it,
as `tiebreak serve` does); the files' TRF texts as one
NDJSON body, streamed back and read to the end (the server's body limit is raised
to 512 MiB for the 10 x N run). The server's peak RSS (VmHWM) is
read after a batch of N items and after one of 10 x N items: the body is held, the
results (much larger) are not.

Beside each wall time, the CPU seconds spent (the command and its worker processes; the
server and its compute worker): on a shared machine the wall time says what the load let
through, the CPU time what the work costs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from testkit.loopback import free_port

ROOT = Path(__file__).resolve().parents[1]

RULES = ["BH/C1", "BH", "SB"]


def write_files(folder: Path, count: int, players: int, rounds: int) -> list[str]:
    from tiebreak.formats.trf_writer import write_trf
    from testkit.synthetic import swiss_tournament

    texts = []
    for seed in range(count):
        text = write_trf(swiss_tournament(players, rounds, seed=seed), tiebreaks=RULES).text
        (folder / f"t{seed:05d}.trf").write_text(text)
        texts.append(text)
    return texts


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_cli(folder: Path, jobs: int, explain: bool) -> tuple[float, float]:
    """Wall seconds from start to exit, and the CPU seconds of the command and its workers."""
    cpu = children_cpu()
    started = time.perf_counter()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "tiebreak.cli",
            "batch",
            str(folder),
            "-t",
            *RULES,
            "--explain" if explain else "--no-explain",
            "--out",
            os.devnull,
            "--jobs",
            str(jobs),
            "--no-progress",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise RuntimeError(result.stderr)
    return elapsed, children_cpu() - cpu


def process_cpu(pid: int) -> float:
    """CPU seconds of a process and of its children alive now (the server and its compute workers)."""
    total = 0.0
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    for each in [pid, *map(int, children)]:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def time_endpoint(texts: list[str], repeat_for_memory: int, explain: bool, repeat: int) -> dict:
    import httpx

    port = free_port()
    with tempfile.TemporaryFile() as log:
        # 10 x 1,000 TRF texts exceed the default 32 MiB body limit: raise it for this server only.
        # Its compute worker is started with it, as `tiebreak serve` does (the defaults otherwise:
        # one worker; a batch computes one item on the loop and one in the worker at once).
        env = {**os.environ, "TIEBREAK_MAX_BODY_BYTES": str(512 * 1024 * 1024), "TIEBREAK_PRESTART_WORKERS": "1"}
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "tiebreak.http.app:app", "--port", str(port), "--log-level", "warning"],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            with httpx.Client(timeout=600) as client:
                for _ in range(100):
                    try:
                        if client.get(f"{base}/healthz").status_code == 200:
                            break
                    except httpx.TransportError:
                        time.sleep(0.1)

                def run(items: list[str]) -> tuple[float, int, float]:
                    body = b"".join(
                        json.dumps({"id": i, "trf": t, "tiebreaks": RULES, "explain": explain}).encode() + b"\n"
                        for i, t in enumerate(items)
                    )
                    cpu = process_cpu(server.pid)
                    started = time.perf_counter()
                    lines = 0
                    with client.stream(
                        "POST",
                        f"{base}/v1/standings/batch",
                        content=body,
                        headers={"content-type": "application/x-ndjson"},
                    ) as response:
                        if response.status_code != 200:
                            raise RuntimeError(f"batch answered {response.status_code}: {response.read()[:300]!r}")
                        for line in response.iter_lines():
                            lines += bool(line) and json.loads(line)["status"] == 200
                    return time.perf_counter() - started, lines, process_cpu(server.pid) - cpu

                run(texts[:20])  # warm up
                elapsed, ok, cpu = min(run(texts) for _ in range(repeat))
                rss_n = peak_rss_mib(server.pid)
                elapsed_big, ok_big, _ = run(texts * repeat_for_memory)
                rss_big = peak_rss_mib(server.pid)
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)
    return {
        "seconds": elapsed,
        "ok": ok,
        "cpu": cpu,
        "peak_rss_mib": rss_n,
        "items_big": len(texts) * repeat_for_memory,
        "seconds_big": elapsed_big,
        "ok_big": ok_big,
        "peak_rss_mib_big": rss_big,
    }


def compile_package() -> None:
    """Bytecode for the service's modules, as an installed package has it (pip compiles on install):
    otherwise, with PYTHONDONTWRITEBYTECODE set (as in the container and the development shell),
    every `tiebreak` run would compile the sources again, which is no part of its start-up."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "service")], check=True, stdout=subprocess.DEVNULL
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument(
        "--memory-repeat",
        type=int,
        default=10,
        help="the second endpoint run sends the files this many times over (peak RSS)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs of each figure; the best is reported")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="CLI --jobs values to time")
    parser.add_argument("--explain", action="store_true", help="every player's breakdown in the answers")
    parser.add_argument("--skip-http", action="store_true", help="time the command line only")
    parser.add_argument("--skip-cli", action="store_true", help="time the endpoint only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print(f"writing {args.files} TRF files ({args.players} players x {args.rounds} rounds)...", file=sys.stderr)
        texts = write_files(folder, args.files, args.players, args.rounds)
        compile_package()
        print(
            f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start "
            f"(shared machine), Python {sys.version.split()[0]}"
        )
        print(
            f"files: {args.files} synthetic Swiss TRF, {args.players} players x {args.rounds} rounds, "
            f"rules {' '.join(RULES)}, {'with' if args.explain else 'without'} breakdowns"
            + (f", best of {args.repeat} runs" if args.repeat > 1 else "")
        )
        for jobs in [] if args.skip_cli else args.jobs:
            seconds, cpu = min(time_cli(folder, jobs, args.explain) for _ in range(args.repeat))
            print(
                f"tiebreak batch --jobs {jobs}: {seconds:.2f} s, {args.files / seconds:.0f} files/s "
                f"(CPU {cpu:.2f} s in all its processes)"
            )
        if args.skip_http:
            return 0
        result = time_endpoint(texts, args.memory_repeat, args.explain, args.repeat)
        print(
            f"POST /v1/standings/batch (NDJSON, {args.files} items): {result['seconds']:.2f} s, "
            f"{args.files / result['seconds']:.0f} items/s, {result['ok']} ok (server CPU {result['cpu']:.2f} s "
            f"with its worker); server peak RSS {result['peak_rss_mib']:.0f} MiB"
        )
        print(
            f"POST /v1/standings/batch (NDJSON, {result['items_big']} items): {result['seconds_big']:.2f} s, "
            f"{result['items_big'] / result['seconds_big']:.0f} items/s, {result['ok_big']} ok; server peak RSS "
            f"{result['peak_rss_mib_big']:.0f} MiB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
