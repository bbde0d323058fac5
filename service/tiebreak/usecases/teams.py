"""One team standings request from wire struct to wire struct (SPEC 3.7): `team_tournament`,
or a TRF with team records. Shared by the HTTP routes, compare, batch and the command line."""

from __future__ import annotations

from dataclasses import dataclass

from ..formats.trf import located_warning
from ..engine import swiss_manager
from ..engine.errors import InvalidRequest, Issue
from ..engine.model import Regulations
from ..engine.rules import RuleSpec
from ..engine.standings import Warning
from ..engine.teams.model import TeamTournament
from ..engine.teams.presets import team_preset_specs
from ..engine.teams.standings import compute_team_standings, primary_score, resolve_team_regulations
from ..formats.trf_teams import NotATeamEvent, is_team_trf, parse_team_trf
from ..wire import schemas as s
from ..wire.limits import Deadline, LimitExceeded, Limits
from ..texts.message import msg, msg_n
from .file_rules import rules_of_the_file
from .convert_teams import team_rules_from_wire, team_standings_to_wire, team_tournament_from_wire


def is_team_request(body) -> bool:
    """A team event: `team_tournament`, or TRF text with team records (310, or 013 in a team tournament)."""
    return getattr(body, "team_tournament", None) is not None or (body.trf is not None and is_team_trf(body.trf))


def individual_after_all(exc: NotATeamEvent) -> Warning:
    """The warning of a TRF whose team records do not describe matches: ranked as an individual event."""
    return Warning(
        "trf-team-records-ignored",
        msg(
            "line {line}, column {column}: {problem}: the pairings are not matches between the teams of the team "
            "records, so the event is ranked as an individual tournament",
            line=exc.line,
            column=exc.column,
            problem=exc.message,
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


def prepare_team(body) -> tuple[TeamTournament, list[RuleSpec], Regulations, list[Warning]]:
    event, trf_rules, warnings = read_team_event(body)
    regulations = team_regulations(body.regulations, event)
    if body.tiebreaks is None and body.preset is None and trf_rules and body.trf is not None:
        specs = rules_of_the_file(
            body.trf, trf_rules, lambda items: team_rules_from_wire(list(items), regulations), warnings
        )
    else:
        specs = team_specs(body.tiebreaks, body.preset, regulations)
        check_swiss_manager_numbers(body.tiebreaks or [], event, specs)
    if not specs:
        warnings.append(
            Warning(
                "no-tiebreaks",
                msg("no tie-break rules given: teams equal on the primary score share a rank"),
                "C.07 4.1",
            )
        )
    return event, specs, regulations, warnings


def check_swiss_manager_numbers(items, event: TeamTournament, specs: list[RuleSpec]) -> None:
    """A Swiss-Manager number whose parameters name the match scoring (2/1/0, 3/1/0) or the primary score
    is exact only on an event that is scored so: a 422 otherwise (decision 0178)."""
    scoring = event.scoring
    match_points = (scoring.match_win, scoring.match_draw, scoring.match_loss)
    primary = primary_score(event, specs).value
    for i, item in enumerate(items):
        numbered = swiss_manager.string_form(item if isinstance(item, str) else item.rule_text)
        if numbered is None:
            continue
        reading = swiss_manager.read_number(*numbered, team=True, path=("tiebreaks", i))
        if reading.match_points is not None and reading.match_points != match_points:
            raise InvalidRequest(
                [
                    Issue(
                        ("tiebreaks", i),
                        msg(
                            "Swiss-Manager {number} counts match points {wanted}; this event scores a match won, "
                            "drawn, lost {scored}",
                            number=numbered[0],
                            wanted="/".join(map(str, reading.match_points)),
                            scored="/".join(str(p) for p in match_points),
                        ),
                    )
                ]
            )
        if reading.primary is not None and reading.primary != primary:
            raise InvalidRequest(
                [
                    Issue(
                        ("tiebreaks", i),
                        msg(
                            "Swiss-Manager {number} ranks on {wanted} first; this event's primary score is {primary}",
                            number=numbered[0],
                            wanted=reading.primary,
                            primary=primary,
                        ),
                    )
                ]
            )


def check_team_event(event: TeamTournament, limits: Limits, path: str) -> None:
    """Teams, players and rounds of a team event against the limits (a TRF's once read)."""
    players = sum(len(t.players) for t in event.teams)
    if max(players, len(event.teams)) > limits.max_players:
        raise LimitExceeded(
            "max_players",
            f"{path}.teams",
            msg("{teams} teams, {players} players", teams=len(event.teams), players=players),
            limits=limits,
        )
    if event.rounds > limits.max_rounds:
        raise LimitExceeded(
            "max_rounds", f"{path}.rounds", msg_n("{n} round", "{n} rounds", event.rounds), limits=limits
        )


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
            msg(
                "matches reach round {last} of {rounds}: standings after round {last}, the rounds after it are "
                "not counted as absences; give after_round to choose another round",
                last=last,
                rounds=event.rounds,
            ),
        )
    )
    return last


@dataclass(slots=True)
class TeamInput:
    """A team event read once (the plan's reading): the event, its rule list and rule set, and
    what reading gave; each ranking of it (a round of a progression) starts from these warnings."""

    event: TeamTournament
    specs: list[RuleSpec]
    regulations: Regulations
    warnings: list[Warning]


def read_team(body, limits: Limits | None) -> TeamInput:
    """Read a standings request's team event and check it against the limits; raises NotATeamEvent
    for a TRF whose team records do not describe matches (an individual event after all)."""
    event, specs, regulations, warnings = prepare_team(body)
    if limits is not None:
        check_team_event(event, limits, "trf" if body.trf is not None else "team_tournament")
    return TeamInput(event, specs, regulations, warnings)


def team_standings(body: s.StandingsRequest, team: TeamInput, deadline: Deadline | None = None) -> s.StandingsResponse:
    """The standings of a team event read by `read_team`, after `body.after_round`, rows as `body` asks."""
    warnings = list(team.warnings)  # the after-round note is this ranking's own
    after_round = team_after_round(team.event, body.after_round, warnings)
    result = compute_team_standings(team.event, team.specs, team.regulations, after_round, False, s.ContributionOut)
    if deadline is not None:
        deadline.check(msg("after ranking"))
    result.warnings[:0] = warnings
    return team_standings_to_wire(result, body.explain, body.top, body.player)
