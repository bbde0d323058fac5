#!/usr/bin/env python3
"""Every player's breakdown, as a compute worker answers it: read, engine, breakdowns, conversion, JSON.

    .venv/bin/python scripts/bench_breakdowns.py                 # 20,000 x 11, 12 rules, explain on
    .venv/bin/python scripts/bench_breakdowns.py --players 5000 --no-explain

    .venv/bin/python scripts/bench_breakdowns.py --player 7      # one player's row and breakdown
    .venv/bin/python scripts/bench_breakdowns.py --top 10
    .venv/bin/python scripts/bench_breakdowns.py --player 7 --processes 1    # one process reads the body
    .venv/bin/python scripts/bench_breakdowns.py --player 7 --no-kept-memory # malloc's defaults

Runs `tiebreak.api.work.execute` on a synthetic Swiss (tiebreak.synthetic, seed 1) with the
cost ceilings lifted (the shipped ones refuse the largest sizes on purpose), `--repeats`
times, in this process, as the compute worker runs a job (service/tiebreak/api/worker.py): the cyclic
collector paused, the memory a run frees kept for the next (forked.keep_freed_memory), and the
request as read freed after the answer is made (the worker frees it once the answer is
written). Prints, per run, the time to the answer (what the client waits for) and the page
faults until then, the freeing after it, CPU time, the answer's size and the process's peak RSS.
"""

from __future__ import annotations

import argparse
import dataclasses
import mmap
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
    parser.add_argument("--player", type=int, action="append", help="only this player's row (repeatable)")
    parser.add_argument("--top", type=int, help="only the first N rows")
    parser.add_argument("--repeats", type=int, default=2, help="runs (default 2)")
    parser.add_argument("--processes", type=int, default=2,
                        help="processes for one large request (forked copies building the breakdowns, the "
                             "second reader of the body), the worker's default (2); 1: one process")
    parser.add_argument("--no-kept-memory", dest="kept_memory", action="store_false",
                        help="malloc's defaults: freed blocks go back to the system (the worker keeps them)")
    args = parser.parse_args()

    import msgspec

    from tiebreak.api import forked, second_reader, work
    from tiebreak.api.limits import LIMITS
    from tiebreak.engine.standings import cyclic_gc_paused
    from tiebreak.synthetic import swiss_wire

    request = {"tournament": swiss_wire(args.players, args.rounds, 1), "tiebreaks": RULES, "explain": args.explain}
    if args.player:
        request["player"] = args.player
    if args.top is not None:
        request["top"] = args.top
    body = msgspec.json.encode(request)
    selection = "".join(f", {k}={request[k]}" for k in ("player", "top") if k in request)
    del request  # the tournament as Python dicts: not the worker's memory
    forked.enable(args.processes)  # as the worker does (TIEBREAK_BREAKDOWN_PROCESSES)
    if args.kept_memory:  # as the worker does: a job reuses the pages the previous one freed
        forked.keep_freed_memory()
    if forked.helpers():  # as the worker does: a second process reads half of a large body's players
        second_reader.start()
    copies_private = _measure_forked_copies(forked)
    limits = dataclasses.replace(LIMITS, max_cost_s=1e9, max_memory_mib=10**9, max_response_bytes=10**12)
    answered = []
    for _ in range(args.repeats):
        held: list = []
        with cyclic_gc_paused():  # as the worker runs a job
            wall, cpu = time.perf_counter(), time.process_time()
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            answer = work.execute(work.Job(kind="standings", body=body, limits=limits), held)
            answer_s = time.perf_counter() - wall
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
            size = len(answer.body) + sum(map(len, answer.more_body or ()))
            in_files = sum(len(p) for p in answer.more_body or () if isinstance(p, mmap.mmap))
            freeing = time.perf_counter()
            del answer
            held.clear()
            freed_s = time.perf_counter() - freeing
        answered.append(answer_s)
        private = copies_private()
        copies = (f" + {sum(private) / 1024:.0f} MB private to the forked copies + {in_files / 2**20:.0f} MB of "
                  f"their rows in memory files" if private else "")
        second = _private_kib(second_reader._second.pid) if second_reader.available() else None
        reader = "" if second is None else f" + {second / 1024:.0f} MB private to the second reader"
        print(f"{args.players} x {args.rounds}, explain={args.explain}{selection}: {answer_s * 1000:.0f} ms to the "
              f"answer ({faults} page faults here), then {freed_s * 1000:.0f} ms freeing; "
              f"{time.process_time() - cpu:.2f} s CPU here, "
              f"{size / 1e6:.2f} MB of JSON, peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
              f"{copies}{reader}")
    answered.sort()
    print(f"to the answer: median {answered[len(answered) // 2] * 1000:.0f} ms, best {answered[0] * 1000:.0f} ms")
    return 0


def _private_kib(pid: int) -> int | None:
    """A process's memory of its own (kB: Private_Clean + Private_Dirty of smaps_rollup): for the
    second reader, what it kept of its largest share (freed memory stays with it, as with the
    worker); Linux only (None elsewhere)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            return sum(int(line.split()[1]) for line in f if line.startswith("Private"))
    except OSError:
        return None


def _measure_forked_copies(forked):
    """The memory each forked copy has to itself (kB, Private_Clean + Private_Dirty of
    /proc/self/smaps_rollup as it finishes: its own objects and buffer, and the pages of the
    worker it wrote to), sent back through a pipe; the pages it shares with the worker are in
    the worker's RSS already. Linux only (empty elsewhere)."""
    import os

    if not os.path.exists("/proc/self/smaps_rollup"):
        return list
    start = forked.start

    def measuring_start(parts, encode):
        reading, writing = os.pipe()

        def measured_encode(part):
            yield from encode(part)
            with open("/proc/self/smaps_rollup") as f:
                fields = dict(line.split(":", 1) for line in f if line.startswith("Private"))
            os.write(writing, str(sum(int(v.split()[0]) for v in fields.values())).encode() + b"\n")

        copies = start(parts, measured_encode)
        os.close(writing)
        pipes.append(reading)  # read once the copies have finished (they write their figure first)
        return copies

    def measured() -> list[int]:
        figures = []
        while pipes:
            with os.fdopen(pipes.pop()) as f:
                figures.extend(int(line) for line in f.read().split())
        return figures

    pipes: list[int] = []

    forked.start = measuring_start
    return measured


if __name__ == "__main__":
    sys.exit(main())
