"""One team standings request from wire struct to wire struct (SPEC 3.7): `team_tournament`,
or a TRF with team records. Shared by the HTTP routes, compare, batch and the command line."""

from __future__ import annotations

import re

from ..formats.trf import located_warning
from ..engine.errors import InvalidRequest
from ..engine.model import Regulations
from ..engine.rules import RuleSpec
from ..engine.standings import Warning
from ..engine.teams.model import TeamTournament
from ..engine.teams.presets import team_preset_specs
from ..engine.teams.standings import TeamStandings, compute_team_standings, resolve_team_regulations
from ..formats.trf_teams import NotATeamEvent, is_team_trf, parse_team_trf
from ..wire import schemas as s
from ..wire.limits import Deadline, LimitExceeded, Limits
from .convert_teams import team_rules_from_wire, team_standings_to_wire, team_tournament_from_wire


def is_team_request(body) -> bool:
    """A team event: `team_tournament`, or TRF text with team records (310, or 013 in a team tournament)."""
    return getattr(body, "team_tournament", None) is not None or (body.trf is not None and is_team_trf(body.trf))


def individual_after_all(exc: NotATeamEvent) -> Warning:
    """The warning of a TRF whose team records do not describe matches: ranked as an individual event."""
    return Warning(
        "trf-team-records-ignored",
        (
            f"line {exc.line}, column {exc.column}: {exc.message}: the pairings are not matches between the teams of "
            f"the team records, so the event is ranked as an individual tournament"
        ),
        None,
    )


def read_team_event(body) -> tuple[TeamTournament, list[str], list[Warning]]:
    """The event of a request, the rule list its TRF carries (202/212), the warnings reading gave."""
    if body.trf is None:
        return team_tournament_from_wire(body.team_tournament), [], []
    document = parse_team_trf(body.trf)
    warnings = [Warning(w.code, located_warning(w), None) for w in document.warnings]
    return document.event, document.tiebreaks, warnings


def team_regulations(requested: str, event: TeamTournament) -> Regulations:
    """`auto` and `auto-historic`: fide-2026, or fide-2024 for events that started before 1 March 2026
    (the 2009 rule is not applied to team events)."""
    return resolve_team_regulations(None if requested.startswith("auto") else Regulations(requested), event)


def team_specs(rule_items, preset_name: str | None, regulations: Regulations) -> list[RuleSpec]:
    if preset_name is not None:
        return team_preset_specs(preset_name, regulations)
    return team_rules_from_wire(rule_items or [], regulations)


def _where_in_the_file(text: str, item: str) -> str:
    """`record 202 at trf:LINE:COL` of a rule of the file's list (202, else 212), for a warning."""
    lines = re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff"))
    for record in ("202", "212"):
        for number, line in enumerate(lines, start=1):
            if line.startswith(record) and item in line[3:]:
                return f"record {record} at trf:{number}:{line.index(item, 3) + 1}"
    return "record 202/212"


def team_rules_of_the_file(
    text: str, items: list[str], regulations: Regulations, warnings: list[Warning]
) -> list[RuleSpec]:
    """The TRF's own rule list: the client did not write it, so a modifier the rule does not take is
    left out (the rule kept), and a rule that cannot be read even bare is skipped, each with a
    warning naming where it is in the file, rather than refusing the file."""
    specs: list[RuleSpec] = []
    for item in items:
        code, *kept = item.split("/")
        dropped: list[str] = []
        while True:
            try:
                specs += team_rules_from_wire(["/".join([code, *kept])], regulations)
            except InvalidRequest as exc:
                if kept:
                    dropped.insert(0, kept.pop())
                    continue
                message = f"{_where_in_the_file(text, item)}: rule {item!r} skipped: {exc.issues[0].message}"
                warnings.append(Warning("trf-rule-skipped", message, None))
                break
            if dropped:
                message = (
                    f"{_where_in_the_file(text, item)}: rule {item!r} computed as {'/'.join([code, *kept])!r}: "
                    f"{code} does not take the modifier {'/'.join(dropped)} here, so it is left out"
                )
                warnings.append(Warning("trf-modifier-dropped", message, None))
            break
    return specs


def prepare_team(body) -> tuple[TeamTournament, list[RuleSpec], Regulations, list[Warning]]:
    event, trf_rules, warnings = read_team_event(body)
    regulations = team_regulations(body.regulations, event)
    if body.tiebreaks is None and body.preset is None and trf_rules and body.trf is not None:
        specs = team_rules_of_the_file(body.trf, trf_rules, regulations, warnings)
        warnings.append(
            Warning(
                "tiebreaks-from-trf",
                "rule list taken from the TRF's record 212/202: "
                + (", ".join(map(str, specs)) or "no rule it could use"),
                None,
            )
        )
    else:
        specs = team_specs(body.tiebreaks, body.preset, regulations)
    if not specs:
        warnings.append(
            Warning(
                "no-tiebreaks", "no tie-break rules given: teams equal on the primary score share a rank", "C.07 4.1"
            )
        )
    return event, specs, regulations, warnings


def check_team_event(event: TeamTournament, limits: Limits, path: str) -> None:
    """Teams, players and rounds of a team event against the limits (a TRF's once read)."""
    players = sum(len(t.players) for t in event.teams)
    if max(players, len(event.teams)) > limits.max_players:
        raise LimitExceeded(
            "max_players", f"{path}.teams", f"{len(event.teams)} teams, {players} players", limits=limits
        )
    if event.rounds > limits.max_rounds:
        raise LimitExceeded("max_rounds", f"{path}.rounds", f"{event.rounds} rounds", limits=limits)


def team_after_round(event: TeamTournament, after_round: int | None, warnings: list[Warning]) -> int | None:
    """As for individuals: without `after_round`, the last round with a match (played or forfeited)
    when matches stop before the last scheduled round, with a warning; byes alone do not count."""
    if after_round is not None:
        return after_round
    last = max((m.round for m in event.matches), default=0)
    if not 0 < last < event.rounds:
        return None
    warnings.append(
        Warning(
            "after-round-defaulted",
            (
                f"matches reach round {last} of {event.rounds}: standings after round {last}, the rounds after it are "
                f"not counted as absences; give after_round to choose another round"
            ),
        )
    )
    return last


def compute_team(body, event: TeamTournament, specs, regulations, warnings: list[Warning]) -> TeamStandings:
    after_round = team_after_round(event, body.after_round, warnings)
    result = compute_team_standings(event, specs, regulations, after_round, False, s.ContributionOut)
    return result


def run_team_standings(
    body: s.StandingsRequest, limits: Limits | None = None, deadline: Deadline | None = None
) -> s.StandingsResponse:
    event, specs, regulations, warnings = prepare_team(body)
    if limits is not None:
        check_team_event(event, limits, "trf" if body.trf is not None else "team_tournament")
    if deadline is not None:
        deadline.check("after reading the input")
    result = compute_team(body, event, specs, regulations, warnings)
    if deadline is not None:
        deadline.check("after ranking")
    result.warnings[:0] = warnings
    return team_standings_to_wire(result, body.explain, body.top, body.player)
