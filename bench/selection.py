"""What `player=` and `top=` save: one 500 x 11 request, 12 rules, through the standings pipeline.

.venv/bin/python -m bench.selection [PLAYERS] [ROUNDS]
"""

from __future__ import annotations

import sys
import time

import msgspec

from tiebreak.wire import schemas as s
from tiebreak.usecases.standings import run_standings
from testkit.synthetic import swiss_wire
from testkit.rules import RULES_12

REPEATS = 9


def main() -> None:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    tournament = swiss_wire(players, rounds, seed=1)
    cases = {
        "full breakdowns": {},
        "no breakdowns": {"explain": False},
        "player=7": {"player": 7},
        "top=10": {"top": 10},
    }
    for label, selection in cases.items():
        body = msgspec.convert({"tournament": tournament, "tiebreaks": RULES_12, **selection}, s.StandingsRequest)
        times = []
        for _ in range(REPEATS):
            started = time.perf_counter()
            run_standings(body)
            times.append(time.perf_counter() - started)
        times.sort()
        print(f"{label:16} median {times[REPEATS // 2] * 1000:7.1f} ms   best {times[0] * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
