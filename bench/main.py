#!/usr/bin/env python3
"""Benchmarks for the tie-break service: the engine in-process and the HTTP API end to end.

    .venv/bin/python -m bench                        # everything, a few minutes
    .venv/bin/python -m bench --quick                # small repeats, for a smoke run
    .venv/bin/python -m bench --skip-http --sizes 500x11 --repeats 50
    .venv/bin/python -m bench --json > bench.json
    .venv/bin/python -m bench --profile 20000x11     # cProfile, explain off and on
    .venv/bin/python -m bench --per-rule 500x11      # what each rule costs alone
    .venv/bin/python -m bench --skip-http --gc-off   # diagnostic: the share of the cyclic GC
    .venv/bin/python -m bench --teams-only           # only the team event (Olympiad size)
    .venv/bin/python -m bench --skip-teams           # without the team event

Engine: every size and explain setting runs in a fresh subprocess, so peak
memory is that computation's alone. The tournament is generated
(testkit.synthetic, seeded) before the clock starts; the timed call is
`compute_standings(tournament, specs, explain=...)`. Peak memory is reported as
the process's peak RSS (resource.getrusage, input tournament included), the
peak RSS of the computation alone (the kernel's high-water mark is reset after
generation, Linux only) and, unless --no-tracemalloc, the tracemalloc peak of
one extra untimed run.

HTTP: a real uvicorn process on a free 127.0.0.1 port, one keep-alive httpx
client, pre-encoded request bodies; the latency is request sent to response
body read. Each HTTP request alternates with the same request handled
in-process (decode, convert, compute, convert, encode: what the handler does),
so both see the same background load and the HTTP overhead is visible. The
server is stopped with SIGINT (uvicorn's graceful shutdown) whatever happens.

Team events: a seeded Olympiad-sized team Swiss (testkit.synthetic_teams, 180 teams,
11 rounds, 4 boards) ranked by 8 team rules, in-process (`compute_team_standings`) and
over HTTP (the JSON body of `team_tournament`), in the same way.

Results are printed as a table (progress goes to stderr); --json prints the
same results as JSON instead, --output PATH also writes them to a file. The
targets of SPEC section 4 are checked at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from testkit.loopback import free_port
from testkit.rules import RULES_12

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_RULES = RULES_12
DEFAULT_TEAM_RULES = ["PTS", "EMGSB/C1", "MPvGP", "BH:MP/C1", "EDE", "BH:MP", "EGGSB", "SSSC"]
TARGET_TEAM_MS = 100.0  # issue 9: 180 teams x 11 rounds x 4 boards, 8 rules, in-process without breakdowns

# SPEC section 4, "Fast".
TARGET_SMALL_MS = 50.0  # 500 x 11 x 12 rules in-process: "well under 50 ms"
TARGET_LARGE_S = 2.0  # 20,000 x 11: under 2 s ...
TARGET_LARGE_MB = 1024.0  # ... and under 1 GB
TARGET_HTTP_MS = 5.0  # 100-player request over HTTP: "a few ms" (median)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def parse_size(text: str) -> tuple[int, int]:
    try:
        players, rounds = text.lower().split("x")
        return int(players), int(rounds)
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 500x11, not {text!r}") from None


def summary(seconds: list[float]) -> dict:
    ms = sorted(s * 1000 for s in seconds)
    rank95 = max(0, math.ceil(0.95 * len(ms)) - 1)  # nearest-rank percentile
    return {
        "n": len(ms),
        "min_ms": ms[0],
        "median_ms": statistics.median(ms),
        "p95_ms": ms[rank95],
        "mean_ms": statistics.fmean(ms),
        "max_ms": ms[-1],
    }


# ---------------------------------------------------------------- memory helpers (Linux)


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def reset_peak_rss() -> bool:
    """Reset the kernel's RSS high-water mark (also what getrusage reports); Linux >= 4.0."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def maxrss_mb() -> float:
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1024 if sys.platform != "darwin" else kb / 1024 / 1024  # macOS reports bytes


# ---------------------------------------------------------------- engine worker (subprocess)


def engine_input(players: int, rounds: int, seed: int, objects: bool):
    """The synthetic Swiss the engine ranks: with `objects`, a RoundResult object per result; else
    as the JSON adapter hands it over: the results as columns (tiebreak.engine.model.ResultColumns)
    and the players' ids, names and ratings as a Roster (the TRF reader gives the columns only)."""
    from testkit.synthetic import swiss_tournament

    tournament = swiss_tournament(players, rounds, seed=seed)
    if objects:
        return tournament
    import dataclasses

    import numpy as np

    from tiebreak.engine.model import ResultColumns, Roster, result_columns

    flat = result_columns(tournament.players)
    entrants = tournament.players
    return dataclasses.replace(
        tournament,
        columns=ResultColumns(
            np.asarray(flat.counts),
            np.asarray(flat.round),
            np.asarray(flat.kind, np.int8),
            np.asarray(flat.opponent),
            np.asarray(flat.color, np.int8),
            flat.points,
        ),
        roster=Roster([p.id for p in entrants], [p.name for p in entrants], [p.rating or None for p in entrants]),
    )


