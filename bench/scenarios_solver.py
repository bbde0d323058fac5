"""POST /v1/scenarios past enumeration, by the solver (issue 34; docs/benchmarks.md, "Scenarios by
the solver"): a real event's last round reopened, and a synthetic open, in process (plan and compute).

    .venv/bin/python -m bench.scenarios_solver
"""

from __future__ import annotations

import time

import msgspec

from testkit.conformance import REALWORLD
from testkit.synthetic import swiss_wire
from tiebreak.usecases.scenarios import compute_scenarios, file_request, plan_scenarios
from tiebreak.wire import scenarios as w
from tiebreak.wire import schemas as s
from tiebreak.wire.limits import LIMITS


def _run(name: str, request: w.ScenariosRequest) -> None:
    started = time.perf_counter()
    plan = plan_scenarios(request, LIMITS)
    answer = compute_scenarios(plan)
    seconds = time.perf_counter() - started
    stats = answer.stats
    assert stats is not None, "not answered by the solver"
    print(
        f"{name}: {len(answer.open_games)} open games, {len(answer.players)} players reported, "
        f"{stats.questions} questions ({stats.by_pruning} by pruning, {stats.by_solver} solved, "
        f"{stats.undecided} undecided), solver {stats.seconds:.2f} s, total {seconds:.2f} s"
    )


def main() -> None:
    text = (REALWORLD / "san-viator-madrid-2018.trf").read_text(encoding="utf-8", errors="replace")
    for rules in ([], ["PS", "WIN"], ["WIN", "BPG", "TPN"]):
        request, _, _ = file_request(None, text, None, rules, places=10)
        _run(f"San Viator, {rules or 'points only'}, places 10, every player", request)
    # BH, BH/C1, SB: past the table model's bound, as sums over rounds (engine/scenario_formulas.py)
    request, _, _ = file_request(None, text, None, ["BH/C1", "BH", "SB"], places=10)
    _run("San Viator, ['BH/C1', 'BH', 'SB'], places 10, every player", request)
    wire = swiss_wire(300, 8, seed=7)
    tournament = msgspec.convert(wire, s.Tournament)
    request, _, _ = file_request(tournament, None, None, ["PS", "WIN"], places=10)
    leaders = sorted(tournament.players, key=lambda p: -len([r for r in p.results if r.result == "win"]))[:30]
    _run(
        "300 players, last round open, places 10, 30 reported",
        msgspec.structs.replace(request, players=sorted(p.id for p in leaders)),
    )


if __name__ == "__main__":
    main()
