"""A team event as the engine sees it: teams with their players in board order, matches
with per-board results, whole-match forfeits and team byes (SPEC 2.5, 3.7).

Plain, immutable data built by the adapters (the JSON API, the TRF-26 team reader);
`build.py` validates it and lays it out as the participant tables the rules read.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from ..model import ResultKind, System


class Score(enum.Enum):
    """The two scores of a team event (C.07 11): match points and game points."""

    MP = "MP"
    GP = "GP"

    @property
    def other(self) -> Score:
        return Score.GP if self is Score.MP else Score.MP


class BoardResult(enum.Enum):
    """A board's result, white's score first; + and - are forfeits (one side absent)."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_FORFEIT_WIN = "+-"
    BLACK_FORFEIT_WIN = "-+"
    DOUBLE_FORFEIT = "--"

    @property
    def played(self) -> bool:
        return self in (BoardResult.WHITE_WINS, BoardResult.BLACK_WINS, BoardResult.DRAW)


class MatchForfeit(enum.Enum):
    """A whole match forfeited (TRF-26 record 330): the first-named (home) team's result first."""

    HOME_WINS = "+-"
    AWAY_WINS = "-+"
    DOUBLE = "--"


# The byes a team can have in a round (TRF-26 records 320 and 240).
TEAM_BYES = (ResultKind.PAIRING_BYE, ResultKind.FULL_BYE, ResultKind.HALF_BYE, ResultKind.ZERO_BYE)


@dataclass(frozen=True, slots=True)
class TeamScoring:
    """Match points for a match won, drawn, lost (more game points wins the match) and game
    points per board; what the pairing-allocated bye brings (`pab_game` None: a draw on every
    board). A full-point bye scores a won match with every board won, a half-point bye a drawn
    match with every board drawn, a zero-point bye nothing; a forfeited match scores the team
    present a won match and one game win per board, the absent team nothing."""

    match_win: Fraction = Fraction(2)
    match_draw: Fraction = Fraction(1)
    match_loss: Fraction = Fraction(0)
    game_win: Fraction = Fraction(1)
    game_draw: Fraction = Fraction(1, 2)
    game_loss: Fraction = Fraction(0)
    pab_match: Fraction = Fraction(1)  # Olympiad style: the PAB scores a drawn match
    pab_game: Fraction | None = None  # None: team_size × game_draw

    def pab_game_points(self, team_size: int) -> Fraction:
        return self.pab_game if self.pab_game is not None else team_size * self.game_draw


@dataclass(frozen=True, slots=True)
class TeamMember:
    id: int  # the player's start number, unique over the event
    name: str = ""
    rating: int | None = None


@dataclass(frozen=True, slots=True)
class Team:
    id: int  # the team pairing number
    name: str = ""
    short_name: str = ""
    players: tuple[TeamMember, ...] = ()  # board order, reserves last


@dataclass(frozen=True, slots=True)
class Board:
    """One board of a match. `white`/`black` None: the board was not occupied by that side.
    `points` (white's, black's) overrides the scoring for an arbiter's decision."""

    board: int
    white: int | None
    black: int | None
    result: BoardResult | None
    points: tuple[Fraction, Fraction] | None = None


@dataclass(frozen=True, slots=True)
class Match:
    round: int
    home: int  # team ids; home is the first-named team (TRF 352 gives its colour per board)
    away: int
    boards: tuple[Board, ...] = ()
    forfeit: MatchForfeit | None = None
    # The match result as declared (home's game points, away's), checked against the boards.
    game_points: tuple[Fraction, Fraction] | None = None


@dataclass(frozen=True, slots=True)
class TeamBye:
    round: int
    team: int
    kind: ResultKind  # one of TEAM_BYES


@dataclass(frozen=True, slots=True)
class TeamAward:
    """Points the arbiter awards a team in a round (TRF-26 record 299): added to the round's match
    and game points as they are, the match's result unchanged."""

    round: int
    team: int
    match_points: Fraction = Fraction(0)
    game_points: Fraction = Fraction(0)


@dataclass(frozen=True, slots=True)
class TeamTournament:
    teams: tuple[Team, ...]
    rounds: int
    team_size: int
    matches: tuple[Match, ...] = ()
    byes: tuple[TeamBye, ...] = ()
    system: System | None = None  # None: inferred from the pairings
    scoring: TeamScoring = field(default_factory=TeamScoring)
    board_colours: str | None = None  # the home team's colour per board, e.g. "WBWB" (TRF 352)
    primary: Score | None = None  # None: from the rule list (a leading PTS:GP), else match points
    name: str = ""
    start_date: date | None = None
    awards: tuple[TeamAward, ...] = ()  # TRF-26 299: points awarded by the arbiter
