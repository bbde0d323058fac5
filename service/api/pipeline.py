"""One standings request from wire struct to wire struct: shared by the HTTP routes,
batch re-ranking and the command line. No HTTP here."""

from __future__ import annotations

from ..engine import Regulations, Tournament, compute_standings
from ..engine.rules import RuleSpec
from ..engine.standings import Warning
from ..formats.trf import parse_trf
from . import schemas as s
from .convert import rules_from_wire, standings_to_wire, tournament_from_wire


def prepare(body: s.StandingsRequest) -> tuple[Tournament, list[RuleSpec], list[Warning]]:
    """The tournament and rule list a request asks for, with the warnings reading them gave."""
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
        tournament = tournament_from_wire(body.tournament)
    specs = rules_from_wire(rule_items or [])
    if not specs:
        warnings.append(Warning("no-tiebreaks", "no tie-break rules given: players equal on points share a rank",
                                "C.07 4.1"))
    return tournament, specs, warnings


def run_standings(body: s.StandingsRequest) -> s.StandingsResponse:
    """Compute one standings request (synchronously; callers choose the thread)."""
    tournament, specs, warnings = prepare(body)
    regulations = None if body.regulations == "auto" else Regulations(body.regulations)
    result = compute_standings(tournament, specs, regulations, body.after_round, body.unrated_rating, body.explain)
    result.warnings[:0] = warnings
    return standings_to_wire(result, body.explain)


def request_size(body: s.StandingsRequest) -> int:
    """A cheap measure of the work a request asks for (players × rounds, or TRF length)."""
    if body.tournament is not None:
        return len(body.tournament.players) * body.tournament.rounds
    return len(body.trf or "") // 100
