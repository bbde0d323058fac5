"""What `player=` and `top=` save: one 500 x 11 request, 12 rules, through the standings pipeline.

.venv/bin/python scripts/bench_selection.py [PLAYERS] [ROUNDS]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tiebreak.wire import schemas as s  # noqa: E402
from tiebreak.usecases.standings import run_standings  # noqa: E402
from testkit.synthetic import swiss_wire  # noqa: E402

RULES = "BH/C1 BH/C2 BH BH/M1 SB SB/C1 PS WIN WON BPG DE ARO".split()
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
        body = msgspec.convert({"tournament": tournament, "tiebreaks": RULES, **selection}, s.StandingsRequest)
        times = []
        for _ in range(REPEATS):
            started = time.perf_counter()
            run_standings(body)
            times.append(time.perf_counter() - started)
        times.sort()
        print(f"{label:16} median {times[REPEATS // 2] * 1000:7.1f} ms   best {times[0] * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
