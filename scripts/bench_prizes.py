"""Speed of the prize distribution (tiebreak.prizes), in process, on synthetic standings.

    .venv/bin/python scripts/bench_prizes.py

Each case: players, distinct scores (1 = everyone tied), cash prizes, "under" rating
categories besides overall, with a cap at the untied prize (the most work). Seeded, so
the figures are reproducible; docs/prizes.md quotes them.
"""

from __future__ import annotations

import random
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tiebreak.prizes import (
    Category,
    Entrant,
    Prize,
    PrizeGroup,
    PrizeRequest,
    Rules,  # noqa: E402
    distribute,
)

CASES = [  # players, distinct scores, prizes, rating categories
    (100, 12, 20, 3),
    (500, 20, 50, 5),
    (5_000, 20, 200, 10),
    (50_000, 30, 1_000, 10),
    (2_000, 1, 300, 10),
    (50_000, 1, 1_000, 50),
]


def request(players: int, scores: int, prizes: int, categories: int, rng: random.Random) -> PrizeRequest:
    points = sorted((rng.randrange(scores) for _ in range(players)), reverse=True)
    standings = tuple(Entrant(i + 1, Decimal(p) / 2, rating=rng.randrange(1000, 2600)) for i, p in enumerate(points))
    under = {f"u{r}": Category(f"u{r}", rating_below=r) for r in range(1200, 1200 + 200 * categories, 200)}
    names = ["overall", *under]
    prize_list = []
    for name in names:
        amounts = sorted((rng.randrange(1, 1000) for _ in range(prizes // len(names))), reverse=True)
        prize_list += [Prize(f"{name}-{j + 1}", Decimal(a), name) for j, a in enumerate(amounts)]
    return PrizeRequest(standings, under, (PrizeGroup(None, tuple(prize_list)),), Rules(cap_at_untied_prize=True))


def main() -> None:
    print(f"{'players':>8} {'scores':>6} {'prizes':>6} {'categories':>10} {'pools':>6} {'ms (best of 3)':>15}")
    for players, scores, prizes, categories in CASES:
        case = request(players, scores, prizes, categories, random.Random(1))
        timings = []
        for _ in range(3):
            started = time.perf_counter()
            result = distribute(case)
            timings.append(time.perf_counter() - started)
        print(
            f"{players:>8} {scores:>6} {prizes:>6} {categories + 1:>10} {len(result.pools):>6} "
            f"{min(timings) * 1000:>15.0f}"
        )


if __name__ == "__main__":
    main()