def engine_worker(args: argparse.Namespace) -> None:
    """One size, one explain setting, in this (fresh) process; prints one JSON line."""
    from tiebreak.engine import compute_standings
    from tiebreak.engine.registry import valid_codes
    from tiebreak.engine.rules import parse_rule

    players, rounds = args.size
    explain = bool(args.explain)
    t0 = time.perf_counter()
    tournament = engine_input(players, rounds, args.seed, args.objects)
    generation_s = time.perf_counter() - t0
    codes = valid_codes()
    specs = [parse_rule(r, codes) for r in args.rules]
    gc.collect()
    rss_before_mb = (_status_kb("VmRSS") or 0) / 1024
    peak_before_mb = maxrss_mb()
    can_reset = reset_peak_rss()

    for _ in range(args.warmup):
        result = compute_standings(tournament, specs, explain=explain)
        result = None
        gc.collect()
    times = []
    warnings: list[str] = []
    dropped: list[str] = []
    for _ in range(args.repeats):
        if args.gc_off:
            gc.disable()
        t0 = time.perf_counter()
        result = compute_standings(tournament, specs, explain=explain)
        times.append(time.perf_counter() - t0)
        gc.enable()
        warnings = [w.code for w in result.warnings]
        dropped = [str(o.spec) for o in result.outcomes if o.dropped_reason]
        result = None
        gc.collect()
    peak_mb = maxrss_mb()

    out = {
        "kind": "engine",
        "players": players,
        "rounds": rounds,
        "rules": len(specs),
        "explain": explain,
        "gc_off": args.gc_off,
        "generation_s": generation_s,
        "warmup": args.warmup,
        **summary(times),
        "times_ms": [t * 1000 for t in times],
        "rss_after_generation_mb": rss_before_mb,
        "peak_rss_process_mb": max(peak_mb, peak_before_mb),
        "peak_rss_compute_mb": peak_mb if can_reset else None,
        "compute_rss_growth_mb": (peak_mb - rss_before_mb) if can_reset else None,
        "warnings": warnings,
        "dropped": dropped,
    }
    if args.tracemalloc:
        import tracemalloc

        tracemalloc.start()
        result = compute_standings(tournament, specs, explain=explain)
        out["tracemalloc_peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        result = None
    print(json.dumps(out), flush=True)


def run_engine(size: tuple[int, int], explain: bool, repeats: int, warmup: int, args) -> dict:
    cmd = [
        sys.executable,
        "-m",
        "bench.main",
        "--worker-engine",
        "--size",
        f"{size[0]}x{size[1]}",
        "--explain",
        str(int(explain)),
        "--repeats",
        str(repeats),
        "--warmup",
        str(warmup),
        "--seed",
        str(args.seed),
        "--rules",
        *args.rules,
    ]
    if not args.tracemalloc:
        cmd.append("--no-tracemalloc")
    if args.gc_off:
        cmd.append("--gc-off")
    if args.objects:
        cmd.append("--objects")
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=args.worker_timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"engine worker failed ({proc.returncode}):\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- HTTP


_FLOOR_ANSWERS: dict[int, bytes] = {}
FLOOR_APP = "bench.main:floor_app"  # imported by uvicorn from the repository's root


async def floor_app(scope, receive, send) -> None:
    """The transport floor: a bare ASGI app that reads the whole body and answers as many bytes
    as the request's `x-floor-bytes` header asks, served by the same uvicorn as the service. The
    same client and bodies against it time the client, loopback and uvicorn alone."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    more = True
    while more:
        message = await receive()
        more = message.get("more_body", False) and message["type"] == "http.request"
    size = int(dict(scope["headers"]).get(b"x-floor-bytes", b"2"))
    answer = _FLOOR_ANSWERS.setdefault(size, b" " * size)
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(size).encode())],
        }
    )
    await send({"type": "http.response.body", "body": answer})


def start_server(port: int, log_file, app: str = "tiebreak.http.app:app") -> subprocess.Popen:
    """uvicorn on 127.0.0.1:port; its output goes to `log_file` (a pipe nobody reads could fill and block it)."""
    uvicorn = Path(sys.executable).with_name("uvicorn")
    launcher = [str(uvicorn)] if uvicorn.exists() else [sys.executable, "-m", "uvicorn"]
    cmd = [*launcher, app, "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning", "--no-access-log"]
    if app == FLOOR_APP:
        cmd += ["--app-dir", str(ROOT)]
    # The shipped cost ceilings (docs/operations.md) refuse the largest sizes measured here on
    # purpose; the benchmark lifts them to time the work itself.
    env = {
        **os.environ,
        "TIEBREAK_MAX_COST_S": "1e9",
        "TIEBREAK_MAX_MEMORY_MIB": "1000000",
        "TIEBREAK_MAX_RESPONSE_BYTES": str(10**12),
        "TIEBREAK_COMPUTE_DEADLINE_S": "600",
        "TIEBREAK_ACCESS_LOG": "0",
    }
    return subprocess.Popen(cmd, cwd=ROOT, stdout=log_file, stderr=subprocess.STDOUT, env=env)


def server_log(log_file) -> str:
    log_file.seek(0)
    return log_file.read().decode(errors="replace")[-4000:]


def wait_healthy(client, base: str, proc: subprocess.Popen, log_file, timeout: float = 30.0) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"uvicorn exited with {proc.returncode}:\n{server_log(log_file)}")
        try:
            if client.get(f"{base}/healthz", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"uvicorn not healthy after {timeout:.0f} s")


def stop_server(proc: subprocess.Popen) -> int | None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)  # uvicorn's graceful shutdown
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
    return proc.returncode


@contextlib.contextmanager
def serving(app: str = "tiebreak.http.app:app"):
    """A uvicorn serving `app` on a free port for the block: (process, base URL, log file); its output
    is logged when the block fails, and it is stopped (SIGINT) whatever happens."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log(f"starting uvicorn on {base} ({app})")
    log_file = tempfile.TemporaryFile()
    proc = start_server(port, log_file, app)
    try:
        yield proc, base, log_file
    except Exception:
        log(f"uvicorn output:\n{server_log(log_file)}")
        raise
    finally:
        rc = stop_server(proc)
        log(f"uvicorn stopped (exit {rc})")
        log_file.close()


def in_process_pipeline(body: bytes) -> tuple[bytes, float, float, float]:
    """What a compute worker does with a JSON body (tiebreak.compute.work), without the HTTP server.

    Returns the response body and the seconds spent reading (decode, checks, JSON to the
    engine's columns, pricing), computing (engine, breakdowns, conversion) and encoding.
    """
    import dataclasses

    from tiebreak.compute import work
    from tiebreak.wire.limits import LIMITS

    # the cost ceilings of the shipped defaults would refuse the largest sizes measured here
    unbounded = dataclasses.replace(LIMITS, max_cost_s=1e9, max_memory_mib=10**9, max_response_bytes=10**12)
    job = work.Job(kind="standings", body=body, limits=unbounded)
    t0 = time.perf_counter()
    task = work.prepare(job)
    t1 = time.perf_counter()
    answer = task if isinstance(task, work.Answer) else task.finish()
    t2 = time.perf_counter()
    return answer.body, t1 - t0, t2 - t1, 0.0  # encoding is part of the worker's computing


def alternately(client, base: str, body: bytes, headers: dict, pipeline, args, back_to_back: bool = False):
    """POST /v1/standings `body`: once (its answer checked and returned), `args.http_warmup` times
    untimed, then `args.requests` timed, each request followed by the same body handled by `pipeline`
    in this process (unless `back_to_back`), so that both see the same background load and the
    overhead is a fair difference. The timings: seconds per request, per in-process run and its steps."""
    url = f"{base}/v1/standings"
    first = client.post(url, content=body, headers=headers)
    if first.status_code != 200:
        raise RuntimeError(f"POST /v1/standings -> {first.status_code}: {first.text[:500]}")
    for _ in range(args.http_warmup):
        client.post(url, content=body, headers=headers).read()
        if not back_to_back:
            pipeline(body)
    timings: dict[str, list[float]] = {"http": [], "local": [], "decode": [], "engine": [], "encode": []}
    for _ in range(args.requests):
        t0 = time.perf_counter()
        r = client.post(url, content=body, headers=headers)
        r.read()
        timings["http"].append(time.perf_counter() - t0)
        if r.status_code != 200:
            raise RuntimeError(f"POST /v1/standings -> {r.status_code}")
        if back_to_back:  # the next request at once: no in-process comparison
            continue
        t0 = time.perf_counter()
        _, decode_s, engine_s, encode_s = pipeline(body)
        timings["local"].append(time.perf_counter() - t0)
        for step, seconds in (("decode", decode_s), ("engine", engine_s), ("encode", encode_s)):
            timings[step].append(seconds)
    return first, timings


def timing_columns(body: bytes, first, timings: dict[str, list[float]]) -> dict:
    """A row's sizes and timings (ms) from `alternately`; the in-process ones NaN when not measured."""
    http = summary(timings["http"])
    pipe = summary(timings["local"] or [float("nan")])
    return {
        "request_kb": len(body) / 1024,
        "response_kb": len(first.content) / 1024,
        **http,
        "inprocess_median_ms": pipe["median_ms"],
        "inprocess_min_ms": pipe["min_ms"],
        **{
            f"{step}_median_ms": statistics.median(timings[step] or [float("nan")]) * 1000
            for step in ("decode", "engine", "encode")
        },
        "http_overhead_median_ms": http["median_ms"] - pipe["median_ms"],
    }


def run_http(args) -> list[dict]:
    import httpx
    import msgspec

    from testkit.synthetic import swiss_wire

    bodies = {}
    for size in args.http_sizes:
        wire = swiss_wire(*size, seed=args.seed)
        for explain in (False, True):
            if explain and size[0] * size[1] > args.http_explain_max_cells:
                continue  # every breakdown of a large event: measured in-process (engine) instead
            bodies[size, explain] = msgspec.json.encode(
                {"tournament": wire, "tiebreaks": args.rules, "explain": explain}
            )
        if args.http_player is not None:  # one player's row and breakdown: `explain` shows as player=ID
            bodies[size, f"player={args.http_player}"] = msgspec.json.encode(
                {"tournament": wire, "tiebreaks": args.rules, "player": [args.http_player]}
            )

    rows = []
    with serving() as (proc, base, log_file), serving(FLOOR_APP) as (floor_proc, floor_base, floor_log):
        with httpx.Client(timeout=60.0) as client:
            wait_healthy(client, base, proc, log_file)
            wait_healthy(client, floor_base, floor_proc, floor_log)
            # httpx asks for gzip by default, as most clients do; --accept-encoding identity: uncompressed
            headers = {"content-type": "application/json", "accept-encoding": args.accept_encoding}
            for (size, explain), body in bodies.items():
                log(f"http {size[0]}x{size[1]} explain={explain}: {args.requests} requests")
                first, timings = alternately(client, base, body, headers, in_process_pipeline, args, args.back_to_back)
                n_rows = len(first.json()["standings"])
                assert n_rows == (1 if isinstance(explain, str) else size[0]), (n_rows, size)
                # The same client sending the same body and reading as many bytes (as sent, gzipped or
                # not) from the bare app: what the client, loopback and uvicorn take by themselves.
                floor_headers = {**headers, "x-floor-bytes": str(first.num_bytes_downloaded)}
                floor = []
                for i in range(args.http_warmup + args.requests):
                    t0 = time.perf_counter()
                    client.post(f"{floor_base}/", content=body, headers=floor_headers).read()
                    if i >= args.http_warmup:
                        floor.append(time.perf_counter() - t0)
                columns = timing_columns(body, first, timings)
                floor_ms = summary(floor)["median_ms"]
                rows.append(
                    {
                        "kind": "http",
                        "players": size[0],
                        "rounds": size[1],
                        "rules": len(args.rules),
                        "explain": explain,
                        **columns,
                        "floor_median_ms": floor_ms,
                        "server_overhead_median_ms": columns["http_overhead_median_ms"] - floor_ms,
                    }
                )
    return rows


# ---------------------------------------------------------------- team events


def parse_team_size(text: str) -> tuple[int, int, int]:
    try:
        teams, rounds, boards = text.lower().split("x")
        return int(teams), int(rounds), int(boards)
    except ValueError:
        raise argparse.ArgumentTypeError(f"team size must look like 180x11x4, not {text!r}") from None


def team_in_process_pipeline(body: bytes) -> tuple[bytes, float, float, float]:
    """What the handler does for a `team_tournament` body: decode, compute, encode (seconds each)."""
    import msgspec

    from tiebreak.wire import schemas as s
    from tiebreak.usecases.convert_teams import team_rules_from_wire, team_standings_to_wire, team_tournament_from_wire
    from tiebreak.engine.teams.standings import compute_team_standings
    from tiebreak.texts.catalogue import enc_hook

    encoder = msgspec.json.Encoder(enc_hook=enc_hook)  # the breakdowns' texts are messages
    t0 = time.perf_counter()
    req = msgspec.json.decode(body, type=s.StandingsRequest)
    event = team_tournament_from_wire(req.team_tournament)
    specs = team_rules_from_wire(req.tiebreaks or [])
    t1 = time.perf_counter()
    result = compute_team_standings(event, specs, None, req.after_round, req.explain)
    t2 = time.perf_counter()
    out = encoder.encode(team_standings_to_wire(result, req.explain))
    t3 = time.perf_counter()
    return out, t1 - t0, t2 - t1, t3 - t2


def run_teams(args) -> list[dict]:
    """The Olympiad-sized team event: in-process, then over HTTP (unless --skip-http)."""
    import httpx
    import msgspec

    from tiebreak.usecases.convert_teams import team_tournament_to_wire
    from tiebreak.engine.teams.registry import parse_team_rule
    from tiebreak.engine.teams.standings import compute_team_standings
    from testkit.synthetic_teams import team_swiss

    teams, rounds, boards = args.team_size
    event = team_swiss(teams, rounds, boards, seed=args.seed)
    specs = [parse_team_rule(r, None) for r in args.team_rules]
    base_row = {"teams": teams, "rounds": rounds, "boards": boards, "rules": len(specs)}
    rows = []
    for explain in (False, True):
        log(f"team engine {teams}x{rounds}x{boards} explain={explain}: {args.warmup} warm-up + {args.repeats} runs")
        for _ in range(args.warmup):
            compute_team_standings(event, specs, explain=explain)
        times = []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            compute_team_standings(event, specs, explain=explain)
            times.append(time.perf_counter() - t0)
        rows.append({"kind": "team-engine", **base_row, "explain": explain, **summary(times)})
    if args.skip_http:
        return rows
    wire = msgspec.to_builtins(team_tournament_to_wire(event))
    with serving() as (proc, base, log_file):
        with httpx.Client(timeout=60.0) as client:
            wait_healthy(client, base, proc, log_file)
            headers = {"content-type": "application/json"}
            for explain in (False, True):
                body = msgspec.json.encode({"team_tournament": wire, "tiebreaks": args.team_rules, "explain": explain})
                log(f"team http {teams}x{rounds}x{boards} explain={explain}: {args.requests} requests")
                first, timings = alternately(client, base, body, headers, team_in_process_pipeline, args)
                rows.append(
                    {"kind": "team-http", **base_row, "explain": explain, **timing_columns(body, first, timings)}
                )
    return rows


def team_verdicts(rows: list[dict]) -> list[dict]:
    return [
        {
            "target": f"team engine {r['teams']}x{r['rounds']}x{r['boards']}x{r['rules']} rules explain=False: "
            f"median < {TARGET_TEAM_MS:.0f} ms",
            "measured": f"{r['median_ms']:.1f} ms",
            "met": r["median_ms"] < TARGET_TEAM_MS,
        }
        for r in rows
        if r["kind"] == "team-engine" and not r["explain"]
    ]


def print_teams(report: dict) -> None:
    rows = report.get("teams") or []
    if not rows:
        return
    print_table(
        f"\nTeam event (testkit.synthetic_teams; rules: {' '.join(report['team_rules'])})",
        f"{'size':>12} {'where':>7} {'explain':>7} {'median ms':>10} {'p95 ms':>8} {'min ms':>7} "
        f"{'resp KB':>8} {'in-proc ms':>10} {'overhead ms':>11}",
        (
            f"{r['teams']:>5}x{r['rounds']}x{r['boards']:<3} {'http' if r['kind'] == 'team-http' else 'engine':>7} "
            f"{str(r['explain']):>7} {r['median_ms']:>10.2f} {r['p95_ms']:>8.2f} {r['min_ms']:>7.2f} "
            f"{fmt(r.get('response_kb'), '.0f'):>8} {fmt(r.get('inprocess_median_ms'), '.2f'):>10} "
            f"{fmt(r.get('http_overhead_median_ms'), '.2f'):>11}"
            for r in rows
        ),
    )


# ---------------------------------------------------------------- profiling


def run_profile(args) -> None:
    import cProfile
    import pstats

    from tiebreak.engine import compute_standings
    from tiebreak.engine.registry import valid_codes
    from tiebreak.engine.rules import parse_rule
    from testkit.synthetic import swiss_tournament

    players, rounds = args.profile
    tournament = swiss_tournament(players, rounds, seed=args.seed)
    specs = [parse_rule(r, valid_codes()) for r in args.rules]
    for explain in (False, True):
        profiler = cProfile.Profile()
        gc.collect()
        if args.gc_off:
            gc.disable()
        t0 = time.perf_counter()
        profiler.runcall(compute_standings, tournament, specs, explain=explain)
        elapsed = time.perf_counter() - t0
        gc.enable()
        print(
            f"\n=== cProfile {players}x{rounds}, {len(specs)} rules, explain={explain}, "
            f"gc {'off' if args.gc_off else 'on'}: {elapsed:.2f} s under the profiler ==="
        )
        stats = pstats.Stats(profiler)
        stats.strip_dirs()
        for order in ("cumulative", "tottime"):
            print(f"\n--- top {args.profile_top} by {order} ---")
            stats.sort_stats(order).print_stats(args.profile_top)


def run_per_rule(args) -> None:
    """The cost of each rule alone: compute_standings with that one rule minus with none."""
    from tiebreak.engine import compute_standings
    from tiebreak.engine.registry import valid_codes
    from tiebreak.engine.rules import parse_rule
    from testkit.synthetic import swiss_tournament

    players, rounds = args.per_rule
    tournament = swiss_tournament(players, rounds, seed=args.seed)
    codes = valid_codes()
    repeats = args.repeats if players * rounds <= 50_000 else args.large_repeats

    def median_ms(specs, explain):
        compute_standings(tournament, specs, explain=explain)  # warm-up
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            compute_standings(tournament, specs, explain=explain)
            times.append(time.perf_counter() - t0)
        return statistics.median(times) * 1000

    print(f"Per-rule cost, {players}x{rounds}, median of {repeats} (ms); rule = time with [rule] - time with []")
    print(f"{'rule':>10} {'explain=False':>14} {'explain=True':>13}")
    base = {e: median_ms([], e) for e in (False, True)}
    print(f"{'(none)':>10} {base[False]:>14.1f} {base[True]:>13.1f}   <- validation, crosstable, ranking by points")
    total = {False: 0.0, True: 0.0}
    for rule in args.rules:
        spec = parse_rule(rule, codes)
        cost = {e: median_ms([spec], e) - base[e] for e in (False, True)}
        for e in cost:
            total[e] += cost[e]
        print(f"{rule:>10} {cost[False]:>14.1f} {cost[True]:>13.1f}")
    print(
        f"{'sum':>10} {total[False] + base[False]:>14.1f} {total[True] + base[True]:>13.1f}   "
        "(rules alone share nothing; in one request BH-family rules share the opponent rounds)"
    )


# ---------------------------------------------------------------- report


def machine() -> dict:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    import importlib.metadata as md

    versions = {}
    for pkg in ("litestar", "msgspec", "uvicorn", "httpx", "uvloop", "httptools"):
        try:
            versions[pkg] = md.version(pkg)
        except md.PackageNotFoundError:
            versions[pkg] = None
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu": cpu,
        "nproc": usable,
        "loadavg": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "packages": versions,
    }


