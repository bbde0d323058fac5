"""One standings request from wire struct to wire struct: shared by the HTTP routes,
batch re-ranking and the command line. No HTTP here."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..engine import Regulations, Tournament, compute_standings
from ..engine.checks import after_round_default, modifier_checks, pairing_bye_checks
from ..engine.errors import InconsistentCrosstable, InvalidRequest
from ..engine.rules import RuleSpec
from ..engine.presets import preset, preset_specs
from ..engine.standings import cyclic_gc_paused, Warning, edition_warnings, resolve_regulations
from ..formats.trf import TrfDocument, TrfSource, TrfWarning, parse_trf
from . import schemas as s
from .errors import TrfCrosstableError
from .limits import Deadline, Limits, check_tournament
from .metrics import ENGINE_SECONDS
from .convert import rules_from_wire, select_rows, standings_to_wire, tournament_from_wire
from .pipeline_teams import NotATeamEvent, individual_after_all, is_team_request, run_team_standings, team_request_size


@dataclass(slots=True)
class Input:
    """The tournament a request sent (JSON or TRF), what reading it noted, and where a TRF's lines are."""

    tournament: Tournament
    warnings: list[Warning] = field(default_factory=list)
    trf: TrfDocument | None = None


def trf_warning(w: TrfWarning) -> Warning:
    return Warning(w.code, f"line {w.line}, column {w.column}: {w.message}", None)


def read_input(tournament: s.Tournament | None, trf: str | None) -> Input:
    """The engine's tournament from a request's `tournament` or `trf` (exactly one is given)."""
    if trf is None:
        return Input(tournament_from_wire(tournament, columns=True))  # results straight into the engine's columns
    document = parse_trf(trf)
    return Input(document.tournament, [trf_warning(w) for w in document.warnings], document)


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


def prepare(body: s.StandingsRequest) -> tuple[Tournament, list[RuleSpec], Regulations, list[Warning]]:
    """The tournament, rule list and rule set a request asks for, with the warnings reading them gave."""
    source, specs, regulations = prepare_input(body)
    return source.tournament, specs, regulations, source.warnings


def prepare_input(body: s.StandingsRequest) -> tuple[Input, list[RuleSpec], Regulations]:
    source = read_input(body.tournament, body.trf)
    warnings = source.warnings
    regulations = applied_regulations(body.regulations, body.preset, source.tournament)
    warnings += regulation_warnings(body.regulations, regulations, source.tournament)
    if body.preset is not None:
        specs = preset_specs(body.preset, regulations)
    elif body.tiebreaks is None and source.trf is not None and source.trf.tiebreaks:
        specs = rules_of_the_file(source.trf.tiebreaks, regulations, warnings)
    else:
        specs = rules_from_wire(body.tiebreaks or [], regulations)
    if not specs:
        warnings.append(Warning("no-tiebreaks", "no tie-break rules given: players equal on points share a rank",
                                "C.07 4.1"))
    return source, specs, regulations


def rules_of_the_file(items: list[str], regulations: Regulations, warnings: list[Warning]) -> list[RuleSpec]:
    """The TRF's own rule list (202/212): a rule this rule set cannot compute (a team rule of a team
    event read as individuals, a misspelling) is skipped with a warning, not refused: the client
    did not write it."""
    specs = []
    for i, item in enumerate(items):
        try:
            specs += rules_from_wire([item], regulations)
        except InvalidRequest as exc:
            warnings.append(Warning("trf-rule-skipped", f"rule {item!r} of the TRF's rule list skipped: "
                                                        f"{exc.issues[0].message}", None))
    warnings.append(Warning("tiebreaks-from-trf", "rule list taken from the TRF's record 202/212: "
                                                  + (", ".join(map(str, specs)) or "no rule it could use"), None))
    return specs


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


def run_standings(body: s.StandingsRequest, limits: Limits | None = None,
                  deadline: Deadline | None = None) -> s.StandingsResponse:
    """Compute one standings request (synchronously; callers choose the thread).

    With `limits`, a TRF's players and rounds are checked once read; with `deadline`,
    the work stops between its stages (read, rank, convert) once the deadline passed.
    The cyclic garbage collector is paused throughout: the breakdowns are millions of
    small objects without a cycle, which it would otherwise rescan again and again.
    """
    with cyclic_gc_paused():
        return _run_standings(body, limits, deadline)


def _run_standings(body: s.StandingsRequest, limits: Limits | None, deadline: Deadline | None) -> s.StandingsResponse:
    not_teams = None
    if body.participants == "auto" and is_team_request(body):  # a team event (SPEC 3.7): its own entry point
        try:
            return run_team_standings(body, limits, deadline)
        except NotATeamEvent as exc:  # team records over individual pairings: an individual event
            not_teams = individual_after_all(exc)
    source, specs, regulations = prepare_input(body)
    tournament, warnings = source.tournament, source.warnings
    if not_teams is not None:
        warnings.insert(0, not_teams)
    if limits is not None and body.trf is not None:
        check_tournament(len(tournament.players), tournament.rounds, limits, "trf")
    if deadline is not None:
        deadline.check("after reading the input")
    after_round = default_after_round(tournament, body.after_round, warnings)
    covered = after_round or tournament.rounds
    warnings += modifier_checks(specs, covered) + pairing_bye_checks(tournament, covered)
    started = time.perf_counter()
    try:
        result = compute_standings(tournament, specs, regulations, after_round, body.unrated_rating, False)
    except InconsistentCrosstable as exc:
        if source.trf is None:
            raise
        raise located(exc, source.trf.source, warnings) from None
    if body.explain:
        # Breakdowns only for the rows returned, from the same engine pass.
        result.explain(row.player for row in select_rows(result, body.top, body.player))
    ENGINE_SECONDS.observe(time.perf_counter() - started)
    if deadline is not None:
        deadline.check("after ranking")
    result.warnings[:0] = warnings
    return standings_to_wire(result, body.explain, body.top, body.player, tournament)


def request_size(body: s.StandingsRequest) -> int:
    """A cheap measure of the work a request asks for (players × rounds, or TRF length)."""
    if body.tournament is not None:
        return len(body.tournament.players) * body.tournament.rounds
    if body.team_tournament is not None:
        return team_request_size(body)
    return len(body.trf or "") // 100
