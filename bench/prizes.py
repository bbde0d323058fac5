"""Prize distribution: measured time and answer size against the cost model's estimate.

    .venv/bin/python -m bench.prizes   # the shapes below, one process each run

Each shape: entrants (all on the same points, or all apart), categories nested by rating (each
admits the players rated below its bound), 1,000 prizes spread over the categories, one cash
prize each or not. Prints the seconds run_prizes took and the answer's size beside what
usecases/cost.py estimates; the constants there must over-estimate every line.
"""

from __future__ import annotations

import argparse
import time

import msgspec

from tiebreak.texts.catalogue import enc_hook
from tiebreak.usecases.cost import Counts, estimate, prize_counts
from tiebreak.usecases.prizes import run_prizes
from tiebreak.wire import prizes as w

ENCODER = msgspec.json.Encoder(enc_hook=enc_hook)  # the answer's texts are messages, written as the service writes them

SHAPES = [
    # entrants, categories, prizes, tied, one cash prize
    (50_000, 100, 1000, True, True),
    (50_000, 100, 1000, False, True),
    (50_000, 100, 1000, False, False),
    (50_000, 0, 1000, True, True),
    (10_000, 100, 1000, True, True),
    (10_000, 100, 1000, True, False),
    (10_000, 10, 1000, True, False),
    (2_000, 20, 100, True, False),
]


def request(entrants: int, categories: int, prizes: int, tied: bool, one_cash: bool) -> w.PrizeRequest:
    body = {
        "standings": [
            {"id": i + 1, "points": 5.0 if tied else (entrants - i) / 5, "rating": 1000 + (i % 2000)}
            for i in range(entrants)
        ],
        "categories": {f"c{j}": {"rating_below": 1000 + 20 * (j + 1)} for j in range(categories)},
        "prizes": [
            {"id": f"p{k}", "amount": "10", "category": f"c{k % categories}" if categories else "overall"}
            for k in range(prizes)
        ],
        "rules": {"one_cash_prize": one_cash},
    }
    return msgspec.json.decode(msgspec.json.encode(body), type=w.PrizeRequest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.parse_args()
    print(
        f"{'entrants':>8} {'cats':>4} {'prizes':>6} {'tied':>5} {'1cash':>5} {'s':>7} {'est s':>7} {'MiB':>6} {'est MiB':>7}"
    )
    for shape in SHAPES:
        body = request(*shape)
        entrants, categories, prizes, tied, one_cash = shape
        points = [row.points for row in body.standings or []]
        counts = Counts(players=entrants, rounds=1, **prize_counts(points, categories, prizes, 1, one_cash))
        guess = estimate(counts)
        started = time.perf_counter()
        answer = ENCODER.encode(run_prizes(body))
        seconds = time.perf_counter() - started
        print(
            f"{entrants:>8} {categories:>4} {prizes:>6} {tied!s:>5} {one_cash!s:>5} {seconds:>7.2f} "
            f"{guess.seconds:>7.2f} {len(answer) / 2**20:>6.1f} {guess.answer_bytes / 2**20:>7.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