def verdicts(engine: list[dict], http: list[dict]) -> list[dict]:
    out = []
    for r in engine:
        label = f"engine {r['players']}x{r['rounds']}x{r['rules']} explain={r['explain']}"
        if (r["players"], r["rounds"]) == (500, 11):
            out.append(
                {
                    "target": f"{label}: median < {TARGET_SMALL_MS:.0f} ms",
                    "measured": f"{r['median_ms']:.1f} ms",
                    "met": r["median_ms"] < TARGET_SMALL_MS,
                }
            )
        if (r["players"], r["rounds"]) == (20000, 11):
            out.append(
                {
                    "target": f"{label}: median < {TARGET_LARGE_S:.0f} s",
                    "measured": f"{r['median_ms'] / 1000:.2f} s",
                    "met": r["median_ms"] < TARGET_LARGE_S * 1000,
                }
            )
            out.append(
                {
                    "target": f"{label}: peak RSS < 1 GB",
                    "measured": f"{r['peak_rss_process_mb']:.0f} MB",
                    "met": r["peak_rss_process_mb"] < TARGET_LARGE_MB,
                }
            )
    for r in http:
        if r["players"] == 100 and not isinstance(r["explain"], str):  # (not the one-player rows)
            label = f"http {r['players']}x{r['rounds']}x{r['rules']} explain={r['explain']}"
            out.append(
                {
                    "target": f"{label}: median <= {TARGET_HTTP_MS:.0f} ms ('a few ms')",
                    "measured": f"{r['median_ms']:.1f} ms",
                    "met": r["median_ms"] <= TARGET_HTTP_MS,
                }
            )
    return out


