#!/usr/bin/env python3
"""The Python API beside its peers, in one interleaved run: the same TRF files, the same six rules
(BH/C1 BH SB ARO PS WIN), fide-2026, each call from the text to the ranked answer.

    .venv/bin/python -m bench.peers                         # 40 x 9 and 500 x 11, 15 rounds
    .venv/bin/python -m bench.peers --repeats 30 --sizes 40x9 500x11 2000x11
    .venv/bin/python -m bench.peers --peer-path /tmp/peer/lib/python3.11/site-packages
    TIEBREAK_PEER_PATH=/tmp/peer/lib/python3.11/site-packages .venv/bin/python -m bench.peers   # the same
    .venv/bin/python -m bench.peers --profile 500x11        # cProfile of the call with breakdowns
    .venv/bin/python -m bench.peers --http                  # also 8 clients over HTTP, 40 players

What is timed, per round and size, one call after the other in this process (so each sees the
same background load), the best of a few calls per round; the medians of the rounds are printed:

- `tiebreak.standings(trf, rules, regulations="fide-2026", explain=...)`, explain off and on
  (on is the default: every row's breakdown);
- tiebreak-core (PyPI; it has no breakdown and no TRF reader): the 001 lines read into its
  `PlayerTiebreakData` by a minimal fixed-column reader below, then
  `tiebreak_core.fide2026.rank_standings`. It is no dependency of the project: install it into a
  throwaway venv (`python3 -m venv /tmp/peer && /tmp/peer/bin/pip install tiebreak-core==1.2.0`)
  and give its site-packages as `--peer-path` or in TIEBREAK_PEER_PATH; never into the project's
  locks. Absent, its rows say so.

The FIDE reference implementation (TieBreakServer) has no copy in the repository or testkit and
cannot be fetched here: the report says so, and issue 40's figures for it came from another run.
After the table, the medians against issue 40's targets (with the breakdown ≤ 0.8× tiebreak-core;
500 × 11 ≤ 15 ms with it, ≤ 2.5 ms without), met or not.

`--http`: a real `tiebreak serve` on loopback (one compute worker per server process, as deployed),
8 clients in a closed loop on one 40 x 9 JSON body with breakdowns (and 1 client for the
single-client rate), through tools.load's raw keep-alive client; requests/s, p50 and p99, the
server's CPU per request and its resident memory (every process of it). `--http-workers 1 2`:
one server per uvicorn worker count, taking turns round by round (`--http-rounds`); `--http-only`
skips the Python API. The ratio printed is to one client's rate on the smallest count. With
`--baseline TREE`, a server of that tree (its own `.venv`, one process) takes its turn beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import importlib.util
import os
import signal
import statistics
import sys
import time
from types import ModuleType
from typing import Any

RULES = ["BH/C1", "BH", "SB", "ARO", "PS", "WIN"]
PEER_IDS = ["buchholz_cut1", "buchholz", "sonneborn_berger", "aro", "progressive", "wins"]


def peer() -> ModuleType | None:
    """tiebreak-core's fide-2026 module, when it can be imported."""
    try:
        return importlib.import_module("tiebreak_core.fide2026")
    except ImportError:
        return None


