"""Benchmark of POST /v1/scenarios' computation, in process (decoding, planning, ranking, needs).

    .venv/bin/python -m bench.scenarios   # both shapes, best of 3
    .venv/bin/python -m bench.scenarios --repeat 5
    .venv/bin/python -m cProfile -s tottime -m bench.scenarios --repeat 1 --shape swiss-40

Shapes (issue 25; figures in docs/benchmarks.md):
  swiss-40: a synthetic 40-player, 9-round Swiss, its last round opened again, the top 12 boards
            open (the other results assumed), every player reported, places 1 (the default); target < 1 s.
  open-150: a synthetic 150-player, 9-round open, its top 10 boards open, the rest assumed,
            `players` = the leaders (everyone within a point of first before the round), places 1;
            target < 2 s.
"""

from __future__ import annotations

import argparse
import time

import msgspec

from testkit.synthetic import swiss_wire
from tiebreak.usecases.scenarios import opened_round, plan_scenarios, compute_scenarios
from tiebreak.wire import schemas as s
from tiebreak.wire import scenarios as w
from tiebreak.wire.limits import LIMITS, LimitExceeded
from tiebreak.usecases.cost import check_cost, estimate, largest_open_games
from tiebreak.texts.catalogue import enc_hook

ENCODER = msgspec.json.Encoder(enc_hook=enc_hook)  # messages are written as the service writes them

RULES = ["BH/C1", "BH", "SB"]


def scores_before(t: s.Tournament) -> dict[int, float]:
    points = {"win": 1, "draw": 0.5, "forfeit_win": 1, "pairing_bye": 1, "full_bye": 1, "half_bye": 0.5}
    return {p.id: sum(points.get(r.result, 0) for r in p.results) for p in t.players}


def body_of(players: int, boards: int, leaders_only: bool) -> bytes:
    t = msgspec.convert(swiss_wire(players, 9, seed=7), s.Tournament)
    before, pairings, played = opened_round(t)
    score = scores_before(before)
    games = [p for p in pairings if p.white is not None]
    games.sort(key=lambda g: -max(score[g.white], score[g.black]))  # top boards first
    open_keys = {(g.white, g.black) for g in games[:boards]}
    assume = [a for a in played if (a.white, a.black) not in open_keys]
    top = max(score.values())
    chosen = sorted(pid for pid, sc in score.items() if sc >= top - 1) if leaders_only else None
    body = w.ScenariosRequest(tournament=before, tiebreaks=RULES, pairings=pairings, assume=assume, players=chosen)
    return msgspec.json.encode(body)


def run_once(data: bytes) -> tuple[float, w.ScenariosResponse, int]:
    """Seconds, the answer, and how many outcomes the engine ranked whole."""
    started = time.perf_counter()
    body = msgspec.json.decode(data, type=w.ScenariosRequest)
    plan = plan_scenarios(body, None, len(data))  # measured whatever the limits say (see `admitted`)
    answer = compute_scenarios(plan)
    ENCODER.encode(answer)
    return time.perf_counter() - started, answer, plan.counts.ranked_outcomes


def admitted(data: bytes) -> str:
    """What the service's default limits say of the request: admitted (with the cost model's
    estimate and the most open games it admits), or the 413's message."""
    body = msgspec.json.decode(data, type=w.ScenariosRequest)
    try:
        plan = plan_scenarios(body, LIMITS, len(data))
        check_cost(plan.counts, LIMITS)
    except LimitExceeded as exc:
        return f"refused under the default limits (413): {exc}"
    estimated = estimate(plan.counts).seconds
    most = largest_open_games(plan.counts, LIMITS)
    return f"admitted under the default limits (estimate {estimated:.1f} s; at most {most} open games)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--shape", help="run only the shape of this name (e.g. swiss-40), to profile it alone")
    args = parser.parse_args()
    shapes = [
        ("swiss-40", 40, 12, False, 1.0),
        ("open-150", 150, 10, True, 2.0),
        # the largest of each that the default limits admit
        ("swiss-40, 10 boards open", 40, 10, False, 1.0),
        ("open-150, 8 boards open", 150, 8, True, 2.0),
    ]
    if args.shape is not None:
        shapes = [shape for shape in shapes if shape[0] == args.shape]
        if not shapes:
            parser.error(f"no shape is named {args.shape!r}")
    for name, players, boards, leaders, target in shapes:
        data = body_of(players, boards, leaders)
        best, answer, whole = min((run_once(data) for _ in range(args.repeat)), key=lambda x: x[0])
        print(
            f"{name}: {best:.3f} s (target < {target} s); {answer.outcomes} outcomes, "
            f"{answer.ranked_by_tiebreaks} decided by the rules, {whole} ranked whole by the engine, "
            f"{len(answer.players)} players reported; " + admitted(data)
        )


if __name__ == "__main__":
    main()
