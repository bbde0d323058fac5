"""One standings request from wire struct to wire struct: shared by the HTTP routes,
batch re-ranking and the command line. No HTTP here."""

from __future__ import annotations

import time

from ..engine import Regulations, Tournament, compute_standings
from ..engine.rules import RuleSpec
from ..engine.presets import preset, preset_specs
from ..engine.standings import Warning, edition_warnings, resolve_regulations
from ..formats.trf import parse_trf
from . import schemas as s
from .limits import Deadline, Limits, check_tournament
from .metrics import ENGINE_SECONDS
from .convert import rules_from_wire, select_rows, standings_to_wire, tournament_from_wire
from .pipeline_teams import is_team_request, run_team_standings, team_request_size


def prepare(body: s.StandingsRequest) -> tuple[Tournament, list[RuleSpec], Regulations, list[Warning]]:
    """The tournament, rule list and rule set a request asks for, with the warnings reading them gave."""
    warnings: list[Warning] = []
    rule_items = body.tiebreaks
    if body.trf is not None:
        document = parse_trf(body.trf)
        tournament = document.tournament
        warnings += [Warning("trf-line-ignored", f"line {w.line}, column {w.column}: {w.message}", None)
                     for w in document.warnings]
        if rule_items is None and document.tiebreaks:
            rule_items = document.tiebreaks
            warnings.append(Warning("tiebreaks-from-trf", "rule list taken from the TRF's record 202/212", None))
    else:
        tournament = tournament_from_wire(body.tournament, columns=True)
    regulations = applied_regulations(body.regulations, body.preset, tournament)
    warnings += regulation_warnings(body.regulations, regulations, tournament)
    if body.preset is not None:
        specs = preset_specs(body.preset, regulations)
    else:
        specs = rules_from_wire(rule_items or [], regulations)
    if not specs:
        warnings.append(Warning("no-tiebreaks", "no tie-break rules given: players equal on points share a rank",
                                "C.07 4.1"))
    return tournament, specs, regulations, warnings


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
    """
    if is_team_request(body):  # a team event (SPEC 3.7): its own reading and engine entry point
        return run_team_standings(body, limits, deadline)
    tournament, specs, regulations, warnings = prepare(body)
    if limits is not None and body.trf is not None:
        check_tournament(len(tournament.players), tournament.rounds, limits, "trf")
    if deadline is not None:
        deadline.check("after reading the input")
    started = time.perf_counter()
    result = compute_standings(tournament, specs, regulations, body.after_round, body.unrated_rating, False)
    if body.explain:
        # Breakdowns only for the rows returned, from the same engine pass.
        result.explain(row.player for row in select_rows(result, body.top, body.player))
    ENGINE_SECONDS.observe(time.perf_counter() - started)
    if deadline is not None:
        deadline.check("after ranking")
    result.warnings[:0] = warnings
    return standings_to_wire(result, body.explain, body.top, body.player)


def request_size(body: s.StandingsRequest) -> int:
    """A cheap measure of the work a request asks for (players × rounds, or TRF length)."""
    if body.tournament is not None:
        return len(body.tournament.players) * body.tournament.rounds
    if body.team_tournament is not None:
        return team_request_size(body)
    return len(body.trf or "") // 100
