"""`POST /v1/trf`: TRF text to the JSON tournament, and a JSON tournament to TRF text.

The direction follows the input field (`trf` or `tournament`), and both directions
answer JSON (see docs/trf.md), so one strict schema validates every request.
"""

from __future__ import annotations

import msgspec

from ..formats.trf import located_warning
from ..texts.message import made
from ..engine import compute_standings
from ..engine.errors import InvalidRequest, Issue
from ..engine.registry import parse_spec, swiss_manager_number
from ..formats.trf_writer import standings_columns, write_trf
from ..wire import schemas as s
from .convert import decisions_from_wire, header_from_wire, rules_from_wire, tournament_from_wire, tournament_to_wire
from ..wire.limits import Limits
from .standings import applied_regulations, capped_warnings, lots_seed, read_trf_checked
from ..wire.io import TrfConvertRequest, TrfConvertResponse
from .trf_teams import is_team_trf, read_team_to_wire, write_team_from_wire


def read_to_wire(text: str, limits: Limits | None = None) -> TrfConvertResponse:
    """The JSON tournament of the player lines; for a team event also `team_tournament` (docs/teams.md)."""
    individual = _read_individual(text, limits)
    if not is_team_trf(text):
        return individual
    return read_team_to_wire(text, individual)


def _read_individual(text: str, limits: Limits | None = None) -> TrfConvertResponse:
    document = read_trf_checked(text, limits)
    wire = tournament_to_wire(document.tournament, document.header)
    try:  # what the TRF held must also be a valid JSON tournament (ratings, rounds, names within limits)
        msgspec.convert(msgspec.to_builtins(wire), s.Tournament)
    except msgspec.ValidationError as exc:
        raise InvalidRequest([Issue(("trf",), f"read from the TRF, the tournament is not valid: {exc}")]) from None
    warnings = [s.WarningOut(code=w.code, message=made(located_warning(w)), rule=None) for w in document.warnings]
    if document.warnings_omitted:
        warnings.append(
            s.WarningOut(
                code="trf-warnings-omitted",
                message=f"{document.warnings_omitted} more lines "
                f"ignored (only the first {len(document.warnings)} are listed)",
                rule=None,
            )
        )
    changes = [s.TiebreakChangeOut(from_round=r, previous=rules) for r, rules in document.tiebreak_changes]
    return TrfConvertResponse(
        tournament=wire,
        tiebreaks=document.tiebreaks,
        trf=None,
        warnings=warnings,
        tiebreak_changes=changes or None,
        swiss_manager=_file_numbers(document.tiebreaks),
    )


def write_from_wire(body: TrfConvertRequest, limits: Limits | None = None) -> TrfConvertResponse:
    if body.team_tournament is not None:
        return write_team_from_wire(body)
    assert body.tournament is not None  # a body to write (no `trf`) has one of the two events
    tournament = tournament_from_wire(body.tournament)
    specs = rules_from_wire(body.tiebreaks or [])
    regulations = applied_regulations(body.regulations, None, tournament)  # `auto-historic` too
    seed = lots_seed([specs], body.seed)
    decisions = decisions_from_wire(body, regulations)
    standings = compute_standings(
        tournament, specs, regulations, None, body.unrated_rating, explain=False, lots_seed=seed, decisions=decisions
    )
    points, ranks = standings_columns(standings)
    rule_names = [spec.canonical for spec in specs]
    changes = [(c.from_round, list(c.previous)) for c in decisions.tiebreak_changes]
    numbers = [swiss_manager_number(spec) for spec in specs]
    output = write_trf(
        tournament,
        points,
        ranks,
        rule_names,
        header_from_wire(body.tournament),
        changes,
        list(zip(rule_names, numbers, strict=True)) if body.swiss_manager_numbers else None,
    )
    warnings = [s.WarningOut(code=w.code, message=made(w.message), rule=w.rule) for w in standings.warnings]
    warnings += [s.WarningOut(code="trf-not-carried", message=made(m), rule=None) for m in output.warnings]
    if output.rating_report_gaps:
        warnings.append(
            s.WarningOut(
                code="trf-rating-report-incomplete",
                rule="TRF-26",
                message=f"for a FIDE rating report the TRF needs: {', '.join(output.rating_report_gaps)}",
            )
        )
    return TrfConvertResponse(
        tournament=None,
        tiebreaks=rule_names,
        trf=output.text,
        warnings=capped_warnings(warnings, limits),
        seed=standings.lots_seed,
        swiss_manager=_numbers_out(numbers),
    )


def _numbers_out(numbers: list[tuple[int, str] | None]) -> list[s.SwissManagerNumber | None] | None:
    return [s.SwissManagerNumber(*n) if n else None for n in numbers] or None


def _file_numbers(rules: list[str]) -> list[s.SwissManagerNumber | None] | None:
    """A file's 202 codes as Swiss-Manager numbers; a code no rule set reads has none."""
    numbers = []
    for rule in rules:
        try:
            numbers.append(swiss_manager_number(parse_spec(rule, None)))
        except InvalidRequest:
            numbers.append(None)
    return _numbers_out(numbers)