def peer_reader(core: Any) -> Any:
    """A minimal reader of the 001 lines into tiebreak-core's model (what its users write)."""
    played = {"1": 1.0, "0": 0.0, "=": 0.5, "W": 1.0, "D": 0.5, "L": 0.0}
    kinds = {code: (score, core.PLAYED) for code, score in played.items()}
    kinds |= {"+": (1.0, core.FORFEIT_WIN), "-": (0.0, core.FORFEIT_LOSS), "U": (1.0, core.PAIRING_BYE)}
    kinds |= {"H": (0.5, core.REQUESTED_BYE), "F": (1.0, core.PAIRING_BYE), "Z": (0.0, core.REQUESTED_BYE)}
    with_opponent = (core.PLAYED, core.FORFEIT_WIN, core.FORFEIT_LOSS)

    def read(text: str) -> tuple[dict[int, Any], int]:
        players: dict[int, Any] = {}
        rounds = 0
        for line in text.splitlines():
            if not line.startswith("001"):
                continue
            pid = int(line[4:8])
            rating = int(line[48:52]) if line[48:52].strip() else 0
            games = []
            for r, at in enumerate(range(91, len(line), 10)):
                opponent, colour, code = line[at : at + 4].strip(), line[at + 5 : at + 6], line[at + 7 : at + 8]
                score, kind = kinds.get(code, (0.0, core.ABSENT))
                opp = int(opponent) if opponent and opponent != "0000" and kind in with_opponent else -1
                games.append(core.GameRecord(opp, 0, score, "white" if colour == "w" else "black", r + 1, kind))
                rounds = max(rounds, r + 1)
            players[pid] = core.PlayerTiebreakData(pid, rating, sum(g.score for g in games), games)
        for p in players.values():
            for g in p.games:
                if g.opponent_id > 0:
                    g.opponent_rating = players[g.opponent_id].rating
        return players, rounds

    return read


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def best_of(call: Any, calls: int, clock: Any = time.perf_counter) -> float:
    """The fastest of `calls` calls, seconds; each answer is freed inside the timing (its cost is
    the caller's too)."""
    times = []
    for _ in range(calls):
        began = clock()
        answer = call()
        del answer
        times.append(clock() - began)
    return min(times)


def baseline_package(root: str) -> ModuleType:
    """Another tree's `tiebreak` package (its service/tiebreak), imported beside this one as
    `tiebreak_baseline`: the package imports itself only relatively, so both live in one process."""
    folder = os.path.join(root, "service", "tiebreak")
    spec = importlib.util.spec_from_file_location(
        "tiebreak_baseline", os.path.join(folder, "__init__.py"), submodule_search_locations=[folder]
    )
    assert spec is not None and spec.loader is not None, folder
    package = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = package
    spec.loader.exec_module(package)
    return package


def measure(
    sizes: list[str], repeats: int, baseline: ModuleType | None = None, clock: Any = time.perf_counter
) -> dict[str, dict[str, list[float]]]:
    import msgspec

    import tiebreak
    from testkit.synthetic import swiss_tournament
    from tiebreak.formats.trf_writer import write_trf

    fide = peer()
    read = peer_reader(importlib.import_module("tiebreak_core")) if fide is not None else None
    texts = {}
    for size in sizes:
        players, rounds = map(int, size.split("x"))
        texts[size] = write_trf(swiss_tournament(players, rounds, seed=1), tiebreaks=RULES).text

    def ours(text: str, explain: bool, package: Any = tiebreak) -> Any:
        return lambda: package.standings(text, RULES, regulations="fide-2026", explain=explain)

    def theirs(text: str) -> Any:
        def call() -> Any:
            assert read is not None and fide is not None
            players, rounds = read(text)
            return fide.rank_standings(players, PEER_IDS, rounds)

        return call

    shapes = {}
    for size, text in texts.items():
        calls = {"service, explain off": ours(text, False), "service, explain on": ours(text, True)}
        if baseline is not None:
            for explain in (False, True):
                ours_, theirs_ = ours(text, explain)(), ours(text, explain, baseline)()
                if msgspec.json.encode(ours_) != msgspec.json.encode(theirs_):
                    raise SystemExit(f"{size}, explain={explain}: the baseline's answer differs from this tree's")
            calls["baseline, explain off"] = ours(text, False, baseline)
            calls["baseline, explain on"] = ours(text, True, baseline)
        if fide is not None:
            calls["tiebreak-core"] = theirs(text)
        for call in calls.values():  # warm: imports, caches
            call()
        shapes[size] = calls
    results: dict[str, dict[str, list[float]]] = {size: {name: [] for name in calls} for size, calls in shapes.items()}
    for done in range(repeats):
        for size, calls in shapes.items():
            per_call = 5 if size == "40x9" else 2
            for name, call in calls.items():
                results[size][name].append(best_of(call, per_call, clock))
        print(f"round {done + 1}/{repeats}, load {os.getloadavg()[0]:.2f}", file=sys.stderr, flush=True)
    return results


