"""Wire structs of team events (SPEC 3.7): `team_tournament` in the standings, compare,
batch and TRF requests, and the team fields of the responses."""

from __future__ import annotations

import datetime
from typing import Annotated, ClassVar, Literal

from msgspec import Meta

from . import base as s
from .rules import AtLeastOne, ExactlyOne
from .limits import LIMITS

MAX_TEAM_SIZE = 100  # boards per match; an Olympiad has 4, national leagues up to 12
MAX_TEAM_PLAYERS = 200  # players on one team's list, reserves included

TeamId = Annotated[int, Meta(ge=1, le=LIMITS.max_player_id, description="Team pairing number (TRF record 310)")]
BoardResultName = Literal["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"]
ForfeitName = Literal["+-", "-+", "--"]
TeamByeName = Literal["pairing_bye", "full_bye", "half_bye", "zero_bye"]
ScoreName = Literal["MP", "GP"]
PointPair = Annotated[list[s.Points], Meta(min_length=2, max_length=2)]


class MatchScoring(s.Strict, frozen=True):
    """Match points for a match won, drawn and lost (more game points wins the match)."""

    win: Annotated[s.Points, Meta(description="Match points for a match won")] = 2.0
    draw: Annotated[s.Points, Meta(description="Match points for a match drawn (equal game points)")] = 1.0
    loss: Annotated[s.Points, Meta(description="Match points for a match lost")] = 0.0


class GameScoring(s.Strict, frozen=True):
    """Game points per board."""

    win: Annotated[s.Points, Meta(description="Game points for a game won (a forfeit won too)")] = 1.0
    draw: Annotated[s.Points, Meta(description="Game points for a game drawn")] = 0.5
    loss: Annotated[s.Points, Meta(description="Game points for a game lost (a forfeit lost too)")] = 0.0


class PairingByeScoring(s.Strict, frozen=True):
    """What the pairing-allocated bye brings (TRF-26 record 320)."""

    match: Annotated[
        s.Points,
        Meta(description="Match points of the pairing-allocated bye (default 1: a drawn match, as at the Olympiad)"),
    ] = 1.0
    game: (
        Annotated[
            s.Points, Meta(description="Game points of the pairing-allocated bye (default: team_size × the game draw)")
        ]
        | None
    ) = None


class TeamScoring(s.Strict, frozen=True):
    """Match and game scoring and the pairing-allocated bye. A full-point bye scores a match won with every
    board won, a half-point bye a match drawn with every board drawn, a zero-point bye nothing; a forfeited
    match scores the team present a match won and a game won per board."""

    match: Annotated[MatchScoring | None, Meta(description="Match points")] = None
    game: Annotated[GameScoring | None, Meta(description="Game points")] = None
    pairing_bye: Annotated[PairingByeScoring | None, Meta(description="The pairing-allocated bye")] = None


class TeamPlayer(s.Strict, frozen=True):
    """A player of a team."""

    id: Annotated[
        int, Meta(ge=1, le=LIMITS.max_player_id, description="The player's start number, unique over the event")
    ]
    name: Annotated[s.ShortText, Meta(description="The player's name")] = ""
    rating: (
        Annotated[
            s.Rating, Meta(description="The player's rating (information only: rating rules have no team meaning)")
        ]
        | None
    ) = None


class Team(s.Strict, frozen=True):
    """A team and its players in board order, reserves last."""

    id: TeamId
    name: Annotated[s.ShortText, Meta(description="The team's name")] = ""
    short_name: Annotated[str, Meta(max_length=20, description="A short name (TRF: five characters)")] = ""
    players: Annotated[
        list[TeamPlayer], Meta(max_length=MAX_TEAM_PLAYERS, description="The players in board order, reserves last")
    ] = []


