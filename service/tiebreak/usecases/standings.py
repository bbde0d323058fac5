"""One standings request from wire struct to wire struct: the standings use case of
usecases/requests.py, which the HTTP routes, batch, the command line and the Python API go through.
No HTTP here.

Two steps, so that the compute gate can price a request before paying for it:
`plan_standings` reads the input (JSON, TRF or a team event) and applies every limit that
needs it read; its `counts` feed the cost model (usecases/cost.py). `compute_plan`
runs the engine and builds the response.
"""

from __future__ import annotations

import functools
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from ..engine import Regulations, Tournament, compute_standings
from ..engine.checks import after_round_default, modifier_checks, pairing_bye_checks
from ..engine.errors import InconsistentCrosstable
from ..engine.rules import RuleSpec
from ..engine.presets import preset, preset_specs
from ..engine.standings import Standings, cyclic_gc_paused, Warning, edition_warnings, resolve_regulations, uses_lots
from ..formats.trf import TrfDocument, TrfSource, TrfWarning, parse_trf, located_warning
from ..wire import schemas as s
from ..wire.scenarios import ScenariosRequest
from .cost import Counts, text_counts, explained_rows as cost_explained_rows, returned_rows
from ..wire.limits import Deadline, LimitExceeded, Limits, check_tournament
from ..texts.message import msg
from ..engine.decisions import NO_DECISIONS, Decisions, TiebreakChange
from .convert import decisions_from_wire, rules_from_wire, standings_to_wire, tournament_from_wire
from .file_rules import rules_of_the_file
from .problems import TrfCrosstableError
from .teams import NotATeamEvent, TeamInput, individual_after_all, is_team_request, read_team, team_standings


@dataclass(slots=True)
class Input:
    """The tournament a request sent (JSON or TRF), what reading it noted, and where a TRF's lines are."""

    tournament: Tournament
    warnings: list[Warning] = field(default_factory=list)
    trf: TrfDocument | None = None
    decisions: Decisions = NO_DECISIONS  # the request's rating policy, play-offs, MAN values, changes


def trf_warning(w: TrfWarning) -> Warning:
    return Warning(w.code, located_warning(w), None)


def trf_warnings(document: TrfDocument) -> list[Warning]:
    """The reader's located warnings, and one line for those past the cap."""
    warnings = [trf_warning(w) for w in document.warnings]
    if document.warnings_omitted:
        warnings.append(
            Warning(
                "trf-warnings-omitted",
                f"{document.warnings_omitted} more lines ignored (only the first {len(document.warnings)} are listed)",
                None,
            )
        )
    return warnings


def read_trf_checked(text: str, limits: Limits | None, path: str = "trf", columns: bool = False) -> TrfDocument:
    """Parse TRF text under the limits: warnings capped, players, rounds and the 202/212 rules checked.

    `columns`: the results straight into the engine's columns (for computing, not for converting)."""
    document = parse_trf(text, limits.max_warnings if limits is not None else None, columns=columns)
    if limits is not None:
        check_tournament(len(document.tournament.players), document.tournament.rounds, limits, path)
        if len(document.tiebreaks) > limits.max_rules:
            raise LimitExceeded(
                "max_rules",
                path,
                msg("record 202/212 lists {count} rules", count=len(document.tiebreaks)),
                limits=limits,
            )
    return document


def read_input(tournament: s.Tournament | None, trf: str | None, limits: Limits | None = None) -> Input:
    """The engine's tournament from a request's `tournament` or `trf` (exactly one is given).

    With `limits`, a TRF's players, rounds and 202/212 rules are checked once read, and
    its warnings capped."""
    if trf is None:  # results straight into the engine's columns
        assert tournament is not None  # exactly one is given (a team_tournament goes to the team engine)
        return Input(tournament_from_wire(tournament, columns=True))
    document = read_trf_checked(trf, limits, columns=True)  # results straight into the engine's columns
    return Input(document.tournament, trf_warnings(document), document)


