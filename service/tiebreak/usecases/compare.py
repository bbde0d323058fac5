"""POST /v1/compare: one crosstable under several named rule lists, side by side.

For each list the full standings; in the summary who is first under each list,
and which players change rank between the lists, by how much.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


from ..engine import Regulations, Tournament, compute_standings
from ..engine.errors import InvalidRequest, Issue
from ..engine.presets import preset_specs
from ..engine.rules import RuleSpec
from ..engine.standings import Standings, Warning, cyclic_gc_paused
from ..wire import schemas as s
from ..wire.compare import (
    CompareRequest,
    CompareResponse,
    Champion,
    ListChange,
    ListResult,
    ListSummary,
    CompareSummary,
    RankMove,
    RuleList,
)
from .convert import decisions_from_wire, rules_from_wire, standings_to_wire, tournament_from_wire
from .cost import Counts
from ..wire.limits import Limits
from .standings import applied_regulations, default_after_round, lots_seed, read_trf_checked, team_counts, trf_warnings
from ..engine.teams.model import TeamTournament
from ..engine.teams.standings import TeamStandings, compute_team_standings
from ..texts.message import msg
from .convert_teams import team_standings_to_wire
from .teams import (
    NotATeamEvent,
    individual_after_all,
    is_team_request,
    read_team_event,
    team_after_round,
    team_regulations,
    team_specs,
)


def _tournament(body: CompareRequest, limits: Limits | None) -> tuple[Tournament, list[Warning]]:
    if body.trf is None:
        assert body.tournament is not None  # exactly one is given (a team_tournament goes to the team engine)
        return tournament_from_wire(body.tournament, columns=True), []
    document = read_trf_checked(body.trf, limits, columns=True)
    return document.tournament, trf_warnings(document)


def _under_list(i: int, exc: InvalidRequest) -> InvalidRequest:
    """The error of one list, its paths rooted at that list (`lists[2].tiebreaks[0]`)."""
    issues = [
        Issue(("lists", i, *issue.path), issue.message)
        if issue.path and issue.path[0] in ("tiebreaks", "preset")
        else issue
        for issue in exc.issues
    ]
    return type(exc)(issues)


def _check_names(lists: list[RuleList]) -> None:
    seen: set[str] = set()
    for i, item in enumerate(lists):
        if item.name in seen:
            raise InvalidRequest(
                [Issue(("lists", i, "name"), f"the lists' names must differ: {item.name!r} is used twice")]
            )
        seen.add(item.name)


@dataclass
class ComparePlan:
    """A compare request read and checked, priced by `counts`, not yet computed.

    A team event (SPEC 3.7) is read as one (`team`: the event and what reading it gave) and priced
    from its size."""

    body: CompareRequest
    counts: Counts
    tournament: Tournament | None = None
    read_warnings: list[Warning] | None = None
    after_round: int | None = None
    lists: list[tuple[list[RuleSpec], Regulations]] | None = None
    limits: Limits | None = None
    team: tuple[TeamTournament, list[Warning]] | None = None
    engine_seconds: float = 0.0


def plan_compare(body: CompareRequest, limits: Limits | None = None, body_bytes: int = 0) -> ComparePlan:
    """Read the event and every list's rules; a team event is read as one and priced from its size
    (a TRF whose team records do not describe matches: the individual event it is, priced so)."""
    _check_names(body.lists)
    if is_team_request(body):
        rules = sum(max(1, len(item.tiebreaks or [])) for item in body.lists)
        counts = team_counts(body, rules, body.explain, body_bytes, len(body.lists))
        with cyclic_gc_paused():
            try:
                event, _, read_warnings = read_team_event(body)
            except NotATeamEvent as exc:  # team records over individual pairings: an individual event
                return _plan_individual(body, limits, body_bytes, individual_after_all(exc), counts)
        return ComparePlan(body, counts, limits=limits, team=(event, read_warnings))
    return _plan_individual(body, limits, body_bytes)


def _plan_individual(
    body: CompareRequest,
    limits: Limits | None,
    body_bytes: int,
    not_teams: Warning | None = None,
    counts: Counts | None = None,
) -> ComparePlan:
    with cyclic_gc_paused():
        tournament, read_warnings = _tournament(body, limits)
    if not_teams is not None:
        read_warnings.insert(0, not_teams)
    after_round = default_after_round(tournament, body.after_round, read_warnings)  # as for standings
    lists = []
    for i, item in enumerate(body.lists):
        try:
            regulations = applied_regulations(item.regulations or body.regulations, item.preset, tournament)
            if item.preset is not None:
                specs = preset_specs(item.preset, regulations)
            else:
                assert item.tiebreaks is not None  # a list gives exactly one of `tiebreaks` and `preset`
                specs = rules_from_wire(item.tiebreaks, regulations)
        except InvalidRequest as exc:
            raise _under_list(i, exc) from None
        lists.append((specs, regulations))
    if counts is None:
        players = len(tournament.players)
        rules = sum(max(1, len(specs)) for specs, _ in lists)
        counts = Counts(
            players=players,
            rounds=after_round or tournament.rounds,
            rule_passes=rules,
            explained_rules=players * rules if body.explain else 0,
            body_bytes=body_bytes,
            lists=len(lists),
        )
    return ComparePlan(body, counts, tournament, read_warnings, after_round, lists, limits)


def compute_compare(plan: ComparePlan) -> CompareResponse:
    body = plan.body
    started = time.perf_counter()
    with cyclic_gc_paused():
        if plan.team is not None:
            return _response(body, _team_results(body, *plan.team), None)
        results: list[Standings] = []
        # an individual event's plan has all three (plan_compare)
        assert plan.tournament is not None and plan.lists is not None and plan.read_warnings is not None
        seed = lots_seed((specs for specs, _ in plan.lists), body.seed)  # one draw for every list
        decisions = decisions_from_wire(body, plan.lists[0][1] if plan.lists else None)
        for i, (specs, regulations) in enumerate(plan.lists):
            try:
                result = compute_standings(
                    plan.tournament,
                    specs,
                    regulations,
                    plan.after_round,
                    body.unrated_rating,
                    False,
                    s.ContributionOut,
                    seed,
                    decisions,
                )  # explained as converted
            except InvalidRequest as exc:
                raise _under_list(i, exc) from None
            result.warnings[:0] = plan.read_warnings
            if not specs:
                result.warnings.append(
                    Warning(
                        "no-tiebreaks",
                        msg("no tie-break rules given: players equal on points share a rank"),
                        "US Chess 34E" if regulations.value == "uscf" else "C.07 4.1",
                    )
                )
            results.append(result)
        plan.engine_seconds = time.perf_counter() - started
        return _response(body, results, plan.tournament)


def _team_results(body: CompareRequest, event: TeamTournament, read_warnings: list[Warning]) -> list[Standings]:
    """A team event under each list (SPEC 3.7)."""
    read_warnings = list(read_warnings)
    after_round = team_after_round(event, body.after_round, read_warnings)  # as for standings
    results: list[Standings] = []
    for i, item in enumerate(body.lists):
        try:
            regulations = team_regulations(item.regulations or body.regulations, event)
            specs = team_specs(item.tiebreaks, item.preset, regulations)
            result = compute_team_standings(event, specs, regulations, after_round, body.explain, s.ContributionOut)
        except InvalidRequest as exc:
            raise _under_list(i, exc) from None
        result.warnings[:0] = read_warnings
        results.append(result)
    return results


def _response(body: CompareRequest, results: list[Standings], tournament: Tournament | None) -> CompareResponse:
    names = [item.name for item in body.lists]
    table = results[0].table
    # an expelled player has no rank under any list (the same crosstable)
    ranks = [{row.player: row.rank for row in result.rows if row.rank is not None} for result in results]
    firsts = [[table.ids[row.player] for row in result.rows if row.rank == 1] for result in results]
    lists_out = [
        ListResult(
            name=name,
            first=first,
            standings=(
                team_standings_to_wire(result, body.explain)
                if isinstance(result, TeamStandings)
                else standings_to_wire(result, body.explain, tournament=tournament)
            ),
        )
        for name, first, result in zip(names, firsts, results, strict=False)
    ]
    index = table.index_of_id()  # not ids.index: an event without results has every player first
    champions = [
        Champion(rule_list=name, ids=first, names=[table.names[index[pid]] for pid in first])
        for name, first in zip(names, firsts, strict=False)
    ]
    summaries = []
    for name, first, rank in zip(names, firsts, ranks, strict=False):
        changes = [
            ListChange(
                id=table.ids[p],
                name=table.names[p],
                rank=rank[p],
                baseline_rank=ranks[0][p],
                change=ranks[0][p] - rank[p],
            )
            for p in sorted(rank, key=lambda p: (rank[p], table.ids[p]))
            if rank[p] != ranks[0][p]
        ]
        summaries.append(ListSummary(name=name, first=first, changes=changes))
    moves = []
    for p in range(table.size):
        if p not in ranks[0]:  # an expelled player is ranked by no list
            continue
        per_list = [rank[p] for rank in ranks]
        best, worst = min(per_list), max(per_list)
        if best != worst:
            moves.append(
                RankMove(
                    id=table.ids[p],
                    name=table.names[p],
                    ranks=dict(zip(names, per_list, strict=False)),
                    best=best,
                    worst=worst,
                    spread=worst - best,
                )
            )
    moves.sort(key=lambda m: (-m.spread, m.best, m.id))
    return CompareResponse(
        regulations=[result.regulations.value for result in results],
        lists=lists_out,
        summary=CompareSummary(
            champions=champions, same_champion=all(f == firsts[0] for f in firsts), lists=summaries, moves=moves
        ),
        seed=next((result.lots_seed for result in results if result.lots_seed is not None), None),
    )
