"""POST /v1/scenarios past enumeration, by the solver (issue 34; docs/benchmarks.md, "Scenarios by
the solver"): real events' last round reopened, and a synthetic open, in process (plan and compute).
Each line gives the wall time and the process's CPU time (the machine is shared: the CPU time is
what the shape costs; the wall time what a busy machine made of it). Planned under the default
limits with `max_cost_s` raised to `BENCH_COST_S`: the shapes measured here (San Viator with BH/C1
BH SB and every player, say) are priced past the service's bound (decision 0268) and would get its
413 at `players`; the bench measures what the solver does with them. No deadline is set (in process).

    .venv/bin/python -m bench.scenarios_solver            # every shape
    .venv/bin/python -m bench.scenarios_solver --teams    # the team files only (decision 0295)
    .venv/bin/python -m bench.scenarios_solver --only "300 players"   # the shapes whose name has it
"""

from __future__ import annotations

import dataclasses
import sys
import time

import msgspec

from testkit.conformance import REALWORLD
from testkit.synthetic import swiss_wire
from tiebreak.usecases.scenarios import compute_scenarios, file_request, plan_scenarios
from tiebreak.usecases.team_scenarios import compute_team_scenarios, plan_team_scenarios, solver_size
from tiebreak.wire import scenarios as w
from tiebreak.wire import schemas as s
from tiebreak.wire.limits import LIMITS

BH = ["BH/C1", "BH", "SB"]
BENCH_COST_S = 3600.0  # the bench's own price bound: every shape below is planned, none refused
BENCH_LIMITS = dataclasses.replace(LIMITS, max_cost_s=BENCH_COST_S)
SCORED = {"win": 1.0, "forfeit_win": 1.0, "pairing_bye": 1.0, "full_bye": 1.0, "draw": 0.5, "half_bye": 0.5}


def _only() -> str:
    """`--only TEXT`: run the shapes whose name contains TEXT (one shape alone, say), else every one."""
    args = sys.argv[1:]
    return args[args.index("--only") + 1] if "--only" in args[:-1] else ""


def _run(name: str, request: w.ScenariosRequest) -> None:
    if _only() not in name:
        return
    started, cpu = time.perf_counter(), time.process_time()
    plan = plan_scenarios(request, BENCH_LIMITS)
    answer = compute_scenarios(plan)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    stats = answer.stats
    assert stats is not None, "not answered by the solver"
    print(
        f"{name}: {len(answer.open_games)} open games, {len(answer.players)} players reported, "
        f"{stats.questions} questions ({stats.by_pruning} by pruning, {stats.by_solver} solved, "
        f"{stats.undecided} undecided), solver {stats.seconds:.2f} s, total {seconds:.2f} s, CPU {cpu:.2f} s",
        flush=True,
    )


def _leaders(request: w.ScenariosRequest, count: int) -> list[int]:
    """The `count` players with most points before the opened round (start number breaks ties)."""
    players = request.tournament.players
    points = {p.id: sum(SCORED.get(r.result, 0.0) for r in p.results) for p in players}
    return sorted(sorted(points, key=lambda pid: (-points[pid], pid))[:count])


def main() -> None:
    text = (REALWORLD / "san-viator-madrid-2018.trf").read_text(encoding="utf-8", errors="replace")
    for rules in ([], ["PS", "WIN"], ["WIN", "BPG", "TPN"]):
        request, _, _ = file_request(None, text, None, rules, places=10)
        _run(f"San Viator, {rules or 'points only'}, places 10, every player", request)
    # BH, BH/C1, SB: past the table model's bound, as sums over rounds (engine/scenario_formulas.py)
    request, _, _ = file_request(None, text, None, BH, places=10)
    _run(f"San Viator, {BH}, places 10, every player", request)
    # the file lists no rules of its own (no record 202/212): the preset of FIDE opens instead
    request, _, _ = file_request(None, text, None, None, places=10, preset="fide-swiss-traditional")
    _run("San Viator, preset fide-swiss-traditional (BH/C1, BH), places 10, every player", request)
    karl = (REALWORLD / "karl-mala-2005-sharly.trf").read_text(encoding="utf-8", errors="replace")
    request, _, _ = file_request(None, karl, None, BH, places=10)
    _run(f"Karl-Mala, {BH}, places 10, 20 leaders", msgspec.structs.replace(request, players=_leaders(request, 20)))
    # no withdrawals and no forfeits: all 300 play the last round, the 150 open games
    wire = swiss_wire(300, 8, seed=7, withdraw_rate=0.0, forfeit_rate=0.0)
    tournament = msgspec.convert(wire, s.Tournament)
    for rules in (["PS", "WIN"], BH):
        request, _, _ = file_request(tournament, None, None, rules, places=10)
        assert sum(p.white is not None for p in request.pairings) == 150, "the issue's shape: 150 open games"
        _run(
            f"300 players, last round open, {rules}, places 10, 30 leaders",
            msgspec.structs.replace(request, players=_leaders(request, 30)),
        )
    teams()


# the real team files of the corpus, their last round reopened (every open board), each preset
TEAM_FILES = ("crete-team-cup-2024.trf", "grandmommys-cup-trf26-team.trf", "grandmommys-cup-echecs.trf")


def teams() -> None:
    """The team solver (engine/teams/solver.py, decision 0295) on the real team files: every team
    reported, places 3 and 10; the ratio is the CPU seconds per question × size, what
    usecases/team_scenarios.py prices (TEAM_SECONDS_PER_UNIT is the worst of them × a margin)."""
    for name in TEAM_FILES:
        text = (REALWORLD / name).read_text(encoding="utf-8")
        opened, _, _ = file_request(None, text, None, None)
        pairings = [p for p in opened.pairings if p.white is not None]
        for preset in ("team-swiss", "team-swiss-emgsb"):
            for places in (3, 10):
                if _only() not in f"{name}, {preset}, places {places}":
                    continue
                request = w.ScenariosRequest(trf=text, preset=preset, pairings=pairings, places=places)
                started, cpu = time.perf_counter(), time.process_time()
                plan = plan_team_scenarios(request, BENCH_LIMITS)
                assert plan is not None and plan.model is not None, "not answered by the team solver"
                questions, size = solver_size(plan)
                answer = compute_team_scenarios(plan)
                seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
                stats = answer.stats
                assert stats is not None
                print(
                    f"{name}, {preset}, places {places}: {len(answer.open_games)} open boards, "
                    f"{len(plan.model.opened)} matches, {len(answer.players)} teams, {stats.questions} questions "
                    f"({stats.by_pruning} by pruning, {stats.by_solver} solved, {stats.undecided} undecided), "
                    f"size {size}, solver {stats.seconds:.2f} s, total {seconds:.2f} s, CPU {cpu:.2f} s, "
                    f"CPU per question x size {cpu / max(1, questions * size):.2e} s",
                    flush=True,
                )


if __name__ == "__main__":
    teams() if "--teams" in sys.argv[1:] else main()
