"""The tournament as the engine sees it: plain, immutable data.

This module imports only the standard library. The JSON API and the TRF reader
are adapters that build these objects; the engine never sees their formats.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # for annotations only: at run time, the standard library alone
    import numpy as np


class ResultKind(enum.Enum):
    """What happened to a player in one round."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit_win"
    FORFEIT_LOSS = "forfeit_loss"
    PAIRING_BYE = "pairing_bye"
    FULL_BYE = "full_bye"
    HALF_BYE = "half_bye"
    ZERO_BYE = "zero_bye"
    ABSENT = "absent"

    def __init__(self, value: str) -> None:
        # The integer code of the kind in the engine's columns (declaration order).
        self.code = len(type(self).__members__)
        # Plain attributes, not properties over sets: these are read in every hot loop,
        # and an Enum's hash is computed in Python.
        self.is_played = value in ("win", "draw", "loss")  # a game played over the board
        # paired against a scheduled opponent, played or forfeited
        self.has_opponent = self.is_played or value in ("forfeit_win", "forfeit_loss")
        # C.07 16.2: half- and zero-point byes, absences and forfeit losses are voluntary
        # unplayed rounds (VUR); the pairing-allocated bye, forfeit wins and full-point byes are not.
        self.is_voluntary_unplayed = value in ("half_bye", "zero_bye", "absent", "forfeit_loss")
        # scored as a win, played or not (C.07 7.2)
        self.counts_as_win = value in ("win", "forfeit_win", "pairing_bye", "full_bye")

    # Members are singletons compared by identity: hash them by identity too, in C,
    # instead of Enum's hash of the name computed in Python (a hot dictionary key).
    __hash__ = object.__hash__


# Results that must be paired with the complementary result on the opponent's side.
COMPLEMENT: dict[ResultKind, tuple[ResultKind, ...]] = {
    ResultKind.WIN: (ResultKind.LOSS,),
    ResultKind.LOSS: (ResultKind.WIN,),
    ResultKind.DRAW: (ResultKind.DRAW,),
    ResultKind.FORFEIT_WIN: (ResultKind.FORFEIT_LOSS,),
    # A double forfeit is a forfeit loss on both sides.
    ResultKind.FORFEIT_LOSS: (ResultKind.FORFEIT_WIN, ResultKind.FORFEIT_LOSS),
}


class Color(enum.Enum):
    WHITE = "w"
    BLACK = "b"

    __hash__ = object.__hash__


class System(enum.Enum):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"


class Regulations(enum.Enum):
    """The edition of the rules the standings are computed under."""

    FIDE_2026 = "fide-2026"  # C.07 as applied from 1 March 2026: capped dummy opponent
    FIDE_2024 = "fide-2024"  # C.07 as applied before 1 March 2026: uncapped dummy
    FIDE_2009 = "fide-2009"  # before C.07 (C.02 13.15, from the 2009 Congress): the virtual opponent
    USCF = "uscf"


FIDE_2026_START = date(2026, 3, 1)
# C.07 applied to all FIDE-rated events from 1 April 2024 (to FIDE championships from 1 September 2023).
FIDE_2024_START = date(2024, 4, 1)


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points for each result kind; every rule that needs 'a draw' uses `draw`."""

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    forfeit_win: Fraction = Fraction(1)
    forfeit_loss: Fraction = Fraction(0)
    pairing_bye: Fraction = Fraction(1)
    full_bye: Fraction = Fraction(1)
    half_bye: Fraction = Fraction(1, 2)
    zero_bye: Fraction = Fraction(0)
    absent: Fraction = Fraction(0)

    def points_for(self, kind: ResultKind) -> Fraction:
        points: Fraction = getattr(self, kind.value)  # field names are the result kinds' values
        return points


@dataclass(slots=True)  # not frozen: a frozen __init__ is slower, and one is made per result
class RoundResult:
    """One entry of a player's results as submitted; treated as immutable."""

    round: int
    result: ResultKind
    opponent: int | None = None
    color: Color | None = None
    points: Fraction | None = None  # overrides the scoring for unusual results (0-0, ½-0)
    rated: bool = True


