#!/usr/bin/env python3
"""Every player's breakdown, as a compute worker answers it: read, engine, breakdowns, conversion, JSON.

    .venv/bin/python scripts/bench_breakdowns.py                 # 20,000 x 11, 12 rules, explain on
    .venv/bin/python scripts/bench_breakdowns.py --players 5000 --no-explain

Runs `service.api.work.execute` on a synthetic Swiss (service.synthetic, seed 1) with the
cost ceilings lifted (the shipped ones refuse the largest sizes on purpose), twice, in this
process; prints wall and CPU time, the answer's size and the process's peak RSS.
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RULES = ["BH/C1", "BH/C2", "BH", "BH/M1", "SB", "SB/C1", "PS", "WIN", "WON", "BPG", "DE", "ARO"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20000, help="players (default 20,000)")
    parser.add_argument("--rounds", type=int, default=11, help="rounds (default 11)")
    parser.add_argument("--no-explain", dest="explain", action="store_false", help="values only")
    args = parser.parse_args()

    import msgspec

    from service.api import work
    from service.api.limits import LIMITS
    from service.synthetic import swiss_wire

    body = msgspec.json.encode({"tournament": swiss_wire(args.players, args.rounds, 1), "tiebreaks": RULES,
                                "explain": args.explain})
    limits = dataclasses.replace(LIMITS, max_cost_s=1e9, max_memory_mib=10**9, max_response_bytes=10**12)
    for _ in range(2):
        wall, cpu = time.perf_counter(), time.process_time()
        answer = work.execute(work.Job(kind="standings", body=body, limits=limits))
        print(f"{args.players} x {args.rounds}, explain={args.explain}: status {answer.status}, "
              f"{time.perf_counter() - wall:.2f} s wall, {time.process_time() - cpu:.2f} s CPU, "
              f"{len(answer.body) / 1e6:.1f} MB of JSON, peak RSS "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
