"""The wire format of API v1: msgspec structs for every request and response.

Shape errors (wrong types, out-of-range numbers, unknown fields) are caught here
and become 400s; contradictions inside a well-formed crosstable are the
engine's to find (422).
"""

from __future__ import annotations

import datetime
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from .limits import LIMITS


class Strict(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """Base of every request struct.

    forbid_unknown_fields: a misspelt field ("tiebreak", "after_rounds") is an
    error, not a silently ignored option. frozen: decoded input is never mutated.
    """


class Out(msgspec.Struct, frozen=True, kw_only=True):
    """Base of every response struct: every field is always present, null when empty."""


ResultName = Literal[
    "win", "draw", "loss", "forfeit_win", "forfeit_loss",
    "pairing_bye", "full_bye", "half_bye", "zero_bye", "absent",
]
ColorName = Literal["w", "b"]
SystemName = Literal["swiss", "round_robin"]
RegulationsName = Literal["auto", "auto-historic", "fide-2026", "fide-2024", "fide-2009", "uscf"]
AppliedRegulations = Literal["fide-2026", "fide-2024", "fide-2009", "uscf"]
PresetName = Annotated[str, Meta(min_length=1, max_length=60, examples=["uscf-default"],
                                 description="A named rule list of GET /v1/presets, instead of `tiebreaks`")]

PlayerId = Annotated[int, Meta(ge=1, le=LIMITS.max_player_id, description="Start number")]
RoundNumber = Annotated[int, Meta(ge=1, le=LIMITS.max_rounds)]
Points = Annotated[float, Meta(ge=0, le=LIMITS.max_points_per_round,
                               description="Points; at most two decimals (0.5, 0.25, 3)")]
Rating = Annotated[int, Meta(ge=0, le=LIMITS.max_rating, description="0 or absent: unrated")]
ShortText = Annotated[str, Meta(max_length=200)]


class Scoring(Strict):
    """Points per result; every rule that uses 'points for a draw' uses `draw`.

    What is not given follows `win`, `draw` and `loss` as TRF record 162 does: forfeit win,
    full-point bye and pairing-allocated bye score a win; a half-point bye a draw; a zero-point
    bye, forfeit loss and absence a loss. `win`, `draw`, `loss` default to 1, 0.5, 0. The
    response's `scoring` echoes every value used."""

    win: Points | None = None
    draw: Points | None = None
    loss: Points | None = None
    forfeit_win: Points | None = None
    forfeit_loss: Points | None = None
    pairing_bye: Points | None = None
    full_bye: Points | None = None
    half_bye: Points | None = None
    zero_bye: Points | None = None
    absent: Points | None = None


class RoundResult(Strict, gc=False):  # gc=False: scalars only, no cycle; a large body decodes faster
    round: RoundNumber
    result: ResultName
    opponent: PlayerId | None = None
    color: ColorName | None = None
    points: Points | None = msgspec.field(
        default=None)  # overrides the scoring for unusual results (0-0, ½-0)
    rated: bool = True


FideId = Annotated[int, Meta(ge=1, le=99_999_999_999, description="FIDE ID (TRF columns 58-68); not the start number")]
Federation = Annotated[str, Meta(min_length=1, max_length=3, examples=["NOR"],
                                 description="Federation code (TRF columns 54-56)")]
Title = Annotated[str, Meta(min_length=1, max_length=3, examples=["GM"], description="Title: GM IM WGM FM WIM CM WFM WCM")]
SexName = Literal["m", "f"]
BirthDate = Annotated[str, Meta(pattern=r"^[0-9]{4}(-[0-9]{2}-[0-9]{2})?$", examples=["2008-04-02"],
                                description="YYYY-MM-DD, or YYYY when only the year is known")]
PlayerKey = Annotated[str, Meta(min_length=1, max_length=100, examples=["3f2b9c1e-6a7d-4e0b-9d1f-2c8a5b7e4f10"],
                                description="The client's own identifier (e.g. a UUID), echoed in every row and "
                                            "breakdown that names the player; unique in the tournament")]


class Player(Strict, gc=False):  # gc=False: decoded from JSON, it cannot be part of a cycle
    id: PlayerId
    name: ShortText = ""
    rating: Rating | None = None
    results: Annotated[list[RoundResult], Meta(max_length=LIMITS.max_rounds)] = []
    # Identity the standings do not use: echoed in the rows, written to TRF (except `key`).
    fide_id: FideId | None = None
    federation: Federation | None = None
    title: Title | None = None
    sex: SexName | None = None
    birth_date: BirthDate | None = None
    key: PlayerKey | None = None

    def __post_init__(self) -> None:
        if self.birth_date is not None and len(self.birth_date) == 10:
            try:
                datetime.date.fromisoformat(self.birth_date)
            except ValueError:
                raise ValueError(f"birth_date {self.birth_date!r} is not a date") from None


HeaderText = Annotated[str, Meta(max_length=200)]
TrfRecordLine = Annotated[str, Meta(pattern=r"^[0-9A-Z]{3}( [^\x00-\x1f\x7f]*)?$", max_length=400,
                                    examples=["192 FIDE_DUTCH_2026_BAKU"])]


class Tournament(Strict):
    players: Annotated[list[Player], Meta(min_length=1, max_length=LIMITS.max_players)]
    rounds: RoundNumber
    name: ShortText = ""
    start_date: datetime.date | None = None
    system: SystemName | None = None
    scoring: Scoring | None = None
    # What a TRF header carries beyond the standings (written back by POST /v1/trf; see docs/trf.md).
    city: HeaderText = ""  # 022
    federation: HeaderText = ""  # 032
    end_date: datetime.date | None = None  # 052
    tournament_type: HeaderText = ""  # 092 as written, e.g. "Individual: Swiss-System"
    chief_arbiter: HeaderText = ""  # 102
    deputy_arbiters: Annotated[list[HeaderText], Meta(max_length=20)] = []  # 112
    time_control: HeaderText = ""  # 122
    round_dates: Annotated[list[datetime.date], Meta(max_length=LIMITS.max_rounds)] = []  # 132
    initial_colour: ColorName | None = None  # 152
    trf_records: Annotated[list[TrfRecordLine], Meta(max_length=1000)] = []  # other header records, verbatim


class Modifiers(Strict):
    cut: Annotated[int, Meta(ge=0, le=10)] = 0
    median: Annotated[int, Meta(ge=0, le=10)] = 0
    limit: Annotated[int, Meta(ge=0, le=100)] | None = None
    forfeits_played: bool = False


class RuleObject(Strict):
    """The object form of a rule; the same shape as `tiebreaks[]` in the response."""

    code: Annotated[str, Meta(min_length=1, max_length=40)]
    modifiers: Modifiers | None = None


RuleText = Annotated[str, Meta(min_length=1, max_length=60, examples=["BH/C1"])]


class StandingsRequest(Strict):
    tournament: Tournament | None = None
    trf: Annotated[str, Meta(max_length=LIMITS.max_trf_chars)] | None = None
    # A team event (SPEC 3.7), instead of `tournament` or `trf`; a TRF with team records is one too.
    team_tournament: Annotated[schemas_teams.TeamTournament, Meta(
        description="A team event (SPEC 3.7), instead of `tournament` or `trf`")] | None = None
    tiebreaks: Annotated[list[RuleText | RuleObject], Meta(max_length=LIMITS.max_rules)] | None = None
    preset: PresetName | None = None
    regulations: RegulationsName = "auto"
    after_round: RoundNumber | None = None
    unrated_rating: Rating | None = None
    explain: bool = True
    # For small clients: only the first `top` rows of the standings and/or the row of
    # `player` (a start number). Everyone is still ranked; only the rows returned are
    # converted, breakdowns included.
    top: Annotated[int, Meta(ge=1, le=LIMITS.max_players,
                             description="Return only the first N rows of the standings")] | None = None
    player: Annotated[int, Meta(ge=1, le=LIMITS.max_player_id,
                                description="Return only this player's row (with `top`: also this row)")] | None = None
    # Who is ranked: the teams of a team event (`auto`), or, for a TRF with team records,
    # its players one by one (`players`: individual standings, e.g. for board prizes).
    participants: Annotated[Literal["auto", "players"], Meta(
        description="`auto`: teams for a team event, players otherwise; `players`: rank the players of a "
                    "TRF with team records individually (its team records are skipped with a warning)")] = "auto"

    def __post_init__(self) -> None:
        if (self.tournament is not None) + (self.trf is not None) + (self.team_tournament is not None) != 1:
            raise ValueError("give exactly one of `tournament`, `trf` and `team_tournament`")
        if self.participants == "players" and self.team_tournament is not None:
            raise ValueError("`participants: players` ranks the players of a TRF; a `team_tournament` ranks teams")
        if self.preset is not None and self.tiebreaks is not None:
            raise ValueError("give either `tiebreaks` or `preset`, not both")


# ---- responses ----

class ModifiersOut(Out):
    cut: int
    median: int
    limit: int | None
    forfeits_played: bool


class TiebreakOut(Out):
    spec: str
    code: str
    name: str
    article: str
    modifiers: ModifiersOut
    lower_is_better: bool
    dropped: str | None  # why the rule was dropped (C.07 10), or null


class ContributionOut(Out, omit_defaults=True):
    """One value a rule summed; the optional fields appear only when they say something.

    Scores and values are in points of the event's scoring. `opponent` is the player met,
    or for a forfeit and its dummy the scheduled opponent.
    """

    round: int | None
    kind: str
    opponent: int | None
    value: float
    opponent_key: str | None = None  # the opponent's `key`, when the request gave one
    unplayed: ResultName | None = None
    note: str | None = None
    cut: bool = False
    cut_reason: str | None = None
    cut_code: str | None = None  # vur-cut-first, least-significant, most-significant, dropped-lowest, ...
    opponent_score: float | None = None  # the opponent's score at face value
    counted_score: float | None = None  # what is counted for the opponent when it differs (C.07 16.3, US Chess 34E1)
    result: float | None = None  # Sonneborn-Berger: the points scored in the round
    own_score: float | None = None  # a dummy opponent: the player's own score (C.07 16.4)
    capped_at: float | None = None  # a dummy opponent: the cap applied (16.4.1, 16.4.2)
    article: str | None = None  # the article that set the value (16.3, 16.4, 16.4.1, 16.4.2)
    reason_code: str | None = None  # dummy-own-score, dummy-capped-at-opponent, dummy-capped-at-half


class RuleBreakdown(Out):
    value: float | None
    note: str | None
    contributions: list[ContributionOut]
    position: int = 0  # the rule's index in `tiebreaks` (and in the row's `values`)
    spec: str = ""  # the rule's canonical spec
    total_before_cut: float | None = None  # the sum of every contribution, when the rule cuts


class OpponentName(Out, omit_defaults=True):
    id: int
    name: str
    key: str | None = None  # the client's key for this player, when the request gave one


class Standing(Out, omit_defaults=True):
    """One row; the identity fields after `breakdown` appear when the request gave them."""

    rank: int
    id: int
    name: str
    points: float
    values: list[float | None]
    decided_by: str | None
    # By canonical spec; a rule listed again later is keyed "<spec>#<position + 1>".
    breakdown: dict[str, RuleBreakdown] | None
    # With breakdowns: the names of the players the breakdown mentions, to label them (null without).
    opponents: list[OpponentName] | None
    key: str | None = None
    fide_id: int | None = None
    federation: str | None = None
    title: str | None = None
    sex: SexName | None = None
    birth_date: str | None = None
    # Team events: the row is a team; `points` is its primary score, these are both scores.
    match_points: Annotated[float, Meta(description="Team events: the team's match points")] | None = None
    game_points: Annotated[float, Meta(description="Team events: the team's game points")] | None = None


class WarningOut(Out):
    code: str
    message: str
    rule: str | None


class ScoringOut(Out):
    """Every value of the scoring the standings were computed with."""

    win: float
    draw: float
    loss: float
    forfeit_win: float
    forfeit_loss: float
    pairing_bye: float
    full_bye: float
    half_bye: float
    zero_bye: float
    absent: float


class StandingsResponse(Out):
    regulations: AppliedRegulations
    system: SystemName
    system_inferred: bool
    rounds: int
    after_round: int | None  # the last round counted, when not every round is (given, or defaulted with a warning)
    scoring: ScoringOut
    tiebreaks: list[TiebreakOut]
    standings: list[Standing]
    warnings: list[WarningOut]
    total_players: int = 0  # players ranked; more than len(standings) when `top`/`player` chose rows
    # Team events: boards per match, and the score the standings are ordered by first (MP or GP).
    team_size: Annotated[int, Meta(description="Team events: boards per match (null otherwise)")] | None = None
    primary_score: Annotated[Literal["MP", "GP"], Meta(
        description="Team events: the score the standings are ordered by first, match (MP) or game points (GP)")] \
        | None = None


class CatalogueEntry(Out):
    code: str
    name: str
    article: str  # "C.07 8.1", "US Chess 34E1"
    description: str
    modifiers: list[str]
    regulations: list[str]  # the rule sets that accept the code
    lower_is_better: bool
    aliases: list[str]  # spellings accepted for the plain rule (case-insensitive)
    rating_based: bool  # dropped when unrated players take part, unless `unrated_rating` is given
    # The events the code ranks: individual tournaments, team events (SPEC 2.5), or both.
    events: Annotated[list[Literal["individual", "team"]], Meta(
        description="The events the code ranks: individual tournaments, team events, or both")] = msgspec.field(
        default_factory=lambda: ["individual"])


class PresetOut(Out):
    name: str
    origin: str
    description: str
    regulations: list[str]  # the rule sets it is a list for
    tiebreaks: list[str]  # canonical specs, in order
    event: Annotated[Literal["individual", "team"], Meta(
        description="The events the preset ranks: individual tournaments or team events")] = "individual"


class Health(Out):
    status: Literal["ok"]


class ProblemItem(Out):
    path: str
    message: str


class Problem(Out, omit_defaults=True):
    """RFC 9457 problem details; `warnings` (an extension member) appears only when reading the
    input gave some, e.g. the TRF reader's notes beside a crosstable error."""

    type: str
    title: str
    status: int
    detail: str
    errors: list[ProblemItem]
    warnings: list[WarningOut] = []


# Team events (SPEC 3.7) have their own module; imported last, as it builds on the structs above.
from . import schemas_teams  # noqa: E402
