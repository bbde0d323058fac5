"""POST /v1/scenarios by the solver with the rule families written as sums over rounds (decision
0270; docs/benchmarks.md, "Scenarios by the solver: the other rule families"): San Viator's last
round reopened (56 open games), places 10, the four leaders by PS/WIN, or every player with
`--every`; in process (plan and compute), `unrated_rating` 1000 so the rating rules are computed.

    .venv/bin/python -m bench.scenarios_rule_families [--every]
"""

from __future__ import annotations

import sys
import time

import msgspec

from testkit.conformance import REALWORLD
from tiebreak.usecases.scenarios import compute_scenarios, file_request, plan_scenarios
from tiebreak.wire.limits import LIMITS

LISTS = (
    ["BH/C2", "BH/M1", "FB"],
    ["BH/C1", "BH/C2", "SB"],
    ["SB/C1", "AOB"],
    ["ARO", "TPR", "APRO", "PTP"],
    ["KS", "BH/C1"],
    ["MM", "SOLK", "SBUS"],  # US Chess: under uscf
    ["OCUM", "AROUS", "OPERF"],
)
USCF = {"MM", "OCUM"}


def main() -> None:
    text = (REALWORLD / "san-viator-madrid-2018.trf").read_text(encoding="utf-8", errors="replace")
    request, _, _ = file_request(None, text, None, ["PS", "WIN"], places=10)
    probe = compute_scenarios(plan_scenarios(request, LIMITS))
    leaders = sorted(p.id for p in sorted(probe.players, key=lambda p: p.best_rank)[:4])
    for rules in LISTS:
        request, _, _ = file_request(None, text, None, rules, places=10)
        request = msgspec.structs.replace(request, unrated_rating=1000)
        if rules[0] in USCF:
            request = msgspec.structs.replace(request, regulations="uscf")
        if "--every" not in sys.argv:
            request = msgspec.structs.replace(request, players=leaders)
        started = time.perf_counter()
        answer = compute_scenarios(plan_scenarios(request, LIMITS))
        stats = answer.stats
        assert stats is not None, "not answered by the solver"
        print(
            f"San Viator, {rules}, {len(answer.players)} players reported: {stats.questions} questions "
            f"({stats.by_pruning} by pruning, {stats.by_solver} solved, {stats.undecided} undecided), "
            f"solver {stats.seconds:.2f} s, total {time.perf_counter() - started:.2f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