class TeamBoard(s.Strict, frozen=True):
    """One board of a match: its players and result, white's score first."""

    schema_rules: ClassVar = (AtLeastOne(("result", "points")),)

    board: Annotated[int, Meta(ge=1, le=MAX_TEAM_SIZE, description="The board number, 1 to team_size")]
    white: (
        Annotated[
            int,
            Meta(ge=1, le=LIMITS.max_player_id, description="The player with white; null: the seat was not occupied"),
        ]
        | None
    ) = None
    black: (
        Annotated[
            int,
            Meta(ge=1, le=LIMITS.max_player_id, description="The player with black; null: the seat was not occupied"),
        ]
        | None
    ) = None
    result: (
        Annotated[
            BoardResultName,
            Meta(description="1-0, 0-1, 1/2-1/2; +- and -+ a forfeit won by the side present; -- a double forfeit"),
        ]
        | None
    ) = None
    points: (
        Annotated[
            PointPair,
            Meta(description="[white's, black's] game points for an arbiter's decision; overrides the scoring"),
        ]
        | None
    ) = None

    def __post_init__(self) -> None:
        if self.result is None and self.points is None:
            raise ValueError("give the board's `result` or its `points`")


class TeamMatch(s.Strict, frozen=True):
    """One match: the two teams, and its boards or a whole-match forfeit."""

    schema_rules: ClassVar = (
        ExactlyOne(("boards", "forfeit"), lists=("boards",), titles={"boards": "Played", "forfeit": "Forfeited whole"}),
    )

    round: Annotated[s.RoundNumber, Meta(description="The round of the match")]
    home: Annotated[TeamId, Meta(description="The first-named team (board_colours gives its colour per board)")]
    away: Annotated[TeamId, Meta(description="The second-named team")]
    boards: Annotated[list[TeamBoard], Meta(max_length=MAX_TEAM_SIZE, description="The boards, in any order")] = []
    forfeit: (
        Annotated[
            ForfeitName,
            Meta(
                description="A whole match forfeited: +- the home team won, -+ the away "
                "team won, -- nobody came (TRF-26 record 330)"
            ),
        ]
        | None
    ) = None
    game_points: (
        Annotated[
            PointPair,
            Meta(description="The match result as declared, [home's, away's] game points; checked against the boards"),
        ]
        | None
    ) = None

    def __post_init__(self) -> None:
        if (self.forfeit is None) == (not self.boards):
            raise ValueError("give the match's `boards`, or `forfeit` for a whole match forfeited (not both)")


class TeamBye(s.Strict, frozen=True):
    """A round a team did not play: the pairing-allocated bye, or a requested bye (TRF-26 records 320, 240)."""

    round: Annotated[s.RoundNumber, Meta(description="The round of the bye")]
    team: TeamId
    type: Annotated[TeamByeName, Meta(description="pairing_bye, full_bye, half_bye or zero_bye")]


class TeamTournament(s.Strict, frozen=True):
    """A team event (SPEC 3.7): teams with their players, matches with per-board results, byes. A round
    in which a team has neither a match nor a bye counts as an absence."""

    teams: Annotated[list[Team], Meta(min_length=1, max_length=LIMITS.max_players, description="The teams")]
    rounds: Annotated[s.RoundNumber, Meta(description="Scheduled rounds")]
    team_size: Annotated[int, Meta(ge=1, le=MAX_TEAM_SIZE, description="Boards per match")]
    matches: Annotated[
        list[TeamMatch],
        Meta(max_length=LIMITS.max_players * LIMITS.max_rounds, description="The matches of every round"),
    ] = []
    byes: Annotated[
        list[TeamBye],
        Meta(max_length=LIMITS.max_players * LIMITS.max_rounds, description="Pairing-allocated and requested byes"),
    ] = []
    name: Annotated[s.ShortText, Meta(description="The event's name")] = ""
    start_date: (
        Annotated[datetime.date, Meta(description="Start date (regulations auto: fide-2024 before 2026-03-01)")] | None
    ) = None
    system: (
        Annotated[s.SystemName, Meta(description="swiss or round_robin; inferred and echoed when absent")] | None
    ) = None
    board_colours: (
        Annotated[
            str,
            Meta(
                pattern="^[WBwb]+$",
                max_length=MAX_TEAM_SIZE,
                description="The home team's colour per board, e.g. WBWB (TRF-26 record 352)",
            ),
        ]
        | None
    ) = None
    primary_score: (
        Annotated[
            ScoreName,
            Meta(
                description="MP or GP: the score the standings are ordered by "
                "first; default: GP when the rule list starts with "
                "PTS:GP, else MP"
            ),
        ]
        | None
    ) = None
    scoring: Annotated[TeamScoring | None, Meta(description="Match and game scoring, the pairing-allocated bye")] = None
