"""POST /v1/compare: one crosstable under several named rule lists, side by side.

For each list the full standings; in the summary who is first under each list,
and which players change rank between the lists, by how much.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

import anyio.to_thread
from litestar import Request, post
from msgspec import Meta

from ..engine import Tournament, compute_standings
from ..engine.errors import InvalidRequest, Issue
from ..engine.presets import preset_specs
from ..engine.standings import Standings, Warning
from ..formats.trf import parse_trf
from . import schemas as s
from .convert import rules_from_wire, standings_to_wire, tournament_from_wire
from .schema_rules import ExactlyOne
from .pipeline import applied_regulations, default_after_round
from .wire import WireDecoder
from .routes import PROBLEMS, THREAD_THRESHOLD, decode_json, request_body_operation

MAX_LISTS = 10


doc = s.doc


class RuleList(s.Strict, kw_only=True):
    """One named rule list: `tiebreaks` or `preset`, optionally under its own rule set."""

    schema_rules: ClassVar = (ExactlyOne(("tiebreaks", "preset"), titles={"tiebreaks": "A rule list",
                                                                           "preset": "A preset"}),)

    name: Annotated[str, Meta(min_length=1, max_length=60, examples=["Cut-1 first"]), doc(
        "The list's name, unique in the request; it names the list in the answer")]
    tiebreaks: Annotated[s.RuleItems | None, doc(s.TIEBREAKS_DOC)] = None
    preset: Annotated[s.PresetName | None, doc("A named rule list of GET /v1/presets, instead of `tiebreaks`")] = None
    regulations: Annotated[s.RegulationsName | None, doc(
        "This list's rule set; null: the request's `regulations`")] = None

    def __post_init__(self) -> None:
        if (self.tiebreaks is None) == (self.preset is None):
            raise ValueError("give exactly one of `tiebreaks` and `preset` for each list")


class CompareRequest(s.Strict, kw_only=True):
    """One tournament (JSON or TRF) and up to 10 named rule lists to rank it by, side by side."""

    schema_rules: ClassVar = (
        ExactlyOne(("tournament", "trf"), titles={"tournament": "A JSON tournament", "trf": "TRF text"}),)

    tournament: Annotated[s.Tournament | None, doc("The crosstable as JSON (or give `trf`)")] = None
    trf: Annotated[s.TrfText | None, doc("FIDE TRF-16/TRF-26 text instead of `tournament`")] = None
    lists: Annotated[list[RuleList], Meta(min_length=1, max_length=MAX_LISTS), doc(
        "The rule lists; the first is the baseline of `changes`")]
    regulations: Annotated[s.RegulationsName, doc(s.REGULATIONS_DOC + "; a list may name its own")] = "auto"
    after_round: Annotated[s.RoundNumber | None, doc(s.AFTER_ROUND_DOC)] = None
    unrated_rating: Annotated[s.Rating | None, doc(s.UNRATED_DOC)] = None
    explain: Annotated[bool, doc(s.EXPLAIN_DOC)] = True

    def __post_init__(self) -> None:
        if (self.tournament is None) == (self.trf is None):
            raise ValueError("give exactly one of `tournament` and `trf`")
        # Distinct names are checked in run_compare (a 422): JSON Schema cannot say "unique by name".


class ListResult(s.Out):
    """The standings under one list."""

    name: Annotated[str, doc("The list's name")]
    first: Annotated[list[int], doc("Start numbers ranked first (more than one when equal on everything)")]
    standings: Annotated[s.StandingsResponse, doc("The full standings under this list")]


class Champion(s.Out):
    """Who is first under one list."""

    rule_list: Annotated[str, doc("The list's name")]
    ids: Annotated[list[int], doc("Their start numbers")]
    names: Annotated[list[str], doc("Their names")]


class RankMove(s.Out):
    """A player whose rank is not the same under every list."""

    id: Annotated[int, doc("The start number")]
    name: Annotated[str, doc("The player's name")]
    ranks: Annotated[dict[str, int], doc("The rank under each list, by the list's name")]
    best: Annotated[int, doc("The best rank under any list")]
    worst: Annotated[int, doc("The worst rank under any list")]
    spread: Annotated[int, doc("worst − best: how far the player moves between the lists")]


class ListChange(s.Out):
    """A player whose rank under `list` differs from the rank under the first list."""

    id: Annotated[int, doc("The start number")]
    name: Annotated[str, doc("The player's name")]
    rank: Annotated[int, doc("The rank under this list")]
    baseline_rank: Annotated[int, doc("The rank under the first list")]
    change: Annotated[int, doc("Places gained against the first list (negative: lost)")]


class ListSummary(s.Out):
    """One list in short: who is first and who moved against the first list."""

    name: Annotated[str, doc("The list's name")]
    first: Annotated[list[int], doc("Start numbers ranked first")]
    changes: Annotated[list[ListChange], doc("Against the first list; empty for the first list itself")]


class CompareSummary(s.Out):
    """What changes between the lists."""

    champions: Annotated[list[Champion], doc("Who is first under each list")]
    same_champion: Annotated[bool, doc("True when every list has the same first place")]
    lists: Annotated[list[ListSummary], doc("Each list in short")]
    moves: Annotated[list[RankMove], doc(
        "Players whose rank is not the same under every list, biggest moves first")]


class CompareResponse(s.Out):
    """The tournament under each list, and what changes between them."""

    regulations: Annotated[list[s.AppliedRegulations], doc("The rule set applied, per list, in order")]
    lists: Annotated[list[ListResult], doc("Each list's standings, in order")]
    summary: Annotated[CompareSummary, doc("Champions and moves")]


def _tournament(body: CompareRequest) -> tuple[Tournament, list[Warning]]:
    if body.trf is None:
        return tournament_from_wire(body.tournament, columns=True), []
    document = parse_trf(body.trf)
    warnings = [Warning(w.code, f"line {w.line}, column {w.column}: {w.message}", None) for w in document.warnings]
    return document.tournament, warnings


def _under_list(i: int, exc: InvalidRequest) -> InvalidRequest:
    """The error of one list, its paths rooted at that list (`lists[2].tiebreaks[0]`)."""
    issues = [Issue(("lists", i, *issue.path), issue.message)
              if issue.path and issue.path[0] in ("tiebreaks", "preset") else issue
              for issue in exc.issues]
    return type(exc)(issues)


def _check_names(lists: list[RuleList]) -> None:
    seen: set[str] = set()
    for i, item in enumerate(lists):
        if item.name in seen:
            raise InvalidRequest([Issue(("lists", i, "name"), f"the lists' names must differ: {item.name!r} is "
                                                              "used twice")])
        seen.add(item.name)


def run_compare(body: CompareRequest) -> CompareResponse:
    _check_names(body.lists)
    tournament, read_warnings = _tournament(body)
    after_round = default_after_round(tournament, body.after_round, read_warnings)  # as for standings
    results: list[Standings] = []
    for i, item in enumerate(body.lists):
        try:
            regulations = applied_regulations(item.regulations or body.regulations, item.preset, tournament)
            if item.preset is not None:
                specs = preset_specs(item.preset, regulations)
            else:
                specs = rules_from_wire(item.tiebreaks, regulations)
            result = compute_standings(tournament, specs, regulations, after_round, body.unrated_rating,
                                       body.explain)
        except InvalidRequest as exc:
            raise _under_list(i, exc) from None
        result.warnings[:0] = read_warnings
        if not specs:
            result.warnings.append(Warning("no-tiebreaks", "no tie-break rules given: players equal on points "
                                           "share a rank", "US Chess 34E" if regulations.value == "uscf" else "C.07 4.1"))
        results.append(result)
    return _response(body, results, tournament)


def _response(body: CompareRequest, results: list[Standings], tournament: Tournament) -> CompareResponse:
    names = [item.name for item in body.lists]
    table = results[0].table
    ranks = [{row.player: row.rank for row in result.rows} for result in results]
    firsts = [[table.ids[row.player] for row in result.rows if row.rank == 1] for result in results]
    lists_out = [ListResult(name=name, first=first,
                            standings=standings_to_wire(result, body.explain, tournament=tournament))
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


_decoder = WireDecoder(CompareRequest)


def _size(body: CompareRequest) -> int:
    base = len(body.tournament.players) * body.tournament.rounds if body.tournament else len(body.trf or "") // 100
    return base * len(body.lists)


@post(
    "/v1/compare",
    operation_id="compareRuleLists",
    summary="One crosstable under several named rule lists: who wins under each, who moves",
    description="The same event ranked under up to 10 named lists (rule lists or presets, each under its own "
                "rule set if wished), side by side: each list's full standings, who is first under each, "
                "and every player whose rank is not the same under all of them, biggest moves first.",
    status_code=200,
    operation_class=request_body_operation("CompareRequest"),
    responses=PROBLEMS,
)
async def compare(request: Request) -> CompareResponse:
    body: CompareRequest = await decode_json(request, _decoder)
    if _size(body) > THREAD_THRESHOLD:
        return await anyio.to_thread.run_sync(run_compare, body)
    return run_compare(body)


COMPARE_ROUTES = [compare]
