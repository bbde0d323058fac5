#!/usr/bin/env python3
"""Measure the constants of the cost model (service/tiebreak/usecases/cost.py) on the current engine.

    .venv/bin/python -m tools.calibrate_cost --json a.json           # half a minute; prints the constants block
    .venv/bin/python -m tools.calibrate_cost --check                 # also compares cost.py as it is with every run
    .venv/bin/python -m tools.calibrate_cost --merge a.json b.json   # the larger figure per constant of
                                                                     # several runs, and its error on each

Every shape runs in a fresh process, exactly as a compute worker runs a request:
`work.execute(Job)` on the encoded body (decode, read, engine, encode), after the worker's
own warm-up and one small request of the same kind (what a first computation imports and
sets up once is no cost of a request). Time is the
process's CPU time (steadier than wall time on a shared machine: the deadline is wall
time, so the ceiling `max_cost_s` keeps a margin below it); memory is the growth of
the peak RSS over the process's RSS just before the job (the kernel's high-water
mark is reset first, Linux). The shapes are the ones that cost most per unit of the
model: synthetic Swiss events and events without any results, where every round of
every player is a dummy opponent (the most memory per cell); every breakdown; `top`
and a `player` list of a large event; compare with ten rule lists (ten rankings, ten
whole standings in the answer), on an event with results and on one where every
player is tied first.

The constants are fitted by non-negative least squares on the relative error over
all shapes, then scaled up so that no shape is under-estimated (the model errs
towards refusing). The memory a worker needs for the body itself (the job frame and
its decoded copy: 2 bytes per body byte) is not measured here (the body is built
before the measurement starts) and stays fixed in cost.py. On a shared machine, run
it twice when the load is lowest and `--merge` the two: the larger figure per
constant (docs/benchmarks.md, "The cost model's calibration"; earlier runs in docs/benchmarks-history.md).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from testkit.rules import RULES_24

ROOT = Path(__file__).resolve().parents[1]

RULES = [*RULES_24, "BH/C1/P", "SB/P", "KS/L60", "BH/M2", "SB/C2", "PS/C1"]


@dataclass(frozen=True)
class Shape:
    name: str
    players: int
    rounds: int
    rules: int  # per rule list
    explain: bool
    results: bool  # a synthetic Swiss event, or one without any results (every player tied)
    lists: int = 0  # 0: a standings request; n: a compare request with n rule lists
    top: int | None = None
    player_list: int = 0  # `player`: a list of this many start numbers
    rule_set: str = "mixed"  # or the rules costing most per cell ("heavy", "heavy-uscf") or per breakdown ("verbose")


SHAPES = [
    Shape("players", 50_000, 1, 1, False, False),
    Shape("players-synthetic", 50_000, 3, 1, False, True),
    Shape("body-synthetic", 20_000, 30, 1, False, True),
    Shape("cells-empty", 4_000, 100, 1, False, False),
    Shape("cells-synthetic", 10_000, 11, 1, False, True),
    Shape("rules-empty", 2_000, 100, 24, False, False),
    Shape("rules-synthetic", 5_000, 11, 24, False, True),
    Shape("explain-empty", 300, 100, 20, True, False),
    Shape("explain-synthetic", 2_000, 11, 12, True, True),
    Shape("mixed-synthetic", 20_000, 11, 12, False, True),
    Shape("mixed-empty", 10_000, 50, 6, False, False),
    Shape("rules40-empty", 2_000, 50, 40, False, False),
    Shape("explain-small-synthetic", 500, 11, 6, True, True),
    Shape("top-synthetic", 50_000, 11, 12, True, True, top=10),
    Shape("player-list-synthetic", 5_000, 11, 12, True, True, player_list=1_000),
    Shape("compare-synthetic", 20_000, 11, 1, False, True, lists=10),
    Shape("compare-tied-empty", 20_000, 1, 1, False, False, lists=10),
    Shape("compare-rounds-empty", 2_000, 100, 2, False, False, lists=10),
    Shape("compare-explain-synthetic", 1_000, 11, 4, True, True, lists=10),
    Shape("rules-heavy-synthetic", 10_000, 11, 10, False, True, rule_set="heavy"),
    Shape("rules-heavy-uscf-synthetic", 10_000, 11, 6, False, True, rule_set="heavy-uscf"),
    Shape("explain-verbose-synthetic", 1_000, 11, 10, True, True, rule_set="verbose"),
    Shape("explain-short-synthetic", 5_000, 2, 10, True, True, rule_set="verbose"),
]

# The model has one cost per rule evaluation, whatever the rule: these shapes make it the cost of
# the rules that cost most (measured one at a time on 10,000 × 11: the performance ratings and the
# larger cuts per cell, the Sonneborn-Berger and Buchholz variants per breakdown), so that no rule
# list costs more than it is priced.
RULE_SETS = {
    "heavy": ["PTP", "APPO", "BH/C5", "BH/M3", "BH/C4", "BH/C3", "ARO/C1", "BH/M2", "ARO/M1", "SB/M1"],
    "heavy-uscf": ["MM", "MED", "RBT", "OPERF", "AROUS", "OCUM"],
    "verbose": ["SB/M2", "SB/C3", "SB/M1", "BH/M3", "SB/C2", "SB/C1", "BH/C5", "BH/M2", "FB/M1", "BH/C4"],
}


# Direct encounter (a group rule) works inside the groups tied on every earlier rule, and its
# cost grows with the square of their sizes (about Σ size² / 5e6 s here), which the counts do
# not tell: without results every player is tied with every other, and as the first rule after
# the points of a large Swiss its groups are whole score groups (20,000 × 11 rounds: 7 s).
# Such requests are left to the deadline, which kills them; the model is fitted on the rules
# whose cost the counts do tell, with DE only behind five other rules (tiny groups).
GROUP_RULES = {"DE"}


def rule_lists(shape: Shape) -> list[list[str]]:
    """The rules of each list (one list for standings); consecutive lists start one rule further on."""
    if shape.rule_set != "mixed":
        pool = RULE_SETS[shape.rule_set]
    elif shape.results and not shape.lists:
        pool = RULES * 2  # DE sixth
    else:
        pool = [r for r in RULES * 3 if r not in GROUP_RULES]
    return [pool[i : i + shape.rules] for i in range(max(1, shape.lists))]


def body_for(shape: Shape) -> bytes:
    import msgspec

    from testkit.synthetic import swiss_wire

    if shape.results:
        tournament = swiss_wire(shape.players, shape.rounds, seed=1)
    else:
        tournament = {
            "rounds": shape.rounds,
            "players": [{"id": i + 1, "rating": 1500 + i % 500} for i in range(shape.players)],
        }
    lists = rule_lists(shape)
    if shape.lists:
        return msgspec.json.encode(
            {
                "tournament": tournament,
                "explain": shape.explain,
                "lists": [{"name": f"list {i + 1}", "tiebreaks": rules} for i, rules in enumerate(lists)],
            }
        )
    request = {"tournament": tournament, "tiebreaks": lists[0], "explain": shape.explain}
    if shape.rule_set == "heavy-uscf":
        request["regulations"] = "uscf"
    if shape.top is not None:
        request["top"] = shape.top
    if shape.player_list:  # every seventh start number: rows spread over the standings
        request["player"] = [1 + 7 * i % shape.players for i in range(shape.player_list)]
    return msgspec.json.encode(request)


def counts_of(run: dict):
    """The counts the service prices the run's request by (service/tiebreak/usecases/standings.py, compare.py)."""
    from tiebreak.usecases.cost import Counts, explained_rows, returned_rows

    rules = run["rules"] * max(1, run["lists"])
    if run["lists"]:
        rows = run["players"]
        explained = run["players"] * rules if run["explain"] else 0
    else:
        player = list(range(run["player_list"])) if run["player_list"] else None
        rows = returned_rows(run["players"], run["top"], player)
        explained = explained_rows(run["explain"], run["players"], run["top"], player) * run["rules"]
    return Counts(
        players=run["players"],
        rounds=run["rounds"],
        rule_passes=max(1, rules),
        explained_rules=explained,
        body_bytes=run["body_bytes"],
        lists=max(1, run["lists"]),
        rows=rows,
    )