def default_after_round(tournament: Tournament, after_round: int | None, warnings: list[Warning]) -> int | None:
    """The request's `after_round`, else the last round played when results stop early (with a warning)."""
    if after_round is not None:
        return after_round
    defaulted, warning = after_round_default(tournament)
    if warning is not None:
        warnings.append(warning)
    return defaulted


def located(exc: InconsistentCrosstable, source: TrfSource, warnings: list[Warning]) -> TrfCrosstableError:
    """A crosstable error of a tournament read from TRF, its paths turned into `trf:LINE:COLUMN`."""
    items = []
    for issue in exc.issues:
        path = issue.path
        if len(path) >= 2 and path[0] == "players" and isinstance(path[1], int) and path[1] < len(source.player_lines):
            result = path[3] if len(path) >= 4 and path[2] == "results" and isinstance(path[3], int) else None
            what = path[4] if len(path) >= 5 and isinstance(path[4], str) else None
            line, column = source.locate(path[1], result, what)
            items.append((f"trf:{line}:{column}", issue.message))
        else:
            items.append(("trf", issue.message))
    return TrfCrosstableError(exc.issues, items, warnings)


def prepare(
    body: s.StandingsRequest, limits: Limits | None = None
) -> tuple[Tournament, list[RuleSpec], Regulations, list[Warning]]:
    """The tournament, rule list and rule set a request asks for, with the warnings reading them gave."""
    source, specs, regulations = prepare_input(body, limits)
    return source.tournament, specs, regulations, source.warnings


def prepare_input(
    body: s.StandingsRequest | ScenariosRequest, limits: Limits | None = None
) -> tuple[Input, list[RuleSpec], Regulations]:
    source = read_input(body.tournament, body.trf, limits)
    warnings = source.warnings
    regulations = applied_regulations(body.regulations, body.preset, source.tournament)
    warnings += regulation_warnings(body.regulations, regulations, source.tournament)
    if body.preset is not None:
        specs = preset_specs(body.preset, regulations)
    elif body.tiebreaks is None and source.trf is not None and source.trf.tiebreaks:
        specs = rules_of_the_file(
            body.trf, source.trf.tiebreaks, lambda items: parsed_rules(items, regulations), warnings
        )
    else:
        specs = parsed_rules(body.tiebreaks or [], regulations)
    if not specs:
        warnings.append(
            Warning("no-tiebreaks", msg("no tie-break rules given: players equal on points share a rank"), "C.07 4.1")
        )
    source.decisions = decisions_from_wire(body, regulations)
    if source.trf is not None and source.trf.tiebreak_changes and not source.decisions.tiebreak_changes:
        # the changes a TRF records in its `###` comment lines, when the request gives none
        recorded = tuple(
            TiebreakChange(r, tuple(spec.canonical for spec in parsed_rules(rules, regulations)))
            for r, rules in source.trf.tiebreak_changes
        )
        source.decisions = replace(source.decisions, tiebreak_changes=recorded)
    return source, specs, regulations


def parsed_rules(items: list, regulations: Regulations) -> list[RuleSpec]:
    """`rules_from_wire`, remembered for lists of rule strings: a batch asks for the same few lists
    over and over, and reading one costs more than ranking a small event's first round."""
    if all(isinstance(item, str) for item in items):
        return list(_rules_of_strings(tuple(items), regulations))
    return rules_from_wire(items, regulations)


@functools.lru_cache(maxsize=256)
def _rules_of_strings(items: tuple[str, ...], regulations: Regulations) -> tuple[RuleSpec, ...]:
    return tuple(rules_from_wire(list(items), regulations))  # a rule it cannot read raises: nothing is kept


DRAWN_SEEDS = 10**9  # a drawn seed has at most nine digits: short enough to write on the results sheet


def lots_seed(rule_lists: Iterable[list[RuleSpec]], given: int | None) -> int | None:
    """The seed of the drawing of lots: the one given, else one drawn here when a list includes RND
    (the answer echoes it, so the draw can be reproduced)."""
    if given is not None:
        return given
    if any(uses_lots(specs) for specs in rule_lists):
        return secrets.randbelow(DRAWN_SEEDS)
    return None


