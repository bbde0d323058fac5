"""One standings request from wire struct to wire struct: shared by the HTTP routes,
batch re-ranking and the command line. No HTTP here.

Two steps, so that the compute gate can price a request before paying for it:
`plan_standings` reads the input (JSON or TRF) and applies every limit that needs
it read; its `counts` feed the cost model (service/api/cost.py). `compute_plan`
runs the engine and builds the response.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..engine import Regulations, Tournament, compute_standings
from ..engine.rules import RuleSpec
from ..engine.presets import preset, preset_specs
from ..engine.standings import Warning, resolve_regulations
from ..formats.trf import TrfDocument, parse_trf
from . import schemas as s
from .cost import Counts
from .limits import Deadline, LimitExceeded, Limits, check_tournament
from .metrics import ENGINE_SECONDS
from .convert import rules_from_wire, select_rows, standings_to_wire, tournament_from_wire


def trf_warnings(document: TrfDocument) -> list[Warning]:
    """The reader's located warnings, and one line for those past the cap."""
    warnings = [Warning("trf-line-ignored", f"line {w.line}, column {w.column}: {w.message}", None)
                for w in document.warnings]
    if document.warnings_omitted:
        warnings.append(Warning("trf-warnings-omitted", f"{document.warnings_omitted} more lines ignored "
                                                        f"(only the first {len(document.warnings)} are listed)", None))
    return warnings


def read_trf_checked(text: str, limits: Limits | None, path: str = "trf") -> TrfDocument:
    """Parse TRF text under the limits: warnings capped, players, rounds and the 202/212 rules checked."""
    document = parse_trf(text, limits.max_warnings if limits is not None else None)
    if limits is not None:
        check_tournament(len(document.tournament.players), document.tournament.rounds, limits, path)
        if len(document.tiebreaks) > limits.max_rules:
            raise LimitExceeded("max_rules", path, f"record 202/212 lists {len(document.tiebreaks)} rules",
                                limits=limits)
    return document


def prepare(body: s.StandingsRequest, limits: Limits | None = None
            ) -> tuple[Tournament, list[RuleSpec], Regulations, list[Warning]]:
    """The tournament, rule list and rule set a request asks for, with the warnings reading them gave."""
    warnings: list[Warning] = []
    rule_items = body.tiebreaks
    if body.trf is not None:
        document = read_trf_checked(body.trf, limits)
        tournament = document.tournament
        warnings += trf_warnings(document)
        if rule_items is None and document.tiebreaks:
            rule_items = document.tiebreaks
            warnings.append(Warning("tiebreaks-from-trf", "rule list taken from the TRF's record 202/212", None))
    else:
        tournament = tournament_from_wire(body.tournament)
    regulations = applied_regulations(body.regulations, body.preset, tournament)
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
    US Chess preset, else fide-2026 or fide-2024 by the start date."""
    chosen = None if requested == "auto" else Regulations(requested)
    if chosen is None and preset_name is not None and preset(preset_name).regulations == {Regulations.USCF}:
        chosen = Regulations.USCF
    return resolve_regulations(chosen, tournament)


@dataclass
class StandingsPlan:
    """A standings request read and checked, priced by `counts`, not yet computed."""

    body: s.StandingsRequest
    tournament: Tournament
    specs: list[RuleSpec]
    regulations: Regulations
    warnings: list[Warning]
    counts: Counts
    limits: Limits | None = None
    engine_seconds: float = field(default=0.0)


def explained_rows(body: s.StandingsRequest, players: int) -> int:
    if not body.explain:
        return 0
    if body.top is None and body.player is None:
        return players
    return min(players, (body.top or 0) + (body.player is not None))


def plan_standings(body: s.StandingsRequest, limits: Limits | None = None, body_bytes: int = 0) -> StandingsPlan:
    tournament, specs, regulations, warnings = prepare(body, limits)
    players = len(tournament.players)
    rounds = body.after_round or tournament.rounds
    passes = 2 if body.explain and body.top is not None else 1  # `top` with breakdowns ranks twice
    counts = Counts(players=players, rounds=rounds, rule_passes=max(1, len(specs)) * passes,
                    explained_rules=explained_rows(body, players) * len(specs), body_bytes=body_bytes)
    return StandingsPlan(body, tournament, specs, regulations, warnings, counts, limits)


def capped_warnings(warnings: list[s.WarningOut], limits: Limits | None) -> list[s.WarningOut]:
    if limits is None or len(warnings) <= limits.max_warnings:
        return warnings
    rest = len(warnings) - limits.max_warnings
    return [*warnings[:limits.max_warnings],
            s.WarningOut(code="warnings-omitted", message=f"{rest} more warnings omitted; limit max_warnings = "
                                                          f"{limits.max_warnings} (TIEBREAK_MAX_WARNINGS)", rule=None)]


def compute_plan(plan: StandingsPlan, deadline: Deadline | None = None) -> s.StandingsResponse:
    body, tournament, specs, regulations = plan.body, plan.tournament, plan.specs, plan.regulations
    started = time.perf_counter()
    explain: bool | frozenset[int] = body.explain
    if body.explain and (body.top is not None or body.player is not None):
        # Breakdowns only for the rows returned. Alone, `player` names them; with `top`
        # a first pass without breakdowns (the cheap one) finds who the first N are.
        if body.top is None:
            explain = frozenset({body.player})
        else:
            ranked = compute_standings(tournament, specs, regulations, body.after_round, body.unrated_rating, False)
            explain = frozenset(ranked.table.ids[row.player] for row in select_rows(ranked, body.top, body.player))
    result = compute_standings(tournament, specs, regulations, body.after_round, body.unrated_rating, explain)
    plan.engine_seconds = time.perf_counter() - started
    ENGINE_SECONDS.observe(plan.engine_seconds)
    if deadline is not None:
        deadline.check("after ranking")
    engine_warnings = result.warnings
    if plan.limits is not None and len(engine_warnings) > plan.limits.max_warnings:
        kept = plan.limits.max_warnings
        engine_warnings = [*engine_warnings[:kept], Warning(
            "warnings-omitted", f"{len(engine_warnings) - kept} more warnings omitted; limit max_warnings = "
                                f"{kept} (TIEBREAK_MAX_WARNINGS)", None)]
    result.warnings = [*plan.warnings, *engine_warnings]  # what reading gave is capped by the reader
    return standings_to_wire(result, body.explain, body.top, body.player)


def run_standings(body: s.StandingsRequest, limits: Limits | None = None,
                  deadline: Deadline | None = None) -> s.StandingsResponse:
    """Compute one standings request (synchronously; callers choose where).

    With `limits`, a TRF's players, rounds and rules are checked once read and warnings
    are capped; with `deadline`, the work stops between its stages once it passed (the
    compute gate kills work past the deadline; this is for callers without it).
    """
    plan = plan_standings(body, limits)
    if deadline is not None:
        deadline.check("after reading the input")
    return compute_plan(plan, deadline)