@dataclass(slots=True)  # not frozen (a frozen __init__ is slower, one per player); treated as immutable
class Player:
    id: int  # the start number
    name: str = ""
    rating: int | None = None  # None or 0: unrated
    results: tuple[RoundResult, ...] = ()
    # Identity the engine never reads: carried from the input to every row that names the player.
    fide_id: int | None = None
    federation: str | None = None
    title: str | None = None
    sex: Literal["m", "f"] | None = None
    birth_date: str | None = None  # "YYYY-MM-DD", or "YYYY" when only the year is known
    key: str | None = None  # the client's own opaque identifier (e.g. a UUID)


@dataclass(frozen=True, slots=True)
class ResultColumns:
    """Every result of a tournament as flat columns, in player order, one entry per result.

    What an adapter (the JSON API, a TRF reader) can hand the engine instead of one
    RoundResult object per result: the engine builds its table from these columns.
    Player i's results are the `counts[i]` entries after those of players 0..i-1.
    """

    # Lists, or numpy arrays (the adapters' fast paths): the engine reads them with np.asarray.
    counts: Sequence[int] | np.ndarray
    round: Sequence[int] | np.ndarray
    kind: Sequence[int] | np.ndarray  # ResultKind.code
    opponent: Sequence[int] | np.ndarray  # the opponent's id, 0 for none
    color: Sequence[int] | np.ndarray  # 0 none, 1 white, 2 black
    points: Mapping[int, Fraction] = field(default_factory=dict)  # flat index -> override


COLOR_CODES = {None: 0, Color.WHITE: 1, Color.BLACK: 2}


def result_columns(players: Sequence[Player]) -> ResultColumns:
    """The columns of the players' RoundResult objects."""
    counts: list[int] = []
    rounds: list[int] = []
    kinds: list[int] = []
    opponents: list[int] = []
    colors: list[int] = []
    points: dict[int, Fraction] = {}
    codes = COLOR_CODES
    for player in players:
        counts.append(len(player.results))
        for r in player.results:
            if r.points is not None:
                points[len(rounds)] = r.points
            rounds.append(r.round)
            kinds.append(r.result.code)
            opponents.append(r.opponent or 0)
            colors.append(codes[r.color])
    return ResultColumns(counts, rounds, kinds, opponents, colors, points)


@dataclass(frozen=True, slots=True)
class Roster:
    """Every player's start number, name and rating (None: unrated), in player order: what an
    adapter can hand the engine beside ResultColumns, so that ranking reads no Player object
    (the JSON API makes those only for the rows it shows). The engine keeps these lists."""

    ids: list[int]
    names: list[str]
    ratings: list[int | None]


@dataclass(frozen=True, slots=True)
class RatingChange:
    """Ratings in force from a round on (a long event: a new list published meanwhile); None keeps
    the one before."""

    from_round: int
    rating: int | None = None
    national_rating: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerRatings:
    """What a player's FIDE rating at the start does not say, by start number (only the players
    that have any): the national rating, the arbiter's estimate for an unrated player, and the
    ratings in force from later rounds on."""

    national: Mapping[int, int] = field(default_factory=dict)
    estimated: Mapping[int, int] = field(default_factory=dict)
    history: Mapping[int, tuple[RatingChange, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Tournament:
    players: Sequence[Player]  # a tuple, or a sequence that makes each Player when it is read
    rounds: int
    system: System | None = None  # None: infer it
    scoring: Scoring = field(default_factory=Scoring)
    name: str = ""
    start_date: date | None = None
    # The results as columns; when given, the players' own `results` are not read
    # (the JSON API's fast path builds these straight from the wire).
    columns: ResultColumns | None = None
    # The players' ids, names and ratings as columns; when given, the engine reads these
    # instead of the Player objects (which must agree with them).
    roster: Roster | None = None
    end_date: date | None = None
    ratings: PlayerRatings | None = None  # None: every player has only `rating`
    # Expelled players, by start number: the last round they were in the event (0: before round 1).
    expelled: Mapping[int, int] = field(default_factory=dict)

    def result_columns(self) -> ResultColumns:
        return self.columns if self.columns is not None else result_columns(self.players)
