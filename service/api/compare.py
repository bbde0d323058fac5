"""POST /v1/compare: one crosstable under several named rule lists, side by side.

For each list the full standings; in the summary who is first under each list,
and which players change rank between the lists, by how much.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Annotated

import msgspec
from litestar import Request, Response, post
from msgspec import Meta

from ..engine import Regulations, Tournament, compute_standings
from ..engine.errors import InvalidRequest, Issue
from ..engine.presets import preset_specs
from ..engine.rules import RuleSpec
from ..engine.standings import Standings, Warning, cyclic_gc_paused
from . import schemas as s
from .convert import rules_from_wire, standings_to_wire, tournament_from_wire
from .cost import Counts
from .gate import NO_COMPRESSION, answer_request
from .limits import LIMITS, Limits
from .pipeline import applied_regulations, default_after_round, read_trf_checked, team_counts, trf_warnings
from . import schemas_teams
from ..engine.teams.standings import TeamStandings, compute_team_standings
from .convert_teams import team_standings_to_wire
from .pipeline_teams import (
    NotATeamEvent, individual_after_all, is_team_request, read_team_event, team_after_round, team_regulations, team_specs,
)
from .routes import PROBLEMS, request_body_operation

MAX_LISTS = 10


class RuleList(s.Strict, kw_only=True):
    """One named rule list: `tiebreaks` or `preset`, optionally under its own rule set."""

    name: Annotated[str, Meta(min_length=1, max_length=60, examples=["Cut-1 first"])]
    tiebreaks: Annotated[list[s.RuleText | s.RuleObject], Meta(max_length=LIMITS.max_rules)] | None = None
    preset: s.PresetName | None = None
    regulations: s.RegulationsName | None = None  # default: the request's `regulations`

    def __post_init__(self) -> None:
        if (self.tiebreaks is None) == (self.preset is None):
            raise ValueError("give exactly one of `tiebreaks` and `preset` for each list")


class CompareRequest(s.Strict, kw_only=True):
    tournament: s.Tournament | None = None
    trf: Annotated[str, Meta(max_length=LIMITS.max_trf_chars)] | None = None
    # A team event (SPEC 3.7) instead; a TRF with team records is one too.
    team_tournament: Annotated[schemas_teams.TeamTournament, Meta(
        description="A team event (SPEC 3.7), instead of `tournament` or `trf`")] | None = None
    lists: Annotated[list[RuleList], Meta(min_length=1, max_length=MAX_LISTS)]
    regulations: s.RegulationsName = "auto"
    after_round: s.RoundNumber | None = None
    unrated_rating: s.Rating | None = None
    explain: bool = False  # per-player breakdowns in every list's standings

    def __post_init__(self) -> None:
        if (self.tournament is not None) + (self.trf is not None) + (self.team_tournament is not None) != 1:
            raise ValueError("give exactly one of `tournament`, `trf` and `team_tournament`")
        names = [item.name for item in self.lists]
        if len(set(names)) != len(names):
            raise ValueError("the lists' names must differ")


class ListResult(s.Out):
    name: str
    first: list[int]  # ids ranked first (more than one when they are equal on everything)
    standings: s.StandingsResponse


class Champion(s.Out):
    rule_list: str  # the list's name
    ids: list[int]
    names: list[str]


class RankMove(s.Out):
    id: int
    name: str
    ranks: dict[str, int]  # list name -> rank
    best: int
    worst: int
    spread: int  # worst − best: how far the player moves between the lists


class ListChange(s.Out):
    """A player whose rank under `list` differs from the rank under the first list."""

    id: int
    name: str
    rank: int
    baseline_rank: int
    change: int  # positive: places gained against the first list


class ListSummary(s.Out):
    name: str
    first: list[int]
    changes: list[ListChange]  # against the first list; empty for the first list itself


class CompareSummary(s.Out):
    champions: list[Champion]
    same_champion: bool
    lists: list[ListSummary]
    moves: list[RankMove]  # players whose rank is not the same under every list, biggest moves first


class CompareResponse(s.Out):
    regulations: list[s.AppliedRegulations]  # per list, in order
    lists: list[ListResult]
    summary: CompareSummary


def _tournament(body: CompareRequest, limits: Limits | None) -> tuple[Tournament, list[Warning]]:
    if body.trf is None:
        return tournament_from_wire(body.tournament, columns=True), []
    document = read_trf_checked(body.trf, limits)
    return document.tournament, trf_warnings(document)


def _under_list(i: int, exc: InvalidRequest) -> InvalidRequest:
    """The error of one list, its paths rooted at that list (`lists[2].tiebreaks[0]`)."""
    issues = [Issue(("lists", i, *issue.path), issue.message)
              if issue.path and issue.path[0] in ("tiebreaks", "preset") else issue
              for issue in exc.issues]
    return type(exc)(issues)


@dataclass
class ComparePlan:
    """A compare request read and checked, priced by `counts`, not yet computed.

    A team event (SPEC 3.7) is priced from its size and read when computed (`team`)."""

    body: CompareRequest
    counts: Counts
    tournament: Tournament | None = None
    read_warnings: list[Warning] | None = None
    after_round: int | None = None
    lists: list[tuple[list[RuleSpec], Regulations]] | None = None
    limits: Limits | None = None
    team: bool = False
    engine_seconds: float = 0.0


def plan_compare(body: CompareRequest, limits: Limits | None = None, body_bytes: int = 0,
                 not_teams: Warning | None = None) -> ComparePlan:
    if not_teams is None and is_team_request(body):
        rules = sum(max(1, len(item.tiebreaks or [])) for item in body.lists)
        return ComparePlan(body, team_counts(body, rules, body.explain, body_bytes), limits=limits, team=True)
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
                specs = rules_from_wire(item.tiebreaks, regulations)
        except InvalidRequest as exc:
            raise _under_list(i, exc) from None
        lists.append((specs, regulations))
    players = len(tournament.players)
    rules = sum(max(1, len(specs)) for specs, _ in lists)
    counts = Counts(players=players, rounds=after_round or tournament.rounds, rule_passes=rules,
                    explained_rules=players * rules if body.explain else 0, body_bytes=body_bytes)
    return ComparePlan(body, counts, tournament, read_warnings, after_round, lists, limits)


def compute_compare(plan: ComparePlan) -> CompareResponse:
    body = plan.body
    started = time.perf_counter()
    with cyclic_gc_paused():
        if plan.team:
            try:
                return _response(body, _team_results(body), None)
            except NotATeamEvent as exc:  # team records over individual pairings: an individual event
                plan = plan_compare(body, plan.limits, plan.counts.body_bytes, individual_after_all(exc))
        results: list[Standings] = []
        for i, (specs, regulations) in enumerate(plan.lists):
            try:
                result = compute_standings(plan.tournament, specs, regulations, plan.after_round,
                                           body.unrated_rating, body.explain)
            except InvalidRequest as exc:
                raise _under_list(i, exc) from None
            result.warnings[:0] = plan.read_warnings
            if not specs:
                result.warnings.append(Warning("no-tiebreaks", "no tie-break rules given: players equal on points "
                                               "share a rank",
                                               "US Chess 34E" if regulations.value == "uscf" else "C.07 4.1"))
            results.append(result)
        plan.engine_seconds = time.perf_counter() - started
        return _response(body, results, plan.tournament)


def run_compare(body: CompareRequest, limits: Limits | None = None) -> CompareResponse:
    return compute_compare(plan_compare(body, limits))


def _team_results(body: CompareRequest) -> list[Standings]:
    """A team event under each list (SPEC 3.7)."""
    event, _, read_warnings = read_team_event(body)
    after_round = team_after_round(event, body.after_round, read_warnings)  # as for standings
    results: list[Standings] = []
    for i, item in enumerate(body.lists):
        try:
            regulations = team_regulations(item.regulations or body.regulations, event)
            specs = team_specs(item.tiebreaks, item.preset, regulations)
            result = compute_team_standings(event, specs, regulations, after_round, body.explain)
        except InvalidRequest as exc:
            raise _under_list(i, exc) from None
        result.warnings[:0] = read_warnings
        results.append(result)
    return results


def _response(body: CompareRequest, results: list[Standings], tournament: Tournament | None) -> CompareResponse:
    names = [item.name for item in body.lists]
    table = results[0].table
    ranks = [{row.player: row.rank for row in result.rows} for result in results]
    firsts = [[table.ids[row.player] for row in result.rows if row.rank == 1] for result in results]
    lists_out = [ListResult(name=name, first=first, standings=(
                    team_standings_to_wire(result, body.explain) if isinstance(result, TeamStandings)
                    else standings_to_wire(result, body.explain, tournament=tournament)))
                 for name, first, result in zip(names, firsts, results)]
    champions = [Champion(rule_list=name, ids=first, names=[table.names[table.ids.index(pid)] for pid in first])
                 for name, first in zip(names, firsts)]
    summaries = []
    for name, first, rank in zip(names, firsts, ranks):
        changes = [
            ListChange(id=table.ids[p], name=table.names[p], rank=rank[p], baseline_rank=ranks[0][p],
                       change=ranks[0][p] - rank[p])
            for p in sorted(rank, key=lambda p: (rank[p], table.ids[p]))
            if rank[p] != ranks[0][p]
        ]
        summaries.append(ListSummary(name=name, first=first, changes=changes))
    moves = []
    for p in range(table.size):
        per_list = [rank[p] for rank in ranks]
        best, worst = min(per_list), max(per_list)
        if best != worst:
            moves.append(RankMove(id=table.ids[p], name=table.names[p], ranks=dict(zip(names, per_list)),
                                  best=best, worst=worst, spread=worst - best))
    moves.sort(key=lambda m: (-m.spread, m.best, m.id))
    return CompareResponse(
        regulations=[result.regulations.value for result in results],
        lists=lists_out,
        summary=CompareSummary(champions=champions, same_champion=all(f == firsts[0] for f in firsts),
                               lists=summaries, moves=moves),
    )


_decoder = msgspec.json.Decoder(CompareRequest)


@post(
    "/v1/compare",
    operation_id="compareRuleLists",
    summary="One crosstable under several named rule lists: who wins under each, who moves",
    status_code=200,
    operation_class=request_body_operation("CompareRequest"),
    responses=PROBLEMS,
    opt=NO_COMPRESSION,
)
async def compare(request: Request) -> Response[CompareResponse]:
    # decoded, priced and computed by the compute gate (service/api/work.py `compare`)
    return await answer_request(request, "compare")


COMPARE_ROUTES = [compare]