def _rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def run_one(spec: str) -> dict:
    """In the child: build the body, warm up as a worker does, then time one job the way a worker runs it."""
    from dataclasses import replace

    from tiebreak.wire.limits import LIMITS
    from tiebreak.compute.work import Job, execute
    from tiebreak.compute.worker import warm_up

    shape = Shape(**json.loads(spec))
    body = body_for(shape)
    limits = replace(
        LIMITS,
        max_cost_s=1e9,
        max_memory_mib=10**9,
        max_response_bytes=1 << 40,
        max_body_bytes=1 << 40,
        max_trf_chars=1 << 40,
    )
    kind = "compare" if shape.lists else "standings"
    job = Job(kind=kind, body=body, limits=limits)
    # A worker warms up before it says ready, and has then served requests of this kind: what a
    # first computation imports and sets up once is no cost of a request (and no rate of the model).
    warm_up()
    small = replace(shape, players=min(shape.players, 20), player_list=min(shape.player_list, 2))
    execute(Job(kind=kind, body=body_for(small), limits=limits))
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")  # reset the peak RSS to the current RSS
    except OSError:
        pass
    before = _rss_kib()
    cpu, wall = time.process_time(), time.perf_counter()
    answer = execute(job)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        **asdict(shape),
        "status": getattr(answer, "status", 200),
        "cpu_s": cpu,
        "wall_s": wall,
        "body_bytes": len(body),
        "answer_bytes": len(answer.body),
        "growth_bytes": max(0, peak - before) * 1024,
    }


