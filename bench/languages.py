#!/usr/bin/env python3
"""What the languages cost a /v1/standings answer, in-process (decode, compute, build the
breakdowns, encode: the handler's work without the socket).

    .venv/bin/python -m bench.languages   # 500x11, every language
    .venv/bin/python -m bench.languages --size 2000x11 --repeats 30
    ../main/.venv/bin/python -m bench.languages --langs en    # the same in another checkout

Run from a checkout's root: it times that checkout's code (PYTHONPATH is set to its service/).
The languages are timed in turn, round after round, so that they share the background load;
the figures are the medians of the repeats, wall clock and the process's CPU time (less
sensitive to a busy machine), in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import msgspec

from tiebreak.compute.work import Job, execute
from testkit.synthetic import swiss_wire
from tiebreak.wire.limits import LIMITS

RULES = ["BH/C1", "BH", "SB", "DE", "PS", "KS", "FB", "AOB", "ARO", "TPR", "PTP", "WIN"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", default="500x11", help="players x rounds (default 500x11)")
    p.add_argument("--repeats", type=int, default=40)
    p.add_argument("--langs", nargs="+", default=["en", "ru", "pl", "zh", "ja"])
    args = p.parse_args()
    players, rounds = map(int, args.size.split("x"))
    body = msgspec.json.encode({"tournament": swiss_wire(players, rounds, seed=7), "tiebreaks": RULES})
    fields = set(Job.__struct_fields__)

    def job(lang: str) -> Job:
        return Job(kind="standings", body=body, limits=LIMITS, **({"lang": lang} if "lang" in fields else {}))

    times: dict[str, list[float]] = {lang: [] for lang in args.langs}
    cpu: dict[str, list[float]] = {lang: [] for lang in args.langs}
    sizes = {}
    for lang in args.langs:  # warm-up: catalogues loaded, caches filled
        answer = execute(job(lang))
        assert answer.status == 200, answer.body[:300]
        sizes[lang] = len(answer.body)
    for _ in range(args.repeats):
        for lang in args.langs:
            started, started_cpu = time.perf_counter(), time.process_time()
            execute(job(lang))
            times[lang].append(time.perf_counter() - started)
            cpu[lang].append(time.process_time() - started_cpu)
    print(f"{args.size}, {len(RULES)} rules, explain on, {args.repeats} repeats ({sys.prefix})")
    for lang in args.langs:
        print(
            f"  {lang}: median {statistics.median(times[lang]) * 1000:.1f} ms "
            f"(CPU {statistics.median(cpu[lang]) * 1000:.1f} ms), answer {sizes[lang]:,} bytes"
        )


if __name__ == "__main__":
    main()
