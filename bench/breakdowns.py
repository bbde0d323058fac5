#!/usr/bin/env python3
"""Every player's breakdown, as a compute worker answers it: read, engine, breakdowns, conversion, JSON.

    .venv/bin/python -m bench.breakdowns   # 20,000 x 11, 12 rules, explain on
    .venv/bin/python -m bench.breakdowns --players 5000 --no-explain

    .venv/bin/python -m bench.breakdowns --player 7   # one player's row and breakdown
    .venv/bin/python -m bench.breakdowns --top 10

Runs `tiebreak.compute.work.execute` on a synthetic Swiss (testkit.synthetic, seed 1) with the
cost ceilings lifted (the shipped ones refuse the largest sizes on purpose), `--repeats`
times, in this process, as the compute worker runs a job (service/tiebreak/compute/worker.py): the cyclic
collector paused. Prints, per run, the time to the answer (what the client waits for) and the
page faults until then, CPU time, the answer's size and the process's peak RSS.
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import sys
import time
from testkit.rules import RULES_12


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20000, help="players (default 20,000)")
    parser.add_argument("--rounds", type=int, default=11, help="rounds (default 11)")
    parser.add_argument("--no-explain", dest="explain", action="store_false", help="values only")
    parser.add_argument("--player", type=int, action="append", help="only this player's row (repeatable)")
    parser.add_argument("--top", type=int, help="only the first N rows")
    parser.add_argument("--repeats", type=int, default=2, help="runs (default 2)")
    args = parser.parse_args()

    import msgspec

    from tiebreak.compute import work
    from tiebreak.wire.limits import LIMITS
    from tiebreak.engine.standings import cyclic_gc_paused
    from testkit.synthetic import swiss_wire

    request = {"tournament": swiss_wire(args.players, args.rounds, 1), "tiebreaks": RULES_12, "explain": args.explain}
    if args.player:
        request["player"] = args.player
    if args.top is not None:
        request["top"] = args.top
    body = msgspec.json.encode(request)
    selection = "".join(f", {k}={request[k]}" for k in ("player", "top") if k in request)
    del request  # the tournament as Python dicts: not the worker's memory
    limits = dataclasses.replace(LIMITS, max_cost_s=1e9, max_memory_mib=10**9, max_response_bytes=10**12)
    answered = []
    for _ in range(args.repeats):
        with cyclic_gc_paused():  # as the worker runs a job
            wall, cpu = time.perf_counter(), time.process_time()
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            answer = work.execute(work.Job(kind="standings", body=body, limits=limits))
            answer_s = time.perf_counter() - wall
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
            size = len(answer.body)
            del answer
        answered.append(answer_s)
        print(
            f"{args.players} x {args.rounds}, explain={args.explain}{selection}: {answer_s * 1000:.0f} ms to the "
            f"answer ({faults} page faults), {time.process_time() - cpu:.2f} s CPU, "
            f"{size / 1e6:.2f} MB of JSON, peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
        )
    answered.sort()
    print(f"to the answer: median {answered[len(answered) // 2] * 1000:.0f} ms, best {answered[0] * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
