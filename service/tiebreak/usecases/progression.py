"""POST /v1/standings/progression (SPEC 3.9): the standings after each round, in one call.

Round k is ranked by the standings use case exactly as `/v1/standings` with `after_round: k`:
the input is read once, then the engine ranks it once per round (a team event: the team
standings once per round)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..engine.standings import Warning, cyclic_gc_paused
from ..texts.message import made, msg
from ..wire import schemas as s
from ..wire.limits import Deadline, Limits
from ..wire.progression import ProgressionRequest, ProgressionResponse, ProgressionRow
from .convert import tiebreak_to_wire
from .cost import Counts, progression_counts
from .standings import StandingsPlan, capped, capped_warnings, lots_seed, plan_standings, rank_individual
from .teams import team_standings


@dataclass
class ProgressionPlan:
    body: ProgressionRequest
    standings: StandingsPlan
    counts: Counts
    limits: Limits | None = None
    engine_seconds: float = 0.0


def plan_progression(body: ProgressionRequest, limits: Limits | None = None, body_bytes: int = 0) -> ProgressionPlan:
    """Read and check the input as `/v1/standings` does; priced as one standings per round."""
    standings = plan_standings(body.standings_request(), limits, body_bytes)
    return ProgressionPlan(body, standings, _counts(standings), limits)


def _counts(standings: StandingsPlan) -> Counts:
    # A team event is priced from its size: every scheduled round it may have.
    return progression_counts(standings.counts, standings.counts.rounds)


def compute_progression(plan: ProgressionPlan, deadline: Deadline | None = None) -> ProgressionResponse:
    started = time.perf_counter()
    with cyclic_gc_paused():
        if plan.standings.team is not None:
            response = _team_progression(plan, deadline)
        else:
            response = _individual_progression(plan, deadline)
    plan.engine_seconds = time.perf_counter() - started
    return response


def _individual_progression(plan: ProgressionPlan, deadline: Deadline | None) -> ProgressionResponse:
    standings = plan.standings
    assert standings.source is not None  # an individual event's plan (plan_standings)
    last = standings.after_round or standings.source.tournament.rounds
    warnings: dict[tuple[str, str], Warning] = {(w.code, w.message): w for w in standings.source.warnings}
    ranks: dict[int, list[int | None]] = {}
    points: dict[int, list[float]] = {}
    result = None
    assert standings.specs is not None  # an individual event's plan (plan_standings)
    seed = lots_seed([standings.specs], plan.body.seed)  # one draw for every round
    for k in range(1, last + 1):
        result = rank_individual(standings, k, seed)
        table = result.table
        for w in result.warnings:
            warnings.setdefault((w.code, w.message), w)
        score = (table.score / table.scale).tolist()
        for row in result.rows:
            pid = table.ids[row.player]
            ranks.setdefault(pid, []).append(row.rank)
            points.setdefault(pid, []).append(score[row.player])
        if deadline is not None:
            deadline.check(msg("after ranking round {round}", round=k))
    assert result is not None  # an event has at least one round
    table = result.table
    players = [
        ProgressionRow(id=table.ids[row.player], name=table.names[row.player], ranks=ranks[pid], points=points[pid])
        for row in result.rows
        for pid in (table.ids[row.player],)
    ]
    return ProgressionResponse(
        regulations=result.regulations.value,
        tiebreaks=[tiebreak_to_wire(o) for o in result.outcomes],
        rounds=list(range(1, last + 1)),
        players=players,
        warnings=_warnings_out(list(warnings.values()), plan.limits),
        seed=result.lots_seed,
    )


def _team_progression(plan: ProgressionPlan, deadline: Deadline | None) -> ProgressionResponse:
    body, team = plan.body, plan.standings.team
    assert team is not None  # a team event's plan (plan_standings)
    final = team_standings(body.standings_request(), team, deadline)
    last = final.after_round or final.rounds
    by_round = [
        final if k == last else team_standings(body.standings_request(k), team, deadline) for k in range(1, last + 1)
    ]
    warnings: dict[tuple[str, str], s.WarningOut] = {}
    rows: dict[int, list[s.Standing]] = {}
    for answer in by_round:
        for w in answer.warnings:
            warnings.setdefault((w.code, w.message), w)
        for row in answer.standings:
            rows.setdefault(row.id, []).append(row)
    players = [
        ProgressionRow(
            id=row.id,
            name=row.name,
            ranks=[r.rank for r in rows[row.id]],
            points=[r.points for r in rows[row.id]],
            match_points=[r.match_points or 0.0 for r in rows[row.id]],
            game_points=[r.game_points or 0.0 for r in rows[row.id]],
        )
        for row in final.standings
    ]
    return ProgressionResponse(
        regulations=final.regulations,
        tiebreaks=final.tiebreaks,
        rounds=list(range(1, last + 1)),
        players=players,
        warnings=capped_warnings(list(warnings.values()), plan.limits),
        seed=final.seed,
    )


def _warnings_out(warnings: list[Warning], limits: Limits | None) -> list[s.WarningOut]:
    return [s.WarningOut(code=w.code, message=made(w.message), rule=w.rule) for w in capped(warnings, limits)]