def report(results: dict[str, dict[str, list[float]]]) -> None:
    print(f"{'':40}" + "".join(f"{size:>22}" for size in results))
    names = list(next(iter(results.values())))
    for name in names:
        cells = []
        for rows in results.values():
            values = rows[name]
            cells.append(f"{statistics.median(values) * 1e3:8.2f} ms ({min(values) * 1e3:.2f})")
        print(f"{name:40}" + "".join(f"{c:>22}" for c in cells))
    for name in ("explain off", "explain on"):
        if f"baseline, {name}" in names:
            ratios = [
                statistics.median(rows[f"service, {name}"]) / statistics.median(rows[f"baseline, {name}"])
                for rows in results.values()
            ]
            print(f"{'service / baseline, ' + name:40}" + "".join(f"{r:>20.2f} ×" for r in ratios))
    if "tiebreak-core" not in names:
        print("tiebreak-core: not importable (install it into a throwaway venv, give --peer-path)")
        return
    for name in ("service, explain off", "service, explain on"):
        ratios = [statistics.median(rows[name]) / statistics.median(rows["tiebreak-core"]) for rows in results.values()]
        print(f"{name + ' / tiebreak-core':40}" + "".join(f"{r:>20.2f} ×" for r in ratios))


def targets(results: dict[str, dict[str, list[float]]]) -> None:
    """Issue 40's targets, on the medians of this run."""
    print("FIDE reference: not run (no copy in the repository or testkit)")
    checks: list[tuple[str, float, float]] = []  # what, measured, bound
    for size, rows in results.items():
        on = statistics.median(rows["service, explain on"])
        if "tiebreak-core" in rows:
            checks.append(
                (f"{size} with the breakdown / tiebreak-core", on / statistics.median(rows["tiebreak-core"]), 0.8)
            )
        if size == "500x11":
            checks.append(("500x11 with the breakdown, ms", on * 1e3, 15.0))
            checks.append(("500x11 without, ms", statistics.median(rows["service, explain off"]) * 1e3, 2.5))
    for what, measured, bound in checks:
        print(f"target {what}: {measured:.2f} (≤ {bound:g}): {'met' if measured <= bound else 'not met'}")


def profile(size: str) -> None:
    import cProfile
    import pstats

    import tiebreak
    from testkit.synthetic import swiss_tournament
    from tiebreak.formats.trf_writer import write_trf

    players, rounds = map(int, size.split("x"))
    text = write_trf(swiss_tournament(players, rounds, seed=1), tiebreaks=RULES).text
    for _ in range(3):
        tiebreak.standings(text, RULES, regulations="fide-2026")
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(10):
        answer = tiebreak.standings(text, RULES, regulations="fide-2026")
        del answer
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)


