"""What the cost model prices a solver request by (decisions 0268, 0300, 0302; docs/benchmarks.md,
"Pricing the solver"): per shape, the questions at most, the best-rank questions' rivals and the
worst-rank questions' units measured before solving (usecases/scenarios.solver_size), the
questions asked, the time and the CPU time (the machine is shared: CPU is what the rates are set
on), the CPU of the worst-rank questions apart (timed around the solver's questions) and the
price it gives. In process, without limits.

    .venv/bin/python -m bench.solver_cost
"""

from __future__ import annotations

import time
from typing import Any

import msgspec

from testkit.conformance import REALWORLD
from testkit.synthetic import swiss_wire
from tiebreak.engine import scenario_solver
from tiebreak.usecases.cost import SOLVER_SECONDS_BASE, estimate
from tiebreak.usecases.scenarios import compute_scenarios, file_request, plan_scenarios
from tiebreak.wire import scenarios as w

_worst_cpu = [0.0]  # the CPU of the worst-rank questions of the shape being run
_answer = scenario_solver._Question.answer


def _timed(question: Any, seconds: float) -> Any:
    started = time.process_time()
    try:
        return _answer(question, seconds)
    finally:
        if not question.minimise:
            _worst_cpu[0] += time.process_time() - started


def _run(label: str, request: w.ScenariosRequest) -> None:
    _worst_cpu[0] = 0.0
    started, cpu = time.perf_counter(), time.process_time()
    plan = plan_scenarios(request)
    answer = compute_scenarios(plan)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    c, stats = plan.counts, answer.stats
    assert stats is not None, "not answered by the solver"
    kind = "sums" if c.solver_sums else "tables"
    worst = _worst_cpu[0]
    print(
        f"{label} ({kind}): questions at most {c.solver_questions}, asked {stats.questions}, "
        f"best-rank rivals {c.solver_rivals}, worst-rank units {c.solver_units}, total {seconds:.2f} s, "
        f"CPU {cpu:.2f} s (worst-rank questions {worst:.2f} s: {worst / max(1, c.solver_units):.2e} per unit; "
        f"the rest less the base {(cpu - worst - SOLVER_SECONDS_BASE) / max(1, c.solver_rivals):.2e} per rival), "
        f"priced {estimate(c).seconds:.1f} s",
        flush=True,
    )


def _leaders(request: w.ScenariosRequest, count: int) -> w.ScenariosRequest:
    """The `count` best by best rank on points and PS, WIN (quick to answer)."""
    probe = compute_scenarios(plan_scenarios(msgspec.structs.replace(request, tiebreaks=["PS", "WIN"])))
    lead = sorted(probe.players, key=lambda p: p.best_rank)[:count]
    return msgspec.structs.replace(request, players=sorted(p.id for p in lead))


def _contenders(request: w.ScenariosRequest) -> w.ScenariosRequest:
    """Only the players who can reach `places` on points alone (decision 0300)."""
    return msgspec.structs.replace(request, contenders_only=True)


def main() -> None:
    scenario_solver._Question.answer = _timed  # type: ignore[method-assign]
    san_viator = (REALWORLD / "san-viator-madrid-2018.trf").read_text(encoding="utf-8", errors="replace")
    karl_mala = (REALWORLD / "karl-mala-2005-sharly.trf").read_text(encoding="utf-8", errors="replace")
    for rules in ([], ["PS", "WIN"], ["WIN", "BPG", "TPN"]):
        request, _, _ = file_request(None, san_viator, None, rules, places=10)
        _run(f"San Viator, {rules}, places 10, every player", request)
    request, _, _ = file_request(None, san_viator, None, ["BH/C1", "BH", "SB"], places=10)
    _run("San Viator, ['BH/C1', 'BH', 'SB'], places 10, 8 leaders", _leaders(request, 8))
    _run("San Viator, ['BH/C1', 'BH', 'SB'], places 10, 20 leaders", _leaders(request, 20))
    _run("San Viator, ['BH/C1', 'BH', 'SB'], places 10, contenders", _contenders(request))
    _run("San Viator, ['BH/C1', 'BH', 'SB'], places 10, every player", request)
    for places in (1, 3):
        request, _, _ = file_request(None, san_viator, None, ["BH/C1", "BH", "SB"], places=places)
        _run(f"San Viator, ['BH/C1', 'BH', 'SB'], places {places}, contenders", _contenders(request))
    for rules in ([], ["PS", "WIN"]):
        request, _, _ = file_request(None, karl_mala, None, rules, places=1)
        _run(f"Karl-Mala, {rules}, places 1, contenders", _contenders(request))
    for rules in (["PS", "WIN"], ["WIN", "BPG", "TPN"]):
        request, _, _ = file_request(None, karl_mala, None, rules, places=10)
        _run(f"Karl-Mala, {rules}, places 10, 20 leaders", _leaders(request, 20))
    request, _, _ = file_request(None, karl_mala, None, ["BH/C1", "BH", "SB"], places=1)
    for player in (1, 12, 45):  # a leader, and two of the contenders whose questions take longest
        _run(
            f"Karl-Mala, ['BH/C1', 'BH', 'SB'], places 1, player {player}",
            msgspec.structs.replace(request, players=[player]),
        )
    _run("Karl-Mala, ['BH/C1', 'BH', 'SB'], places 1, contenders", _contenders(request))  # about 40 s
    tournament = swiss_wire(60, 5, seed=2)
    tournament["rounds"] = 6
    pairings = [{"round": 6, "white": i, "black": i + 1} for i in range(1, 61, 2)]
    body = {"tournament": tournament, "tiebreaks": ["WIN", "PS", "BPG"], "pairings": pairings, "places": 3}
    body["players"] = list(range(1, 61, 4))
    _run("60 players, 30 boards open, 15 reported", msgspec.convert(body, w.ScenariosRequest))


if __name__ == "__main__":
    main()
