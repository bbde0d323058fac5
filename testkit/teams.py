"""Team events put together from their parts: the synthetic Olympiad (`testkit.synthetic_teams`),
the tests' inline builders and their hypothesis strategies make their teams, seats and events here."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tiebreak.engine.model import System
from tiebreak.engine.teams.model import Match, Team, TeamBye, TeamMember, TeamTournament


def board_colours(size: int) -> str:
    """The home team's colour on each board: white on the odd ones ("WBWB…", TRF-26 record 352)."""
    return "".join("WB"[b % 2] for b in range(size))


def seats(home_white: bool, home: int | None, away: int | None) -> tuple[int | None, int | None]:
    """(white, black) of a board from its home and away players."""
    return (home, away) if home_white else (away, home)


def team(
    number: int,
    players: Sequence[int],
    ratings: Sequence[int | None] | None = None,
    *,
    short_name: str | None = None,
    player_name: str = "P{}",
) -> Team:
    """Team `number` ("Team N", short name "TN" unless given) with `players` in board order, reserves
    last; each player named `player_name` with their number."""
    rated = [None] * len(players) if ratings is None else ratings
    return Team(
        number,
        f"Team {number}",
        f"T{number}" if short_name is None else short_name,
        tuple(TeamMember(p, player_name.format(p), rating) for p, rating in zip(players, rated, strict=True)),
    )


def team_event(
    teams: Iterable[Team],
    size: int,
    rounds: int,
    matches: Iterable[Match] = (),
    byes: Iterable[TeamBye] = (),
    **fields: Any,
) -> TeamTournament:
    """The event, home's colours alternating by board (`board_colours`); the other `fields` as
    `TeamTournament` takes them (scoring, name, ...), a Swiss unless `system` says otherwise."""
    fields.setdefault("system", System.SWISS)
    return TeamTournament(
        teams=tuple(teams),
        rounds=rounds,
        team_size=size,
        matches=tuple(matches),
        byes=tuple(byes),
        board_colours=board_colours(size),
        **fields,
    )