def units(run: dict) -> dict:
    """The run in the model's units (from its shape, so that a recorded run can be re-fitted)."""
    counts = counts_of(run)
    return {
        "players": counts.players,
        "compared_players": counts.compared_players,
        "cells": counts.cells,
        "rule_cells": counts.cells * counts.rule_passes,
        "explained_rules": counts.explained_rules,
        "explained_cells": counts.explained_rules * counts.rounds,
        "body_bytes": counts.body_bytes,
        "rows": counts.answer_rows,
        "compared_rows": counts.answer_rows * (counts.lists - 1),
        "rule_rows": counts.answer_rows * counts.rule_passes,
    }


def measure(shape: Shape) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "tools.calibrate_cost", "--one", json.dumps(asdict(shape))],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "TIEBREAK_ACCESS_LOG": "0"},
    )
    if out.returncode:
        raise SystemExit(f"{shape.name} failed:\n{out.stderr[-2000:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if result["status"] != 200:
        raise SystemExit(f"{shape.name} answered {result['status']}")
    return result


TIME_TERMS = ["players", "compared_players", "cells", "rule_cells", "explained_rules", "explained_cells", "body_bytes"]
MEMORY_TERMS = TIME_TERMS[:-1]  # the body's own bytes: fixed in cost.py (BYTES_PER_BODY_BYTE), not measured here
ANSWER_TERMS = ["rows", "compared_rows", "rule_rows", "explained_rules", "explained_cells"]
NAMES = {
    "players": "PLAYER",
    "compared_players": "COMPARED_PLAYER",
    "cells": "CELL",
    "rule_cells": "RULE_CELL",
    "explained_rules": "EXPLAINED_RULE",
    "explained_cells": "EXPLAINED_CELL",
    "body_bytes": "BODY_BYTE",
    "rows": "ROW",
    "compared_rows": "COMPARED_ROW",
    "rule_rows": "RULE_ROW",
}
CONSTANTS = (
    [f"SECONDS_PER_{NAMES[t]}" for t in TIME_TERMS]
    + [f"BYTES_PER_{NAMES[t]}" for t in MEMORY_TERMS]
    + [f"ANSWER_BYTES_PER_{NAMES[t]}" for t in ANSWER_TERMS]
)


def _solve(rows: list[list[float]], ys: list[float], active: list[int]) -> list[float]:
    """Least squares on the active columns (normal equations, Gaussian elimination)."""
    n = len(active)
    a = [[sum(r[i] * r[j] for r in rows) for j in active] for i in active]
    b = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in active]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        for r in range(n):
            if r != col and a[col][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def nonnegative_fit(runs: list[dict], target: str, terms: list[str]) -> list[float]:
    """Coefficients ≥ 0 of `target` over `terms`, fitted on relative error (exact non-negative least
    squares: the best of the least-squares fits on every subset of the terms whose coefficients are
    all ≥ 0), narrowed, then scaled up so that no run is under-estimated (the model errs towards
    refusing)."""
    from itertools import combinations

    units_ = [[float(run[t]) for t in terms] for run in runs]
    ys = [float(run[target]) for run in runs]
    rows = [[u / y for u in unit] for unit, y in zip(units_, ys, strict=True)]  # relative error: divide each row by y
    ones = [1.0] * len(rows)
    best, coefficients = float("inf"), [0.0] * len(terms)
    for size in range(1, len(terms) + 1):
        for active in combinations(range(len(terms)), size):
            solution = _solve(rows, ones, list(active))
            if any(x < 0 for x in solution):
                continue
            candidate = [0.0] * len(terms)
            for i, x in zip(active, solution, strict=True):
                candidate[i] = x
            residual = sum((sum(c * u for c, u in zip(candidate, row, strict=True)) - 1) ** 2 for row in rows)
            if residual < best:
                best, coefficients = residual, candidate
    coefficients = narrowed(units_, ys, coefficients)
    worst = max(
        y / max(1e-12, sum(c * u for c, u in zip(coefficients, unit, strict=True)))
        for unit, y in zip(units_, ys, strict=True)
    )
    return [c * worst for c in coefficients]


def narrowed(units_: list[list[float]], ys: list[float], coefficients: list[float]) -> list[float]:
    """The least-squares coefficients moved (each multiplied or divided by 1 + step, or dropped) while
    that lowers the mean over-estimate once the model is scaled up to cover the run it under-estimates
    most (the geometric mean of estimate / measured over the runs, divided by the smallest)."""
    import math

    def over(c: list[float]) -> float:
        ratios = [sum(ci * u for ci, u in zip(c, unit, strict=True)) / y for unit, y in zip(units_, ys, strict=True)]
        if min(ratios) <= 0:
            return float("inf")
        logs = [math.log(r) for r in ratios]
        return sum(logs) / len(logs) - min(logs)

    best, step = over(coefficients), 0.5
    while step > 1e-4:
        improved = False
        for j in range(len(coefficients)):
            if not coefficients[j]:
                continue
            for value in (coefficients[j] * (1 + step), coefficients[j] / (1 + step), 0.0):
                trial = [*coefficients[:j], value, *coefficients[j + 1 :]]
                if (candidate := over(trial)) < best - 1e-12:
                    best, coefficients, improved = candidate, trial, True
        if not improved:
            step /= 2
    return coefficients


def fit(runs: dict[str, dict]) -> dict[str, float]:
    measured = [{**run, **units(run)} for run in runs.values()]
    k = {}
    for prefix, target, terms in (
        ("SECONDS_PER_", "cpu_s", TIME_TERMS),
        ("BYTES_PER_", "growth_bytes", MEMORY_TERMS),
        ("ANSWER_BYTES_PER_", "answer_bytes", ANSWER_TERMS),
    ):
        k.update({prefix + NAMES[t]: c for t, c in zip(terms, nonnegative_fit(measured, target, terms), strict=True)})
    return k


def rounded(k: dict[str, float]) -> dict[str, float]:
    """The constants as printed (3 significant digits for seconds, 0.1 byte for bytes), rounded up: a
    printed constant is never below the fitted one."""
    import math

    def up(x: float, step: float) -> float:
        return math.ceil(x / step - 1e-9) * step

    out = {}
    for name, x in k.items():
        if x == 0:
            out[name] = 0.0
        elif name.startswith("SECONDS"):
            step = 10 ** (math.floor(math.log10(x)) - 2)
            out[name] = float(f"{up(x, step):.3g}")
        else:
            out[name] = round(up(x, 0.1), 1)
    return out


def constants_block(k: dict[str, float]) -> str:
    def text(name: str, x: float) -> str:
        return ("0.0" if x == 0 else f"{x:.3g}" if x >= 1e-3 else f"{x:.2e}") if name.startswith("SECONDS") else f"{x}"

    return "\n".join(f"{name} = {text(name, value)}" for name, value in rounded(k).items())


def comparison(runs: list[dict], k: dict[str, float] | None = None) -> tuple[list[str], dict[str, tuple]]:
    """The model (cost.py, or cost.py's formula with the constants `k`) against every run: a line per
    run, and per quantity the smallest and largest ratio estimate / measured."""
    from tiebreak.usecases import cost

    saved = {name: getattr(cost, name) for name in CONSTANTS}
    lines, ratios = [], {"time": [], "memory": [], "answer": []}
    try:
        for name, value in (k or {}).items():
            setattr(cost, name, value)
        for run in runs:
            e = cost.estimate(counts_of(run))
            grown = e.memory_bytes - cost.BYTES_BASE - cost.BYTES_PER_BODY_BYTE * run["body_bytes"]  # not in the growth
            r = (
                e.seconds / run["cpu_s"],
                grown / max(1, run["growth_bytes"]),
                e.answer_bytes / max(1, run["answer_bytes"]),
            )
            for key, x in zip(ratios, r, strict=True):
                ratios[key].append(x)
            lines.append(
                f"{run['name']:>25}  cpu {run['cpu_s']:6.2f} s, model {e.seconds:6.2f} s ({r[0]:4.2f}×)   "
                f"memory +{run['growth_bytes'] / 2**20:5.0f} MiB, model +{grown / 2**20:5.0f} MiB "
                f"({r[1]:4.2f}×)   "
                f"answer {run['answer_bytes'] / 2**20:6.1f} MiB, model {e.answer_bytes / 2**20:6.1f} MiB "
                f"({r[2]:4.2f}×)"
            )
    finally:
        for name, value in saved.items():
            setattr(cost, name, value)
    return lines, {key: (min(v), max(v)) for key, v in ratios.items()}


def print_comparison(title: str, runs: list[dict], k: dict[str, float] | None = None) -> None:
    lines, ranges = comparison(runs, k)
    print(f"\n{title}:")
    print("\n".join(lines))
    print("estimate / measured: " + ", ".join(f"{key} {low:.2f}–{high:.2f}×" for key, (low, high) in ranges.items()))


def commit() -> str:
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    return (out.stdout.strip() or "unknown") + ("+changes" if dirty else "")


def merged(files: list[str]) -> tuple[dict[str, float], list[dict], list[dict]]:
    """The larger figure per constant over several calibrations (the model must err towards refusing),
    each fitted again from its runs (the fit and the units are this script's)."""
    loaded = [json.loads(Path(f).read_text()) for f in files]
    fits = [fit(d["runs"]) for d in loaded]
    k = {name: max(f[name] for f in fits) for name in CONSTANTS}
    return k, [run for d in loaded for run in d["runs"].values()], [d.get("measured", {}) for d in loaded]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help="compare the model in cost.py with every run")
    parser.add_argument("--json", help="write the runs and the fitted constants to this file")
    parser.add_argument(
        "--merge",
        nargs="+",
        metavar="JSON",
        help="no measuring: the larger figure per constant "
        "of these calibrations (--json files), and that model against all their runs",
    )
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(args.one)))
        return 0
    if args.merge:
        k, runs, measured = merged(args.merge)
        print(f"# The larger figure per constant of {len(args.merge)} runs of tools/calibrate_cost.py:")
        for m in measured:
            print(
                f"#   {m.get('date')} at {m.get('commit')}, load average {m.get('load_before')} before, "
                f"{m.get('load_after')} after; {m.get('machine')}"
            )
        print(constants_block(k))
        print_comparison("this model against every run of every file", runs, rounded(k))
        if args.check:
            print_comparison("cost.py as it is against every run of every file", runs)
        return 0
    load_before = round(os.getloadavg()[0], 2)
    runs = {}
    for shape in SHAPES:
        run = measure(shape)
        runs[shape.name] = run
        print(
            f"{shape.name:>25}  {shape.players:>6} × {shape.rounds:>3} × {shape.rules:>2} rules"
            f"{f' × {shape.lists} lists' if shape.lists else '':<10}  explain={str(shape.explain):<5} "
            f"cpu {run['cpu_s']:7.2f} s  wall {run['wall_s']:7.2f} s  memory +{run['growth_bytes'] / 2**20:7.1f} MiB  "
            f"body {run['body_bytes'] / 2**20:6.1f} MiB",
            file=sys.stderr,
            flush=True,
        )
    k = fit(runs)
    measured = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "commit": commit(),
        "machine": f"{os.cpu_count()} CPUs, {platform.platform()}, Python {platform.python_version()}",
        "load_before": load_before,
        "load_after": round(os.getloadavg()[0], 2),
    }
    print(
        f"# Measured {measured['date']} by tools/calibrate_cost.py at {measured['commit']} on "
        f"{measured['machine']}; load average {load_before} before, {measured['load_after']} after"
    )
    print(constants_block(k))
    print_comparison("this model against the runs", list(runs.values()), rounded(k))
    if args.check:
        print_comparison("cost.py as it is against the runs", list(runs.values()))
    if args.json:
        Path(args.json).write_text(json.dumps({"measured": measured, "runs": runs, "constants": k}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
