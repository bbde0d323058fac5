"""POST /v1/standings/progression in one process: time, answer size and peak memory beside the cost
model's estimate (usecases/cost.py: the rankings made one after another, BYTES_PER_PROGRESSION_CELL,
ANSWER_BYTES_PER_PROGRESSION_CELL). Each shape runs in a fresh process, so that its peak is its own.

    .venv/bin/python -m bench.progression   # three shapes, about ten seconds
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time

import msgspec

SHAPES = [(5_000, 9), (20_000, 11), (50_000, 9)]
RULES = ["BH/C1", "BH", "SB"]


def one(players: int, rounds: int) -> None:
    from testkit.synthetic import swiss_wire
    from tiebreak.texts.catalogue import enc_hook
    from tiebreak.usecases.cost import Counts, estimate, progression_counts
    from tiebreak.usecases.requests import answer as computed
    from tiebreak.wire.progression import ProgressionRequest

    body = msgspec.json.encode({"tournament": swiss_wire(players, rounds, seed=3), "tiebreaks": RULES})
    started = time.perf_counter()
    request = msgspec.json.decode(body, type=ProgressionRequest)
    answer = msgspec.json.encode(computed("progression", request), enc_hook=enc_hook)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    one_ranking = Counts(players=players, rounds=rounds, rule_passes=len(RULES), body_bytes=len(body))
    guess = estimate(progression_counts(one_ranking, rounds))
    print(
        f"{players:>8} {rounds:>6} {seconds:>7.2f} {guess.seconds:>7.2f} {len(answer) / 2**20:>7.1f} "
        f"{guess.answer_bytes / 2**20:>7.1f} {peak:>8.0f} {guess.memory_mib:>8.0f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--one", nargs=2, type=int, metavar=("PLAYERS", "ROUNDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(*args.one)
        return
    print(
        f"{'players':>8} {'rounds':>6} {'s':>7} {'est s':>7} {'MiB':>7} {'est MiB':>7} {'peak MiB':>8} {'est MiB':>8}"
    )
    for players, rounds in SHAPES:
        subprocess.run([sys.executable, "-m", "bench.progression", "--one", str(players), str(rounds)], check=True)


if __name__ == "__main__":
    main()