def fmt(value, spec: str = ".1f") -> str:
    return "-" if value is None else format(value, spec)


def print_table(title: str, head: str, lines: Iterable[str]) -> None:
    """A title, the column heads underlined, then one line per row."""
    print(title)
    print(head)
    print("-" * len(head))
    for line in lines:
        print(line)


def print_report(report: dict) -> None:
    m = report["machine"]
    print(f"Machine: {m['cpu']}, {m['nproc']} CPUs, {m['implementation']} {m['python']}, {m['platform']}")
    if m.get("loadavg"):
        print(
            f"Load average before / after: {' '.join(f'{x:.2f}' for x in m['loadavg'])} / "
            f"{' '.join(f'{x:.2f}' for x in report['loadavg_after'])}"
        )
    print(f"Rules ({len(report['rules'])}): {' '.join(report['rules'])}; seed {report['seed']}")
    if report["engine"]:
        gc_note = "; cyclic GC DISABLED during timed calls (diagnostic)" if report["gc_off"] else ""
        print_table(
            f"\nEngine in-process (compute_standings; generation excluded; fresh process per row{gc_note})",
            f"{'size':>10} {'explain':>7} {'n':>3} {'median ms':>10} {'min ms':>9} {'max ms':>9} "
            f"{'peak RSS MB':>11} {'compute RSS MB':>14} {'tracemalloc MB':>14} {'gen s':>6}",
            (
                f"{r['players']:>6}x{r['rounds']:<3} {str(r['explain']):>7} {r['n']:>3} {r['median_ms']:>10.1f} "
                f"{r['min_ms']:>9.1f} {r['max_ms']:>9.1f} {r['peak_rss_process_mb']:>11.0f} "
                f"{fmt(r['compute_rss_growth_mb'], '.0f'):>14} {fmt(r.get('tracemalloc_peak_mb'), '.0f'):>14} "
                f"{r['generation_s']:>6.2f}"
                for r in report["engine"]
            ),
        )
        print(
            "  peak RSS: whole process incl. interpreter and input; compute RSS: growth of the "
            "high-water mark over the RSS after generation"
        )
    if report["http"]:
        print_table(
            f"\nHTTP end to end (uvicorn on 127.0.0.1, keep-alive httpx client, {report['requests']} requests each)",
            f"{'size':>10} {'explain':>7} {'req KB':>7} {'resp KB':>8} {'median ms':>10} {'p95 ms':>8} "
            f"{'min ms':>7} {'in-proc ms':>10} {'decode':>7} {'engine':>7} {'encode':>7} {'overhead ms':>11} "
            f"{'floor ms':>8} {'server ms':>9}",
            (
                f"{r['players']:>6}x{r['rounds']:<3} {str(r['explain']):>7} {r['request_kb']:>7.0f} "
                f"{r['response_kb']:>8.0f} {r['median_ms']:>10.2f} {r['p95_ms']:>8.2f} {r['min_ms']:>7.2f} "
                f"{r['inprocess_median_ms']:>10.2f} {r['decode_median_ms']:>7.2f} {r['engine_median_ms']:>7.2f} "
                f"{r['encode_median_ms']:>7.2f} "
                f"{r['http_overhead_median_ms']:>11.2f} {fmt(r.get('floor_median_ms'), '.2f'):>8} "
                f"{fmt(r.get('server_overhead_median_ms'), '.2f'):>9}"
                for r in report["http"]
            ),
        )
        print(
            "  in-proc: what a compute worker does, in this process, median ms: decode (read, check, JSON -> "
            "columns, price),\n  engine (engine, breakdowns, conversion and JSON encoding: one step in the "
            "worker; encode is part of it);\n  overhead = HTTP median - in-proc median (server, gate, client, "
            "loopback); floor = the same client, body and\n  response bytes against a bare ASGI app on the same "
            "uvicorn (client, loopback, uvicorn); server = overhead - floor"
        )
    print_teams(report)
    if report["targets"]:
        print("\nSPEC section 4 targets (and issue 9's team event)")
        for t in report["targets"]:
            print(f"  [{'met' if t['met'] else 'MISSED'}] {t['target']}: {t['measured']}")