def applied_regulations(requested: str, preset_name: str | None, tournament: Tournament) -> Regulations:
    """The rule set a request is computed under: the one asked for; `auto` is `uscf` with a
    US Chess preset, else fide-2026 or fide-2024 by the start date; `auto-historic` also
    gives fide-2009 to events that started before 1 April 2024."""
    chosen = None if requested.startswith("auto") else Regulations(requested)
    if chosen is None and preset_name is not None and preset(preset_name).regulations == {Regulations.USCF}:
        chosen = Regulations.USCF
    return resolve_regulations(chosen, tournament, historic=requested == "auto-historic")


def regulation_warnings(requested: str, applied: Regulations, tournament: Tournament) -> list[Warning]:
    """What `auto` / `auto-historic` should tell about the edition they chose."""
    if not requested.startswith("auto") or applied is Regulations.USCF:
        return []
    return edition_warnings(None, applied, tournament, historic=requested == "auto-historic")


@dataclass
class StandingsPlan:
    """A standings request read and checked, priced by `counts`, not yet computed.

    A team event (SPEC 3.7) is read as one (`team`) and priced from its size."""

    body: s.StandingsRequest
    counts: Counts
    source: Input | None = None
    specs: list[RuleSpec] | None = None
    regulations: Regulations | None = None
    after_round: int | None = None
    limits: Limits | None = None
    team: TeamInput | None = None
    engine_seconds: float = 0.0


def explained_rows(body: s.StandingsRequest, players: int) -> int:
    return cost_explained_rows(body.explain, players, body.top, body.player)


def team_counts(body, rules: int, explain: bool, body_bytes: int, lists: int = 1) -> Counts:
    """A team event's price: its boards as players (teams × boards × rounds cells), or its TRF's size.
    (The team engine is not calibrated on its own: the individual figures stand in.)"""
    t = getattr(body, "team_tournament", None)
    if t is not None:
        participants = len(t.teams) * t.team_size
        return Counts(
            players=participants,
            rounds=t.rounds,
            rule_passes=max(1, rules),
            explained_rules=len(t.teams) * rules if explain else 0,
            body_bytes=body_bytes,
            lists=lists,
        )
    return text_counts(body.trf or "", rules, body_bytes, explain, lists)


def plan_standings(body: s.StandingsRequest, limits: Limits | None = None, body_bytes: int = 0) -> StandingsPlan:
    """Read the input and apply every limit that needs it read (a TRF's players, rounds and rules).

    A team event is read here, once; a TRF whose team records do not describe matches is read as
    the individual event it is, priced as the team event it announced (the price came first)."""
    if body.participants == "auto" and is_team_request(body):
        counts = team_counts(body, len(body.tiebreaks or []), body.explain, body_bytes)
        with cyclic_gc_paused():
            try:
                return StandingsPlan(body, counts, limits=limits, team=read_team(body, limits))
            except NotATeamEvent as exc:  # team records over individual pairings: an individual event
                return _plan_individual(body, limits, body_bytes, individual_after_all(exc), counts)
    return _plan_individual(body, limits, body_bytes)


def _plan_individual(
    body: s.StandingsRequest,
    limits: Limits | None,
    body_bytes: int,
    not_teams: Warning | None = None,
    counts: Counts | None = None,
) -> StandingsPlan:
    with cyclic_gc_paused():
        source, specs, regulations = prepare_input(body, limits)
        tournament, warnings = source.tournament, source.warnings
        if not_teams is not None:
            warnings.insert(0, not_teams)
        after_round = default_after_round(tournament, body.after_round, warnings)
        covered = after_round or tournament.rounds
        warnings += modifier_checks(specs, covered) + pairing_bye_checks(tournament, covered)
    if counts is None:
        players = len(tournament.players)
        counts = Counts(
            players=players,
            rounds=covered,
            rule_passes=max(1, len(specs)),
            explained_rules=explained_rows(body, players) * len(specs),
            body_bytes=body_bytes,
            rows=returned_rows(players, body.top, body.player),
        )
    return StandingsPlan(body, counts, source, specs, regulations, after_round, limits)


