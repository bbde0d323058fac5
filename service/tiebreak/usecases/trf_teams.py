"""`POST /v1/trf` for team events: a TRF with team records read into `team_tournament`,
and a `team_tournament` written as TRF-26 (player lines and team records)."""

from __future__ import annotations

from ..texts.message import msg

import msgspec

from ..formats.trf import located_warning
from ..texts.message import made
from ..engine.errors import InvalidRequest, Issue
from ..engine.teams.standings import compute_team_standings
from ..formats.trf_teams import NotATeamEvent, is_team_trf, parse_team_trf
from ..formats.trf_teams_writer import write_team_trf
from ..wire import schemas as s
from ..wire import teams as st
from .convert_teams import team_tournament_from_wire, team_tournament_to_wire
from .teams import individual_after_all, team_regulations, team_specs
from ..wire.io import TrfConvertRequest, TrfConvertResponse

__all__ = ["is_team_trf", "read_team_to_wire", "write_team_from_wire"]


def read_team_to_wire(text: str, individual: TrfConvertResponse) -> TrfConvertResponse:
    """`individual` (the player lines as a JSON tournament) with the team event beside it; a file whose
    pairings are not matches between its teams stays individual, with a warning."""
    try:
        document = parse_team_trf(text)
    except NotATeamEvent as exc:
        note = individual_after_all(exc)
        return msgspec.structs.replace(
            individual,
            warnings=[s.WarningOut(code=note.code, message=made(note.message), rule=None), *individual.warnings],
        )
    wire = team_tournament_to_wire(document.event)
    try:  # what the TRF held must also be a valid JSON team event (ids, names, rounds within limits)
        msgspec.convert(msgspec.to_builtins(wire), st.TeamTournament)
    except msgspec.ValidationError as exc:
        raise InvalidRequest([Issue(("trf",), f"read from the TRF, the team event is not valid: {exc}")]) from None
    seen = {w.message for w in individual.warnings}
    warnings = [
        *individual.warnings,
        *(
            s.WarningOut(code=w.code, message=message, rule=None)
            for w in document.warnings
            if (message := made(located_warning(w))) not in seen
        ),
    ]
    if document.event.awards:  # the JSON team event has no field for them yet
        warnings.append(
            s.WarningOut(
                code="trf-not-carried",
                message=msg(
                    "record 299: the points awarded to teams are applied when the file is ranked, but the JSON "
                    "team event does not carry them"
                ),
                rule="TRF-26",
            )
        )
    return TrfConvertResponse(
        tournament=individual.tournament,
        team_tournament=wire,
        tiebreaks=document.tiebreaks,
        trf=None,
        warnings=warnings,
    )


def write_team_from_wire(body: TrfConvertRequest) -> TrfConvertResponse:
    assert body.team_tournament is not None  # what write_from_wire sends here
    event = team_tournament_from_wire(body.team_tournament)
    regulations = team_regulations(body.regulations, event)
    specs = team_specs(body.tiebreaks, None, regulations)
    standings = compute_team_standings(event, specs, regulations, explain=False)
    rule_names = [spec.canonical for spec in specs]
    output = write_team_trf(event, standings, rule_names)
    warnings = [s.WarningOut(code=w.code, message=made(w.message), rule=w.rule) for w in standings.warnings]
    warnings += [s.WarningOut(code="trf-not-carried", message=made(m), rule=None) for m in output.warnings]
    return TrfConvertResponse(tournament=None, tiebreaks=rule_names, trf=output.text, warnings=warnings)