def parser() -> argparse.ArgumentParser:
    """The flags: over 80 lines, but a list of declarations, one per flag, in the order --help prints them."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--sizes",
        type=parse_size,
        nargs="+",
        default=[(500, 11), (20000, 11)],
        help="engine sizes, PLAYERSxROUNDS (default: 500x11 20000x11)",
    )
    p.add_argument("--repeats", type=int, default=20, help="timed runs for sizes up to 50,000 player-rounds")
    p.add_argument("--large-repeats", type=int, default=3, help="timed runs for bigger sizes")
    p.add_argument("--warmup", type=int, default=2, help="untimed runs first (small sizes only)")
    p.add_argument(
        "--http-sizes",
        type=parse_size,
        nargs="+",
        default=[(30, 9), (100, 9), (500, 11), (20000, 11)],
        help="HTTP sizes (default: 30x9 100x9 500x11 20000x11)",
    )
    p.add_argument("--requests", type=int, default=50, help="timed HTTP requests per size and explain setting")
    p.add_argument("--http-warmup", type=int, default=5)
    p.add_argument(
        "--http-explain-max-cells",
        type=int,
        default=50_000,
        help="HTTP with every breakdown only up to this many player-rounds (default 50,000)",
    )
    p.add_argument(
        "--back-to-back",
        action="store_true",
        help="HTTP requests one after another, without the in-process run between them "
        "(the in-process columns are then empty)",
    )
    p.add_argument(
        "--http-player",
        type=int,
        metavar="ID",
        help="also this player's row and breakdown alone (`player`) at each HTTP size",
    )
    p.add_argument(
        "--accept-encoding",
        default="gzip, deflate",
        help="what the HTTP client accepts (default: httpx's 'gzip, deflate'; 'identity': no gzip)",
    )
    p.add_argument("--rules", nargs="+", default=DEFAULT_RULES, help="rule list (default: 12 rules)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--skip-engine", action="store_true")
    p.add_argument("--skip-http", action="store_true")
    p.add_argument("--no-tracemalloc", dest="tracemalloc", action="store_false", help="skip the extra tracemalloc run")
    p.add_argument(
        "--objects",
        action="store_true",
        help="engine: give the tournament as RoundResult objects (default: as columns and a roster, as the "
        "JSON adapter does)",
    )
    p.add_argument(
        "--gc-off",
        action="store_true",
        help="diagnostic: disable the cyclic garbage collector during each timed engine call "
        "(and --profile); shows how much of the time is GC",
    )
    p.add_argument("--quick", action="store_true", help="3 repeats, 1 large repeat, 10 requests")
    p.add_argument("--json", action="store_true", help="print the results as JSON instead of the table")
    p.add_argument("--output", type=Path, metavar="PATH", help="also write the results as JSON to PATH")
    p.add_argument(
        "--profile",
        type=parse_size,
        metavar="SIZE",
        help="instead of benchmarking, cProfile one size with explain off and on",
    )
    p.add_argument("--profile-top", type=int, default=25)
    p.add_argument(
        "--per-rule", type=parse_size, metavar="SIZE", help="instead of benchmarking, time each rule alone at one size"
    )
    p.add_argument(
        "--team-size",
        type=parse_team_size,
        default=(180, 11, 4),
        metavar="TxRxB",
        help="the team event: teams x rounds x boards (default 180x11x4, Olympiad-sized)",
    )
    p.add_argument("--team-rules", nargs="+", default=DEFAULT_TEAM_RULES, help="team rule list (default: 8 rules)")
    p.add_argument("--skip-teams", action="store_true", help="leave out the team event")
    p.add_argument("--teams-only", action="store_true", help="only the team event, in-process and over HTTP")
    p.add_argument("--worker-timeout", type=float, default=900.0)
    # internal: the engine worker subprocess
    p.add_argument("--worker-engine", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--size", type=parse_size, help=argparse.SUPPRESS)
    p.add_argument("--explain", type=int, default=0, help=argparse.SUPPRESS)
    return p


def main() -> None:
    args = parser().parse_args()
    if args.worker_engine:
        engine_worker(args)
        return
    if args.profile:
        run_profile(args)
        return
    if args.per_rule:
        run_per_rule(args)
        return
    if args.quick:
        args.repeats, args.large_repeats, args.requests, args.http_warmup = 3, 1, 10, 2
    individual = not args.teams_only

    report = {
        "machine": machine(),
        "rules": args.rules,
        "seed": args.seed,
        "requests": args.requests,
        "gc_off": args.gc_off,
        "engine": [],
        "http": [],
    }
    if individual and not args.skip_engine:
        for size in args.sizes:
            small = size[0] * size[1] <= 50_000
            repeats = args.repeats if small else args.large_repeats
            warmup = args.warmup if small else 0
            for explain in (False, True):
                log(f"engine {size[0]}x{size[1]} explain={explain}: {warmup} warm-up + {repeats} runs")
                report["engine"].append(run_engine(size, explain, repeats, warmup, args))
    if individual and not args.skip_http:
        report["http"] = run_http(args)
    report["team_rules"], report["teams"] = args.team_rules, []
    if not args.skip_teams:
        report["teams"] = run_teams(args)
    report["targets"] = verdicts(report["engine"], report["http"]) + team_verdicts(report["teams"])
    report["loadavg_after"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None

    if args.output:
        args.output.write_text(json.dumps(report, indent=2) + "\n")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)


if __name__ == "__main__":
    main()