def capped(warnings: list[Warning], limits: Limits | None) -> list[Warning]:
    """At most `max_warnings`, and one line saying how many more there were."""
    if limits is None or len(warnings) <= limits.max_warnings:
        return warnings
    kept = limits.max_warnings
    return [
        *warnings[:kept],
        Warning(
            "warnings-omitted",
            f"{len(warnings) - kept} more warnings omitted; limit max_warnings = {kept} (TIEBREAK_MAX_WARNINGS)",
            None,
        ),
    ]


def capped_warnings(warnings: list[s.WarningOut], limits: Limits | None) -> list[s.WarningOut]:
    """`capped` for warnings already on the wire."""
    if limits is None or len(warnings) <= limits.max_warnings:
        return warnings
    rest = len(warnings) - limits.max_warnings
    return [
        *warnings[: limits.max_warnings],
        s.WarningOut(
            code="warnings-omitted",
            message=f"{rest} more warnings omitted; limit max_warnings = {limits.max_warnings} (TIEBREAK_MAX_WARNINGS)",
            rule=None,
        ),
    ]


def compute_plan(
    plan: StandingsPlan, deadline: Deadline | None = None, encode_rows: bool = False
) -> s.StandingsResponse:
    """The engine and the response. The cyclic garbage collector is paused throughout: the
    breakdowns are millions of small objects without a cycle, which it would otherwise rescan.
    With `encode_rows` (an answer about to be encoded) the rows of an individual event come
    back as their JSON, built a chunk at a time (convert.standings_to_wire)."""
    with cyclic_gc_paused():
        if plan.team is not None:
            started = time.perf_counter()
            response = team_standings(plan.body, plan.team, deadline)
            plan.engine_seconds = time.perf_counter() - started
            return response
        return _compute_individual(plan, deadline, encode_rows)


def rank_individual(plan: StandingsPlan, after_round: int | None, seed: int | None) -> Standings:
    """The engine's standings of an individual event's plan after `after_round`, lots drawn with
    `seed` (breakdowns built later, on demand); a crosstable error of a TRF located at its line."""
    source = plan.source
    assert source is not None and plan.specs is not None  # an individual event's plan has both (plan_standings)
    try:
        return compute_standings(
            source.tournament,
            plan.specs,
            plan.regulations,
            after_round,
            plan.body.unrated_rating,
            False,
            s.ContributionOut,
            seed,
            source.decisions,
        )
    except InconsistentCrosstable as exc:
        if source.trf is None:
            raise
        raise located(exc, source.trf.source, source.warnings) from None


def _compute_individual(plan: StandingsPlan, deadline: Deadline | None, encode_rows: bool) -> s.StandingsResponse:
    body, source = plan.body, plan.source
    assert source is not None and plan.specs is not None  # an individual event's plan has both (plan_standings)
    tournament = source.tournament
    started = time.perf_counter()
    result = rank_individual(plan, plan.after_round, lots_seed([plan.specs], body.seed))
    plan.engine_seconds = time.perf_counter() - started
    if deadline is not None:
        deadline.check(msg("after ranking"))
    # What reading gave is capped by the reader; the engine's own warnings here.
    result.warnings = [*source.warnings, *capped(result.warnings, plan.limits)]
    # The breakdowns of the rows returned are built as they are converted, from the same engine pass.
    return standings_to_wire(
        result, body.explain, body.top, body.player, tournament, encode_rows=encode_rows, offset=body.offset
    )


def run_standings(
    body: s.StandingsRequest, limits: Limits | None = None, deadline: Deadline | None = None
) -> s.StandingsResponse:
    """Compute one standings request (synchronously; callers choose where).

    With `limits`, a TRF's players, rounds and rules are checked once read and warnings
    are capped; with `deadline`, the work stops between its stages (the compute gate
    kills work past the deadline; this is for callers without it).
    """
    plan = plan_standings(body, limits)
    if deadline is not None:
        deadline.check(msg("after reading the input"))
    return compute_plan(plan, deadline)
