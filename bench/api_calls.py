#!/usr/bin/env python3
"""The Python API's other calls on one synthetic event, the best of a few calls per round, medians
of the rounds: `read_trf`, `check` (a 500 x 11 TRF written with its points and ranks) and
`distribute_prizes` (a prize fixture), in English and Russian.

    .venv/bin/python -m bench.api_calls                  # 15 rounds
    .venv/bin/python -m bench.api_calls --repeats 30 --size 2000x11

Run it in two trees taking turns to compare them (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

RULES = ["BH/C1", "BH", "SB", "ARO", "PS", "WIN"]
PRIZES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "prizes" / "p01-seeds-guide-two-share-first.json"


def best_of(call: Any, calls: int) -> float:
    times = []
    for _ in range(calls):
        began = time.perf_counter()
        answer = call()
        del answer
        times.append(time.perf_counter() - began)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    import tiebreak
    from testkit.synthetic import swiss_tournament
    from tiebreak.formats.trf_writer import write_trf

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="500x11", help="players x rounds")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)
    players, rounds = map(int, args.size.split("x"))
    text = write_trf(swiss_tournament(players, rounds, seed=1), tiebreaks=RULES).text
    request = json.loads(PRIZES.read_text())["request"]
    calls = {
        f"read_trf {args.size}": lambda: tiebreak.read_trf(text),
        f"read_trf {args.size} ru": lambda: tiebreak.read_trf(text, lang="ru"),
        f"check {args.size}": lambda: tiebreak.check(text),
        "distribute_prizes p01": lambda: tiebreak.distribute_prizes(request),
        "distribute_prizes p01 ru": lambda: tiebreak.distribute_prizes(request, lang="ru"),
    }
    for call in calls.values():
        call()
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(args.repeats):
        for name, call in calls.items():
            times[name].append(best_of(call, 3))
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name, values in times.items():
        print(f"{name:28} {statistics.median(values) * 1e3:8.3f} ms ({min(values) * 1e3:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
