#!/usr/bin/env python3
"""Measure the constants of the cost model (service/api/cost.py) on the current engine.

    .venv/bin/python scripts/calibrate_cost.py            # about 2 minutes; prints the constants block
    .venv/bin/python scripts/calibrate_cost.py --check    # also compares the model with every run
    .venv/bin/python scripts/calibrate_cost.py --json out.json

Every shape runs in a fresh process, exactly as a compute worker runs a request:
`work.execute(Job)` on the encoded body (decode, read, engine, encode). Time is the
process's CPU time (steadier than wall time on a shared machine: the deadline is wall
time, so the ceiling `max_cost_s` keeps a margin below it); memory is the growth of
the peak RSS over the process's RSS just before the job (the kernel's high-water
mark is reset first, Linux). Two kinds of input: synthetic Swiss events
(service.synthetic) and events without any results, where every round of every
player is a dummy opponent (the most memory per cell).

The constants are fitted by non-negative least squares on the relative error over
all shapes, then scaled up so that no shape is under-estimated (the model errs
towards refusing). The memory a worker needs for the body itself (the job frame and
its decoded copy: 2 bytes per body byte) is not measured here (the body is built
before the measurement starts) and stays fixed in cost.py.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

RULES = ["BH/C1", "BH", "SB", "PS", "WIN", "DE", "ARO", "KS", "BH/M1", "SB/C1", "WON", "BPG", "AOB", "FB",
         "TPR", "PTP", "APRO", "APPO", "GE", "BWG", "BH/C2", "SB/M1", "KS/L40", "BH/C3", "BH/C1/P", "SB/P",
         "KS/L60", "BH/M2", "SB/C2", "PS/C1"]

# (name, players, rounds, rules, explain, results)
SHAPES = [
    ("players", 50_000, 1, 1, False, False),
    ("players-synthetic", 50_000, 3, 1, False, True),
    ("body-synthetic", 20_000, 30, 1, False, True),
    ("cells-empty", 4_000, 100, 1, False, False),
    ("cells-synthetic", 10_000, 11, 1, False, True),
    ("rules-empty", 2_000, 100, 24, False, False),
    ("rules-synthetic", 5_000, 11, 24, False, True),
    ("explain-empty", 300, 100, 20, True, False),
    ("explain-synthetic", 2_000, 11, 12, True, True),
    ("mixed-synthetic", 20_000, 11, 12, False, True),
    ("mixed-empty", 10_000, 50, 6, False, False),
    ("rules40-empty", 2_000, 50, 40, False, False),
    ("explain-top-synthetic", 500, 11, 6, True, True),
]


# Without results every player is tied with every other: direct encounter (a group rule)
# then works on one group of all players, and its cost grows faster than the counts the
# model knows (about players² / 6e6 s here). Such requests are left to the deadline, which
# kills them; the model is fitted on the rules whose cost the counts do tell.
GROUP_RULES = {"DE"}


def body_for(players: int, rounds: int, rules: int, explain: bool, results: bool) -> bytes:
    import msgspec

    from service.synthetic import swiss_wire

    if results:
        tournament = swiss_wire(players, rounds, seed=1)
        chosen = RULES[:rules]
    else:
        tournament = {"rounds": rounds, "players": [{"id": i + 1, "rating": 1500 + i % 500} for i in range(players)]}
        chosen = [r for r in RULES * 2 if r not in GROUP_RULES][:rules]
    return msgspec.json.encode({"tournament": tournament, "tiebreaks": chosen, "explain": explain})


def _rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def run_one(spec: str) -> dict:
    """In the child: build the body, then time one job the way a worker runs it."""
    from dataclasses import replace

    from service.api.cost import Counts
    from service.api.limits import LIMITS
    from service.api.work import Job, execute

    name, players, rounds, rules, explain, results = json.loads(spec)
    body = body_for(players, rounds, rules, explain, results)
    limits = replace(LIMITS, max_cost_s=1e9, max_memory_mib=10**9, max_response_bytes=1 << 40,
                     max_body_bytes=1 << 40, max_trf_chars=1 << 40)
    job = Job(kind="standings", body=body, limits=limits)
    job_fn = lambda: execute(job)  # noqa: E731
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")  # reset the peak RSS to the current RSS
    except OSError:
        pass
    before = _rss_kib()
    cpu, wall = time.process_time(), time.perf_counter()
    answer = job_fn()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    status = getattr(answer, "status", 200)
    counts = Counts(players=players, rounds=rounds, rule_passes=max(1, rules),
                    explained_rules=players * rules if explain else 0, body_bytes=len(body))
    return {"name": name, "players": players, "rounds": rounds, "rules": rules, "explain": explain,
            "results": results, "status": status, "cpu_s": cpu, "wall_s": wall, "body_bytes": len(body),
            "answer_bytes": len(answer.body),
            "growth_bytes": max(0, peak - before) * 1024, "cells": counts.cells,
            "explained_cells": counts.explained_rules * rounds}


def measure(shape: tuple) -> dict:
    out = subprocess.run([sys.executable, __file__, "--one", json.dumps(shape)], capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, "TIEBREAK_ACCESS_LOG": "0"})
    if out.returncode:
        raise SystemExit(f"{shape[0]} failed:\n{out.stderr[-2000:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    if result["status"] != 200:
        raise SystemExit(f"{shape[0]} answered {result['status']}")
    return result


TERMS = ["players", "cells", "rule_cells", "explained_cells", "body_bytes"]


def _solve(rows: list[list[float]], ys: list[float], active: list[int]) -> list[float]:
    """Least squares on the active columns (normal equations, Gaussian elimination)."""
    n = len(active)
    a = [[sum(r[i] * r[j] for r in rows) for j in active] for i in active]
    b = [sum(r[i] * y for r, y in zip(rows, ys)) for i in active]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot], b[col], b[pivot] = a[pivot], a[col], b[pivot], b[col]
        for r in range(n):
            if r != col and a[col][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def nonnegative_fit(runs: list[dict], target: str, terms: list[str] = TERMS) -> list[float]:
    """Coefficients ≥ 0 of `target` over `terms`, fitted on relative error; then scaled up so
    that no run is under-estimated (the model errs towards refusing)."""
    units = [[float(run[t]) for t in terms] for run in runs]
    ys = [float(run[target]) for run in runs]
    rows = [[u / y for u in unit] for unit, y in zip(units, ys)]  # relative error: divide each row by y
    ones = [1.0] * len(rows)
    active = list(range(len(terms)))
    while True:
        solution = _solve(rows, ones, active)
        if all(x >= 0 for x in solution):
            break
        active = [i for i, x in zip(active, solution) if x > 0]
    coefficients = [0.0] * len(terms)
    for i, x in zip(active, solution):
        coefficients[i] = x
    worst = max(y / max(1e-12, sum(c * u for c, u in zip(coefficients, unit))) for unit, y in zip(units, ys))
    return [c * worst for c in coefficients]


def fit(runs: dict[str, dict]) -> dict[str, float]:
    measured = [dict(run, rule_cells=run["cells"] * max(1, run["rules"]),
                     rule_players=run["players"] * max(1, run["rules"])) for name, run in runs.items()]
    seconds = nonnegative_fit(measured, "cpu_s")
    memory = nonnegative_fit(measured, "growth_bytes")
    answer = nonnegative_fit(measured, "answer_bytes", ["players", "rule_players", "explained_cells"])
    names = {"players": "PLAYER", "cells": "CELL", "rule_cells": "RULE_CELL", "explained_cells": "EXPLAINED_CELL",
             "body_bytes": "BODY_BYTE"}
    k = {f"SECONDS_PER_{names[t]}": c for t, c in zip(TERMS, seconds)}
    k.update({f"BYTES_PER_{names[t]}": c for t, c in zip(TERMS, memory) if t != "body_bytes"})
    k.update({"ANSWER_BYTES_PER_PLAYER": answer[0], "ANSWER_BYTES_PER_RULE_PLAYER": answer[1],
              "ANSWER_BYTES_PER_EXPLAINED_CELL": answer[2]})
    return k


def constants_block(k: dict[str, float]) -> str:
    def sig(x: float) -> str:
        return "0.0" if x == 0 else f"{x:.3g}" if x >= 1e-3 else f"{x:.2e}"

    return "\n".join(f"{name} = {sig(value) if name.startswith('SECONDS') else round(value, 1)}"
                     for name, value in k.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help="compare the model in cost.py with every run")
    parser.add_argument("--json", help="write the runs and the fitted constants to this file")
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(args.one)))
        return 0
    runs = {}
    for shape in SHAPES:
        run = measure(shape)
        runs[shape[0]] = run
        print(f"{shape[0]:>18}  {shape[1]:>6} × {shape[2]:>3} × {shape[3]:>2} rules  explain={str(shape[4]):<5} "
              f"cpu {run['cpu_s']:7.2f} s  wall {run['wall_s']:7.2f} s  memory +{run['growth_bytes'] / 2**20:7.1f} MiB  "
              f"body {run['body_bytes'] / 2**20:6.1f} MiB", file=sys.stderr, flush=True)
    k = fit(runs)
    print(f"# Measured {time.strftime('%Y-%m-%d')} by scripts/calibrate_cost.py on {os.cpu_count()} CPUs, "
          f"{platform.platform()}, Python {platform.python_version()}; load average {os.getloadavg()[0]:.2f}")
    print(constants_block(k))
    if args.check:
        from service.api import cost

        print("\nmodel (cost.py as it is) against the runs:")
        for name, run in runs.items():
            c = cost.Counts(players=run["players"], rounds=run["rounds"], rule_passes=max(1, run["rules"]),
                            explained_rules=run["players"] * run["rules"] if run["explain"] else 0,
                            body_bytes=run["body_bytes"])
            e = cost.estimate(c)
            grown = e.memory_bytes - cost.BYTES_BASE - cost.BYTES_PER_BODY_BYTE * run["body_bytes"]  # not in the growth
            print(f"{name:>21}  cpu {run['cpu_s']:6.2f} s, model {e.seconds:6.2f} s ({e.seconds / run['cpu_s']:4.2f}×)   "
                  f"memory +{run['growth_bytes'] / 2**20:5.0f} MiB, model +{grown / 2**20:5.0f} MiB "
                  f"({grown / max(1, run['growth_bytes']):4.2f}×)   answer {run['answer_bytes'] / 2**20:6.1f} MiB, "
                  f"model {e.answer_bytes / 2**20:6.1f} MiB ({e.answer_bytes / max(1, run['answer_bytes']):4.2f}×)")
    if args.json:
        Path(args.json).write_text(json.dumps({"runs": runs, "constants": k}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