def http(seconds: float, workers: list[int], rounds: int, baseline: str | None = None) -> None:
    """One server per uvicorn worker count (and one of the baseline tree), all started first; then
    `rounds` rounds, each taking every server in turn (1 client, then 8), so that each sees the same
    background load."""
    from pathlib import Path

    import msgspec

    from testkit.synthetic import swiss_wire
    from tools.load import RawClient, percentile, start_server

    body = msgspec.json.encode({"tournament": swiss_wire(40, 9, seed=1), "tiebreaks": RULES, "explain": True})
    servers = {f"{count} uvicorn worker(s)": start_server(count, {}) for count in workers}
    if baseline:
        servers["baseline, 1 uvicorn worker(s)"] = start_server(1, {}, root=Path(baseline).resolve())

    async def closed_loop(port: int, clients: int, seconds: float) -> tuple[float, float, float]:
        client = RawClient(port, body)
        latencies: list[float] = []
        stop = time.monotonic() + seconds

        async def one() -> None:
            while time.monotonic() < stop:
                began = time.perf_counter()
                status = await client.post()
                latencies.append(time.perf_counter() - began)
                assert status == 200, status

        began = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(clients)))
        elapsed = time.perf_counter() - began
        client.close()
        return len(latencies) / elapsed, percentile(latencies, 0.5) or 0.0, percentile(latencies, 0.99) or 0.0

    def cpu_and_rss(pid: int) -> tuple[float, float]:
        """CPU seconds and resident MiB of a server's processes alive now (supervisor, workers, compute workers)."""
        cpu = rss = 0.0
        pending = [pid]
        while pending:
            each = pending.pop()
            try:
                fields = open(f"/proc/{each}/stat").read().rsplit(")", 1)[1].split()
                with open(f"/proc/{each}/task/{each}/children") as listing:
                    pending += [int(child) for child in listing.read().split()]
            except OSError:  # gone meanwhile
                continue
            cpu += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            rss += int(fields[21]) * os.sysconf("SC_PAGE_SIZE") / 2**20
        return cpu, rss

    rates: dict[tuple[str, int], list[tuple[float, ...]]] = {}
    try:
        for _, _, port in servers.values():
            asyncio.run(closed_loop(port, 8, 1.5))  # warm: every process's imports, the connections
        for round_ in range(rounds):
            for count, (_, _, port) in servers.items():
                for clients in (1, 8):
                    cpu = cpu_and_rss(servers[count][0].pid)[0]
                    began = time.perf_counter()
                    rate, p50, p99 = asyncio.run(closed_loop(port, clients, seconds))
                    requests = rate * (time.perf_counter() - began)
                    used, rss = cpu_and_rss(servers[count][0].pid)
                    per_request = (used - cpu) / max(requests, 1)
                    rates.setdefault((count, clients), []).append((rate, p50, p99, per_request, rss))
                    print(
                        f"round {round_ + 1}, {count}, HTTP 40 x 9 with breakdowns, "
                        f"{clients} client(s): {rate:.0f} req/s, p50 {p50 * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms, "
                        f"server CPU {per_request * 1e3:.2f} ms/request, RSS {rss:.0f} MiB (load {os.getloadavg()[0]:.2f})"
                    )
        first = f"{min(workers)} uvicorn worker(s)"
        for (count, clients), runs in rates.items():
            rate = statistics.median(r[0] for r in runs)
            base = statistics.median(r[0] for r in rates[first, 1])
            print(
                f"median of {len(runs)}: {count}, {clients} client(s): {rate:.0f} req/s "
                f"({rate / base:.2f}x one client on {first}), "
                f"p50 {statistics.median(r[1] for r in runs) * 1e3:.2f} ms, "
                f"p99 {statistics.median(r[2] for r in runs) * 1e3:.2f} ms, "
                f"server CPU {statistics.median(r[3] for r in runs) * 1e3:.2f} ms/request, "
                f"RSS {statistics.median(r[4] for r in runs):.0f} MiB"
            )
    finally:
        for process, _, _ in servers.values():
            process.send_signal(signal.SIGTERM)
        for process, _, _ in servers.values():
            process.wait(30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", nargs="*", default=["40x9", "500x11"], help="players x rounds")
    parser.add_argument("--repeats", type=int, default=15, help="interleaved rounds")
    parser.add_argument(
        "--peer-path", help="a site-packages holding tiebreak-core (a throwaway venv's); default TIEBREAK_PEER_PATH"
    )
    parser.add_argument(
        "--baseline", metavar="TREE", help="another tree (e.g. main's worktree) timed beside this one, same answers"
    )
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall", help="wall time, or the process's CPU time (a busy machine)"
    )
    parser.add_argument("--profile", metavar="SIZE", help="cProfile of the call with breakdowns at this size")
    parser.add_argument("--http", action="store_true", help="also 8 clients over HTTP on 40 x 9 with breakdowns")
    parser.add_argument("--http-seconds", type=float, default=6.0)
    parser.add_argument("--http-workers", type=int, nargs="*", default=[1], help="uvicorn worker counts, taking turns")
    parser.add_argument("--http-rounds", type=int, default=1, help="rounds of the HTTP measurement")
    parser.add_argument("--http-only", action="store_true", help="only the HTTP measurement")
    args = parser.parse_args(argv)
    peer_path = args.peer_path or os.environ.get("TIEBREAK_PEER_PATH")
    if peer_path:
        sys.path.append(peer_path)
    if args.profile:
        profile(args.profile)
        return 0
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not args.http_only:
        baseline = baseline_package(args.baseline) if args.baseline else None
        print(f"clock: {args.clock}" + (f"; baseline: {args.baseline}" if baseline is not None else ""))
        results = measure(args.sizes, args.repeats, baseline, CLOCKS[args.clock])
        report(results)
        targets(results)
    if args.http or args.http_only:
        http(args.http_seconds, args.http_workers, args.http_rounds, args.baseline)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
